"""Hostile sizes and deep documents: no quadratic path, nothing lost.

Sizes are the issue's (80,000 matches of a selector group, one entity used
10,000 times, 50,000 attributes on one tag, nesting past libxml2's depth
limit). Tests assert results, not time: bs4 gives the expected output, and
``benchmarks/bench_hostile.py`` reports the time beside bs4's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import bs4
import pytest
from conftest import needs_soupsieve_4
from lxml import etree

from scrapy_soup import Soup, absolutize_links, clean, to_markdown, to_text


def _names(tags: Iterable[Any]) -> list[tuple[str, Any]]:
    return [(t.name, t.get("id")) for t in tags]


# -- selector groups ------------------------------------------------------------
GROUP_PAGE = (
    "<div id=top>" + "<p class=x>x<a class=y href=#>y</a></p>" * 40_000 + "</div>"
)


@pytest.fixture(scope="module")
def group_soups() -> tuple[Soup, bs4.BeautifulSoup]:
    return Soup(GROUP_PAGE), bs4.BeautifulSoup(GROUP_PAGE, "lxml")


@pytest.mark.parametrize(
    "selector", ["p, a", "a, p", ".y, .x", "a, p, div", "div > p, p > a, p"]
)
def test_selector_group_over_80_000_matches(
    group_soups: tuple[Soup, bs4.BeautifulSoup], selector: str
) -> None:
    soup, theirs = group_soups
    found = soup.select(selector)
    expected = theirs.select(selector)
    assert len(found) == len(expected) >= 80_000
    assert [t.name for t in found] == [t.name for t in expected]
    assert str(found[-1]) == str(expected[-1])
    first = soup.select_one(selector)
    assert first is not None and first.name == expected[0].name
    top, their_top = soup.find("div"), theirs.find("div")
    assert top is not None and their_top is not None
    assert [t.name for t in top.css.filter(selector)] == [
        t.name for t in their_top.css.filter(selector)
    ]


@needs_soupsieve_4
@pytest.mark.parametrize(
    "selector",
    [
        "i, b",
        "b, i, b",
        "b, b",
        "i, #b3, .c",
        "b + i, i",
        "section > b, i",
        "*, b",
        "span, i",
        "template b, i",
    ],
)
def test_selector_groups_keep_document_order_and_drop_duplicates(selector: str) -> None:
    # Interleaved, nested and repeated matches; sizes either side of the
    # point where the merge changes method.
    for count in (3, 600):
        body = "".join(
            f'<b id="b{i}"><i class="c">{i}</i></b><i id="i{i}"><b>in</b></i>'
            for i in range(count)
        )
        markup = f"<section>{body}<template><b>t</b><i>t</i></template></section>"
        for mode, builder in (("html", "lxml"), ("fragment", "html.parser")):
            soup, theirs = Soup(markup, mode), bs4.BeautifulSoup(markup, builder)
            assert _names(soup.select(selector)) == _names(theirs.select(selector))
            one, other = soup.select_one(selector), theirs.select_one(selector)
            assert (one and one.name, one and one.get("id")) == (
                other and other.name,
                other and other.get("id"),
            )
            section, their_section = soup.section, theirs.section
            assert section is not None and their_section is not None
            assert _names(section.select(selector)) == _names(
                their_section.select(selector)
            )
            assert _names(section.css.filter(selector)) == _names(
                their_section.css.filter(selector)
            )


def test_selector_groups_in_xml() -> None:
    markup = "<r>" + "<p><a/></p><q/>" * 300 + "</r>"
    soup, theirs = Soup(markup, "xml"), bs4.BeautifulSoup(markup, "xml")
    for selector in ("p, a", "q, a, p", "r > q, a"):
        assert [t.name for t in soup.select(selector)] == [
            t.name for t in theirs.select(selector)
        ]


# -- many attributes on one tag -----------------------------------------------------
def _many_attributes(count: int) -> str:
    names = " ".join(f'a{i}="v{i} &amp; &lt;"' for i in range(count))
    return f'<p id="x" class="one two" {names}>text</p>'


@pytest.mark.parametrize(
    ("mode", "builder"), [("html", "lxml"), ("fragment", "html.parser")]
)
def test_thousands_of_attributes_print_as_bs4_prints_them(
    mode: str, builder: str
) -> None:
    markup = _many_attributes(5_000)
    soup, theirs = Soup(markup, mode), bs4.BeautifulSoup(markup, builder)
    assert str(soup) == str(theirs)
    assert soup.p is not None and theirs.p is not None
    assert soup.p.prettify() == theirs.p.prettify()
    assert soup.p.decode(formatter="html") == theirs.p.decode(formatter="html")


def test_thousands_of_attributes_in_xml_keep_their_prefixes() -> None:
    # bs4 4.15 with lxml 6 drops namespace prefixes in XML (a bug of its
    # own), so lxml reading our output back is the oracle here.
    names = " ".join(f'a:n{i}="{i}" m{i}="&lt;{i}&amp;"' for i in range(3_000))
    markup = f'<r xmlns:a="urn:a"><p xml:lang="en" {names}/></r>'
    out = Soup(markup, "xml").decode(eventual_encoding=None)
    assert 'a:n2999="2999"' in out
    expected = etree.fromstring(markup)[0]
    again = etree.fromstring(out)[0]
    assert dict(again.attrib) == dict(expected.attrib)
    assert len(again.attrib) == 6_001


# -- internal entities ----------------------------------------------------------------
def _with_entity(value: str, body: str) -> tuple[str, str]:
    """An XML document declaring ``&e;`` as ``value``, and the same written out.

    bs4 4.15's XML builder loses every document with an internal DTD subset
    under lxml 6 (lxml's target parser fails in ``xmlAddEntity``), so its
    output for the written-out document, the same infoset, is the oracle.
    """
    doctype = f'<!DOCTYPE r [<!ENTITY e "{value}">]>'
    escaped = value.replace('"', "&quot;").replace("'", "&apos;")
    written = body.replace("&e;", escaped)
    return (
        f'<?xml version="1.0"?>{doctype}<r>{body}</r>',
        f'<?xml version="1.0"?><!DOCTYPE r><r>{written}</r>',
    )


def _same_as_bs4(markup: str, written: str) -> Soup:
    soup = Soup(markup, "xml")
    theirs = bs4.BeautifulSoup(written, "xml")
    assert not soup.truncated
    assert soup.get_text() == theirs.get_text()
    assert str(soup.r) == str(theirs.r)
    return soup


@pytest.mark.parametrize("size", [5, 15])
def test_one_entity_used_10_000_times_keeps_all_its_text(size: int) -> None:
    # 150,000 characters of entity text from a 40 KB document: within five
    # times its size (`test_entity_text_is_bounded_by_the_document_size`).
    value = ("entity text " * 100)[:size]
    markup, written = _with_entity(value, "&e; " * 10_000 + "<end>the end</end>")
    soup = _same_as_bs4(markup, written)
    assert soup.get_text().count(value) == 10_000
    assert soup.get_text().endswith("the end")
    as_bytes = Soup(markup.encode("utf-8"), "xml")
    assert as_bytes.get_text() == soup.get_text()


def test_entities_in_elements_and_attributes() -> None:
    body = '<x a="&e;" b="1 &e; 2">&e;</x>' * 3_000 + "<y c='&e;'>tail</y>"
    markup, written = _with_entity("x 'q' \u00e9\u20ac y", body)
    soup = _same_as_bs4(markup, written)
    assert soup.find("x")["a"] == "x 'q' \u00e9\u20ac y"  # type: ignore[index]


def test_entities_of_text_are_read_in_the_encoding_it_was_parsed_in() -> None:
    # Text is parsed as UTF-8 whatever its declaration says; the entity
    # pre-pass read the DTD as euc-jp ("\u00e9" became "\u8fbf").
    declaration = '<?xml version="1.0" encoding="euc-jp"?>'
    body = "<p>&e;</p>" * 20_000
    # (Within the entity budget: 620 K characters from 200 KB.)
    markup = f'{declaration}<!DOCTYPE r [<!ENTITY e "\u00e9{"x" * 30}">]><r>{body}</r>'
    texts = {p.get_text() for p in Soup(markup, "xml").find_all("p")}
    assert texts == {"\u00e9" + "x" * 30}


def test_entity_references_stay_as_written_in_comments_cdata_and_pis() -> None:
    markup, written = _with_entity("E", "<!-- &e; --><![CDATA[&e;]]><?pi &e;?>&e;")
    written = written.replace("E -->", "&e; -->").replace("[E]", "[&e;]")
    written = written.replace("pi E", "pi &e;")
    soup = _same_as_bs4(markup, written)
    assert str(soup.r).count("&amp;e;") == 1  # the CDATA section's, as bs4 writes it


def test_entities_using_entities_and_character_references() -> None:
    markup = (
        '<!DOCTYPE r [<!ENTITY b "B&#233;"><!ENTITY a "x&b;&amp;y">'
        '<!ENTITY m "<i>markup</i>"><!ENTITY s SYSTEM "file:///etc/passwd">]>'
        '<r t="&a;">&a;|&m;|&s;|&undeclared;</r>'
    )
    soup = Soup(markup, "xml")
    assert soup.get_text() == "xB\u00e9&y|||"
    assert soup.r["t"] == "xB\u00e9&y"  # type: ignore[index]
    assert not soup.truncated


@pytest.mark.parametrize(
    "declarations",
    [
        # quadratic: one big entity used many times
        '<!ENTITY e "' + "x" * 1_000_000 + '">',
        # exponential ("billion laughs"), and entities using themselves
        '<!ENTITY l0 "lol">'
        + "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 12))
        + '<!ENTITY e "&l11;">',
        '<!ENTITY e "a&f;"><!ENTITY f "b&e;">',
    ],
)
def test_entity_blow_ups_are_refused_and_said(declarations: str) -> None:
    from scrapy_soup import TruncatedDocumentWarning
    from scrapy_soup._tree._xml_entities import ENTITY_AMPLIFICATION

    markup = f"<!DOCTYPE r [{declarations}]><r>" + "&e;" * 100 + "<z>after</z></r>"
    with pytest.warns(TruncatedDocumentWarning, match="entit"):
        soup = Soup(markup, "xml")
    assert soup.truncated
    assert len(soup.get_text()) <= ENTITY_AMPLIFICATION * len(markup) + 10
    assert soup.get_text().endswith("after")
    assert "lollol" not in soup.get_text()


def _entity_document(value: str, uses: int) -> str:
    return (
        f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "{value}">]>'
        f"<r><a>{'&e;' * uses}</a><z>after</z></r>"
    )


@pytest.mark.parametrize(
    ("value", "uses"),
    [
        ("x" * 1_000, 1_000),  # one big entity: 4 KB of document, 1 MB of text
        ("x" * 100, 10_000),  # the same, used more: 40 KB, 1 MB
    ],
    ids=["4KB-1MB", "40KB-1MB"],
)
def test_entity_text_is_bounded_by_the_document_size(value: str, uses: int) -> None:
    from scrapy_soup import TruncatedDocumentWarning
    from scrapy_soup._tree._xml_entities import ENTITY_ALLOWANCE, ENTITY_AMPLIFICATION

    markup = _entity_document(value, uses)
    with pytest.warns(TruncatedDocumentWarning, match="entit"):
        soup = Soup(markup, "xml")
    assert soup.truncated
    text = soup.find("a").get_text()  # type: ignore[union-attr]
    # What was substituted is whole references, within the budget (libxml2's
    # amplification factor), and the rest of the document is kept.
    assert len(text) % len(value) == 0
    assert len(text) <= max(ENTITY_ALLOWANCE, ENTITY_AMPLIFICATION * len(markup))
    assert len(text) < len(value) * uses // 5  # not the 1 MB written out
    assert soup.find("z").get_text() == "after"  # type: ignore[union-attr]
    # The same document as bytes, as a response gives it: the same bound.
    with pytest.warns(TruncatedDocumentWarning, match="entit"):
        assert Soup(markup.encode(), "xml").find("a").get_text() == text  # type: ignore[union-attr]


def test_a_4_kb_billion_laughs_stays_small() -> None:
    from scrapy_soup import TruncatedDocumentWarning
    from scrapy_soup._tree._xml_entities import ENTITY_ALLOWANCE

    levels = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 7))
    markup = (
        f'<!DOCTYPE r [<!ENTITY l0 "lol">{levels}]><r>'
        + "<p>&l3;</p>" * 300
        + "<p>&l6;</p><z>after</z></r>"
    )
    assert len(markup) < 4_096
    with pytest.warns(TruncatedDocumentWarning, match="entit"):
        soup = Soup(markup, "xml")
    # 300 x 3,000 characters would be 900 K: the references past the budget
    # are dropped, and &l6; (3 M characters) is refused whole.
    assert len(soup.get_text()) <= ENTITY_ALLOWANCE + len("after")
    assert soup.find("z").get_text() == "after"  # type: ignore[union-attr]
    assert soup.find_all("p")[-1].get_text() == ""


def test_ordinary_documents_with_entities_are_unchanged() -> None:
    # A feed with a few entities (a copyright line, a product name) and a
    # document whose entities make up most of its text: each gives exactly
    # the text written out, warns of nothing and is not truncated.
    item = "<item><title>&name; news</title><p>&copy; &year; &name;</p></item>"
    declarations = (
        '<!ENTITY name "Example&#8482;"><!ENTITY year "2026">'
        '<!ENTITY copy "&#169; Example Corp. All rights reserved.">'
    )
    markup, written = (
        f'<?xml version="1.0"?><!DOCTYPE r [{declarations}]><r>{item * 200}</r>',
        f'<?xml version="1.0"?><!DOCTYPE r><r>{item * 200}</r>'.replace(
            "&name;", "Example\u2122"
        )
        .replace("&year;", "2026")
        .replace("&copy;", "\u00a9 Example Corp. All rights reserved."),
    )
    _same_as_bs4(markup, written)
    boiler = "x" * 3_000
    markup, written = _with_entity(boiler, "&e;" * 4)
    assert len(markup) < 4 * len(boiler)
    _same_as_bs4(markup, written)


# -- deep documents -----------------------------------------------------------------
def _deep(levels: int) -> str:
    opening = "".join(f'<div class="c{i % 3}" id="d{i}">' for i in range(levels))
    return (
        "<!DOCTYPE html><!-- top --><html><body><p>before</p>"
        + opening
        + "deep<!-- in --><b>bold</b>tail"
        + "</div>" * levels
        + "<p>after</p></body></html>"
    )


@pytest.mark.parametrize("levels", [2_040, 2_047, 3_000])
@pytest.mark.parametrize(
    ("mode", "builder"), [("html", "lxml"), ("fragment", "html.parser")]
)
def test_html_deeper_than_libxml2_builds_is_kept_as_bs4_keeps_it(
    levels: int, mode: str, builder: str
) -> None:
    markup = _deep(levels)
    soup, theirs = Soup(markup, mode), bs4.BeautifulSoup(markup, builder)
    assert not soup.truncated
    assert soup.get_text() == theirs.get_text()
    assert len(soup.find_all("div")) == len(theirs.find_all("div")) == levels
    assert soup.find_all("p")[-1].get_text() == "after"
    if mode == "html":
        assert str(soup) == str(theirs)  # doctype and top-level comment kept
    found = soup.select("div.c1 > b")
    assert [str(t) for t in found] == [str(t) for t in theirs.select("div.c1 > b")]


@pytest.mark.parametrize("levels", [2_047, 3_000])
@pytest.mark.parametrize("fragment", [False, True])
def test_html_deeper_than_libxml2_builds_keeps_its_content_as_a_string(
    levels: int, fragment: bool
) -> None:
    # clean(), to_text(), to_markdown() and absolutize_links() of a string
    # parse it themselves: what was deeper than libxml2 builds, and
    # everything after it, was lost.
    markup = _deep(levels)
    if fragment:
        markup = markup[markup.index("<p>") : markup.index("</body>")]

    def text(html: str) -> str:  # the characters, whitespace aside
        return "".join(bs4.BeautifulSoup(html, "html.parser").get_text().split())

    theirs = text(markup)
    assert "".join(to_text(markup).split()) == theirs
    assert "".join(to_markdown(markup).replace("**", "").split()) == theirs
    cleaned = clean(markup)
    assert text(cleaned) == theirs
    assert len(bs4.BeautifulSoup(cleaned, "html.parser").find_all("div")) == levels
    assert text(absolutize_links(markup, "http://e.com/")) == theirs


def test_xml_deeper_than_libxml2_builds_is_kept_as_bs4_keeps_it() -> None:
    levels = 3_000
    markup = (
        '<r xmlns:n="urn:n"><p>before</p>'
        + "<d k='v'>" * levels
        + "deep<!--c--><?pi x?><n:x/>"
        + "</d>" * levels
        + "<p>after</p></r>"
    )
    soup, theirs = Soup(markup, "xml"), bs4.BeautifulSoup(markup, "xml")
    assert not soup.truncated
    assert soup.get_text() == theirs.get_text() == "beforedeepafter"
    assert len(soup.find_all("d")) == len(theirs.find_all("d")) == levels
    assert 'xmlns:n="urn:n"' in str(soup) and "<n:x/>" in str(soup)
    assert str(soup).count('<d k="v">') == str(theirs).count('<d k="v">') == levels


def test_deep_xml_text_is_rebuilt_in_the_encoding_it_was_parsed_in() -> None:
    # Text is parsed as UTF-8 whatever its declaration says; the rebuild
    # read it as euc-jp and lost the text after the deep part.
    deep = "<d>" * 3_000 + "x" + "</d>" * 3_000
    markup = f'<?xml version="1.0" encoding="euc-jp"?><r>{deep}<t>é漢</t></r>'
    soup = Soup(markup, "xml")
    assert not soup.truncated
    assert soup.find("t").get_text() == "é漢"


def test_a_deep_tree_adopted_from_a_selector_says_it_is_truncated() -> None:
    from parsel import Selector

    from scrapy_soup import TruncatedDocumentWarning

    markup = _deep(3_000)
    soup = Soup(Selector(text=markup))
    with pytest.warns(TruncatedDocumentWarning, match="depth limit"):
        assert soup.truncated
    assert soup.truncated  # said once
    whole = Soup(markup)
    assert not whole.truncated and whole.get_text().endswith("after")
    assert not Soup(Selector(text="<p>x</p>")).truncated


def test_deep_html_keeps_names_lxml_cannot_make() -> None:
    # The rebuild uses lxml's API, which refuses some names the HTML parser
    # accepts: those elements are made by the HTML parser itself.
    levels = 3_000
    markup = (
        '<p xml:lang="en" {{lazy}} a="1">x</p>'
        + "<div xml:lang='fr' class=c>" * levels
        + "deep"
        + "</div>" * levels
    )
    soup, theirs = Soup(markup), bs4.BeautifulSoup(markup, "lxml")
    assert not soup.truncated
    assert soup.get_text() == theirs.get_text() == "xdeep"
    deepest = soup.find_all("div")[-1]
    assert deepest.attrs == theirs.find_all("div")[-1].attrs
    assert deepest["xml:lang"] == "fr"
    assert soup.p is not None and soup.p.get("{{lazy}}") == ""


def test_trees_from_a_parser_without_huge_tree_say_they_stop_at_256() -> None:
    from scrapy_soup import TruncatedDocumentWarning

    capped = etree.HTML("<div>" * 300 + "deep" + "</div>" * 300 + "<p>after</p>")
    soup = Soup(capped)
    with pytest.warns(TruncatedDocumentWarning, match="256 without huge_tree"):
        assert soup.truncated
    # A tree exactly that deep with its content is whole.
    whole = etree.HTML("<div>" * 254 + "deep" + "</div>" * 254)
    assert not Soup(whole).truncated
