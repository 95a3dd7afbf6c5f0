"""Reading markup: the parser settings, features, and what a parse reports.

One place for libxml2's parser settings (`html_parser`, `xml_parser`: the
soup, the deep rebuild in `_deep` and the small target parsers use them),
bs4's feature names, the errors and warnings bs4 raises, and the text
repairs done before lxml sees a document (surrogates, repeated attributes).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from lxml import etree

from ._strainer import UnusualUsageWarning


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
LIBXML2_DEFAULT_DOCTYPE = (
    "html",
    "-//W3C//DTD HTML 4.0 Transitional//EN",
    "http://www.w3.org/TR/REC-html40/loose.dtd",
)
DOCTYPE_IN_SOURCE = re.compile(r"<!doctype", re.I)
FIRST_TAG = re.compile(r"<[a-zA-Z]")
END_TAG = re.compile(r"</")  # any "</": "</>" and "</ >" count too
_HTML_END = re.compile(r"</html\s*>", re.I)
LEADING_NODE = re.compile(r"<!--.*?-->|<\?.*?>", re.S)
TRAILER_WINDOW = 65536
_SURROGATE = re.compile("[\ud800-\udfff]")
_CHARACTER_REFERENCE = re.compile(rb"&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));")
TRAILER_TOKEN = re.compile(r"([\x20\x0a\x09\x0c\x0d]+)|(<!--.*?-->)", re.S)


def _replace_surrogates(text: str) -> str:
    """``text`` with lone surrogates (unencodable) replaced by U+FFFD."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def replace_surrogate_references(data: bytes) -> bytes:
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
