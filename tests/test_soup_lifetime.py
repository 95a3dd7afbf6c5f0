"""A soup is freed by reference counting when the last reference goes.

Tags and strings point at their document, not at the `Soup` the user holds,
so dropping the soup frees it, its wrappers and its lxml tree at once, with
the cyclic garbage collector off.  A tag still held keeps its document, and
reaches a soup again through it, with the same answers as bs4's.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import bs4
import pytest
from conftest import corpus_pages
from lxml import etree

from scrapy_soup import Soup, Tag

#: Real pages, with and without a doctype, comments around <html>, whitespace after it.
PAGES = corpus_pages("real")[:8]


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _use(soup: Soup) -> None:
    """What a spider callback does with a soup: search, read, navigate, select."""
    soup.find_all(True)
    soup.find_all(string=True)
    soup.get_text()
    list(soup.descendants)
    soup.select("a[href]")
    assert soup.contents  # the document level: doctype, comments, whitespace
    if soup.p is not None:
        assert soup.p.parent is not None
        assert soup.p.next_sibling or soup.p.next_sibling is None


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
@pytest.mark.parametrize("mode", ["lxml", "html.parser"])
def test_a_soup_nobody_holds_is_freed_at_once(
    path: Path, mode: str, no_collector: None
) -> None:
    soup = Soup(path.read_bytes(), mode)
    _use(soup)
    gone = weakref.ref(soup)
    tag = weakref.ref(soup.find(True))
    string = weakref.ref(soup.find(string=True))
    document = weakref.ref(soup._doc)
    del soup
    assert gone() is None
    assert tag() is None and string() is None
    assert document() is None  # and so its lxml tree


def test_an_adopted_tree_lets_go_of_its_wrappers(no_collector: None) -> None:
    tree = etree.fromstring(
        b"<html><body><p>a<b>x</b></p></body></html>", etree.HTMLParser()
    )
    soup = Soup(tree)
    soup.find_all(True)
    held = weakref.ref(soup.b)
    del soup
    assert held() is None  # the tree itself is the caller's


def test_an_edited_soup_is_freed_too(no_collector: None) -> None:
    soup = Soup("<!DOCTYPE html><p>a</p><!-- c -->")
    soup.p.append("b")
    soup.p.append("c")  # strings kept apart: state the tree does not hold
    soup.p.string.extract() if soup.p.string else None
    soup.new_tag("i").string = "x"
    gone = weakref.ref(soup)
    del soup
    assert gone() is None


def test_a_held_tag_keeps_its_document() -> None:
    markup = "<!DOCTYPE html><html><body><div><p>a<b>x</b>c</p></div></body></html>\n"
    soup = Soup(markup)
    theirs = bs4.BeautifulSoup(markup, "lxml")
    paragraph = soup.p
    paragraph.append("d")
    paragraph.append("e")  # three strings now, as bs4's
    theirs.p.append("d")
    theirs.p.append("e")
    del soup
    gc.collect()
    assert [str(c) for c in paragraph.contents] == [str(c) for c in theirs.p.contents]
    top = paragraph
    while top.parent is not None:
        top = top.parent
    assert isinstance(top, Soup)
    assert str(top) == str(theirs)
    assert [str(c) for c in top.contents] == [str(c) for c in theirs.contents]
    assert top.find("b") is paragraph.b


def test_a_hidden_tag_stays_hidden_after_its_soup_goes() -> None:
    soup = Soup("<div><p>a<b>x</b>c</p></div>")
    soup.b.hidden = True  # the wrapper holds it: the tree cannot
    div = soup.div
    del soup
    gc.collect()
    assert div.b is not None and div.b.hidden
    theirs = bs4.BeautifulSoup("<div><p>a<b>x</b>c</p></div>", "lxml")
    theirs.b.hidden = True
    assert str(div) == str(theirs.div)  # and output still leaves it out


@pytest.mark.parametrize("mode", ["html", "fragment"])
def test_a_soup_set_hidden_is_still_freed_at_once(mode: str) -> None:
    soup = Soup("<p>a<b>x</b></p>", mode)
    soup.hidden = True  # (a soup always is: its document must not keep it)
    soup.b.hidden = True
    gone = weakref.ref(soup)
    del soup
    assert gone() is None


def test_a_fragment_soup_made_again_is_the_parent_of_its_top_level() -> None:
    soup = Soup("<p>a</p><p>b</p>", "html.parser")
    first = soup.p
    del soup
    gc.collect()
    parent = first.parent
    assert isinstance(parent, Soup) and not isinstance(parent, bs4.BeautifulSoup)
    assert [str(p) for p in parent.find_all("p")] == ["<p>a</p>", "<p>b</p>"]
    assert first.parent is parent  # while it is held, the same one


def test_reset_leaves_held_tags_with_their_old_document() -> None:
    soup = Soup("<p>a<b>x</b></p>")
    b = soup.b
    soup.reset()
    assert soup.contents == []
    top: Tag = b
    while top.parent is not None:
        top = top.parent
    assert top is not soup
    assert str(top) == str(bs4.BeautifulSoup("<p>a<b>x</b></p>", "lxml"))


def test_a_soup_whose_constructor_raised_goes_quietly() -> None:
    # Its __del__ runs on an object never given a document: no search for a
    # tag named "_doc", no exception left for the interpreter to print.
    with pytest.raises(TypeError):
        Soup("<p>a</p>", no_such_option=1)
    gc.collect()
