"""Reading markup: the parser settings, features, and what a parse reports.

One place for libxml2's parser settings (`html_parser`, `xml_parser`: the
soup, the deep rebuild in `_deep` and the small target parsers use them),
bs4's feature names, the errors and warnings bs4 raises, and the text
repairs done before lxml sees a document (surrogates, repeated attributes).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from typing import Any, AnyStr

from lxml import etree

from ._strainer import UnusualUsageWarning


class FeatureNotFound(ValueError):
    """No tree builder for the requested features (bs4's exception of that name)."""


class ParserRejectedMarkup(Exception):
    """The parser could not make sense of the markup (bs4's exception of that name)."""


class MarkupResemblesLocatorWarning(UnusualUsageWarning):
    """The markup looks like a file name or URL (bs4's warning of that name)."""


class XMLParsedAsHTMLWarning(UnusualUsageWarning):
    """An XML document is being parsed as HTML (bs4's warning of that name).

    Given where bs4 gives it (`_builder.warn_if_xml`); not for markup the
    library parses on the user's behalf (README).
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


#: bs4's feature names, and ours, to the modes.
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
    # Parsed as browsers do (`_html5`; the ``html5`` extra).
    "html5lib": "html5",
    "html5": "html5",
}

#: The doctype libxml2 adds to an HTML document that has none.
LIBXML2_DEFAULT_DOCTYPE = (
    "html",
    "-//W3C//DTD HTML 4.0 Transitional//EN",
    "http://www.w3.org/TR/REC-html40/loose.dtd",
)
DOCTYPE_IN_SOURCE = re.compile(r"<!doctype", re.I)
FIRST_TAG = re.compile(r"<[a-zA-Z]")
#: One whitespace character, written or as a character reference (``&#9``,
#: ``&#x20;``, ``&Tab;``): it does not start the document.
_SPACE = (
    r"[\x20\x0a\x09\x0c\x0d]|&#0*(?:9|10|12|13|32)(?![0-9]);?"
    r"|&#[xX]0*(?:9|[aAcCdD]|20)(?![0-9a-fA-F]);?|&(?:Tab|NewLine);"
)
#: What may come before the document starts: whitespace, comments (and what
#: HTML reads as one), doctypes, stray end tags.  Text or a start tag after
#: it starts the document.
DOCUMENT_LEAD = re.compile(
    rf"(?:{_SPACE}|<!--.*?-->|<![^>]*>|<\?[^>]*>|</[^>]*>)*", re.S
)
END_TAG = re.compile(r"</")  # any "</": "</>" and "</ >" count too
_HTML_END = re.compile(r"</html\s*>", re.I)
LEADING_NODE = re.compile(r"<!--.*?-->|<\?.*?>", re.S)
TRAILER_WINDOW = 65536
_SURROGATE = re.compile("[\ud800-\udfff]")
_REFERENCE = r"&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));"
_CHARACTER_REFERENCE = re.compile(_REFERENCE.encode())
_CHARACTER_REFERENCE_TEXT = re.compile(_REFERENCE)
#: What may follow ``</html>`` and stay out of the tree: whitespace, a
#: comment, an end tag (which the parser ignores there: whitespace on both
#: sides of it is one string).
TRAILER_TOKEN = re.compile(
    rf"((?:{_SPACE})+)"
    # A comment, or what HTML reads as one (``<!x>``, ``<?x>``, ``</ x>``; a
    # doctype there is dropped, not kept).
    r"|(<!--.*?-->|<!(?!--|doctype)[^>]*>|<\?[^>]*>|</(?![a-z>])[^>]*>)"
    r"|</(?:[a-z][^>]*)?>",
    re.S | re.I,
)
#: How far before the last ``</html>`` an earlier one of the same trailer
#: is looked for.
_TRAILER_REACH = 4096


def _replace_surrogates(text: str) -> str:
    """``text`` with lone surrogates (unencodable) replaced by U+FFFD."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


#: How libxml2 tells an XML document in a wide encoding (XML 1.0, appendix
#: F): its byte order mark, or its first character, ``<``.  UTF-32's marks
#: first (the little-endian one starts with UTF-16's).
_WIDE_ENCODINGS = (
    (b"\xff\xfe\x00\x00", 4, "utf-32-le"),
    (b"\x00\x00\xfe\xff", 4, "utf-32-be"),
    (b"\xff\xfe", 2, "utf-16-le"),
    (b"\xfe\xff", 2, "utf-16-be"),
    (b"<\x00\x00\x00", 0, "utf-32-le"),
    (b"\x00\x00\x00<", 0, "utf-32-be"),
    (b"<\x00", 0, "utf-16-le"),
    (b"\x00<", 0, "utf-16-be"),
)


def _surrogate_reference(found: re.Match[AnyStr]) -> AnyStr:
    hex_digits, digits = found.groups()
    code = int(hex_digits, 16) if hex_digits else int(digits)
    if 0xD800 <= code <= 0xDFFF:
        replacement = "&#xFFFD;"
        return replacement if isinstance(found[0], str) else replacement.encode()
    return found[0]


def replace_surrogate_references(data: bytes) -> bytes:
    """``data`` with character references to surrogates written as U+FFFD.

    libxml2's recovering XML parser keeps ``&#xD800;`` as bytes that are not
    UTF-8, and every later read of that text raises; bs4 (through the same
    parser's SAX events) sees U+FFFD, as a decoder would.  A document in
    UTF-16 or UTF-32 is searched in its own encoding.
    """
    for start, mark, codec in _WIDE_ENCODINGS:
        if data.startswith(start):
            unit = 4 if "32" in codec else 2
            end = len(data) - (len(data) - mark) % unit  # (a trailing odd byte)
            try:
                text = data[mark:end].decode(codec, "surrogatepass")
            except UnicodeDecodeError:
                continue  # not that encoding after all
            if "&#" not in text:
                return data
            fixed = _CHARACTER_REFERENCE_TEXT.sub(_surrogate_reference, text)
            return data[:mark] + fixed.encode(codec, "surrogatepass") + data[end:]
    if b"&#" not in data:
        return data
    return _CHARACTER_REFERENCE.sub(_surrogate_reference, data)


ATTRIBUTE_REDEFINED = etree.ErrorTypes.ERR_ATTRIBUTE_REDEFINED
UNDECLARED_ENTITY = etree.ErrorTypes.ERR_UNDECLARED_ENTITY
#: libxml2 stopped parsing: entity amplification, or depth. libxml2 2.14
#: reports it as 114; lxml names it from 6.1 on (6.0, the floor, does not).
RESOURCE_LIMIT = getattr(etree.ErrorTypes, "ERR_RESOURCE_LIMIT", 114)
REPORTED_ERRORS = 100


def drop_repeated_attributes(root: Any) -> None:
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


def trailer_start(source: str, end: re.Match[str], window: int) -> re.Match[str]:
    """The first ``</html>`` of the run ending with ``end`` that holds only
    `TRAILER_TOKEN`s: what follows it is bs4's trailer (``</html> </html>``
    keeps its space).  An earlier one is looked for in C (`str.rfind`, the
    usual spellings) a short way back."""
    while True:
        stop = end.start()
        reach = max(window, stop - _TRAILER_REACH)
        at = max(
            source.rfind("</html", reach, stop), source.rfind("</HTML", reach, stop)
        )
        before = _HTML_END.match(source, at) if at >= 0 else None
        if before is None:
            return end
        pos = before.end()
        while pos < stop:
            token = TRAILER_TOKEN.match(source, pos, stop)
            if token is None:
                return end
            pos = token.end()
        end = before


def last_html_end(source: str, window: int) -> re.Match[str] | None:
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


def doctype_name(info: Any) -> str:
    """The name a doctype declares (``docinfo.root_name`` is the root element's)."""
    dtd = info.internalDTD
    name = dtd.name if dtd is not None else None
    return name or info.root_name or ""


def mode_for(features: Any) -> str:
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
    No table of ``id`` values is kept (``collect_ids``): nothing here looks
    elements up by it (search compiles ``id`` to ``@id``), and building and
    freeing it, with an error logged per duplicate, cost 5-7% of a parse.
    """
    # lxml-stubs type a parser with a target apart (CustomTargetParser).
    return etree.HTMLParser(  # type: ignore[no-any-return]
        **_PARSER_SETTINGS,
        default_doctype=False,
        encoding=encoding,
        target=target,
        collect_ids=False,
    )


#: What the HTML and XML parsers share: recover from errors as browsers and
#: bs4 do; huge_tree lifts libxml2's depth (256) and 10 MB text limits, as
#: bs4's builders have them lifted; never fetch anything.
_PARSER_SETTINGS: dict[str, Any] = {
    "recover": True,
    "huge_tree": True,
    "no_network": True,
}


def utf8_html_parser() -> etree.HTMLParser:
    """`html_parser` reading UTF-8, one per thread (an lxml parser is not
    shared between threads): the parser of text, made once."""
    parser: etree.HTMLParser | None = getattr(_PARSERS, "html", None)
    if parser is None:
        parser = _PARSERS.html = html_parser("utf-8")
    return parser


#: Per thread: the UTF-8 HTML parser (`utf8_html_parser`).
_PARSERS = threading.local()


def utf8(text: str) -> tuple[str, bytes]:
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
    # Entities are never expanded (`_xml_entities` does it within a budget).
    # lxml-stubs type a parser with a target apart (CustomTargetParser).
    return etree.XMLParser(  # type: ignore[return-value]
        **_PARSER_SETTINGS,
        resolve_entities=False,
        load_dtd=False,
        strip_cdata=True,
        remove_blank_text=False,
        encoding=encoding,
        target=target,
    )
