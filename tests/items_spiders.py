"""Spiders, item classes and a user pipeline for the plain-data item tests.

Run in crawl subprocesses by ``scrapy_helpers.run_crawl`` as
``"items_spiders:SoupItemsSpider"``. The spider puts every kind of soup
object into items of every kind; ``PlainCheckPipeline`` stands for a user's
storage pipeline at 300 (Scrapy's template number, scrapy-redis's
``RedisPipeline``'s): it writes what it saw of each item to a JSON Lines
report that the tests read.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pydantic
import scrapy
from itemadapter import ItemAdapter
from scrapy.http import HtmlResponse, TextResponse

#: A hostile HTML string, as found in the sanitizer test suites.
HOSTILE = (
    '<img src=x onerror=alert(1)><script>alert(1)</script><a href="javascript:'
    'alert(1)">x</a><a href="rel/page.html">ok</a>'
)

#: The page every item is scraped from: relative links, script, handlers.
ARTICLE_PAGE = """<!DOCTYPE html>
<html><head><title>Shop</title></head><body>
<article id="main" class="story wide" onclick="evil()">
 <h1>Caf\u00e9 &amp; books</h1>
 <p class="lead intro">Read <a href="../books/one.html" rel="next nofollow">one</a>
  and <a href="two.html" onmouseover="x()">two</a>.</p>
 <p>Plain &lt;img src=x onerror=alert(1)&gt; text</p>
 <!--<img src=x onerror=alert(1)>-->
 <img src="img/cover.png" srcset="img/a.png 1x, img/b.png 2x" onerror="x()">
 <script>alert(1)</script>
