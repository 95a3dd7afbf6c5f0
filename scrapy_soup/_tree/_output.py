"""Rendering the soup as text: ``decode``/``prettify``/``get_text``, as bs4.

The walk runs over the lxml tree directly (no wrapper per node) with an
explicit stack, so a 100,000-deep document renders at Python's default
recursion limit.  The pretty-printing state machine is bs4's
``Tag.decode`` line for line, fed with the same event stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

from lxml import etree

from ._attrs import attribute_items, is_multi_valued, split_value
from ._cache import LRU
from ._classes import classes
from ._formatter import Formatter, formatter_for_name
from ._identity import cached_string, cached_wrapper, wrap
from ._strings import (
    Comment,
    NavigableString,
    PreformattedString,
    ProcessingInstruction,
    XMLProcessingInstruction,
)
from ._tables import (
    ASCII_SPACES,
    COMMENT_NODE,
    PI_NODE,
    PRESERVE_WHITESPACE_TAGS,
    PYTHON_SPECIFIC_ENCODINGS,
    VOID_ELEMENTS,
)
from ._text import (
    TextContext,
    all_text_values,
    node_raw_text,
    normalize_text,
    text_context,
    text_string,
)
from ._write import fast_decode, meta_substitution

if TYPE_CHECKING:
    from ._document import Document
    from ._node import PageElement
    from ._tag import Tag

START, END, EMPTY, STRING = 0, 1, 2, 3


def _node_string(node: Any, walk: TextContext) -> tuple[str, type[NavigableString]]:
    """The text and class of a comment / PI / entity node."""
    raw = node_raw_text(node)
    if isinstance(node, COMMENT_NODE):
        return walk.value(raw), Comment
    if isinstance(node, PI_NODE):
        return raw, XMLProcessingInstruction if walk.is_xml else ProcessingInstruction
    return raw, NavigableString


def _walk_element(
    el: Any, walk: TextContext, with_self: bool
) -> Iterator[tuple[Any, ...]]:
    """Events for ``el`` (optionally itself) and its subtree, not its tail.

    Events: ``(START|END|EMPTY, element)`` and ``(STRING, value, cls, parent,
    owner, is_tail)``, where ``owner``/``is_tail`` name the lxml slot (or
    ``owner`` is the comment/PI node and ``is_tail`` None).
    """
    is_xml = walk.is_xml
    if with_self:
        if not el.text and not len(el) and (is_xml or el.tag in VOID_ELEMENTS):
            yield (EMPTY, el)
            return
        yield (START, el)
    walk.enter(el)
    raw = el.text
    if raw:
        yield (STRING, walk.value(raw), walk.string_class(), el, el, False)
    stack: list[tuple[Any, Iterator[Any]]] = [(el, iter(el))]
    while stack:
        parent, children = stack[-1]
        for child in children:
            tag = child.tag
            if isinstance(tag, str):
                if (
                    not child.text
                    and not len(child)
                    and (is_xml or tag in VOID_ELEMENTS)
                ):
                    yield (EMPTY, child)
                else:
                    yield (START, child)
                    walk.enter(child)
                    raw = child.text
                    if raw:
                        yield (
                            STRING,
                            walk.value(raw),
                            walk.string_class(),
                            child,
                            child,
                            False,
                        )
                    stack.append((child, iter(child)))
                    break
            else:
                value, cls = _node_string(child, walk)
                yield (STRING, value, cls, parent, child, None)
            raw = child.tail
            if raw:
                yield (
                    STRING,
                    walk.value(raw),
                    walk.string_class(),
                    parent,
                    child,
                    True,
                )
        else:
            stack.pop()
            walk.leave(parent)
            if parent is not el or with_self:
                yield (END, parent)
            if stack:
                raw = parent.tail
                if raw:
                    grand = stack[-1][0]
                    yield (
                        STRING,
                        walk.value(raw),
                        walk.string_class(),
                        grand,
                        parent,
                        True,
                    )


def _events(node: PageElement, contents_only: bool) -> Iterator[tuple[Any, ...]]:
    """bs4's ``_event_stream`` for a tag, a soup or a string."""
    doc = node._document()
    events = _tree_events(node, contents_only, doc)
    if doc is None:
        return events
    if doc._verbatim:
        events = _with_verbatim(events, doc._verbatim)
    if doc._segmented:
        events = _with_segments(events, doc)
    return events


