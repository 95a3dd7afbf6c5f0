"""The view state: what the soup keeps beside lxml's tree, and the one way edits change it.

lxml holds the tree: elements, and text in an element's ``.text`` (before
its first child) and each child's ``.tail`` (after it).  bs4's model has
more, and this module owns all of it:

- **string identity**: the string object a text slot reads as while its
  text is unchanged (`bind_string`; the maps are `_identity`'s, which the
  read paths of `_text` use inline);
- **segments**: neighbouring strings an edit made, which one slot holds
  joined (`bind_segments`, ``Document._segmented``), and a lone string of a
  class of its own (a `CData` put in a ``<div>``);
- **verbatim marks**: slots and comments an edit wrote, read back as
  written, where parser whitespace reads collapsed (``Document._verbatim``);
- **hidden tags** (``Document._has_hidden``), their wrappers kept by the
  document (``Document._kept``).

`_modify` decides what moves and calls one function here per change:
`take_string`, `remove_node`, `add_text`, `adopt`, `hand_tail`,
`write_back`, `empty`, `release`, `smooth`, `copy_state`, `mark_comment`.
Each writes lxml's slots and the view state together; nothing else writes
either (`_text` only reads them, and remembers the strings it makes).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ._attrs import xml_safe
from ._classes import classes, string_class_for
from ._identity import (
    TAIL_REFS,
    TEXT_REFS,
    cached_string,
    cached_wrapper,
    remember_string,
    wrap,
)
from ._tables import ASCII_SPACES
from ._text import normalize_text, reads_collapsed, text_string

if TYPE_CHECKING:
    from lxml.etree import _Element


# ---------------------------------------------------------------------------
# string identity and segments


def unbind_string(string: Any) -> None:
    """Detach a string object from its slot (the slot itself is not touched)."""
    owner = string._owner
    if owner is not None:
        refs = TAIL_REFS if string._tail else TEXT_REFS
        ref = refs.get(owner)
        if ref is not None and ref() is string:
            del refs[owner]
    string._owner = None
    string._tail = False
    string._raw = None
    string._seg = None


def bind_string(
    string: Any, owner: _Element, is_tail: bool, raw: str, doc: Any
) -> None:
    """Make ``string`` the object of slot (owner, is_tail), which holds ``raw``."""
    unbind_string(string)
    string._owner = owner
    string._tail = is_tail
    string._raw = raw
    string._doc = doc
    remember_string(owner, is_tail, string)


def bind_segments(
    strings: list[Any], owner: Any, is_tail: bool, raw: str, doc: Any
) -> None:
    """Make ``strings`` the strings of one slot, which holds them joined.

    bs4 keeps neighbouring strings apart; lxml's slot holds one text (and
    no class: a single string of a class of its own is kept the same way,
    `bind_slot`).  Each
    string knows the list (``_seg``) and the slot's whole text (``_raw``,
    so an edit of the slot by any other way leaves them detached); the
    identity map holds the first, and the soup keeps it, with the list.
    """
    seg = list(strings)
    for string in seg:
        unbind_string(string)
    for string in seg:
        string._owner = owner
        string._tail = is_tail
        string._raw = raw
        string._doc = doc
        string._seg = seg
    remember_string(owner, is_tail, seg[0])
    doc._kept[(owner, is_tail)] = seg[0]
    doc._segmented = True


def bind_slot(
    strings: list[Any], owner: _Element, is_tail: bool, raw: str, doc: Any
) -> None:
    """Make ``strings`` the strings of a slot an edit wrote, which holds them joined.

    A lone string of the class its place gives is the slot's string
    (`bind_string`).  Several, or one of a class of its own (a `CData`, a
    `Script` put in a ``<div>``, a `NavigableString` in a ``<script>``), are
    its segments (`bind_segments`), which output and
    ``get_text()`` read with their own classes, not the one the tags around
    the slot give its text.  Segments need a document to keep them.
    """
    if len(strings) == 1 and (
        doc is None or type(strings[0]) is _class_of_slot(owner, is_tail, doc)
    ):
        bind_string(strings[0], owner, is_tail, raw, doc)
    elif doc is not None:
        bind_segments(strings, owner, is_tail, raw, doc)


def _class_of_slot(owner: _Element, is_tail: bool, doc: Any) -> type[Any]:
    """The class the text of slot (owner, is_tail) reads as, from where it is."""
    if not doc._typed:
        return classes.NavigableString
    return string_class_for(owner.getparent() if is_tail else owner)


def move_strings(found: Any, owner: _Element, is_tail: bool, raw: str) -> None:
    """The text of ``found``'s slot moved to slot (owner, is_tail): its strings follow."""
    seg = found._seg
    if seg is not None:
        bind_segments(seg, owner, is_tail, raw, found._doc)
    else:
        bind_string(found, owner, is_tail, raw, found._doc)


