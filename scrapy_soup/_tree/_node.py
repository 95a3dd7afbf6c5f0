"""`PageElement`: what tags and strings have in common.

Navigation derived from three primitives each subclass provides
(``parent``, ``next_sibling``, ``previous_sibling``), text, and formatter
lookup; the search and editing methods come from the mixins.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from ._classes import classes
from ._find import FindMixin
from ._formatter import formatter_for_name
from ._identity import TAIL_REFS, WRAPPER_REFS, wrap
from ._modify import ModifyMixin
from ._text import new_string, text_string

if TYPE_CHECKING:
    from typing import TypeAlias

    from lxml.etree import _Element

    from ._document import Document
    from ._formatter import Formatter, FormatterOrName
    from ._strings import NavigableString
    from ._tag import Tag

    #: The string classes get_text() and .strings collect: one or several
    #: (bs4's ``_OneOrMoreStringTypes``).
    StringTypes: TypeAlias = "type[NavigableString] | Iterable[type[NavigableString]]"


def _follow(node: Any, link: str) -> Iterator[Any]:
    """The nodes reached by following ``link`` (``next_sibling``, ...) from ``node``.

    Each node's successor is read before the node is given out, as bs4
    does, so a loop that extracts what it is given goes on.
    """
    node = getattr(node, link)
    while node is not None:
        following = getattr(node, link)
        yield node
        node = following


class PageElement(FindMixin, ModifyMixin):
    """What tags and strings have in common: navigation, text, output."""

    __slots__ = ()

    #: bs4's sentinel for "the default string types" in get_text().
    default: ClassVar[tuple[type[NavigableString], ...]] = ()

    # -- navigation primitives, provided by subclasses ---------------------
    @property
    def parent(self) -> Tag | None:
        """The tag (or soup) this node is in; None when detached."""
        raise NotImplementedError

    @property
    def next_sibling(self) -> PageElement | None:
        """The node after this one in its parent's contents."""
        raise NotImplementedError

    @property
    def previous_sibling(self) -> PageElement | None:
        """The node before this one in its parent's contents."""
        raise NotImplementedError

    def _contents_list(self) -> list[PageElement]:
        return []

    # -- derived navigation -------------------------------------------------
    @property
    def next_element(self) -> PageElement | None:
        """The node parsed right after this one (document order)."""
        contents = self._contents_list()
        if contents:
            return contents[0]
        return self._after_subtree()

    def _after_subtree(self) -> PageElement | None:
        node: PageElement | None = self
        while node is not None:
            sibling = node.next_sibling
            if sibling is not None:
                return sibling
            node = node.parent
        return None

    @property
    def previous_element(self) -> PageElement | None:
        """The node parsed right before this one (document order)."""
        sibling = self.previous_sibling
        if sibling is None:
            parent = self.parent
            # bs4 never links the document node into the element chain.
            return None if parent is None or parent.hidden else parent
        while True:
            contents = sibling._contents_list()
            if not contents:
                return sibling
            sibling = contents[-1]

    @property
    def next_elements(self) -> Iterator[PageElement]:
        """Every node after this one, in document order."""
        return _follow(self, "next_element")

    @property
    def previous_elements(self) -> Iterator[PageElement]:
        """Every node before this one, in reverse document order."""
        return _follow(self, "previous_element")

    @property
    def next_siblings(self) -> Iterator[PageElement]:
        """The nodes after this one in its parent."""
        return _follow(self, "next_sibling")

    @property
    def previous_siblings(self) -> Iterator[PageElement]:
        """The nodes before this one in its parent, nearest first."""
        return _follow(self, "previous_sibling")

    @property
    def parents(self) -> Iterator[Tag]:
        """The enclosing tags, innermost first, ending with the soup."""
        return _follow(self, "parent")

    @property
    def self_and_next_elements(self) -> Iterator[PageElement]:
        """This node, then `next_elements`."""
        yield self
        yield from self.next_elements

    @property
    def self_and_previous_elements(self) -> Iterator[PageElement]:
        """This node, then `previous_elements`."""
        yield self
        yield from self.previous_elements

    @property
    def self_and_next_siblings(self) -> Iterator[PageElement]:
        """This node, then `next_siblings`."""
        yield self
        yield from self.next_siblings

    @property
    def self_and_previous_siblings(self) -> Iterator[PageElement]:
        """This node, then `previous_siblings`."""
        yield self
        yield from self.previous_siblings

    @property
    def self_and_parents(self) -> Iterator[PageElement]:
        """This node, then `parents`."""
        yield self
        yield from self.parents

    # bs4 3 names
    @property
    def nextSibling(self) -> PageElement | None:
        """Alias of `next_sibling`."""
        return self.next_sibling

    @property
    def previousSibling(self) -> PageElement | None:
        """Alias of `previous_sibling`."""
        return self.previous_sibling

    @property
    def next(self) -> PageElement | None:
        """Alias of `next_element`."""
        return self.next_element

    @property
    def previous(self) -> PageElement | None:
        """Alias of `previous_element`."""
        return self.previous_element

    # -- text ------------------------------------------------------------------
    def _all_strings(
        self, strip: bool = False, types: StringTypes = default
    ) -> Iterator[str]:
        raise NotImplementedError

    @property
    def stripped_strings(self) -> Iterator[str]:
        """The strings of `strings`, stripped, leaving out empty ones."""
        return self._all_strings(True)

    def get_text(
        self, separator: str = "", strip: bool = False, types: StringTypes = default
    ) -> str:
        """All the text below this node, joined with ``separator`` (bs4's rules)."""
        return separator.join(self._all_strings(strip, types=types))

    getText = get_text

    @property
    def text(self) -> str:
        """``get_text()``."""
        return self.get_text()

    @property
    def _is_xml(self) -> bool:
        doc = self._document()
        return doc is not None and doc._mode == "xml"

    def _document(self) -> Document | None:
        raise NotImplementedError

    def format_string(self, s: str, formatter: FormatterOrName) -> str:
        """Format a string with a formatter, as bs4's method of that name."""
        if formatter is None:
            return s
        return formatter_for_name(formatter, self._is_xml).substitute(s)

    def formatter_for_name(self, formatter: FormatterOrName) -> Formatter:
        """Resolve a formatter name for this node's kind of document."""
        return formatter_for_name(formatter, self._is_xml)


