"""Documents deeper than libxml2 builds trees: detected, and HTML kept whole.

libxml2's tree builder stops the whole parse at 2,048 levels of nesting
(256 without ``huge_tree``), and says nothing in HTML: a page nesting
``<div>`` 3,000 deep lost its text *and everything after it*.  bs4's lxml
builder gets the same parser's events through a target and has no limit.

- Detecting it costs a few steps: the parse stops right after opening the
  deepest element, so that element and its ancestors are each the last
  child of their parent; the last-child chain reaching the limit is the sign.
- The document is parsed again with the same parser feeding a Python
  target (the events bs4 builds from), and the root's content is replaced
  by what the events build; the document level (doctype, top-level
  comments) stays the native parse's.  In XML the push parser is used (the
  pull parser refuses the depth itself, target or not), as bs4 does.
- A tree parsed elsewhere (a Scrapy response's, shared with its
  selectors) is not rebuilt: the soup says it is truncated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lxml import etree

from ._parse import html_parser

#: The depths at which libxml2 stops: with ``huge_tree`` (every parser here,
#: and parsel's) and without (``etree.HTML()``'s default parser).
MAX_DEPTH = 2048
DEFAULT_MAX_DEPTH = 256


def depth_capped(root: Any) -> bool:
    """Whether the parse that built ``root`` stopped at a depth limit.

    It stops right after opening the element at the limit: the chain of last
    children is exactly that long, and its last element has no text and
    nothing after it.  A chain longer than the limit was not built by the
    parser.
    """
    el = root
    depth = 1
    while depth <= MAX_DEPTH:
        try:
            el = el[-1]
        except IndexError:
            break
        depth += 1
    if depth not in (MAX_DEPTH, DEFAULT_MAX_DEPTH):
        return False
    return el.text is None and el.tail is None


def keep_whole_html(root: Any, data: bytes) -> list[str]:
    """Rebuild ``root``, parsed from UTF-8 ``data`` by the HTML parser, if
    libxml2 stopped it at its depth limit; what could not be rebuilt."""
    if not depth_capped(root):
        return []
    return rebuild(root, [data], lambda target: html_parser("utf-8", target))


def _parsed_element(tag: str, attrib: Any) -> Any:
    """The element the HTML parser makes of ``<tag attrib...>`` (None: not the same)."""
    attributes = "".join(
        f' {key}="{value.replace("&", "&amp;").replace(chr(34), "&quot;")}"'
        for key, value in attrib.items()
    )
    parser = html_parser()
    try:
        root = etree.fromstring(f"<{tag}{attributes}>", parser)
    except (etree.XMLSyntaxError, ValueError):
        return None
    wanted = list(attrib.items())
    for el in root.iter(tag) if root is not None else ():
        # Names read without lxml's look-up by name, which refuses some.
        if el is not root and list(zip(el.keys(), _VALUES(el), strict=False)) == wanted:
            return el
    return None


_VALUES = etree.XPath("@*", smart_strings=False)


class _Builder:
    """A parser target building the elements of one document with lxml's API.

    Element and attribute names that lxml's API refuses (the HTML parser
    accepts almost any: ``xml:lang``) are made by the HTML parser itself,
    from the start tag written out; what even that cannot give back is left
    out (an element's content kept in its place) and listed in `dropped`.
    """

    def __init__(self) -> None:
        self.root: Any = None
        self.stack: list[Any] = []
        #: the slot text goes to: (element, is_tail), and its pieces
        self.slot: tuple[Any, bool] | None = None
        self.pieces: list[str] = []
        self.dropped: list[str] = []

    def _flush(self) -> None:
        if self.slot is not None and self.pieces:
            owner, is_tail = self.slot
            text = "".join(self.pieces)
            if is_tail:
                owner.tail = (owner.tail or "") + text
            else:
                owner.text = (owner.text or "") + text
        self.pieces = []

    def _move(self, slot: tuple[Any, bool] | None) -> None:
        self._flush()
        self.slot = slot

    def start(self, tag: str, attrib: Any, nsmap: Any = None) -> None:
        parent = self.stack[-1] if self.stack else None
        el: Any = None
        nsmap = nsmap or None  # XML: the declarations made on this element
        try:
            if parent is None:
                el = etree.Element(tag, nsmap=nsmap)
            else:
                el = etree.SubElement(parent, tag, nsmap=nsmap)
            for key, value in attrib.items():
                el.set(key, value)
        except ValueError:
            made = None if nsmap or parent is None else _parsed_element(tag, attrib)
            if made is None:
                # Its content goes where it stood: the parent is pushed again.
                self.dropped.append(f"the element <{tag}> (or a name on it)")
                if parent is not None and el is not None:
                    parent.remove(el)
                self.stack.append(parent)
                return
            assert parent is not None  # made only below a parent
            if el is not None:
                parent.remove(el)
            parent.append(made)
            el = made
        if self.root is None:
            self.root = el
        self.stack.append(el)
        self._move((el, False))

    def end(self, tag: str) -> None:
        el = self.stack.pop()
        if el is not None and not (self.stack and self.stack[-1] is el):
            self._move((el, True))

    def data(self, text: str) -> None:
        if self.slot is not None:
            self.pieces.append(text)

    def comment(self, text: str) -> None:
        self._node(etree.Comment(text))

    def pi(self, target: str, data: str | None = None) -> None:
        self._node(etree.ProcessingInstruction(target, data))

    def _node(self, node: Any) -> None:
        parent = self.stack[-1] if self.stack else None
        if parent is None:
            return  # top level: the native parse's document level is kept
        parent.append(node)
        self._move((node, True))

    def doctype(self, *args: Any) -> None:
        return None

    def close(self) -> Any:
        self._flush()
        return self.root


def rebuild(
    native_root: Any, chunks: list[bytes], make_parser: Callable[[Any], Any]
) -> list[str]:
    """Give ``native_root`` (a root stopped at the depth limit) its whole content.

    ``chunks`` are the bytes that were parsed, fed in turn to the parser
    ``make_parser(target)`` makes: the native parse's, with a target.  In
    XML that is the push parser (libxml2's pull parser refuses the depth
    itself).  Returns what could not be rebuilt (empty: the tree is whole now).
    """
    builder: Any = _Builder()  # a ParserTarget for lxml
    parser = make_parser(builder)
    try:
        for chunk in chunks:
            parser.feed(chunk)
        root = parser.close()
    except Exception:  # the native tree stays, marked truncated
        root = None
    if root is None or root.tag != native_root.tag:
        return [f"the document is deeper than the parser builds trees ({MAX_DEPTH})"]
    for child in list(native_root):
        native_root.remove(child)
    native_root.text = root.text
    for child in list(root):
        native_root.append(child)
    return [f"{what} (the parser's name, not lxml's)" for what in builder.dropped]
