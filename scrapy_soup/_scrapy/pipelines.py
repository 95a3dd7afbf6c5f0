"""Item pipelines that make links absolute and clean HTML fields before export.

Each pipeline is one stage of the crawler's
:class:`~scrapy_soup._scrapy._item_path.ItemPath`, which finds the HTML
values of an item (the fields named in ``SOUP_HTML_FIELDS`` or marked
``html=True`` in their metadata, and the values that held soup Tags, recorded
by :class:`~scrapy_soup.SoupSpiderMiddleware`), parses each once as a
fragment, runs the stage on it and writes a ``str`` back: an item never
holds a soup object between two pipelines. The working tree is handed to the
next scrapy_soup pipeline beside the item, so that a value is parsed once for
both.

Fail closed: a value that cannot be processed is never exported as it came.
Its text is escaped (it reads as the same text and holds no markup) or, with
``SOUP_DROP_FAILED_ITEMS``, the item is dropped; either way it is counted in
``soup/fields_failed`` and logged once per field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.exceptions import DropItem

from scrapy_soup._scrapy._item_path import ItemPath
from scrapy_soup._scrapy._setup import CLEAN, LINKS

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

__all__ = ["AbsoluteLinksPipeline", "CleanHtmlPipeline"]


class _HtmlFieldPipeline:
    """Run this pipeline's stage of the item path on each item."""

    #: The stage of the item path this pipeline runs.
    stage = ""

    def __init__(self, crawler: Crawler) -> None:
        # Raises NotConfigured when SOUP_ENABLED is off or a setting is wrong.
        self._path = ItemPath.of(crawler)
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        # ``spider`` is optional: Scrapy < 2.14 passes it, later ones do not.
        if not self._path.process(item, self.stage, type(self)):
            raise DropItem(f"{type(self).__name__}: could not process fields")
        return item


class AbsoluteLinksPipeline(_HtmlFieldPipeline):
    """Rewrite every URL in HTML fields to an absolute one.

    The base is the item's page (its first ``<base href>``, else its URL) as
    recorded by :class:`~scrapy_soup.SoupSpiderMiddleware`, or a soup object's
    own document; query strings are encoded in the page's encoding, as
    ``response.follow()`` encodes them. ``SOUP_LINKS_EXTRA_ATTRIBUTES`` adds
    attributes such as the lazy-loading ``data-src``. Counts
    ``soup/links_absolutized``. With no page URL known (no spider middleware,
    no ``SOUP_URL_FIELD``), a value holding a relative link fails closed.
    """

    stage = LINKS


class CleanHtmlPipeline(_HtmlFieldPipeline):
    """Remove unwanted elements and attributes from HTML fields.

    The policy is ``SOUP_CLEAN_POLICY`` (a preset name or a ``CleanPolicy``)
    adjusted by the ``SOUP_CLEAN_*`` settings. Counts
    ``soup/attributes_removed`` and ``soup/elements_removed``.
    """

    stage = CLEAN
