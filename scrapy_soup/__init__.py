"""scrapy_soup: Beautiful Soup's API as a view over the lxml tree Scrapy parsed.

The core (tree, search, output, cleaning, links) imports lxml, cssselect and
w3lib only; the Scrapy components are loaded on first use (PEP 562), so
``import scrapy_soup`` never imports Scrapy.
"""

from __future__ import annotations

from typing import Any

from ._tree._attrs import AttributeValueList
from ._tree._elements import (
    CData,
    Comment,
    Declaration,
    Doctype,
    NavigableString,
    PageElement,
    PreformattedString,
    ProcessingInstruction,
    RubyParenthesisString,
    RubyTextString,
    Script,
    Stylesheet,
    Tag,
    TemplateString,
    XMLProcessingInstruction,
)
from ._tree._formatter import Formatter, HTMLFormatter, XMLFormatter
from ._tree._soup import (
    BeautifulSoup,
    FeatureNotFound,
    MarkupResemblesLocatorWarning,
    ParserRejectedMarkup,
    Soup,
)

#: Scrapy components, imported on first access so the core stays Scrapy-free.
_SCRAPY_NAMES = {
    "Addon": "scrapy_soup._scrapy.addon",
    "SoupDownloaderMiddleware": "scrapy_soup._scrapy.middlewares",
    "SoupSpiderMiddleware": "scrapy_soup._scrapy.middlewares",
    "SoupHtmlResponse": "scrapy_soup._scrapy.responses",
    "SoupXmlResponse": "scrapy_soup._scrapy.responses",
    "soup_of": "scrapy_soup._scrapy.responses",
    "AbsoluteLinksPipeline": "scrapy_soup._scrapy.pipelines",
    "CleanHtmlPipeline": "scrapy_soup._scrapy.pipelines",
}

__all__ = sorted(
    [
        "AttributeValueList",
        "BeautifulSoup",
        "CData",
        "Comment",
        "Declaration",
        "Doctype",
        "FeatureNotFound",
        "Formatter",
        "HTMLFormatter",
        "MarkupResemblesLocatorWarning",
        "NavigableString",
        "PageElement",
        "ParserRejectedMarkup",
        "PreformattedString",
        "ProcessingInstruction",
        "RubyParenthesisString",
        "RubyTextString",
        "Script",
        "Soup",
        "Stylesheet",
        "Tag",
        "TemplateString",
        "XMLFormatter",
        "XMLProcessingInstruction",
        *_SCRAPY_NAMES,
    ]
)


def __getattr__(name: str) -> Any:
    module = _SCRAPY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'scrapy_soup' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