def _with_segments(
    events: Iterator[tuple[Any, ...]], doc: Document
) -> Iterator[tuple[Any, ...]]:
    """A slot holding several strings (`_view.bind_segments`): one event each.

    The soup keeps such a slot's first string, so the identity map has it:
    a slot without one is a single string, made only if someone asks.
    """
    for event in events:
        if event[0] == STRING and event[5] is not None:
            owner, is_tail = event[4], event[5]
            found = cached_string(owner, is_tail)
            if (
                found is not None
                and found._seg is not None
                and found._raw == (owner.tail if is_tail else owner.text)
            ):
                for string in found._seg:
                    yield (STRING, str(string), type(string), event[3], string, None)
                continue
        yield event


def _with_verbatim(
    events: Iterator[tuple[Any, ...]], verbatim: set[tuple[Any, bool | None]]
) -> Iterator[tuple[Any, ...]]:
    """Strings of slots an edit wrote, and comments an edit made, keep their
    raw text (see ``Document._verbatim``)."""
    for event in events:
        if event[0] == STRING and (event[4], event[5]) in verbatim:
            owner, is_tail = event[4], event[5]
            if is_tail is None:  # a comment node
                raw = owner.text or ""
            else:
                raw = owner.tail if is_tail else owner.text
            event = (STRING, raw, *event[2:])
        yield event


def _tree_events(
    node: PageElement, contents_only: bool, doc: Document | None
) -> Iterator[tuple[Any, ...]]:
    # The tree's own mode (`text_context`): bs4 decides how a tag prints
    # (``<tag/>``) when it builds it, so setting ``soup.is_xml`` later
    # changes only the soup's declaration and formatter.
    # bs4's ``self_and_descendants`` leaves out a hidden tag (the document
    # node), so the soup itself yields no events.
    if isinstance(node, classes.Soup) and node._el is None:
        for child in node._doc._top_children():
            if isinstance(child, classes.Tag):
                yield from _walk_element(child._el, text_context(doc, None), True)
            elif isinstance(child, NavigableString):
                yield (STRING, str(child), type(child), None, child, None)
        return
    if isinstance(node, classes.Tag):
        el = node._el
        walk = text_context(doc, el.getparent())
        yield from _walk_element(el, walk, not (contents_only or node.hidden))
        return
    if isinstance(node, NavigableString):  # pragma: no branch
        yield (STRING, str(node), type(node), None, node, None)


def _attribute_items(
    el: Any, is_xml: bool, own: list[tuple[str, str]] | None = None
) -> list[tuple[str, Any]]:
    """A tag's attributes as bs4 holds them: multi-valued ones as lists."""
    if is_xml:
        return xml_attribute_items(el, own)
    tag = el.tag
    return [
        (k, split_value(v) if is_multi_valued(tag, k) else v)
        for k, v in attribute_items(el)
    ]


def xml_attribute_items(
    el: Any, own: list[tuple[str, str]] | None = None
) -> list[tuple[str, str]]:
    """XML attributes with prefixed names, plus the namespace declarations made here.

    bs4's lxml-xml builder turns ``{uri}local`` into ``prefix:local`` and
    lists each new ``xmlns``/``xmlns:prefix`` declaration as an attribute.
    ``own``, when the caller knows them, lists the declarations made on
    ``el``: with none, ``el.nsmap`` (which walks every ancestor: printing a
    100,000-deep document was quadratic) is read only for prefixed attributes.
    """
    items: list[tuple[str, str]] = []
    pairs = attribute_items(el)
    qualified = any(key[0] == "{" for key, _ in pairs)
    nsmap = el.nsmap if qualified or own is None or own else {}
    inverse = {uri: prefix for prefix, uri in nsmap.items()}
    for key, value in pairs:
        if key[0] == "{":
            uri, local = key[1:].split("}", 1)
            prefix = inverse.get(uri)
            if uri == "http://www.w3.org/XML/1998/namespace":
                prefix = "xml"
            key = f"{prefix}:{local}" if prefix else local
        items.append((key, value))
    if own is not None and not own:
        return items
    parent = el.getparent()
    inherited = parent.nsmap if parent is not None else {}
    for prefix, uri in nsmap.items():
        if inherited.get(prefix) != uri:
            items.append(("xmlns:" + prefix if prefix else "xmlns", uri))
    return items


