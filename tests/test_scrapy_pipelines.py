"""Real crawls through AbsoluteLinksPipeline and CleanHtmlPipeline to feed exports.

The expected HTML of each field is what the pure functions give for the same
input (``absolutize_links`` then ``clean``): the pipelines must apply them to
the right fields with the right base URL and hand exporters plain strings.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from scrapy_helpers import ADDON_SETTINGS, CrawlResult, Page, PageServer, run_crawl

from scrapy_soup._scrapy._bridge import fragment_of_markup

SM = "scrapy_soup._scrapy.middlewares.SoupSpiderMiddleware"
CLEAN = "scrapy_soup.CleanHtmlPipeline"

ARTICLE = """
<article id="main">
 <p>Text <a href="rel.html" onclick="evil()" title="t">link</a>
    <a href="javascript:alert(1)">js</a> <a href="#frag">frag</a>
    <a href="mailto:a@example.com">mail</a> <a href="//cdn.example.org/x">proto</a></p>
 <p><img src="img.png" srcset="a,1.png 1x, b.png 2x" align="left" onerror="x()">
    <img data-src="lazy.png" data-srcset="l1.png 1x, l2.png 2x"></p>
 <script>alert(1)</script><style>p { background: url(s.png) }</style>
 <form action="post"><button formaction="go">go</button></form>
 <video poster="p.jpg" src="v.mp4"></video>
 <blockquote cite="c.html">q</blockquote>
 <div style="background: url('bg.png')">s</div>
 <iframe src="frame.html"></iframe>
 <p>AT&amp;T &lt;3 caf\u00e9</p>
