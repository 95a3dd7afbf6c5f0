"""Workload 5, the article's transformations (edits) vs bs4, end to end.

``transform`` absolutizes relative ``href``s, resets ``class`` on every
``<b>``, replaces ``<img>`` attributes and inserts a tag before each
``<h2>``: timed as parse + edits, and as the edits alone on a fresh parse.

    python benchmarks/bench_mutate.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import bs4

sys.path.insert(0, str(Path(__file__).parent))
from _harness import OURS, Case, standalone

from scrapy_soup import Soup

INCLUDING = "5. edits (incl. parse)"
EXCLUDING = "5b. edits (excl. parse)"
BASE = "https://example.com/section/page.html"
_ABSOLUTE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//")


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


def _edits_only(parse: Callable[[str], Any]) -> Callable[[str], Callable[[], Any]]:
    def prepare(text: str) -> Callable[[], Any]:
        soup = parse(text)
        return lambda: transform(soup)

    return prepare


def cases() -> list[Case]:
    """End to end and edits alone (a fresh parse, untimed, for every round)."""
    return [
        Case(INCLUDING, OURS, lambda text: lambda: transform(Soup(text))),
        Case(INCLUDING, "bs4 (lxml)", lambda text: lambda: transform(_bs4(text))),
        Case(EXCLUDING, OURS, _edits_only(Soup), fresh=True),
        Case(EXCLUDING, "bs4 (lxml)", _edits_only(_bs4), fresh=True),
    ]


if __name__ == "__main__":
    standalone(cases, __doc__)