def _own_namespaces(top: Any) -> Iterator[tuple[Any, list[tuple[str, str]]]]:
    """Each element from ``top`` down, in document order, with the declarations made on it."""
    pending: list[tuple[str, str]] = []
    walk: Any = etree.iterwalk(top, events=("start-ns", "start"))
    for event, item in walk:
        if event == "start-ns":
            pending.append(item)
        else:
            yield item, pending
            pending = []


class _Renderer:
    """Formats tags and strings with one formatter (bs4's ``_format_tag``/``output_ready``)."""

    def __init__(
        self,
        fmt: Formatter,
        doc: Document | None,
        is_xml: bool,
        eventual_encoding: str | None,
    ) -> None:
        self.fmt = fmt
        self.doc = doc
        self.is_xml = is_xml
        self.eventual_encoding = eventual_encoding
        cls = type(fmt)
        self.default_attributes = (
            getattr(cls, "attributes", None) is Formatter.attributes
        )
        self.default_substitute = (
            getattr(cls, "substitute", None) is Formatter.substitute
        )
        self.default_attribute_value = (
            getattr(cls, "attribute_value", None) is Formatter.attribute_value
        )
        self.substitution = fmt.entity_substitution if self.default_substitute else None
        self.cdata_tags = fmt.cdata_containing_tags
        self.close_prefix = fmt.void_element_close_prefix or ""
        self.booleans = fmt.empty_attributes_are_booleans
        # A hidden tag prints as nothing, its contents as usual (bs4's
        # ``_format_tag``); the document says whether it has one.
        self.hidden = doc is not None and doc._has_hidden
        self._ns_walk: Iterator[tuple[Any, list[tuple[str, str]]]] | None = None

    def _declared_on(self, el: Any) -> list[tuple[str, str]] | None:
        """The namespace declarations made on ``el`` (None: not known).

        lxml gives an element's in-scope namespaces only (``nsmap`` walks
        every ancestor), and its own only to ``iterwalk``: one walk from
        the first tag printed, advanced in step with the render, which
        opens tags in the same document order.
        """
        for _ in range(2):
            walk = self._ns_walk
            if walk is None:
                walk = self._ns_walk = _own_namespaces(el)
            for item, own in walk:
                if item is el:
                    return own
            self._ns_walk = None  # not below the first tag: walk from this one
        return None

    def attribute_value(self, value: str) -> str:
        if self.default_attribute_value and self.default_substitute:
            sub = self.substitution
            return sub(value) if sub else value
        return self.fmt.attribute_value(value)

    def tag(self, el: Any, opening: bool, empty: bool) -> str:
        if self.hidden and getattr(cached_wrapper(el), "_hidden", False):
            return ""
        tag: str = el.tag
        if tag[0] == "{":
            tag = tag.split("}", 1)[1]
        prefix = el.prefix if self.is_xml else None
        name = f"{prefix}:{tag}" if prefix else tag
        if not opening:
            return f"</{name}>"
        if self.default_attributes:
            own = self._declared_on(el) if self.is_xml else None
            items = _attribute_items(el, self.is_xml, own)
            if items:
                if (
                    not self.is_xml
                    and tag == "meta"
                    and self.eventual_encoding is not None
                ):
                    items = meta_substitution(items, self.eventual_encoding)
                items = sorted(
                    (k, (None if self.booleans and v == "" else v)) for k, v in items
                )
        else:
            items = list(self.fmt.attributes(wrap(el, self.doc)))
        parts = []
        for key, val in items:
            if val is None:
                parts.append(key)
                continue
            if isinstance(val, (list, tuple)):
                val = " ".join(val)
            elif not isinstance(val, str):
                val = str(val)
            text = self.attribute_value(val)
            parts.append(f"{key}={self.fmt.quoted_attribute_value(text)}")
        attrs = " " + " ".join(parts) if parts else ""
        slash = self.close_prefix if empty else ""
        return f"<{name}{attrs}{slash}>"

    def string(
        self,
        value: str,
        cls: type[NavigableString],
        parent: Any,
        owner: Any,
        is_tail: Any,
    ) -> str:
        formatted = self._substitute(value, cls, parent, owner, is_tail)
        if issubclass(cls, PreformattedString):
            # bs4 formats a comment, CData or doctype too, and prints it as it
            # is: only a formatter function can tell.
            formatted = value
        return cls.PREFIX + formatted + cls.SUFFIX

    def _substitute(
        self, value: str, cls: Any, parent: Any, owner: Any, is_tail: Any
    ) -> str:
        if self.default_substitute:
            sub = self.substitution
            if sub is not None and not (
                parent is not None and parent.tag in self.cdata_tags
            ):
                return sub(value)
            return value
        return self.fmt.substitute(self._materialize(value, cls, owner, is_tail))

    def _materialize(self, value: str, cls: Any, owner: Any, is_tail: Any) -> Any:
        # A custom Formatter.substitute looks at ``string.parent``: give it a
        # real NavigableString.
        if isinstance(owner, NavigableString):
            return owner
        if is_tail is None:
            return wrap(owner, self.doc)
        return text_string(owner, is_tail, self.doc) or cls(value)


