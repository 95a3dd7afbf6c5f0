"""Side-by-side timing harness shared by the timed workloads (1-6) of run.py.

A `Case` is one implementation of one workload.  `measure` runs every case
on every page, round after round, in one process: for each page, each case
is prepared (untimed: e.g. the page parsed once for "excluding parse"
workloads) and then timed ``rounds`` times.  A round's total is the sum over
pages; the reported figure is the median of the round totals, so a slow
outlier round (GC, another process) does not move it.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

OURS = "scrapy_soup"


@dataclass(frozen=True)
class Case:
    """One implementation of one workload.

    ``prepare(text)`` runs untimed and returns the zero-argument callable
    that is timed.  ``fresh`` prepares again before every round, for
    workloads that change what they work on (edits).
    """

    workload: str
    impl: str
    prepare: Callable[[str], Callable[[], Any]]
    fresh: bool = False


@dataclass
class Row:
    """One line of the report: a workload's figure for one implementation."""

    workload: str
    impl: str
    value: float
    unit: str = "s"
    note: str = ""
    rounds: list[float] = field(default_factory=list)


def measure(
    cases: Iterable[Case],
    pages: list[tuple[str, str]],
    rounds: int,
    progress: Callable[[str], None] | None = None,
) -> list[Row]:
    """Time every case on every page; one `Row` per case, in the order given."""
    cases = list(cases)
    totals = [[0.0] * rounds for _ in cases]
    for n, (name, text) in enumerate(pages):
        if progress is not None:
            progress(f"  page {n + 1}/{len(pages)} {name}")
        for i, case in enumerate(cases):
            fn = case.prepare(text)
            for r in range(rounds):
                if case.fresh and r:
                    fn = case.prepare(text)
                start = time.perf_counter()
                made = fn()
                totals[i][r] += time.perf_counter() - start
                # Freeing what a case made is not timed, for any of them:
                # bs4's trees (reference cycles) wait for the collection
                # below, a soup or a parsel tree goes here, when let go.
                del made
            del fn
        # Trees of the previous page must not be collected inside the next
        # page's timings (bs4's trees are full of reference cycles).
        gc.collect()
    return [
        Row(case.workload, case.impl, statistics.median(t), rounds=t)
        for case, t in zip(cases, totals, strict=True)
    ]


def by_key(rows: Iterable[Row]) -> dict[tuple[str, str], Row]:
    """Index rows by (workload, implementation)."""
    return {(r.workload, r.impl): r for r in rows}


def summed(
    rows: list[Row], parts: list[str], workload: str, note: str = ""
) -> list[Row]:
    """Rows for ``workload`` whose value is the sum of the ``parts`` rows, per impl."""
    index = by_key(rows)
    impls = [r.impl for r in rows if r.workload == parts[-1]]
    out = []
    for impl in impls:
        found = [index.get((p, impl)) for p in parts]
        if all(f is not None for f in found):
            value = sum(f.value for f in found if f is not None)
            out.append(Row(workload, impl, value, note=note))
    return out


def print_rows(rows: list[Row]) -> None:
    """Print rows grouped by workload, with the ratio to scrapy_soup's figure."""
    index = by_key(rows)
    for row in rows:
        ours = index.get((row.workload, OURS))
        ratio = f"{row.value / ours.value:6.2f}x" if ours and ours.value else ""
        print(f"{row.workload:42} {row.impl:32} {row.value:10.3f} {row.unit:5} {ratio}")


def pick_pages(pages: list[tuple[str, str]], quick: bool) -> list[tuple[str, str]]:
    """All pages, or every fourth one (sizes stay spread) for ``--quick``."""
    return pages[::4] if quick else pages


def standalone(
    make_cases: Callable[[], list[Case]],
    doc: str | None,
    derive: Callable[[list[Row]], list[Row]] | None = None,
) -> None:
    """Run one workload module on its own: ``python benchmarks/bench_x.py``.

    ``derive`` adds rows computed from the measured ones (run.py's sums).
    """
    import argparse

    from _corpus import real_pages

    parser = argparse.ArgumentParser(description=(doc or "").split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a quarter of the pages")
    args = parser.parse_args()
    pages = pick_pages(real_pages(), args.quick)
    print(f"{len(pages)} real pages, median of {args.rounds} rounds (seconds)")
    rows = measure(make_cases(), pages, args.rounds)
    print_rows(rows + (derive(rows) if derive is not None else []))


_LAST_PARSE: dict[Any, tuple[str, Any]] = {}


def parsed_once(parse: Callable[[str], Any], text: str) -> Any:
    """``parse(text)``, reused by the next read-only case of the same page.

    Cases run page by page, so one remembered tree per parser saves parsing
    every page again for each workload that does not change the tree.
    """
    last = _LAST_PARSE.get(parse)
    if last is not None and last[0] is text:
        return last[1]
    doc = parse(text)
    _LAST_PARSE[parse] = (text, doc)
    return doc


def parse_bs4(text: str) -> Any:
    """``BeautifulSoup(text, "lxml")``: one function, so `parsed_once` shares it."""
    import bs4

    return bs4.BeautifulSoup(text, "lxml")


def parse_parsel(text: str) -> Any:
    """``parsel.Selector(text=text)``, shared the same way."""
    import parsel

    return parsel.Selector(text=text)
