#!/usr/bin/env bash
# Make `redis-server` available for tests/test_distributed.py (issue 11).
#
# Idempotent: does nothing when redis-server is already on PATH. Otherwise
# installs Debian's package (root, as on CI). Where that is impossible (no
# apt-get, not root, no network) it says so and exits 0: the distributed test
# then skips, naming the reason, and the rest of CI goes on.
set -uo pipefail

if command -v redis-server >/dev/null 2>&1; then
    echo "install-redis: $(redis-server --version | head -n 1)"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-redis: no redis-server and no apt-get; the distributed test will skip" >&2
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo -n"
else
    SUDO=""
fi

export DEBIAN_FRONTEND=noninteractive
# The Debian package starts a system service on install where an init system
# runs; the test starts its own server on a free port and never uses it.
if $SUDO apt-get update -qq >/dev/null \
    && $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null; then
    if command -v redis-server >/dev/null 2>&1; then
        echo "install-redis: installed $(redis-server --version | head -n 1)"
        exit 0
    fi
fi

echo "install-redis: could not install redis-server; the distributed test will skip" >&2
exit 0