def render(
    node: PageElement,
    indent_level: int | bool | None,
    eventual_encoding: str | None,
    formatter: Any,
    contents_only: bool,
) -> str:
    """bs4's ``Tag.decode`` over the view (`_write.fast_decode` when it can)."""
    written = fast_decode(
        node, indent_level, eventual_encoding, formatter, contents_only
    )
    if written is not None:
        return written
    doc = node._document()
    is_xml = doc is not None and doc._mode == "xml"
    # The soup's ``is_xml`` (which a user may set) picks the formatter and the
    # declaration; the tree's mode, how each tag prints (see `_tree_events`).
    declares_xml = bool(node.is_xml) if isinstance(node, classes.Soup) else is_xml
    fmt = formatter_for_name(formatter, declares_xml)
    renderer = _Renderer(fmt, doc, is_xml, eventual_encoding)
    if indent_level is True:
        indent_level = 0
    pretty = indent_level is not None
    level: int = int(indent_level or 0)
    indent = fmt.indent
    pieces: list[str] = []
    string_literal_tag: Any = None
    for event in _events(node, contents_only):
        kind = event[0]
        item = event[1]
        if kind == STRING:
            piece = renderer.string(item, event[2], event[3], event[4], event[5])
        elif kind == END:
            piece = renderer.tag(item, False, False)
        else:
            piece = renderer.tag(item, True, kind == EMPTY)
        if kind == END and pretty:
            level -= 1
        if not pretty:
            pieces.append(piece)
            continue
        if string_literal_tag is not None:
            before = after = False
        else:
            before = after = True
        if (
            kind == START
            and string_literal_tag is None
            and not _should_pretty_print(item, is_xml)
        ):
            before, after = True, False
            string_literal_tag = item
        elif kind == END and item is string_literal_tag:
            before, after = False, True
            string_literal_tag = None
        if before or after:
            if kind == STRING:
                piece = piece.strip()
            if piece:
                space_before = indent * level if before and level else ""
                piece = space_before + piece + ("\n" if after else "")
        if kind == START:
            level += 1
        pieces.append(piece)
    out = "".join(pieces)
    if isinstance(node, classes.Soup) and declares_xml:
        declared = eventual_encoding
        if eventual_encoding in PYTHON_SPECIFIC_ENCODINGS:
            declared = None
        part = f' encoding="{declared}"' if declared is not None else ""
        out = f'<?xml version="1.0"{part}?>\n' + out
    return out


def _should_pretty_print(item: Any, is_xml: bool) -> bool:
    if is_xml or not hasattr(item, "tag"):
        return True
    return item.tag not in PRESERVE_WHITESPACE_TAGS


_MAIN_TEXT = etree.XPath(
    "descendant::text()[not(ancestor::script or ancestor::style or "
    "ancestor::template or ancestor::rt or ancestor::rp)]"
)
_ALL_TEXT_PLAIN = etree.XPath("descendant::text()", smart_strings=False)
# Plain strings ("smart" strings know their parent, which costs a third of
# the time): only whitespace inside <pre>/<textarea> needs the parent.
_MAIN_TEXT_PLAIN = etree.XPath(_MAIN_TEXT.path, smart_strings=False)
_STRING_CONTAINER_TAGS = ("script", "style", "template", "rt", "rp")
_SCANNED_TAGS = (*_STRING_CONTAINER_TAGS, *PRESERVE_WHITESPACE_TAGS)
#: `_marked_text`'s XPaths, by the set of marker tag names.
_MARKED = LRU(64)


