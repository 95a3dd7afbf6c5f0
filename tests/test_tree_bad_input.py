"""Bad input: any bytes parse, deep trees render without recursion, misuse raises as bs4."""

from __future__ import annotations

import sys
import warnings

import bs4
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lxml import etree

from scrapy_soup import Soup

FEATURES = ["lxml", "html.parser", "xml"]


# XML-declared input parsed as HTML on purpose.
@pytest.mark.filterwarnings("ignore::scrapy_soup.XMLParsedAsHTMLWarning")
@pytest.mark.parametrize("features", FEATURES)
@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x00",
        b"\x00\x00<p>\x00x</p>",
        b"<",
        b"<p",
        b"<!--",
        b"<![CDATA[",
        b"<script>",
        b"\xff\xfe<\x00p\x00>",
        b"\x80\x81\xfe\xff invalid utf-8 \xc3\x28",
        b"<html><body><p class='" + b"a" * 100_000,
        b"   \n\t  ",
        b"<?xml version='1.0' encoding='nonsense'?><a/>",
        b'<meta charset="no-such-charset"><p>x</p>',
    ],
)
def test_awkward_bytes_parse(data: bytes, features: str) -> None:
    soup = Soup(data, features)
    assert isinstance(str(soup), str)
    assert isinstance(soup.get_text(), str)
    soup.prettify()


# XML-declared input parsed as HTML on purpose.
@pytest.mark.filterwarnings("ignore::scrapy_soup.XMLParsedAsHTMLWarning")
@given(st.binary(max_size=2000))
@settings(max_examples=150, deadline=None)
def test_any_bytes_parse(data: bytes) -> None:
    for features in FEATURES:
        soup = Soup(data, features)
        str(soup)
        soup.get_text()
        list(soup.descendants)


@given(
    st.text(
        alphabet=st.sampled_from(list("<>/!-?='\" \n\tabpdivhtmlbody&;#x1\u00e9")),
        max_size=300,
    )
    | st.text(max_size=300)
)
@example("<?xml")  # both warn: it looks like XML
@settings(max_examples=150, deadline=None)
def test_any_text_parses_like_bs4(text: str) -> None:
    """Any text (NULs, lone surrogates aside) gives bs4's output."""
    text = text.replace("\x00", "")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return
    # bs4 warns when the text looks like a file name ('.XML'), and when it
    # looks like XML ('<?xml'); it still parses it.  The soup warns of the
    # second where bs4 does.
    with warnings.catch_warnings(record=True) as ours_said:
        warnings.simplefilter("always")
        ours = Soup(text)
    with warnings.catch_warnings(record=True) as theirs_said:
        warnings.simplefilter("always")
        theirs = bs4.BeautifulSoup(text, "lxml")
    xml = "XMLParsedAsHTMLWarning"
    assert [w.category.__name__ for w in ours_said if w.category.__name__ == xml] == [
        w.category.__name__ for w in theirs_said if w.category.__name__ == xml
    ]
    assert ours.get_text() == theirs.get_text()
    assert str(ours) == str(theirs)


def test_lone_surrogates_do_not_crash() -> None:
    soup = Soup("<p>a\ud800b</p>")
    assert soup.p.string == "a\ufffdb"


def _deep_tree(depth: int) -> etree._Element:
    """html/body and ``depth`` nested divs, a string every 1000 levels."""
    # libxml2 caps the depth it parses, so build the tree with lxml's
    # TreeBuilder (SubElement is quadratic at this depth).
    builder = etree.TreeBuilder()
    builder.start("html", {})
    builder.start("body", {})
    for i in range(depth):
        builder.start("div", {})
        if i % 1000 == 0:
            builder.data("t")
    builder.data("bottom")
    for _ in range(depth):
        builder.end("div")
    builder.end("body")
    builder.end("html")
    return builder.close()


def test_100k_deep_tree_str_and_get_text_without_recursion() -> None:
    depth = 100_000
    root = _deep_tree(depth)
    assert sys.getrecursionlimit() < depth
    soup = Soup(root)
    out = str(soup)
    assert out.startswith("<html><body><div>t<div>")
    assert out.count("<div>") == depth and out.endswith("</div></body></html>")
    assert soup.get_text().endswith("bottom")
    assert sum(1 for _ in soup.descendants) > depth


def test_3000_deep_prettify_equals_bs4() -> None:
    depth = 3000
    ours = Soup(_deep_tree(depth))
    # The same tree in bs4, built tag by tag (its parser would stop at depth 256).
    theirs = bs4.BeautifulSoup("<html><body></body></html>", "lxml")
    node = theirs.body
    for i in range(depth):
        child = theirs.new_tag("div")
        node.append(child)
        node = child
        if i % 1000 == 0:
            node.append("t")
    node.append("bottom")
    assert str(ours) == str(theirs)
    assert ours.prettify() == theirs.prettify()


@pytest.mark.slow  # ~30 s: the slow pass of .ci/run, not the default run
def test_100k_nested_divs_as_text_parse() -> None:
    soup = Soup("<div>" * 100_000 + "x")
    assert isinstance(str(soup), str)


# -- misuse raises what bs4 raises --------------------------------------------------------


def test_missing_attribute_is_keyerror() -> None:
    for soup in (Soup("<a>x</a>"), bs4.BeautifulSoup("<a>x</a>", "lxml")):
        with pytest.raises(KeyError):
            soup.a["href"]


def test_string_indexed_by_name_is_typeerror() -> None:
    for soup in (Soup("<a>x</a>"), bs4.BeautifulSoup("<a>x</a>", "lxml")):
        with pytest.raises(TypeError):
            soup.a.string["href"]


def test_tag_without_name_is_valueerror() -> None:
    from scrapy_soup import Tag

    with pytest.raises(ValueError):
        Tag()
    with pytest.raises(ValueError):
        bs4.Tag()


def test_index_of_stranger_is_valueerror() -> None:
    for soup in (
        Soup("<p>x</p><b>y</b>"),
        bs4.BeautifulSoup("<p>x</p><b>y</b>", "lxml"),
    ):
        with pytest.raises(ValueError):
            soup.p.index(soup.b)


def test_dunder_lookup_is_attributeerror() -> None:
    soup = Soup("<p>x</p>")
    with pytest.raises(AttributeError):
        soup.__nonexistent__  # noqa: B018
