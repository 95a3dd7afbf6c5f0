"""Shared helpers for the benchmarks: the real pages of the corpus, timing."""

from __future__ import annotations

import csv
import http.server
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CORPUS = Path(
    os.environ.get(
        "SCRAPY_SOUP_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
)


def real_pages() -> list[tuple[str, str]]:
    """(name, decoded text) of every ``kind=real`` page (fixtures are left out)."""
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["kind"] == "real"]
    return [
        (r["file"], (CORPUS / r["file"]).read_bytes().decode("utf-8")) for r in rows
    ]


def corpus_server(bodies: list[bytes]) -> http.server.ThreadingHTTPServer:
    """A server on 127.0.0.1 (any port): a path ending in ``/<n>`` is page ``n``.

    ``n`` wraps around the pages; the caller runs ``serve_forever``.
    """

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes: without TCP_NODELAY,
        # Nagle + delayed ACK stall every response ~40 ms.
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            try:
                index = int(self.path.rsplit("/", 1)[1])
            except ValueError:
                index = 0
            body = bodies[index % len(bodies)]
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    return server


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
