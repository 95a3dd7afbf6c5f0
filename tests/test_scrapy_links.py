"""Links in item fields as the crawler requests them.

The pipelines on a crawler built from the add-on's settings (no crawl: each
item is recorded with the origin the spider middleware would record); the
oracle is what Scrapy requests for the same link (``Request(url,
encoding=...)``, as ``response.follow()`` builds it) and the pure
``clean()``/``absolutize_links()`` for a string.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

import pytest
from bs4 import BeautifulSoup
from scrapy import Request
from scrapy_helpers import ADDON_SETTINGS, make_crawler

from scrapy_soup import absolutize_links, clean
from scrapy_soup._scrapy._origins import ItemOrigins, Origin
from scrapy_soup._scrapy.pipelines import AbsoluteLinksPipeline, CleanHtmlPipeline

PAGE = "http://example.com/dir/page.html"


def _run(item: dict[str, Any], origin: Origin) -> tuple[dict[str, Any], Any]:
    crawler = make_crawler(settings={**ADDON_SETTINGS, "SOUP_HTML_FIELDS": ["html"]})
    links = AbsoluteLinksPipeline.from_crawler(crawler)
    cleaning = CleanHtmlPipeline.from_crawler(crawler)
    ItemOrigins.of(crawler).record(item, origin)
    return cleaning.process_item(links.process_item(item)), crawler


def _href(html: str) -> str:
    a = BeautifulSoup(html, "html.parser").a
    assert a is not None
    value = a["href"]
    assert isinstance(value, str)
    return value


@pytest.mark.parametrize(
    ("encoding", "query"), [("cp1252", "caf\xe9"), ("shift_jis", "\u65e5\u672c")]
)
def test_a_field_link_is_what_follow_requests(encoding: str, query: str) -> None:
    item, _ = _run(
        {"html": f'<a href="/s?q={query}">x</a>'}, Origin(PAGE, PAGE, encoding)
    )
    assert (
        _href(item["html"])
        == Request(urljoin(PAGE, f"/s?q={query}"), encoding=encoding).url
    )


@pytest.mark.parametrize("page", ["data:text/html,<a href=x>x</a>", "about:blank"])
def test_a_page_url_that_cannot_be_a_base_leaves_links_relative(page: str) -> None:
    item, crawler = _run(
        {"html": '<p onclick="x()"><a href="rel/x">x</a></p>'}, Origin(page, page)
    )
    assert item["html"] == '<p><a href="rel/x">x</a></p>'
    assert crawler.stats.get_value("soup/fields_failed") is None


def test_a_whole_document_field_keeps_html_head_and_body() -> None:
    doc = (
        "<html><head><title>T</title></head>"
        '<body><p onclick="x()">hi <a href="a">a</a></p></body></html>'
    )
    item, _ = _run({"html": doc}, Origin(PAGE, PAGE))
    assert item["html"] == clean(absolutize_links(doc, PAGE))
    assert "<html>" in item["html"] and "<body>" in item["html"]
