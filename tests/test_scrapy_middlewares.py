"""Real crawls through the downloader and spider middlewares.

Every crawl runs in its own process against a local HTTP server (see
``scrapy_helpers``); the spiders report what their callbacks saw as items.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_page
from scrapy_helpers import (
    ADDON_SETTINGS,
    MANUAL_SETTINGS,
    PNG_BYTES,
    CrawlResult,
    Page,
    PageServer,
    run_crawl,
    subprocess_env,
)

DM = "scrapy_soup._scrapy.middlewares.SoupDownloaderMiddleware"

HTML = (
    b"<!DOCTYPE html><html><head><title>Home &amp; away</title></head><body>"
    b'<p id="p1">One <a href="/a.html">a</a> <a href="b.html">b</a></p>'
    b'<p id="p2"><img src="i.png"> <a name="x">no href</a></p>'
    b"<!-- a comment --><ul><li>x<li>y</ul></body></html>"
)
SITEMAP = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    b"<url><loc>http://example.com/a</loc></url><url><loc>http://example.com/b</loc></url>"
    b"</urlset>"
)
RSS = (
    b'<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title>'
    b"<item><title>One</title><link>http://example.com/1</link></item></channel></rss>"
)
# A <base> further than 4 KiB into the page: Scrapy's get_base_url() scans
# only the first 4 KiB; the soup reads the parsed tree.
LATE_BASE = (
    b"<html><head><title>late</title><meta name='filler' content='"
    + b"x" * 5000
    + b"'><base href='/deep/dir/'></head><body><a href='rel'>r</a></body></html>"
)

PAGES: dict[str, Page] = {
    "/page.html": Page(HTML),
    "/gzip.html": Page(HTML, encoding="gzip"),
    "/deflate.html": Page(HTML, encoding="deflate"),
    "/base.html": Page(
        b"<html><head><base href='/sub/dir/'><base href='/ignored/'></head>"
        b"<body><a href='x.html'>x</a></body></html>"
    ),
    "/late-base.html": Page(LATE_BASE),
    "/redirect": Page(b"", status=302, headers={"Location": "{base}/page.html"}),
    "/no-content-type": Page(HTML, content_type=None),
    "/latin1.html": Page(
        "<html><head><title>café</title></head><body><p>naïve</p></body></html>".encode(
            "latin-1"
        ),
        content_type="text/html; charset=iso-8859-1",
    ),
    "/empty.html": Page(b""),
    "/undecodable.html": Page(
        b"<html><body><p>\xff\xfe\xfa bad \x80</p></body></html>"
    ),
    "/sitemap.xml": Page(SITEMAP, content_type="application/xml"),
    "/rss.xml": Page(RSS, content_type="application/rss+xml"),
    "/data.json": Page(
        b'{"html": "<p>not a page</p>"}', content_type="application/json"
    ),
    "/image.png": Page(PNG_BYTES, content_type="image/png"),
    # Binary bytes: Scrapy sniffs the body when the type says "binary".
    "/doc.pdf": Page(
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n\x00\x01\x02\x03", content_type="application/pdf"
    ),
    "/html-as-png": Page(HTML, content_type="image/png"),
    "/plain-html.txt": Page(HTML, content_type="text/plain; charset=utf-8"),
    "/plain.txt": Page(b"just text, <not> html", content_type="text/plain"),
}

HTML_PATHS = [
    "/page.html",
    "/gzip.html",
    "/deflate.html",
    "/base.html",
    "/late-base.html",
    "/redirect",
    "/no-content-type",
    "/latin1.html",
    "/empty.html",
    "/undecodable.html",
]
# Scrapy decodes Brotli only with the optional brotli package (test extra).
HAS_BROTLI = importlib.util.find_spec("brotli") is not None
if HAS_BROTLI:
    PAGES["/br.html"] = Page(HTML, encoding="br")
    HTML_PATHS.append("/br.html")

XML_PATHS = ["/sitemap.xml", "/rss.xml"]
# Path -> the class the callback must see: untouched by the middleware.
UNTOUCHED = {
    "/data.json": "JsonResponse",
    "/image.png": "Response",
    "/doc.pdf": "Response",
    "/plain-html.txt": "TextResponse",
    "/plain.txt": "TextResponse",
}


def _corpus_pages() -> list[str]:
    wanted = [
        "001.html",
        "base-url.html",
        "base-url-base-element.html",
        "base-url-base-element-relative.html",
        "wikipedia.html",
        "svg-parsing.html",
    ]
    return [f"/corpus/{corpus_page(name).name}" for name in wanted]


@pytest.fixture(scope="module")
def server() -> Iterator[PageServer]:
    with PageServer(dict(PAGES)) as srv:
        yield srv


def _urls(server: PageServer, paths: list[str]) -> list[str]:
    return [server.url(p) for p in paths]


ALL_PATHS = [*HTML_PATHS, *XML_PATHS, *UNTOUCHED, "/html-as-png"]


@pytest.fixture(scope="module")
def addon_crawl(
    server: PageServer, tmp_path_factory: pytest.TempPathFactory
) -> CrawlResult:
    return run_crawl(
        tmp_path_factory.mktemp("addon"),
        "ProbeSpider",
        ADDON_SETTINGS,
        start_urls=_urls(server, ALL_PATHS + _corpus_pages()),
    )


def _assert_matches_bs4(probe: dict[str, Any]) -> None:
    assert probe["ours"] == probe["bs4"], probe["probe_url"]


def test_every_html_response_has_a_soup_equal_to_bs4(addon_crawl: CrawlResult) -> None:
    probes = addon_crawl.probes()
    for path in HTML_PATHS + _corpus_pages():
        probe = probes[path]
        assert probe["cls"] == "SoupHtmlResponse", path
        assert probe["is_xml"] is False
        assert probe["same_soup"] is True
        _assert_matches_bs4(probe)
    # The queries found something on the pages that have content.
    assert probes["/page.html"]["ours"]["hrefs"] == ["/a.html", "b.html"]
    assert probes["/gzip.html"]["ours"] == probes["/page.html"]["ours"]
    if HAS_BROTLI:
        assert probes["/br.html"]["ours"] == probes["/page.html"]["ours"]
    assert probes["/latin1.html"]["ours"]["title"] == "café"


def test_xml_responses_get_an_xml_soup(addon_crawl: CrawlResult) -> None:
    probes = addon_crawl.probes()
    for path in XML_PATHS:
        probe = probes[path]
        assert probe["cls"] == "SoupXmlResponse"
        assert probe["is_xml"] is True
        _assert_matches_bs4(probe)


def test_other_responses_pass_untouched(addon_crawl: CrawlResult) -> None:
    probes = addon_crawl.probes()
    for path, cls in UNTOUCHED.items():
        assert probes[path]["cls"] == cls, path
        assert probes[path]["wrapped"] is False
        # Scrapy's classes, as Scrapy made them: no .soup of ours.
        assert probes[path]["has_soup"] is False
    # soup_of() on a non-text response: the error (type and text) Scrapy's
    # Response.css() raises there.
    not_text = "NotSupported: Response content isn't text"
    for path in ("/image.png", "/doc.pdf"):
        assert probes[path]["soup_of_error"] == not_text
    not_markup = "NotSupported: Response content isn't HTML or XML"
    assert probes["/data.json"]["soup_of_error"].startswith(not_markup)
    # soup_of() still gives a soup for a text response the middleware left
    # alone.
    assert probes["/plain-html.txt"]["ours"]["title"] == "Home & away"
    _assert_matches_bs4(probes["/plain-html.txt"])
    assert "ours" in probes["/plain.txt"]


def test_non_text_soup_in_a_callback_loses_no_item(
    server: PageServer, tmp_path: Path
) -> None:
    # A callback written for HTML pages asks every response for .soup without
    # a try: images, PDF and JSON keep Scrapy's classes, which have no .soup
    # (scrapy_soup changes no class of Scrapy's); the AttributeError is a
    # spider error like any other: logged, and the crawl goes on.
    not_text = ["/image.png", "/doc.pdf", "/data.json"]
    html = ["/page.html", "/latin1.html", "/sitemap.xml"]
    urls = _urls(server, not_text + html)
    result = run_crawl(
        tmp_path, "BlindSoupSpider", ADDON_SETTINGS, allow_errors=True, start_urls=urls
    )
    assert result.stats["spider_exceptions/AttributeError"] == len(not_text)
    assert result.stats["spider_exceptions/count"] == len(not_text)
    assert result.stats["log_count/ERROR"] == len(not_text)
    assert "'Response' object has no attribute 'soup'" in result.log
    assert "'JsonResponse' object has no attribute 'soup'" in result.log
    # Every item yielded before the failing .soup is kept; every page that
    # has a soup gave its second item.
    before = sorted(i["url"] for i in result.items if "title" not in i)
    assert before == sorted(urls)
    titled = {i["url"]: i["title"] for i in result.items if "title" in i}
    assert sorted(titled) == sorted(_urls(server, html))
    assert titled[server.url("/page.html")] == "Home & away"
    assert result.stats["item_scraped_count"] == len(urls) + len(html)


def test_a_wrong_content_type_is_decided_by_scrapy(
    addon_crawl: CrawlResult, server: PageServer
) -> None:
    # An HTML body sent as image/png: Scrapy sniffs the body and makes it an
    # HtmlResponse, which the middleware then wraps like any other.
    from scrapy.http import Headers
    from scrapy.responsetypes import responsetypes

    page = PAGES["/html-as-png"]
    scrapy_cls = responsetypes.from_args(
        headers=Headers({"Content-Type": page.content_type}),
        url=server.url("/html-as-png"),
        body=page.body,
    ).__name__
    expected = (
        "Soup" + scrapy_cls
        if scrapy_cls in ("HtmlResponse", "XmlResponse")
        else scrapy_cls
    )
    assert addon_crawl.probes()["/html-as-png"]["cls"] == expected


def test_stats_count_wrapped_responses(addon_crawl: CrawlResult) -> None:
    wrapped = sum(
        probe["cls"].startswith("Soup") for probe in addon_crawl.probes().values()
    )
    assert wrapped >= len(HTML_PATHS) + len(XML_PATHS) + len(_corpus_pages())
    assert addon_crawl.stats["soup/responses_wrapped"] == wrapped


def test_base_url_follows_base_href(
    addon_crawl: CrawlResult, server: PageServer
) -> None:
    probes = addon_crawl.probes()
    assert probes["/page.html"]["base_url"] == server.url("/page.html")
    # The first <base href> wins, resolved against the page URL.
    assert probes["/base.html"]["base_url"] == server.url("/sub/dir/")
    assert probes["/late-base.html"]["base_url"] == server.url("/deep/dir/")
    # After a redirect the base is the final URL.
    assert probes["/redirect"]["response_url"] == server.url("/page.html")
    assert probes["/redirect"]["base_url"] == server.url("/page.html")


def test_manual_settings_work_like_the_addon(
    server: PageServer, tmp_path: Path, addon_crawl: CrawlResult
) -> None:
    paths = ["/page.html", "/sitemap.xml", "/image.png", "/data.json"]
    result = run_crawl(
        tmp_path, "ProbeSpider", MANUAL_SETTINGS, start_urls=_urls(server, paths)
    )
    expected = addon_crawl.probes()
    for path, probe in result.probes().items():
        assert probe["cls"] == expected[path]["cls"]
        assert probe.get("ours") == expected[path].get("ours")


def test_meta_opt_out_keeps_the_plain_response(
    server: PageServer, tmp_path: Path
) -> None:
    result = run_crawl(
        tmp_path,
        "ProbeSpider",
        ADDON_SETTINGS,
        start_urls=_urls(server, ["/page.html", "/sitemap.xml"]),
        request_meta={"soup": False},
    )
    probes = result.probes()
    assert probes["/page.html"]["cls"] == "HtmlResponse"
    assert probes["/sitemap.xml"]["cls"] == "XmlResponse"
    # soup_of() works without the middleware, on the same tree; the responses
    # are Scrapy's, with no .soup.
    _assert_matches_bs4(probes["/page.html"])
    assert probes["/page.html"]["has_soup"] is False
    assert probes["/sitemap.xml"]["has_soup"] is False
    assert probes["/sitemap.xml"]["is_xml"] is True
    assert "soup/responses_wrapped" not in result.stats


def test_user_none_disables_the_downloader_middleware(
    server: PageServer, tmp_path: Path
) -> None:
    result = run_crawl(
        tmp_path,
        "ProbeSpider",
        {**ADDON_SETTINGS, "DOWNLOADER_MIDDLEWARES": {DM: None}},
        start_urls=_urls(server, ["/page.html"]),
        compare_bs4=False,
    )
    assert result.probes()["/page.html"]["cls"] == "HtmlResponse"


def test_sniffing_wraps_text_responses_that_hold_html(
    server: PageServer, tmp_path: Path
) -> None:
    result = run_crawl(
        tmp_path,
        "ProbeSpider",
        {**ADDON_SETTINGS, "SOUP_SNIFF_HTML": True},
        start_urls=_urls(server, ["/plain-html.txt", "/plain.txt", "/data.json"]),
    )
    probes = result.probes()
    assert probes["/plain-html.txt"]["cls"] == "SoupHtmlResponse"
    _assert_matches_bs4(probes["/plain-html.txt"])
    assert probes["/plain.txt"]["cls"] == "TextResponse"
    assert probes["/data.json"]["cls"] == "JsonResponse"


def test_http_cache_first_and_cached_runs(server: PageServer, tmp_path: Path) -> None:
    paths = ["/page.html", "/gzip.html", "/sitemap.xml", "/image.png"]
    cache = {
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_DIR": str(tmp_path / "cache"),
        "HTTPCACHE_EXPIRATION_SECS": 0,
    }
    first = run_crawl(
        tmp_path / "first",
        "ProbeSpider",
        {**ADDON_SETTINGS, **cache},
        start_urls=_urls(server, paths),
    )
    hits = {p: server.hits[p] for p in paths}
    second = run_crawl(
        tmp_path / "second",
        "ProbeSpider",
        {**ADDON_SETTINGS, **cache},
        start_urls=_urls(server, paths),
    )
    assert {p: server.hits[p] for p in paths} == hits, "the cached run hit the server"
    for path in paths:
        a, b = first.probes()[path], second.probes()[path]
        assert not a["cached"]
        assert b["cached"]
        assert a["cls"] == b["cls"]
        assert a.get("ours") == b.get("ours")
    assert second.probes()["/gzip.html"]["cls"] == "SoupHtmlResponse"
    # The cache stores the plain Scrapy classes: removing the plugin keeps it usable.
    classes = set()
    for data_file in (tmp_path / "cache").rglob("response_data"):
        with data_file.open("rb") as f:
            classes.add(pickle.load(f).get("_class"))
    assert classes <= {
        None,
        "scrapy.http.response.html.HtmlResponse",
        "scrapy.http.response.xml.XmlResponse",
    }
    plain = run_crawl(
        tmp_path / "plain",
        "ProbeSpider",
        cache,
        start_urls=_urls(server, paths),
        use_soup=False,
    )
    assert {p: server.hits[p] for p in paths} == hits
    assert plain.probes()["/page.html"]["cls"] == "HtmlResponse"


def test_follow_accepts_soup_tags(tmp_path: Path) -> None:
    pages = {
        "/start.html": Page(
            b"<html><head><title>start</title></head><body>"
            b"<a class='first' href='one.html'>1</a>"
            b"<a class='many' href='/two.html'>2</a>"
            b"<a class='many'>no href: skipped</a>"
            b"<img class='many' src='three.html'>"
            b"<span class='many'>skipped</span>"
            b"</body></html>"
        ),
        "/one.html": Page(b"<html><head><title>one</title></head></html>"),
        "/two.html": Page(b"<html><head><title>two</title></head></html>"),
        "/three.html": Page(b"<html><head><title>three</title></head></html>"),
    }
    with PageServer(pages) as srv:
        result = run_crawl(
            tmp_path,
            "FollowSpider",
            ADDON_SETTINGS,
            start_urls=[srv.url("/start.html")],
        )
    titles = sorted(item["title"] for item in result.items)
    assert titles == ["one", "start", "three", "two"]


def test_spider_middleware_leaves_no_origins_behind(addon_crawl: CrawlResult) -> None:
    # Every item left the pipelines, so the item -> page map must be empty.
    assert addon_crawl.origins_left == 0
    assert addon_crawl.stats["item_scraped_count"] == len(addon_crawl.items)


def _scrapy_cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=str(cwd),
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_scrapy_shell_gives_response_soup(server: PageServer, tmp_path: Path) -> None:
    code = "(type(response).__name__, response.soup.a['href'], response.soup.base_url)"
    proc = _scrapy_cli(
        [
            "shell",
            server.url("/base.html"),
            "--nolog",
            "-s",
            'ADDONS={"scrapy_soup.Addon": 0}',
            "-c",
            code,
        ],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == repr(
        ("SoupHtmlResponse", "x.html", server.url("/sub/dir/"))
    )


PROJECT_SPIDER = """
import scrapy