def _marked_xpath(names: frozenset[str]) -> Any:
    """`_marked_text`'s XPath for these marker names, compiled and kept."""
    steps = ["descendant::text()", *(f"descendant::{name}" for name in sorted(names))]
    select = etree.XPath(" | ".join(steps), smart_strings=False)
    _MARKED.put(names, select)
    return select


def _marked_text(el: Any, keep_pre: bool) -> tuple[list[str], list[int]] | None:
    """The raw text of the ``NavigableString``s below ``el`` (HTML, not in a
    string container), and the [start, end) bounds of the runs of it inside
    a ``<pre>``/``<textarea>`` (with ``keep_pre``); None when the text of a
    container could not be told apart (the caller's general XPath then).

    libxml2 tests a predicate such as ``not(parent::script)`` on a text node
    for three times what selecting it costs.  Here one XPath selects every
    text node and, as markers, the string containers and ``<pre>`` tags
    below ``el``, in document order; a container's text nodes are the items
    right after its marker (usually one: its ``.text`` says so), and are cut
    out.  The markers are few, found in the list by `list.index` (in C).
    """
    names = _SCANNED_TAGS if keep_pre else _STRING_CONTAINER_TAGS
    found = list(el.iterdescendants(*names))
    if not found:
        return _ALL_TEXT_PLAIN(el), []
    key = frozenset([m.tag for m in found])
    select = _MARKED.get(key) or _marked_xpath(key)
    items: list[Any] = select(el)
    index = items.index
    out: list[str] = []
    runs: list[int] = []  # the <pre> runs: start, end, start, end, ...
    pos = pre_end = 0  # next item to take; where the current <pre> run ends
    inside: set[Any] = set()  # markers inside a container cut out
    for marker in found:
        if marker in inside:
            continue
        try:
            at = index(marker, pos)
        except ValueError:  # pragma: no cover - the XPath selects what iter() finds
            return None
        if pos < pre_end:  # a run of <pre> text up to here
            runs.append(len(out))
            out += items[pos : min(at, pre_end)]
            runs.append(len(out))
            pos = min(at, pre_end)
        out += items[pos:at]
        if marker.tag in PRESERVE_WHITESPACE_TAGS:
            if at >= pre_end:  # (a <pre> in a <pre> changes nothing)
                pre_end = at + 1 + len(select(marker))
            pos = at + 1
            continue
        # A string container: skip it and the items inside it.
        text = marker.text
        if len(marker):
            inside.update(marker.iterdescendants(*names))
            count = len(select(marker))
        elif text is None:
            count = 0
        elif text and items[at + 1] == text and items[at + 2 : at + 3] != [""]:
            count = 1  # one text node holds its text (libxml2 merges them)
        else:
            count = len(select(marker))
        pos = at + 1 + count
    if pos < pre_end:
        runs.append(len(out))
        out += items[pos:pre_end]
        runs.append(len(out))
        pos = pre_end
    out += items[pos:]
    return out, runs


def _is_small(el: Any) -> bool:
    """Whether ``el`` has few children and grandchildren (a paragraph, not a page)."""
    if len(el) > 8:
        return False
    count = 0
    for child in el:
        count += len(child)
        if count > 16:
            return False
    return True


def _collapse_blank(values: list[str]) -> list[str]:
    """``values`` with each whitespace-only string collapsed as bs4 does.

    A page repeats a few blank strings (indentation) thousands of times:
    each distinct value is looked at once, and one comprehension of dict
    look-ups maps the list (~3x faster than a test per value).
    """
    table: dict[str, str] = {}
    for value in set(values):
        if not value.strip(ASCII_SPACES):
            table[value] = "\n" if "\n" in value else " "
    if not table:
        return list(values)
    get = table.get
    return [get(value, value) for value in values]


