"""The html5 mode (`_tree/_html5.py`): bs4's html5lib tree, built by turbohtml.

The oracle is ``BeautifulSoup(markup, "html5lib")``.  Every test here but
the one that simulates a missing extra needs turbohtml: they are marked
``html5``, so a run without the extra deselects them with ``-m "not html5"``
(in the default run, where the test extra installs it, they must pass).
"""

from __future__ import annotations

import copy
import re
import sys
from typing import Any

import bs4
import pytest
from conftest import corpus_pages, corpus_params, read_page

from scrapy_soup import Comment, FeatureNotFound, Soup
from scrapy_soup._tree import _html5

#: turbohtml (the extra) installs on Python 3.11 and later only.
on_311 = pytest.mark.skipif(
    sys.version_info < (3, 11), reason="turbohtml needs Python 3.11 or later"
)

#: What browsers' parsing changes, each case as the issue measured it on
#: real pages: the implied <tbody>, <p> closed by a block, the adoption
#: agency re-parenting <a>, </br> as <br>, and the document level.
CASES = [
    "<table><tr><td>a</td></tr></table>",
    "<p>one<div>block</div>two</p>",
    "<a href='/x'><p>inside</a>after</p>",
    "text</br>more",
    "<!DOCTYPE html><!--before--><title>t</title><p>x</p></html><!--after-->",
    '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" '
    '"http://www.w3.org/TR/html4/strict.dtd"><p>x',
    "<div>y<template><div>in <b>template</b></div></template></div>",
    "<svg viewBox='0 0 1 1'><path d='M0'/></svg><math><mi>x</mi></math>",
    "",
    "<ul><li>one<li>two</ul><select><option>a<option>b</select>",
    # HTML reads these as comments ("bogus comments"), as html5lib does.
    "<?PITarget PIContent?><p>a<?php echo 1 ?>b",
    # Names lxml's API refuses, which the tree keeps as libxml2 does.
    '<html xml:lang="en"><p xml:lang="en">x<g:plusone a=1>y</g:plusone>',
    '<svg viewBox="0 0 1 1" xmlns:xlink="x"><use xlink:href="#a"/></svg>',
    "<div><!-- a -- b --><!--x--->t</div>",
    "<!--before doctype--><!DOCTYPE html><p>x",
    "<p checked disabled=''>valueless</p>",
]


@pytest.mark.html5
@on_311
@pytest.mark.parametrize("markup", CASES)
@pytest.mark.parametrize("features", ["html5lib", "html5"])
def test_cases_equal_bs4s_html5lib_tree(markup: str, features: str) -> None:
    ours, theirs = Soup(markup, features), bs4.BeautifulSoup(markup, "html5lib")
    assert str(ours) == str(theirs)
    assert ours.prettify() == theirs.prettify()
    assert [t.name for t in ours.find_all(True)] == [
        t.name for t in theirs.find_all(True)
    ]


@pytest.mark.html5
@on_311
@pytest.mark.parametrize(
    ("markup", "browsers", "html5libs"),
    [
        # A <p> in scope outside a template: html5lib closes it at a <div>
        # inside the template's content and moves the content out; the
        # template is a scope boundary for browsers.
        (
            "<p>y<template><div>in</div></template>",
            "<p>y<template><div>in</div></template></p>",
            "<p>y<template></template></p><div>in</div>",
        ),
        # A <template> before the body goes in the <head> (html5lib 1.1
        # predates that step of the algorithm and puts it in the body).
        (
            "<template><i>t</i></template><p>y",
            "<head><template><i>t</i></template></head><body><p>y</p>",
            "<head></head><body><template><i>t</i></template><p>y</p>",
        ),
    ],
)
def test_where_html5lib_is_not_the_browser_the_tree_is_the_browsers(
    markup: str, browsers: str, html5libs: str
) -> None:
    # docs/migrating.md lists both.
    assert browsers in str(Soup(markup, "html5lib"))
    assert html5libs in str(bs4.BeautifulSoup(markup, "html5lib"))


