"""``SOUP_PARSER = "html5"`` in real crawls: the response's one tree is the browser's.

Pages without ``<tbody>`` in their source: browsers (and the HTML5 tree)
add it, so ``table > tbody > tr`` finds the rows, through ``response.css()``
and ``response.soup`` alike, from one parse per response (the spiders in
`html5_spiders` count the parses of their crawl process).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from scrapy_helpers import ADDON_SETTINGS, MANUAL_SETTINGS, Page, PageServer, run_crawl

from scrapy_soup._scrapy._config import Config, SettingsError

pytestmark = [
    pytest.mark.html5,
    pytest.mark.skipif(
        sys.version_info < (3, 11), reason="turbohtml needs Python 3.11 or later"
    ),
]

TABLE = (
    b"<!DOCTYPE html><title>rows</title><table><tr><td>one</td></tr>"
    b"<tr><td>two</td></tr></table><p>after"
)


@pytest.fixture
def server() -> Any:
    pages = {"/a": Page(TABLE), "/b": Page(TABLE), "/lxml": Page(TABLE)}
    with PageServer(pages) as srv:
        yield srv


def _by_path(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {"/" + item["url"].split("/", 3)[3]: item for item in items}


@pytest.mark.parametrize("settings", [ADDON_SETTINGS, MANUAL_SETTINGS])
def test_selectors_and_soup_share_the_html5_tree_parsed_once(
    tmp_path: Path, server: Any, settings: dict[str, Any]
) -> None:
    urls = [server.url("/a"), server.url("/b"), server.url("/lxml")]
    result = run_crawl(
        tmp_path,
        "html5_spiders:TbodySpider",
        {**settings, "SOUP_PARSER": "html5"},
        start_urls=urls,
        parsers={server.url("/lxml"): "lxml"},
    )
    items = _by_path(result.items)
    for path in ("/a", "/b"):
        item = items[path]
        assert item["css"] == item["soup"] == ["one", "two"]
        assert item["xpath"] == 2
        assert item["texts"] == ["one", "two"]
        assert item["same_nodes"] is True
        assert item["builder"] == "html5lib"
        assert item["parses"] == {"libxml2": 0, "html5": 1}
    # meta["soup_parser"] = "lxml": libxml2's tree, which has no <tbody>.
    lxml = items["/lxml"]
    assert lxml["css"] == lxml["soup"] == []
    assert lxml["builder"] == "lxml"
    assert lxml["parses"] == {"libxml2": 1, "html5": 0}


def test_per_spider_custom_settings_and_nothing_parsed_unless_asked(
    tmp_path: Path, server: Any
) -> None:
    urls = [server.url("/a"), server.url("/b")]
    result = run_crawl(
        tmp_path / "settings",
        "html5_spiders:Html5SettingsSpider",
        ADDON_SETTINGS,
        start_urls=urls,
    )
    assert [i["css"] for i in result.items] == [["one", "two"]] * 2
    assert all(i["parses"] == {"libxml2": 0, "html5": 1} for i in result.items)
    blind = run_crawl(
        tmp_path / "blind",
        "html5_spiders:BlindSpider",
        ADDON_SETTINGS,
        start_urls=urls,
    )
    assert [i["total"] for i in blind.items] == [{"libxml2": 0, "html5": 0}] * 2


@pytest.mark.parametrize("value", ["html5", "HTML5lib", " lxml ", "libxml2"])
def test_the_setting_takes_the_parser_names(value: str) -> None:
    from scrapy.settings import Settings

    config = Config.from_settings(Settings({"SOUP_PARSER": value}))
    assert config.parser == ("html5" if "5" in value else "lxml")


def test_a_wrong_parser_stops_the_crawl_naming_the_setting() -> None:
    from scrapy.settings import Settings

    with pytest.raises(SettingsError, match="SOUP_PARSER='html6'"):
        Config.from_settings(Settings({"SOUP_PARSER": "html6"}))


def test_a_wrong_meta_parser_fails_that_response_naming_the_value() -> None:
    from scrapy.http import HtmlResponse, XmlResponse

    from scrapy_soup._scrapy._parser import built_html5_selector, choose_parser

    response = HtmlResponse("http://example.com/", body=TABLE)
    with pytest.raises(ValueError, match="'html6' is not a parser"):
        choose_parser(response, {"soup_parser": "html6"}, "lxml")
    # An XML response stays libxml2's, whatever is asked.
    feed = XmlResponse("http://example.com/feed", body=b"<rss/>")
    choose_parser(feed, {"soup_parser": "html5"}, "html5")
    assert built_html5_selector(feed) is None


#: Pages of the corpus with what the modes read differently: whitespace
#: between the body's children, scripts and styles, comments before the
#: doctype (which a crawl lists after it: docs/migrating.md).
_PAGES = ["001.html", "002.html", "aktualne.html"]


@pytest.mark.parametrize("name", _PAGES)
def test_response_soup_reads_as_bs4s_html5lib_soup(name: str) -> None:
    # The tree a crawl's selector shares (built once per response), read
    # by the soup as bs4's html5lib builder reads its own.
    import bs4
    from conftest import corpus_pages, read_page

    from scrapy_soup import SoupHtmlResponse
    from scrapy_soup._scrapy._parser import choose_parser

    [page] = [p for p in corpus_pages() if p.name == name]
    text = read_page(page)
    response = SoupHtmlResponse(
        "http://example.com/", body=text.encode("utf-8"), encoding="utf-8"
    )
    choose_parser(response, {}, "html5")
    assert response.css("html")[0].root is response.soup.html.selector.root
    theirs = bs4.BeautifulSoup(text, "html5lib")
    assert str(response.soup) == str(theirs)
    assert response.soup.get_text() == theirs.get_text()
