"""HTML as the text a browser's ``innerText`` gives: `to_text`.

The WHATWG "rendered text collection steps", over the lxml tree (no second
parse) once it is cleaned: block elements on lines of their own, a blank
line around paragraphs, ``<br>`` a newline, a tab between table cells,
whitespace collapsed outside ``<pre>``, nothing from ``<script>``,
``<style>``, ``<template>`` and the other elements never rendered.

How it differs from Zyte's html-text (``html_text.extract_text``), which
also walks an lxml tree: html-text guesses a space between neighbouring
inline elements (``a<b>b</b>`` gives ``"a b"``, a browser ``"ab"``),
collapses whitespace inside ``<pre>`` too, puts a blank line around
headings and lists (a browser one newline), joins table cells with spaces
(a browser with tabs) and drops a ``<br>`` next to a block's edge. Both
keep the words, in the same order.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any, Final

from lxml import etree

from ._characters import has_forbidden
from ._convert import BLOCK_TAGS, SKIPPED_TAGS, collapse, working_copy
from ._document import DOCUMENT_PARTS
from ._markup import target_element
from ._policy import (
    CleanPolicy,
    _Cleaner,
    _cleaner,
    _local_tag,
    get_policy,
)
from ._read import CleanedAttributes
from ._strings import Forced as _Forced

if TYPE_CHECKING:
    from ._convert import HtmlOrTag

__all__ = ["text_of_element", "to_text"]

#: ``<p>`` asks for two line breaks around it, other blocks for one.
_PARAGRAPH: Final = "p"
_CELLS: Final = frozenset({"td", "th"})
_PRE_TAGS: Final = frozenset({"pre", "listing", "xmp", "plaintext", "textarea"})
#: The attributes the text depends on: only they are cleaned on the way
#: (cleaning the others is most of the sanitizer's time, for nothing here).
_READ: Final = frozenset({"hidden", "open"})

# Items of the collection: text, or a request for line breaks (an int), or
# one of these, written as they are with the spaces around them dropped.
_NEWLINE: Final = "\n"
_TAB: Final = "\t"


def to_text(
    html_or_tag: HtmlOrTag,
    policy: CleanPolicy | str | None = None,
) -> str:
    """The text of HTML as a browser's ``innerText`` shows it, after cleaning.

    ``html_or_tag`` is a string of HTML (a fragment or a whole document), a
    soup `Tag` or `Soup`, or an lxml element; it is never changed (a tree
    is copied). The copy is cleaned by ``policy`` first (the safe default,
    or a `CleanPolicy` or preset name), so nothing the sanitizer removes
    (scripts, styles, hidden templates) is read as text.

    >>> to_text("<h1>Title</h1><p>One <b>two</b>\\n  three.</p><ul><li>a<li>b</ul>")
    'Title\\n\\nOne two three.\\n\\na\\nb'
    >>> to_text("<p>x<br>y</p><script>alert(1)</script><table><tr><td>1<td>2</table>")
    'x\\ny\\n\\n1\\t2'
    """
    # The text is searched for the characters HTML or XML forbid, not the
    # whole tree (a serialization of it): only a text holding some is read
    # again from a tree they are dropped from, where the spaces around them
    # collapse as they would have.
    text = _read_as_cleaned(html_or_tag, _cleaner(get_policy(policy)))
    if text is None:
        text = text_of_element(
            working_copy(html_or_tag, policy, None, characters=False, read=_READ)
        )
    if has_forbidden(text):
        text = text_of_element(working_copy(html_or_tag, policy, None, read=_READ))
    return text


def text_of_element(el: etree._Element) -> str:
    """`to_text` of a tree already cleaned (its content; ``el`` is a container)."""
    items: list[Any] = []
    _collect(el, items)
    return _join(items)


class _Unsure(Exception):
    """The walk of an uncleaned tree met what only cleaning it can settle."""


class _Reading:
    """How the cleaning would change what the text walk reads, without cleaning.

    The text depends on the elements a policy keeps, unwraps or removes and
    on two attributes (``hidden``, ``open``), no others: the walk reads the
    tree as it is and applies the policy's decisions itself (an element
    removed is skipped, one unwrapped is read as its content), instead of a
    copy being made and cleaned first, which took as long as the walk.
    Where the cleaned tree's shape decides something (what is next to a
    table cell, a ``<details>`` or a ``<tfoot>`` beside an element that
    goes) it raises `_Unsure` and `to_text` cleans a copy as before. The
    two attributes are read as cleaning would leave them
    (`_read.CleanedAttributes`, as `to_markdown` reads its own).
    """

    __slots__ = ("actions", "attributes", "compiled", "parts")

    def __init__(self, compiled: _Cleaner, el: Any, own_root: bool) -> None:
        self.compiled = compiled
        #: The attributes as cleaning would leave them (no links read).
        self.attributes = CleanedAttributes(compiled, el, None)
        #: raw tag -> 0 keep, 1 unwrap, 2 remove; -1 keep (`_Cleaner.tag_action`).
        self.actions = compiled.tag_actions
        #: A whole document's ``<head>`` and ``<body>``, kept whatever the
        #: policy (`_document.document_parts`); a copy is a tree's root.
        self.parts: frozenset[Any] = frozenset()
        if own_root and _local_tag(el.tag) == "html":
            self.parts = frozenset(
                child
                for child in el
                if type(child.tag) is str and _local_tag(child.tag) in DOCUMENT_PARTS
            )

    def action(self, node: Any) -> int:
        """What cleaning does to element ``node``: 0 keep, 1 unwrap, 2 remove."""
        tag = node.tag
        action = self.actions.get(tag)
        if action is None:
            action = self.actions[tag] = self.compiled.tag_action(tag)
        if action <= 0 or (self.parts and node in self.parts):
            return 0
        return action

    def has(self, node: Any, name: str) -> bool:
        """Whether ``node``'s attribute ``name`` (``hidden``, ``open``) stays once cleaned."""
        return self.attributes.value(node, name, node.get(name, "")) is not None

    def next_kept(self, node: Any) -> bool:
        """Whether a node stays after ``node`` among its siblings once cleaned."""
        for after in node.itersiblings():
            if type(after.tag) is not str:
                continue  # comments go (a policy keeping them is not read so)
            action = self.action(after)
            if action == 0:
                return True
            if action == 1:
                raise _Unsure  # kept only if what it holds is
        return False


