"""Turn what `absolutize_links` and `clean` accept into an lxml element and back.

Both functions take a string of HTML, a soup `Tag`/`Soup`, or an lxml
element, and give back the same kind.  Strings are parsed as a *fragment*:
the output is the fragment's own top-level nodes, with no ``<html>`` or
``<body>`` added, as bs4's ``html.parser`` builder gives them.  A string
that is a whole document (it starts with a doctype or ``<html>``, after
comments and whitespace, or its output as a fragment would: `write_as_read`)
stays one: `parse_document` keeps ``<html>``, ``<head>`` and ``<body>`` with
their attributes, and `document_html` writes them back.

The string path parses as the soup's ``"fragment"`` mode does and
serializes as ``str()`` of that soup does (bs4's serialization), but
straight from the lxml tree (`scrapy_soup._tree._write`): no soup
wrapper is made.  `parse_fragment` and `markup_of` are the one place to
change that.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

from lxml import etree

from .._tree._attrs import NOT_XML, attribute_items, lxml_name
from .._tree._deep import keep_whole_html
from .._tree._fragment_scan import fragment_container
from .._tree._parse import utf8, utf8_html_parser
from .._tree._write import contents_html, element_html

__all__ = [
    "CleanError",
    "Target",
    "as_html",
    "document_html",
    "give_back",
    "is_document",
    "markup_of",
    "namespaced_names",
    "parse_document",
    "parse_fragment",
    "parse_markup",
    "remove_top_level",
    "set_attribute",
    "set_text",
    "target_element",
    "write_as_read",
    "write_markup",
]

# Characters lxml's Python API refuses (XML 1.0 "Char" excludes them) though
# its HTML parser keeps them in the tree.


class CleanError(ValueError):
    """`scrapy_soup.clean` or `scrapy_soup.absolutize_links` could not process the markup.

    Raised instead of returning anything unprocessed (they fail closed):
    the message says what failed, the cause is chained.
    """


def set_text(node: etree._Element, tail: bool, value: str | None) -> None:
    """Set *node*'s text or tail; drop characters lxml refuses instead of raising."""
    try:
        if tail:
            node.tail = value
        else:
            node.text = value
    except ValueError:
        set_text(node, tail, NOT_XML.sub("", value or "") or None)


def set_attribute(node: etree._Element, name: str, value: str) -> None:
    """Set an attribute; drop characters lxml refuses instead of raising."""
    try:
        node.set(name, value)
    except ValueError:
        node.set(name, NOT_XML.sub("", value))


_ELEMENT = etree._Element
_TREE = etree._ElementTree


class Target:
    """The lxml element to work on, and how to hand the result back."""

    __slots__ = ("document", "element", "original")

    def __init__(
        self, element: etree._Element, original: object, document: bool = False
    ) -> None:
        self.element = element
        self.original = original
        #: A string parsed as a whole document (`parse_document`): the
        #: element is its ``<html>``.
        self.document = document

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
    # One call on UTF-8 bytes: half the time of feeding a str, which lxml
    # hands to libxml2 in Python's internal (often 4-byte) form.  The parser's
    # encoding is fixed, so a <meta charset> in the text changes nothing.
    # Joined as bytes: a str join would copy the page in Python's internal
    # form first.
    _, data = utf8(text)  # lone surrogates made U+FFFD, as a decoder would
    # The html/head/body tags the text writes are kept, as the soup keeps them.
    return Target(fragment_container(data)[0], text)


#: What may come before a document's doctype or <html>: whitespace and a
#: byte order mark (comments and processing instructions are skipped by hand:
#: a regex with nested repetition backtracks exponentially on hostile input).
_LEADING_SPACE = re.compile(r"[\s\ufeff]*")
_DOCUMENT_TAG = re.compile(r"<(?:!doctype|html)[\s/>]", re.IGNORECASE)
#: Where `is_document` looks (leading comments longer than this: a fragment).
_DOCUMENT_PREFIX = 1 << 16


