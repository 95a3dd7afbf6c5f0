"""Every setup the docs allow keeps every item, as plain, well-formed data.

Real crawls of corpus pages with ``seams_spiders.SoupObjectsSpider``, whose
dict items hold a Tag, ``tag.attrs`` and a hostile HTML string, exported to
JSON Lines, CSV and XML at once: each feed holds every item Scrapy counted.
A setup that cannot keep its promise says so once at start.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from conftest import corpus_pages
from scrapy_helpers import ADDON_SETTINGS, MANUAL_SETTINGS, PageServer, run_crawl

SPIDER = "seams_spiders:SoupObjectsSpider"
DOWNLOADER = {"DOWNLOADER_MIDDLEWARES": MANUAL_SETTINGS["DOWNLOADER_MIDDLEWARES"]}

SETUPS: dict[str, dict[str, Any]] = {
    "addon": ADDON_SETTINGS,
    "middlewares, no pipelines": {
        **DOWNLOADER,
        "SPIDER_MIDDLEWARES": MANUAL_SETTINGS["SPIDER_MIDDLEWARES"],
    },
    "pipelines, no spider middleware": {
        **DOWNLOADER,
        "ITEM_PIPELINES": MANUAL_SETTINGS["ITEM_PIPELINES"],
    },
}

#: What the downloader middleware alone says at start.
ALONE_WARNING = (
    "SoupDownloaderMiddleware is enabled without SoupSpiderMiddleware or the "
    "scrapy_soup pipelines"
)
#: What each setup says at start: the promise it cannot keep, what to add.
START_WARNINGS = {
    "addon": None,
    "middlewares, no pipelines": (
        "SoupSpiderMiddleware is enabled without the scrapy_soup pipelines"
    ),
    "pipelines, no spider middleware": (
        "AbsoluteLinksPipeline is enabled without SoupSpiderMiddleware or "
        "SOUP_URL_FIELD"
    ),
}


@pytest.fixture(scope="module")
def urls() -> Iterator[list[str]]:
    pages = corpus_pages()[:5]
    assert pages, "no corpus pages"
    with PageServer({}) as srv:
        yield [srv.url(f"/corpus/{p.name}") for p in pages]


def _crawl(tmp_path: Path, urls: list[str], settings: dict[str, Any], **kw: Any) -> Any:
    feeds = {
        "jsonlines": tmp_path / "items.jl",
        "csv": tmp_path / "items.csv",
        "xml": tmp_path / "items.xml",
    }
    settings = {
        **settings,
        "SOUP_HTML_FIELDS": ["hostile"],
        "FEEDS": {str(p): {"format": f, "encoding": "utf-8"} for f, p in feeds.items()},
    }
    return run_crawl(tmp_path, SPIDER, settings, urls=" ".join(urls), **kw), feeds


@pytest.mark.parametrize("setup", list(SETUPS))
def test_every_feed_holds_every_item_as_plain_data(
    tmp_path: Path, urls: list[str], setup: str
) -> None:
    from bs4 import BeautifulSoup

    result, feeds = _crawl(tmp_path, urls, SETUPS[setup])
    count = result.stats["item_scraped_count"]
    assert count == len(urls)
    assert ALONE_WARNING not in result.log
    said = [
        line
        for line in result.log.splitlines()
        if any(w and w in line for w in START_WARNINGS.values())
    ]
    expected = START_WARNINGS[setup]
    if expected is None:
        assert said == []
    else:
        assert len(said) == 1 and expected in said[0]
        assert 'ADDONS = {"scrapy_soup.Addon": 0}' in said[0]
    items = [
        json.loads(line) for line in feeds["jsonlines"].read_text("utf-8").splitlines()
    ]
    assert len(items) == count
    for item in items:
        # The Tag's HTML (cleaning may unwrap the tag itself: an <html>).
        assert isinstance(item["tag"], str) and item["tag"].strip()
        assert BeautifulSoup(item["tag"], "html.parser").get_text().strip()
        assert isinstance(item["attrs"], dict)
        assert all(isinstance(k, str) for k in item["attrs"])
        if setup == "middlewares, no pipelines":
            # Nothing cleans it: it goes out as the spider gave it.
            assert "<script>" in item["hostile"]
        else:
            assert "<script" not in item["hostile"]
            assert "onclick" not in item["hostile"]
    with feeds["csv"].open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == count
    assert [row["tag"] for row in rows] == [item["tag"] for item in items]
    root = ElementTree.parse(feeds["xml"]).getroot()
    xml_items = root.findall("item")
    assert len(xml_items) == count
    assert [i.findtext("hostile") for i in xml_items] == [i["hostile"] for i in items]
    assert result.origins_left == 0


def test_the_downloader_middleware_alone_says_what_to_add(
    tmp_path: Path, urls: list[str]
) -> None:
    result, _ = _crawl(tmp_path, urls[:1], DOWNLOADER, allow_errors=True)
    warnings = [line for line in result.log.splitlines() if ALONE_WARNING in line]
    assert len(warnings) == 1
    assert 'ADDONS = {"scrapy_soup.Addon": 0}' in warnings[0]
    assert "SoupSpiderMiddleware" in warnings[0]
