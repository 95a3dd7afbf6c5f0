"""Beautiful Soup 4's API as a view over the lxml tree Scrapy already parsed.

With the add-on enabled, every Scrapy HTML or XML response has a lazy
``response.soup`` with bs4's API (``find_all``, ``select``, ``tag["href"]``,
``new_tag``, ``prettify``, ``get_text``, ...) over the elements parsel already
built: no second parse. Item pipelines make the links in HTML fields
absolute and clean them before export. Enable it in a project's
``settings.py``::

    ADDONS = {"scrapy_soup.Addon": 0}

The soup also works on its own, like bs4:

>>> from scrapy_soup import BeautifulSoup
>>> soup = BeautifulSoup('<p>Hi <a href="/x">there</a></p>')
>>> soup.a["href"], soup.p.get_text()
('/x', 'Hi there')

The soup, `clean`, `absolutize_links`, `to_text` and `to_markdown` need lxml,
cssselect and w3lib only.
The Scrapy components (`Addon`, `SoupDownloaderMiddleware`,
`SoupSpiderMiddleware`, `AbsoluteLinksPipeline`, `CleanHtmlPipeline`,
`SoupHtmlResponse`, `SoupXmlResponse`, `SoupResponse`, `soup_of`,
`soup_response`) are imported on first access (PEP 562), so
``import scrapy_soup`` does not import Scrapy. ``dir(scrapy_soup)`` lists
the public names (``__all__``). The manual is the documentation in
``docs/``: getting started, migrating from Beautiful Soup, the API,
settings and stats references.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: The package version (the one place it is written; pyproject reads it).
__version__ = "0.1.0.dev0"

from ._tree._attrs import (
    AttributeValueList,
    AttributeValueWithCharsetSubstitution,
    CharsetMetaAttributeValue,
    ContentMetaAttributeValue,
)
from ._tree._css import (
    SelectorError,
    SelectorSyntaxError,
)
from ._tree._formatter import (
    Formatter,
    HTMLFormatter,
    XMLFormatter,
)
from ._tree._node import PageElement
from ._tree._parse import (
    FeatureNotFound,
    MarkupResemblesLocatorWarning,
    ParserRejectedMarkup,
    TruncatedDocumentWarning,
    XMLParsedAsHTMLWarning,
)
from ._tree._select import CSS
from ._tree._soup import BeautifulSoup, Soup
from ._tree._strainer import (
    AttributeResemblesVariableWarning,
    ElementFilter,
    ResultSet,
    SoupStrainer,
    UnusualUsageWarning,
)
from ._tree._strings import (
    CData,
    Comment,
    Declaration,
    Doctype,
    NavigableString,
    PreformattedString,
    ProcessingInstruction,
    RubyParenthesisString,
    RubyTextString,
    Script,
    Stylesheet,
    TemplateString,
    XMLProcessingInstruction,
)
from ._tree._tag import Tag
from .markup import (
    EPUB_POLICY,
    POLICIES,
    STRICT_POLICY,
    CleanError,
    CleanPolicy,
    CleanStats,
    Metadata,
    absolutize_element,
    absolutize_links,
    clean,
    clean_element,
    get_policy,
    main_content,
    metadata,
    to_markdown,
    to_text,
)

if TYPE_CHECKING:
    from ._scrapy.addon import Addon
    from ._scrapy.middlewares import SoupDownloaderMiddleware, SoupSpiderMiddleware
    from ._scrapy.pipelines import AbsoluteLinksPipeline, CleanHtmlPipeline
    from ._scrapy.responses import (
        SoupHtmlResponse,
        SoupResponse,
        SoupXmlResponse,
        soup_of,
        soup_response,
    )

#: Scrapy components, imported on first access so the core stays Scrapy-free.
_SCRAPY_NAMES = {
    "AbsoluteLinksPipeline": "scrapy_soup._scrapy.pipelines",
    "Addon": "scrapy_soup._scrapy.addon",
    "CleanHtmlPipeline": "scrapy_soup._scrapy.pipelines",
    "SoupDownloaderMiddleware": "scrapy_soup._scrapy.middlewares",
    "SoupHtmlResponse": "scrapy_soup._scrapy.responses",
    "SoupResponse": "scrapy_soup._scrapy.responses",
    "SoupSpiderMiddleware": "scrapy_soup._scrapy.middlewares",
    "SoupXmlResponse": "scrapy_soup._scrapy.responses",
    "soup_of": "scrapy_soup._scrapy.responses",
    "soup_response": "scrapy_soup._scrapy.responses",
}

__all__ = [
    "CSS",
    "EPUB_POLICY",
    "POLICIES",
    "STRICT_POLICY",
    "AbsoluteLinksPipeline",
    "Addon",
    "AttributeResemblesVariableWarning",
    "AttributeValueList",
    "AttributeValueWithCharsetSubstitution",
    "BeautifulSoup",
    "CData",
    "CharsetMetaAttributeValue",
    "CleanError",
    "CleanHtmlPipeline",
    "CleanPolicy",
    "CleanStats",
    "Comment",
    "ContentMetaAttributeValue",
    "Declaration",
    "Doctype",
    "ElementFilter",
    "FeatureNotFound",
    "Formatter",
    "HTMLFormatter",
    "MarkupResemblesLocatorWarning",
    "Metadata",
    "NavigableString",
    "PageElement",
    "ParserRejectedMarkup",
    "PreformattedString",
    "ProcessingInstruction",
    "ResultSet",
    "RubyParenthesisString",
    "RubyTextString",
    "Script",
    "SelectorError",
    "SelectorSyntaxError",
    "Soup",
    "SoupDownloaderMiddleware",
    "SoupHtmlResponse",
    "SoupResponse",
    "SoupSpiderMiddleware",
    "SoupStrainer",
    "SoupXmlResponse",
    "Stylesheet",
    "Tag",
    "TemplateString",
    "TruncatedDocumentWarning",
    "UnusualUsageWarning",
    "XMLFormatter",
    "XMLParsedAsHTMLWarning",
    "XMLProcessingInstruction",
    "absolutize_element",
    "absolutize_links",
    "clean",
    "clean_element",
    "get_policy",
    "main_content",
    "metadata",
    "soup_of",
    "soup_response",
    "to_markdown",
    "to_text",
]


def __dir__() -> list[str]:
    # The public names (the lazily imported Scrapy ones included) and the
    # module's dunders; not what the module imports for itself (typing
    # helpers, submodules).
    dunders = (name for name in globals() if name[:2] == name[-2:] == "__")
    return sorted({*__all__, *dunders})


# Hidden from type checkers, which see the Scrapy names' imports above: a
# visible module __getattr__ would make every misspelled name type-check.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        module = _SCRAPY_NAMES.get(name)
        if module is None:
            raise AttributeError(f"module 'scrapy_soup' has no attribute {name!r}")
        import importlib

        return getattr(importlib.import_module(module), name)
