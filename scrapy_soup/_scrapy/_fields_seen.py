"""Which of the configured field names items had; reported at close.

A field named in ``SOUP_HTML_FIELDS``, ``SOUP_TEXT_FIELDS``,
``SOUP_MARKDOWN_FIELDS`` or ``SOUP_MAIN_CONTENT_FIELDS`` that no item had is logged once, with the field
items had that is close to it, if one is.
"""

from __future__ import annotations

import difflib
import logging
import weakref
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from scrapy_soup._scrapy._config import Config

__all__ = ["FieldsSeen"]

logger = logging.getLogger(__name__)


class FieldsSeen:
    """Which of the configured field names items had; reported at close.

    Names are looked for only until all are found; meanwhile the names items
    did have are kept, for the suggestion.
    """

    def __init__(self, crawler: Crawler, config: Config) -> None:
        named = {
            "SOUP_HTML_FIELDS": config.html_fields,
            "SOUP_TEXT_FIELDS": config.text_fields,
            "SOUP_MARKDOWN_FIELDS": config.markdown_fields,
            "SOUP_MAIN_CONTENT_FIELDS": config.main_content_fields,
        }
        self._setting_of = {f: s for s, fields in named.items() for f in fields}
        self.missing: set[str] = set(self._setting_of)
        self._had: set[str] = set()
        self._items = 0
        if self.missing:
            crawler.signals.connect(self._report, signals.spider_closed)

    _BY_CRAWLER: weakref.WeakKeyDictionary[Crawler, FieldsSeen] = (
        weakref.WeakKeyDictionary()
    )

    @classmethod
    def of(cls, crawler: Crawler, config: Config) -> FieldsSeen:
        """The one tracker of ``crawler`` (shared by its components)."""
        seen = cls._BY_CRAWLER.get(crawler)
        if seen is None:
            seen = cls._BY_CRAWLER[crawler] = cls(crawler, config)
        return seen

    def add(self, item: Any) -> None:
        """Note the fields of one item (nothing to do once every name was seen)."""
        if not self.missing:
            return
        keys = item.keys() if type(item) is dict else ItemAdapter(item).keys()
        self._items += 1
        self.missing.difference_update(keys)
        if self.missing:
            self._had.update(keys)

    def _report(self) -> None:
        if not self._items:
            return  # no item at all: nothing to tell about their fields
        had = sorted(str(k) for k in self._had)
        for name in sorted(self.missing):
            close = difflib.get_close_matches(name, had, n=1, cutoff=0.6)
            logger.warning(
                "%s names the field %r, which no item had; %s",
                self._setting_of[name],
                name,
                f"did you mean {close[0]!r}? (a field items had)"
                if close
                else "items had none close to it",
            )
