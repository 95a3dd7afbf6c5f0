"""The Scrapy add-on: ``ADDONS = {"scrapy_soup.Addon": 0}`` turns everything on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.settings import SETTINGS_PRIORITIES

from scrapy_soup._scrapy._config import DEFAULTS, settings_error
from scrapy_soup._scrapy.middlewares import (
    SoupDownloaderMiddleware,
    SoupSpiderMiddleware,
)
from scrapy_soup._scrapy.pipelines import AbsoluteLinksPipeline, CleanHtmlPipeline

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["COMPONENTS", "Addon"]

#: (setting, component, order) for every component the add-on enables.
COMPONENTS: tuple[tuple[str, type, int], ...] = (
    # process_response must run after HttpCompression (590) and HttpCache
    # (900), which build new response objects; lower orders run later.
    ("DOWNLOADER_MIDDLEWARES", SoupDownloaderMiddleware, 45),
    # Close to the engine (HttpErrorMiddleware is 50, StartSpiderMiddleware
    # 25): it records the item objects that actually reach the pipelines.
    ("SPIDER_MIDDLEWARES", SoupSpiderMiddleware, 30),
    # Well below 300, the number Scrapy's project template gives a user's
    # first pipeline and scrapy-redis documents for RedisPipeline: storage
    # and queues get absolute, clean HTML. Links first, so that cleaning
    # checks the absolute URLs; next to each other, so that a field's tree is
    # handed from one to the other instead of parsed twice.
    ("ITEM_PIPELINES", AbsoluteLinksPipeline, 100),
    ("ITEM_PIPELINES", CleanHtmlPipeline, 110),
)


class Addon:
    """Enable the scrapy_soup middlewares and pipelines with add-on priority.

    Components are added at their recommended orders unless the user's
    settings already list them (with an order, or ``None`` to disable one);
    the ``SOUP_*`` settings get their declared defaults at "addon" priority,
    below any project or spider setting. ``SOUP_ENABLED = False`` (e.g. in a
    spider's ``custom_settings``) keeps every component out for that spider.
    A wrong ``SOUP_*`` value stops the crawl before any feed is opened.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        for name, component, order in COMPONENTS:
            # Only if absent (by class or import path): a user's own order, or
            # a user's None that disables it, is kept; the setting's priority
            # is kept too (adding a component is not "setting" it).
            settings.setdefault_in_component_priority_dict(name, component, order)
        for key, value in DEFAULTS.items():
            settings.set(key, value, "addon")
        if settings_error(settings) is not None:
            # The crawl stops before its first request (the components log
            # the error); Scrapy's feed exporter would still open its files
            # as the spider opens, emptying an existing ``-O`` file. No feed
            # is opened: nothing is exported, and what was there is kept.
            priority = max(
                settings.getpriority("FEEDS") or 0, SETTINGS_PRIORITIES["cmdline"]
            )
            settings.set("FEEDS", {}, priority + 1)