@pytest.mark.html5
@on_311
def test_builder_and_is_xml_are_bs4s() -> None:
    ours = Soup("<p>x", "html5lib")
    theirs = bs4.BeautifulSoup("<p>x", "html5lib")
    assert ours.is_xml is theirs.is_xml is False
    assert ours.builder is not None and theirs.builder is not None
    assert ours.builder.NAME == theirs.builder.NAME == "html5lib"
    assert ours.builder.features == theirs.builder.features
    assert set(ours.builder.string_containers) == set(theirs.builder.string_containers)
    # ...which bs4's html5lib tree builder never uses: its strings in <script>
    # are plain strings, and get_text() includes them; the view reads them so.
    markup = "<script>s</script><p>p"
    assert Soup(markup, "html5lib").get_text() == "sp"
    assert bs4.BeautifulSoup(markup, "html5lib").get_text() == "sp"
    # The default mode keeps bs4's lxml builder's classes.
    assert (
        Soup(markup).get_text() == bs4.BeautifulSoup(markup, "lxml").get_text() == "p"
    )


#: The issue's example: whitespace-only strings between the body's children
#: and around the head's (bs4's lxml builder collapses them, its html5lib
#: builder keeps them), a script's text.
WHITESPACE = (
    "<html><head><title>t</title>\n<script> x </script></head><body>\n<p>a</p>\n"
    " <p>b <b>c</b> </p>\n</body></html>"
)
#: Every kind of string the modes read differently: whitespace-only text
#: and comments, in and out of <pre>/<textarea>, the string containers,
#: whitespace after </body> and </html> (which html5lib puts in the body).
STRINGS = (
    "<!DOCTYPE html>\n<!-- c -->\n<html><head><title>t</title>\n<script> x </script>"
    "<style>s</style></head><body>\n<p>a</p>\n <p>b <b>c</b> </p><!--   -->"
    "<template> <i>t</i>\n</template><ruby>a<rt>b</rt> <rp>(</rp></ruby>"
    "<pre>\n\n x\n </pre><textarea>\n  </textarea>\t<div>\t\r\n</div>\n"
    "</body></html>\n\n<!--e-->\n "
)

#: What a user reads of the strings, each the same code on both soups.
READS: dict[str, Any] = {
    "str": str,
    "prettify": lambda s: s.prettify(),
    "html formatter": lambda s: s.decode(formatter="html"),
    "get_text": lambda s: s.get_text(),
    "get_text strip": lambda s: s.get_text("|", strip=True),
    "body.get_text": lambda s: s.body.get_text(),
    "p.get_text": lambda s: s.p.get_text(),
    "script.get_text": lambda s: s.script.get_text(),
    "head.text": lambda s: s.head.text,
    "body.decode_contents": lambda s: s.body.decode_contents(),
    "strings": lambda s: [
        (type(x).__name__, str(x)) for x in s.descendants if isinstance(x, str)
    ],
    "stripped_strings": lambda s: list(s.body.stripped_strings),
    "find_all string=True": lambda s: s.find_all(string=True),
    "find_all string=blank": lambda s: s.find_all(string="\n "),
    "find_all string=regex": lambda s: s.find_all(string=re.compile(r"^\s+$")),
    "next_siblings strings": lambda s: s.p.find_next_siblings(string=True),
    "soup-contains": lambda s: [t.name for t in s.select(':-soup-contains("b c ")')],
    ".string": lambda s: [t.string for t in s.find_all(True)],
}


@pytest.mark.html5
@on_311
@pytest.mark.parametrize("markup", [WHITESPACE, STRINGS], ids=["issue", "strings"])
@pytest.mark.parametrize("read", list(READS), ids=list(READS))
def test_strings_read_as_bs4s_html5lib_builder_makes_them(
    markup: str, read: str
) -> None:
    # Whitespace-only strings as parsed (not collapsed), no string class of
    # a container: as bs4's html5lib tree builder adds them.
    how = READS[read]
    assert how(Soup(markup, "html5lib")) == how(bs4.BeautifulSoup(markup, "html5lib"))


@pytest.mark.html5
@on_311
def test_strings_edits_make_read_as_bs4s() -> None:
    def edit(soup: Any, comment: type) -> Any:
        soup.p.string = "  "
        soup.b.insert_after("\n")
        soup.find("p").find_next("p").append(soup.new_string("   "))
        soup.body.insert(0, soup.new_string(" \n ", comment))
        soup.script.extract()
        return soup

    ours = edit(Soup(STRINGS, "html5lib"), Comment)
    theirs = edit(bs4.BeautifulSoup(STRINGS, "html5lib"), bs4.Comment)
    for read in ("str", "get_text", "prettify", "strings"):
        assert READS[read](ours) == READS[read](theirs), read


