"""``soup.builder``: what bs4 users read from a tree builder, per mode.

bs4 keeps the tree builder that made a soup as ``soup.builder``; code reads
its settings (``soup.builder.is_xml``, ``string_containers``...) to know how
the soup was parsed.  Here the parse is lxml's, set up in `_parse`, so the
builder is a read-only description of one of the modes with bs4's
values for the builder that mode stands for: lxml's HTML builder,
``html.parser`` (the fragment mode's model) or lxml's XML builder.  It
cannot build anything (``feed``, ``prepare_markup`` are not there).

This module also has bs4's check for XML parsed as HTML.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING

from ._attrs import CDATA_LIST_ATTRIBUTES
from ._parse import XMLParsedAsHTMLWarning
from ._strings import STRING_CONTAINERS
from ._tables import PRESERVE_WHITESPACE_TAGS, VOID_ELEMENTS
from ._warn import warn_user

if TYPE_CHECKING:
    from ._strings import NavigableString


class TreeBuilderInfo:
    """The settings of the tree builder a soup stands for (bs4's ``soup.builder``).

    >>> from scrapy_soup import Soup
    >>> Soup("<p>", "xml").builder.is_xml
    True
    >>> Soup("<p>").builder.NAME
    'lxml'
    """

    __slots__ = (
        "NAME",
        "cdata_list_attributes",
        "empty_element_tags",
        "features",
        "is_xml",
        "preserve_whitespace_tags",
        "store_line_numbers",
        "string_containers",
    )

    #: bs4's builders can all be pickled; so can this.
    picklable = True

    def __init__(
        self,
        name: str,
        features: list[str],
        is_xml: bool,
        store_line_numbers: bool,
    ) -> None:
        self.NAME = name
        self.features = features
        self.is_xml = is_xml
        #: The line of each tag is lxml's ``sourceline`` in every mode; bs4
        #: records lines (and columns) with ``html.parser`` only.
        self.store_line_numbers = store_line_numbers
        self.string_containers: Mapping[str, type[NavigableString]] = (
            {} if is_xml else STRING_CONTAINERS
        )
        self.preserve_whitespace_tags: frozenset[str] = (
            frozenset() if is_xml else PRESERVE_WHITESPACE_TAGS
        )
        self.cdata_list_attributes: Mapping[str, frozenset[str]] = (
            {} if is_xml else CDATA_LIST_ATTRIBUTES
        )
        self.empty_element_tags: frozenset[str] | None = (
            None if is_xml else VOID_ELEMENTS
        )

    def __repr__(self) -> str:
        return f"<TreeBuilderInfo {self.NAME!r}>"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (builder_for, (MODE_OF_BUILDER[self.NAME],))

    def can_be_empty_element(self, tag_name: str) -> bool:
        """Whether a tag of this name prints as ``<tag/>`` when empty (bs4's)."""
        return self.empty_element_tags is None or tag_name in self.empty_element_tags


_BUILDERS = {
    "html": TreeBuilderInfo(
        "lxml", ["lxml-html", "lxml", "html", "fast", "permissive"], False, False
    ),
    "fragment": TreeBuilderInfo(
        "html.parser", ["html.parser", "html", "strict"], False, True
    ),
    "xml": TreeBuilderInfo(
        "lxml-xml", ["lxml-xml", "lxml", "xml", "fast", "permissive"], True, False
    ),
    # bs4's HTML5TreeBuilder.  It records line numbers; here a tag's
    # sourceline is None (the tree is not libxml2's).  Its string containers
    # are listed, as bs4 lists them, though html5lib's tree builder never
    # uses them (docs/migrating.md).
    "html5": TreeBuilderInfo(
        "html5lib", ["html5lib", "permissive", "html5", "html"], False, True
    ),
}
MODE_OF_BUILDER = {builder.NAME: mode for mode, builder in _BUILDERS.items()}


def builder_for(mode: str) -> TreeBuilderInfo:
    """The builder description of a soup mode ("html", "fragment", "xml", "html5")."""
    return _BUILDERS[mode]


#: bs4's ``DetectsXMLParsedAsHTML.LOOKS_LIKE_HTML``: ``</html``, in effect
#: (one character between ``<`` and ``html``).
_LOOKS_LIKE_HTML = re.compile("<[^ +]html", re.I)
_LOOKS_LIKE_HTML_B = re.compile(b"<[^ +]html", re.I)
#: html.parser's view: an XML declaration first, then the first start tag.
_DECLARATION_THEN_TAG = re.compile(r"\s*<\?xml .*?<([a-zA-Z][^\s/>]*)", re.S)
_DECLARATION_THEN_TAG_B = re.compile(rb"\s*<\?xml .*?<([a-zA-Z][^\s/>]*)", re.S)


#: Set while the library parses markup a site sent (`site_markup`).
_SITE_MARKUP: ContextVar[bool] = ContextVar("scrapy_soup_site_markup", default=False)


@contextlib.contextmanager
def site_markup() -> Iterator[None]:
    """Soups made inside parse markup the user did not hand over: no warning.

    An item field or a document given to `absolutize_links` holding an SVG
    or XHTML with its XML declaration is what the site sent, and the user
    chose no parser for it, so bs4's `XMLParsedAsHTMLWarning` would be
    noise.  A context variable, where ``warnings.catch_warnings`` would
    change the process's filters under other threads.
    """
    token = _SITE_MARKUP.set(True)
    try:
        yield
    finally:
        _SITE_MARKUP.reset(token)


def warn_if_xml(markup: str | bytes, mode: str) -> None:
    """Give `XMLParsedAsHTMLWarning` for markup about to be parsed as HTML.

    bs4's tests, per builder.  lxml's ("html" mode): the markup starts with
    an XML declaration and its first 500 characters hold no ``</html``.
    html.parser's ("fragment" mode): an XML declaration comes first and
    the first tag after it is not ``<html>``.  XHTML passes both.
    """
    if _SITE_MARKUP.get():
        return
    if mode == "fragment":
        if isinstance(markup, bytes):
            found = _DECLARATION_THEN_TAG_B.match(markup)
            looks_like_xml = found is not None and found[1].lower() != b"html"
        else:
            match = _DECLARATION_THEN_TAG.match(markup)
            looks_like_xml = match is not None and match[1].lower() != "html"
    elif isinstance(markup, bytes):
        looks_like_xml = markup.startswith(b"<?xml") and not _LOOKS_LIKE_HTML_B.search(
            markup[:500]
        )
    else:
        looks_like_xml = markup.startswith("<?xml") and not _LOOKS_LIKE_HTML.search(
            markup[:500]
        )
    if looks_like_xml:
        warn_user(XMLParsedAsHTMLWarning.MESSAGE, XMLParsedAsHTMLWarning)
