"""Shared helpers for the benchmarks: the real pages of the corpus, timing."""

from __future__ import annotations

import csv
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
