"""lxml's text slots and children, written as bs4's strings and nodes.

An element's ``.text`` and each child's ``.tail`` hold the strings of the
tree.  Writing one keeps bs4's value of the new string: bs4 collapses a
whitespace-only string once, when it parses, so a slot an edit wrote is
marked verbatim on its soup (``_verbatim``) and read back as written.
Neighbouring strings an edit makes are kept apart on the strings
(`_identity.bind_segments`).  `write_back` makes an element's children and
slots equal to bs4's list of its contents after a list edit; `remove_node`
takes a node out, its tail joining the slot before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _identity
from ._attrs import xml_safe
from ._classes import classes
from ._tables import ASCII_SPACES
from ._text import normalize_text, reads_collapsed, text_string

if TYPE_CHECKING:
    from lxml.etree import _Element


def slot_raw(owner: _Element, is_tail: bool) -> str | None:
    return owner.tail if is_tail else owner.text


def set_raw(
    owner: Any, is_tail: bool, value: str | None, doc: Any = None
) -> str | None:
    """Write a slot; with ``doc``, ``value`` is bs4's value of the new string.

    bs4 collapses a whitespace-only string once, when it parses; a string an
    edit makes (``"\n" + "\n"``, ``tag.string = "  "``) keeps every
    character.  The view reads parser text collapsed, so a slot whose new
    value would not read back as written is listed in ``doc._verbatim``.
    """
    if value:
        value = xml_safe(value)
    if not value:
        value = None
    if is_tail:
        owner.tail = value
    else:
        owner.text = value
    verbatim = getattr(doc, "_verbatim", None)
    if verbatim is not None:
        key = (owner, is_tail)
        if value and reads_collapsed(value):
            verbatim.add(key)
        else:
            verbatim.discard(key)
    return value


def move_mark(doc: Any, source: tuple[Any, bool], target: tuple[Any, bool]) -> None:
    """A slot's raw text moved to another slot: its verbatim mark goes with it."""
    verbatim = getattr(doc, "_verbatim", None)
    if verbatim:
        if source in verbatim:
            verbatim.discard(source)
            verbatim.add(target)
        else:
            verbatim.discard(target)


def slot_value(owner: _Element, is_tail: bool, doc: Any) -> str:
    """The text of a slot as bs4 holds it (parser whitespace collapsed)."""
    raw = slot_raw(owner, is_tail)
    if not raw:
        return ""
    if raw.strip(ASCII_SPACES):
        return raw
    verbatim = getattr(doc, "_verbatim", None)
    if verbatim and (owner, is_tail) in verbatim:
        return raw
    parent = owner.getparent() if is_tail else owner
    return normalize_text(raw, parent, doc is not None and doc._mode == "xml")


def add_text(
    owner: Any, is_tail: bool, string: Any, doc: Any, at_end: bool = True
) -> None:
    """Put ``string`` at the end (or start) of a slot, joining a text already there."""
    before = slot_raw(owner, is_tail)
    if not before:
        raw = set_raw(owner, is_tail, str(string), doc)
        _identity.forget_slot(owner, is_tail)
        if raw is not None and raw == str(string):
            _identity.bind_slot([string], owner, is_tail, raw, doc)
        return
    old = slot_value(owner, is_tail, doc)
    # bs4 keeps the strings apart: the slot holds them joined, the soup the
    # boundaries (`_identity.bind_segments`).
    held = _identity.slot_strings(text_string(owner, is_tail, doc)) if doc else []
    _identity.forget_slot(owner, is_tail)
    value = old + string if at_end else string + old
    written = set_raw(owner, is_tail, value, doc)
    if held and written == value:
        strings = [*held, string] if at_end else [string, *held]
        _identity.bind_slot(strings, owner, is_tail, value, doc)


def adopt(item: Any, doc: Any) -> None:
    """Point the wrappers of a node moved in from another document at ``doc``.

    What the old document kept beside lxml's tree for the node comes too:
    its hidden tags, the strings of its slots kept apart or of a class of
    their own, and the marks of whitespace an edit wrote (`set_raw`).
    """
    old_doc = item._doc
    if old_doc is doc:
        return
    item._doc = doc
    node = item._el
    marks = getattr(old_doc, "_verbatim", None)
    if marks and doc is not None and (node, None) in marks:  # a comment
        doc._verbatim.add((node, None))
    if not isinstance(node.tag, str):
        return
    for n in node.iter():
        wrapper = _identity.cached_wrapper(n)
        if wrapper is not None:
            wrapper._doc = doc
            if getattr(wrapper, "_hidden", False):  # (a tag: strings have none)
                wrapper.hidden = True  # the new document learns of it
        # (The moved node's own tail stays where it was.)
        for is_tail in (False, True, None) if n is not node else (False, None):
            if marks and doc is not None and (n, is_tail) in marks:
                doc._verbatim.add((n, is_tail))
            if is_tail is None:
                continue
            string = _identity.cached_string(n, is_tail)
            if string is None:
                continue
            if string._seg is not None and string._is_live() and doc is not None:
                _identity.bind_segments(string._seg, n, is_tail, string._raw, doc)
            else:
                string._doc = doc


