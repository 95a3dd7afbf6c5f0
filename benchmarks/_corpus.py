"""Shared helpers for the benchmarks: the real pages of the corpus, timing."""

from __future__ import annotations

import csv
import http.server
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_DIR = Path(__file__).resolve().parents[1]
#: The repository's test corpus, or SCRAPY_SOUP_CORPUS: a bigger one with the
#: same MANIFEST.tsv layout (the published figures used the 134-page corpus).
CORPUS = Path(
    os.environ.get("SCRAPY_SOUP_CORPUS") or REPO_DIR / "tests" / "data" / "corpus"
)

# The one local HTTP server of the tests (standard library only).
sys.path.insert(0, str(REPO_DIR / "tests"))
from local_server import LocalServer, Reply  # noqa: E402


def real_pages() -> list[tuple[str, str]]:
    """(name, decoded text) of every ``kind=real`` page (fixtures are left out)."""
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["kind"] == "real"]
    return [
        (r["file"], (CORPUS / r["file"]).read_bytes().decode("utf-8")) for r in rows
    ]


def corpus_server(bodies: list[bytes]) -> http.server.ThreadingHTTPServer:
    """The tests' local server (127.0.0.1, any port): ``/<n>`` is page ``n``.

    ``n`` wraps around the pages; the caller runs ``serve_forever``.
    """

    def respond(target: str) -> Reply:
        try:
            index = int(target.rsplit("/", 1)[1])
        except ValueError:
            index = 0
        body = bodies[index % len(bodies)]
        return Reply(body, headers=[("Content-Type", "text/html; charset=utf-8")])

    return LocalServer(respond, nodelay=True).httpd


def median_time(fn: Callable[[], Any], rounds: int) -> float:
    """Median wall time of ``rounds`` calls of ``fn``."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def table(rows: list[tuple[str, float, float]], ours: str = "scrapy_soup") -> str:
    """A Markdown table: workload, the two totals, and the speed-up ratio."""
    lines = [
        f"| workload | {ours} (s) | other (s) | other / {ours} |",
        "|---|---:|---:|---:|",
    ]
    for name, mine, other in rows:
        lines.append(f"| {name} | {mine:.3f} | {other:.3f} | {other / mine:.1f}x |")
    return "\n".join(lines)
