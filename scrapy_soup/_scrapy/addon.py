"""The Scrapy add-on: ``ADDONS = {"scrapy_soup.Addon": 0}`` turns everything on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.utils.misc import load_object

from scrapy_soup._scrapy._config import DEFAULTS
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


def _is_listed(settings: BaseSettings, name: str, component: type) -> bool:
    """Tell whether the user already lists ``component`` (any order, even None)."""
    for key in settings.getdict(name):
        try:
            if key is component or load_object(key) is component:
                return True
        except (ImportError, NameError, ValueError, AttributeError):
            # Someone else's broken entry: Scrapy reports it when it loads it.
            continue
    return False


def _setdefault_component(
    settings: BaseSettings, name: str, component: type, order: int
) -> None:
    # As scrapy-zyte-api's add-on: add the component only if it is absent, so
    # a user's own order, or a user's None that disables it, is kept.
    if _is_listed(settings, name, component):
        return
    components = settings.getdict(name)
    components[component] = order
    # Keep the setting's own priority: adding a component is not "setting" it.
    settings.set(name, components, settings.getpriority(name) or 0)


class Addon:
    """Enable the scrapy_soup middlewares and pipelines with add-on priority.

    Components are added at their recommended orders unless the user's
    settings already list them (with an order, or ``None`` to disable one);
    the ``SOUP_*`` settings get their defaults at "addon" priority, below any
    project or spider setting.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        for name, component, order in COMPONENTS:
            _setdefault_component(settings, name, component, order)
        for key, value in DEFAULTS.items():
            settings.set(key, value, "addon")
