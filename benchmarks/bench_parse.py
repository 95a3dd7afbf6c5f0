"""Workload 1, parse: the soup vs bs4 (lxml, html.parser), parsel, lxml, selectolax.

Every implementation parses the same decoded text of each real corpus page.
``Soup(selector)`` is the middleware's case: wrapping a tree parsel already
built (no parse at all).

    python benchmarks/bench_parse.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bs4
import lxml.html
import parsel

sys.path.insert(0, str(Path(__file__).parent))
from _harness import OURS, Case, standalone

from scrapy_soup import Soup

WORKLOAD = "1. parse"


def _timed(fn: Callable[[str], Any]) -> Callable[[str], Callable[[], Any]]:
    return lambda text: lambda: fn(text)


def _wrap_selector(text: str) -> Callable[[], Any]:
    selector = parsel.Selector(text=text)
    return lambda: Soup(selector)


def cases() -> list[Case]:
    """One case per parser; selectolax only when it is installed."""
    out = [
        Case(WORKLOAD, OURS, _timed(Soup)),
        Case(WORKLOAD, "bs4 (lxml)", _timed(lambda t: bs4.BeautifulSoup(t, "lxml"))),
        Case(
            WORKLOAD,
            "bs4 (html.parser)",
            _timed(lambda t: bs4.BeautifulSoup(t, "html.parser")),
        ),
        Case(WORKLOAD, "parsel.Selector", _timed(lambda t: parsel.Selector(text=t))),
        Case(WORKLOAD, "lxml.html.fromstring", _timed(lxml.html.fromstring)),
    ]
    try:
        from selectolax.lexbor import LexborHTMLParser
        from selectolax.parser import HTMLParser
    except ImportError:  # optional: only a reference point
        pass
    else:
        out.append(Case(WORKLOAD, "selectolax (modest)", _timed(HTMLParser)))
        out.append(Case(WORKLOAD, "selectolax (lexbor)", _timed(LexborHTMLParser)))
    out.append(Case("1b. wrap a parsel.Selector", OURS, _wrap_selector))
    return out


if __name__ == "__main__":
    standalone(cases, __doc__)
