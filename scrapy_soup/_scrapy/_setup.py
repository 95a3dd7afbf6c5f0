"""Which scrapy_soup components a crawler enables, read once per crawler.

``ITEM_PIPELINES`` and the middleware settings are resolved here, once, when
the first component asks (:meth:`Setup.of`); the start checks, the pipelines
(their place in the chain) and the spider middleware (what it must do itself)
all read the same answer. Classes are told apart by the names in their MRO:
this module sits below the modules that define them, and a user's subclass
counts as the class it extends.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = ["CLEAN", "LINKS", "Setup"]

#: The stage each scrapy_soup pipeline runs (see ``_item_path``).
LINKS, CLEAN = "links", "clean"

_PACKAGE = "scrapy_soup._scrapy"
_DOWNLOADER_MW = f"{_PACKAGE}.middlewares.SoupDownloaderMiddleware"
_SPIDER_MW = f"{_PACKAGE}.middlewares.SoupSpiderMiddleware"
_STAGE_OF = {
    f"{_PACKAGE}.pipelines.AbsoluteLinksPipeline": LINKS,
    f"{_PACKAGE}.pipelines.CleanHtmlPipeline": CLEAN,
}
_MEDIA = "scrapy.pipelines.media.MediaPipeline"


def _names(component: Any) -> list[str]:
    return [
        f"{c.__module__}.{c.__qualname__}" for c in getattr(component, "__mro__", ())
    ]


def _classes(settings: BaseSettings, name: str) -> list[Any]:
    """The classes of a component setting in the order they run (None: broken)."""
    classes: list[Any] = []
    for path in build_component_list(settings.getwithbase(name)):
        try:
            classes.append(load_object(path))
        except (ImportError, NameError, ValueError, AttributeError):
            classes.append(None)  # someone else's broken entry: Scrapy reports it
    return classes


class Setup:
    """The scrapy_soup components one crawler's settings enable, and in what order."""

    def __init__(self, settings: BaseSettings) -> None:
        self.downloader_middleware = any(
            _DOWNLOADER_MW in _names(c)
            for c in _classes(settings, "DOWNLOADER_MIDDLEWARES")
        )
        self.spider_middleware = any(
            _SPIDER_MW in _names(c) for c in _classes(settings, "SPIDER_MIDDLEWARES")
        )
        #: ITEM_PIPELINES in order
        self.pipelines = _classes(settings, "ITEM_PIPELINES")
        #: the stage of each pipeline (None: not one of ours)
        self.stages: list[str | None] = [
            next((_STAGE_OF[n] for n in _names(c) if n in _STAGE_OF), None)
            for c in self.pipelines
        ]
        #: pipeline class -> its place (`place_of`), asked for every item
        self._places: dict[type, tuple[bool, bool]] = {}
        #: a scrapy_soup pipeline is listed at all, even disabled with None
        self.pipeline_listed = any(
            str(
                key if isinstance(key, str) else getattr(key, "__module__", "")
            ).startswith("scrapy_soup")
            for key in settings.getwithbase("ITEM_PIPELINES")
        )

    _BY_CRAWLER: weakref.WeakKeyDictionary[Crawler, Setup] = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, crawler: Crawler) -> Setup:
        """The setup of ``crawler``, resolved on the first call."""
        setup = cls._BY_CRAWLER.get(crawler)
        if setup is None:
            setup = cls._BY_CRAWLER[crawler] = cls(crawler.settings)
        return setup

    @property
    def has_pipelines(self) -> bool:
        """Whether a scrapy_soup pipeline runs."""
        return any(self.stages)

    def has_stage(self, stage: str) -> bool:
        return stage in self.stages

    def place_of(self, cls: type) -> tuple[bool, bool]:
        """Whether pipeline ``cls`` is the last scrapy_soup pipeline, and whether
        the very next pipeline is one (then a value's tree is handed over)."""
        place = self._places.get(cls)
        if place is None:
            mine = [i for i, c in enumerate(self.pipelines) if c is cls]
            if not mine:  # built by hand, not through ITEM_PIPELINES
                place = (True, False)
            else:
                later = self.stages[mine[-1] + 1 :]
                place = (not any(later), bool(later) and later[0] is not None)
            self._places[cls] = place
        return place

    def early_stages(self) -> list[str]:
        """The stages the spider middleware runs on a Tag's copy, in order.

        A Tag in an item is copied by the spider middleware; serializing the
        copy only for the pipelines to parse it again is the costliest step
        of an item. When nothing but scrapy_soup pipelines (and media
        pipelines, which never read HTML fields) run before the last of ours,
        and ours are exactly our classes, the middleware runs their stages
        on the copy and serializes once. Otherwise: empty.
        """
        soup = [i for i, s in enumerate(self.stages) if s is not None]
        if not soup:
            return []
        for i, c in enumerate(self.pipelines[: soup[-1]]):
            if self.stages[i] is None and _MEDIA not in _names(c):
                return []
        for i in soup:
            if _names(self.pipelines[i])[0] not in _STAGE_OF:
                return []  # a subclass may change what the stage does
        return [s for s in self.stages if s is not None]