def is_document(text: str) -> bool:
    """Whether *text* is a whole HTML document rather than a fragment.

    It is if a doctype or an ``<html>`` start tag comes first, after
    whitespace, comments and processing instructions.  Linear in the text.

    >>> is_document("<!-- page --><!DOCTYPE html><title>x</title>")
    True
    >>> is_document("<p>x</p><html>")
    False
    """
    end = min(len(text), _DOCUMENT_PREFIX)
    pos = 0
    while True:
        pos = _LEADING_SPACE.match(text, pos, end).end()  # type: ignore[union-attr]
        if text.startswith("<!--", pos, end):
            close = text.find("-->", pos + 2, end)
            if close == -1:
                return False
            pos = close + 3
        elif text.startswith("<?", pos, end):
            close = text.find(">", pos, end)
            if close == -1:
                return False
            pos = close + 1
        else:
            return _DOCUMENT_TAG.match(text, pos, min(end, pos + 10)) is not None


def write_as_read(text: str, write: Callable[[bool], str]) -> str:
    """``write(document)``, *document* telling whether *text* is one, as its output tells.

    `is_document` decides on the text as written.  But what comes before an
    ``<html>`` tag may be nothing to the parser (stray end tags, ``</>``, a
    doctype after them) or be removed by `clean` (a ``<script>``), and the
    output written as a fragment then starts with ``<html>``: a second call
    would read that as a document and give another string.  Such a text is
    a document, written again as one, so that a second call gives the
    output back.  Only texts that write ``<html>`` pay for two writes.

    >>> text = "</p><html><p>x</p>"
    >>> markup_of(parse_markup(text, is_document(text)))  # as a fragment
    '<html><p>x</p></html>'
    >>> write_as_read(text, lambda document: markup_of(parse_markup(text, document)))
    '<html><body><p>x</p></body></html>'
    """
    document = is_document(text)
    out = write(document)
    if not document and is_document(out):
        out = write(True)
    return out


def parse_document(text: str) -> Target | None:
    """Parse *text* as a whole document; the target is its ``<html>`` element.

    Content libxml2 puts after a stray ``</html>`` in a second top-level
    element goes to the end of ``<body>``, where browsers put it.  None if
    the document has no element (a doctype alone).
    """
    _, data = utf8(text)
    parser = utf8_html_parser()
    root = etree.fromstring(data, parser)
    if root is None:
        return None
    keep_whole_html(root, data)  # however deep it nests
    strays = [n for n in root.itersiblings() if isinstance(n.tag, str)]
    if strays:
        body = root.find("body")
        if body is None:
            body = etree.SubElement(root, "body")
        for stray in strays:
            if stray.text:
                if len(body):
                    set_text(body[-1], True, (body[-1].tail or "") + stray.text)
                else:
                    set_text(body, False, (body.text or "") + stray.text)
            body.extend(list(stray))
            _take_out(stray)
    return Target(root, text, True)


def _take_out(node: Any) -> None:
    """Remove *node*, even a top-level one (a sibling of the root element)."""
    parent = node.getparent()
    if parent is not None:
        parent.remove(node)
    else:
        # lxml has no call for the root's siblings: moving the node into
        # another element takes it out of the document.
        etree.Element("x").append(node)


def remove_top_level(root: etree._Element, keep: Any = None) -> list[Any]:
    """Remove the comments and processing instructions around the root element.

    *keep*, if given, is called with each comment and keeps those it
    returns True for.  Returns the nodes removed.
    """
    removed = [
        node
        for node in (*root.itersiblings(preceding=True), *root.itersiblings())
        if not isinstance(node.tag, str)
        and not (keep is not None and isinstance(node, etree._Comment) and keep(node))
    ]
    for node in removed:
        _take_out(node)
    return removed


#: Public and system identifiers written back only if a browser reads them
#: as the identifiers they are.
_SAFE_ID = re.compile(r"[ \w\-/.:;,#()+=?%&'!*@]*\Z")


