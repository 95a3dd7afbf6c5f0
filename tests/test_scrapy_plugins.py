"""``.soup`` wherever ``.css()`` works: other plugins' responses, offline.

The real plugins (scrapy-splash, scrapy-zyte-api, web-poet: the test extra)
run in real crawls whose remote service is a local fake: the local server
answers Splash's ``render.json`` and Zyte API's ``extract`` with a corpus
page, as the services would. The plugin makes its own response class; the
soup middleware hands it on as that class's soup subclass, whose ``.soup``
is the page bs4 reads.
"""

from __future__ import annotations

import base64
import gc
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import scrapy
from conftest import corpus_page
from local_server import LocalServer, Reply
from scrapy_helpers import ADDON_SETTINGS, bs4_queries, run_crawl, soup_queries

# The plugins' own deprecation warnings (warnings are errors in the crawl
# process too), ignored there: this module is imported before the crawler
# builds their components. Each is the plugin's, not scrapy_soup's.
PLUGIN_DEPRECATIONS = [
    # scrapy-splash 0.11 imports a function Scrapy 2.13 deprecates (2.19
    # removed it: there scrapy-splash cannot be imported, and its test skips).
    r"The scrapy\.utils\.url\.canonicalize_url function is deprecated",
    # ... and its spider middleware has only process_start_requests().
    r"(?s).*scrapy_splash\.middleware\.SplashDeduplicateArgsMiddleware",
    # ... and it calls the downloader's _get_slot_key().
    r"Use of this protected method is deprecated\. Consider using its "
    r"corresponding public method get_slot_key\(\)",
    # scrapy-zyte-api releases that install beside the Scrapy floor call it.
    r"The create_instance\(\) function is deprecated",
]
for message in PLUGIN_DEPRECATIONS:
    warnings.filterwarnings("ignore", message=message)

PAGE = corpus_page("wikipedia.html")
PAGE_URL = "https://en.example.org/wiki/Page"


def _page_text() -> str:
    return PAGE.read_bytes().decode("utf-8")


def _api_reply(path: str, body: bytes) -> Reply:
    """Splash's render.json, or Zyte API's extract, for any URL: the page."""
    html = _page_text()
    if path.startswith("/render.json"):
        data: dict[str, Any] = {"url": PAGE_URL, "html": html, "http_status": 200}
    elif path.startswith("/v1/extract"):
        asked = json.loads(body)
        data = {"url": asked["url"], "statusCode": 200}
        if asked.get("browserHtml"):
            data["browserHtml"] = html
        else:
            data["httpResponseBody"] = base64.b64encode(html.encode()).decode()
            data["httpResponseHeaders"] = [
                {"name": "Content-Type", "value": "text/html; charset=utf-8"}
            ]
    else:
        return Reply(b"not found", 404)
    return Reply(
        json.dumps(data).encode(), headers=[("Content-Type", "application/json")]
    )


@pytest.fixture(scope="module")
def api() -> Iterator[LocalServer]:
    with LocalServer(lambda path: Reply(b"", 404), respond_post=_api_reply) as server:
        yield server


