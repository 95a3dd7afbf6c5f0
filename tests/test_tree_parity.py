"""Parity with bs4 (lxml builder) on every page of the corpus, and on XML feeds.

Both implementations get the same decoded text (see the corpus README).  The
one normalization: a boolean attribute written without a value reads as its
own name in lxml's tree (``selected="selected"``) where bs4 has ``""``; see
"Differences from Beautiful Soup" in the README.  Both sides are normalized
(``x="x"`` becomes ``x=""``), since the page itself may say ``x="x"``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import bs4
import pytest
from conftest import corpus_pages, corpus_params, read_page

from scrapy_soup import Soup, Tag

PAGES = corpus_pages()
_BOOLEAN = re.compile(r' ([a-z-]+)="\1"')


def _unbool(text: str) -> str:
    return _BOOLEAN.sub(r' \1=""', text)


def _descendants(soup: Any, tag_type: type) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for node in soup.descendants:
        if isinstance(node, tag_type):
            attrs = {
                k: (list(v) if isinstance(v, list) else ("" if v == k else v))
                for k, v in node.attrs.items()
            }
            out.append(("Tag", node.name, attrs))
        else:
            out.append((type(node).__name__, str(node)))
    return out


@pytest.fixture(
    scope="module", params=corpus_params(PAGES), ids=[p.name for p in PAGES]
)
def parsed(request: pytest.FixtureRequest) -> tuple[Soup, bs4.BeautifulSoup]:
    text = read_page(request.param)
    return Soup(text), bs4.BeautifulSoup(text, "lxml")


def test_corpus_is_there() -> None:
    # Real pages and the small hand-made fixtures both (see the corpus README).
    assert len([p for p in PAGES if p in corpus_pages("real")]) >= 30
    assert len([p for p in PAGES if p in corpus_pages("fixture")]) >= 30
    assert all(p.is_file() for p in PAGES)


def test_str(parsed: tuple[Soup, bs4.BeautifulSoup]) -> None:
    ours, theirs = parsed
    assert _unbool(str(ours)) == _unbool(str(theirs))


def test_prettify(parsed: tuple[Soup, bs4.BeautifulSoup]) -> None:
    ours, theirs = parsed
    assert _unbool(ours.prettify()) == _unbool(theirs.prettify())


def test_get_text(parsed: tuple[Soup, bs4.BeautifulSoup]) -> None:
    ours, theirs = parsed
    assert ours.get_text() == theirs.get_text()
    assert ours.get_text("|", strip=True) == theirs.get_text("|", strip=True)


#: Elements whose text a spider reads (small ones take get_text()'s walk in
#: Python, the others its XPath), and the ones that change the rules.
TEXT_TAGS = [
    "p", "a", "li", "td", "th", "h1", "h2", "h3", "h4", "span", "b", "em",
    "strong", "code", "pre", "textarea", "title", "option", "label", "button",
    "dt", "dd", "figcaption", "blockquote", "script", "style", "template",
    "rt", "rp", "noscript", "time",
]  # fmt: skip


def test_get_text_of_elements(parsed: tuple[Soup, bs4.BeautifulSoup]) -> None:
    ours, theirs = parsed
    mine, refs = ours.find_all(TEXT_TAGS), theirs.find_all(TEXT_TAGS)
    assert [t.name for t in mine] == [t.name for t in refs]
    assert [t.get_text() for t in mine] == [t.get_text() for t in refs]
    assert [t.get_text(" ", strip=True) for t in mine] == [
        t.get_text(" ", strip=True) for t in refs
    ]


def test_descendants(parsed: tuple[Soup, bs4.BeautifulSoup]) -> None:
    ours, theirs = parsed
    assert _descendants(ours, Tag) == _descendants(theirs, bs4.Tag)


def test_body_as_fragment(parsed: tuple[Soup, bs4.BeautifulSoup]) -> None:
    """Each body's inner HTML re-parsed as a fragment, against bs4's body contents."""
    ours, _ = parsed
    if ours.body is None:
        pytest.skip("page has no body")  # pragma: no cover - every page has one
    inner = ours.body.decode_contents()
    fragment = Soup(inner, "html.parser")
    # bs4's own way to parse a fragment with lxml (``test_fragment_to_document``).
    reference = bs4.BeautifulSoup(f"<html><body>{inner}</body></html>", "lxml").body
    assert _unbool(fragment.decode()) == _unbool(reference.decode_contents())
    assert fragment.get_text() == reference.get_text()


# -- XML ----------------------------------------------------------------------------

FEEDS = Path(__file__).parent / "data" / "xml"
_NAMESPACE_DECL = re.compile(r' xmlns(:[\w.-]+)?="[^"]*"')
_PREFIX = re.compile(r"<(/?)[\w.-]+:")


def _without_namespaces(text: str) -> str:
    """bs4 4.15 on lxml 6.1+ loses prefixes and xmlns declarations (lxml's
    target parser passes an empty nsmap); we keep them.  Compare the rest."""
    return _PREFIX.sub(r"<\1", _NAMESPACE_DECL.sub("", text))


def _as_bs4_writes(ours: str, theirs: str) -> str:
    """Ours as bs4 writes it: whole where bs4 kept the namespaces (lxml 6.0)."""
    return ours if _NAMESPACE_DECL.search(theirs) else _without_namespaces(ours)


@pytest.mark.parametrize("path", sorted(FEEDS.glob("*.xml")), ids=lambda p: p.name)
def test_xml_documents(path: Path) -> None:
    data = path.read_bytes()
    ours, theirs = Soup(data, "xml"), bs4.BeautifulSoup(data, "xml")
    assert _as_bs4_writes(str(ours), str(theirs)) == str(theirs)
    assert _as_bs4_writes(ours.prettify(), theirs.prettify()) == theirs.prettify()
    assert ours.get_text() == theirs.get_text()
    assert [t.name for t in ours.find_all(True)] == [
        t.name for t in theirs.find_all(True)
    ]


def test_xml_keeps_namespaces() -> None:
    soup = Soup((FEEDS / "rss.xml").read_bytes(), "xml")
    assert "<dc:creator>" in str(soup)
    assert 'xmlns:dc="http://purl.org/dc/elements/1.1/"' in str(soup)
