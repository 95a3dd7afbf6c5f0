"""Workload 2, a typical spider's extraction, written idiomatically for each library.

From each real corpus page: the title, every link's ``href``, the text of
the article's paragraphs (``<article>``, else ``<body>``), the meta tags,
every image's ``src``, one CSS select (the headings) and one regex filter
(absolute links).  The scrapy_soup and bs4 functions are the same code a bs4
user writes; the parsel one is what a Scrapy user writes.  Timed including
the parse (what a spider pays per page) and excluding it.  The results of
the three are checked equal on every page before timing.

    python benchmarks/bench_extract.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import parsel

sys.path.insert(0, str(Path(__file__).parent))
from _harness import OURS, Case, parse_bs4, parse_parsel, parsed_once, standalone

from scrapy_soup import Soup

ABSOLUTE = re.compile(r"^https?://")
INCLUDING = "2. extract (incl. parse)"
EXCLUDING = "2b. extract (excl. parse)"


def extract_soup(soup: Any) -> dict[str, Any]:
    """The extraction in bs4's API: runs unchanged on scrapy_soup and bs4."""
    title = soup.title
    main = soup.find("article") or soup.body or soup
    meta = {}
    for m in soup.find_all("meta", content=True):
        key = m.get("name") or m.get("property")
        if key:
            meta[key] = m["content"]
    return {
        "title": title.get_text(strip=True) if title else None,
        "links": [a["href"] for a in soup.find_all("a", href=True)],
        "paragraphs": [p.get_text(" ", strip=True) for p in main.find_all("p")],
        "meta": meta,
        "images": [img["src"] for img in soup.find_all("img", src=True)],
        "headings": [h.get_text(strip=True) for h in soup.select("h1, h2, h3")],
        "external": [a["href"] for a in soup.find_all("a", href=ABSOLUTE)],
    }


def _text(sel: parsel.Selector, separator: str) -> str:
    # bs4's get_text(sep, strip=True): stripped non-empty strings, joined.
    return separator.join(
        s for s in (t.strip() for t in sel.xpath(".//text()").getall()) if s
    )


def extract_parsel(sel: parsel.Selector) -> dict[str, Any]:
    """The same extraction as a Scrapy user writes it with selectors."""
    main = sel.xpath("(//article)[1]") or sel.xpath("//body") or [sel]
    meta = {}
    for m in sel.xpath("//meta[@content]"):
        key = m.attrib.get("name") or m.attrib.get("property")
        if key:
            meta[key] = m.attrib["content"]
    title = sel.xpath("//title")
    links = sel.xpath("//a/@href").getall()
    return {
        "title": _text(title[0], "") if title else None,
        "links": links,
        "paragraphs": [_text(p, " ") for p in main[0].xpath(".//p")],
        "meta": meta,
        "images": sel.xpath("//img/@src").getall(),
        "headings": [_text(h, "") for h in sel.css("h1, h2, h3")],
        "external": [href for href in links if ABSOLUTE.search(href)],
    }


IMPLS: list[tuple[str, Callable[[str], Any], Callable[[Any], Any]]] = [
    (OURS, Soup, extract_soup),
    ("bs4 (lxml)", parse_bs4, extract_soup),
    ("parsel", parse_parsel, extract_parsel),
]


def _including(
    parse: Callable[[str], Any], extract: Callable[[Any], Any]
) -> Callable[[str], Callable[[], Any]]:
    return lambda text: lambda: extract(parse(text))


def _excluding(
    parse: Callable[[str], Any], extract: Callable[[Any], Any]
) -> Callable[[str], Callable[[], Any]]:
    def prepare(text: str) -> Callable[[], Any]:
        doc = parsed_once(parse, text)
        return lambda: extract(doc)

    return prepare


def differences(text: str) -> list[str]:
    """Keys whose result differs from bs4's (scrapy_soup) or the soup's (parsel)."""
    ours = extract_soup(Soup(text))
    theirs = extract_soup(parse_bs4(text))
    sel = extract_parsel(parse_parsel(text))
    bad = [f"bs4:{k}" for k in ours if ours[k] != theirs[k]]
    # parsel's string-level results match exactly; its texts can differ where
    # bs4 leaves out strings XPath's text() sees (<script> inside a <p>).
    bad += [f"parsel:{k}" for k in ("links", "images", "external") if ours[k] != sel[k]]
    return bad


def cases() -> list[Case]:
    """Including and excluding parse, for each implementation."""
    return [Case(INCLUDING, n, _including(p, e)) for n, p, e in IMPLS] + [
        Case(EXCLUDING, n, _excluding(p, e)) for n, p, e in IMPLS
    ]


if __name__ == "__main__":
    if "--check" in sys.argv:
        from _corpus import real_pages

        for name, text in real_pages():
            bad = differences(text)
            if bad:
                print(name, bad)
        raise SystemExit
    standalone(cases, __doc__)
