"""Closing a spider before its first request, the way each Scrapy version allows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import scrapy
from scrapy import signals
from scrapy.exceptions import CloseSpider

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["INVALID_SETTINGS_REASON", "close_at_open"]

#: The finish reason of a spider closed because a SOUP_* value is wrong.
INVALID_SETTINGS_REASON = "soup_invalid_settings"

#: Scrapy >= 2.18 closes a spider that a ``spider_opened`` handler asks to
#: close (CloseSpider) before its start requests run.
_CLOSE_AT_OPEN = scrapy.version_info >= (2, 18)


def close_at_open(crawler: Crawler, reason: str) -> None:
    """Close the spider before its first request, with our finish reason."""

    def close_at_open(spider: Any) -> None:
        raise CloseSpider(reason)

    def close_when_started() -> None:
        # Scrapy < 2.18: the engine can be closed once it runs, on the next
        # turn of the reactor (the start requests are not downloaded yet).
        from scrapy.utils.reactor import CallLaterOnce

        def close() -> None:
            engine: Any = crawler.engine
            if hasattr(engine, "close_spider_async"):  # 2.14 to 2.17
                from scrapy.utils.defer import deferred_from_coro

                deferred_from_coro(engine.close_spider_async(reason=reason))
            else:  # 2.13
                engine.close_spider(crawler.spider, reason)

        CallLaterOnce(close).schedule()

    if _CLOSE_AT_OPEN:
        crawler.signals.connect(close_at_open, signals.spider_opened, weak=False)
    else:
        crawler.signals.connect(close_when_started, signals.engine_started, weak=False)
