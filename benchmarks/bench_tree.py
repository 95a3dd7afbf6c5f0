"""Building and printing a soup, side by side with bs4 (issue 3's benchmark).

For every real page of the corpus, in one process: ``Soup(text)`` vs
``BeautifulSoup(text, "lxml")``, ``Soup(selector)`` over an existing
``parsel.Selector`` (the middleware's case), and ``str()`` of each.  Prints
the totals (sum over pages of the median of ``--rounds`` runs) and ratios.

    python benchmarks/bench_tree.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import bs4
import parsel

sys.path.insert(0, str(Path(__file__).parent))
from _corpus import median_time, real_pages, table

from scrapy_soup import Soup


def measure(text: str, r: int) -> dict[str, float]:
    """Median seconds of each workload on one page."""
    selector = parsel.Selector(text=text)
    ours, theirs = Soup(text), bs4.BeautifulSoup(text, "lxml")
    return {
        "soup": median_time(lambda: Soup(text), r),
        "bs4": median_time(lambda: bs4.BeautifulSoup(text, "lxml"), r),
        "selector": median_time(lambda: parsel.Selector(text=text), r),
        "soup_sel": median_time(lambda: Soup(selector), r),
        "str_soup": median_time(lambda: str(ours), r),
        "str_bs4": median_time(lambda: str(theirs), r),
        "text_soup": median_time(lambda: ours.get_text(), r),
        "text_bs4": median_time(lambda: theirs.get_text(), r),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    pages = real_pages()
    totals = dict.fromkeys(
        [
            "soup",
            "bs4",
            "selector",
            "soup_sel",
            "str_soup",
            "str_bs4",
            "text_soup",
            "text_bs4",
        ],
        0.0,
    )
    for _name, text in pages:
        for key, seconds in measure(text, args.rounds).items():
            totals[key] += seconds
    print(f"{len(pages)} real pages, median of {args.rounds} rounds each, totals:\n")
    rows = [
        (
            "build from text vs BeautifulSoup(text, 'lxml')",
            totals["soup"],
            totals["bs4"],
        ),
        (
            "build from a parsel.Selector vs BeautifulSoup",
            totals["soup_sel"],
            totals["bs4"],
        ),
        ("str(soup) vs str(bs4 soup)", totals["str_soup"], totals["str_bs4"]),
        ("get_text() vs bs4 get_text()", totals["text_soup"], totals["text_bs4"]),
        (
            "parse + str, end to end",
            totals["soup"] + totals["str_soup"],
            totals["bs4"] + totals["str_bs4"],
        ),
    ]
    print(table(rows, "scrapy_soup"))
    print(f"\n(parsel.Selector(text) itself: {totals['selector']:.3f} s)")


if __name__ == "__main__":
    main()
