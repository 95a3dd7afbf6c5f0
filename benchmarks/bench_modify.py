"""Editing speed: the article's transformations, scrapy_soup vs bs4 (lxml builder).

For every real page of the corpus (fixtures left out), both libraries parse
the same decoded text and apply the article's edits: absolutize every
relative ``href``, reset ``class`` on every ``<b>``, replace every
``<img>``'s attributes, insert a new tag before each ``<h2>``.  Rows: the
edits alone, parse + edits ("end to end", the issue 5 target: >= 5x), and
parse + edits + ``str()``.  The two outputs are checked equal on every page.

    python benchmarks/bench_modify.py [--repeat N] [--pages SUBSTRING]
"""

from __future__ import annotations

import argparse
import csv
import re
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import bs4

from scrapy_soup import Soup

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
BASE = "https://example.com/section/page.html"
_ABSOLUTE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//")
_BOOLEAN = re.compile(r' ([a-z-]+)="\1"')


def real_pages(substring: str | None) -> list[Path]:
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["kind"] == "real"]
    return [
        CORPUS / r["file"] for r in rows if substring is None or substring in r["file"]
    ]


def transform(soup: Any) -> Any:
    """The article's edits, written once for both libraries."""
    for a in soup.find_all(href=True):
        href = a["href"]
        if not _ABSOLUTE.match(href):
            a["href"] = urljoin(BASE, href)
    for b in soup.find_all("b"):
        b["class"] = "waylessbold"
    for img in soup.find_all("img"):
        img.attrs = {"height": 22, "width": 42, "src": img.get("src", "")}
    for h2 in soup.find_all("h2"):
        itag = soup.new_tag("i")
        itag.string = "italicized"
        h2.insert_before(itag)
    return soup


def _bs4(text: str) -> Any:
    return bs4.BeautifulSoup(text, "lxml")


MAKERS: list[Callable[[str], Any]] = [Soup, _bs4]


def _edit_next(soups: Iterator[Any]) -> Any:
    return transform(next(soups))


def _end_to_end(make: Callable[[str], Any], text: str, output: bool) -> Any:
    soup = transform(make(text))
    return str(soup) if output else soup


def timed(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages", default=None)
    args = parser.parse_args()
    texts = [p.read_bytes().decode("utf-8") for p in real_pages(args.pages)]
    totals = {"edits": [0.0, 0.0], "end to end": [0.0, 0.0], "+ str()": [0.0, 0.0]}
    for text in texts:
        ours_out = str(transform(Soup(text)))
        theirs_out = str(transform(bs4.BeautifulSoup(text, "lxml")))
        if _BOOLEAN.sub(r' \1=""', ours_out) != _BOOLEAN.sub(r' \1=""', theirs_out):
            raise SystemExit("outputs differ: the benchmark would compare nothing")
        for side, make in enumerate(MAKERS):
            soups = iter([make(text) for _ in range(args.repeat)])
            totals["edits"][side] += timed(partial(_edit_next, soups), args.repeat)
            totals["end to end"][side] += timed(
                partial(_end_to_end, make, text, False), args.repeat
            )
            totals["+ str()"][side] += timed(
                partial(_end_to_end, make, text, True), args.repeat
            )
    print(f"{len(texts)} real pages, best of {args.repeat}")
    print(f"{'':14} {'scrapy_soup':>12} {'bs4':>10} {'ratio':>7}")
    for row, (ours, theirs) in totals.items():
        print(f"{row:14} {ours:11.3f}s {theirs:9.3f}s {theirs / ours:6.1f}x")


if __name__ == "__main__":
    main()