</article>
<pre> keep   <b>this</b>  </pre>
</body></html>
"""

#: A Tag whose cleaning FailingCleanSpider makes fail.
TAG_FAIL = '<p onclick="x()">FAIL <a href="rel.html">a</a></p>'

#: An HTML field given as bytes, in its own declared encoding.
BYTES_HTML = (
    '<meta charset="windows-1252"><p>Caf\u00e9 <a href="bytes/link.html">l</a>'
    "<script>x()</script></p>"
).encode("cp1252")

#: The metadata that marks a field as HTML (in every item class below).
HTML_META = {"html": True}

#: Fields whose strings are HTML, for dict items (``SOUP_HTML_FIELDS``).
HTML_FIELDS = ["body_bytes", "hostile", "text_html", "comment_html"]


@dataclasses.dataclass
class DataclassItem:
    url: Any = None
    tag: Any = None
    nested: Any = None
    tags_list: Any = None
    tags_tuple: Any = None
    attrs: Any = None
    classes: Any = None
    string: Any = None
    results: Any = None
    pre: Any = None
    count: Any = None
    body_bytes: Any = dataclasses.field(default=None, metadata={"html": True})
    hostile: Any = dataclasses.field(default=None, metadata={"html": True})
    text_html: Any = dataclasses.field(default=None, metadata={"html": True})
    comment_html: Any = dataclasses.field(default=None, metadata={"html": True})


#: The fields of every item class below, in order.
ITEM_FIELDS = [f.name for f in dataclasses.fields(DataclassItem)]

#: The same fields as an attrs class, HTML fields marked in their metadata.
AttrsItem = attrs.make_class(
    "AttrsItem",
    {
        name: attrs.field(
            default=None, metadata=HTML_META if name in HTML_FIELDS else {}
        )
        for name in ITEM_FIELDS
    },
)


#: The same fields as a pydantic model, HTML fields marked in json_schema_extra.
PydanticItem = pydantic.create_model(
    "PydanticItem",
    __config__=pydantic.ConfigDict(arbitrary_types_allowed=True),
    **{
        name: (
            Any,
            pydantic.Field(
                default=None,
                json_schema_extra=HTML_META if name in HTML_FIELDS else None,
            ),
        )
        for name in ITEM_FIELDS
    },
)

#: The same fields as a scrapy.Item, HTML fields marked ``Field(html=True)``.
ScrapyItem = type(scrapy.Item)(
    "ScrapyItem",
    (scrapy.Item,),
    {
        "__module__": __name__,
        **{
            name: scrapy.Field(HTML_META if name in HTML_FIELDS else {})
            for name in ITEM_FIELDS
        },
    },
)


ITEM_CLASSES: dict[str, Any] = {
    "dict": dict,
    "scrapy": ScrapyItem,
    "dataclass": DataclassItem,
    "attrs": AttrsItem,
    "pydantic": PydanticItem,
}


def soup_values(soup: Any, url: str) -> dict[str, Any]:
    """Every kind of soup object, picked from ``ARTICLE_PAGE`` (ours or bs4's)."""
    from bs4 import Comment as Bs4Comment

    from scrapy_soup import Comment

    art = soup.find("article")
    first_p = art.find("p")
    comment = art.find(
        string=lambda s: isinstance(s, (Comment, Bs4Comment))  # either library's
    )
    return {
        "url": url,
        "tag": art,
        "nested": {"inner": {"p": first_p, "n": 1}, "list": [first_p.a]},
        "tags_list": [first_p.a, "plain <b>text</b>", 2],
        "tags_tuple": (art.find("img"), None),
        "attrs": first_p.a.attrs,
        "classes": first_p["class"],
        "string": art.h1.string,
        "results": art.find_all("a"),
        "pre": soup.find("pre"),
        "count": 3,
        "body_bytes": BYTES_HTML,
        "hostile": HOSTILE,
        "text_html": art.find_all("p")[1].string,
        "comment_html": comment,
    }


class SoupItemsSpider(scrapy.Spider):
    """Yield one item of ``item_kind`` per page, holding every soup object."""

    name = "soup_items"
    item_kind = "dict"
    start_urls: list[str] = []

    def __init__(self, urls: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls.split()

    def parse(self, response: Any) -> Iterator[Any]:
        values = soup_values(response.soup, response.url)
        yield ITEM_CLASSES[self.item_kind](**values)


# -- the user's pipeline at 300 -------------------------------------------------
_PLAIN_TYPES = (str, int, float, bool, type(None))


def plain_problems(value: Any, path: str = "") -> list[str]:
    """Where ``value`` holds something other than plain JSON-like data."""
    if type(value) in _PLAIN_TYPES:
        return []
    if type(value) in (list, tuple):
        out: list[str] = []
        for i, v in enumerate(value):
            out.extend(plain_problems(v, f"{path}[{i}]"))
        return out
    if type(value) is dict:
        out = []
        for k, v in value.items():
            if type(k) is not str:
                out.append(f"{path} key {type(k).__name__}")
            out.extend(plain_problems(v, f"{path}.{k}"))
        return out
    return [f"{path}: {type(value).__module__}.{type(value).__name__}"]


def unsafe_problems(value: Any) -> list[str]:
    """Active content left in the HTML strings of ``value`` (as bs4 parses
    them), and relative URLs."""
    from bs4 import BeautifulSoup

    if isinstance(value, (list, tuple)):
        return [p for v in value for p in unsafe_problems(v)]
    if isinstance(value, dict):
        return [p for v in value.values() for p in unsafe_problems(v)]
    if not isinstance(value, str):
        return []
    problems = []
    for tag in BeautifulSoup(value, "html.parser").find_all(True):
        if tag.name in ("script", "style", "iframe", "object", "embed"):
            problems.append(f"<{tag.name}>")
        for name, attr in tag.attrs.items():
            text = " ".join(attr) if isinstance(attr, list) else attr
            if name.startswith("on"):
                problems.append(f"{name} attribute")
            if "javascript:" in text.lower():
                problems.append(f"javascript: in {name}")
            if name in ("href", "src") and not text.startswith("http://"):
                problems.append(f"relative {name} {text}")
    return problems


class PlainCheckPipeline:
    """A user's storage pipeline: what it sees is written to ``CHECK_REPORT``."""

    def __init__(self, report: str) -> None:
        self.report = Path(report)

    @classmethod
    def from_crawler(cls, crawler: Any) -> PlainCheckPipeline:
        return cls(crawler.settings.get("CHECK_REPORT"))

    def process_item(self, item: Any, spider: Any = None) -> Any:
        fields = ItemAdapter(item).asdict()
        problems = plain_problems(fields)
        try:
            json.dumps(fields)
            json_ok = True
        except (TypeError, ValueError):
            json_ok = False
        html_fields = ["tag", "hostile", "body_bytes", "tags_list", "results"]
        unsafe = {name: unsafe_problems(fields.get(name)) for name in html_fields}
        with self.report.open("a", encoding="utf-8") as f:
            f.write(
                json.dumps(
                    {
                        "type": type(item).__name__,
                        "problems": problems,
                        "json_ok": json_ok,
                        "unsafe": unsafe,
                        "fields": fields if json_ok else None,
                    }
                )
                + "\n"
            )
        return item


class FailingCleanSpider(SoupItemsSpider):
    """The same items, with cleaning made to fail on markup holding "FAIL"."""

    name = "failing_clean"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from scrapy_soup._scrapy import _item_path as pipelines

        original = pipelines.clean  # type: ignore[attr-defined]

        def failing_clean(soup: Any, policy: Any) -> Any:
            if "FAIL" in str(soup):
                raise RuntimeError("injected failure")
            return original(soup, policy)

        pipelines.clean = failing_clean  # type: ignore[attr-defined]

    def parse(self, response: Any) -> Iterator[Any]:
        from scrapy_soup import Soup

        for item in super().parse(response):
            item["hostile"] = HOSTILE + "<b>FAIL</b>"
            # A Tag: processed by the spider middleware, which fails too.
            item["tag_fail"] = Soup(TAG_FAIL, "fragment").p
            yield item


# -- another plugin's responses --------------------------------------------------
class PluginTextResponse(TextResponse):
    """A TextResponse subclass, as scrapy-zyte-api's and scrapy-splash's are."""


class PluginResponseMiddleware:
    """Replace each HTML response by a ``PluginTextResponse`` (order 50: its
    ``process_response`` runs before SoupDownloaderMiddleware's, which then
    hands it on as its soup subclass)."""

    def process_response(self, request: Any, response: Any, spider: Any = None) -> Any:
        if isinstance(response, HtmlResponse):
            return response.replace(cls=PluginTextResponse)
        return response


class FollowTagsSpider(scrapy.Spider):
    """Follow soup Tags from another plugin's responses."""

    name = "follow_tags"

    def __init__(self, urls: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls.split()

    def parse(self, response: Any) -> Iterator[Any]:
        soup = response.soup
        yield {
            "url": response.url,
            "type": type(response).__name__,
            "plugin": isinstance(response, PluginTextResponse),
        }
        yield response.follow(soup.find("a"), callback=self.parse_linked)
        # <article> has no URL: skipped, as a SelectorList skips it.
        tags = soup.select("article, a, img")
        yield from response.follow_all(tags, callback=self.parse_linked)

    def parse_linked(self, response: Any) -> Iterator[Any]:
        yield {
            "url": response.url,
            "type": type(response).__name__,
            "plugin": isinstance(response, PluginTextResponse),
        }


class BadTagSpider(scrapy.Spider):
    """Items holding Tags whose conversion fails (injected for "BAD" tags)."""

    name = "bad_tags"

    def __init__(self, urls: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls.split()
        from scrapy_soup._scrapy import _plain

        original = _plain.__dict__["_tag_markup"]

        def failing(tag: Any, serialize: bool = True) -> Any:
            if "BAD" in tag.get_text():
                raise RuntimeError("injected conversion failure")
            return original(tag, serialize)

        _plain._tag_markup = failing

    def parse(self, response: Any) -> Iterator[Any]:
        from scrapy_soup import Soup

        bad = Soup("<p>BAD</p>", "fragment").p
        good = response.soup.find("a")
        yield {"url": response.url, "tags": [good, bad], "nested": {"x": bad}}
