"""The Scrapy layer: the only part of scrapy_soup that imports Scrapy.

``scrapy_soup`` re-exports these names lazily, so importing the core (the
soup, ``clean``, ``links``) never imports Scrapy.
"""

from __future__ import annotations

from scrapy_soup._scrapy.addon import Addon
from scrapy_soup._scrapy.middlewares import (
    SoupDownloaderMiddleware,
    SoupSpiderMiddleware,
)
from scrapy_soup._scrapy.pipelines import AbsoluteLinksPipeline, CleanHtmlPipeline
from scrapy_soup._scrapy.responses import (
    SoupHtmlResponse,
    SoupResponse,
    SoupXmlResponse,
    soup_of,
    soup_response,
)

__all__ = [
    "AbsoluteLinksPipeline",
    "Addon",
    "CleanHtmlPipeline",
    "SoupDownloaderMiddleware",
    "SoupHtmlResponse",
    "SoupResponse",
    "SoupSpiderMiddleware",
    "SoupXmlResponse",
    "soup_of",
    "soup_response",
]
