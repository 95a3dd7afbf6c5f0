"""The strings of the tree: lxml's text slots read as bs4's strings.

lxml keeps text in an element's ``.text`` and ``.tail``; bs4 has string
nodes, whitespace-only ones collapsed and of a class (`Script`,
`Stylesheet`, ...) set by the tags around them.  The functions here make
those strings, remember them in `_identity`'s maps, and walk an element's
contents and descendants as bs4 lists them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from lxml import etree

from ._classes import classes, string_class_for
from ._identity import (
    NO_REF,
    TAIL_REFS,
    TEXT_REFS,
    WRAPPER_REFS,
    Ref,
    forget_tail,
    forget_text,
    wrap,
)
from ._tables import ASCII_SPACES, PI_NODE, PRESERVE_WHITESPACE_TAGS, TEXT_CONTEXT_TAGS

if TYPE_CHECKING:
    from lxml.etree import _Element

    from ._document import Document
    from ._strings import NavigableString


_new_str = str.__new__
#: The maps' look-ups, bound once (module globals are cached by the
#: interpreter; a local binding costs two look-ups per call).
_wrapper_ref = WRAPPER_REFS.get
_text_ref = TEXT_REFS.get
_tail_ref = TAIL_REFS.get


def node_raw_text(node: _Element) -> str:
    """The text of a comment, PI or entity node as bs4 holds it.

    bs4's lxml builder makes a processing instruction's string of
    ``target + " " + data``.
    """
    text = node.text or ""
    if isinstance(node, PI_NODE):
        return f"{node.target} {text}"
    return text


def normalize_text(raw: str, parent: _Element | None, is_xml: bool) -> str:
    """What bs4 makes of a text node: whitespace-only strings collapse.

    bs4 turns a string of only ASCII whitespace into "\\n" (if it holds one)
    or " ", unless it is inside ``<pre>``/``<textarea>`` (HTML only).
    """
    if raw.strip(ASCII_SPACES):
        return raw
    if not is_xml and parent is not None:
        if parent.tag in PRESERVE_WHITESPACE_TAGS:
            return raw
        for _ in parent.iterancestors(*PRESERVE_WHITESPACE_TAGS):
            return raw
    return "\n" if "\n" in raw else " "


def reads_collapsed(value: str) -> bool:
    """Whether ``value``, read back from lxml as parser text, would collapse
    (`normalize_text`): a string an edit made with it is kept verbatim."""
    return value not in (" ", "\n") and not value.strip(ASCII_SPACES)


def text_string(
    owner: Any,
    is_tail: bool,
    doc: Document | None,
    raw: str | None = None,
    walk: TextContext | None = None,
) -> Any:
    """The `NavigableString` in ``owner``'s ``.text`` or ``.tail`` slot, or None.

    ``walk`` (when the caller is walking the tree) already knows the string's
    class and whether whitespace is preserved, which saves a look at the
    ancestors.
    """
    if raw is None:
        raw = owner.tail if is_tail else owner.text
        if not raw:
            return None
    ref = (TAIL_REFS if is_tail else TEXT_REFS).get(owner)
    if ref is not None:
        found = ref()
        if found is not None and found._raw == raw:
            return found
    return new_string(owner, is_tail, doc, raw, walk)


def new_string(
    owner: Any,
    is_tail: bool,
    doc: Document | None,
    raw: str,
    walk: TextContext | None,
) -> Any:
    """A new string object for a text slot, remembered (`text_string`'s miss)."""
    if walk is not None:
        value = walk.value(raw)
        cls = walk.string_class()
    elif doc is not None and not doc._collapses:  # (the html5 mode: as parsed)
        value, cls = raw, classes.NavigableString
    else:
        parent = owner.getparent() if is_tail else owner
        is_xml = doc is not None and doc._mode == "xml"
        value = normalize_text(raw, parent, is_xml)
        cls = classes.NavigableString if is_xml else string_class_for(parent)
    key = (owner, is_tail)
    if value is not raw and doc is not None and doc._verbatim and key in doc._verbatim:
        value = raw  # an edit wrote it: bs4's value as it is
    # Inline _for_slot; ``_el`` keeps its class default (None).
    string = _new_str(cls, value)
    string._owner = owner
    string._tail = is_tail
    string._doc = doc
    string._raw = raw
    if is_tail:
        ref = Ref(string, forget_tail)
        TAIL_REFS[owner] = ref
    else:
        ref = Ref(string, forget_text)
        TEXT_REFS[owner] = ref
    ref.key = owner
    if doc is not None:
        doc._kept[key] = string
    return string


class TextContext:
    """What a walk down the tree knows about the strings it meets.

    bs4 decides a string's class (``Script``, ``Stylesheet``, ...) and whether
    its whitespace collapses from the tags open around it; a walk keeps that
    as a stack instead of looking at every string's ancestors.
    """

    __slots__ = ("containers", "is_xml", "preserve")

    def __init__(self, is_xml: bool, start_parent: _Element | None) -> None:
        self.is_xml = is_xml
        self.preserve = 0
        self.containers: list[type[NavigableString]] = [classes.NavigableString]
        if start_parent is not None and not is_xml:
            # One walk up for both questions; usually it meets none of these.
            cls = None
            tag = start_parent.tag
            if tag in TEXT_CONTEXT_TAGS:
                if tag in PRESERVE_WHITESPACE_TAGS:
                    self.preserve = 1
                else:
                    cls = classes.STRING_CONTAINERS[tag]
            for ancestor in start_parent.iterancestors(*TEXT_CONTEXT_TAGS):
                tag = str(ancestor.tag)  # (the filter yields elements only)
                if tag in PRESERVE_WHITESPACE_TAGS:
                    self.preserve = 1
                elif cls is None:
                    cls = classes.STRING_CONTAINERS[tag]
                if cls is not None and self.preserve:
                    break
            self.containers.append(cls or classes.NavigableString)

    @classmethod
    def inside(cls, el: _Element, doc: Document | None) -> TextContext:
        """The context of the strings directly inside ``el`` (its text, its
        children's tails), in ``doc``'s tree."""
        walk = text_context(doc, el.getparent())
        walk.enter(el)
        return walk

    # Only the tags of TEXT_CONTEXT_TAGS change the context: the others cost
    # one set lookup (a walk calls these for every element).
    def enter(self, el: _Element) -> None:
        tag = el.tag
        if tag in TEXT_CONTEXT_TAGS and not self.is_xml:
            if tag in PRESERVE_WHITESPACE_TAGS:
                self.preserve += 1
            self.containers.append(
                classes.STRING_CONTAINERS.get(tag) or self.containers[-1]
            )

    def leave(self, el: _Element) -> None:
        tag = el.tag
        if tag in TEXT_CONTEXT_TAGS and not self.is_xml:
            if tag in PRESERVE_WHITESPACE_TAGS:
                self.preserve -= 1
            self.containers.pop()

    def value(self, raw: str) -> str:
        if self.preserve or raw.strip(ASCII_SPACES):
            return raw
        return "\n" if "\n" in raw else " "

    def string_class(self) -> type[NavigableString]:
        return classes.NavigableString if self.is_xml else self.containers[-1]


class KeptTextContext(TextContext):
    """The context of every string of an html5 mode tree: none changes it.

    bs4's html5lib tree builder adds each string as html5lib gives it:
    whitespace-only strings are not collapsed (not even outside
    ``<pre>``), and strings in ``<script>``, ``<style>``, ``<template>``,
    ``<rt>``, ``<rp>`` are `NavigableString`s like any other
    (``Document._collapses``, ``Document._typed``).
    """

    __slots__ = ()

    def __init__(self) -> None:
        self.is_xml = False
        self.preserve = 1
        self.containers = [classes.NavigableString]

    def enter(self, el: _Element) -> None:
        pass

    def leave(self, el: _Element) -> None:
        pass

    def value(self, raw: str) -> str:
        return raw

    def string_class(self) -> type[NavigableString]:
        return classes.NavigableString


def text_context(doc: Document | None, start_parent: _Element | None) -> TextContext:
    """A walk's `TextContext` for the strings below ``start_parent`` in ``doc``."""
    if doc is not None and not doc._collapses:
        return KeptTextContext()
    return TextContext(doc is not None and doc._mode == "xml", start_parent)


def child_nodes(el: _Element, doc: Document | None) -> list[Any]:
    """An element's contents as bs4 lists them: text, children and their tails."""
    out: list[Any] = []
    append = out.append
    # Every string here has ``el`` as its parent: one look at the ancestors
    # serves all the strings that are not remembered yet.
    walk: TextContext | None = None
    raw = el.text
    if raw:
        found = _text_ref(el, NO_REF)()
        if found is None or found._raw != raw:
            walk = TextContext.inside(el, doc)
            found = new_string(el, False, doc, raw, walk)
        append(found)
    # ``el[0]`` and ``getnext()``: an lxml child iterator costs five times
    # those calls, more than a few children's steps.
    child = el[0] if len(el) else None
    while child is not None:
        found = _wrapper_ref(child, NO_REF)()
        append(found if found is not None else wrap(child, doc))
        raw = child.tail
        if raw:
            found = _tail_ref(child, NO_REF)()
            if found is None or found._raw != raw:
                if walk is None:
                    walk = TextContext.inside(el, doc)
                found = new_string(child, True, doc, raw, walk)
            append(found)
        child = child.getnext()
    if doc is not None and doc._segmented:
        return list(with_segments(out))
    return out


#: Tags whose strings are not of the page's main text (`STRING_CONTAINERS`),
#: and those plus the tags that keep whitespace.
_NOT_PLAIN_TEXT = TEXT_CONTEXT_TAGS - PRESERVE_WHITESPACE_TAGS
_NOT_PLAIN_TEXT_PRESERVED = TEXT_CONTEXT_TAGS
#: Elements larger than this take the XPath path of `get_text()`.
_SMALL_TEXT_NODES = 48
#: The key in ``Document._kept`` of the document's `parent_context` answers.
_CONTEXTS = object()


def _context_at(el: _Element) -> int:
    """What the text-context tags at or above ``el`` do to the strings below it.

    0: nothing; 1: a ``<pre>``/``<textarea>`` keeps their whitespace; 2: a
    string container (``<script>``, ``<template>``, ...) gives them its class.
    """
    tag = el.tag
    if tag in _NOT_PLAIN_TEXT:
        return 2
    found = 1 if tag in PRESERVE_WHITESPACE_TAGS else 0
    for ancestor in el.iterancestors(*TEXT_CONTEXT_TAGS):
        if ancestor.tag in _NOT_PLAIN_TEXT:
            return 2
        found = 1
    return found


def parent_context(parent: _Element, doc: Document | None) -> int:
    """`_context_at` of ``parent``, remembered by its soup until an edit.

    Siblings share the answer (the paragraphs of an article, the items of a
    list), which saves the walk up that cost a third of a small
    `get_text()`.  Taking nodes out cannot give an element a new ancestor, so
    only edits that put a tag in or rename one make the soup forget
    (`forget_contexts`); edits made with lxml's own API are not seen.
    """
    if doc is None:
        return _context_at(parent)
    kept = doc._kept
    known = kept.get(_CONTEXTS)
    if known is None:
        known = kept[_CONTEXTS] = {}
    found: int | None = known.get(parent)
    if found is None:
        found = known[parent] = _context_at(parent)
    return found


def forget_contexts(doc: Document) -> None:
    """Drop the soup's `parent_context` answers: an edit may have changed them."""
    doc._kept.pop(_CONTEXTS, None)


def small_text_values(
    el: Any, strip: bool, doc: Document | None = None
) -> list[str] | None:
    """``get_text()``'s values for a small HTML element (a paragraph), or None.

    One walk of its few nodes in Python (a stack of open elements puts each
    tail after its element's subtree) costs a fraction of an XPath that
    tests five ancestors of every text node.  None, for the general path,
    when the element is large, or a ``<script>``, ``<style>``,
    ``<template>``, ``<rt>``, ``<rp>`` (or, without ``strip``, a
    ``<pre>``/``<textarea>``) is the element, around it or inside it.
    """
    blocked = _NOT_PLAIN_TEXT if strip else _NOT_PLAIN_TEXT_PRESERVED
    if el.tag in blocked:
        return None
    if doc is not None and not doc._collapses:
        # The html5 mode: every string below ``el`` is a NavigableString,
        # as html5lib gave it (`KeptTextContext`).
        return all_text_values(el, strip)
    parent = el.getparent()
    # 2 blocks both; 1 (a <pre> around) only without ``strip`` (True == 1).
    if parent is not None and parent_context(parent, doc) > strip:
        return None
    # The raw strings first, filtered in one loop below: a call per string
    # to a helper cost a tenth of the function.
    raws: list[str] = []
    append = raws.append
    raw = el.text
    if raw:
        append(raw)
    stack = [el]
    nodes = el.iter()
    next(nodes)
    for count, node in enumerate(nodes):
        if count == _SMALL_TEXT_NODES:
            return None
        parent = node.getparent()
        while stack[-1] is not parent:
            raw = stack.pop().tail
            if raw:
                append(raw)
        stack.append(node)
        tag = node.tag
        if isinstance(tag, str):  # (a comment's or PI's text is not a string)
            if tag in blocked:
                return None
            raw = node.text
            if raw:
                append(raw)
    while len(stack) > 1:
        raw = stack.pop().tail
        if raw:
            append(raw)
    if strip:
        return [value for raw in raws if (value := raw.strip())]
    # bs4 collapses a whitespace-only string of the parser.
    return [
        raw if raw.strip(ASCII_SPACES) else "\n" if "\n" in raw else " " for raw in raws
    ]


def all_text_values(el: Any, strip: bool) -> list[str]:
    """The values of every text slot below ``el`` as they are (the html5
    mode's main text: `KeptTextContext`), stripped and the empty ones left
    out with ``strip``."""
    raws: list[str] = _ALL_TEXT(el)
    if strip:
        return [value for raw in raws if (value := raw.strip())]
    return raws


#: The text slots below an element (its own tail not), as plain strings.
_ALL_TEXT = etree.XPath("descendant::text()", smart_strings=False)


def with_segments(items: Iterable[Any]) -> Iterator[Any]:
    """``items`` with the first string of a slot holding several (see
    `_view.bind_segments`) replaced by all of them, in order."""
    for item in items:
        if isinstance(item, str) and item._seg is not None:  # type: ignore[attr-defined]
            yield from item._seg  # type: ignore[attr-defined]
        else:
            yield item


def iter_descendants(el: _Element, doc: Document | None) -> Iterator[Any]:
    """Everything inside ``el`` in document order, without recursion."""
    items = _iter_descendants(el, doc)
    if doc is not None and doc._segmented:
        return with_segments(items)
    return items


#: What `_iter_descendants` does with a node by its lxml ``.tag``: an
#: ordinary element is not in these (None), a tag that changes the text
#: context is True (HTML only), a comment, PI or entity (whose ``.text`` is
#: not a string of the tree) False.  One look-up instead of a type test and
#: a set test per node.
_NOT_ELEMENT_TAGS: dict[Any, bool] = {
    etree.Comment: False,
    etree.ProcessingInstruction: False,
    etree.Entity: False,
}
_HTML_KINDS: dict[Any, bool] = {
    **dict.fromkeys(TEXT_CONTEXT_TAGS, True),
    **_NOT_ELEMENT_TAGS,
}


_NOTHING_KEPT: Any = {}.get


def _iter_descendants(el: _Element, doc: Document | None) -> Iterator[Any]:
    """`iter_descendants`, each slot's text as one string.

    Steps from node to node with ``el[0]`` and ``getnext()``: an lxml child
    iterator per element cost five times those two calls.  Each node's
    next sibling is read before the caller sees the node, as lxml's child
    iterator does, so a node taken out of the tree there does not end the
    walk of its siblings.
    """
    walk = TextContext.inside(el, doc)
    kind_of = (_NOT_ELEMENT_TAGS if walk.is_xml else _HTML_KINDS).get
    # The document's strong map first: a wrapper it keeps is the one the
    # identity map has (without the weak reference's call).
    kept = doc._kept.get if doc is not None else _NOTHING_KEPT
    raw = el.text
    if raw:
        yield text_string(el, False, doc, raw, walk)
    if not len(el):
        return
    # The open elements: each with its next sibling and whether it changed
    # the text context (to undo when its subtree ends).
    stack: list[tuple[Any, Any, bool | None]] = []
    child = el[0]
    while True:
        following = child.getnext()
        # Inline `wrap` and `text_string` for remembered nodes: a walk
        # over a tree walked before is only these look-ups.
        found = kept(child)
        yield found if found is not None else wrap(child, doc)
        kind = kind_of(child.tag)
        if kind is not False:  # an element
            if kind:
                walk.enter(child)
            raw = child.text
            if raw:
                found = _text_ref(child, NO_REF)()
                if found is None or found._raw != raw:
                    found = new_string(child, False, doc, raw, walk)
                yield found
            if len(child):
                stack.append((child, following, kind))
                child = child[0]
                continue
            if kind:
                walk.leave(child)
        while True:  # the tail, then the next node (climbing out of subtrees)
            raw = child.tail
            if raw:
                found = _tail_ref(child, NO_REF)()
                if found is None or found._raw != raw:
                    found = new_string(child, True, doc, raw, walk)
                yield found
            if following is not None:
                child = following
                break
            if not stack:
                return
            child, following, kind = stack.pop()
            if kind:
                walk.leave(child)


def segmented(node: Any) -> bool:
    """Whether ``node``'s soup has a slot holding several strings.

    Then the compiled string searches, which read lxml's slots whole, give
    way to the walk over the view's strings (`_view.bind_segments`).
    """
    doc = node._document()
    return doc is not None and bool(doc._segmented)
