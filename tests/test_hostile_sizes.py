"""Hostile sizes and deep documents (issue 19): no quadratic path, nothing lost.

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
from lxml import etree

from scrapy_soup import Soup


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
