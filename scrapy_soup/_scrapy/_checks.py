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
- a setup that loses what a component promises (the downloader middleware
  with neither the spider middleware nor the pipelines): one WARNING saying
  what to add.

At close, a field named in ``SOUP_HTML_FIELDS``, ``SOUP_TEXT_FIELDS`` or
``SOUP_MARKDOWN_FIELDS`` that no item had is reported (:class:`FieldsSeen`).
"""

from __future__ import annotations

import difflib
import logging
import weakref
from typing import TYPE_CHECKING, Any

import scrapy
from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import CloseSpider, NotConfigured
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object

from scrapy_soup._scrapy._config import Config, SettingsError, parse_setting
from scrapy_soup._scrapy._settings import SETTINGS_BY_NAME

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
    _check_setup(settings, config)
    return config


def _warn_unknown(settings: BaseSettings) -> None:
    known = list(SETTINGS_BY_NAME)
    for name in sorted(k for k in settings if isinstance(k, str)):
        if not name.startswith("SOUP_") or name in SETTINGS_BY_NAME:
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
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


#: The components a setup check looks for, by name (this module is imported
#: by theirs): a subclass counts as the class.
_DOWNLOADER_MW = "scrapy_soup._scrapy.middlewares.SoupDownloaderMiddleware"
_SPIDER_MW = "scrapy_soup._scrapy.middlewares.SoupSpiderMiddleware"
_PIPELINE = "scrapy_soup._scrapy.pipelines._HtmlFieldPipeline"
_LINKS_PIPELINE = "scrapy_soup._scrapy.pipelines.AbsoluteLinksPipeline"


def _listed(settings: BaseSettings, name: str) -> bool:
    """Whether a component setting names a scrapy_soup pipeline at all, even
    with ``None`` (a user who disabled one chose so: nothing to warn about)."""
    for key in settings.getwithbase(name):
        path = key if isinstance(key, str) else getattr(key, "__module__", "")
        if str(path).startswith("scrapy_soup"):
            return True
    return False


def _enabled(settings: BaseSettings, name: str) -> set[str]:
    """The names of the classes listed (with an order) in a component setting,
    and of their base classes."""
    names: set[str] = set()
    for path in build_component_list(settings.getwithbase(name)):
        try:
            component = load_object(path)
        except (ImportError, NameError, ValueError, AttributeError):
            continue  # someone else's broken entry: Scrapy reports it
        for cls in getattr(component, "__mro__", ()):
            names.add(f"{cls.__module__}.{cls.__qualname__}")
    return names


def _check_setup(settings: BaseSettings, config: Config) -> None:
    """Warn once about a setup where an enabled component cannot keep its promise."""
    downloader = _DOWNLOADER_MW in _enabled(settings, "DOWNLOADER_MIDDLEWARES")
    spider = _SPIDER_MW in _enabled(settings, "SPIDER_MIDDLEWARES")
    pipeline_names = _enabled(settings, "ITEM_PIPELINES")
    pipelines = _PIPELINE in pipeline_names
    if downloader and not spider and not pipelines:
        logger.warning(
            "SoupDownloaderMiddleware is enabled without SoupSpiderMiddleware or "
            "the scrapy_soup pipelines: items holding soup objects (a Tag, "
            "tag.attrs, ...) are not turned into plain data and feed exporters "
            'may lose them. Enable the add-on (ADDONS = {"scrapy_soup.Addon": 0}) '
            'or add SPIDER_MIDDLEWARES = {"scrapy_soup.SoupSpiderMiddleware": 30}'
        )
    if spider and not pipelines and not _listed(settings, "ITEM_PIPELINES"):
        logger.warning(
            "SoupSpiderMiddleware is enabled without the scrapy_soup pipelines: "
            "soup objects in items become plain data, but their HTML (and the "
            "HTML fields) is exported as it is on the page, links not made "
            "absolute, nothing cleaned. Enable the add-on "
            '(ADDONS = {"scrapy_soup.Addon": 0}) or add ITEM_PIPELINES = '
            '{"scrapy_soup.AbsoluteLinksPipeline": 100, '
            '"scrapy_soup.CleanHtmlPipeline": 110}'
        )
    if _LINKS_PIPELINE in pipeline_names and not spider and config.url_field is None:
        logger.warning(
            "AbsoluteLinksPipeline is enabled without SoupSpiderMiddleware or "
            "SOUP_URL_FIELD: it knows no page URL to make an item's relative "
            "links absolute against, and leaves them relative. Enable the "
            'add-on (ADDONS = {"scrapy_soup.Addon": 0}) or add '
            'SPIDER_MIDDLEWARES = {"scrapy_soup.SoupSpiderMiddleware": 30}'
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
            close = difflib.get_close_matches(name, had, n=1, cutoff=0)
            logger.warning(
                "%s names the field %r, which no item had; %s",
                self._setting_of[name],
                name,
                f"the closest field items had: {close[0]!r}"
                if close
                else "items had no fields",
            )