def main_text_values(node: Tag, strip: bool = False) -> list[str]:
    """The values of the ``NavigableString``s below ``node``, found by XPath.

    A string is of class ``NavigableString`` exactly when no ``<script>``,
    ``<style>``, ``<template>``, ``<rt>`` or ``<rp>`` encloses it, and a
    whitespace-only one collapses unless in ``<pre>``/``<textarea>``:
    `_marked_text` finds both from one XPath.  With ``strip``, the values
    stripped, empty ones left out (bs4's ``get_text(strip=True)``).
    """
    doc = node._doc
    is_xml = doc is not None and doc._mode == "xml"
    trailer: list[str] = []
    el = node._el
    if el is None:  # only a document soup wraps no element
        soup = cast("Document", doc)
        el = soup._root
        trailer = [s for s in soup._trailer if type(s) is NavigableString]
        if el is None:
            return [v for v in map(str.strip, trailer) if v] if strip else trailer
        if el.getparent() is not None:
            trailer = []
        elif soup._leader or any(isinstance(t.tag, str) for t in el.itersiblings()):
            # Strings before the root (after a stray end tag), or content
            # libxml2 put after a stray </html> in a second top-level
            # element: the walk over the document's children sees them.
            return list(iter_strings(node, strip, node.MAIN_CONTENT_STRING_TYPES))
    if doc is not None and not doc._collapses:
        # The html5 mode: every string as html5lib gave it (`KeptTextContext`).
        out = [*all_text_values(el, False), *trailer]
        return [v for v in map(str.strip, out) if v] if strip else out
    if doc is not None and doc._verbatim and not strip:
        # Whitespace an edit wrote keeps every character: the walk knows which.
        return list(iter_strings(node, strip, node.MAIN_CONTENT_STRING_TYPES))
    if strip and node._el is not None and not is_xml and _is_small(el):
        # A small element (a paragraph, a heading): one XPath with the
        # ancestor tests is cheaper than deciding whether the simple one
        # would do (two more lxml calls).
        return [v for v in map(str.strip, _MAIN_TEXT_PLAIN(el)) if v]
    raw: list[str] | None = None
    runs: list[int] = []
    preserve_all = False
    if is_xml:
        raw = _ALL_TEXT_PLAIN(el)
    elif el.tag not in _STRING_CONTAINER_TAGS and not any(
        True for _ in el.iterancestors(*_STRING_CONTAINER_TAGS)
    ):
        # Whitespace-only strings collapse unless a <pre>/<textarea>
        # encloses them; stripped, they go whether they collapse or not.
        preserve_all = el.tag in PRESERVE_WHITESPACE_TAGS or any(
            True for _ in el.iterancestors(*PRESERVE_WHITESPACE_TAGS)
        )
        marked = _marked_text(el, not strip and not preserve_all)
        if marked is not None:
            raw, runs = marked
    if raw is not None:
        if strip:
            return [v for v in map(str.strip, [*raw, *trailer]) if v]
        out = raw if preserve_all else _collapse_blank(raw)
        for at in range(0, len(runs), 2):
            start, end = runs[at], runs[at + 1]
            out[start:end] = raw[start:end]
        out.extend(trailer)
        return out
    # Inside a string container (its strings are of its class): the ancestor
    # tests of one XPath, and a look at the ancestors of blank strings.
    if strip:
        return [v for v in map(str.strip, [*_MAIN_TEXT_PLAIN(el), *trailer]) if v]
    out = []
    append = out.append
    for value in _MAIN_TEXT(el):
        if value.strip(ASCII_SPACES):
            append(value)
        else:
            parent = value.getparent()
            if value.is_tail:
                parent = parent.getparent()
            append(normalize_text(str(value), parent, is_xml))
    out.extend(trailer)
    return out


def iter_strings(node: Tag, strip: bool, types: Any) -> Iterator[str]:
    """The strings below ``node`` of the given types (bs4's ``_all_strings``)."""
    single = isinstance(types, type)
    for event in _events(node, True):
        if event[0] != STRING:
            continue
        cls = event[2]
        if types is not None:
            if single:
                if cls is not types:
                    continue
            elif cls not in types:
                continue
        value: str = event[1]
        if strip:
            value = value.strip()
            if not value:
                continue
            yield value
        elif isinstance(event[4], NavigableString):
            yield event[4]
        elif event[5] is None:
            yield wrap(event[4], node._doc)
        else:
            yield text_string(event[4], event[5], node._doc)


def structurally_equal(a: Tag, b: Tag) -> bool:
    """bs4's ``Tag.__eq__``: same name, attributes and contents, recursively."""
    stack: list[tuple[Tag, Tag]] = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x.name != y.name or dict(x.attrs.items()) != dict(y.attrs.items()):
            return False
        cx, cy = x.contents, y.contents
        if len(cx) != len(cy):
            return False
        for p, q in zip(cx, cy, strict=True):
            if p is q:
                continue
            if isinstance(p, classes.Tag):
                if not isinstance(q, classes.Tag):
                    return False
                stack.append((p, q))
            elif isinstance(q, classes.Tag) or p != q:
                return False
    return True