@pytest.mark.html5
@on_311
@pytest.mark.parametrize("into", ["lxml", "html.parser"])
def test_strings_moved_into_another_modes_soup_keep_what_html5lib_made(
    into: str,
) -> None:
    # bs4's strings keep what their parser made of them, wherever they go.
    def move(factory: Any) -> Any:
        source = factory(
            "<div><p>x</p>\n  <p>y <!--  --><!----></p>\t</div>", "html5lib"
        )
        target = factory("<section></section>", into)
        target.section.append(source.div)
        return target

    ours, theirs = move(Soup), move(bs4.BeautifulSoup)
    assert str(ours) == str(theirs)
    assert ours.get_text() == theirs.get_text()


@pytest.mark.html5
@on_311
def test_the_tree_is_the_browsers_and_everything_works_on_it() -> None:
    soup = Soup("<table><tr><td><a href=x>1</a></td></tr></table><p>a<p>b", "html5")
    assert [t.name for t in soup.select("table > tbody > tr > td")] == ["td"]
    assert len(soup.find_all("p")) == 2
    soup.find("a")["href"] = "y"
    soup.p.string = "edited"
    assert '<a href="y">1</a>' in str(soup)
    assert soup.p.get_text() == "edited"
    copied = copy.copy(soup)
    assert copied.builder is not None and copied.builder.NAME == "html5lib"
    assert str(copied) == str(soup)


@pytest.mark.html5
@on_311
def test_control_characters_lxml_refuses_are_left_out() -> None:
    # html5lib keeps them; lxml cannot hold them; a browser shows nothing.
    soup = Soup("<p>a\x01b\x0bc\x1fd</p>\t\n", "html5lib")
    assert soup.p.string == "abcd"
    assert Soup(b"<p>\x00x</p>", "html5lib").p.string == "x"


@pytest.fixture
def without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if turbohtml were not installed: its import fails."""
    monkeypatch.setattr(_html5, "_turbohtml", None)
    for name in ("turbohtml", "turbohtml.etree", "turbohtml.saxparse"):
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.usefixtures("without_the_extra")
def test_without_the_extra_asking_for_the_mode_says_what_to_install() -> None:
    with pytest.raises(FeatureNotFound, match=r"pip install 'scrapy-soup\[html5\]'"):
        Soup("<p>x", "html5lib")
    assert not _html5.available()
    # The other modes do not need it.
    assert Soup("<p>x").p is not None


# -- the corpus -----------------------------------------------------------------

PAGES = corpus_pages()


def _tags(soup: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(t.name, dict(t.attrs)) for t in soup.find_all(True)]


#: Selectors from the parity suite and what browsers' trees change.
SELECTORS = ["table > tbody > tr", "p", "a[href]", "div > p", "li", "head > meta"]


@pytest.fixture(
    scope="module", params=corpus_params(PAGES), ids=[p.name for p in PAGES]
)
def parsed(request: pytest.FixtureRequest) -> tuple[Soup, bs4.BeautifulSoup]:
    if sys.version_info < (3, 11):
        pytest.skip("turbohtml needs Python 3.11 or later")
    text = read_page(request.param)
    return Soup(text, "html5lib"), bs4.BeautifulSoup(text, "html5lib")


@pytest.mark.html5
def test_corpus_tree_search_and_select(parsed: tuple[Soup, bs4.BeautifulSoup]) -> None:
    ours, theirs = parsed
    assert _tags(ours) == _tags(theirs)
    for selector in SELECTORS:
        assert [str(t.attrs) for t in ours.select(selector)] == [
            str(t.attrs) for t in theirs.select(selector)
        ], selector
    assert str(ours.find("title")) == str(theirs.find("title"))


@pytest.mark.html5
def test_corpus_output_and_text(parsed: tuple[Soup, bs4.BeautifulSoup]) -> None:
    # bs4's html5lib soup as it is: every string as html5lib gave it
    # (none collapsed), script and style text in get_text().
    ours, theirs = parsed
    assert str(ours) == str(theirs)
    assert ours.prettify() == theirs.prettify()
    assert ours.get_text() == theirs.get_text()
    assert ours.get_text("|", strip=True) == theirs.get_text("|", strip=True)


@pytest.mark.usefixtures("without_the_extra")
def test_without_the_extra_soup_parser_html5_stops_the_crawl_saying_what_to_install() -> (
    None
):
    from scrapy.settings import Settings

    from scrapy_soup._scrapy._config import Config, SettingsError

    with pytest.raises(SettingsError, match=r"SOUP_PARSER.*scrapy-soup\[html5\]"):
        Config.from_settings(Settings({"SOUP_PARSER": "html5"}))
    assert Config.from_settings(Settings({})).parser == "lxml"
