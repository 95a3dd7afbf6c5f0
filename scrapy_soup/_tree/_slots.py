"""lxml's text slots, written as bs4's strings.

An element's ``.text`` and each child's ``.tail`` hold the strings of the
tree.  Writing one keeps bs4's value of the new string: bs4 collapses a
whitespace-only string once, when it parses, so a slot an edit wrote is
marked verbatim on its soup (``_verbatim``) and read back as written.
"""

from __future__ import annotations

from typing import Any

from . import _identity
from ._attrs import xml_safe
from ._tables import ASCII_SPACES
from ._text import normalize_text


def slot_raw(owner: Any, is_tail: bool) -> str | None:
    return owner.tail if is_tail else owner.text  # type: ignore[no-any-return]


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
        if value and value not in (" ", "\n") and not value.strip(ASCII_SPACES):
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


def slot_value(owner: Any, is_tail: bool, doc: Any) -> str:
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
    return normalize_text(raw, parent, doc is not None and doc.is_xml)


def add_text(
    owner: Any, is_tail: bool, string: Any, doc: Any, at_end: bool = True
) -> None:
    """Put ``string`` at the end (or start) of a slot, joining a text already there."""
    before = slot_raw(owner, is_tail)
    if not before:
        raw = set_raw(owner, is_tail, str(string), doc)
        _identity.forget_slot(owner, is_tail)
        if raw is not None and raw == str(string):
            _identity.bind_string(string, owner, is_tail, raw, doc)
        return
    old = slot_value(owner, is_tail, doc)
    _identity.forget_slot(owner, is_tail)
    set_raw(owner, is_tail, old + string if at_end else string + old, doc)