def document_html(root: etree._Element, contents: str) -> str:
    """A whole document as bs4 writes it: doctype, ``<html …>``, *contents*, ``</html>``.

    *contents* is the root's contents written by the caller.  The doctype
    keeps its identifiers only when they hold nothing a browser would end
    them at; nodes around the root are not written (`clean` removes them).
    """
    info = root.getroottree().docinfo
    doctype = ""
    if info.internalDTD is not None:
        name = info.root_name or "html"
        public, system = info.public_id, info.system_url
        value = name if _SAFE_ID.match(name) and name.strip() else "html"
        if public is not None and _SAFE_ID.match(public):
            value += f' PUBLIC "{public}"'
            if system is not None and _SAFE_ID.match(system):
                value += f' "{system}"'
        elif public is None and system is not None and _SAFE_ID.match(system):
            value += f' SYSTEM "{system}"'
        doctype = f"<!DOCTYPE {value}>\n"
    return doctype + _element_html(root, contents)


def _element_html(el: etree._Element, contents: str) -> str:
    """``<el …>`` *contents* ``</el>``, the tag written as the soup writes
    tags, less any attribute lxml refuses to copy (a value with a control
    character the parser kept)."""
    # Made by the HTML parser's factory: lxml then checks attribute names
    # as HTML does ("xml:lang" is a name there).
    tag = str(el.tag)
    shell = utf8_html_parser().makeelement(tag)
    for key, value in attribute_items(el):
        with contextlib.suppress(ValueError):
            shell.set(lxml_name(key), value)
    # ``<tag …></tag>`` (``<tag …/>`` for a void element: never a root).
    start = element_html(shell)
    start = start[:-2] + ">" if start.endswith("/>") else start[: -len(tag) - 3]
    return f"{start}{contents}</{tag}>"


#: The attributes that really have a namespace (set through lxml or parsed
#: as XML), as opposed to names the HTML parser kept starting with "{".
_NAMESPACED_ATTRIBUTES = etree.XPath("@*[namespace-uri() != '']")


def namespaced_names(node: etree._Element) -> set[str]:
    """The Clark names (``{ns}local``) of *node*'s namespaced attributes."""
    found: Any = _NAMESPACED_ATTRIBUTES(node)
    return {value.attrname for value in found}


def markup_of(target: Target) -> str:
    """A string target written back: its container's contents as ``str()`` of a
    soup writes them (`_tree._write.contents_html`), in the whole document if it was one."""
    return write_markup(target, contents_html(target.element))


@contextlib.contextmanager
def as_html(el: etree._Element) -> Iterator[None]:
    """Keep libxml2 from writing *el*'s document as XHTML while in this block.

    With an XHTML 1.0 doctype, libxml2's XML serializer adds a ``<meta>``
    to ``<head>``, an ``xmlns`` and spaces in ``<br />``: not the tree.
    The doctype's identifiers are set aside and put back.
    """
    info = el.getroottree().docinfo
    public, system = info.public_id, info.system_url
    if "xhtml" not in f"{public}{system}".lower():
        yield
        return
    info.public_id = None
    info.system_url = None
    try:
        yield
    finally:
        info.public_id = public
        info.system_url = system


def parse_markup(text: str, document: bool) -> Target:
    """Parse *text* as a whole *document* (`parse_document`), else as a fragment."""
    if document:
        target = parse_document(text)
        if target is not None:
            return target
    return parse_fragment(text)


def target_element(obj: object) -> Target:
    """Find the lxml element behind *obj*; raise TypeError for other kinds."""
    if isinstance(obj, str):
        return parse_markup(obj, is_document(obj))
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
        return markup_of(target)
    return target.original


def write_markup(target: Target, contents: str) -> str:
    """A string target's output: its container's *contents*, or the whole document."""
    if target.document:
        return document_html(target.element, contents)
    return contents
