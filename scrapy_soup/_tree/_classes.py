"""The node classes, for the modules below them.

`Tag` and the string classes inherit the search and editing mixins, so the
modules of those mixins (and the identity and text helpers under them) sit
below the classes they create and cannot import them.  Each class module
registers its classes here when it is imported (`_node`, `_strings`,
`_tag`, `_soup`); code below reads them at call time, as ``classes.Tag``.
The package imports every class module, so by the time any function runs,
all are registered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the classes import this module
    from lxml.etree import _Element

    from . import _node, _soup, _strings, _tag


class NodeClasses:
    """One attribute per node class, set by the module that defines it."""

    __slots__ = (
        "CData",
        "Comment",
        "Declaration",
        "Doctype",
        "NavigableString",
        "PageElement",
        "PreformattedString",
        "ProcessingInstruction",
        "STRING_CONTAINERS",
        "Soup",
        "Tag",
        "XMLProcessingInstruction",
    )

    PageElement: type[_node.PageElement]
    Tag: type[_tag.Tag]
    Soup: type[_soup.Soup]
    NavigableString: type[_strings.NavigableString]
    PreformattedString: type[_strings.PreformattedString]
    CData: type[_strings.CData]
    Comment: type[_strings.Comment]
    Declaration: type[_strings.Declaration]
    Doctype: type[_strings.Doctype]
    ProcessingInstruction: type[_strings.ProcessingInstruction]
    XMLProcessingInstruction: type[_strings.XMLProcessingInstruction]
    #: The string class of the text inside ``<script>``, ``<style>``, ...
    STRING_CONTAINERS: dict[str, type[_strings.NavigableString]]


classes = NodeClasses()


def string_class_for(parent: _Element | None) -> type[_strings.NavigableString]:
    """The string class bs4 gives text whose parent element is ``parent``.

    bs4 keeps a stack of the open ``<script>``, ``<style>``, ``<template>``,
    ``<rt>`` and ``<rp>`` tags and uses the innermost one's class.
    """
    if parent is None:
        return classes.NavigableString
    # (Keyed by any lxml .tag: an element's is a str.)
    containers: dict[Any, type[_strings.NavigableString]] = classes.STRING_CONTAINERS
    tag = parent.tag
    cls = containers.get(tag) if isinstance(tag, str) else None
    if cls is not None:
        return cls
    # A test per ancestor in Python: lxml's iterancestors() with five names
    # builds a matcher for them, three times the cost of this walk.
    for ancestor in parent.iterancestors():
        cls = containers.get(ancestor.tag)
        if cls is not None:
            return cls
    return classes.NavigableString


class Extensions:
    """Functions the modules above the tree lend it (the tree never imports them).

    ``main_content`` is set when ``scrapy_soup.markup.main_content`` is
    imported (``import scrapy_soup`` does): `Soup.main_content` calls it.
    """

    __slots__ = ("main_content",)

    def __init__(self) -> None:
        self.main_content: Callable[..., Any] | None = None


extensions = Extensions()
