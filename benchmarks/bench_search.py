"""Search speed: scrapy_soup vs bs4 (lxml builder), side by side in one run.

For every real page of the corpus (fixtures left out), both libraries parse
the same decoded text, then run the same typical spider searches: the mix
of 14 typical compiled-filter ``find``/``find_all``/``select`` calls
(target: the mix >= 15x bs4 excluding the parse; ``run.py`` reports it as
workload 9) and two callables.  Times exclude parsing unless the row says
"end to end" (parse + the 14 searches).  ``--check`` compares every
search's results with bs4's on every page.

The "XPath alone" column is the ceiling for a compiled form: libxml2
evaluating ``count()`` of the equivalent XPath on the same tree (no Python
object for any result), and "max" is bs4's time over it: no view over lxml
can be faster than that ratio.  For the end-to-end row it is lxml's parse,
those XPaths, and the string search's regex over each distinct string of
the page once (dot access and the string walk itself counted as free).

    python benchmarks/bench_search.py [--repeat N] [--pages SUBSTRING] [--check]
"""

from __future__ import annotations

import argparse
import csv
import gc
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import bs4
from lxml import etree

# The corpus _corpus.py finds (the repository's, or SCRAPY_SOUP_CORPUS).
sys.path.insert(0, str(Path(__file__).parent))
from _corpus import CORPUS
from _harness import OURS, Case, parse_bs4, parsed_once

from scrapy_soup import Soup

WORD = re.compile(r"\b(the|and|news)\b", re.I)
ABSOLUTE = re.compile(r"^https?://")
MIX = "9. search: 14 compiled calls (excl. parse)"
STRING = "9b. find_all(string=re.compile(...)) (excl. parse)"


def real_pages(substring: str | None) -> list[Path]:
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["kind"] == "real"]
    return [
        CORPUS / r["file"] for r in rows if substring is None or substring in r["file"]
    ]


def page_values(soup: bs4.BeautifulSoup) -> tuple[str, str]:
    """The page's most common class and data-* attribute (so the searches find things)."""
    classes: Counter[str] = Counter()
    data: Counter[str] = Counter()
    for tag in soup.find_all(True):
        cls = tag.get("class")
        if isinstance(cls, list):
            classes.update(cls)
        data.update(k for k in tag.attrs if k.startswith("data-"))
    top_class = classes.most_common(1)[0][0] if classes else "none"
    top_data = data.most_common(1)[0][0] if data else "data-none"
    return top_class, top_data


Search = Callable[[Any, str, str], Any]

