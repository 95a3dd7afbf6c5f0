"""Workload 3, navigation of a built tree: walks, ``get_text()``, ``find_all(True)``.

The same bs4-API code runs on a scrapy_soup and a bs4 (lxml) soup of each
real corpus page, parsed beforehand (the rows exclude the parse; the report
adds the parse row for "including parse"): ``.descendants``, ``.next_sibling``
chains, ``get_text()``, ``find_all(True)`` and ``find_all(string=True)``
(the walks with a speed target).  ``--check`` compares the results with bs4's on every
page.

The "lxml alone" rows are the floor of any view over lxml: the same walks
in lxml's own API (its element proxies and text strings, no wrapper, no
string class), on lxml's parse of the page (parsel's tree), with every
element proxy held as a view's wrappers hold them.

    python benchmarks/bench_navigation.py [--rounds 3] [--quick] [--check]
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bs4

sys.path.insert(0, str(Path(__file__).parent))
from _harness import (
    OURS,
    Case,
    Row,
    parse_bs4,
    parse_parsel,
    parsed_once,
    standalone,
    summed,
)
from lxml import etree

import scrapy_soup
from scrapy_soup import Soup

DESCENDANTS = "3a. walk .descendants"
SIBLINGS = "3b. .next_sibling chains"
TEXT = "3c. get_text()"
TAGS = "3d. find_all(True)"
STRINGS = "3e. find_all(string=True)"
ALL = "3. navigation (excl. parse)"


def walk_descendants(soup: Any) -> Counter[str | None]:
    """Count the nodes below the soup by tag name (strings count as None)."""
    return Counter(node.name for node in soup.descendants)


def sibling_chains(soup: Any, tag_type: type) -> int:
    """Visit every node by first child and ``.next_sibling`` links, depth first."""
    seen = 0
    stack = [soup]
    while stack:
        node = next(stack.pop().children, None)
        while node is not None:
            seen += 1
            if isinstance(node, tag_type):
                stack.append(node)
            node = node.next_sibling
    return seen


def texts(soup: Any) -> tuple[str, str]:
    """The page's text, raw and as ``get_text(" ", strip=True)``."""
    return soup.get_text(), soup.get_text(" ", strip=True)


def all_tags(soup: Any) -> list[Any]:
    """Every tag below the soup."""
    return soup.find_all(True)


def all_strings(soup: Any) -> list[Any]:
    """Every string below the soup."""
    return soup.find_all(string=True)


def lxml_descendants(root: Any) -> Counter[str | None]:
    """`walk_descendants` on the lxml tree: a name per element, None per string."""
    names: Counter[str | None] = Counter()
    for node in root.iter():
        tag = node.tag
        names[tag if isinstance(tag, str) else None] += 1
        if node.text and isinstance(tag, str):
            names[None] += 1
        if node.tail and node is not root:
            names[None] += 1
    return names


def lxml_sibling_chains(root: Any) -> int:
    """`sibling_chains` on the lxml tree: first child, text, ``getnext()``, tail."""
    seen = 0
    stack = [root]
    while stack:
        parent = stack.pop()
        if parent.text and isinstance(parent.tag, str):
            seen += 1
        node = parent[0] if len(parent) else None
        while node is not None:
            seen += 1
            if len(node):
                stack.append(node)
            elif node.text and isinstance(node.tag, str):
                seen += 1
            if node.tail:
                seen += 1
            node = node.getnext()
    return seen


def lxml_texts(root: Any) -> tuple[str, str]:
    """`texts` on the lxml tree: ``itertext()`` joined, raw and stripped."""
    strings = list(root.itertext())
    return "".join(strings), " ".join(t for t in (s.strip() for s in strings) if t)


def lxml_tags(root: Any) -> list[Any]:
    """`all_tags` on the lxml tree: every element (no comment, no PI)."""
    return list(root.iter(etree.Element))


def lxml_strings(root: Any) -> list[str]:
    """`all_strings` on the lxml tree: each element's text and tail."""
    out = []
    for node in root.iter():
        if node.text and isinstance(node.tag, str):
            out.append(node.text)
        if node.tail:
            out.append(node.tail)
    return out


