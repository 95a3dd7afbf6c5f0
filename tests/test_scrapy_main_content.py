"""Main-content fields: a page in an item, exported as its article.

Real crawls of real corpus pages (a local server on port 0), exported to JSON
Lines, CSV and XML at once, with the page given as the response, as
``response.soup`` and as ``response.text``; field metadata on every item kind
ItemAdapter knows, checked through the add-on's pipelines in this process.
"""

from __future__ import annotations

import csv
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import attrs
import pydantic
import pytest
import scrapy
from conftest import corpus_pages, read_page
from markdown_it import MarkdownIt
from scrapy_helpers import (
    ADDON_SETTINGS,
    MANUAL_SETTINGS,
    PageServer,
    make_crawler,
    run_crawl,
)
from test_markdown import raw_html_tokens
from test_scrapy_setups import _feed_settings, _feeds, _unsafe

from scrapy_soup import AbsoluteLinksPipeline, CleanHtmlPipeline, Soup
from scrapy_soup._scrapy._main_content import METADATA_FIELDS

#: The fields of `PagesSpider`'s items holding the page, by how it is given.
PAGE_FIELDS = {
    "html": "response",
    "html_soup": "response.soup",
    "html_text": "response.text",
    "md": "response.soup",
    "text": "response",
}
MAIN_SETTINGS: dict[str, Any] = {
    "SOUP_MAIN_CONTENT_FIELDS": list(PAGE_FIELDS),
    "SOUP_MARKDOWN_FIELDS": ["md"],
    "SOUP_TEXT_FIELDS": ["text"],
    "SOUP_MAIN_CONTENT_METADATA": True,
}