def slot_strings(found: Any) -> list[Any]:
    """The strings of the slot whose (first) string is ``found``."""
    if found is None:
        return []
    seg = found._seg
    return list(seg) if seg is not None else [found]


def forget_slot(owner: _Element, is_tail: bool) -> None:
    """Unbind whatever string object is cached for a slot whose text changes."""
    refs = TAIL_REFS if is_tail else TEXT_REFS
    ref = refs.get(owner)
    if ref is not None:
        found = ref()
        if found is not None and found._owner is owner and found._tail == is_tail:
            for string in slot_strings(found):
                unbind_string(string)
        else:
            refs.pop(owner, None)


def forget_slot_unless(owner: _Element, is_tail: bool, keep_ids: set[int]) -> None:
    """`forget_slot`, unless the slot's string is one of ``keep_ids``."""
    ref = (TAIL_REFS if is_tail else TEXT_REFS).get(owner)
    if ref is None:
        return
    found = ref()
    if found is not None and id(found) in keep_ids:
        return
    forget_slot(owner, is_tail)


def drop_slot(owner: _Element, is_tail: bool) -> None:
    """Forget the slot's string without touching the string object."""
    (TAIL_REFS if is_tail else TEXT_REFS).pop(owner, None)


# ---------------------------------------------------------------------------
# text slots


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
    if verbatim is not None and doc._collapses:
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


def _text_moved(
    string: Any, source: tuple[Any, bool], target: tuple[Any, bool], doc: Any
) -> None:
    """The whole text of slot ``source`` moved to slot ``target``, which holds
    it now: its mark follows, and its strings (``string``, the first, read
    from ``source`` before the move) if they still held that text."""
    move_mark(doc, source, target)
    owner, is_tail = target
    raw = slot_raw(owner, is_tail)
    if (
        raw is not None
        and string is not None
        and string._owner is source[0]
        and string._raw == raw
    ):
        move_strings(string, owner, is_tail, raw)
    else:
        forget_slot(*source)


def slot_value(owner: _Element, is_tail: bool, doc: Any) -> str:
    """The text of a slot as bs4 holds it (parser whitespace collapsed)."""
    raw = slot_raw(owner, is_tail)
    if not raw:
        return ""
    if raw.strip(ASCII_SPACES) or (doc is not None and not doc._collapses):
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
        forget_slot(owner, is_tail)
        if raw is not None and raw == str(string):
            bind_slot([string], owner, is_tail, raw, doc)
        return
    old = slot_value(owner, is_tail, doc)
    # bs4 keeps the strings apart: the slot holds them joined, the soup the
    # boundaries (`bind_segments`).
    held = slot_strings(text_string(owner, is_tail, doc)) if doc else []
    forget_slot(owner, is_tail)
    value = old + string if at_end else string + old
    written = set_raw(owner, is_tail, value, doc)
    if held and written == value:
        strings = [*held, string] if at_end else [string, *held]
        bind_slot(strings, owner, is_tail, value, doc)


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
    if (
        old_doc is not None
        and doc is not None
        and doc._collapses
        and not old_doc._collapses
    ):
        _keep_as_parsed(node, doc)
    marks = getattr(old_doc, "_verbatim", None)
    if marks and doc is not None and (node, None) in marks:  # a comment
        doc._verbatim.add((node, None))
    if not isinstance(node.tag, str):
        return
    for n in node.iter():
        wrapper = cached_wrapper(n)
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
            string = cached_string(n, is_tail)
            if string is None:
                continue
            if string._seg is not None and string._is_live() and doc is not None:
                bind_segments(string._seg, n, is_tail, string._raw, doc)
            else:
                string._doc = doc