class SoupSpider(scrapy.Spider):
    name = "soup"

    def parse(self, response):
        yield {
            "cls": type(response).__name__,
            "title": response.soup.title.string,
            "links": [a["href"] for a in response.soup.find_all("a", href=True)],
        }
"""


def test_scrapy_parse_gives_response_soup(server: PageServer, tmp_path: Path) -> None:
    project = tmp_path / "soupproj"
    (project / "spiders").mkdir(parents=True)
    (tmp_path / "scrapy.cfg").write_text("[settings]\ndefault = soupproj.settings\n")
    (project / "__init__.py").write_text("")
    (project / "settings.py").write_text(
        'SPIDER_MODULES = ["soupproj.spiders"]\n'
        'ADDONS = {"scrapy_soup.Addon": 0}\n'
        "TELNETCONSOLE_ENABLED = False\n"
    )
    (project / "spiders" / "__init__.py").write_text("")
    (project / "spiders" / "soup.py").write_text(PROJECT_SPIDER)
    proc = _scrapy_cli(
        [
            "parse",
            server.url("/page.html"),
            "--spider",
            "soup",
            "-c",
            "parse",
            "--nolog",
        ],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    expected = {
        "cls": "SoupHtmlResponse",
        "title": "Home & away",
        "links": ["/a.html", "b.html"],
    }
    # "scrapy parse" pretty-prints the items between two headers.
    printed = proc.stdout.split("# Scraped Items")[1].split("# Requests")[0]
    assert ast.literal_eval(printed.split("\n", 1)[1]) == [expected], proc.stdout


@pytest.mark.slow
def test_a_50_mb_page_gets_a_soup_and_its_item(tmp_path: Path) -> None:
    row = b"<p class='c'>text <a href='x.html'>link</a></p>\n"
    count = 50 * 1024 * 1024 // len(row) + 1
    body = (
        b"<html><head><title>big</title></head><body>" + row * count + b"</body></html>"
    )
    with PageServer({"/big.html": Page(body, encoding="gzip")}) as srv:
        result = run_crawl(
            tmp_path,
            "ProbeSpider",
            ADDON_SETTINGS,
            start_urls=[srv.url("/big.html")],
            compare_bs4=False,
        )
    probe = result.probes()["/big.html"]
    assert probe["cls"] == "SoupHtmlResponse"
    assert probe["base_url"] == srv.url("/big.html")
    assert probe["a_count"] == count
    assert result.stats["item_scraped_count"] == 1


# Where each page's encoding comes from: the header, a BOM, a <meta>, the
# body (inferred), or none that decodes (so the default, with replacements).
ENCODING_CASES = [
    (
        b"<html><body>caf\xc3\xa9 <base href='/d/'></body></html>",
        "text/html; charset=utf-8",
    ),
    ("<html><body>café</body></html>".encode("cp1252"), "text/html; charset=cp1252"),
    (b"\xef\xbb\xbf<html><body>caf\xc3\xa9</body></html>", "text/html"),
    ("<meta charset='koi8-r'><p>привет</p>".encode("koi8-r"), "text/html"),
    (b"<html><body>caf\xc3\xa9</body></html>", "text/html"),
    (b"<p>\xff\xfe\xfa bad \x80</p>", "text/html; charset=utf-8"),
]


@pytest.mark.parametrize(("body", "content_type"), ENCODING_CASES)
def test_the_middleware_hands_on_the_response_it_was_given(
    body: bytes, content_type: str
) -> None:
    from scrapy.http import HtmlResponse, Request
    from scrapy.utils.response import get_base_url, get_meta_refresh

    from scrapy_soup._scrapy.responses import SoupHtmlResponse, hand_on

    url = "http://example.com/dir/page.html"

    def plain() -> HtmlResponse:
        headers = {"Content-Type": content_type}
        return HtmlResponse(url, body=body, headers=headers, request=Request(url))

    # What MetaRefreshMiddleware computes before the soup middleware runs.
    seen = plain()
    get_meta_refresh(seen)
    text, encoding, base = seen.text, seen.encoding, get_base_url(seen)
    wrapped = hand_on(seen, None, sniff_html=False)
    # The same object, now with a soup: nothing is decoded a second time ...
    assert wrapped is seen
    assert type(wrapped) is SoupHtmlResponse
    assert wrapped.text is text
    # ... and what a response of that class would compute on its own.
    fresh = SoupHtmlResponse(url, body=body, headers={"Content-Type": content_type})
    assert (text, encoding) == (fresh.text, fresh.encoding)
    assert base == get_base_url(fresh)
    assert str(wrapped.soup) == str(fresh.soup)


def test_a_truncated_page_is_counted_and_warned(
    tmp_path: Path,
) -> None:
    # libxml2 stops building the tree at its depth limit (2,048 levels with
    # huge_tree): the soup over the response's tree says so, once per page.
    deep = b"<div>" * 3000 + b"deep" + b"</div>" * 3000
    pages = {
        "/deep.html": Page(b"<html><body>" + deep + b"<p>after</p></body></html>"),
        "/shallow.html": Page(HTML),
    }
    with PageServer(pages) as srv:
        result = run_crawl(
            tmp_path,
            "ProbeSpider",
            ADDON_SETTINGS,
            start_urls=[srv.url("/deep.html"), srv.url("/shallow.html")],
            compare_bs4=False,
        )
    assert len(result.items) == 2
    assert result.stats.get("soup/documents_truncated") == 1
    assert result.log.count("stops at the parser's depth limit") == 1
    assert "/deep.html" in result.log


TWO_CRAWLERS = """
import sys

