"""Search speed: scrapy_soup vs bs4 (lxml builder), side by side in one run.

For every real page of the corpus (fixtures left out), both libraries parse
the same decoded text, then run the same typical spider searches.  Times
exclude parsing unless the row says "end to end" (parse + the searches).
Targets: compiled forms >= 20x, callables >= 1x, end to end >= 10x.

The "XPath alone" column is the ceiling for a compiled form: libxml2
evaluating ``count()`` of the equivalent XPath on the same tree (no Python
object for any result), and "max" is bs4's time over it: no view over lxml
can be faster than that ratio.  For the end-to-end row it is lxml's parse,
those XPaths, and the string search's regex over each distinct string of
the page once (dot access and the string walk itself counted as free).

    python benchmarks/bench_search.py [--repeat N] [--pages SUBSTRING]
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
from pathlib import Path
from typing import Any

import bs4
from lxml import etree

from scrapy_soup._tree._soup import Soup

# The corpus _corpus.py finds (the repository's, or SCRAPY_SOUP_CORPUS).
sys.path.insert(0, str(Path(__file__).parent))
from _corpus import CORPUS

WORD = re.compile(r"\b(the|and|news)\b", re.I)


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
    ("find_all(string=re.compile(...))", lambda s, c, d: s.find_all(string=WORD)),
    ('find_all(attrs={"data-x": True})', lambda s, c, d: s.find_all(attrs={d: True})),
    ("soup.body.a (dot access)", lambda s, c, d: s.body.a if s.body else None),
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
    cls, data = page_values(theirs)
    xpaths: list[Any] = []  # the bare XPaths that compile (the end-to-end floor)
    for label, search in COMPILED + CALLABLES:
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
            row[2] += timed(lambda x=xpath: x(ours._root), repeat)  # type: ignore[misc]

    def run_all(soup: Any) -> None:
        for _, search in COMPILED:
            search(soup, cls, data)

    def floor() -> None:
        """lxml's parse, the bare XPaths, and the regex over each distinct string."""
        root = etree.fromstring(text, etree.HTMLParser())
        for xpath in xpaths:
            xpath(root)
        strings: set[str | None] = set()
        for node in root.iter():
            strings.add(node.text)
            strings.add(node.tail)
        [t for t in strings if t and WORD.search(t)]

    e2e = totals.setdefault("end to end (parse + the searches above)", [0.0, 0.0, 0.0])
    e2e[0] += timed(lambda: run_all(bs4.BeautifulSoup(text, "lxml")), 1, True)
    e2e[1] += timed(lambda: run_all(Soup(text, "lxml")), 1, True)
    e2e[2] += timed(floor, 1, True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages", default=None)
    args = parser.parse_args()
    pages = real_pages(args.pages)
    totals: dict[str, list[float]] = {}
    for path in pages:
        bench_page(path.read_bytes().decode("utf-8"), totals, args.repeat)

    print(f"{len(pages)} pages, best of {args.repeat}; total seconds over all pages")
    print(
        f"{'search':45} {'bs4':>9} {'scrapy_soup':>12} {'ratio':>8}"
        f" {'XPath alone':>12} {'max':>7}"
    )
    for label, (t_bs4, t_ours, t_xpath) in totals.items():
        kind = " (callable)" if any(label == name for name, _ in CALLABLES) else ""
        ceiling = f" {t_xpath:12.4f} {t_bs4 / t_xpath:6.1f}x" if t_xpath else ""
        print(
            f"{label + kind:45} {t_bs4:9.4f} {t_ours:12.4f} {t_bs4 / t_ours:7.1f}x"
            + ceiling
        )


if __name__ == "__main__":
    main()
