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

from typing import TYPE_CHECKING, Any

from lxml import etree

from ._characters import has_forbidden
from ._convert import BLOCK_TAGS, SKIPPED_TAGS, WHITESPACE, working_copy
from ._policy import CleanPolicy

if TYPE_CHECKING:
    from ._convert import HtmlOrTag

__all__ = ["text_of_element", "to_text"]

#: ``<p>`` asks for two line breaks around it, other blocks for one.
_PARAGRAPH = "p"
_CELLS = frozenset({"td", "th"})
_PRE_TAGS = frozenset({"pre", "listing", "xmp", "plaintext", "textarea"})
#: The attributes the text depends on: only they are cleaned on the way
#: (cleaning the others is most of the sanitizer's time, for nothing here).
_READ = frozenset({"hidden", "open"})

# Items of the collection: text, or a request for line breaks (an int), or
# one of these, written as they are with the spaces around them dropped.
_NEWLINE = "\n"
_TAB = "\t"


class _Forced(str):
    """Text written as it is: a ``<br>``'s newline, a cell's tab, ``<pre>`` text."""

    __slots__ = ()


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


def _collect(el: Any, items: list[Any]) -> None:
    """Add the text and breaks of ``el`` and its content (not its tail) to ``items``.

    As a browser shows them: a closed ``<details>`` only its first
    ``<summary>``, a table's ``<tfoot>`` after its body.
    """
    add = items.append
    sub = WHITESPACE.sub
    blocks, skipped, cells, pres = BLOCK_TAGS, SKIPPED_TAGS, _CELLS, _PRE_TAGS
    pre = 0  # how many <pre> (and alike) the walk is in
    left_out = None  # the element whose content the walk skipped
    closed: set[Any] = set()  # the closed <details> the walk is in
    feet: dict[Any, list[Any]] = {}  # table -> the <tfoot> written at its end
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        tag = node.tag
        if event == "start":
            if type(tag) is not str:
                continue
            if (
                tag in skipped
                or node.get("hidden") is not None
                or (closed and _folded(node, closed))
                or (tag == "tfoot" and node is not el and _foot_moved(node, feet))
            ):
                walker.skip_subtree()
                left_out = node
                continue
            if tag in blocks:
                if tag not in cells:  # cells are on their row's line
                    add(2 if tag == _PARAGRAPH else 1)
                    if tag in pres:
                        pre += 1
                if tag == "details" and node.get("open") is None:
                    closed.add(node)
                    continue  # its text is not shown
            elif tag == "br":
                add(_Forced(_NEWLINE))
            text = node.text
            if text:
                add(_Forced(text) if pre else sub(" ", text))
            continue
        # "end"
        if node is left_out:
            left_out = None
        elif tag in blocks:
            if tag in cells:
                if node.getnext() is not None:
                    add(_Forced(_TAB))
            else:
                if tag in pres:
                    pre -= 1
                if feet and tag == "table" and node in feet:
                    for foot in feet.pop(node):
                        _collect(foot, items)
                add(2 if tag == _PARAGRAPH else 1)
        if node is not el:
            tail = node.tail
            if tail and not (closed and node.getparent() in closed):
                add(_Forced(tail) if pre else sub(" ", tail))


def _folded(node: Any, closed: set[Any]) -> bool:
    """Whether ``node`` is in a closed ``<details>`` but not its summary."""
    parent = node.getparent()
    return parent in closed and not (
        node.tag == "summary" and parent.find("summary") is node
    )


def _foot_moved(foot: Any, feet: dict[Any, list[Any]]) -> bool:
    """Whether a ``<tfoot>`` comes before the table's rows (it is then noted
    in ``feet``, to be written at the table's end)."""
    table = foot.getparent()
    if table is None or table.tag != "table":
        return False
    for after in foot.itersiblings():
        if after.tag in ("tbody", "tr", "td", "th"):
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
