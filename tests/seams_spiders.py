"""Spiders and a crawl runner for the per-spider switch (``SOUP_ENABLED``).

Run as a script, in a fresh process: ``seams_spiders.py MODE OUT_DIR URL...``.

- ``both``: one ``CrawlerProcess``, the add-on enabled for the project, two
  spiders on the same pages: ``PlainPagesSpider`` with ``SOUP_ENABLED =
  False`` in its ``custom_settings`` and ``CleanPagesSpider`` with its HTML
  field named;
- ``plain``: ``PlainPagesSpider`` alone, with no scrapy_soup setting at all
  (scrapy_soup is never imported: as if it were not installed).

Each spider's feed is ``OUT_DIR/<name>.jsonl``; its stats
``OUT_DIR/<name>.stats.json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import scrapy

#: Appended to every item's HTML field: what cleaning must remove.
HOSTILE = '<p onclick="x()">hi <a href="rel/page">rel</a><script>alert(1)</script></p>'

BASE = {
    "LOG_LEVEL": "DEBUG",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "COOKIES_ENABLED": False,
    "RETRY_ENABLED": False,
    # One request at a time: the feed's order is the start URLs' order.
    "CONCURRENT_REQUESTS": 1,
}


class PlainPagesSpider(scrapy.Spider):
    """What a callback sees of each page, as plain data (no scrapy_soup API)."""

    name = "plain_pages"
    custom_settings = {"SOUP_ENABLED": False}

    def __init__(self, urls: str = "", out: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls.split()
        self.out = out

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        # Beside the feed: whether the response has the plugin's API.
        with Path(self.out, f"{self.name}.api.jsonl").open("a") as f:
            api = {"soup": hasattr(response, "soup")}
            f.write(json.dumps(api) + "\n")
        first_link = response.xpath("(//a[@href])[1]/..").get() or ""
        yield {
            "url": response.url,
            "class": type(response).__name__,
            "title": response.css("title::text").get(),
            "links": response.css("a::attr(href)").getall()[:10],
            "content": first_link + HOSTILE,
        }


class CleanPagesSpider(PlainPagesSpider):
    """The same callback, with the plugin on and ``content`` an HTML field."""

    name = "clean_pages"
    custom_settings = {"SOUP_HTML_FIELDS": ["content"]}


class SoupObjectsSpider(scrapy.Spider):
    """Items holding a Tag, its ``attrs`` and a hostile HTML string (dicts)."""

    name = "soup_objects"

    def __init__(self, urls: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls.split()

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        soup = response.soup
        tag = soup.find("a", href=True) or soup.find(True)
        yield {"url": response.url, "tag": tag, "attrs": tag.attrs, "hostile": HOSTILE}


class HostileFieldsSpider(scrapy.Spider):
    """Each page's ``<article>`` as a Tag field and a Markdown field, and
    ``HOSTILE`` as an HTML string field and a text field (dict items).

    The soup comes from ``soup_of(response)``, which needs no component: the
    same items reach every setup.
    """

    name = "hostile_fields"

    def __init__(self, urls: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls.split()

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        from scrapy_soup import soup_of

        article = soup_of(response).find("article")
        yield {
            "url": response.url,
            "tag": article,
            "html": HOSTILE,
            "md": article,
            "text": HOSTILE,
        }


class CountingSpider(HostileFieldsSpider):
    """At close, counts the live scrapy_soup components into the stats."""

    name = "counting"

    def closed(self, reason: str) -> None:
        import gc

        from scrapy_soup._scrapy._item_path import ItemPath
        from scrapy_soup._scrapy._setup import Setup
        from scrapy_soup._scrapy.middlewares import (
            SoupDownloaderMiddleware,
            SoupSpiderMiddleware,
        )
        from scrapy_soup._scrapy.pipelines import (
            AbsoluteLinksPipeline,
            CleanHtmlPipeline,
        )

        classes = (
            SoupDownloaderMiddleware,
            SoupSpiderMiddleware,
            AbsoluteLinksPipeline,
            CleanHtmlPipeline,
            ItemPath,
            Setup,
        )
        gc.collect()
        stats = self.crawler.stats
        assert stats is not None
        for obj in gc.get_objects():
            if type(obj) in classes:
                stats.inc_value(f"test/instances/{type(obj).__name__}")


def _main(mode: str, out: str, urls: list[str]) -> None:
    from scrapy.crawler import CrawlerProcess

    out_dir = Path(out)
    settings: dict[str, Any] = {
        **BASE,
        "FEEDS": {
            str(out_dir / "%(name)s.jsonl"): {
                "format": "jsonlines",
                "encoding": "utf-8",
            }
        },
    }
    spiders: list[type[scrapy.Spider]] = [PlainPagesSpider]
    if mode == "both":
        settings["ADDONS"] = {"scrapy_soup.Addon": 0}
        spiders.append(CleanPagesSpider)
    process = CrawlerProcess(settings)
    crawlers = [process.create_crawler(cls) for cls in spiders]
    for crawler in crawlers:
        process.crawl(crawler, urls=" ".join(urls), out=out)
    process.start()
    for crawler in crawlers:
        assert crawler.spidercls.name is not None and crawler.stats is not None
        path = out_dir / f"{crawler.spidercls.name}.stats.json"
        path.write_text(json.dumps(crawler.stats.get_stats(), default=str), "utf-8")


if __name__ == "__main__":
    _main(sys.argv[1], sys.argv[2], sys.argv[3:])
