"""HTML fields exported as Markdown or text: ``Field(markdown=True)``, ``Field(text=True)``.

A real crawl with the add-on over corpus pages served on 127.0.0.1: items of
every kind (dict with ``SOUP_MARKDOWN_FIELDS``/``SOUP_TEXT_FIELDS``,
``scrapy.Item``, dataclass, attrs, pydantic) hold each page's article as a
``str`` and as the soup Tag, and JSON Lines, CSV and XML feeds are written in
the same crawl. Every item is in every feed, every value a plain ``str``,
each the same as `to_markdown`/`to_text` of the article (cleaned, links made
absolute against the page), and no relative link is left.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from conftest import corpus_pages
from fields_spiders import FIELD_SETTINGS, FIELDS, FORMATS, ITEM_CLASSES, article_of
from markdown_it import MarkdownIt
from scrapy.settings import Settings
from scrapy_helpers import ADDON_SETTINGS, CrawlResult, PageServer, run_crawl
from test_markdown import raw_html_tokens

from scrapy_soup import Soup, to_markdown, to_text
from scrapy_soup._scrapy import SoupHtmlResponse
from scrapy_soup._scrapy._config import Config
from scrapy_soup._scrapy._plain import field_formats, html_field_names

SPIDER = "fields_spiders:FieldsSpider"
#: Real pages with an <article> or a body worth converting (a few, for time).
PAGES = [p.name for p in corpus_pages("real")][:6]
RENDERER = MarkdownIt("commonmark").enable("table")


@pytest.fixture(scope="module")
def server() -> Iterator[PageServer]:
    with PageServer({}) as srv:
        yield srv


@pytest.fixture(scope="module")
def crawl(server: PageServer, tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp_path = tmp_path_factory.mktemp("fields")
    feeds = {
        str(tmp_path / "items.jsonlines"): {"format": "jsonlines", "encoding": "utf-8"},
        str(tmp_path / "items.csv"): {"format": "csv", "encoding": "utf-8"},
        str(tmp_path / "items.xml"): {"format": "xml", "encoding": "utf-8"},
    }
    result = run_crawl(
        tmp_path,
        SPIDER,
        {**ADDON_SETTINGS, **FIELD_SETTINGS, "FEEDS": feeds},
        urls=[f"{server.base}/corpus/{name}" for name in PAGES],
    )
    return result, tmp_path


def expected(server: PageServer, url: str) -> dict[str, str]:
    """What each format of a page's article must be, from the public functions."""
    name = url.rsplit("/", 1)[1]
    body = (corpus_pages()[0].parent / name).read_bytes()
    response = SoupHtmlResponse(url, body=body, encoding="utf-8")
    tag = article_of(response.soup)
    return {"markdown": to_markdown(tag), "text": to_text(tag)}


def test_every_item_in_json_lines_is_plain_converted_and_absolute(
    crawl: Any, server: PageServer
) -> None:
    result, _ = crawl
    assert isinstance(result, CrawlResult)
    items = result.items
    assert len(items) == len(PAGES) * len(ITEM_CLASSES)
    assert {item["kind"] for item in items} == set(ITEM_CLASSES)
    for item in items:
        assert set(item) == set(FIELDS), item["kind"]
        assert all(type(item[name]) is str for name in FIELDS)
        want = expected(server, item["page"])
        for name, fmt in FORMATS.items():
            if fmt == "markdown":
                assert item[name] == want["markdown"], (item["kind"], name)
                assert raw_html_tokens(item[name]) == []
            elif fmt == "text":
                assert item[name] == want["text"], (item["kind"], name)
        # Links absolute in every format that has them (an in-page "#x"
        # stays as it is, as absolutize_links() leaves it).
        rendered = Soup(RENDERER.render(item["md"]), "html.parser")
        targets = [a["href"] for a in rendered.find_all("a", href=True)]
        targets += [i["src"] for i in rendered.find_all("img", src=True)]
        html = Soup(item["html"], "html.parser")
        targets += [a["href"] for a in html.find_all("a", href=True)]
        assert all(
            t.startswith(("http://", "https://", "mailto:", "data:image/", "#"))
            or t == ""
            for t in targets
        ), [t for t in targets if "://" not in t and t[:1] != "#"]
    assert result.stats.get("soup/links_absolutized", 0) > 0
    assert not result.stats.get("soup/fields_failed")


