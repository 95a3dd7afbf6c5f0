"""Where each scraped item's HTML came from, kept beside the item, not in it.

The spider middleware records the page URL and base URL of every item a
callback yields, and which of its values held markup (soup Tags, now
``str``); the pipelines look them up to resolve relative links and to know
which values to clean. Nothing is added to the item itself.

Items are keyed by ``id()``: dicts cannot be weakly referenced, and dataclass
items are unhashable. Each entry holds the item weakly when it can (the entry
then disappears with the item) and strongly when it cannot (a dict: the strong
reference also stops ``id()`` reuse from handing the entry to another item).
Every entry is released when its item leaves the pipelines (``item_scraped``,
``item_dropped`` or ``item_error``), and all of them when the spider closes, so
the map stays as small as the number of items in flight.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy import signals

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from scrapy_soup._scrapy._plain import FieldPath, Markup

__all__ = ["ItemOrigins", "Origin"]

logger = logging.getLogger(__name__)


class Origin:
    """The page an item was scraped from and the base URL of that page.

    ``base_url`` may be given as a function, called on the first read: finding
    a page's ``<base href>`` can walk its whole tree, and only items with an
    HTML field to rewrite ever need it.
    """

    __slots__ = ("_base_url", "encoding", "url")

    def __init__(
        self,
        url: str,
        base_url: str | Callable[[], str],
        encoding: str | None = None,
    ) -> None:
        self.url = url
        self._base_url = base_url
        #: the page's encoding: the queries of its links are encoded in it
        self.encoding = encoding

    @property
    def base_url(self) -> str:
        """The URL the page's relative links resolve against."""
        value = self._base_url
        if not isinstance(value, str):
            try:
                value = value()
            except Exception:
                # Never lose an item over its base URL: links in it resolve
                # against the page URL instead.
                logger.warning(
                    "Could not read the base URL of %s", self.url, exc_info=True
                )
                value = self.url
            # Computed once; the function (and the tree it reads) is let go.
            self._base_url = value
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Origin):
            return NotImplemented
        return (self.url, self.base_url) == (other.url, other.base_url)

    def __hash__(self) -> int:
        return hash((self.url, self.base_url))

    def __repr__(self) -> str:
        return f"Origin(url={self.url!r}, base_url={self._base_url!r})"


class ItemOrigins:
    """An item -> :class:`Origin` map for one crawler, released by signals."""

    def __init__(self) -> None:
        # id(item) -> (weakref to the item, or the item itself, origin,
        # markup, whether the spider middleware failed on a Tag of it)
        self._entries: dict[
            int, tuple[Any, Origin | None, dict[FieldPath, Markup] | None, bool]
        ] = {}

    @classmethod
    def of(cls, crawler: Crawler) -> ItemOrigins:
        """Return the map shared by every scrapy_soup component of ``crawler``."""
        origins = _by_crawler.get(crawler)
        if origins is None:
            origins = _by_crawler[crawler] = cls()
            # The dispatcher holds receivers weakly; the map lives as long as
            # the crawler (it is the value of a crawler-keyed weak dict).
            crawler.signals.connect(origins._on_item_done, signals.item_scraped)
            crawler.signals.connect(origins._on_item_done, signals.item_dropped)
            crawler.signals.connect(origins._on_item_done, signals.item_error)
            crawler.signals.connect(origins._on_spider_closed, signals.spider_closed)
        return origins

    def __len__(self) -> int:
        return len(self._entries)

    def record(
        self,
        item: Any,
        origin: Origin | None,
        markup: dict[FieldPath, Markup] | None = None,
        failed: bool = False,
    ) -> None:
        """Remember ``origin`` and ``markup`` for ``item`` until it leaves the pipelines.

        ``failed``: a Tag of the item could not be processed before the
        pipelines (`SOUP_DROP_FAILED_ITEMS` drops the item in the first).
        """
        key = id(item)
        holder: Any
        if type(item) is dict:
            # The usual item, never weakly referenceable: no callback to build.
            holder = item
        else:
            try:
                holder = weakref.ref(item, self._forget_callback(key))
            except TypeError:
                holder = item
        self._entries[key] = (holder, origin, markup, failed)

    def _entry(
        self, item: Any
    ) -> tuple[Any, Origin | None, dict[FieldPath, Markup] | None, bool] | None:
        entry = self._entries.get(id(item))
        if entry is None:
            return None
        holder = entry[0]
        if holder is item or (isinstance(holder, weakref.ref) and holder() is item):
            return entry
        return None

    def get(self, item: Any) -> Origin | None:
        """Return the origin recorded for this very item object, if any."""
        entry = self._entry(item)
        return None if entry is None else entry[1]

    def markup(self, item: Any) -> dict[FieldPath, Markup] | None:
        """Return the markup values recorded for this very item object, if any."""
        entry = self._entry(item)
        return None if entry is None else entry[2]

    def failed(self, item: Any) -> bool:
        """Whether a Tag of this very item could not be processed before the pipelines."""
        entry = self._entry(item)
        return entry is not None and entry[3]

    def set_markup(self, item: Any, markup: dict[FieldPath, Markup]) -> None:
        """Record ``markup`` for ``item`` (keeping its origin, if recorded)."""
        entry = self._entry(item)
        if entry is None:
            self.record(item, None, markup)
        else:
            self._entries[id(item)] = (entry[0], entry[1], markup, entry[3])

    def release(self, item: Any) -> None:
        """Forget ``item`` (if it is the object recorded under its ``id()``)."""
        key = id(item)
        entry = self._entries.get(key)
        if entry is None:
            return
        holder = entry[0]
        if holder is item or (isinstance(holder, weakref.ref) and holder() is item):
            del self._entries[key]

    def clear(self) -> None:
        """Forget every item."""
        self._entries.clear()

    def _forget_callback(self, key: int) -> Any:
        # A weak reference back to the map: the callback must not keep it alive.
        origins_ref = weakref.ref(self)

        def forget(ref: weakref.ref[Any]) -> None:
            origins = origins_ref()
            if origins is None:
                return
            entries = origins._entries
            entry = entries.get(key)
            # Only drop the entry if it is still this item's: the id may have
            # been reused by a newer item recorded since.
            if entry is not None and entry[0] is ref:
                del entries[key]

        return forget

    def _on_item_done(self, item: Any, **kwargs: Any) -> None:
        self.release(item)

    def _on_spider_closed(self, **kwargs: Any) -> None:
        self.clear()


_by_crawler: weakref.WeakKeyDictionary[Crawler, ItemOrigins] = (
    weakref.WeakKeyDictionary()
)
