"""Workload 6, cleaning + link absolutizing of a page's HTML vs nh3 and lxml_html_clean.

Each real corpus page's HTML goes through:

- scrapy_soup, one call on a string (what a user writes):
  ``clean(html, base_url=base)``, one parse;
- scrapy_soup, the two public functions on strings:
  ``absolutize_links(clean(html), base)``;
- scrapy_soup, one tree (what the pipelines do): a fragment soup cleaned and
  absolutized in place, then ``str()``;
- ``nh3.clean(html)`` alone (Rust; cleaning only, no link rewriting);
- lxml_html_clean: ``Cleaner().clean_html`` on a parsed tree,
  ``make_links_absolute``, ``tostring``.

The cleaner objects are built once, outside the timings, as a pipeline does.
The corpus pages are whole documents: the string paths keep them whole
(``<html>``, ``<head>``, ``<body>``, the doctype) and drop the comments
around ``<html>``, as ``clean()`` does for any document; the one-tree path
works on a fragment soup of the page, as a pipeline does with a field.

    python benchmarks/bench_pipelines.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lxml.html

sys.path.insert(0, str(Path(__file__).parent))
from _harness import OURS, Case, standalone

from scrapy_soup import Soup, absolutize_links, clean

WORKLOAD = "6. clean + absolutize links"
BASE = "https://example.com/section/page.html"


def _ours_one_call(html: str) -> str:
    return clean(html, base_url=BASE)


def _ours_two_calls(html: str) -> str:
    return absolutize_links(clean(html), BASE)


def _ours_one_tree(html: str) -> str:
    fragment = Soup(html, "fragment")
    clean(fragment)
    absolutize_links(fragment, BASE)
    return str(fragment)


def _timed(fn: Callable[[str], Any]) -> Callable[[str], Callable[[], Any]]:
    return lambda text: lambda: fn(text)


def cases() -> list[Case]:
    """The three scrapy_soup paths and the installed competitors."""
    out = [
        Case(WORKLOAD, OURS, _timed(_ours_one_call)),
        Case(WORKLOAD, "scrapy_soup (two calls)", _timed(_ours_two_calls)),
        Case(WORKLOAD, "scrapy_soup (one tree)", _timed(_ours_one_tree)),
    ]
    try:
        import nh3
    except ImportError:
        print("nh3 is not installed: pip install nh3", file=sys.stderr)
    else:
        out.append(Case(WORKLOAD, "nh3.clean (no links)", _timed(nh3.clean)))
    try:
        from lxml_html_clean import Cleaner
    except ImportError:
        print("lxml_html_clean is not installed", file=sys.stderr)
    else:
        cleaner = Cleaner()

        def lxml_clean(html: str) -> str:
            doc = cleaner.clean_html(lxml.html.fromstring(html))
            doc.make_links_absolute(BASE)
            return lxml.html.tostring(doc, encoding="unicode")

        out.append(Case(WORKLOAD, "lxml_html_clean + links", _timed(lxml_clean)))
    return out


if __name__ == "__main__":
    standalone(cases, __doc__)
