"""Main-content fields: a page in an item, exported as its article.

A field named in ``SOUP_MAIN_CONTENT_FIELDS`` (or marked
``main_content=True``) holds a page: a Scrapy response, a soup (``response.
soup``, or a Tag of it) or the page's HTML as ``str`` or ``bytes``.
:func:`extract` gives its main content (`scrapy_soup.main_content`) as a new
fragment soup, the working tree the item path's stages then make absolute
and clean, and, when asked, the page's `scrapy_soup.metadata` as a dict of
plain data. A response or a soup is read on the tree Scrapy already parsed
(no second parse, the page never changed); a string is parsed once, as a
whole document, so that ``<head>`` is there for the metadata.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter

from scrapy_soup._scrapy._bridge import fragment_of_markup

if TYPE_CHECKING:
    from scrapy_soup._tree._soup import Soup

__all__ = ["METADATA_FIELDS", "extract", "fill_metadata", "is_page"]


def _metadata_fields() -> tuple[str, ...]:
    from scrapy_soup.markup.metadata import Metadata

    return tuple(f.name for f in dataclasses.fields(Metadata))


#: The item fields ``SOUP_MAIN_CONTENT_METADATA`` fills: `Metadata`'s.
METADATA_FIELDS = _metadata_fields()


def is_page(value: Any) -> bool:
    """Whether ``value`` is a page object (a response, a soup Tag or Soup),
    read on its own tree rather than as a string."""
    from scrapy.http import Response

    from scrapy_soup._tree._tag import Tag

    return isinstance(value, (Response, Tag))


def _page(value: Any, base_url: str | None) -> tuple[Any, str | None]:
    """What `main_content` and `metadata` read for ``value``, and its base URL.

    A response with a soup gives its soup; another HTML response its
    parsel tree (``response.selector.root``: Scrapy's parse); another
    response its text, or its body (bytes, decoded as `Soup` decodes them).
    """
    from scrapy.http import HtmlResponse, Response, TextResponse
    from scrapy.utils.response import get_base_url

    if isinstance(value, Response):
        soup = getattr(value, "soup", None)
        if soup is not None:
            return soup, None  # the soup knows its page's base URL
        if isinstance(value, HtmlResponse):
            return value.selector.root, get_base_url(value)
        if isinstance(value, TextResponse):
            return value.text, get_base_url(value)
        return value.body, value.url
    return value, base_url


def extract(
    value: Any, base_url: str | None, with_metadata: bool
) -> tuple[Soup, dict[str, Any] | None]:
    """The main content of the page ``value`` as a fragment soup (empty when
    none reads as content) and, ``with_metadata``, its metadata as a dict.

    The fragment's ``base_url`` is the page's own (a soup's, a response's
    ``<base href>``) or else ``base_url``.
    """
    from scrapy_soup._tree._soup import Soup
    from scrapy_soup.markup.main_content import main_content
    from scrapy_soup.markup.metadata import metadata

    page, own_base = _page(value, base_url)
    if isinstance(page, (str, bytes)):
        # Parsed once, as a document, for both.
        page = Soup(page, base_url=own_base)
        own_base = None
    base = own_base or base_url
    content = main_content(page, base_url=own_base)
    if content is None:
        content = fragment_of_markup("")
    if content.base_url is None and base is not None:
        content.base_url = base
    meta = None
    if with_metadata:
        meta = metadata(page, base_url=own_base).to_dict()
    return content, meta


def fill_metadata(item: Any, meta: dict[str, Any]) -> None:
    """Set the item's metadata fields from ``meta`` where they are empty.

    A dict item gets every field, None (or an empty list) where the page
    states nothing, so that every item has the same keys (a CSV feed takes
    its columns from the first item); another item the ones it declares (a
    ``scrapy.Item`` refuses others). A value the spider set is kept. The
    values are ``str``, ``list`` of ``str`` or None: plain data.
    """
    from scrapy_soup._scrapy._plain import set_field

    fields: Any = item if type(item) is dict else ItemAdapter(item)
    known = None if type(item) is dict else set(fields.field_names())
    for key, value in meta.items():
        if known is not None and key not in known:
            continue
        if key not in fields or (fields.get(key) in _EMPTY and value not in _EMPTY):
            set_field(item, key, value)


#: What a metadata field holds when the page states nothing.
_EMPTY: tuple[Any, ...] = (None, "", [], ())
