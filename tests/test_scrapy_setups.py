"""Every setup the docs allow keeps every item, as plain, well-formed data.

Real crawls of corpus pages with ``seams_spiders.SoupObjectsSpider``, whose
dict items hold a Tag, ``tag.attrs`` and a hostile HTML string, exported to
JSON Lines, CSV and XML at once: each feed holds every item Scrapy counted.
A setup that cannot keep its promise says so once at start.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from conftest import corpus_pages
from scrapy_helpers import ADDON_SETTINGS, MANUAL_SETTINGS, Page, PageServer, run_crawl

SPIDER = "seams_spiders:SoupObjectsSpider"
DOWNLOADER = {"DOWNLOADER_MIDDLEWARES": MANUAL_SETTINGS["DOWNLOADER_MIDDLEWARES"]}
SPIDER_MW = {"SPIDER_MIDDLEWARES": MANUAL_SETTINGS["SPIDER_MIDDLEWARES"]}
PIPELINES = {"ITEM_PIPELINES": MANUAL_SETTINGS["ITEM_PIPELINES"]}

SETUPS: dict[str, dict[str, Any]] = {
    "addon": ADDON_SETTINGS,
    "middlewares, no pipelines": {**DOWNLOADER, **SPIDER_MW},
    "pipelines, no spider middleware": {**DOWNLOADER, **PIPELINES},
}

#: What the downloader middleware alone says at start.
ALONE_ERROR = (
    "SoupDownloaderMiddleware is enabled without SoupSpiderMiddleware or the "
    "scrapy_soup pipelines"
)
#: What each setup says at start: the promise it cannot keep, what to add.
START_WARNINGS = {
    "addon": None,
    "middlewares, no pipelines": None,
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


def _feeds(tmp_path: Path) -> dict[str, Path]:
    """One feed of each format the setups are checked in, by format."""
    return {
        "jsonlines": tmp_path / "items.jl",
        "csv": tmp_path / "items.csv",
        "xml": tmp_path / "items.xml",
    }


def _feed_settings(feeds: dict[str, Path]) -> dict[str, dict[str, str]]:
    return {str(p): {"format": f, "encoding": "utf-8"} for f, p in feeds.items()}


def _crawl(tmp_path: Path, urls: list[str], settings: dict[str, Any], **kw: Any) -> Any:
    feeds = _feeds(tmp_path)
    settings = {
        **settings,
        "SOUP_HTML_FIELDS": ["hostile"],
        "FEEDS": _feed_settings(feeds),
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
    assert ALONE_ERROR not in result.log
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
        # The spider middleware cleans it when no pipeline of ours does; with
        # no page URL known, its relative link makes it fail closed (escaped).
        assert not _unsafe(item["hostile"])
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
    # At start, and again on the first item holding a soup object: ERRORs.
    result, _ = _crawl(tmp_path, urls[:2], DOWNLOADER, allow_errors=True)
    errors = [line for line in result.log.splitlines() if ALONE_ERROR in line]
    assert len(errors) == 2
    assert all(" ERROR: " in line for line in errors)
    assert "An item holds a soup object" in errors[1]
    assert 'ADDONS = {"scrapy_soup.Addon": 0}' in errors[0]
    assert '{"scrapy_soup.SoupSpiderMiddleware": 30}' in errors[0]


# -- the acceptance crawl: hostile fields in every documented setup -------------
#: Every setup the docs list, and what it must say at start (an ERROR or WARNING
#: naming what to add) when it cannot make every field safe by itself.
ALL_SETUPS: dict[str, dict[str, Any]] = {
    "addon": ADDON_SETTINGS,
    "both middlewares, no pipelines": {**DOWNLOADER, **SPIDER_MW},
    "downloader middleware alone": DOWNLOADER,
    "spider middleware alone": SPIDER_MW,
    "pipelines alone": PIPELINES,
    "no spider middleware": {**DOWNLOADER, **PIPELINES},
}

ARTICLE = (
    '<article><p onclick="x()">hi <a href="rel/page">rel</a>'
    "<script>alert(1)</script></p>"
    '<img src="img.png" onerror="y()"><a href="/abs">abs</a></article>'
)
HOSTILE_PAGE = (
    f"<html><head><title>t</title></head><body>{ARTICLE}</body></html>"
).encode()


def _is_absolute(url: str) -> bool:
    from urllib.parse import urlsplit

    return bool(urlsplit(url.strip()).scheme)


def _relative(url: str) -> bool:
    """A link that needs the page to be read (a same-page ``#fragment`` is
    left as it is, docs/security.md, and read as well anywhere)."""
    return not url.strip().startswith("#") and not _is_absolute(url)


def _unsafe(value: str) -> list[str]:
    """What in one exported value breaks the promise (empty: nothing)."""
    from bs4 import BeautifulSoup

    found = []
    if "<script" in value.lower():
        found.append("<script>")
    for tag in BeautifulSoup(value, "html.parser").find_all(True):
        found.extend(f"{a} attribute" for a in tag.attrs if a.lower().startswith("on"))
        found.extend(
            f"relative {a}={tag[a]!r}"
            for a in ("href", "src")
            if a in tag.attrs and _relative(tag[a])
        )
    # Markdown links and images: ](url)
    found.extend(
        f"relative Markdown link {url!r}"
        for url in re.findall(r"\]\(<?([^)\s>]+)", value)
        if _relative(url)
    )
    return found


@pytest.fixture(scope="module")
def hostile_urls() -> Iterator[list[str]]:
    pages = {f"/dir/p{i}.html": Page(HOSTILE_PAGE) for i in range(2)}
    with PageServer(pages) as srv:
        yield [srv.url(path) for path in pages]


@pytest.mark.parametrize("setup", list(ALL_SETUPS))
def test_no_setup_exports_markup_as_it_was_on_the_page(
    tmp_path: Path, hostile_urls: list[str], setup: str
) -> None:
    feeds = _feeds(tmp_path)
    settings = {
        **ALL_SETUPS[setup],
        "SOUP_HTML_FIELDS": ["html"],
        "SOUP_MARKDOWN_FIELDS": ["md"],
        "SOUP_TEXT_FIELDS": ["text"],
        "FEEDS": _feed_settings(feeds),
    }
    result = run_crawl(
        tmp_path,
        "seams_spiders:HostileFieldsSpider",
        settings,
        allow_errors=True,
        urls=" ".join(hostile_urls),
    )
    errors = [line for line in result.log.splitlines() if " ERROR: " in line]
    exported: dict[str, list[dict[str, str]]] = {
        "jsonlines": [
            {k: v for k, v in json.loads(line).items() if isinstance(v, str)}
            for line in feeds["jsonlines"].read_text("utf-8").splitlines()
        ]
        if feeds["jsonlines"].exists()
        else [],
    }
    if feeds["csv"].exists():
        with feeds["csv"].open(encoding="utf-8", newline="") as f:
            exported["csv"] = list(csv.DictReader(f))
    else:
        exported["csv"] = []
    exported["xml"] = []
    if feeds["xml"].exists() and feeds["xml"].stat().st_size:
        root = ElementTree.parse(feeds["xml"]).getroot()
        exported["xml"] = [
            {child.tag: "".join(child.itertext()) for child in item}
            for item in root.findall("item")
        ]
    for fmt, items in exported.items():
        for item in items:
            for name, value in item.items():
                if name != "url":
                    assert not _unsafe(value), (setup, fmt, name, value)
        if len(items) < len(hostile_urls):
            # An item is absent: an ERROR line says why, naming what to add.
            assert any("scrapy_soup" in line for line in errors), (setup, fmt)
    if setup in ("addon", "both middlewares, no pipelines", "spider middleware alone"):
        # Nothing is lost where a component of ours sees every item.
        for items in exported.values():
            assert len(items) == len(hostile_urls)
            for item in items:
                assert item["md"].startswith("hi [rel](http")
                assert "alert" not in item["text"]


def test_one_instance_of_each_component_per_crawler(
    tmp_path: Path, hostile_urls: list[str]
) -> None:
    # The spider middleware runs the pipelines' stages itself (the add-on's
    # chain): it builds no pipeline of its own, and ITEM_PIPELINES is
    # resolved once (one Setup).
    result = run_crawl(
        tmp_path,
        "seams_spiders:CountingSpider",
        {**ADDON_SETTINGS, "SOUP_HTML_FIELDS": ["html"]},
        urls=" ".join(hostile_urls),
    )
    counts = {
        key.removeprefix("test/instances/"): value
        for key, value in result.stats.items()
        if key.startswith("test/instances/")
    }
    assert counts == {
        "SoupDownloaderMiddleware": 1,
        "SoupSpiderMiddleware": 1,
        "AbsoluteLinksPipeline": 1,
        "CleanHtmlPipeline": 1,
        "ItemPath": 1,
        "Setup": 1,
    }


def test_reading_soup_without_the_downloader_middleware_names_it_once(
    tmp_path: Path, urls: list[str]
) -> None:
    result, _ = _crawl(tmp_path, urls[:3], SPIDER_MW, allow_errors=True)
    told = [
        line
        for line in result.log.splitlines()
        if "SoupDownloaderMiddleware is not enabled" in line
    ]
    assert len(told) == 1 and " ERROR: " in told[0]
    assert '{"scrapy_soup.SoupDownloaderMiddleware": 45}' in told[0]
    # Each page's callback still failed (Scrapy's own error for each).
    assert result.stats["spider_exceptions/AttributeError"] == 3