</article>
"""


def _page(head: str = "") -> bytes:
    return f"<html><head>{head}<title>t</title></head><body>{ARTICLE}</body></html>".encode()


PAGES = {
    "/dir/article.html": Page(_page()),
    "/dir/based.html": Page(_page("<base href='../base/'><base href='/second/'>")),
}


@pytest.fixture(scope="module")
def server() -> Iterator[PageServer]:
    with PageServer(dict(PAGES)) as srv:
        yield srv


def expected_html(html: str, base_url: str, **clean_kwargs: Any) -> str:
    """What the pipelines must produce: the pure functions, applied in order."""
    from scrapy_soup.markup.clean import clean
    from scrapy_soup.markup.links import absolutize_links

    return clean(absolutize_links(html, base_url), **clean_kwargs)


def same_html(a: str, b: str) -> bool:
    """Whether two HTML fragments are the same tree.

    Compared through the soup's fragment parse and bs4-style output, so that
    serializer choices (``<img>`` or ``<img/>``, whitespace-only strings
    collapsed as bs4 does) do not count.
    """
    from scrapy_soup import Soup

    # Runs of whitespace count as one: the string functions serialize between
    # steps (bs4 collapses whitespace-only strings on output), while the
    # pipelines edit one tree, so an unwrap can join "\n " + "\n go" in one
    # path and "\n" + "\ngo" in the other.
    def canonical(html: str) -> str:
        return re.sub(r"\s+", " ", str(Soup(html, "fragment")))

    return canonical(a) == canonical(b)


def _article_html(server: PageServer, path: str) -> str:
    """The article as ``response.css("article").get()`` gives it."""
    from parsel import Selector

    body = server.pages[path].body.decode()
    return str(Selector(text=body).css("article").get())


def _by_page(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["page"]: item for item in items if "html" in item}


def _crawl(
    server: PageServer, tmp_path: Path, settings: dict[str, Any], **kw: Any
) -> CrawlResult:
    return run_crawl(
        tmp_path,
        "ItemSpider",
        {**ADDON_SETTINGS, "SOUP_HTML_FIELDS": ["html"], **settings},
        start_urls=[server.url(p) for p in PAGES],
        **kw,
    )


@pytest.mark.parametrize("item_kind", ["dict", "scrapy", "dataclass", "attrs"])
def test_fields_leave_absolute_cleaned_and_as_str(
    server: PageServer, tmp_path: Path, item_kind: str
) -> None:
    # dict items name their field in SOUP_HTML_FIELDS; the others mark it in
    # the field metadata too; "tag"/"tags" hold soup objects.
    settings: dict[str, Any] = {} if item_kind == "dict" else {"SOUP_HTML_FIELDS": []}
    result = _crawl(server, tmp_path, settings, item_kind=item_kind)
    items = _by_page(result.items)
    bases = {
        "/dir/article.html": server.url("/dir/article.html"),
        # The first <base href>, resolved against the page URL.
        "/dir/based.html": server.url("/base/"),
    }
    for path, base in bases.items():
        item = items[server.url(path)]
        html = _article_html(server, path)
        assert same_html(item["html"], expected_html(html, base))
        assert same_html(item["tag"], expected_html(html, base))
        assert isinstance(item["tags"], list) and len(item["tags"]) == 3
        assert all(isinstance(t, str) for t in item["tags"])
        assert f'href="{urljoin(base, "rel.html")}"' in item["html"]
        assert "onclick" not in item["html"] and "<script" not in item["html"]
        # Fields that are not HTML are left exactly as they were.
        assert item["text"] == "AT&T, not markup"
        assert item["count"] == 3
    # The response's own tree was never changed by the pipelines.
    untouched = [i["untouched"] for i in result.items if "untouched" in i]
    assert untouched == [True, True]
    assert result.stats["soup/links_absolutized"] > 0
    assert result.stats["soup/attributes_removed"] > 0
    assert result.stats["soup/elements_removed"] > 0
    assert "soup/fields_failed" not in result.stats
    assert result.origins_left == 0


@pytest.mark.parametrize("feed_format", ["csv", "xml", "json"])
def test_every_feed_exporter_gets_every_item(
    server: PageServer, tmp_path: Path, feed_format: str
) -> None:
    run_crawl(
        tmp_path,
        "ItemSpider",
        {**ADDON_SETTINGS, "SOUP_HTML_FIELDS": ["html"]},
        feed_format=feed_format,
        start_urls=[server.url("/dir/article.html")],
    )
    feed = tmp_path / f"items.{feed_format}"
    base = server.url("/dir/article.html")
    want = expected_html(_article_html(server, "/dir/article.html"), base)
    if feed_format == "json":
        rows = json.loads(feed.read_text(encoding="utf-8"))
        html_rows = [r for r in rows if "html" in r]
        assert len(html_rows) == 1
        assert same_html(html_rows[0]["html"], want)
        assert same_html(html_rows[0]["tag"], want)
    elif feed_format == "csv":
        with feed.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        htmls = [r["html"] for r in rows if r.get("html")]
        assert len(htmls) == 1 and same_html(htmls[0], want)
    else:
        root = ElementTree.parse(feed).getroot()
        htmls = [el.text or "" for el in root.iter("html")]
        assert len(htmls) == 1 and same_html(htmls[0], want)
    assert len(rows if feed_format != "xml" else list(root)) == 2


def test_url_field_setting_adds_the_page_url(
    server: PageServer, tmp_path: Path
) -> None:
    result = _crawl(server, tmp_path, {"SOUP_URL_FIELD": "source_url"})
    for item in result.items:
        assert item["source_url"] == item["page"]
    # Without the setting no field is added.
    plain = _crawl(server, tmp_path / "plain", {})
    assert all("source_url" not in item for item in plain.items)


def test_url_field_is_the_fallback_without_the_spider_middleware(
    server: PageServer, tmp_path: Path
) -> None:
    # scrapy.Item declares source_url; the pipelines read it when no origin
    # was recorded (the field has the page URL, not the <base>).
    result = _crawl(
        server,
        tmp_path,
        {"SPIDER_MIDDLEWARES": {SM: None}, "SOUP_URL_FIELD": "source_url"},
        item_kind="scrapy",
    )
    item = _by_page(result.items)[server.url("/dir/article.html")]
    assert "source_url" not in item  # nothing wrote it...
    # ...so a plain string with relative links fails closed (its text,
    # escaped: no link leaves relative), while soup Tags keep their own
    # document's base URL and are made absolute.
    assert BeautifulSoup(item["html"], "html.parser").find() is None
    base = server.url("/dir/article.html")
    assert same_html(
        item["tag"], expected_html(_article_html(server, "/dir/article.html"), base)
    )
    assert "no page URL to resolve them against" in result.log


def test_numbers_in_an_html_field_are_kept(server: PageServer, tmp_path: Path) -> None:
    # A number holds no markup: nothing to clean, nothing failed. (Values that
    # fail are tested in test_scrapy_items.py and test_scrapy_fail_closed.py.)
    result = _crawl(
        server,
        tmp_path,
        {"SOUP_HTML_FIELDS": ["html", "count"], "SOUP_DROP_FAILED_ITEMS": True},
    )
    items = _by_page(result.items)
    assert len(items) == 2
    for item in items.values():
        assert item["count"] == 3
        assert "<script" not in item["html"]
    assert "soup/fields_failed" not in result.stats


def test_user_none_disables_cleaning_only(server: PageServer, tmp_path: Path) -> None:
    result = _crawl(server, tmp_path, {"ITEM_PIPELINES": {CLEAN: None}})
    item = _by_page(result.items)[server.url("/dir/article.html")]
    base = server.url("/dir/article.html")
    from scrapy_soup.markup.links import absolutize_links

    html = _article_html(server, "/dir/article.html")
    # AbsoluteLinksPipeline is now the last one: it hands out plain strings.
    assert same_html(item["html"], absolutize_links(html, base))
    assert same_html(item["tag"], absolutize_links(html, base))
    assert "onclick" in item["html"]
    assert "soup/attributes_removed" not in result.stats


CLEAN_SETTINGS: list[dict[str, Any]] = [
    {"SOUP_CLEAN_POLICY": "strict"},
    # The article's EPUB case: drop align, reset <img> attributes.
    {"SOUP_CLEAN_POLICY": "epub"},
    # Strings, as ``-s NAME=VALUE`` gives them.
    {
        "SOUP_CLEAN_DROP_ATTRIBUTES": "title",
        "SOUP_CLEAN_ALLOWED_ATTRIBUTES": '{"*": ["title", "style"], "a": ["href"], "img": ["src"]}',
        "SOUP_CLEAN_KEEP_COMMENTS": "true",
    },
]


@pytest.mark.parametrize("settings", CLEAN_SETTINGS, ids=["strict", "epub", "strings"])
def test_clean_settings_reach_the_policy(
    server: PageServer, tmp_path: Path, settings: dict[str, Any]
) -> None:
    from scrapy_soup.markup.clean import CleanPolicy

    policy = CleanPolicy.from_dict(
        {k: v for k, v in settings.items() if k != "SOUP_CLEAN_POLICY"},
        base=settings.get("SOUP_CLEAN_POLICY"),
    )
    result = _crawl(server, tmp_path, settings)
    item = _by_page(result.items)[server.url("/dir/article.html")]
    base = server.url("/dir/article.html")
    html = _article_html(server, "/dir/article.html")
    assert same_html(item["html"], expected_html(html, base, policy=policy))
    assert not same_html(item["html"], expected_html(html, base))


def test_unknown_clean_setting_is_warned_and_the_preset_kept(
    server: PageServer, tmp_path: Path
) -> None:
    # An unknown name is warned once with the closest known one (the crawl
    # cleans with the preset); a wrong value stops the crawl
    # (test_scrapy_seams).
    result = _crawl(server, tmp_path, {"SOUP_CLEAN_DROP_ATTRIBUTE": "align"})
    assert result.log.count("Unknown setting SOUP_CLEAN_DROP_ATTRIBUTE") == 1
    assert "did you mean SOUP_CLEAN_DROP_ATTRIBUTES?" in result.log
    item = _by_page(result.items)[server.url("/dir/article.html")]
    base = server.url("/dir/")
    html = _article_html(server, "/dir/article.html")
    assert same_html(item["html"], expected_html(html, base))


def test_extra_link_attributes(server: PageServer, tmp_path: Path) -> None:
    result = _crawl(
        server,
        tmp_path,
        {
            "SOUP_LINKS_EXTRA_ATTRIBUTES": ["data-src", "data-srcset"],
            "ITEM_PIPELINES": {CLEAN: None},
        },
    )
    item = _by_page(result.items)[server.url("/dir/article.html")]
    base = server.url("/dir/")
    assert f'data-src="{base}lazy.png"' in item["html"]
    assert f'data-srcset="{base}l1.png 1x, {base}l2.png 2x"' in item["html"]


def test_xml_declared_item_field_gives_no_parser_warning() -> None:
    # bs4 would warn (XMLParsedAsHTMLWarning); a field is what the site sent.
    soup = fragment_of_markup('\n<?xml version="1.0"?><svg><g/></svg>')
    assert soup.find("g") is not None