def test_csv_and_xml_feeds_hold_the_same_items(crawl: Any) -> None:
    result, tmp_path = crawl
    by_key = {(i["kind"], i["page"]): i for i in result.items}
    with (tmp_path / "items.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(by_key)
    for row in rows:
        item = by_key[(row["kind"], row["page"])]
        for name in FIELDS:
            # The csv module reads "\r\n" inside a value as written.
            assert row[name].replace("\r\n", "\n") == item[name].replace("\r\n", "\n")
    root = ElementTree.parse(tmp_path / "items.xml").getroot()
    entries = root.findall("item")
    assert len(entries) == len(by_key)
    for entry in entries:
        values = {child.tag: child.text or "" for child in entry}
        item = by_key[(values["kind"], values["page"])]
        for name in FIELDS:
            assert values[name].strip() == item[name].replace("\r", "").strip()


def test_code_languages_survive_the_pipelines(
    server: PageServer, tmp_path: Path
) -> None:
    # The class that names the language is dropped by the cleaning: read before.
    page = (
        b'<html><body><article><h1>Code</h1><pre><code class="language-python">'
        b'print("hi")</code></pre><p><a href="rel.html">rel</a></p>'
        b"</article></body></html>"
    )
    from scrapy_helpers import Page

    server.pages["/code.html"] = Page(page)
    result = run_crawl(
        tmp_path,
        SPIDER,
        {**ADDON_SETTINGS, **FIELD_SETTINGS},
        urls=[f"{server.base}/code.html"],
    )
    assert len(result.items) == len(ITEM_CLASSES)
    for item in result.items:
        for name in ("md", "md_tag"):
            assert item[name] == (
                '# Code\n\n```python\nprint("hi")\n```\n\n'
                f"[rel]({server.base}/rel.html)"
            ), (item["kind"], name)
        assert item["text"] == 'Code\nprint("hi")\n\nrel'


# -- which fields, in which format --------------------------------------------
@pytest.mark.parametrize("kind", sorted(ITEM_CLASSES))
def test_field_formats_of_every_item_kind(kind: str) -> None:
    cls = ITEM_CLASSES[kind]
    item = cls(**dict.fromkeys(FIELDS, "x"))
    config = Config.from_settings(Settings(FIELD_SETTINGS if kind == "dict" else {}))
    formats = field_formats(item, config.text_fields, config.markdown_fields, {})
    assert formats == {n: f for n, f in FORMATS.items() if f in ("text", "markdown")}
    names = html_field_names(item, config.markup_fields, {})
    assert set(names) == {n for n, f in FORMATS.items() if f}


def test_a_field_named_in_both_format_settings_stops_the_crawl() -> None:
    settings = Settings({"SOUP_TEXT_FIELDS": "a,b", "SOUP_MARKDOWN_FIELDS": ["b"]})
    with pytest.raises(ValueError, match="SOUP_TEXT_FIELDS and SOUP_MARKDOWN_FIELDS"):
        Config.from_settings(settings)
    config = Config.from_settings(Settings({"SOUP_TEXT_FIELDS": "a, b"}))
    assert config.text_fields == ("a", "b")
    assert config.markdown_fields == ()


@pytest.mark.parametrize("drop", [False, True])
def test_a_field_that_cannot_be_converted_fails_closed(
    server: PageServer, tmp_path: Path, drop: bool
) -> None:
    result = run_crawl(
        tmp_path,
        "fields_spiders:FailingConvertSpider",
        {**ADDON_SETTINGS, **FIELD_SETTINGS, "SOUP_DROP_FAILED_ITEMS": drop},
        urls=[f"{server.base}/corpus/{PAGES[0]}"],
    )
    # The Tag fails in the spider middleware, logged once and counted.
    assert result.log.count("could not process field md_tag (") == 1
    if drop:
        # The item is dropped there, before the pipelines process "md".
        assert result.stats.get("soup/fields_failed") == 1
        assert result.items == []
        return
    # The str fails in the pipeline.
    assert result.stats.get("soup/fields_failed") == 2
    assert result.log.count("could not process field md (") == 1
    [item] = result.items
    # Never the markup as it came: its text, escaped.
    assert item["md"] == (
        "&lt;p&gt;FAIL &lt;script&gt;x()&lt;/script&gt; &lt;a href='rel'&gt;a&lt;/a&gt;&lt;/p&gt;"
    )
    assert item["md_tag"] == "&lt;p&gt;FAIL &lt;b&gt;b&lt;/b&gt;&lt;/p&gt;"
    assert item["text"] == "fine text"
