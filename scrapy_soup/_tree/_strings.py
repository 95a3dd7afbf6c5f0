"""The string classes: `NavigableString` and its kinds.

A `NavigableString` is a ``str`` that knows where it was read (a text slot,
or an lxml comment or PI node); its subclasses are bs4's: `Comment`,
`CData`, `ProcessingInstruction`, `Doctype`, and the strings of
``<script>``, ``<style>``, ``<template>``, ``<rt>``, ``<rp>``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from ._classes import classes
from ._identity import NO_REF, WRAPPER_REFS, wrap
from ._modify import _index_in
from ._node import PageElement, node_next_sibling, node_parent, node_previous_sibling
from ._text import node_raw_text, normalize_text

if TYPE_CHECKING:
    from ._document import Document
    from ._formatter import FormatterOrName
    from ._node import StringTypes
    from ._tag import Tag


_wrapper_ref = WRAPPER_REFS.get


class NavigableString(str, PageElement):  # type: ignore[misc]
    """A string of the page (bs4's ``NavigableString``): a ``str`` that knows its place.

    Its ``.name`` is None (never an AttributeError), so code walking mixed
    children can read ``child.name`` on anything.
    """

    PREFIX: ClassVar[str] = ""
    SUFFIX: ClassVar[str] = ""

    # Where the string lives: a text slot of an lxml element (``_owner``,
    # ``_tail``), an lxml node of its own (``_el``: comments, PIs), or the
    # document level (``_doc`` only).  None of these: detached.  The class
    # values are defaults: a string (a ``str``, so no ``__slots__``) is
    # built faster with fewer entries in its ``__dict__``.
    _owner: Any = None
    _tail: bool = False
    _el: Any = None
    _doc: Document | None = None
    _raw: str | None = None
    #: The strings of its slot, in order, when an edit put several there
    #: (bs4 keeps neighbouring strings apart; lxml's slot holds them joined).
    _seg: list[NavigableString] | None = None
    _decomposed: bool = False

    def __new__(cls, value: str | bytes = "") -> NavigableString:
        if not isinstance(value, str):
            # bs4's conversion: bytes are UTF-8; anything else (None, 5) is a
            # TypeError ("decoding to str: need a bytes-like object").
            value = str(value, "utf-8")
        obj = str.__new__(cls, value)
        obj._owner = None
        obj._tail = False
        obj._el = None
        obj._doc = None
        obj._raw = None
        return obj

    @classmethod
    def _for_slot(
        cls, value: str, owner: Any, is_tail: bool, raw: str, doc: Document | None
    ) -> NavigableString:
        obj = str.__new__(cls, value)
        obj._owner = owner
        obj._tail = is_tail
        obj._el = None
        obj._doc = doc
        obj._raw = raw
        return obj

    @classmethod
    def _for_node(cls, node: Any, doc: Document | None) -> NavigableString:
        raw = node_raw_text(node)
        value = raw
        if cls is Comment and not (
            doc is not None and (not doc._collapses or (node, None) in doc._verbatim)
        ):
            # bs4 collapses whitespace-only comments as it does text (when it
            # parses: not one an edit made; not with html5lib's tree builder).
            is_xml = doc is not None and doc._mode == "xml"
            value = normalize_text(raw, None if is_xml else node.getparent(), is_xml)
        obj = str.__new__(cls, value)
        obj._owner = None
        obj._tail = False
        obj._el = node
        obj._doc = doc
        obj._raw = raw
        return obj

    @classmethod
    def _synthetic(cls, value: str, doc: Document) -> NavigableString:
        obj = cls(value)
        obj._doc = doc
        return obj

    def __getnewargs__(self) -> tuple[str]:
        return (str(self),)

    def __reduce__(self) -> Any:
        return (type(self), (str(self),))

    def __copy__(self) -> NavigableString:
        return type(self)(str(self))

    def __deepcopy__(self, memo: Any) -> NavigableString:
        return type(self)(str(self))

    def __getitem__(self, key: Any) -> str:
        if isinstance(key, str):
            raise TypeError(
                f"string indices must be integers, not '{type(key).__name__}'. "
                "Are you treating a NavigableString like a Tag?"
            )
        return str.__getitem__(self, key)

    @property
    def name(self) -> None:
        """Always None: strings have no tag name."""
        return None

    @name.setter
    def name(self, value: str) -> None:
        raise AttributeError("A NavigableString cannot be given a name.")

    @property
    def string(self) -> NavigableString:
        """The string itself (mirrors `Tag.string`)."""
        return self

    def _document(self) -> Document | None:
        return self._doc

    def output_ready(self, formatter: FormatterOrName = "minimal") -> str:
        """The string as it appears in output, escaped by ``formatter``."""
        output = self.format_string(self, formatter)
        return self.PREFIX + output + self.SUFFIX

    @property
    def parent(self) -> Tag | None:
        el = self._el
        if el is not None:
            return node_parent(el, self._doc)  # type: ignore[no-any-return]
        owner = self._owner
        if owner is not None:
            if not self._is_live():
                return None
            if not self._tail:
                return wrap(owner, self._doc)  # type: ignore[no-any-return]
            parent = owner.getparent()
            if parent is not None:
                return wrap(parent, self._doc)  # type: ignore[no-any-return]
            return None
        doc = self._doc
        if doc is not None and doc._is_top_level_string(self):
            return doc.soup
        return None

    def _is_live(self) -> bool:
        """Whether the slot still holds the text this string was read from."""
        owner = self._owner
        raw = owner.tail if self._tail else owner.text
        return bool(raw == self._raw)

    @property
    def next_sibling(self) -> PageElement | None:
        owner = self._owner
        if owner is not None and self._el is None:  # a text slot's string
            seg = self._seg
            if seg is not None and seg[-1] is not self and self._is_live():
                at = _index_in(seg, self)
                if at is not None:
                    return seg[at + 1]
            if self._tail:
                if owner.tail != self._raw:
                    return None  # the slot's text changed: this string is gone
                following = owner.getnext()
            else:
                if owner.text != self._raw:
                    return None
                following = owner[0] if len(owner) else None
            if following is None:
                return None
            found = _wrapper_ref(following, NO_REF)()
            if found is not None:
                return found  # type: ignore[no-any-return]
            return wrap(following, self._doc)  # type: ignore[no-any-return]
        el = self._el
        if el is not None:
            return node_next_sibling(self, el)
        doc = self._doc
        if doc is not None:
            return doc._top_level_sibling(self, 1)  # type: ignore[no-any-return]
        return None

    @property
    def previous_sibling(self) -> PageElement | None:
        el = self._el
        if el is not None:
            return node_previous_sibling(self, el)
        owner = self._owner
        if owner is not None:
            if not self._is_live():
                return None
            seg = self._seg
            if seg is not None and seg[0] is not self:
                at = _index_in(seg, self)
                if at is not None:
                    return seg[at - 1]
            if not self._tail:
                return None
            return wrap(owner, self._doc)  # type: ignore[no-any-return]
        doc = self._doc
        if doc is not None:
            return doc._top_level_sibling(self, -1)  # type: ignore[no-any-return]
        return None

    def _all_strings(
        self, strip: bool = False, types: StringTypes = PageElement.default
    ) -> Iterator[str]:
        if types is PageElement.default:
            types = classes.Tag.MAIN_CONTENT_STRING_TYPES
        my_type = type(self)
        if types is not None:
            if isinstance(types, type):
                if my_type is not types:
                    return
            elif my_type not in types:
                return
        value: str = self.strip() if strip else self
        if value:
            yield value

    @property
    def strings(self) -> Iterator[str]:
        """This string, if it is of an interesting type."""
        return self._all_strings()

    def __repr__(self) -> str:
        return str.__repr__(self)

    def __str__(self) -> str:
        return str.__str__(self)

    def __hash__(self) -> int:
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return str.__ne__(self, other)


class PreformattedString(NavigableString):
    """A string printed as is, between a prefix and a suffix (comments, CDATA, ...)."""

    def output_ready(self, formatter: FormatterOrName = None) -> str:
        """The string wrapped in its prefix and suffix; the formatter is not applied."""
        if formatter is not None:
            self.format_string(self, formatter)
        return self.PREFIX + self + self.SUFFIX


class CData(PreformattedString):
    """A CDATA section."""

    PREFIX = "<![CDATA["
    SUFFIX = "]]>"


class ProcessingInstruction(PreformattedString):
    """An SGML processing instruction."""

    PREFIX = "<?"
    SUFFIX = ">"


class XMLProcessingInstruction(ProcessingInstruction):
    """An XML processing instruction."""

    PREFIX = "<?"
    SUFFIX = "?>"


class Comment(PreformattedString):
    """An HTML or XML comment."""

    PREFIX = "<!--"
    SUFFIX = "-->"


class Declaration(PreformattedString):
    """An XML declaration."""

    PREFIX = "<?"
    SUFFIX = "?>"


class Doctype(PreformattedString):
    """A document type declaration."""

    PREFIX = "<!DOCTYPE "
    SUFFIX = ">\n"

    @classmethod
    def for_name_and_ids(
        cls, name: str, pub_id: str | None, system_id: str | None
    ) -> Doctype:
        """The doctype for a name, public id and system id, as bs4 builds it."""
        return cls(cls._string_for_name_and_ids(name, pub_id, system_id))

    @classmethod
    def _of_document(
        cls, name: str | None, pub_id: str | None, system_id: str | None, doc: Document
    ) -> Doctype:
        """`for_name_and_ids`, as a child of ``doc``'s top level."""
        doctype = cls(cls._string_for_name_and_ids(name, pub_id, system_id))
        doctype._doc = doc
        return doctype

    @classmethod
    def _string_for_name_and_ids(
        cls, name: str | None, pub_id: str | None, system_id: str | None
    ) -> str:
        value = name or ""
        if pub_id is not None:
            value += f' PUBLIC "{pub_id}"'
            if system_id is not None:
                value += f' "{system_id}"'
        elif system_id is not None:
            value += f' SYSTEM "{system_id}"'
        return value


class Stylesheet(NavigableString):
    """The text of a ``<style>`` element."""


class Script(NavigableString):
    """The text of a ``<script>`` element."""


class TemplateString(NavigableString):
    """Text inside a ``<template>`` element."""


class RubyTextString(NavigableString):
    """The text of an ``<rt>`` element."""


class RubyParenthesisString(NavigableString):
    """The text of an ``<rp>`` element."""


#: bs4's ``HTMLTreeBuilder.DEFAULT_STRING_CONTAINERS``.
STRING_CONTAINERS: dict[str, type[NavigableString]] = {
    "rt": RubyTextString,
    "rp": RubyParenthesisString,
    "style": Stylesheet,
    "script": Script,
    "template": TemplateString,
}


classes.NavigableString = NavigableString
classes.PreformattedString = PreformattedString
classes.CData = CData
classes.Comment = Comment
classes.Declaration = Declaration
classes.Doctype = Doctype
classes.ProcessingInstruction = ProcessingInstruction
classes.XMLProcessingInstruction = XMLProcessingInstruction
classes.STRING_CONTAINERS = STRING_CONTAINERS