COMPILED: list[tuple[str, Search]] = [
    ('find_all("a", href=True)', lambda s, c, d: s.find_all("a", href=True)),
    ('find("div", class_=...)', lambda s, c, d: s.find("div", class_=c)),
    ("find_all(class_=...)", lambda s, c, d: s.find_all(class_=c)),
    ('find_all(["h1","h2","h3"])', lambda s, c, d: s.find_all(["h1", "h2", "h3"])),
    ('select("article p")', lambda s, c, d: s.select("article p")),
    ('select("div > a[href]")', lambda s, c, d: s.select("div > a[href]")),
    ('find_all(attrs={"data-x": True})', lambda s, c, d: s.find_all(attrs={d: True})),
    ("soup.body.a (dot access)", lambda s, c, d: s.body.a if s.body else None),
    ('find_all("p")', lambda s, c, d: s.find_all("p")),
    ('find_all("img", src=True)', lambda s, c, d: s.find_all("img", src=True)),
    (
        'find_all("a", href=re.compile(...))',
        lambda s, c, d: s.find_all("a", href=ABSOLUTE),
    ),
    (
        'find("meta", attrs={"property": ...})',
        lambda s, c, d: s.find("meta", attrs={"property": "og:title"}),
    ),
    ('select_one("h1")', lambda s, c, d: s.select_one("h1")),
    (
        "select(\"meta[property^='og:']\")",
        lambda s, c, d: s.select("meta[property^='og:']"),
    ),
]
#: A string search runs a regex over the page's text, as bs4's does: its
#: floor is that scan, so it stays near 1x whatever the view costs per
#: result.  Reported on its own (run.py's 9b) to keep the mix a measure of
#: the per-result cost.
STRINGS: list[tuple[str, Search]] = [
    ("find_all(string=re.compile(...))", lambda s, c, d: s.find_all(string=WORD)),
]
#: The bare XPath each compiled search amounts to ({c}: the class, {d}: the data-* name).
XPATH_ALONE: dict[str, str] = {
    'find_all("a", href=True)': "count(descendant::a[@href])",
    'find("div", class_=...)': "count((descendant::div[contains(@class, '{c}')]"
    "[contains(concat(' ', normalize-space(@class), ' '), ' {c} ')])[1])",
    "find_all(class_=...)": "count(descendant::*[contains(@class, '{c}')]"
    "[contains(concat(' ', normalize-space(@class), ' '), ' {c} ')])",
    'find_all(["h1","h2","h3"])': "count(descendant::h1 | descendant::h2 | descendant::h3)",
    'select("article p")': "count(descendant-or-self::article/descendant::p)",
    'select("div > a[href]")': "count(descendant-or-self::div/a[@href])",
    'find_all(attrs={"data-x": True})': "count(descendant::*[@{d}])",
    'find_all("p")': "count(descendant::p)",
    'find_all("img", src=True)': "count(descendant::img[@src])",
    'find("meta", attrs={"property": ...})': "count((descendant::meta"
    "[@property = 'og:title'])[1])",
    'select_one("h1")': "count((descendant::h1)[1])",
    "select(\"meta[property^='og:']\")": "count(descendant::meta"
    "[starts-with(@property, 'og:')])",
}

CALLABLES: list[tuple[str, Search]] = [
    (
        "find_all(lambda t: ...)",
        lambda s, c, d: s.find_all(lambda t: t.name == "a" and t.has_attr("href")),
    ),
    (
        "find_all(class_=callable)",
        lambda s, c, d: s.find_all(class_=lambda v: bool(v) and "a" in v),
    ),
]


def timed(fn: Callable[[], Any], repeat: int, collect: bool = False) -> float:
    """The best time of ``repeat`` calls (``collect``: each after a full collection).

    A bs4 tree is a web of reference cycles: the end-to-end row collects
    first, or the cyclic GC frees the last bs4 soup while the next parse is
    timed.  (Not the searches: a collection walks every object, which
    leaves the page's tree out of the CPU's cache.)
    """
    best = float("inf")
    for _ in range(repeat):
        if collect:
            gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bench_page(text: str, totals: dict[str, list[float]], repeat: int) -> None:
    """Time every search on one page with both libraries, adding to ``totals``."""
    theirs = bs4.BeautifulSoup(text, "lxml")
    ours = Soup(text, "lxml")
    root = etree.fromstring(text, etree.HTMLParser())  # for the XPath-alone column
    cls, data = page_values(theirs)
    xpaths: list[Any] = []  # the bare XPaths that compile (the end-to-end floor)
    for label, search in COMPILED + STRINGS + CALLABLES:
        t_bs4 = timed(lambda s=search: s(theirs, cls, data), repeat)  # type: ignore[misc]
        t_ours = timed(lambda s=search: s(ours, cls, data), repeat)  # type: ignore[misc]
        row = totals.setdefault(label, [0.0, 0.0, 0.0])
        row[0] += t_bs4
        row[1] += t_ours
        template = XPATH_ALONE.get(label)
        if template is not None:
            try:
                xpath = etree.XPath(template.format(c=cls, d=data))
            except etree.XPathSyntaxError:  # a class with a quote, an odd name
                continue
            xpaths.append(xpath)
            row[2] += timed(lambda x=xpath: x(root), repeat)  # type: ignore[misc]

    def run_all(soup: Any) -> None:
        for _, search in COMPILED:
            search(soup, cls, data)

    def floor() -> None:
        """lxml's parse and the bare XPaths."""
        root = etree.fromstring(text, etree.HTMLParser())
        for xpath in xpaths:
            xpath(root)

    e2e = totals.setdefault("end to end (parse + the 14 searches)", [0.0, 0.0, 0.0])
    e2e[0] += timed(lambda: run_all(bs4.BeautifulSoup(text, "lxml")), 1, True)
    e2e[1] += timed(lambda: run_all(Soup(text, "lxml")), 1, True)
    e2e[2] += timed(floor, 1, True)


