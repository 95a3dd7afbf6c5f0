"""Turn what `absolutize_links` and `clean` accept into an lxml element and back.

Both functions take a string of HTML, a soup `Tag`/`Soup`, or an lxml
element, and give back the same kind.  Strings are parsed as a *fragment*:
the output is the fragment's own top-level nodes, with no ``<html>`` or
``<body>`` added, as bs4's ``html.parser`` builder gives them.

The string path parses as the soup's ``"fragment"`` mode does and
serializes as ``str()`` of that soup does (bs4's serialization), but
straight from the lxml tree (`scrapy_soup._fragment_output`): no soup
wrapper is made.  `parse_fragment` and `serialize_fragment` are the one
place to change that.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from lxml import etree

from ._fragment_output import contents_html, contents_html_from_xml

__all__ = [
    "Target",
    "give_back",
    "parse_fragment",
    "remember_parse",
    "serialize_fragment",
    "set_attribute",
    "set_text",
    "target_element",
]

# Characters lxml's Python API refuses (XML 1.0 "Char" excludes them) though
# its HTML parser keeps them in the tree.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def set_text(node: etree._Element, tail: bool, value: str | None) -> None:
    """Set *node*'s text or tail; drop characters lxml refuses instead of raising."""
    try:
        if tail:
            node.tail = value
        else:
            node.text = value
    except ValueError:
        set_text(node, tail, _NOT_XML.sub("", value or "") or None)


def set_attribute(node: etree._Element, name: str, value: str) -> None:
    """Set an attribute; drop characters lxml refuses instead of raising."""
    try:
        node.set(name, value)
    except ValueError:
        node.set(name, _NOT_XML.sub("", value))


def _html_parser() -> etree.HTMLParser:
    """The soup's HTML parser settings, reading UTF-8 (one parser per thread)."""
    return etree.HTMLParser(
        recover=True,
        huge_tree=True,
        default_doctype=False,
        no_network=True,
        encoding="utf-8",
    )


#: Per thread: the last `remember_parse` (text, container), and the parser.
_LAST = threading.local()
_SURROGATE = re.compile("[\ud800-\udfff]")
_ELEMENT = etree._Element
_TREE = etree._ElementTree


class Target:
    """The lxml element to work on, and how to hand the result back."""

    __slots__ = ("element", "original", "plain")

    def __init__(
        self, element: etree._Element, original: object, plain: bool = False
    ) -> None:
        self.element = element
        self.original = original
        #: The tree is one `contents_html_from_xml` can write (see
        #: `remember_parse`); whoever changes it more than link values
        #: change must set this to False.
        self.plain = plain

    @property
    def elements(self) -> list[etree._Element]:
        """The element, and for a document soup every top-level element after it.

        libxml2 puts content after a stray ``</html>`` in a second top-level
        ``<html>``; the soup shows (and searches) it, so it is cleaned too.
        """
        el = self.element
        if el.getparent() is not None or not hasattr(self.original, "_root"):
            return [el]
        return [el, *(n for n in el.itersiblings() if isinstance(n.tag, str))]


def parse_fragment(text: str) -> Target:
    """Parse *text* as an HTML fragment under a container element not output.

    The same tree as ``Soup(text, "fragment")`` (``_tree._soup``, checked
    by tests/test_fragment_output.py): the text is parsed after an open
    ``<html><body>`` (so ``<title>``, ``<meta>``, ``<style>`` stay where
    they are), left open, and the body is the container.
    A leading byte order mark stays, as text (bs4's ``html.parser`` keeps it).
    """
    last = getattr(_LAST, "parse", None)
    if last is not None and last[0] is text:
        # `clean` parsed its own output to check it; that tree is this
        # parse (and is handed out once: the caller changes it).
        _LAST.parse = None
        return Target(last[1], text, last[2])
    # One call on UTF-8 bytes: half the time of feeding a str, which lxml
    # hands to libxml2 in Python's internal (often 4-byte) form.  The parser's
    # encoding is fixed, so a <meta charset> in the text changes nothing.
    # Joined as bytes: a str join would copy the page in Python's internal
    # form first.
    try:
        data = b"<html><body>" + text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates cannot be encoded; a decoder would have made them
        # U+FFFD.  (Searching for them first would cost more than the parse.)
        data = b"<html><body>" + _SURROGATE.sub("\ufffd", text).encode("utf-8")
    parser = getattr(_LAST, "parser", None)
    if parser is None:
        parser = _LAST.parser = _html_parser()
    root = etree.fromstring(data, parser)
    body = root.find("body")
    return Target(body if body is not None else root, text)


def remember_parse(text: str, container: etree._Element, plain: bool = False) -> None:
    """Keep *container*, the fragment parse of *text*, for the next `parse_fragment`.

    ``absolutize_links(clean(html), base)`` then parses once less: `clean`
    parses its output to check it, and hands that tree on when the same
    string object comes next.  One tree per thread, dropped by the next parse.
    *plain*: the tree is settled and plain as `contents_html_from_xml`
    needs it (`clean`'s output written that way parses back so).
    """
    _LAST.parse = (text, container, plain)


def serialize_fragment(target: Target) -> str:
    """Serialize the container's contents (not the container) as ``str()`` of a soup."""
    if target.plain:
        written = contents_html_from_xml(target.element)
        if written is not None:
            return written[0]
    return contents_html(target.element)


def target_element(obj: object) -> Target:
    """Find the lxml element behind *obj*; raise TypeError for other kinds."""
    if isinstance(obj, str):
        return parse_fragment(obj)
    if isinstance(obj, _ELEMENT):
        return Target(obj, obj)
    if isinstance(obj, _TREE):
        return Target(obj.getroot(), obj)
    # A soup Tag wraps `_el`; a Soup of a whole document has `_el` None and
    # its root element in `_root`.  Checked by attribute, not by class, so
    # this module does not import the tree.
    el = getattr(obj, "_el", None)
    if el is None:
        el = getattr(obj, "_root", None)
    if isinstance(el, _ELEMENT):
        return Target(el, obj)
    if hasattr(obj, "_root") and hasattr(obj, "_el"):
        # A soup of a document without elements: nothing to change; work on
        # an empty stand-in and hand the soup back.
        return Target(etree.Element("html"), obj)
    raise TypeError(
        f"expected a str of HTML, a soup Tag or an lxml element, not {type(obj).__name__}"
    )


def give_back(target: Target) -> Any:
    """Return what the caller gets: a str for str input, else the object itself."""
    if isinstance(target.original, str):
        return serialize_fragment(target)
    return target.original
