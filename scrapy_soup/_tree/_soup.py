"""The document node, `Soup` (alias `BeautifulSoup`): parsing and the top level.

lxml keeps the doctype in ``docinfo`` and comments around the root as the
root's siblings; bs4 lists all of them as the document's children.  The
view rebuilds bs4's list, emulating what lxml's tree loses (see DESIGN.md):
libxml2 invents an HTML 4.0 doctype for a page without one, and drops the
whitespace after ``</html>`` that bs4 keeps.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, ClassVar

from lxml import etree

from . import _deep
from ._elements import (
    Doctype,
    NavigableString,
    PageElement,
    Tag,
    iter_descendants,
    normalize_text,
    remember,
    wrap,
)
from ._encodings import decode_excluding
from ._parse_only import strain
from ._strainer import UnusualUsageWarning
from ._xml_entities import expand_internal_entities, replace_entity_references

if TYPE_CHECKING:
    from typing import TypeAlias

    import parsel

    from ._attrs import AttributeValueList, AttrsView
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


class FeatureNotFound(ValueError):
    """No tree builder for the requested features (bs4's exception of that name)."""


class ParserRejectedMarkup(Exception):
    """The parser could not make sense of the markup (bs4's exception of that name)."""


class MarkupResemblesLocatorWarning(UnusualUsageWarning):
    """The markup looks like a file name or URL (bs4's warning of that name)."""


class XMLParsedAsHTMLWarning(UnusualUsageWarning):
    """bs4's warning for XML parsed as HTML: never given here (README).

    Defined so that code filtering bs4's warnings runs unchanged.
    """

    MESSAGE: str = (
        "It looks like you're using an HTML parser to parse an XML document.\n\n"
        "Assuming this really is an XML document, what you're doing might work, "
        "but you should know that using an XML parser will be more reliable. To "
        'parse this document as XML, pass the features "xml" to the Soup (or '
        "BeautifulSoup) constructor.\n\nIf you want or need to use an HTML "
        "parser on this document, you can make this warning go away by "
        "filtering it. To do that, run this code before calling the "
        "constructor:\n\n"
        "    from scrapy_soup import XMLParsedAsHTMLWarning\n"
        "    import warnings\n\n"
        '    warnings.filterwarnings("ignore", category=XMLParsedAsHTMLWarning)\n'
    )


class TruncatedDocumentWarning(UserWarning):
    """The parser left part of the document out: ``soup.truncated`` is True.

    The soup keeps what it can (see the README's hostile input notes); this
    says when it could not, and why.  bs4 has no such warning.
    """


#: bs4's feature names, and ours, to the three modes.
FEATURES: dict[str, str] = {
    "html": "html",
    "lxml": "html",
    "lxml-html": "html",
    "fast": "html",
    "permissive": "html",
    "fragment": "fragment",
    "html.parser": "fragment",
    "xml": "xml",
    "lxml-xml": "xml",
}

#: The doctype libxml2 adds to an HTML document that has none.
_LIBXML2_DEFAULT_DOCTYPE = (
    "html",
    "-//W3C//DTD HTML 4.0 Transitional//EN",
    "http://www.w3.org/TR/REC-html40/loose.dtd",
)
_DOCTYPE_IN_SOURCE = re.compile(r"<!doctype", re.I)
_FIRST_TAG = re.compile(r"<[a-zA-Z]")
_END_TAG = re.compile(r"</")  # any "</": "</>" and "</ >" count too
_HTML_END = re.compile(r"</html\s*>", re.I)
_LEADING_NODE = re.compile(r"<!--.*?-->|<\?.*?>", re.S)
_TRAILER_WINDOW = 65536
_SURROGATE = re.compile("[\ud800-\udfff]")
_CHARACTER_REFERENCE = re.compile(rb"&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));")
_TRAILER_TOKEN = re.compile(r"([\x20\x0a\x09\x0c\x0d]+)|(<!--.*?-->)", re.S)


def _replace_surrogates(text: str) -> str:
    """``text`` with lone surrogates (unencodable) replaced by U+FFFD."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def _replace_surrogate_references(data: bytes) -> bytes:
    """``data`` with character references to surrogates written as U+FFFD.

    libxml2's recovering XML parser keeps ``&#xD800;`` as bytes that are not
    UTF-8, and every later read of that text raises; bs4 (through the same
    parser's SAX events) sees U+FFFD, as a decoder would.
    """
    if b"&#" not in data:
        return data

    def replace(found: re.Match[bytes]) -> bytes:
        hex_digits, digits = found.groups()
        code = int(hex_digits, 16) if hex_digits else int(digits)
        return b"&#xFFFD;" if 0xD800 <= code <= 0xDFFF else found[0]

    return _CHARACTER_REFERENCE.sub(replace, data)


_ATTRIBUTE_REDEFINED = etree.ErrorTypes.ERR_ATTRIBUTE_REDEFINED
_UNDECLARED_ENTITY = etree.ErrorTypes.ERR_UNDECLARED_ENTITY
#: libxml2 stopped parsing: entity amplification, or depth. libxml2 2.14
#: reports it as 114; lxml names it from 6.1 on (6.0, the floor, does not).
_RESOURCE_LIMIT = getattr(etree.ErrorTypes, "ERR_RESOURCE_LIMIT", 114)
_REPORTED_ERRORS = 100


def _drop_repeated_attributes(root: Any) -> None:
    """Keep the last of an element's attributes of one name, as bs4 does.

    libxml2's recovering XML parser keeps every repeat (lxml then reads the
    first value for all of them, and the output is not well-formed); bs4's
    builder gets them as a dict, where the last one wins.
    """
    for el in root.iter():
        keys = el.keys()
        if len(keys) == len(set(keys)):
            continue
        # Counted once: ``keys.count`` per name was quadratic in a tag's
        # attributes; each ``del`` removes the first of that name.
        for name, count in Counter(keys).items():
            for _ in range(count - 1):
                del el.attrib[name]


def _last_html_end(source: str, window: int) -> re.Match[str] | None:
    """The last ``</html>`` (any case) at or after ``window`` in ``source``.

    ``str.rfind`` finds the usual spellings from the end in C; the regex
    then only reads what follows (a later ``</Html >`` is still found) and
    reads the whole window only when neither spelling is there.
    """
    lower = source.rfind("</html", window)
    start = max(lower, source.rfind("</HTML", max(window, lower + 1)))
    found = None
    for found in _HTML_END.finditer(source, max(start, window)):  # noqa: B007
        pass
    if found is None and start > window:
        for found in _HTML_END.finditer(source, window, start):  # noqa: B007
            pass
    return found


def _doctype_name(info: Any) -> str:
    """The name a doctype declares (``docinfo.root_name`` is the root element's)."""
    dtd = info.internalDTD
    name = dtd.name if dtd is not None else None
    return name or info.root_name or ""


def _mode_for(features: Any) -> str:
    if features is None:
        return "html"
    names = [features] if isinstance(features, str) else list(features)
    modes = {FEATURES.get(str(n).lower()) for n in names}
    if None in modes or len(modes) != 1:
        raise FeatureNotFound(
            "Couldn't find a tree builder with the features you requested: "
            f"{','.join(map(str, names))}. Do you need to install a parser library?"
        )
    return modes.pop()  # type: ignore[return-value]


def html_parser(encoding: str | None = None, target: Any = None) -> etree.HTMLParser:
    """The HTML parser: recovering, huge trees, and no invented doctype.

    ``target``: a parser target to feed instead of building a tree (`_deep`).
    """
    # lxml-stubs type a parser with a target apart (CustomTargetParser).
    return etree.HTMLParser(  # type: ignore[return-value]
        recover=True,
        huge_tree=True,
        default_doctype=False,
        no_network=True,
        encoding=encoding,
        target=target,
    )


def _utf8(text: str) -> tuple[str, bytes]:
    """``text`` (lone surrogates made U+FFFD, as a decoder would) and its UTF-8.

    libxml2 reads UTF-8 bytes about a fifth faster than a ``str`` fed to
    lxml, and encoding first finds surrogates in C, where a regex over every
    page cost as much as the parse.
    """
    try:
        return text, text.encode("utf-8")
    except UnicodeEncodeError:
        text = _replace_surrogates(text)
        return text, text.encode("utf-8")


def xml_parser(encoding: str | None = None, target: Any = None) -> etree.XMLParser:
    """A safe XML parser: recovering, no network, no external entities.

    ``encoding`` overrides the document's declaration (text we encoded);
    ``target``: a parser target to feed instead of building a tree (`_deep`).
    """
    # huge_tree lifts libxml2's depth (256) and 10 MB text limits, as bs4's
    # XML builder has them lifted; entities are still never expanded.
    # lxml-stubs type a parser with a target apart (CustomTargetParser).
    return etree.XMLParser(  # type: ignore[return-value]
        recover=True,
        huge_tree=True,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        strip_cdata=True,
        remove_blank_text=False,
        encoding=encoding,
        target=target,
    )


class Soup(Tag):
    """A parsed document: bs4's ``BeautifulSoup``, as a view over lxml.

    >>> soup = Soup("<p>foo bar</p><p>baz<p>yet another graf</p>")
    >>> soup.body.contents
    [<p>foo bar</p>, <p>baz</p>, <p>yet another graf</p>]
    >>> Soup("<b class='boldest'>x</b>").b["class"]
    ['boldest']
    """

    __slots__ = (
        "_base_url",
        "_kept",
        "_mode",
        "_pending",
        "_root",
        "_template_check",
        "_top_doctype",
        "_top_doctype_index",
        "_top_leader",
        "_top_trailer",
        "_truncated",
        "_verbatim",
        "declared_html_encoding",
        "is_xml",
        "original_encoding",
    )

    ROOT_TAG_NAME: ClassVar[str] = "[document]"

    _mode: str
    _root: Any
    _top_doctype: Doctype | None
    _top_doctype_index: int
    _top_trailer: list[NavigableString | None]
    #: ``(root, source)`` of an adopted tree whose document level (the
    #: ``_top_*`` slots) is not worked out yet; None once it is.
    _pending: tuple[Any, str | None] | None
    #: Strong references to the wrappers made for this document.  The
    #: identity maps are weak, so a wrapper nobody holds would die at once
    #: and the next walk would build it again: holding every wrapper it gave
    #: out, a second walk is only lookups, as in bs4, where every node object
    #: lives as long as the tree.  The entries form a reference cycle with
    #: the soup, which the cyclic garbage collector frees with it.  Keys: an
    #: lxml node for its wrapper, ``(owner, is_tail)`` for a slot's string.
    _kept: dict[Any, Any]
    #: Whether the tree holds a ``<template>`` (CSS selection asks before
    #: each ``select()``): ``(TREE_EDITS when asked, the root asked about,
    #: the answer)``, good until an edit could add one (`_css.has_template`).
    _template_check: tuple[int, Any, bool] | None
    #: The document's children before the root when a stray end tag comes
    #: first (then libxml2 reports the whitespace there): strings and the
    #: doctype, None for the next node lxml kept before the root.  Empty:
    #: lxml's siblings of the root and ``_doctype_index`` say it all.
    _top_leader: list[NavigableString | None]
    #: Text slots ``(element, is_tail)`` an edit wrote: they hold bs4's value
    #: as it is, where text from the parser is read with whitespace-only
    #: strings collapsed (bs4 collapses them once, when it parses).
    _verbatim: set[tuple[Any, bool]]

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
        if kwargs:
            raise TypeError(
                f"__init__() got unexpected keyword argument(s): {', '.join(kwargs)}"
            )
        # The usual spellings in one look-up (a first .soup is ~10 us in all).
        mode = FEATURES.get(features) if type(features) is str else None
        self._mode = mode if mode is not None else _mode_for(features)
        self.is_xml = self._mode == "xml"
        self.hidden = True
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
        self._root = None
        self._el = None
        self._doc = self
        if not isinstance(markup, (str, bytes)) and hasattr(markup, "read"):
            markup = markup.read()
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
        markup, data = _utf8(markup)
        if self.is_xml:
            # Text is decoded already: its declaration's encoding (say
            # euc-jp) no longer applies, as bs4 ignores it for a str.
            self._parse_xml_bytes(data, "utf-8", forced=True)
            self.original_encoding = None
            return
        parser = html_parser("utf-8")
        if self._mode == "fragment":
            parser.feed(b"<html><body>")
            if data:
                parser.feed(data)
            container = parser.close()
            self._keep_deep(container, data, b"<html><body>", "utf-8")
            body = container.find("body")
            self._set_container(body if body is not None else container)
            return
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
        data = _replace_surrogate_references(data)
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
            full = len(log) >= _REPORTED_ERRORS
            errors = {e.type for e in log}
            if (full or _RESOURCE_LIMIT in errors) and self._keep_deep(
                root, data, b"", given
            ):
                rebuilt = True
            if full or _ATTRIBUTE_REDEFINED in errors:
                _drop_repeated_attributes(root)
            # Reference nodes exist only for undeclared or declared entities.
            if full or _UNDECLARED_ENTITY in errors or b"<!ENTITY" in data:
                replace_entity_references(root)
        limits = [e for e in parser.error_log if e.type == _RESOURCE_LIMIT]
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

    def _set_container(self, el: Any) -> None:
        self._mode = "fragment"
        self._el = el
        remember(el, self)

    def _set_root(self, root: Any, source: str | None, parsed_here: bool) -> None:
        self._root = root
        if root is None or self.is_xml:
            if root is not None:
                self._top_doctype = self._xml_doctype(root)
            return
        if not parsed_here:
            # A tree parsed elsewhere (a Scrapy response's): its document
            # level is worked out on first use.  Most spiders only search,
            # and it cost more than the rest of wrapping the tree (the first
            # ``response.soup`` after ``response.css()``, issue 6).
            self._pending = (root, source)
            return
        self._document_level(root, source, parsed_here)

    def _settle(self) -> None:
        """Work out the document level of an adopted tree (see `_set_root`)."""
        pending = self._pending
        if pending is not None:
            self._pending = None
            self._document_level(pending[0], pending[1], parsed_here=False)

    def _document_level(self, root: Any, source: str | None, parsed_here: bool) -> None:
        """The doctype, and bs4's children before and after the root."""
        # Where the first start tag is: what comes before is the document
        # level (doctype, comments, stray end tags).
        head_end = len(source or "")
        if source is not None:
            first_tag = _FIRST_TAG.search(source)
            if first_tag is not None:
                head_end = first_tag.start()
        info = root.getroottree().docinfo
        name, public_id, system_url = (
            _doctype_name(info),
            info.public_id,
            info.system_url,
        )
        if parsed_here:
            has_doctype = bool(info.doctype)
        elif source is not None:
            has_doctype = _DOCTYPE_IN_SOURCE.search(source, 0, head_end) is not None
            if (
                has_doctype
                and (name, public_id, system_url) == _LIBXML2_DEFAULT_DOCTYPE
                and public_id.lower() not in source[:head_end].lower()
            ):
                # The parser (parsel's keeps libxml2's default) dropped the
                # page's doctype after a stray end tag and invented its own:
                # the leader's events give the page's.
                has_doctype = False
        else:
            # No source at hand: only libxml2's invented doctype is dropped.
            has_doctype = (name, public_id, system_url) != _LIBXML2_DEFAULT_DOCTYPE
        if has_doctype and info.doctype:
            self._top_doctype = Doctype._synthetic(  # type: ignore[assignment]
                Doctype._string_for_name_and_ids(name, public_id, system_url), self
            )
            if source is not None:
                # Comments (and ``<?...>``, which libxml2 reads as comments)
                # before the doctype stay before it in bs4's list.
                found = _DOCTYPE_IN_SOURCE.search(source)
                head = source[: found.start()] if found else ""
                self._top_doctype_index = len(_LEADING_NODE.findall(head))
        if source is not None:
            trailer = self._trailer_from(source, head_end)
            # Each None stands for one of the comments lxml kept last after
            # the root; when they are not there, libxml2 put them elsewhere
            # (inside the root, or in a second top-level element).
            nodes = sum(x is None for x in trailer)
            last = list(root.itersiblings())[::-1][:nodes]
            if len(last) == nodes and not any(isinstance(n.tag, str) for n in last):
                self._top_trailer = trailer
            self._top_leader = self._leader_from(source, head_end, root)

    def _leader_from(
        self, source: str, head_end: int, root: Any
    ) -> list[NavigableString | None]:
        """bs4's children before the root, when a stray end tag comes first.

        After an end tag with nothing open, libxml2 reports the whitespace
        before the root (which it otherwise skips) and a doctype its tree
        drops; bs4 keeps both.  The same events, from lxml's target parser
        on the text before the first start tag, say where they go.
        """
        if _END_TAG.search(source, 0, head_end) is None:
            return []
        head = source[:head_end]
        soup = self
        events: list[str | None] = []

        class Collector:
            started = False

            def start(self, tag: str, attrib: Any) -> None:
                self.started = True

            def data(self, text: str) -> None:
                if self.started:
                    return
                if events and isinstance(events[-1], str) and events[-1] != "":
                    events[-1] += text  # bs4 joins neighbouring data
                else:
                    events.append(text)

            def comment(self, text: str) -> None:
                if not self.started:
                    events.append(None)

            def pi(self, target: str, data: str | None) -> None:
                if not self.started:
                    events.append(None)

            def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
                if self.started:
                    return
                if soup._top_doctype is None:
                    soup._top_doctype = Doctype._synthetic(  # type: ignore[assignment]
                        Doctype._string_for_name_and_ids(name, pubid, system), soup
                    )
                events.append("")  # the doctype's place

            def close(self) -> None:
                return None

        collector: Any = Collector()
        parser = etree.HTMLParser(target=collector, recover=True)
        try:
            parser.feed(head)
            parser.close()
        except (etree.XMLSyntaxError, UnicodeEncodeError):
            return []
        preceding = sum(1 for _ in root.itersiblings(preceding=True))
        if events.count(None) != preceding:
            return []  # not the picture lxml's tree gives: keep that one
        leader: list[NavigableString | None] = []
        for event in events:
            if event is None:
                leader.append(None)
            elif event == "":
                if soup._top_doctype is not None:
                    leader.append(soup._top_doctype)
            else:
                value = normalize_text(event, None, False)
                leader.append(NavigableString._synthetic(value, soup))
        return leader

    def _xml_doctype(self, root: Any) -> Doctype | None:
        info = root.getroottree().docinfo
        if not info.doctype:
            return None
        return Doctype._synthetic(  # type: ignore[return-value]
            Doctype._string_for_name_and_ids(
                _doctype_name(info), info.public_id, info.system_url
            ),
            self,
        )

    def _rootless_nodes(
        self, markup: str | bytes, xml: bool = False, encoding: str | None = None
    ) -> list[NavigableString | None]:
        """The comments and PIs of a document without elements (lxml keeps none).

        ``xml``, ``encoding``: read as XML, as `_parse_xml_bytes` read it.
        """
        from ._elements import (
            Comment,
            ProcessingInstruction,
            XMLProcessingInstruction,
            normalize_text,
        )

        pi_class = XMLProcessingInstruction if xml else ProcessingInstruction

        found: list[NavigableString | None] = []
        soup = self

        class Collector:
            def comment(self, text: str) -> None:
                value = normalize_text(text, None, False)
                found.append(Comment._synthetic(value, soup))

            def pi(self, target: str, data: str | None) -> None:
                found.append(pi_class._synthetic(f"{target} {data or ''}", soup))

            def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
                soup._top_doctype = Doctype._synthetic(  # type: ignore[assignment]
                    Doctype._string_for_name_and_ids(name, pubid, system), soup
                )

            def close(self) -> None:
                return None

        target: Any = Collector()
        parser: Any = (
            xml_parser(encoding, target)
            if xml
            else etree.HTMLParser(target=target, recover=True)
        )
        parser.feed(markup)
        parser.close()
        return found

    def _trailer_from(self, source: str, head_end: int) -> list[NavigableString | None]:
        """What bs4 keeps after ``</html>``: whitespace strings and comments.

        None stands for the next comment lxml kept as a sibling of the root.
        Anything else after ``</html>`` went into the tree itself, so the
        trailer stops there.
        """
        # Only the end of the page can hold a trailer: scanning the whole
        # text for the last </html> would cost more than wrapping the tree.
        window = len(source) - _TRAILER_WINDOW if len(source) > _TRAILER_WINDOW else 0
        end = _last_html_end(source, window)
        if end is None:
            return []
        if end.start() < head_end:
            return []  # a stray </html> before the document started
        tail = source[end.end() :]
        items: list[NavigableString | None] = []
        pos = 0
        while pos < len(tail):
            match = _TRAILER_TOKEN.match(tail, pos)
            if match is None:
                break
            if match.group(1) is not None:
                value = "\n" if "\n" in match.group(1) else " "
                items.append(NavigableString._synthetic(value, self))
            else:
                items.append(None)
            pos = match.end()
        return items

    # -- the document level ---------------------------------------------------------
    # Read through these, which work out an adopted tree's document level first.
    @property
    def _doctype(self) -> Doctype | None:
        if self._pending is not None:
            self._settle()
        return self._top_doctype

    @property
    def _doctype_index(self) -> int:
        if self._pending is not None:
            self._settle()
        return self._top_doctype_index

    @property
    def _trailer(self) -> list[NavigableString | None]:
        if self._pending is not None:
            self._settle()
        return self._top_trailer

    @property
    def _leader(self) -> list[NavigableString | None]:
        if self._pending is not None:
            self._settle()
        return self._top_leader

    def _top_children(self) -> list[Any]:
        if self._el is not None:
            return [*self.children]
        root = self._root
        if root is None:
            orphans = [x for x in self._trailer if x is not None]
            return [self._doctype, *orphans] if self._doctype is not None else orphans
        if root.getparent() is not None:
            return [wrap(root, self)]
        out: list[Any] = [
            wrap(n, self) for n in reversed(list(root.itersiblings(preceding=True)))
        ]
        if self._leader:
            it = iter(out)
            out = [next(it) if x is None else x for x in self._leader]
        elif self._doctype is not None:
            out.insert(min(self._doctype_index, len(out)), self._doctype)
        out.append(wrap(root, self))
        following = [wrap(n, self) for n in root.itersiblings()]
        if self._trailer:
            # The trailer's None stand for the last nodes (checked at build).
            split = len(following) - sum(x is None for x in self._trailer)
            out.extend(following[:split])
            it = iter(following[split:])
            out.extend(next(it) if x is None else x for x in self._trailer)
        else:
            out.extend(following)
        return out

    def _is_top_level(self, el: Any) -> bool:
        root = self._root
        if root is None or self._el is not None:
            return False
        if el is root:
            return True
        if el.getparent() is not None or root.getparent() is not None:
            return False
        # A node taken out of the tree keeps lxml's document (and so its
        # getroottree()): only the root's real siblings are top level.
        return any(n is el for n in root.itersiblings(preceding=True)) or any(
            n is el for n in root.itersiblings()
        )

    def _is_top_level_string(self, string: NavigableString) -> bool:
        return (
            string is self._doctype
            or any(string is x for x in self._trailer)
            or any(string is x for x in self._leader)
        )

    def _top_level_sibling(self, node: Any, delta: int) -> Any:
        children = self._top_children()
        for i, child in enumerate(children):
            if child is node:
                j = i + delta
                return children[j] if 0 <= j < len(children) else None
        return None

    # -- Tag API on the document node ---------------------------------------------
    @property
    def name(self) -> str:
        """Always ``"[document]"``."""
        return self.ROOT_TAG_NAME

    @name.setter
    def name(self, value: str) -> None:
        raise AttributeError("The document node cannot be renamed.")

    # (A plain dict where Tag's is a view: an override mypy flags.)
    @property  # type: ignore[override]
    def attrs(self) -> AttrsView | dict[str, str | AttributeValueList]:
        """The document node has no attributes (a fragment's: its container's)."""
        if self._el is not None:
            return super().attrs
        return {}

    @attrs.setter
    def attrs(self, value: Mapping[str, object] | None) -> None:
        raise AttributeError("The document node cannot have attributes.")

    @property
    def prefix(self) -> str | None:
        """None: the document node has no prefix."""
        return None

    @property
    def namespace(self) -> str | None:
        """None: the document node has no namespace."""
        return None

    @property
    def parent(self) -> Tag | None:
        """None: the document has no parent."""
        return None

    @property
    def next_sibling(self) -> PageElement | None:
        """None."""
        return None

    @property
    def next_element(self) -> PageElement | None:
        """None: bs4 never links the document node into the element chain."""
        return None

    @property
    def previous_sibling(self) -> PageElement | None:
        """None."""
        return None

    @property
    def can_be_empty_element(self) -> bool:
        """False in HTML (as bs4's document node), True in XML."""
        return self.is_xml

    @property
    def is_empty_element(self) -> bool:
        """Whether the document is empty and may print as an empty element."""
        return self.is_xml and not self._contents_list()

    @property
    def sourceline(self) -> int | None:
        """None."""
        return None

    @sourceline.setter
    def sourceline(self, value: int | None) -> None:
        raise AttributeError("a document has no source line")

    def _contents_list(self) -> list[PageElement]:
        if self._el is not None:
            return super()._contents_list()
        return self._top_children()

    @property
    def contents(self) -> list[PageElement]:
        """The top-level nodes: doctype, comments, the root element, ..."""
        return self._contents_list()

    @property
    def children(self) -> Iterator[PageElement]:
        """An iterator over `contents`."""
        return iter(self._contents_list())

    @property
    def descendants(self) -> Iterator[PageElement]:
        """Every node of the document, in document order."""
        if self._el is not None:
            return iter_descendants(self._el, self)
        return self._iter_document()

    def _iter_document(self) -> Iterator[PageElement]:
        for child in self._top_children():
            yield child
            if isinstance(child, Tag):
                yield from iter_descendants(child._el, self)

    def __len__(self) -> int:
        return len(self._contents_list())

    # (Type checkers see the inherited signatures, with their overloads.)
    if not TYPE_CHECKING:

        def find_all_next(self, *args: Any, **kwargs: Any) -> Any:
            """Nothing: bs4 never links the document node into the element chain."""
            from ._strainer import ResultSet

            return ResultSet(None, [])

        def find_next(self, *args: Any, **kwargs: Any) -> Any:
            """None: bs4 never links the document node into the element chain."""
            return None

        findAllNext = find_all_next
        findNext = find_next

    def _set_string(self, value: str) -> None:
        if self._el is not None:
            super()._set_string(value)
            return
        raise NotImplementedError(
            "cannot replace the whole document with a string: use a fragment soup"
        )

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


BeautifulSoup = Soup
