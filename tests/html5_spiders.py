"""Spiders of the html5 parser tests (`test_html5_scrapy.py`), run in the crawl process.

Each counts the parses its process makes, libxml2's (parsel's
``create_root_node``) and the HTML5 parser's, around what its callback
does, and yields the counts with what the selectors and the soup found.
"""

from __future__ import annotations

from typing import Any

import parsel.selector
import scrapy

from scrapy_soup._tree import _html5

#: Parses made in this process so far, per parser.
PARSES = {"libxml2": 0, "html5": 0}


def _counting(name: str, parse: Any) -> Any:
    def counted(*args: Any, **kwargs: Any) -> Any:
        PARSES[name] += 1
        return parse(*args, **kwargs)

    return counted


parsel.selector.create_root_node = _counting(  # type: ignore[assignment]
    "libxml2", parsel.selector.create_root_node
)
_html5.parse_html5 = _counting("html5", _html5.parse_html5)  # type: ignore[assignment]


class TbodySpider(scrapy.Spider):
    """Ask the selectors and the soup for the rows of each page's table."""

    name = "tbody"
    #: meta["soup_parser"] per start URL (a URL not listed: none set).
    parsers: dict[str, str] = {}

    async def start(self) -> Any:
        for url in self.start_urls:
            meta = {}
            if url in self.parsers:
                meta["soup_parser"] = self.parsers[url]
            yield scrapy.Request(url, dont_filter=True, meta=meta)

    def parse(self, response: Any) -> Any:
        before = dict(PARSES)
        css = response.css("table > tbody > tr")
        xpath = response.xpath("//table/tbody/tr")
        soup = response.soup
        selected = soup.select("table > tbody > tr")
        again = response.css("table > tbody > tr td::text").getall()
        yield {
            "url": response.url,
            "css": [s.root.findtext("td") for s in css],
            "xpath": len(xpath),
            "soup": [t.td.get_text() for t in selected],
            # The soup's tags are the selectors' elements: one tree.
            "same_nodes": [t._el for t in selected] == [s.root for s in css],
            "texts": again,
            "builder": soup.builder.NAME,
            "parses": {k: PARSES[k] - before[k] for k in PARSES},
        }


class Html5SettingsSpider(TbodySpider):
    """The parser chosen in the spider's ``custom_settings``."""

    name = "tbody_html5"
    custom_settings = {"SOUP_PARSER": "html5"}


class BlindSpider(TbodySpider):
    """Never select anything: nothing is parsed."""

    name = "blind"
    custom_settings = {"SOUP_PARSER": "html5"}

    def parse(self, response: Any) -> Any:
        yield {"url": response.url, "total": dict(PARSES)}
