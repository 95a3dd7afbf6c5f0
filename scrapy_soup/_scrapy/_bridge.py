"""The pipelines' calls into the soup and the pure ``links``/``clean`` modules.

Kept in one place so that the pipelines read as Scrapy plumbing. A field is
worked on as a *fragment* soup (bs4's ``html.parser`` view: no html/body
added) whose synthetic container element holds the field's nodes; the
lxml-level functions ``absolutize_element`` and ``clean_element`` change it in
place and return counts for the ``soup/...`` stats, and ``str()`` of the soup
is what exporters get, the same characters ``absolutize_links``/``clean``
return for a string.
"""

from __future__ import annotations

import copy
import functools
import weakref
from typing import TYPE_CHECKING, Any

from lxml import etree

from scrapy_soup._scrapy._stats import (
    ATTRIBUTES_REMOVED,
    CHARACTERS_REMOVED,
    COMMENTS_REMOVED,
    ELEMENTS_REMOVED,
    TAGS_UNWRAPPED,
)

if TYPE_CHECKING:
    from scrapy_soup._tree._soup import Soup
    from scrapy_soup._tree._tag import Tag
    from scrapy_soup.markup.clean import CleanPolicy

__all__ = [
    "absolutize",
    "absolutize_document",
    "clean",
    "clean_markup",
    "container_of",
    "convert",
    "fragment_html",
    "fragment_of_markup",
    "fragment_of_tag",
    "is_document",
    "remember_code_languages",
]


def _element_of(tag: Tag) -> etree._Element:
    """The lxml element under a soup Tag, or the root element of a whole Soup."""
    el: Any = tag._el
    if el is None:
        # A Soup in "html"/"xml" mode has no element of its own: its root is `_root`.
        el = getattr(tag, "_root", None)
    if not isinstance(el, etree._Element):
        raise TypeError(f"no element behind {type(tag).__name__}")
    return el


def fragment_of_markup(markup: str) -> Soup:
    """Parse a field's HTML string as a fragment soup (parsed once, here)."""
    from scrapy_soup._tree._builder import site_markup
    from scrapy_soup._tree._soup import Soup

    with site_markup():
        return Soup(markup, "fragment")


def fragment_of_tag(tag: Tag) -> Soup:
    """A fragment soup holding a deep copy of ``tag`` (or of a Soup's root).

    The copy is made by lxml in C; the tag's own tree, which is the tree of
    the response it came from, is never changed.
    """
    soup = fragment_of_markup("")
    el = copy.deepcopy(_element_of(tag))
    # deepcopy() carries the text after the element; it belongs to the page.
    el.tail = None
    container = soup._el
    assert container is not None
    container.append(el)
    return soup


def fragment_html(soup: Soup) -> str:
    """``str(soup)`` of a fragment soup, as exporters get it.

    ``str()`` itself chooses the writer (`scrapy_soup._tree._write.fast_decode`):
    straight from lxml unless an edit left what only the soup writes.
    """
    return str(soup)


def container_of(soup: Soup) -> etree._Element:
    """The synthetic container element of a fragment soup."""
    el = soup._el
    if not isinstance(el, etree._Element):
        raise TypeError("not a fragment soup")
    return el


def absolutize(
    soup: Soup,
    base_url: str,
    extra_attributes: tuple[str, ...],
    encoding: str | None = None,
) -> int:
    """Make every URL in a fragment soup absolute; return how many were rewritten.

    A page URL that cannot be a base (``data:``, ``about:``) leaves the
    links as they are, as a browser cannot resolve them either.
    """
    from scrapy_soup.markup.links import absolutize_element

    if not _can_be_base(base_url):
        return 0
    return absolutize_element(
        container_of(soup), base_url, extra_attrs=extra_attributes, encoding=encoding
    )


@functools.lru_cache(maxsize=1024)
def _can_be_base(url: str) -> bool:
    """Whether ``url`` can be a base URL (asked once per page: its items repeat it)."""
    from scrapy_soup.markup._url import can_be_base

    return can_be_base(url)


def is_document(text: str) -> bool:
    """Whether a field's string is a whole document (``<html>`` or a doctype first)."""
    from scrapy_soup.markup._markup import is_document as markup_is_document

    return markup_is_document(text)


def absolutize_document(
    text: str, base_url: str, extra_attributes: tuple[str, ...], encoding: str | None
) -> str:
    """`absolutize_links` of a whole document string: its ``<html>``,
    ``<head>`` and ``<body>`` kept, as a fragment soup cannot keep them."""
    from scrapy_soup.markup.links import absolutize_links

    if not _can_be_base(base_url):
        return text
    return absolutize_links(
        text, base_url, extra_attrs=extra_attributes, encoding=encoding
    )


def clean(soup: Soup, policy: CleanPolicy) -> dict[str, int]:
    """Clean a fragment soup in place; return the counts for the stats."""
    from scrapy_soup.markup.clean import clean_element

    stats = clean_element(container_of(soup), policy)
    return {
        ELEMENTS_REMOVED: stats.elements_removed,
        TAGS_UNWRAPPED: stats.tags_unwrapped,
        ATTRIBUTES_REMOVED: stats.attributes_removed,
        COMMENTS_REMOVED: stats.comments_removed,
        CHARACTERS_REMOVED: stats.characters_removed,
    }


def clean_text(text: str) -> tuple[str, dict[str, int]]:
    """Text without markup, as ``clean()`` leaves it: without the characters
    HTML and XML 1.0 forbid (an XML feed could not hold them); the counts."""
    from scrapy_soup.markup._characters import drop_forbidden, has_forbidden

    if not has_forbidden(text):
        return text, {}
    text, count = drop_forbidden(text)
    return text, {CHARACTERS_REMOVED: count}


def clean_markup(markup: str, policy: CleanPolicy) -> str:
    """``scrapy_soup.markup.clean.clean`` of a string (cleaned until it is stable)."""
    from scrapy_soup.markup.clean import clean as clean_string

    return clean_string(markup, policy)


#: The code block languages of fragments of Markdown fields, read before
#: the cleaning drops their ``class`` (`remember_code_languages`), until
#: `convert` writes the fragment.
_LANGUAGES: weakref.WeakKeyDictionary[Soup, dict[Any, str]] = (
    weakref.WeakKeyDictionary()
)


def remember_code_languages(soup: Soup) -> None:
    """Read the code languages of a Markdown field's fragment, once, before cleaning."""
    if soup not in _LANGUAGES:
        from scrapy_soup.markup.markdown import code_languages

        _LANGUAGES[soup] = code_languages(container_of(soup))


def convert(soup: Soup, fmt: str) -> str:
    """A fragment soup (absolute, cleaned) written as ``"text"`` or ``"markdown"``."""
    el = container_of(soup)
    if fmt == "markdown":
        from scrapy_soup.markup.markdown import markdown_of_element

        return markdown_of_element(el, _LANGUAGES.pop(soup, None))
    from scrapy_soup.markup.text import text_of_element

    return text_of_element(el)
