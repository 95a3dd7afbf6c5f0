"""Tests for scrapy_soup._fragment_output: the string path's serializer.

It must write exactly what ``str()`` of a fragment soup writes (the soup's
renderer, bs4's ``decode``), on real pages and on generated markup.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_soup import Soup
from scrapy_soup._fragment_output import (
    CDATA_LIST_ATTRIBUTES,
    PRESERVE_WHITESPACE_TAGS,
    VOID_ELEMENTS,
    contents_html,
)
from scrapy_soup._links_markup import parse_fragment
from scrapy_soup._tree import _attrs, _elements

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PAGES = sorted((CORPUS / "pages").glob("*.html")) if CORPUS.exists() else []


def _soup_output(text: str) -> str:
    return str(Soup(text, "fragment"))


def test_tables_are_the_trees() -> None:
    assert VOID_ELEMENTS == _elements.VOID_ELEMENTS
    assert PRESERVE_WHITESPACE_TAGS == _elements.PRESERVE_WHITESPACE_TAGS
    assert CDATA_LIST_ATTRIBUTES == _attrs.CDATA_LIST_ATTRIBUTES


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "text & <b>bold</b> > x",
        '<p class=" a  b\xa0c " id="x" title=\'say "hi"\' alt="it\'s &quot;">p</p>',
        "<br><img src=a.png><br>x</br><hr></hr>",
        "<pre>\n  <b> </b>\n</pre><p> \n </p><textarea>  </textarea>",
        "<script>if (a < b && c) {}</script><style>a > b {}</style>",
        "<!-- c --><!----><!--   --><?php echo 1 ?>x",
        '<meta charset="latin1"><meta http-equiv="Content-Type" content="text/html; charset=x">',
        "<svg><a xlink:href='a'>x</a></svg><math><mi>x</mi></math>",
        "<a rel=' nofollow  noopener '>x</a><td headers='a  b'>y</td>",
        "\ufeff<p>bom</p>",
        "<table>t<tr><td>a</table><p>x<div>y</div>",
        "<div>" * 300 + "deep",
        # Parsed as UTF-8 bytes: a declared charset changes nothing.
        '<meta charset="iso-8859-1"><p>caf\u00e9 \u00fc</p>',
        '<?xml version="1.0" encoding="latin1"?><p>\u00e9',
        "a\x00b<p>\x00</p>\x01\x02<b>\x1f</b>",
        "x\ud800y<p>\udfff</p>&#0;&#xD800;&#x110000;",
        "\U0001f600<p>\U0001f600</p>",
        "</body></html><p>after",
        "<head><title>t</title></head><body onload=x><p>z",
    ],
)
def test_same_as_the_soup(text: str) -> None:
    assert contents_html(parse_fragment(text).element) == _soup_output(text)


_PIECES = st.sampled_from(
    [
        "<p>", "</p>", "<pre>", "</pre>", "<br>", "<img alt='a\"b'>", "<script>",
        "</script>", "<b class='x  y'>", "</b>", " ", "\n  ", "a&b", "<", ">",
        "<!-- c -->", "<textarea>", "</textarea>", "<meta charset=x>", "\t",
        "<td headers=' h '>", "<table>", "x",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=5)), max_size=15))
def test_same_as_the_soup_generated(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert contents_html(parse_fragment(text).element) == _soup_output(text)


@pytest.mark.skipif(not PAGES, reason="corpus not available")
@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_corpus_pages_same_as_the_soup(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", "replace")
    assert contents_html(parse_fragment(text).element) == _soup_output(text)