@lru_cache(maxsize=1)
def _page_values(text: str) -> tuple[str, str]:
    return page_values(parsed_once(parse_bs4, text))


def run_mix(soup: Any, cls: str, data: str) -> list[Any]:
    """The 14 compiled searches, one after the other."""
    return [search(soup, cls, data) for _, search in COMPILED]


def _on_parsed(
    parse: Callable[[str], Any], work: Callable[[Any, str, str], Any]
) -> Callable[[str], Callable[[], Any]]:
    def prepare(text: str) -> Callable[[], Any]:
        soup = parsed_once(parse, text)
        cls, data = _page_values(text)
        return lambda: work(soup, cls, data)

    return prepare


def cases() -> list[Case]:
    """run.py's workload 9: the mix, and the string search, on built trees."""
    impls = [(OURS, Soup), ("bs4 (lxml)", parse_bs4)]
    string_search = STRINGS[0][1]
    return [Case(MIX, name, _on_parsed(parse, run_mix)) for name, parse in impls] + [
        Case(STRING, name, _on_parsed(parse, string_search)) for name, parse in impls
    ]


def _comparable(result: Any) -> Any:
    if isinstance(result, list):
        return [(type(x).__name__, str(x)) for x in result]
    return None if result is None else str(result)


def differences(text: str) -> list[str]:
    """The searches whose results on scrapy_soup differ from bs4's."""
    theirs = bs4.BeautifulSoup(text, "lxml")
    ours = Soup(text, "lxml")
    cls, data = page_values(theirs)
    return [
        label
        for label, search in COMPILED + STRINGS + CALLABLES
        if _comparable(search(ours, cls, data))
        != _comparable(search(theirs, cls, data))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages", default=None)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--quick", action="store_true", help="a quarter of the pages")
    args = parser.parse_args()
    pages = real_pages(args.pages)
    if args.quick:
        pages = pages[::4]  # as _harness.pick_pages: sizes stay spread
    if args.check:
        for path in pages:
            bad = differences(path.read_bytes().decode("utf-8"))
            if bad:
                print(path.name, bad)
        return
    totals: dict[str, list[float]] = {}
    for path in pages:
        bench_page(path.read_bytes().decode("utf-8"), totals, args.repeat)

    print(f"{len(pages)} pages, best of {args.repeat}; total seconds over all pages")
    print(
        f"{'search':45} {'bs4':>9} {'scrapy_soup':>12} {'ratio':>8}"
        f" {'XPath alone':>12} {'max':>7}"
    )
    mix = [totals[label] for label, _ in COMPILED]
    totals[f"the {len(mix)} compiled calls together"] = [
        sum(row[0] for row in mix),
        sum(row[1] for row in mix),
        0.0,
    ]
    for label, (t_bs4, t_ours, t_xpath) in totals.items():
        kind = " (callable)" if any(label == name for name, _ in CALLABLES) else ""
        ceiling = f" {t_xpath:12.4f} {t_bs4 / t_xpath:6.1f}x" if t_xpath else ""
        print(
            f"{label + kind:45} {t_bs4:9.4f} {t_ours:12.4f} {t_bs4 / t_ours:7.1f}x"
            + ceiling
        )


if __name__ == "__main__":
    main()
