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

Closing the spider is :mod:`~scrapy_soup._scrapy._close`'s job; reporting
fields no item had, at close, :mod:`~scrapy_soup._scrapy._fields_seen`'s.
"""

from __future__ import annotations

import difflib
import logging
import re
import weakref
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from scrapy_soup._scrapy._close import INVALID_SETTINGS_REASON, close_at_open
from scrapy_soup._scrapy._config import Config, SettingsError, parse_setting
from scrapy_soup._scrapy._settings import SETTINGS_BY_NAME
from scrapy_soup._scrapy._setup import LINKS, Setup

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = ["INVALID_SETTINGS_REASON", "crawler_config"]

logger = logging.getLogger(__name__)

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
        close_at_open(crawler, INVALID_SETTINGS_REASON)
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
