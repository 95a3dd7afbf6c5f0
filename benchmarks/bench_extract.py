"""Workload 2, a text-heavy spider extraction, written idiomatically for each library.

From each real corpus page, a text-heavy extraction: the title, every
link's ``href``, ``get_text()`` of every ``<p>``, the meta tags, every
image's ``src``, ``get_text(" ", strip=True)`` of every ``ul > li`` and one
regex filter (absolute links).  The scrapy_soup and bs4 functions are the
same code a bs4 user writes; the parsel one is what a Scrapy user writes.
Timed including the parse (what a spider pays per page) and excluding it.
``--check`` compares the results on every page (scrapy_soup against bs4 on
every part; parsel on the string-level parts); ``--parts`` times each part
alone, excluding the parse.

    python benchmarks/bench_extract.py [--rounds 3] [--quick] [--check] [--parts]
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


def _meta_soup(soup: Any) -> dict[str, str]:
    meta = {}
    for m in soup.find_all("meta", content=True):
        key = m.get("name") or m.get("property")
        if key:
            meta[key] = m["content"]
    return meta


def _title_soup(soup: Any) -> str | None:
    title = soup.title
    return title.get_text(strip=True) if title else None


#: Each part of the extraction in bs4's API: runs unchanged on scrapy_soup and bs4.
PARTS_SOUP: dict[str, Callable[[Any], Any]] = {
    "title": _title_soup,
    "links": lambda soup: [a["href"] for a in soup.find_all("a", href=True)],
    "paragraphs": lambda soup: [p.get_text() for p in soup.find_all("p")],
    "meta": _meta_soup,
    "images": lambda soup: [img["src"] for img in soup.find_all("img", src=True)],
    "list_items": lambda soup: [
        li.get_text(" ", strip=True) for li in soup.select("ul > li")
    ],
    "external": lambda soup: [a["href"] for a in soup.find_all("a", href=ABSOLUTE)],
}


def extract_soup(soup: Any) -> dict[str, Any]:
    """The extraction in bs4's API: runs unchanged on scrapy_soup and bs4."""
    return {key: part(soup) for key, part in PARTS_SOUP.items()}


def _text(sel: parsel.Selector, separator: str) -> str:
    # bs4's get_text(sep, strip=True): stripped non-empty strings, joined.
    return separator.join(
        s for s in (t.strip() for t in sel.xpath(".//text()").getall()) if s
    )


def _meta_parsel(sel: parsel.Selector) -> dict[str, str]:
    meta = {}
    for m in sel.xpath("//meta[@content]"):
        key = m.attrib.get("name") or m.attrib.get("property")
        if key:
            meta[key] = m.attrib["content"]
    return meta


def _title_parsel(sel: parsel.Selector) -> str | None:
    title = sel.xpath("//title")
    return _text(title[0], "") if title else None


#: The same parts as a Scrapy user writes them with selectors.
PARTS_PARSEL: dict[str, Callable[[parsel.Selector], Any]] = {
    "title": _title_parsel,
    "links": lambda sel: sel.xpath("//a/@href").getall(),
    "paragraphs": lambda sel: [
        "".join(p.xpath(".//text()").getall()) for p in sel.xpath("//p")
    ],
    "meta": _meta_parsel,
    "images": lambda sel: sel.xpath("//img/@src").getall(),
    "list_items": lambda sel: [_text(li, " ") for li in sel.css("ul > li")],
    "external": lambda sel: [
        href for href in sel.xpath("//a/@href").getall() if ABSOLUTE.search(href)
    ],
}


def extract_parsel(sel: parsel.Selector) -> dict[str, Any]:
    """The same extraction as a Scrapy user writes it with selectors."""
    out = {key: part(sel) for key, part in PARTS_PARSEL.items() if key != "external"}
    # A Scrapy user filters the links already extracted, not the page again.
    out["external"] = [href for href in out["links"] if ABSOLUTE.search(href)]
    return out


IMPLS: list[tuple[str, Callable[[str], Any], Callable[[Any], Any]]] = [
    (OURS, Soup, extract_soup),
    ("bs4 (lxml)", parse_bs4, extract_soup),
    ("parsel", parse_parsel, extract_parsel),
]


def _including(
    parse: Callable[[str], Any], extract: Callable[[Any], Any]
) -> Callable[[str], Callable[[], Any]]:
    def prepare(text: str) -> Callable[[], Any]:
        def run() -> tuple[Any, Any]:
            doc = parse(text)
            return doc, extract(doc)  # the tree is freed untimed (`measure`)

        return run

    return prepare


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


def part_cases() -> list[Case]:
    """Each part of the extraction alone, excluding the parse (``--parts``)."""
    out = []
    for key in PARTS_SOUP:
        for name, parse, _ in IMPLS:
            part = (PARTS_PARSEL if name == "parsel" else PARTS_SOUP)[key]
            out.append(Case(f"2b. {key}", name, _excluding(parse, part)))
    return out


if __name__ == "__main__":
    if "--check" in sys.argv:
        from _corpus import real_pages

        for name, text in real_pages():
            bad = differences(text)
            if bad:
                print(name, bad)
        raise SystemExit
    if "--parts" in sys.argv:
        sys.argv.remove("--parts")
        standalone(part_cases, __doc__)
    else:
        standalone(cases, __doc__)