class PagesSpider(scrapy.Spider):
    """One dict item per page, the page in every main-content field."""

    name = "main_content_pages"

    def __init__(self, urls: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls.split()

    def parse(self, response: Any) -> Iterator[dict[str, Any]]:
        given = {
            "response": response,
            "response.soup": response.soup,
            "response.text": response.text,
        }
        yield {
            "url": response.url,
            **{name: given[how] for name, how in PAGE_FIELDS.items()},
        }


@pytest.fixture(scope="module")
def page_urls() -> Iterator[list[str]]:
    pages = corpus_pages("real")[:6]
    with PageServer({}) as srv:
        yield [srv.url(f"/corpus/{p.name}") for p in pages]


def _crawl(tmp_path: Path, urls: list[str], settings: dict[str, Any]) -> Any:
    feeds = _feeds(tmp_path)
    result = run_crawl(
        tmp_path,
        "test_scrapy_main_content:PagesSpider",
        {
            **settings,
            **MAIN_SETTINGS,
            "FEEDS": _feed_settings(feeds),
        },
        urls=" ".join(urls),
    )
    return result, feeds


def _squeezed(text: str) -> str:
    return "".join(text.split())


SETUPS = {
    "addon": ADDON_SETTINGS,
    "middlewares, no pipelines": {
        "DOWNLOADER_MIDDLEWARES": MANUAL_SETTINGS["DOWNLOADER_MIDDLEWARES"],
        "SPIDER_MIDDLEWARES": MANUAL_SETTINGS["SPIDER_MIDDLEWARES"],
    },
    # The spider middleware hands the content's tree to the pipelines.
    "a pipeline of the user's first": {
        **MANUAL_SETTINGS,
        "ITEM_PIPELINES": {
            **MANUAL_SETTINGS["ITEM_PIPELINES"],
            "test_scrapy_main_content.UserPipeline": 50,
        },
    },
}


class UserPipeline:
    """A user's pipeline before ours: it must see plain ``str`` fields."""

    def process_item(self, item: Any, spider: Any = None) -> Any:
        for name in PAGE_FIELDS:
            assert type(item[name]) is str, (name, type(item[name]))
        return item


@pytest.mark.parametrize("setup", list(SETUPS))
def test_a_crawl_exports_main_content_fields_in_every_feed(
    tmp_path: Path, page_urls: list[str], setup: str
) -> None:
    from bs4 import BeautifulSoup

    result, feeds = _crawl(tmp_path, page_urls, SETUPS[setup])
    count = result.stats["item_scraped_count"]
    assert count == len(page_urls)
    assert not result.stats.get("soup/fields_failed")
    items = [
        json.loads(line) for line in feeds["jsonlines"].read_text("utf-8").splitlines()
    ]
    assert len(items) == count
    for item in items:
        for name in PAGE_FIELDS:
            value = item[name]
            assert isinstance(value, str), (name, value)
            # HTML as it is, Markdown as a renderer makes it HTML (a code
            # block showing "<script>" is text); text is text.
            if name.startswith("html"):
                assert not _unsafe(value), (item["url"], name, _unsafe(value))
        rendered = MarkdownIt("commonmark").render(item["md"])
        assert not _unsafe(rendered), (item["url"], _unsafe(rendered))
        html = item["html"]
        # The article, not the page: less text than the page's body.
        page = BeautifulSoup(read_page(_path_of(item["url"])), "lxml")
        assert page.body is not None
        assert (
            0
            < len(_squeezed(BeautifulSoup(html, "lxml").get_text()))
            < len(_squeezed(page.body.get_text()))
        ), item["url"]
        # One page, one content, however the page was given.
        assert item["html_soup"] == html and item["html_text"] == html
        # Text and Markdown of the same content: its words, no raw HTML.
        assert _squeezed(item["text"]) == _squeezed(
            BeautifulSoup(html, "html.parser").get_text()
        )
        assert item["md"].strip() and not raw_html_tokens(item["md"])
        # The page's metadata, as plain data, where the page states it.
        title = page.find("meta", property="og:title") or page.title
        if title is not None:
            assert isinstance(item["title"], str) and item["title"]
        for key in METADATA_FIELDS:
            value = item[key]
            assert value is None or isinstance(value, (str, list)), (key, value)
    with feeds["csv"].open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [row["md"] for row in rows] == [item["md"] for item in items]
    assert [row["title"] for row in rows] == [item["title"] for item in items]
    root = ElementTree.parse(feeds["xml"]).getroot()
    xml_items = root.findall("item")
    assert len(xml_items) == count
    assert [i.findtext("html") for i in xml_items] == [i["html"] for i in items]
    assert [i.findtext("text") for i in xml_items] == [i["text"] for i in items]
    assert result.origins_left == 0


def _path_of(url: str) -> Path:
    name = url.rsplit("/", 1)[1]
    return next(p for p in corpus_pages("real") if p.name == name)


# -- field metadata, in this process ------------------------------------------
PAGE = b"""<!DOCTYPE html><html lang="en"><head><title>Tea | Site</title>
<meta property="og:title" content="On tea">
<meta name="author" content="Ada Lovelace">
<meta property="article:published_time" content="2021-03-04T10:00:00+01:00">
<link rel="canonical" href="/tea"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>
<article><h1>On tea</h1>
<p onclick="track()">Green tea is picked, steamed and dried, and it keeps its colour;
see <a href="guide.html">the guide</a>, which says much more.</p>
<p>Black tea is left to oxidise before it is dried, which darkens the leaf and
changes its taste.<script>alert(1)</script></p></article>
<footer><a href="/legal">Legal</a></footer></body></html>"""
BASE = "https://example.com/drinks/tea.html"


class ScrapyArticle(scrapy.Item):
    url = scrapy.Field()
    body = scrapy.Field(main_content=True, markdown=True)
    title = scrapy.Field()
    authors = scrapy.Field()


@dataclasses.dataclass
class DataclassArticle:
    url: str = ""
    body: Any = dataclasses.field(
        default=None, metadata={"main_content": True, "markdown": True}
    )
    title: str | None = None
    authors: list[str] | None = None


@attrs.define
class AttrsArticle:
    url: str = ""
    body: Any = attrs.field(
        default=None, metadata={"main_content": True, "markdown": True}
    )
    title: str | None = None
    authors: list[str] | None = None


class PydanticArticle(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
    url: str = ""
    body: Any = pydantic.Field(
        default=None, json_schema_extra={"main_content": True, "markdown": True}
    )
    title: str | None = None
    authors: list[str] | None = None


def _pipelines(**settings: Any) -> list[Any]:
    crawler = make_crawler(
        settings={**ADDON_SETTINGS, "SOUP_URL_FIELD": "url", **settings}
    )
    return [AbsoluteLinksPipeline(crawler), CleanHtmlPipeline(crawler)]


def _through(pipelines: list[Any], item: Any) -> Any:
    for pipeline in pipelines:
        item = pipeline.process_item(item)
    return item


EXPECTED_MD = (
    "# On tea\n\nGreen tea is picked, steamed and dried, and it keeps its colour; "
    "see [the guide](https://example.com/drinks/guide.html), which says much "
    "more.\n\nBlack tea is left to oxidise before it is dried, which darkens the "
    "leaf and changes its taste."
)


@pytest.mark.parametrize(
    "item_class", [ScrapyArticle, DataclassArticle, AttrsArticle, PydanticArticle]
)
@pytest.mark.parametrize(
    "given", ["str", "bytes", "soup", "response", "soup response", "text response"]
)
def test_field_metadata_marks_a_main_content_field(item_class: Any, given: str) -> None:
    from scrapy.http import HtmlResponse, TextResponse

    from scrapy_soup import SoupHtmlResponse

    page: Any = {
        "str": lambda: PAGE.decode(),
        "bytes": lambda: PAGE,
        "soup": lambda: Soup(PAGE, base_url=BASE),
        # Scrapy's parse (response.selector) read, as the soup reads it.
        "response": lambda: HtmlResponse(BASE, body=PAGE),
        "soup response": lambda: SoupHtmlResponse(BASE, body=PAGE),
        "text response": lambda: TextResponse(BASE, body=PAGE, encoding="utf-8"),
    }[given]()
    pipelines = _pipelines(SOUP_MAIN_CONTENT_METADATA=True)
    item = _through(pipelines, item_class(url=BASE, body=page))
    get = item.__getitem__ if isinstance(item, scrapy.Item) else item.__getattribute__
    assert get("body") == EXPECTED_MD
    # The declared metadata fields are filled; the others are not added.
    assert get("title") == "On tea"
    assert get("authors") == ["Ada Lovelace"]


def test_the_markdown_is_that_of_the_main_content_cleaned() -> None:
    # The oracle: the public functions, one after the other.
    from scrapy_soup import main_content, to_markdown

    content = main_content(PAGE, base_url=BASE)
    assert content is not None
    assert to_markdown(content) == EXPECTED_MD


def test_dict_items_get_every_metadata_field_and_keep_their_own() -> None:
    pipelines = _pipelines(
        SOUP_MAIN_CONTENT_FIELDS=["page"], SOUP_MAIN_CONTENT_METADATA=True
    )
    item = _through(pipelines, {"url": BASE, "page": PAGE, "title": "Mine"})
    assert item["title"] == "Mine"
    assert item["authors"] == ["Ada Lovelace"]
    assert item["published"] == "2021-03-04T10:00:00+01:00"
    assert item["language"] == "en"
    assert item["canonical_url"] == "https://example.com/tea"
    # Every key, stated or not: a CSV feed's columns come from the first item.
    assert item["site_name"] is None and item["tags"] == []
    assert set(item) == {"url", "page", *METADATA_FIELDS}
    # Clean HTML, links absolute, boilerplate gone.
    html = item["page"]
    assert "onclick" not in html and "<script" not in html
    assert 'href="https://example.com/drinks/guide.html"' in html
    assert "Legal" not in html and "About" not in html
    assert json.loads(json.dumps(item)) == item


def test_no_metadata_unless_asked() -> None:
    pipelines = _pipelines(SOUP_MAIN_CONTENT_FIELDS=["page"])
    item = _through(pipelines, {"url": BASE, "page": PAGE})
    assert set(item) == {"url", "page"}


def test_a_page_with_no_content_gives_an_empty_field_counted() -> None:
    pipelines = _pipelines(SOUP_MAIN_CONTENT_FIELDS=["page"])
    item = _through(pipelines, {"url": BASE, "page": "<html><body></body></html>"})
    assert item["page"] == ""
    stats = pipelines[0].crawler.stats.get_stats()
    assert stats["soup/main_content_empty"] == 1


def test_a_failing_page_fails_closed(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from scrapy_soup._scrapy import _item_path

    def fail(*args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(_item_path, "extract", fail)
    pipelines = _pipelines(SOUP_MAIN_CONTENT_FIELDS=["page"])
    items = [
        _through(pipelines, {"url": BASE, "page": page})
        for page in (PAGE.decode(), Soup(PAGE, base_url=BASE))
    ]
    for item in items:
        assert "<script" not in item["page"] and "&lt;script&gt;" in item["page"]
    stats = pipelines[0].crawler.stats.get_stats()
    assert stats["soup/fields_failed"] == 2
    warned = [r for r in caplog.records if "could not process field page" in r.message]
    assert len(warned) == 1


def test_dropped_when_failed_items_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    from scrapy.exceptions import DropItem

    from scrapy_soup._scrapy import _item_path

    def fail(*args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(_item_path, "extract", fail)
    pipelines = _pipelines(
        SOUP_MAIN_CONTENT_FIELDS=["page"], SOUP_DROP_FAILED_ITEMS=True
    )
    with pytest.raises(DropItem):
        _through(pipelines, {"url": BASE, "page": Soup(PAGE, base_url=BASE)})


def test_a_field_named_in_two_settings_is_converted_once() -> None:
    # It was processed once per name: its Markdown converted again as HTML.
    pipelines = _pipelines(SOUP_HTML_FIELDS=["x"], SOUP_MARKDOWN_FIELDS=["x"])
    item = _through(pipelines, {"url": BASE, "x": "<h1>T</h1><p><a href='b'>b</a>"})
    assert item["x"] == "# T\n\n[b](https://example.com/drinks/b)"


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("SOUP_MAIN_CONTENT_FIELDS", "page, body", ("page", "body")),
        ("SOUP_MAIN_CONTENT_FIELDS", '["page"]', ("page",)),
        ("SOUP_MAIN_CONTENT_METADATA", "true", True),
        ("SOUP_MAIN_CONTENT_METADATA", "0", False),
    ],
)
def test_the_settings_take_what_scrapy_takes(
    name: str, value: str, expected: object
) -> None:
    from scrapy_soup._scrapy._config import parse_setting

    assert parse_setting(name, value) == expected


@pytest.mark.parametrize(
    ("name", "value"),
    [("SOUP_MAIN_CONTENT_FIELDS", 3), ("SOUP_MAIN_CONTENT_METADATA", "maybe")],
)
def test_a_wrong_value_names_the_setting(name: str, value: object) -> None:
    from scrapy_soup._scrapy._config import SettingsError, parse_setting

    with pytest.raises(SettingsError, match=f"Invalid setting {name}="):
        parse_setting(name, value)