def _keep_as_parsed(node: _Element, doc: Any) -> None:
    """Mark the whitespace-only strings and comments of ``node`` (not its
    tail), moved from an html5 mode soup into ``doc``, to read as they are:
    bs4's strings keep what their parser made of them."""
    verbatim = doc._verbatim
    for n in node.iter():
        if not isinstance(n.tag, str):
            if reads_collapsed(n.text or ""):
                verbatim.add((n, None))
        elif n.text and reads_collapsed(n.text):
            verbatim.add((n, False))
        if n is not node and n.tail and reads_collapsed(n.tail):
            verbatim.add((n, True))


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
        # bs4 keeps the two strings apart (`bind_segments`).
        strings = [
            *slot_strings(text_string(owner, is_tail, doc)),
            *slot_strings(text_string(node, True, doc)),
        ]
        forget_slot(owner, is_tail)
        forget_slot(node, True)
        node.tail = None
        parent.remove(node)
        set_raw(owner, is_tail, merged, doc)
        set_raw(node, True, None, doc)  # drops its mark
        if "".join(strings) == merged == slot_raw(owner, is_tail):
            bind_slot(strings, owner, is_tail, merged, doc)
        return
    string = cached_string(node, True)
    node.tail = None
    parent.remove(node)
    set_raw(owner, is_tail, tail)
    _text_moved(string, (node, True), (owner, is_tail), doc)


def take_segment(x: Any) -> None:
    """Take one string out of a slot that holds several: the others stay apart."""
    owner, is_tail, doc = x._owner, x._tail, x._doc
    rest = [s for s in x._seg if s is not x]
    value = "".join(rest)
    written = set_raw(owner, is_tail, value, doc)
    forget_slot(owner, is_tail)
    if written != value:
        return
    bind_slot(rest, owner, is_tail, value, doc)


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
            held = slot_strings(s)
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
        forget_slot_unless(owner, is_tail, keep_ids)
    for group in slots:
        for s in group:
            if id(s) not in keep_ids:
                unbind_string(s)
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
        drop_slot(owner, is_tail)
        if written is not None and written == value:
            bind_slot(group, owner, is_tail, value, doc)
    for item in items:
        if not (isinstance(item, classes.NavigableString) and item._el is None):
            adopt(item, doc)


# ---------------------------------------------------------------------------
# the other edits' changes


def take_string(x: Any) -> None:
    """Take a string that lives in a text slot out of it (bs4's ``extract``).

    Its text leaves the slot (the other strings of the slot stay apart),
    and the string is left detached.  A string no longer live (its slot
    changed since) is only detached.
    """
    if x._is_live():
        if x._seg is not None:
            take_segment(x)
            return
        set_raw(x._owner, x._tail, None, x._doc)
    unbind_string(x)


def hand_tail(anchor: _Element, node: _Element, doc: Any) -> None:
    """``node`` was put right after ``anchor``: the text after ``anchor`` follows it.

    bs4's text after ``anchor`` stays after the inserted node, where lxml
    keeps it on ``anchor``; its strings and mark move to ``node``'s tail.
    """
    tail = anchor.tail
    if not tail:
        return
    string = cached_string(anchor, True)
    anchor.tail = None
    node.tail = tail
    _text_moved(string, (anchor, True), (node, True), doc)


