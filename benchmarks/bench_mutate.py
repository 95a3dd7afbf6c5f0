"""Workload 5, the article's transformations (edits) vs bs4, end to end.

Reuses ``bench_modify.transform`` (absolutize relative ``href``s, reset
``class`` on every ``<b>``, replace ``<img>`` attributes, insert a tag before
each ``<h2>``): parse + edits, and the edits alone on a fresh parse.

    python benchmarks/bench_mutate.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bs4

sys.path.insert(0, str(Path(__file__).parent))
from _harness import OURS, Case, standalone
from bench_modify import transform

from scrapy_soup import Soup

INCLUDING = "5. edits (incl. parse)"
EXCLUDING = "5b. edits (excl. parse)"


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
