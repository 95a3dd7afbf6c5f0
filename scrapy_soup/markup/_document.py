"""Helpers of `scrapy_soup.markup.clean`: removing nodes, and a whole document's top level.

A document keeps its ``<html>``, ``<head>`` and ``<body>`` whatever the
policy (`document_parts`); the comments and processing instructions around
its root go as anywhere else (`clean_top_level`), and a soup's record of its
top level follows.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ._markup import remove_top_level, set_text
from ._policy import _Cleaner, _local_tag

__all__ = [
    "DOCUMENT_PARTS",
    "clean_top_level",
    "comment_ok",
    "document_parts",
    "remove",
]


def remove(node: Any) -> None:
    """Remove *node* and its content, keeping its tail text in place."""
    parent = node.getparent()
    if parent is None:
        return
    tail = node.tail
    if tail:
        previous = node.getprevious()
        if previous is not None:
            set_text(previous, True, (previous.tail or "") + tail)
        else:
            set_text(parent, False, (parent.text or "") + tail)
    parent.remove(node)


def comment_ok(text: str | None) -> bool:
    """A comment a browser cannot end early or read as a conditional."""
    if not text:
        return True
    return not (
        "--" in text
        or text.startswith((">", "->"))
        or text.endswith("-")
        or "<!" in text
        or "[if" in text.lower()
        or "[endif" in text.lower()
    )


#: The elements a whole document keeps whatever the policy says.
DOCUMENT_PARTS = frozenset({"head", "body"})


def document_parts(el: Any, compiled: _Cleaner) -> tuple[tuple[Any, ...], int]:
    """A document root's ``<head>`` and ``<body>``; what the head holds that goes, gone.

    Empty unless *el* is the ``<html>`` element at the root of its tree.
    Returns the parts and how many elements were removed.
    """
    if el.getparent() is not None or not isinstance(el.tag, str):
        return (), 0
    if _local_tag(el.tag) != "html":
        return (), 0
    removed = 0
    parts = tuple(
        child
        for child in el
        if isinstance(child.tag, str) and _local_tag(child.tag) in DOCUMENT_PARTS
    )
    for part in parts:
        if _local_tag(part.tag) != "head":
            continue
        for child in list(part):
            if isinstance(child.tag, str) and compiled.tag_action(child.tag) > 0:
                removed += sum(1 for _ in child.iter(etree.Element))
                remove(child)
    return parts, removed


def clean_top_level(original: object, root: Any, compiled: _Cleaner) -> int:
    """Remove the comments and processing instructions around a document's root.

    lxml keeps them as the root's siblings (a soup shows them as its first
    and last children); the policy removes them as anywhere else.  A soup's
    record of its top level (bs4's whitespace and doctype place) is brought
    in line.  Returns how many were removed.
    """
    if root.getparent() is not None:
        return 0
    keep = (
        (lambda node: comment_ok(node.text)) if compiled.policy.keep_comments else None
    )
    preceding = list(root.itersiblings(preceding=True))[::-1]
    following = list(root.itersiblings())
    # A document soup keeps its top level in its `Document`.
    doc = getattr(original, "_doc", None)
    soup: Any = doc if hasattr(doc, "_top_leader") else None
    if soup is not None:
        leader, trailer, index = soup._leader, soup._trailer, soup._doctype_index
    removed = remove_top_level(root, keep)
    if soup is not None and removed:
        gone = {id(node) for node in removed}
        soup._top_leader = placeholders(leader, preceding, gone)
        last = sum(x is None for x in trailer)
        soup._top_trailer = placeholders(
            trailer, following[len(following) - last :], gone
        )
        soup._top_doctype_index = sum(
            id(node) not in gone for node in preceding[:index]
        )
    return len(removed)


def placeholders(entries: list[Any], nodes: list[Any], gone: set[int]) -> list[Any]:
    """A soup's top-level record without the None standing for nodes removed."""
    out: list[Any] = []
    it = iter(nodes)
    for entry in entries:
        if entry is None and id(next(it, None)) in gone:
            continue
        out.append(entry)
    return out