def empty(el: _Element) -> None:
    """Empty ``el``'s text slots: its text and its children's tails.

    The strings they held are left detached; the children stay (``clear``
    takes them out, ``unwrap`` has moved them already).
    """
    forget_slot(el, False)
    el.text = None
    for child in el:
        forget_slot(child, True)
        child.tail = None


def release(el: _Element) -> Iterator[Any]:
    """The wrappers and strings held for ``el``'s subtree, its strings let go.

    ``decompose`` marks each one; the strings are detached from their slots
    first, as they are about to be emptied.
    """
    for n in el.iter():
        if n is not el:
            wrapper = cached_wrapper(n)
            if wrapper is not None:
                yield wrapper
        for is_tail in (False, True):
            string = cached_string(n, is_tail)
            if string is not None:
                unbind_string(string)
                yield string


def mark_comment(node: _Element, text: str, doc: Any) -> None:
    """A comment node an edit made holds ``text``: keep its whitespace as given.

    bs4 collapses a comment's whitespace only when it parses, where the
    view reads lxml's comments collapsed.
    """
    if doc is not None and doc._collapses and reads_collapsed(text):
        doc._verbatim.add((node, None))


def keep_hidden(tag: Any) -> None:
    """``tag.hidden = True``: its document keeps the wrapper, which holds the flag."""
    doc = tag._doc
    if doc is not None:
        doc._has_hidden = True
        doc._kept[tag._el] = tag


def smooth(el: _Element, doc: Any) -> None:
    """bs4's ``smooth`` below ``el``: lxml holds neighbouring strings joined already.

    In a slot that holds several strings, each run of neighbours, none of
    them a `PreformattedString`, becomes one new `NavigableString`; the
    strings joined are let go (detached, as bs4's are), the others stay.
    """
    if doc is None or not doc._segmented:
        return
    for node in el.iter():
        for is_tail in (False, True) if node is not el else (False,):
            found = cached_string(node, is_tail)
            if found is not None and found._seg is not None and found._is_live():
                _smooth_slot(found, node, is_tail, doc)


def _smooth_slot(found: Any, owner: Any, is_tail: bool, doc: Any) -> None:
    strings: list[Any] = []
    run: list[Any] = []
    for string in [*found._seg, None]:
        if string is not None and not isinstance(string, classes.PreformattedString):
            run.append(string)
            continue
        if len(run) > 1:
            strings.append(classes.NavigableString("".join(run)))
        else:
            strings += run
        run = []
        if string is not None:
            strings.append(string)
    if len(strings) == len(found._seg):
        return
    raw = found._raw
    forget_slot(owner, is_tail)
    bind_slot(strings, owner, is_tail, raw, doc)


def copy_state(source: _Element, copied: _Element, doc: Any) -> None:
    """Give a deep copy of ``source`` what the soup keeps beside lxml's tree.

    Hidden tags, the strings of a slot kept apart or of a class of their
    own (copies of them, as bs4 copies each node), and the marks of
    whitespace an edit wrote.  Only a document with such state
    (``Document._beside_lxml``) needs it.
    """
    verbatim = doc._verbatim
    for old, new in zip(source.iter(), copied.iter(), strict=True):
        wrapper = cached_wrapper(old)
        if isinstance(wrapper, classes.Tag) and wrapper.hidden:
            wrap(new, doc).hidden = True
        slots = (False, True) if old is not source else (False,)
        if verbatim:
            for is_tail in (*slots, None):
                if (old, is_tail) in verbatim:
                    verbatim.add((new, is_tail))
        for is_tail in slots:
            found = cached_string(old, is_tail)
            if found is not None and found._seg is not None and found._is_live():
                strings = [type(s)(s) for s in found._seg]
                bind_segments(strings, new, is_tail, found._raw, doc)