import scrapy
from scrapy.crawler import CrawlerProcess


class Probe(scrapy.Spider):
    name = "plain"

    def parse(self, response):
        from scrapy_soup import soup_of

        item = {
            "spider": self.name,
            "cls": type(response).__name__,
            "has_soup": hasattr(response, "soup"),
            "follow": type(response).follow.__module__,
        }
        try:
            item["followed"] = response.follow(soup_of(response).a).url
        except TypeError as exc:
            item["followed"] = f"TypeError: {exc}"
        yield item


class WithSoup(Probe):
    name = "soup"
    custom_settings = {"ADDONS": {"scrapy_soup.Addon": 0}}


process = CrawlerProcess({
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "INFO",
    "FEEDS": {"items-%(name)s.jsonl": {"format": "jsonlines"}},
})
# The crawler with the plugin starts first: its middleware is built before
# the other crawler sees a response.
process.crawl(WithSoup, start_urls=[sys.argv[1]])
process.crawl(Probe, start_urls=[sys.argv[1]])
process.start()
"""


def test_two_crawlers_in_one_process_each_as_configured(
    server: PageServer, tmp_path: Path
) -> None:
    script = tmp_path / "two.py"
    script.write_text(TWO_CRAWLERS)
    proc = subprocess.run(
        [sys.executable, str(script), server.url("/page.html")],
        cwd=str(tmp_path),
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "ERROR" not in proc.stderr, proc.stderr
    items = {}
    for name in ("soup", "plain"):
        lines = (tmp_path / f"items-{name}.jsonl").read_text().splitlines()
        assert len(lines) == 1, name
        items[name] = json.loads(lines[0])
    assert items["soup"]["cls"] == "SoupHtmlResponse"
    assert items["soup"]["has_soup"] is True
    assert items["soup"]["followed"] == server.url("/a.html")
    # The crawler without the plugin gets Scrapy's response and follow(),
    # which takes no soup Tag.
    assert items["plain"]["cls"] == "HtmlResponse"
    assert items["plain"]["has_soup"] is False
    assert items["plain"]["follow"].startswith("scrapy.")
    assert items["plain"]["followed"].startswith("TypeError: Cannot mix str")