# ---------------------------------------------------------------------------
# wrapping lxml nodes


_new_object = object.__new__
_new_str = str.__new__


classes.PageElement = PageElement


def node_parent(el: _Element, doc: Document | None) -> Any:
    """The parent of a node lxml holds: its element, the soup for a node at
    the document's top level (the root, the comments around it), or None."""
    parent = el.getparent()
    if parent is not None:
        return wrap(parent, doc)
    if doc is not None and doc._is_top_level(el):
        return doc.soup
    return None


def node_next_sibling(wrapper: Any, el: _Element) -> PageElement | None:
    doc = wrapper._doc
    if el.getparent() is None:
        if doc is not None:
            return doc._top_level_sibling(wrapper, 1)  # type: ignore[no-any-return]
        return None
    raw = el.tail
    if raw:
        ref = TAIL_REFS.get(el)
        if ref is not None:
            found = ref()
            if found is not None and found._raw == raw:
                return found  # type: ignore[no-any-return]
        return new_string(el, True, doc, raw, None)  # type: ignore[no-any-return]
    following = el.getnext()
    if following is None:
        return None
    ref = WRAPPER_REFS.get(following)
    if ref is not None:
        found = ref()
        if found is not None:
            return found  # type: ignore[no-any-return]
    return wrap(following, doc)  # type: ignore[no-any-return]


def node_previous_sibling(wrapper: Any, el: _Element) -> PageElement | None:
    doc = wrapper._doc
    parent = el.getparent()
    found: PageElement | None = None
    if parent is None:
        if doc is not None:
            found = doc._top_level_sibling(wrapper, -1)
        return found
    preceding = el.getprevious()
    if preceding is not None:
        raw = preceding.tail
        found = text_string(preceding, True, doc, raw) if raw else wrap(preceding, doc)
    elif parent.text:
        found = text_string(parent, False, doc, parent.text)
    if doc is not None and doc._segmented and isinstance(found, str):
        seg = found._seg
        if seg is not None:  # the slot's last string is the one before
            found = seg[-1]
    return found
