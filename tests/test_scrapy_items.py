"""Items are plain data from the callback on, clean before the user's pipelines.

Real crawls with the add-on and its defaults: the spider
(``items_spiders.SoupItemsSpider``) yields items of every kind holding every
kind of soup object; a user pipeline at 300 (``PlainCheckPipeline``, the
order of Scrapy's project template and of scrapy-redis's ``RedisPipeline``)
reports what it sees. Expected values come from bs4 (the same page parsed
with its lxml builder) and from the pure ``absolutize_links``/``clean``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from items_spiders import ARTICLE_PAGE, BYTES_HTML, HOSTILE, HTML_FIELDS, TAG_FAIL
from scrapy_helpers import (
    ADDON_SETTINGS,
    PNG_BYTES,
    CrawlResult,
    Page,
    PageServer,
    run_crawl,
)

SPIDER = "items_spiders:SoupItemsSpider"
CHECK = "items_spiders.PlainCheckPipeline"
KINDS = ["dict", "scrapy", "dataclass", "attrs", "pydantic"]
PATHS = ["/shop/a/item.html", "/shop/b/item.html", "/shop/c/item.html"]


@pytest.fixture(scope="module")
def server() -> Iterator[PageServer]:
    pages = {path: Page(ARTICLE_PAGE.encode()) for path in PATHS}
    # What the first page links to, for the follow() test.
    for path in ("/shop/a/two.html", "/shop/books/one.html"):
        pages[path] = Page(b"<html><body><p>linked</p></body></html>")
    pages["/shop/a/img/cover.png"] = Page(PNG_BYTES, content_type="image/png")
    with PageServer(pages) as srv:
        yield srv


def _settings(tmp_path: Path, kind: str, **extra: Any) -> dict[str, Any]:
    settings: dict[str, Any] = {
        **ADDON_SETTINGS,
        "ITEM_PIPELINES": {CHECK: 300},
        "CHECK_REPORT": str(tmp_path / "check.jsonl"),
        **extra,
    }
    if kind == "dict":
        # A dict declares no fields: the setting names its HTML fields.
        settings["SOUP_HTML_FIELDS"] = HTML_FIELDS
    return settings


def _report(tmp_path: Path) -> list[dict[str, Any]]:
    text = (tmp_path / "check.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def expected_html(html: str, base_url: str) -> str:
    from scrapy_soup.markup.clean import clean
    from scrapy_soup.markup.links import absolutize_links

    return clean(absolutize_links(html, base_url))


def bs4_values() -> dict[str, Any]:
    """What bs4 says each soup object of the page is, as plain data."""
    from bs4 import BeautifulSoup
    from items_spiders import soup_values

    values = soup_values(BeautifulSoup(ARTICLE_PAGE, "lxml"), "")
    return {
        "tag": str(values["tag"]),
        "p": str(values["nested"]["inner"]["p"]),
        "a": str(values["nested"]["list"][0]),
        "img": str(values["tags_tuple"][0]),
        "attrs": dict(values["attrs"]),
        "classes": list(values["classes"]),
        "string": str(values["string"]),
        "results": [str(a) for a in values["results"]],
        "pre": str(values["pre"]),
        # A string in an HTML field is text: written as bs4 writes text.
        "text_html": values["text_html"].output_ready(),
        "comment_text": str(values["comment_html"]),
    }


def check_item(fields: dict[str, Any], url: str) -> None:
    """Every value of one exported item, against bs4 and the pure functions."""
    from bs4 import BeautifulSoup

    bs4 = bs4_values()
    assert fields["url"] == url
    assert fields["tag"] == expected_html(bs4["tag"], url)
    assert fields["nested"] == {
        "inner": {"p": expected_html(bs4["p"], url), "n": 1},
        "list": [expected_html(bs4["a"], url)],
    }
    assert fields["tags_list"] == [expected_html(bs4["a"], url), "plain <b>text</b>", 2]
    assert fields["tags_tuple"] == [expected_html(bs4["img"], url), None]
    assert fields["attrs"] == bs4["attrs"]
    assert fields["classes"] == bs4["classes"]
    assert fields["string"] == bs4["string"]
    assert fields["results"] == [expected_html(a, url) for a in bs4["results"]]
    assert fields["pre"] == expected_html(bs4["pre"], url)
    assert fields["count"] == 3
    assert fields["hostile"] == expected_html(HOSTILE, url)
    assert fields["body_bytes"] == expected_html(BYTES_HTML.decode("cp1252"), url)
    assert "Caf\u00e9" in fields["body_bytes"]
    # Text stays text: escaped as bs4 writes it, read back as the same text.
    assert fields["text_html"] == bs4["text_html"]
    assert "<img" not in fields["text_html"]
    comment = BeautifulSoup(fields["comment_html"], "html.parser")
    assert comment.get_text() == bs4["comment_text"]
    assert comment.find() is None


def _crawl(server: PageServer, tmp_path: Path, kind: str, **extra: Any) -> CrawlResult:
    return run_crawl(
        tmp_path,
        SPIDER,
        _settings(tmp_path, kind, **extra),
        urls=" ".join(server.url(p) for p in PATHS),
        item_kind=kind,
    )


def test_items_are_plain_and_clean_at_300_and_in_every_feed(
    server: PageServer, tmp_path: Path
) -> None:
    feeds = {
        "jsonlines": tmp_path / "items.jl",
        "csv": tmp_path / "items.csv",
        "xml": tmp_path / "items.xml",
    }
    result = _crawl(
        server,
        tmp_path,
        "scrapy",
        FEEDS={str(p): {"format": f, "encoding": "utf-8"} for f, p in feeds.items()},
    )
    # At 300, the user's pipeline saw plain, JSON-encodable, clean data.
    seen = _report(tmp_path)
    assert len(seen) == len(PATHS)
    for entry in seen:
        assert entry["problems"] == []
        assert entry["json_ok"]
        assert len(entry["unsafe"]) == 5
        assert all(problems == [] for problems in entry["unsafe"].values())
    urls = sorted(entry["fields"]["url"] for entry in seen)
    assert urls == sorted(server.url(p) for p in PATHS)
    for entry in seen:
        check_item(entry["fields"], entry["fields"]["url"])
    # Every feed holds every item; the count Scrapy gives agrees.
    count = result.stats["item_scraped_count"]
    assert count == len(PATHS)
    lines = feeds["jsonlines"].read_text(encoding="utf-8").splitlines()
    jl = [json.loads(line) for line in lines]
    assert len(jl) == count
    for item in jl:
        check_item(item, item["url"])
    with feeds["csv"].open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == count
    assert {row["url"] for row in rows} == set(urls)
    assert len(ElementTree.parse(feeds["xml"]).getroot().findall("item")) == count
    # No ERROR record (run_crawl checks the stats; the log says it too).
    assert "ERROR" not in result.log
    assert "soup/fields_failed" not in result.stats
    assert result.origins_left == 0


@pytest.mark.parametrize("kind", KINDS)
def test_each_item_type(server: PageServer, tmp_path: Path, kind: str) -> None:
    result = _crawl(server, tmp_path, kind)
    seen = _report(tmp_path)
    assert len(seen) == len(PATHS)
    for entry in seen:
        assert entry["problems"] == [], entry["type"]
        assert entry["json_ok"]
        check_item(entry["fields"], entry["fields"]["url"])
    assert {entry["type"] for entry in seen} == {
        {"dict": "dict", "scrapy": "ScrapyItem"}.get(kind, f"{kind.title()}Item")
    }
    assert len(result.items) == len(PATHS)
    for item in result.items:
        check_item(item, item["url"])


def test_a_failure_is_exported_escaped_logged_once_and_counted(
    server: PageServer, tmp_path: Path
) -> None:
    result = run_crawl(
        tmp_path,
        "items_spiders:FailingCleanSpider",
        _settings(tmp_path, "dict"),
        urls=" ".join(server.url(p) for p in PATHS),
    )
    from bs4 import BeautifulSoup

    assert len(result.items) == len(PATHS)
    for item in result.items:
        # Cleaning failed: the field is its text, escaped (bs4 reads it back).
        assert "<" not in item["hostile"]
        text = BeautifulSoup(item["hostile"], "html.parser").get_text()
        assert text == HOSTILE + "<b>FAIL</b>"
        # The same for a Tag, which the spider middleware processes: str(tag)
        # as bs4 writes it, escaped.
        tag_text = BeautifulSoup(item["tag_fail"], "html.parser").get_text()
        assert "<" not in item["tag_fail"]
        assert tag_text == str(BeautifulSoup(TAG_FAIL, "html.parser").p)
        # The other fields were cleaned as usual.
        assert item["tag"] == expected_html(bs4_values()["tag"], item["url"])
    assert result.stats["soup/fields_failed"] == 2 * len(PATHS)
    warnings = [
        line
        for line in result.log.splitlines()
        if "could not process field hostile" in line
    ]
    assert len(warnings) == len(PATHS)
    assert sum("WARNING" in line for line in warnings) == 1
    assert "could not process field tag_fail" in result.log
    assert "exported instead: its text, escaped" in result.log


def test_drop_failed_items(server: PageServer, tmp_path: Path) -> None:
    result = run_crawl(
        tmp_path,
        "items_spiders:FailingCleanSpider",
        _settings(tmp_path, "dict", SOUP_DROP_FAILED_ITEMS=True),
        urls=" ".join(server.url(p) for p in PATHS),
    )
    assert result.items == []
    assert result.stats["item_dropped_count"] == len(PATHS)
    # The Tag failed in the spider middleware: the first pipeline drops the
    # item before it meets the other field.
    assert result.stats["soup/fields_failed"] == len(PATHS)
    assert "the item is dropped (SOUP_DROP_FAILED_ITEMS)" in result.log
    assert result.origins_left == 0


def test_follow_tags_on_another_plugins_text_response(
    server: PageServer, tmp_path: Path
) -> None:
    from urllib.parse import urljoin

    from bs4 import BeautifulSoup

    start = server.url(PATHS[0])
    result = run_crawl(
        tmp_path,
        "items_spiders:FollowTagsSpider",
        {
            **ADDON_SETTINGS,
            "DOWNLOADER_MIDDLEWARES": {"items_spiders.PluginResponseMiddleware": 50},
        },
        urls=start,
    )
    page = BeautifulSoup(ARTICLE_PAGE, "lxml")
    expected = {urljoin(start, str(a["href"])) for a in page.select("a")}
    expected |= {urljoin(start, str(img["src"])) for img in page.select("img")}
    visited = {item["url"] for item in result.items}
    assert visited == {start} | expected
    # The middleware left the other plugin's class alone (the image is not
    # HTML: Scrapy's own Response).
    types = {item["url"]: item["type"] for item in result.items}
    assert types.pop(urljoin(start, "img/cover.png")) == "Response"
    # The other plugin's class, with a soup: its soup subclass.
    assert set(types.values()) == {"SoupPluginTextResponse"}
    assert all(item["plugin"] for item in result.items if item["type"] != "Response")


def test_a_value_that_cannot_be_converted_becomes_none(
    server: PageServer, tmp_path: Path
) -> None:
    result = run_crawl(
        tmp_path,
        "items_spiders:BadTagSpider",
        ADDON_SETTINGS,
        urls=" ".join(server.url(p) for p in PATHS),
    )
    # Every item reached the feed, the failed values replaced by None.
    assert len(result.items) == len(PATHS)
    for item in result.items:
        assert item["tags"][1] is None
        assert item["nested"] == {"x": None}
        assert item["tags"][0] == expected_html(bs4_values()["a"], item["url"])
    assert result.stats["soup/fields_failed"] == 2 * len(PATHS)
    warnings = [
        line
        for line in result.log.splitlines()
        if "WARNING" in line and "could not process field" in line
    ]
    # Once per field, with the value's path and what was exported instead.
    assert len(warnings) == 2
    assert "field tags[1] (RuntimeError: injected conversion failure)" in warnings[0]
    assert "field nested.x" in warnings[1]
    assert all("exported instead: None" in line for line in warnings)
