"""What each crawler's setup is checked for, once, when its first component starts.

:func:`crawler_config` is how every scrapy_soup component gets its
:class:`~scrapy_soup._scrapy._config.Config`. The first call for a crawler
reads and checks the settings and logs what is wrong, once per crawler:

- ``SOUP_ENABLED = False``: the component is not configured (NotConfigured,
  silently), so that spider runs as if the plugin were not installed;
- an unknown ``SOUP_*`` name: one WARNING naming the closest known setting;
- a wrong value: one ERROR line naming the setting, the value and the
  expected form; no component is configured and the spider is closed before
  its first request, with the finish reason ``soup_invalid_settings``;
- a setup where no component of ours sees the items (the downloader
  middleware alone): one ERROR saying what to add; the links pipeline with
  no way to know an item's page: one WARNING.

At close, a field named in ``SOUP_HTML_FIELDS``, ``SOUP_TEXT_FIELDS`` or
``SOUP_MARKDOWN_FIELDS`` that no item had is reported (:class:`FieldsSeen`).
"""

from __future__ import annotations

import difflib
import logging
import re
import weakref
from typing import TYPE_CHECKING, Any

import scrapy
from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import CloseSpider, NotConfigured

from scrapy_soup._scrapy._config import Config, SettingsError, parse_setting
from scrapy_soup._scrapy._settings import SETTINGS_BY_NAME
from scrapy_soup._scrapy._setup import LINKS, Setup

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = ["INVALID_SETTINGS_REASON", "FieldsSeen", "crawler_config"]

logger = logging.getLogger(__name__)

#: The finish reason of a spider closed because a SOUP_* value is wrong.
INVALID_SETTINGS_REASON = "soup_invalid_settings"

#: Scrapy >= 2.18 closes a spider that a ``spider_opened`` handler asks to
#: close (CloseSpider) before its start requests run.
_CLOSE_AT_OPEN = scrapy.version_info >= (2, 18)

#: crawler -> its Config, or the error its settings gave
_CHECKED: weakref.WeakKeyDictionary[Crawler, Config | SettingsError] = (
    weakref.WeakKeyDictionary()
)


def crawler_config(crawler: Crawler) -> Config:
    """The checked ``SOUP_*`` settings of ``crawler``.

    Raises NotConfigured (no message, so Scrapy logs nothing) when the plugin
    is off for this crawler or its settings are wrong; the first call logs
    what is wrong and, for a wrong value, closes the spider as it opens.
    """
    checked = _CHECKED.get(crawler)
    if checked is None:
        checked = _check(crawler)
        _CHECKED[crawler] = checked
    if isinstance(checked, SettingsError) or not checked.enabled:
        raise NotConfigured
    return checked


def _check(crawler: Crawler) -> Config | SettingsError:
    settings = crawler.settings
    try:
        if parse_setting("SOUP_ENABLED", settings.get("SOUP_ENABLED")) is False:
            # Off: the other settings are not this spider's concern.
            return Config(enabled=False)
        config = Config.from_settings(settings)
    except SettingsError as exc:
        _warn_unknown(settings)
        logger.error("%s", exc)
        _close_at_open(crawler)
        return exc
    _warn_unknown(settings)
    _check_setup(crawler, config)
    return config


def _squeezed(name: str) -> str:
    """A setting name without case or separators: ``soup_html-Fields`` ->
    ``SOUPHTMLFIELDS``."""
    return re.sub(r"[^A-Z0-9]", "", name.upper())


#: squeezed name -> the declared name
_SQUEEZED = {_squeezed(name): name for name in SETTINGS_BY_NAME}


def _warn_unknown(settings: BaseSettings) -> None:
    """Warn about each name that looks like a ``SOUP_*`` setting but is not one.

    Found case-insensitively and without separators (``SOUPHTML_FIELDS``,
    ``soup_html_fields``); a suggestion is given only when it is close.
    """
    for name in sorted(k for k in settings if isinstance(k, str)):
        if name in SETTINGS_BY_NAME:
            continue
        squeezed = _squeezed(name)
        if not squeezed.startswith("SOUP"):
            continue
        close = [_SQUEEZED[squeezed]] if squeezed in _SQUEEZED else []
        if not close:
            close = [
                _SQUEEZED[c]
                for c in difflib.get_close_matches(
                    squeezed, _SQUEEZED, n=1, cutoff=0.85
                )
            ]
        if not close and not name.startswith("SOUP_"):
            continue  # SOUPLESS_..., another plugin's name
        hint = (
            f"did you mean {close[0]}?"
            if close
            else "scrapy_soup reads no such setting"
        )
        logger.warning("Unknown setting %s (ignored): %s", name, hint)


def _close_at_open(crawler: Crawler) -> None:
    """Close the spider before its first request, with our finish reason."""

    def close_at_open(spider: Any) -> None:
        raise CloseSpider(INVALID_SETTINGS_REASON)

    def close_when_started() -> None:
        # Scrapy < 2.18: the engine can be closed once it runs, on the next
        # turn of the reactor (the start requests are not downloaded yet).
        from scrapy.utils.reactor import CallLaterOnce

        def close() -> None:
            engine: Any = crawler.engine
            if hasattr(engine, "close_spider_async"):  # 2.14 to 2.17
                from scrapy.utils.defer import deferred_from_coro

                deferred_from_coro(
                    engine.close_spider_async(reason=INVALID_SETTINGS_REASON)
                )
            else:  # 2.13
                engine.close_spider(crawler.spider, INVALID_SETTINGS_REASON)

        CallLaterOnce(close).schedule()

    if _CLOSE_AT_OPEN:
        crawler.signals.connect(close_at_open, signals.spider_opened, weak=False)
    else:
        crawler.signals.connect(close_when_started, signals.engine_started, weak=False)


#: What each warning about a setup tells the user to add.
ADD_ADDON = 'Enable the add-on (ADDONS = {"scrapy_soup.Addon": 0})'
ADD_SPIDER_MW = 'SPIDER_MIDDLEWARES = {"scrapy_soup.SoupSpiderMiddleware": 30}'
#: The ERROR of a setup where no component of ours sees the items.
DOWNLOADER_ALONE = (
    "SoupDownloaderMiddleware is enabled without SoupSpiderMiddleware or the "
    "scrapy_soup pipelines: no component of scrapy_soup sees the items, so soup "
    "objects in them (a Tag, tag.attrs, ...) are neither turned into plain data "
    "nor cleaned, and feed exporters fail on them or export them raw. "
    f"{ADD_ADDON} or add {ADD_SPIDER_MW}"
)


def _check_setup(crawler: Crawler, config: Config) -> None:
    """Say once, at start, what a setup cannot do and what to add."""
    setup = Setup.of(crawler)
    if (
        setup.downloader_middleware
        and not setup.spider_middleware
        and not setup.has_pipelines
    ):
        logger.error("%s", DOWNLOADER_ALONE)
    if (
        setup.has_stage(LINKS)
        and not setup.spider_middleware
        and config.url_field is None
    ):
        logger.warning(
            "AbsoluteLinksPipeline is enabled without SoupSpiderMiddleware or "
            "SOUP_URL_FIELD: it knows no page URL to make an item's relative "
            "links absolute against, so an HTML value holding one is exported "
            "as its text, escaped. %s or add %s",
            ADD_ADDON,
            ADD_SPIDER_MW,
        )


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
