"""Editing the top level of a full document, with bs4 as the oracle.

A page's doctype, the comments and processing instructions around
``<html>`` and the whitespace bs4 keeps after ``</html>`` are the soup's
children: bs4 lets ``extract``, ``decompose``, ``replace_with``,
``insert_before`` and ``insert_after`` work on them (stripping comments
from older pages, whose IE conditional comments sit before ``<html>``).
The one thing lxml cannot do is hold a second element there, or none.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import bs4
import pytest
from conftest import corpus_pages, read_page

from scrapy_soup import Comment, Doctype, ProcessingInstruction, Soup

Edit = Callable[[Any], None]


def _comment_class(soup: Any) -> type:
    return bs4.Comment if isinstance(soup, bs4.BeautifulSoup) else Comment


def strip_comments(soup: Any) -> None:
    cls = _comment_class(soup)
    for comment in soup.find_all(string=lambda s: isinstance(s, cls)):
        comment.extract()


def decompose_top_level(soup: Any) -> None:
    for child in list(soup.contents):
        if child.name is None:  # the doctype, comments, PIs, whitespace
            child.decompose()


def comment_before_and_after_html(soup: Any) -> None:
    cls = _comment_class(soup)
    soup.html.insert_before(soup.new_string("before", cls), "\n")
    soup.html.insert_after("\n", soup.new_string("after", cls))


def replace_top_level_comments(soup: Any) -> None:
    cls = _comment_class(soup)
    for child in list(soup.contents):
        if isinstance(child, cls):
            child.replace_with(soup.new_string(child.upper(), cls))


EDITS = [strip_comments, decompose_top_level, comment_before_and_after_html,
         replace_top_level_comments]  # fmt: skip

MARKUP = [
    "<!DOCTYPE html><!--[if IE]><p>old IE</p><![endif]--><html><body>"
    "<!--c--><p>a</p></body></html>",
    "<!--a--><!--b--><html><body><p>x</p></body></html><!--z-->\n",
    '<?xml version="1.0"?><!DOCTYPE html><!--a--><html><head></head>'
    "<body>x</body></html>\n<!--after-->\n",
    "</a>  <!--a--> <html><body>x</body></html>",
    "<html><body>no top level</body></html>",
]


def _top_level_pages() -> list[Path]:
    """Corpus pages with something beside <html>: a comment, PI or text after it."""
    pages = [
        page
        for page in corpus_pages()
        if page.stat().st_size < 300_000
        and any(
            child.name is None and not isinstance(child, bs4.Doctype)
            for child in bs4.BeautifulSoup(read_page(page), "lxml").contents
        )
    ]
    assert pages, "no corpus page has a comment or PI beside <html>"
    return pages


def _same(markup: str, edit: Edit) -> None:
    ours, theirs = Soup(markup), bs4.BeautifulSoup(markup, "lxml")
    edit(ours)
    edit(theirs)
    assert str(ours) == str(theirs)
    assert [str(c) for c in ours.contents] == [str(c) for c in theirs.contents]
    assert [type(c).__name__ for c in ours.contents] == [
        type(c).__name__ for c in theirs.contents
    ]


@pytest.mark.parametrize("edit", EDITS, ids=lambda e: e.__name__)
@pytest.mark.parametrize("markup", MARKUP)
def test_top_level_edit_as_bs4(markup: str, edit: Edit) -> None:
    _same(markup, edit)


@pytest.mark.parametrize("edit", EDITS, ids=lambda e: e.__name__)
@pytest.mark.parametrize("page", _top_level_pages(), ids=lambda p: p.name)
def test_top_level_edit_on_corpus_pages(page: Path, edit: Edit) -> None:
    _same(read_page(page), edit)


def test_navigation_after_top_level_edits() -> None:
    soup = Soup("<!DOCTYPE html><!--a--><html><body>x</body></html><!--z-->")
    comment = soup.contents[1]
    comment.extract()
    assert comment.parent is None
    assert soup.html.previous_sibling is soup.contents[0]
    assert isinstance(soup.contents[0], Doctype)
    new = soup.new_string("new", Comment)
    soup.html.insert_after(new)
    assert soup.html.next_sibling is new and new.parent is soup
    assert new.next_sibling == "z"
    # The tree parsel sees holds the comment too.
    assert soup.html._el.getnext().text == "new"


def test_a_processing_instruction_beside_the_root() -> None:
    soup = Soup("<html><body>x</body></html>")
    soup.html.insert_before(ProcessingInstruction("php echo 1?"))
    reference = bs4.BeautifulSoup("<html><body>x</body></html>", "lxml")
    reference.html.insert_before(bs4.ProcessingInstruction("php echo 1?"))
    assert str(soup) == str(reference)


def test_the_root_element_stays() -> None:
    soup = Soup("<!--a--><html><body>x</body></html>")
    with pytest.raises(ValueError, match="exactly one element"):
        soup.html.extract()
    with pytest.raises(ValueError, match="exactly one element"):
        soup.contents[0].insert_after(soup.new_tag("p"))
    # Nothing was changed by the refused edits.
    assert str(soup) == "<!--a--><html><body>x</body></html>"
