"""CSS selection (select, select_one, .css) compared with bs4/soupsieve."""

from __future__ import annotations

from typing import Any

import bs4
import pytest
from conftest import needs_soupsieve_4

from scrapy_soup._tree._css import SelectorError, SoupSieveTranslator
from scrapy_soup._tree._select import escape
from scrapy_soup._tree._soup import Soup

DOC = """<html><head><title>T</title></head><body>
<div id="main" class="c  d"><p>one <!-- c --></p><p> </p><p><!-- only --></p><p>\x0c</p>
<p class="x&#xa0;y">two</p></div>
<ul><li>1</li><li>2</li><li>3</li></ul>
<a href="/x" rel="NoFollow">l</a><a href="http://e.com/" type="TEXT/html">m</a>
<template><p>hidden</p></template><section><h2>h</h2><p>s</p></section>
<input type="CHECKBOX" checked><span>a</span><span>b</span><em>e</em>
</body></html>"""

SELECTORS = [
    "p", "div p", "div > p", "p:empty", ":empty", "li:first-child", "li:nth-child(2)",
    "*:first-of-type", "span:last-of-type", "*:only-of-type", ":root", ":root > body",
    ".x", ".y", ".c.d", "[class='c d']", "[class^=c]", "[rel=nofollow]", "[type^=text]",
    "a[href^='/']", "a[href$='com/']", "[href*=e]", "[href|=http]", "a:link", "a:any-link",
    "template p", "p:-soup-contains(one)", "section:has(> h2)", "body :is(h2, em)",
    "p:not(:empty)", "li + li", "li ~ li", "[class~=x]", "[class~='']", "[class^='']",
]  # fmt: skip


def _shape(result: Any) -> Any:
    """Name, attributes and place of each tag (comparable across the two libraries)."""
    if isinstance(result, list):
        return [_shape(r) for r in result]
    if result is None or isinstance(result, bool):
        return result
    # A valueless boolean attribute reads as its name in lxml, "" in bs4 (documented).
    attrs = {
        k: (" ".join(v) if isinstance(v, list) else "" if v == k else v)
        for k, v in result.attrs.items()
    }
    place = [p.name for p in result.parents]
    index = sum(1 for s in result.previous_siblings if s.name is not None)
    return (result.name, attrs, place, index)


@needs_soupsieve_4
@pytest.mark.parametrize("selector", SELECTORS)
def test_select_matches_soupsieve(selector: str) -> None:
    ours = Soup(DOC, "lxml")
    theirs = bs4.BeautifulSoup(DOC, "lxml")
    assert _shape(ours.select(selector)) == _shape(theirs.select(selector))
    assert _shape(ours.select_one(selector)) == _shape(theirs.select_one(selector))


@pytest.mark.parametrize("features", ["lxml", "xml"])
@pytest.mark.parametrize(
    "selector", [r".a\ b", ".a", ".b", ".c", r".a\2003 b", r".x\c y"]
)
def test_class_tokens_split_as_soupsieve_splits(features: str, selector: str) -> None:
    # The XPath token test splits on four characters; bs4 (HTML) splits on
    # Python's whitespace, soupsieve (XML) on [ \t\r\n\f]; a name holding
    # whitespace is never one token.
    markup = (
        '<r><p class="a b">1</p><p class="a\u2003b">2</p><p class="a&#12;b c">3</p>'
        '<p class="x&#12;y">4</p><p class="a\xa0">5</p></r>'
    )
    ours = Soup(markup, features)
    theirs = bs4.BeautifulSoup(markup, features)
    assert [str(t) for t in ours.select(selector)] == [
        str(t) for t in theirs.select(selector)
    ]


def test_scoped_select_and_css_methods() -> None:
    ours = Soup(DOC, "lxml")
    theirs = bs4.BeautifulSoup(DOC, "lxml")
    results = []
    for soup_ in (ours, theirs):
        div = soup_.find("div")
        results.append(
            (
                _shape(div.select("body p")),
                _shape(div.select(":scope > p")),
                div.css.match("div#main"),
                _shape(div.p.css.closest("div")),
                _shape(div.css.filter("p:empty")),
                _shape(list(div.css.iselect("p", limit=2))),
                _shape(soup_.select("p", limit=1)),
            )
        )
    assert results[0] == results[1]


def test_unsupported_selector_raises_clear_error() -> None:
    soup = Soup(DOC, "lxml")
    with pytest.raises(SelectorError, match="cssselect cannot handle"):
        soup.select("p:not(.a, .b)")
    with pytest.raises(SelectorError):
        soup.select("p::before")
    with pytest.raises(SelectorError):
        soup.select("p[")
    with pytest.raises(TypeError):
        soup.select(3)  # type: ignore[arg-type]


def test_escape_matches_soupsieve() -> None:
    import soupsieve

    for ident in ["a", "1a", "-", "-1", "a b", "é", "a\x00"]:
        assert escape(ident) == soupsieve.escape(ident)


def test_translator_is_a_cssselect_html_translator() -> None:
    from cssselect import HTMLTranslator

    assert isinstance(SoupSieveTranslator(), HTMLTranslator)


def _template_edits(soup: Any) -> list[Any]:
    """Select, then edits that make template worlds, selecting after each one."""
    seen = [_shape(soup.select("p")), _shape(soup.body.select("div p"))]
    template = soup.new_tag("template")
    inner = soup.new_tag("p")
    inner.string = "in the template"
    template.append(inner)
    soup.body.append(template)  # a <template> comes in with its contents
    seen += [_shape(soup.select("p")), _shape(soup.body.select("div p"))]
    template.extract()
    seen.append(_shape(soup.select("p")))
    soup.find("div").name = "template"  # a tag becomes one
    seen += [_shape(soup.select("p")), _shape(soup.select(":empty"))]
    return seen


@needs_soupsieve_4
def test_the_template_check_follows_edits() -> None:
    """select() remembers whether the tree holds a <template>, until an edit."""
    markup = "<html><body><div><p>a</p></div><p>b</p></body></html>"
    ours = _template_edits(Soup(markup, "lxml"))
    assert ours == _template_edits(bs4.BeautifulSoup(markup, "lxml"))
    assert ours[0] != ours[5]  # the renamed <div>'s <p> left the results
    # A rename as the first edit after a select that found no <template>:
    ours_soup, theirs_soup = Soup(markup, "lxml"), bs4.BeautifulSoup(markup, "lxml")
    for soup in (ours_soup, theirs_soup):
        soup.select("p")
        soup.div.name = "template"
    assert _shape(ours_soup.select("p")) == _shape(theirs_soup.select("p"))
    assert len(ours_soup.select("p")) == 1


@pytest.mark.slow  # ~40 CPU-s: the slow pass of .ci/run, not the default run
@pytest.mark.parametrize(
    "selector",
    [
        "div:-soup-contains('needle')",
        "div:-soup-contains('tail')",
        "i:-soup-contains(x)",
    ],
)
def test_soup_contains_on_a_tree_deeper_than_the_recursion_limit(selector: str) -> None:
    # 3,000 levels: more than Python's default recursion limit of 1,000.
    depth = 3000
    html = (
        "<div>" * depth + "<template>x</template>needle<i>x</i>" + "</div>tail" * depth
    )
    ours = Soup(html, "lxml")
    theirs = bs4.BeautifulSoup(html, "lxml")
    found = ours.select(selector)
    assert [t.name for t in found] == [t.name for t in theirs.select(selector)]
    assert found
