"""Items whose HTML fields are exported as Markdown and as text (crawled by
tests/test_scrapy_fields.py, imported by name in the crawl process).

Each item kind marks its fields its own way: ``scrapy.Field(markdown=True)``,
dataclass and attrs metadata, pydantic's ``json_schema_extra``; a dict's
fields are named by ``SOUP_MARKDOWN_FIELDS``/``SOUP_TEXT_FIELDS``
(`FIELD_SETTINGS`). Each format gets the page's article both as a ``str``
and as the soup Tag itself.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import attrs
import items_spiders
import pydantic
import scrapy

#: field name -> its format (``html``, ``markdown`` or ``text``), or None.
FORMATS: dict[str, str | None] = {
    "kind": None,
    "page": None,
    "html": "html",
    "md": "markdown",
    "md_tag": "markdown",
    "text": "text",
    "text_tag": "text",
}
FIELDS = list(FORMATS)

#: What a dict item needs instead of field metadata.
FIELD_SETTINGS: dict[str, list[str]] = {
    "SOUP_HTML_FIELDS": ["html"],
    "SOUP_MARKDOWN_FIELDS": ["md", "md_tag"],
    "SOUP_TEXT_FIELDS": ["text", "text_tag"],
}


def _meta(name: str) -> dict[str, bool]:
    fmt = FORMATS[name]
    return {fmt: True} if fmt else {}


ScrapyFieldsItem = type(scrapy.Item)(
    "ScrapyFieldsItem",
    (scrapy.Item,),
    {"__module__": __name__, **{n: scrapy.Field(_meta(n)) for n in FIELDS}},
)

DataclassFieldsItem = dataclasses.make_dataclass(
    "DataclassFieldsItem",
    [(n, Any, dataclasses.field(default=None, metadata=_meta(n))) for n in FIELDS],
)

AttrsFieldsItem = attrs.make_class(
    "AttrsFieldsItem", {n: attrs.field(default=None, metadata=_meta(n)) for n in FIELDS}
)

PydanticFieldsItem = pydantic.create_model(
    "PydanticFieldsItem",
    __config__=pydantic.ConfigDict(arbitrary_types_allowed=True),
    **{
        n: (Any, pydantic.Field(default=None, json_schema_extra=_meta(n) or None))
        for n in FIELDS
    },
)

#: The item kinds of tests/items_spiders.py, in its order, with these fields.
ITEM_CLASSES: dict[str, Any] = dict(
    zip(
        items_spiders.ITEM_CLASSES,
        [
            dict,
            ScrapyFieldsItem,
            DataclassFieldsItem,
            AttrsFieldsItem,
            PydanticFieldsItem,
        ],
        strict=True,
    )
)


def article_of(soup: Any) -> Any:
    """The part of a page the items hold: its ``<article>``, else its body."""
    return soup.find("article") or soup.body


class FieldsSpider(scrapy.Spider):
    """One item of every kind per page, its article in every format."""

    name = "fields"

    def __init__(self, urls: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls

    def parse(self, response: Any) -> Any:
        tag = article_of(response.soup)
        html = str(tag)
        for kind, cls in ITEM_CLASSES.items():
            values = {
                "kind": kind,
                "page": response.url,
                "html": html,
                "md": html,
                "md_tag": tag,
                "text": html,
                "text_tag": tag,
            }
            yield cls(**values)


class FailingConvertSpider(scrapy.Spider):
    """Markdown fields whose conversion is made to fail on markup holding "FAIL"."""

    name = "failing_convert"

    def __init__(self, urls: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls
        from scrapy_soup._scrapy import _item_path as pipelines

        original = pipelines.convert  # type: ignore[attr-defined]

        def failing_convert(soup: Any, fmt: str) -> str:
            if "FAIL" in str(soup):
                raise RuntimeError("injected failure")
            return str(original(soup, fmt))

        pipelines.convert = failing_convert  # type: ignore[attr-defined]

    def parse(self, response: Any) -> Any:
        from scrapy_soup import Soup

        yield {
            "page": response.url,
            "md": "<p>FAIL <script>x()</script> <a href='rel'>a</a></p>",
            "md_tag": Soup("<p>FAIL <b>b</b></p>", "fragment").p,
            "text": "<p>fine <b>text</b></p>",
        }