def _read_as_cleaned(html_or_tag: HtmlOrTag, compiled: _Cleaner) -> str | None:
    """`text_of_element` of the tree as ``compiled`` would clean it, or None
    where only cleaning a copy can tell (`_Reading`)."""
    if compiled.style_allowed or compiled.policy.keep_comments:
        # Kept <style> is checked by its CSS, kept comments are nodes.
        return None
    target = target_element(html_or_tag)
    el = target.element
    own_root = el.getparent() is None or not isinstance(html_or_tag, str)
    reading = _Reading(compiled, el, own_root)
    if compiled.tag_action(str(el.tag)) == 2:
        return ""  # the container stays, emptied
    items: list[Any] = []
    try:
        _collect(el, items, reading)
    except _Unsure:
        return None
    return _join(items)


def _collect(el: Any, items: list[Any], reading: _Reading | None = None) -> None:
    """Add the text and breaks of ``el`` and its content (not its tail) to ``items``.

    As a browser shows them: a closed ``<details>`` only its first
    ``<summary>``, a table's ``<tfoot>`` after its body.  With ``reading``,
    of a tree not cleaned, as it would be once cleaned (`_Reading`).

    One ``iter()`` over the tree in document order, with a stack of the
    elements the walk is in: a node's parent tells which of them ended
    before it (about half the cost of ``etree.iterwalk``'s events, and no
    recursion: a tree 100,000 deep is read as any other).  What is not
    shown is walked through unread.
    """
    add = items.append
    blocks, skipped, cells, pres = BLOCK_TAGS, SKIPPED_TAGS, _CELLS, _PRE_TAGS
    pre = 0  # how many <pre> (and alike) the walk is in
    closed: set[Any] = set()  # the closed <details> the walk is in
    feet: dict[Any, list[Any]] = {}  # table -> the <tfoot> written at its end
    has = _has if reading is None else reading.has
    actions: dict[Any, int] = {} if reading is None else reading.actions
    parts = frozenset() if reading is None else reading.parts
    opened: list[Any] = []  # the elements the walk is in, ``el`` first
    unshown: Any = None  # the element not shown whose content the walk is in
    for node in chain(el.iter(), _LAST):
        # The elements that ended before this node: those open below its
        # parent (``el`` has none; after the last node, all of them end).
        parent: Any
        if not opened:
            parent = None
        elif node is None:
            parent = _LAST
        else:
            parent = node.getparent()
        while opened and opened[-1] is not parent:
            # The end of an element: its breaks, then its tail.
            ended = opened.pop()
            if unshown is not None:
                if ended is not unshown:
                    continue  # in an element not shown
                unshown = None
            else:
                tag = ended.tag
                if tag in blocks and (
                    reading is None or ended is el or not reading.action(ended)
                ):
                    if tag in cells:
                        if (
                            ended.getnext() is not None
                            if reading is None
                            else reading.next_kept(ended)
                        ):
                            add(_Forced(_TAB))
                    else:
                        if tag in pres:
                            pre -= 1
                        if feet and tag == "table" and ended in feet:
                            for foot in feet.pop(ended):
                                _collect(foot, items, reading)
                        add(2 if tag == _PARAGRAPH else 1)
            if ended is not el:
                tail = ended.tail
                if tail and not (closed and opened[-1] in closed):
                    add(_Forced(tail) if pre else collapse(tail))
        if node is None:
            return
        tag = node.tag
        if type(tag) is not str:
            # A comment or processing instruction (a tree not cleaned, or
            # cleaned by a policy keeping comments): only its tail.
            tail = node.tail
            if tail and unshown is None and not (closed and parent in closed):
                add(_Forced(tail) if pre else collapse(tail))
            continue
        opened.append(node)
        if unshown is not None:
            continue
        if reading is not None and parent is not None:
            action = actions.get(tag)
            if action is None:
                action = reading.action(node)
            if action > 0 and not (parts and node in parts):
                if closed:
                    raise _Unsure  # the <details>'s children would differ
                if action == 2:
                    unshown = node
                    continue
                if parent.tag in _TABLE_PARTS:
                    raise _Unsure  # rows and cells would differ
                # Unwrapped: its text and content are its parent's.
                text = node.text
                if text:
                    add(_Forced(text) if pre else collapse(text))
                continue
        if (
            tag in skipped
            or (node.get("hidden") is not None and has(node, "hidden"))
            or (closed and _folded(node, parent, closed))
            or (
                tag == "tfoot"
                and parent is not None
                and _foot_moved(node, feet, reading)
            )
        ):
            unshown = node
            continue
        if tag in blocks:
            if tag not in cells:  # cells are on their row's line
                add(2 if tag == _PARAGRAPH else 1)
                if tag in pres:
                    pre += 1
            if tag == "details" and not (
                node.get("open") is not None and has(node, "open")
            ):
                closed.add(node)
                continue  # its text is not shown
        elif tag == "br":
            add(_Forced(_NEWLINE))
        text = node.text
        if text:
            add(_Forced(text) if pre else collapse(text))