class PluginSpider(scrapy.Spider):
    """Ask for the page through a plugin; report what the callback saw."""

    name = "plugin"

    def __init__(self, kind: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind = kind

    async def start(self) -> Any:
        if self.kind == "splash":
            from scrapy_splash import SplashRequest

            yield SplashRequest(PAGE_URL, endpoint="render.json", args={"html": 1})
        else:
            yield scrapy.Request(
                PAGE_URL, meta={"zyte_api_automap": {"browserHtml": True}}
            )

    def parse(self, response: Any) -> Any:
        from scrapy_soup import SoupResponse

        soup = response.soup
        links = soup.find_all("a", href=True)
        yield {
            "classes": [cls.__name__ for cls in type(response).__mro__],
            "is_soup": isinstance(response, SoupResponse),
            "url": response.url,
            "ours": soup_queries(soup),
            "css_title": response.css("title::text").get(),
            "same_tree": soup.find("title")._el is response.css("title")[0].root,
            "followed": [r.url for r in response.follow_all(links)],
            "first": response.follow(links[0]).url,
            "hrefs": [a["href"] for a in links],
        }


def _check(item: dict[str, Any], plugin_class: str) -> None:
    assert item["is_soup"] is True
    assert item["classes"][:3] == [f"Soup{plugin_class}", "SoupResponse", plugin_class]
    assert item["ours"] == bs4_queries(_page_text(), "lxml")
    assert item["css_title"] == item["ours"]["title"]
    assert item["same_tree"] is True
    followed = item["followed"]
    assert followed
    assert all(url.startswith(("http://", "https://")) for url in followed)
    # Only links of other schemes were skipped.
    others = [h for h in item["hrefs"] if ":" in h.split("/")[0]]
    skipped = [h for h in others if not h.lower().startswith(("http:", "https:"))]
    assert len(followed) == len(item["hrefs"]) - len(skipped)


def test_splash_json_response_soup_is_its_html(
    api: LocalServer, tmp_path: Path
) -> None:
    pytest.importorskip("scrapy_splash", exc_type=ImportError)
    if scrapy.version_info >= (2, 14):
        # scrapy-splash's middlewares take process_request(request, spider),
        # which Scrapy 2.14 deprecates: its warning is an error in the crawl
        # process (as every warning there). The floors (2.13) run this test.
        pytest.skip("scrapy-splash's middlewares warn on Scrapy >= 2.14")
    settings = {
        **ADDON_SETTINGS,
        "SPLASH_URL": api.base,
        "DOWNLOADER_MIDDLEWARES": {
            "scrapy_splash.SplashCookiesMiddleware": 723,
            "scrapy_splash.SplashMiddleware": 725,
        },
        "REQUEST_FINGERPRINTER_CLASS": "scrapy_splash.SplashRequestFingerprinter",
    }
    result = run_crawl(
        tmp_path, "test_scrapy_plugins:PluginSpider", settings, kind="splash"
    )
    [item] = result.items
    _check(item, "SplashJsonResponse")
    assert item["url"] == PAGE_URL


def test_zyte_api_text_response_has_soup(api: LocalServer, tmp_path: Path) -> None:
    zyte = pytest.importorskip("scrapy_zyte_api")
    if not hasattr(zyte, "Addon"):
        pytest.skip(
            "this scrapy-zyte-api release (what installs beside the Scrapy floor) "
            "predates its add-on and Scrapy 2.13; "
            "test_zyte_api_responses_from_api_replies covers its responses"
        )
    settings = {
        "ADDONS": {"scrapy_soup.Addon": 0, "scrapy_zyte_api.Addon": 500},
        "ZYTE_API_KEY": "not-a-key",
        "ZYTE_API_URL": api.url("/v1/"),
        "ZYTE_API_TRANSPARENT_MODE": True,
    }
    result = run_crawl(
        tmp_path, "test_scrapy_plugins:PluginSpider", settings, kind="zyte"
    )
    [item] = result.items
    _check(item, "ZyteAPITextResponse")


def test_zyte_api_responses_from_api_replies() -> None:
    # The classes scrapy-zyte-api makes of API replies, as its download
    # handler makes them, handed on by the middleware.
    pytest.importorskip("scrapy_zyte_api")
    from scrapy.http import Request
    from scrapy_zyte_api.responses import ZyteAPITextResponse

    from scrapy_soup._scrapy.responses import hand_on

    request = Request(PAGE_URL)
    html = _page_text()
    asked = json.dumps({"url": PAGE_URL}).encode()
    for reply in (
        {"url": PAGE_URL, "browserHtml": html},
        json.loads(_api_reply("/v1/extract", asked).body),
    ):
        response = ZyteAPITextResponse.from_api_response(reply, request=request)
        plugin_class = type(response)
        wrapped = hand_on(response, None, sniff_html=False)
        assert isinstance(wrapped, plugin_class)
        assert type(wrapped).__name__ == f"Soup{plugin_class.__name__}"
        assert soup_queries(wrapped.soup) == bs4_queries(html, "lxml")
        # Its replace() keeps the plugin's attributes, and the soup class.
        again = wrapped.replace()
        assert type(again) is type(wrapped)
        assert again.raw_api_response == wrapped.raw_api_response


def test_web_poet_http_response_soup() -> None:
    web_poet = pytest.importorskip("web_poet")
    from scrapy_soup import soup_of

    response = web_poet.HttpResponse(PAGE_URL, body=PAGE.read_bytes())
    soup = soup_of(response)
    assert soup is soup_of(response)
    assert soup_queries(soup) == bs4_queries(_page_text(), "lxml")
    assert soup.find("title")._el is response.css("title")[0].root
    assert soup.base_url == PAGE_URL

    # A page object reads it the same way (web-poet's WebPage has .selector).
    class Page(web_poet.WebPage):  # type: ignore[misc]
        @web_poet.field  # type: ignore[untyped-decorator]
        def title(self) -> str:
            return str(soup_of(self).title.string)

    page = Page(response=response)
    assert page.title == soup.title.string
    # Page objects compare by value (unhashable): their soups are kept by
    # id(), as long as the page object lives.
    from scrapy_soup._scrapy import responses

    assert soup_of(page) is soup_of(page)
    kept = len(responses._states_by_id)
    del page
    gc.collect()
    assert len(responses._states_by_id) == kept - 1
