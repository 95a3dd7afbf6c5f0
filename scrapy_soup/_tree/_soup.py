"""The document node, `Soup` (alias `BeautifulSoup`): building a soup.

From text or bytes (parsed here, with bs4's encoding detection), from a
file, or from a tree already parsed (a Scrapy response's parsel tree: no
second parse).  The document level is `_document.DocumentNode`'s.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any

from lxml import etree

from . import _deep
from ._builder import warn_if_xml
from ._classes import classes
from ._document import DocumentNode
from ._encodings import decode_excluding
from ._node import PageElement
from ._parse import (
    ATTRIBUTE_REDEFINED,
    FEATURES,
    REPORTED_ERRORS,
    RESOURCE_LIMIT,
    UNDECLARED_ENTITY,
    TruncatedDocumentWarning,
    drop_repeated_attributes,
    fragment_container,
    html_parser,
    mode_for,
    replace_surrogate_references,
    utf8,
    xml_parser,
)
from ._parse_only import strain
from ._strings import (
    NavigableString,
)
from ._xml_entities import expand_internal_entities, replace_entity_references

if TYPE_CHECKING:
    from typing import TypeAlias

    import parsel

    from ._strainer import ElementFilter

    #: What a soup is built from: text, bytes (the encoding detected as bs4
    #: does), a file, or a tree already parsed (no second parse).
    Markup: TypeAlias = (
        str
        | bytes
        | IO[str]
        | IO[bytes]
        | etree._Element
        | etree._ElementTree
        | parsel.Selector
    )


class Soup(DocumentNode):
    """A parsed document: bs4's ``BeautifulSoup``, as a view over lxml.

    >>> soup = Soup("<p>foo bar</p><p>baz<p>yet another graf</p>")
    >>> soup.body.contents
    [<p>foo bar</p>, <p>baz</p>, <p>yet another graf</p>]
    >>> Soup("<b class='boldest'>x</b>").b["class"]
    ['boldest']
    """

    __slots__ = ()

    def __init__(
        self,
        markup: Markup = "",
        features: str | Sequence[str] | None = None,
        builder: object = None,
        parse_only: ElementFilter | None = None,
        from_encoding: str | None = None,
        exclude_encodings: Iterable[str] | None = None,
        element_classes: dict[type[PageElement], type[PageElement]] | None = None,
        *,
        base_url: str | Callable[[], str | None] | None = None,
        **kwargs: Any,
    ) -> None:
        if builder is not None and features is None and isinstance(builder, str):
            features = builder
        if parse_only is not None and parse_only.excludes_everything:
            warnings.warn(
                f"The given value for parse_only will exclude everything: {parse_only}",
                UserWarning,
                stacklevel=3,  # bs4's (it points at the caller's caller)
            )
        # bs4 hands other keywords to its builder; lxml's takes huge_tree,
        # which is how libxml2 is always run here.
        kwargs.pop("huge_tree", None)
        if kwargs:
            raise TypeError(
                f"__init__() got unexpected keyword argument(s): {', '.join(kwargs)}"
            )
        # The usual spellings in one look-up (a first .soup is ~10 us in all).
        mode = FEATURES.get(features) if type(features) is str else None
        self._mode = mode if mode is not None else mode_for(features)
        self.is_xml = self._mode == "xml"
        self.hidden = True
        self._decomposed = False
        self._base_url: str | Callable[[], str | None] | None = base_url
        self.original_encoding: str | None = None
        self._truncated: bool | None = False
        self.declared_html_encoding: str | None = None
        self._pending = None
        self._top_doctype = None
        self._top_doctype_index = 0
        self._top_trailer = []
        self._kept = {}
        self._template_check = None
        self._top_leader = []
        self._verbatim = set()
        self._segmented = False
        self._root = None
        self._el = None
        self._doc = self
        if not isinstance(markup, (str, bytes)) and hasattr(markup, "read"):
            markup = markup.read()
        if self._mode != "xml" and isinstance(markup, (str, bytes)):
            warn_if_xml(markup, self._mode)
        if exclude_encodings and isinstance(markup, bytes) and not self.is_xml:
            text, encoding = decode_excluding(markup, from_encoding, exclude_encodings)
            self._parse(text, None)
            self.original_encoding = encoding
        elif isinstance(markup, (str, bytes)):
            self._parse(markup, from_encoding)
        else:
            self._adopt(markup)
        if parse_only is not None:
            strain(self, parse_only)

    # -- building ---------------------------------------------------------------
    def _parse(self, markup: str | bytes, from_encoding: str | None) -> None:
        if isinstance(markup, bytes):
            if self.is_xml:
                self._parse_xml_bytes(markup, from_encoding)
                return
            from w3lib.encoding import html_to_unicode

            header = f"text/html; charset={from_encoding}" if from_encoding else None
            encoding, markup = html_to_unicode(header, markup)
            self.original_encoding = encoding
        elif markup and markup[0] == "\N{BYTE ORDER MARK}" and self._mode != "fragment":
            # libxml2 and bs4's lxml builder drop a leading BOM; bs4's
            # html.parser (the fragment mode's model) keeps it as text.
            markup = markup[1:]
        markup, data = utf8(markup)
        if self.is_xml:
            # Text is decoded already: its declaration's encoding (say
            # euc-jp) no longer applies, as bs4 ignores it for a str.
            self._parse_xml_bytes(data, "utf-8", forced=True)
            self.original_encoding = None
            return
        if self._mode == "fragment":
            self._set_container(fragment_container(data, self._fragment_tree))
            return
        parser = html_parser("utf-8")
        root: Any = None
        if data:
            parser.feed(data)
            try:
                root = parser.close()
            except etree.XMLSyntaxError:
                root = None
        if root is not None:
            self._keep_deep(root, data, b"", "utf-8")
        self._set_root(root, markup, parsed_here=True)
        if root is None and markup.strip():
            self._top_trailer = self._rootless_nodes(markup)

    def _fragment_tree(self, document: bytes) -> Any:
        """The element holding the top-level nodes of a fragment in ``document``.

        ``document``: `_parse.FRAGMENT_START` and the fragment, parsed after
        an open ``<html><body>`` as bs4's html.parser reads markup: in place,
        nothing moved into a ``<head>``.
        """
        # One read of the bytes: libxml2's push parser (``feed``, ``close``)
        # took 5% longer for the same tree.
        root = etree.fromstring(document, html_parser("utf-8"))
        self._keep_deep(root, document, b"", "utf-8")
        body = root.find("body")
        return body if body is not None else root

    def _keep_deep(
        self, root: Any, data: bytes, prefix: bytes, encoding: str | None
    ) -> bool:
        """Rebuild a tree libxml2 stopped at its depth limit (see `_deep`).

        ``encoding``: the one the native parse was given.  True if it was
        stopped there.
        """
        if not _deep.depth_capped(root):
            return False
        chunks = [prefix, data] if prefix else [data]
        make = xml_parser if self.is_xml else html_parser
        problems = _deep.rebuild(root, chunks, lambda target: make(encoding, target))
        if problems:
            self._truncate(problems)
        return True

    def _parse_xml_bytes(
        self, data: bytes, encoding: str | None, forced: bool = False
    ) -> None:
        data = replace_surrogate_references(data)
        problems: list[str] = []
        given = encoding if forced else None  # what the parsers are told
        if b"<!ENTITY" in data:
            data, problems = expand_internal_entities(data, xml_parser(given))
        parser = xml_parser(given)
        root: Any = None
        rebuilt = False
        if data.strip():
            try:
                root = etree.fromstring(data, parser)
            except etree.XMLSyntaxError:
                root = None
        if root is not None:
            info = root.getroottree().docinfo
            self.original_encoding = (info.encoding or encoding or "utf-8").lower()
            # The error log says whether the tree needs either repair, unless
            # libxml2 stopped reporting (it keeps the first 100 errors).
            log = parser.error_log
            full = len(log) >= REPORTED_ERRORS
            errors = {e.type for e in log}
            if (full or RESOURCE_LIMIT in errors) and self._keep_deep(
                root, data, b"", given
            ):
                rebuilt = True
            if full or ATTRIBUTE_REDEFINED in errors:
                drop_repeated_attributes(root)
            # Reference nodes exist only for undeclared or declared entities.
            if full or UNDECLARED_ENTITY in errors or b"<!ENTITY" in data:
                replace_entity_references(root)
        limits = [e for e in parser.error_log if e.type == RESOURCE_LIMIT]
        if rebuilt:
            limits = [e for e in limits if "depth" not in e.message]
        problems += [
            f"libxml2 stopped at line {e.line}: {e.message.strip()}" for e in limits
        ]
        self._set_root(root, None, parsed_here=True)
        if root is None and data.strip():
            self._top_trailer = self._rootless_nodes(data, xml=True, encoding=given)
        if problems:
            self._truncate(problems)

    @property
    def truncated(self) -> bool:
        """Whether the parser left part of the document out.

        A `TruncatedDocumentWarning` says what, once.  For a tree parsed
        here it is known at once; for a tree adopted from elsewhere (a Scrapy
        response's) it is worked out when first read, which only costs a walk
        down the last children: the Scrapy layer reads it to count
        ``soup/documents_truncated``.  bs4 has no such attribute.
        """
        known = self._truncated
        if known is None:
            known = self._truncated = False
            root = self._root if self._el is None else self._el
            if root is not None and _deep.depth_capped(root.getroottree().getroot()):
                self._truncate(
                    [
                        "the tree stops at the parser's depth limit "
                        f"({_deep.MAX_DEPTH} levels, {_deep.DEFAULT_MAX_DEPTH} without "
                        "huge_tree): what was deeper and after it "
                        "is not in it (parse the text with Soup() to keep it)"
                    ],
                    stacklevel=3,
                )
                known = True
        return known

    def _truncate(self, problems: list[str], stacklevel: int = 5) -> None:
        """Mark the soup truncated and say why (`TruncatedDocumentWarning`)."""
        self._truncated = True
        warnings.warn(
            "part of the document was left out: " + "; ".join(problems),
            TruncatedDocumentWarning,
            stacklevel=stacklevel,
        )

    def _adopt(self, markup: Any) -> None:
        """Wrap an existing tree: a parsel Selector, an lxml element or tree."""
        source: str | None = None
        root = getattr(markup, "root", None)
        if root is not None and hasattr(markup, "xpath") and hasattr(markup, "type"):
            # A parsel (or Scrapy) Selector: reuse its tree, read its source.
            if markup.type == "xml" and self._mode == "html":
                self._mode, self.is_xml = "xml", True
            text = getattr(markup, "_text", None)
            source = text if isinstance(text, str) else None
            markup = root
        if isinstance(markup, etree._ElementTree):
            markup = markup.getroot()
        if not isinstance(markup, etree._Element):
            # bs4's message first (code matches on it), then what else works here.
            raise TypeError(
                f"Incoming markup is of an invalid type: {markup!r}. Markup must "
                "be a string, a bytestring, or an open filehandle. (An lxml "
                "element or tree, or a parsel Selector, is wrapped as it is.)"
            )
        self._truncated = None  # known when first read (`truncated`)
        if self._mode == "fragment":
            self._set_container(markup)
            return
        if markup.getparent() is not None:
            # A subtree: the soup lists just this element.
            self._root = markup
            return
        self._set_root(markup, source, parsed_here=False)

    def __del__(self) -> None:
        # The wrappers go deepest first (they were made top-down, mostly in
        # document order): lxml frees an element's proxy by walking up to
        # the nearest ancestor that still has one, so freeing them top-down
        # (the collector's order) cost O(depth) each, minutes for a
        # 100,000-deep document after a find_all().
        kept = getattr(self, "_kept", None)
        while kept:
            kept.popitem()

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other)

    def __hash__(self) -> int:
        return id(self)

    def __copy__(self) -> Soup:
        clone = type(self)(self.decode(), "xml" if self.is_xml else self._mode)
        # bs4 copies what the parse found out about the bytes, too.
        clone.original_encoding = self.original_encoding
        clone.declared_html_encoding = self.declared_html_encoding
        return clone

    def __getstate__(self) -> dict[str, Any]:
        return {
            "markup": self.decode(),
            "features": self._mode,
            "base_url": self.base_url,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        Soup.__init__(
            self, state["markup"], state["features"], base_url=state["base_url"]
        )

    def __reduce__(self) -> Any:
        return (
            _rebuild,
            (self.decode(eventual_encoding=None), self._mode, self.base_url),
        )

    @property
    def base_url(self) -> str | None:
        """The URL relative links resolve against (None if not known).

        ``Soup(..., base_url=f)`` with a function defers the work of finding
        it (the Scrapy layer's ``<base href>`` lookup walks the whole tree)
        to the first read.
        """
        value = self._base_url
        if callable(value):
            value = self._base_url = value()
        return value

    @base_url.setter
    def base_url(self, value: str | None) -> None:
        self._base_url = value

    def decompose(self) -> None:
        """Destroy the document at once (bs4's ``decompose`` of the soup).

        The soup is left empty and marked decomposed.  It lets go of its
        tree and of the wrappers it kept for it (`_kept`), deepest first, so
        their memory is freed now, not later by the cyclic garbage
        collector.  Tags and strings someone still holds keep their part of
        the tree.
        """
        kept = self._kept
        while kept:
            kept.popitem()
        self.reset()
        self._decomposed = True

    def reset(self) -> None:
        """Empty the document (bs4's ``reset``)."""
        # The wrappers of the old tree go with it (``__init__`` empties _kept).
        Soup.__init__(self, "", self._mode, base_url=self.base_url)

    def new_string(
        self, s: str, subclass: type[NavigableString] | None = None
    ) -> NavigableString:
        """A new detached string, of ``subclass`` if given (bs4's ``new_string``)."""
        cls = subclass or NavigableString
        return cls(s)


def _rebuild(markup: str, mode: str, base_url: str | None) -> Soup:
    return Soup(markup, mode, base_url=base_url)


classes.Soup = Soup
BeautifulSoup = Soup