#: What `_collect` walks after the tree's nodes: the end of what is open.
_LAST: Final[tuple[None]] = (None,)


#: Where an element unwrapped would change which rows and cells a table has.
_TABLE_PARTS: Final = frozenset({"table", "thead", "tbody", "tfoot", "tr"})


def _has(node: Any, name: str) -> bool:
    """Whether a cleaned tree's ``node`` keeps attribute ``name`` it has: yes."""
    return True


def _folded(node: Any, parent: Any, closed: set[Any]) -> bool:
    """Whether ``node``, in ``parent``, is in a closed ``<details>`` but not its summary."""
    return parent in closed and not (
        node.tag == "summary" and parent.find("summary") is node
    )


def _foot_moved(
    foot: Any, feet: dict[Any, list[Any]], reading: _Reading | None = None
) -> bool:
    """Whether a ``<tfoot>`` comes before the table's rows (it is then noted
    in ``feet``, to be written at the table's end)."""
    table = foot.getparent()
    if table is None or table.tag != "table":
        return False
    for after in foot.itersiblings():
        if after.tag in ("tbody", "tr", "td", "th") and (
            reading is None or not reading.action(after)
        ):
            feet.setdefault(table, []).append(foot)
            return True
    return False


def _join(items: list[Any]) -> str:
    """Write the collected items: breaks as newlines, spaces at line edges dropped."""
    out: list[str] = []
    add = out.append
    breaks = 0  # line breaks asked for since the last text
    space = False  # a collapsible space is pending
    started = False
    for item in items:
        kind = type(item)
        if kind is str:
            if item == " ":  # whitespace between tags: the most frequent
                space = True
                continue
            if item[0] == " ":
                space = True
                item = item.lstrip(" ")
            if started:
                if breaks:
                    add("\n" * breaks)
                elif space and not _ends_a_line(out):
                    add(" ")
            breaks = 0
            stripped = item.rstrip(" ")
            space = len(stripped) != len(item)
            add(stripped)
            started = True
        elif kind is int:
            if item > breaks:
                breaks = item
            space = False
        else:  # _Forced
            if started and breaks:
                add("\n" * breaks)
            breaks = 0
            space = False
            add(item)
            started = True
    return "".join(out)


def _ends_a_line(out: list[str]) -> bool:
    """Whether the last thing written ends a line or a cell (no space after it)."""
    last = out[-1] if out else ""
    return type(last) is _Forced and last in (_NEWLINE, _TAB)