def remove_node(node: _Element, doc: Any) -> None:
    """Take an lxml node out of its parent; its tail joins the slot before it."""
    parent = node.getparent()
    if parent is None:  # not in a tree: nothing to take it out of
        return
    tail = node.tail
    if not tail:
        parent.remove(node)
        return
    prev = node.getprevious()
    owner, is_tail = (prev, True) if prev is not None else (parent, False)
    if slot_raw(owner, is_tail):
        merged = slot_value(owner, is_tail, doc) + slot_value(node, True, doc)
        # bs4 keeps the two strings apart (`_identity.bind_segments`).
        strings = [
            *_identity.slot_strings(text_string(owner, is_tail, doc)),
            *_identity.slot_strings(text_string(node, True, doc)),
        ]
        _identity.forget_slot(owner, is_tail)
        _identity.forget_slot(node, True)
        node.tail = None
        parent.remove(node)
        set_raw(owner, is_tail, merged, doc)
        set_raw(node, True, None, doc)  # drops its mark
        if "".join(strings) == merged == slot_raw(owner, is_tail):
            _identity.bind_slot(strings, owner, is_tail, merged, doc)
        return
    string = _identity.cached_string(node, True)
    node.tail = None
    parent.remove(node)
    set_raw(owner, is_tail, tail)
    move_mark(doc, (node, True), (owner, is_tail))
    if string is not None and string._owner is node and string._raw == tail:
        _identity.move_strings(string, owner, is_tail, tail)
    else:
        _identity.forget_slot(node, True)


def take_segment(x: Any) -> None:
    """Take one string out of a slot that holds several: the others stay apart."""
    owner, is_tail, doc = x._owner, x._tail, x._doc
    rest = [s for s in x._seg if s is not x]
    value = "".join(rest)
    written = set_raw(owner, is_tail, value, doc)
    _identity.forget_slot(owner, is_tail)
    if written != value:
        return
    _identity.bind_slot(rest, owner, is_tail, value, doc)


def write_back(parent: Any, items: list[Any]) -> None:
    """Make a parent's lxml children and text slots equal to bs4's list ``items``.

    Neighbouring strings join into one slot.  A slot that keeps exactly the
    string object it held is left as it is (its raw text included).
    """
    el = parent._el
    doc = parent._doc
    nodes: list[Any] = []
    slots: list[list[Any]] = []
    pieces: list[Any] = []
    for item in items:
        if isinstance(item, classes.NavigableString) and item._el is None:
            pieces.append(item)
        else:
            slots.append(pieces)
            pieces = []
            nodes.append(item._el)
    slots.append(pieces)
    owners: list[tuple[Any, bool]] = [(el, False)]
    owners.extend((n, True) for n in nodes)
    old_nodes = list(el)
    old_owners: list[tuple[Any, bool]] = [(el, False)]
    old_owners.extend((n, True) for n in old_nodes)
    kept: list[str | None] = []
    for (owner, is_tail), group in zip(owners, slots, strict=True):
        raw: str | None = None
        if group:
            s = group[0]
            held = _identity.slot_strings(s)
            if (
                s._owner is owner
                and s._tail == is_tail
                and len(held) == len(group)
                and all(a is b for a, b in zip(held, group, strict=True))
            ):
                current = slot_raw(owner, is_tail)
                if current and s._raw == current:
                    raw = current
        kept.append(raw)
    keep_ids = {
        id(s)
        for group, raw in zip(slots, kept, strict=True)
        if raw is not None
        for s in group
    }
    for owner, is_tail in old_owners:
        _identity.forget_slot_unless(owner, is_tail, keep_ids)
    for group in slots:
        for s in group:
            if id(s) not in keep_ids:
                _identity.unbind_string(s)
    reorder = len(old_nodes) != len(nodes) or any(
        a is not b for a, b in zip(old_nodes, nodes, strict=False)
    )
    if reorder:
        for n in old_nodes:
            n.tail = None
        for n in nodes:
            n.tail = None
        el[:] = nodes
    for (owner, is_tail), group, raw in zip(owners, slots, kept, strict=True):
        if raw is not None:
            if reorder:
                set_raw(owner, is_tail, raw)
            continue
        if not group:
            set_raw(owner, is_tail, None, doc)
            continue
        value = "".join(group)
        written = set_raw(owner, is_tail, value, doc)
        _identity.drop_slot(owner, is_tail)
        if written is not None and written == value:
            _identity.bind_slot(group, owner, is_tail, value, doc)
    for item in items:
        if not (isinstance(item, classes.NavigableString) and item._el is None):
            adopt(item, doc)