def _held_tree(text: str) -> tuple[Any, list[Any]]:
    # A view holds the element proxies of the nodes it wrapped, so lxml
    # hands the same ones back; a tree nobody holds makes (and frees) a
    # proxy per node on every walk, twice the time: not a view's floor.
    root = parsed_once(parse_parsel, text).root
    return root, list(root.iter())


def _lxml_root(text: str) -> Any:
    """lxml's tree of the page (parsel's parse), every element proxy held."""
    return parsed_once(_held_tree, text)[0]


LXML = "lxml alone (floor of a view)"

IMPLS: list[tuple[str, Callable[[str], Any], type]] = [
    (OURS, Soup, scrapy_soup.Tag),
    ("bs4 (lxml)", parse_bs4, bs4.Tag),
]


def _on_parsed(
    parse: Callable[[str], Any], work: Callable[[Any], Any]
) -> Callable[[str], Callable[[], Any]]:
    def prepare(text: str) -> Callable[[], Any]:
        soup = parsed_once(parse, text)
        return lambda: work(soup)

    return prepare


def cases() -> list[Case]:
    """Each step on its own for both implementations (the report sums them)."""
    out = []
    for name, parse, tag_type in IMPLS:
        out += [
            Case(DESCENDANTS, name, _on_parsed(parse, walk_descendants)),
            Case(
                SIBLINGS,
                name,
                _on_parsed(parse, lambda s, t=tag_type: sibling_chains(s, t)),
            ),
            Case(TEXT, name, _on_parsed(parse, texts)),
            Case(TAGS, name, _on_parsed(parse, all_tags)),
            Case(STRINGS, name, _on_parsed(parse, all_strings)),
        ]
    out += [
        Case(DESCENDANTS, LXML, _on_parsed(_lxml_root, lxml_descendants)),
        Case(SIBLINGS, LXML, _on_parsed(_lxml_root, lxml_sibling_chains)),
        Case(TEXT, LXML, _on_parsed(_lxml_root, lxml_texts)),
        Case(TAGS, LXML, _on_parsed(_lxml_root, lxml_tags)),
        Case(STRINGS, LXML, _on_parsed(_lxml_root, lxml_strings)),
    ]
    order = [DESCENDANTS, SIBLINGS, TEXT, TAGS, STRINGS]
    return sorted(out, key=lambda c: order.index(c.workload))


PARSE = "1. parse"


def with_parse() -> list[Case]:
    """`cases` and the parse of both soups: the standalone run's "incl. parse"."""
    parse = [
        Case(PARSE, name, lambda text, p=parse: lambda: p(text))
        for name, parse, _ in IMPLS
    ]
    return parse + cases()


def totals(rows: list[Row]) -> list[Row]:
    """run.py's sums of the steps, without and with the parse."""
    steps = [DESCENDANTS, SIBLINGS, TEXT, TAGS, STRINGS]
    out = summed(rows, steps, ALL, "3a + ... + 3e")
    out += summed(rows + out, [PARSE, ALL], "3. navigation (incl. parse)", "1 + 3")
    return out


def differences(text: str) -> list[str]:
    """The steps whose result on scrapy_soup differs from bs4's."""
    ours, theirs = Soup(text), parse_bs4(text)
    bad = []
    for step, work in [
        (DESCENDANTS, walk_descendants),
        (TEXT, texts),
        (TAGS, lambda s: [str(tag) for tag in all_tags(s)]),
        (STRINGS, lambda s: [(type(x).__name__, str(x)) for x in all_strings(s)]),
    ]:
        if work(ours) != work(theirs):
            bad.append(step)
    if sibling_chains(ours, scrapy_soup.Tag) != sibling_chains(theirs, bs4.Tag):
        bad.append(SIBLINGS)
    return bad


if __name__ == "__main__":
    if "--check" in sys.argv:
        from _corpus import real_pages

        for name, text in real_pages():
            bad = differences(text)
            if bad:
                print(name, bad)
        raise SystemExit
    standalone(with_parse, __doc__, totals)
