"""Workload 4, output: ``str()`` and ``prettify()`` of a parsed page.

scrapy_soup and bs4 (lxml) produce the same characters (tested in
tests/test_tree*.py); parsel's ``Selector.get()`` (lxml's serializer, not
bs4's output) is a reference point for ``str()``.  Parsing is not timed.

    python benchmarks/bench_output.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _harness import OURS, Case, parse_bs4, parse_parsel, parsed_once, standalone

from scrapy_soup import Soup

STR = "4a. str()"
PRETTIFY = "4b. prettify()"
ALL = "4. output: str() + prettify()"


def _on_parsed(
    parse: Callable[[str], Any], work: Callable[[Any], Any]
) -> Callable[[str], Callable[[], Any]]:
    def prepare(text: str) -> Callable[[], Any]:
        doc = parsed_once(parse, text)
        return lambda: work(doc)

    return prepare


def cases() -> list[Case]:
    """str() and prettify() for both soups; parsel's get() for reference."""
    return [
        Case(STR, OURS, _on_parsed(Soup, str)),
        Case(STR, "bs4 (lxml)", _on_parsed(parse_bs4, str)),
        Case(
            STR,
            "parsel .get() (lxml serializer)",
            _on_parsed(parse_parsel, lambda s: s.get()),
        ),
        Case(PRETTIFY, OURS, _on_parsed(Soup, lambda s: s.prettify())),
        Case(PRETTIFY, "bs4 (lxml)", _on_parsed(parse_bs4, lambda s: s.prettify())),
    ]


if __name__ == "__main__":
    standalone(cases, __doc__)
