"""Tests for scrapy_soup._tree._write: the string path's serializer.

It must write exactly what ``str()`` of a fragment soup writes (the soup's
renderer, bs4's ``decode``), on real pages and on generated markup.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import corpus_pages, corpus_params
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from lxml import etree

from scrapy_soup import Soup
from scrapy_soup._tree import _attrs, _tables
from scrapy_soup._tree._write import (
    CDATA_LIST_ATTRIBUTES,
    PRESERVE_WHITESPACE_TAGS,
    VOID_ELEMENTS,
    contents_html,
    contents_html_from_xml,
    needs_settling,
    settle_attributes,
)
from scrapy_soup.markup._markup import parse_fragment

PAGES = corpus_pages()


def _soup_output(text: str) -> str:
    return str(Soup(text, "fragment"))


def test_tables_are_the_trees() -> None:
    assert VOID_ELEMENTS == _tables.VOID_ELEMENTS
    assert PRESERVE_WHITESPACE_TAGS == _tables.PRESERVE_WHITESPACE_TAGS
    assert CDATA_LIST_ATTRIBUTES == _attrs.CDATA_LIST_ATTRIBUTES


# One case is XML-declared on purpose: the soup warns as bs4 does.
@pytest.mark.filterwarnings("ignore::scrapy_soup.XMLParsedAsHTMLWarning")
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


@pytest.mark.filterwarnings("ignore::scrapy_soup.XMLParsedAsHTMLWarning")
@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=5)), max_size=15))
def test_same_as_the_soup_generated(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert contents_html(parse_fragment(text).element) == _soup_output(text)


@pytest.mark.parametrize("path", corpus_params(PAGES), ids=lambda p: p.name)
def test_corpus_pages_same_as_the_soup(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", "replace")
    assert contents_html(parse_fragment(text).element) == _soup_output(text)


# -- the C path: lxml's XML serializer and string fix-ups --------------------------
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:\-]*\Z")


def _settled(text: str) -> etree._Element | None:
    """The fragment parse of *text* with every element's attributes settled.

    None unless the tree is plain as `clean` makes it for the XML path:
    elements and text only, simple names, no script/style/meta.
    """
    el = parse_fragment(text).element
    for node in el.iter():
        if not (
            isinstance(node.tag, str)
            and _NAME.match(node.tag)
            and node.tag not in ("script", "style", "meta")
            and all(_NAME.match(name) for name in node.attrib)
        ):
            return None
        assert settle_attributes(node)
    return el


def _assert_xml_path_agrees(el: etree._Element) -> bool:
    """`contents_html_from_xml` writes what `contents_html(settle=True)` writes.

    And its second value is the XML serialization of the tree as settled.
    Returns False when it declined (a character it cannot write).
    """
    written = contents_html_from_xml(el)
    expected = contents_html(el, settle=True)
    if written is None:
        assert "&#" in etree.tostring(el, encoding="unicode")
        return False
    assert written[0] == expected
    assert written[1] == etree.tostring(el, encoding="unicode")
    return True


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\n \n",
        "x",
        "text & <b>bold</b> > x",
        " <p> a </p> \n <p>\t</p>\t\t<div>  <span> </span>\n\t</div> ",
        '<p class=" a  b\xa0c " id="x" title=\'say "hi"\' alt="it\'s &quot;">p</p>',
        "<p title='a\tb\nc'  lang='\n'>x</p>",
        '<a title=\'x"/\' href="a/">y</a><a title="/>">z</a>',
        "<br><img src=a.png><br>x</br><hr></hr><p></p><div/><span></span>",
        "<pre>\n  <b> </b>\n</pre><p> \n </p><textarea>  </textarea> <pre></pre> ",
        "<pre> <pre> a </pre> <b> </b> </pre> <i> </i><pre/>  <p>  </p>",
        "<textarea> \n</textarea>\n <pre-x> </pre-x> <pre class=a> \n </pre>  ",
        "<a rel=' nofollow  noopener '>x</a><td headers='a  b'>y</td>",
        "\ufeff<p>bom</p>\U0001f600<p>\U0001f600 caf\u00e9</p>",
        "<table>t<tr><td>a</table><p>x<div>y</div>",
        "<p>a\rb</p><p title='\r'>x</p>",
        "a\x00b<p>\x00</p>\x01\x02<b>\x1f</b>",
        "</body></html><p>after",
        "<body class=x><p>z</p>",
        "<div>" * 300 + "deep",
    ],
)
def test_xml_path_same_as_the_python_path(text: str) -> None:
    el = _settled(text)
    assert el is not None
    _assert_xml_path_agrees(el)


def test_xml_path_declines_what_the_xml_serializer_escapes() -> None:
    for text in ("<p>a&#13;b</p>", "a\x01b", "<p title='\x02'>x</p>"):
        el = _settled(text)
        assert el is not None
        assert contents_html_from_xml(el) is None


def test_settling_sorts_and_respaces() -> None:
    el = parse_fragment('<a title="t" rel=" x  y " href="h">x</a>').element[0]
    assert needs_settling("a", ["title", "rel", "href"])
    assert needs_settling("a", ["href", "rel"])
    assert needs_settling("p", ["title", "href"])
    assert not needs_settling("p", ["href", "title"])
    assert settle_attributes(el)
    assert el.items() == [("href", "h"), ("rel", "x y"), ("title", "t")]


_PLAIN_PIECES = st.sampled_from(
    [
        "<p>", "</p>", "<pre>", "</pre>", "<br>", "<img alt='a\"b'>", "<b class='x  y'>",
        "</b>", " ", "\n  ", "a&b", "<", ">", "<textarea>", "</textarea>", "\t",
        "<td headers=' h '>", "<table>", "x", "<a title='\t\n' href=x>", "</a>",
        "<div>", "</div>", "<span/>", "<p title='\"&quot;\\''>",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PLAIN_PIECES, st.text(" \t\nab<>&\"'", max_size=5))))
def test_xml_path_same_as_the_python_path_generated(pieces: list[str]) -> None:
    el = _settled("".join(pieces))
    assume(el is not None)
    assert el is not None
    _assert_xml_path_agrees(el)


@pytest.mark.parametrize("path", corpus_params(PAGES), ids=lambda p: p.name)
def test_corpus_pages_xml_path_once_cleaned(path: Path) -> None:
    import sys

    clean_module = sys.modules["scrapy_soup.markup.clean"]
    text = path.read_bytes().decode("utf-8", "replace")
    el = parse_fragment(text).element
    compiled = clean_module._cleaner(clean_module.get_policy(None))
    _, plain = clean_module._clean_tree(el, compiled, None, [], settle=True)
    assert plain
    assert _assert_xml_path_agrees(el)


def test_pipelines_write_fields_as_the_soup_does() -> None:
    from scrapy_soup._scrapy._bridge import fragment_html, fragment_of_markup

    soup = fragment_of_markup("<p></p>\n  <pre> x </pre><p>b &amp; c</p>")
    assert fragment_html(soup) == str(soup)
    # Whitespace an edit wrote is kept as bs4 keeps it ("\n" + "\n" prints
    # two newlines), which only the soup's output knows: it writes the field.
    soup.p.append("\n")
    soup.p.append("\n")
    assert (
        fragment_html(soup)
        == str(soup)
        == "<p>\n\n</p>\n<pre> x </pre><p>b &amp; c</p>"
    )
    assert contents_html(soup._el) != str(soup)
