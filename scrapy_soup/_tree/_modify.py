"""Tree editing: bs4's modification API, written straight through to lxml.

Every edit changes the lxml tree the soup is a view of, so ``response.css()``
and XPath see it at once.  Two facts of lxml's model shape the code:

- Text is not a node: it lives in an element's ``.text`` (before its first
  child) and each child's ``.tail`` (after it).  Two strings can therefore
  never be neighbours: inserting a string next to a string, or removing the
  node between two strings, joins them into one slot.  The output is what
  bs4 prints (bs4 prints neighbouring strings one after the other); only
  ``.contents`` shows one string where bs4 shows two.
- A string object remembers its slot.  When an edit moves a text to another
  slot (``insert(0, tag)`` moves the parent's ``.text`` into the new tag's
  ``.tail``), the string object is re-bound to its new slot, so objects the
  caller holds keep working; a string that was joined with another is left
  detached (its text lives on in the joined string).

Simple edits around an element (``insert_before``, ``replace_with``,
``extract``, ``append``, ...) are a few lxml calls.  Edits that address
children by position, or whose anchor is a string, take a snapshot of the
parent's contents (bs4's list), apply bs4's list operations to it, and write
the list back (`_view.write_back`).  What the soup keeps beside lxml's
tree (strings bound to slots, verbatim marks, hidden tags) changes only
through `_view`, one call per change.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypeAlias

    from typing_extensions import Self

    from ._node import PageElement
    from ._tag import Tag

    #: What the insert and replace methods take, as in bs4: a node, or a
    #: ``str`` that becomes a `NavigableString`.
    InsertableElement: TypeAlias = PageElement | str

from lxml import etree

from . import _view
from ._attrs import xml_safe
from ._classes import classes
from ._identity import remember
from ._text import forget_contexts

_FULL_DOCUMENT_MESSAGE = (
    "the top level of a full html/xml soup cannot be addressed by position: use "
    "insert_before/insert_after on the doctype, a comment or the root "
    "element, edit the root element's contents, or use a fragment soup "
    "(features='fragment' or 'html.parser')"
)


# ---------------------------------------------------------------------------
# nodes


def _is_node(x: Any) -> bool:
    """Whether ``x`` is (or will be) an lxml node: a tag, comment or PI."""
    if isinstance(x, classes.NavigableString):
        return x._el is not None or isinstance(
            x, (classes.Comment, classes.ProcessingInstruction)
        )
    return True


def _is_full_document(x: Any) -> bool:
    return isinstance(x, classes.Soup) and x._el is None


def _parent_el(parent: Any) -> Any:
    """The lxml element holding a parent's children (refusing a full document)."""
    if _is_full_document(parent):
        raise ValueError(_FULL_DOCUMENT_MESSAGE)
    return parent._el


class _DecomposedTag:
    """What a decomposed tag shows, as in bs4: no name, printed ``<></>``.

    `decompose` gives a tag a subclass of its own class with this first, so
    no other tag pays a check for it.
    """

    __slots__ = ()

    _decomposed = True

    @property
    def name(self) -> str:
        return ""

    def decode(
        self,
        indent_level: int | bool | None = None,
        eventual_encoding: str | None = "utf-8",
        formatter: Any = "minimal",
        iterator: Any = None,
    ) -> str:
        return "<></>" if indent_level is None else "<>\n</>\n"


#: A tag class -> its decomposed class, and back (copies are not decomposed).
_DECOMPOSED_CLASSES: dict[type, type] = {}
_UNDECOMPOSED_CLASSES: dict[type, Any] = {}


def _mark_decomposed(x: Any) -> None:
    cls = type(x)
    if not issubclass(cls, classes.Tag) or issubclass(cls, classes.Soup):
        x._decomposed = True  # (a string's attribute, the soup's slot)
    elif not issubclass(cls, _DecomposedTag):
        sub = _DECOMPOSED_CLASSES.get(cls)
        if sub is None:
            sub = type(cls.__name__, (_DecomposedTag, cls), {"__slots__": ()})
            _DECOMPOSED_CLASSES[cls] = sub
            _UNDECOMPOSED_CLASSES[sub] = cls
        x.__class__ = sub


def _normalize_arg(arg: Any) -> Any:
    """bs4's checks and conversions for a node about to be inserted."""
    if arg is None:
        raise ValueError("Cannot insert None into a tag.")
    if isinstance(arg, str) and not isinstance(arg, classes.NavigableString):
        return classes.NavigableString(arg)
    if not isinstance(arg, classes.PageElement):
        raise TypeError(
            f"Cannot insert a {type(arg).__name__} into a tag: "
            "give a Tag, a NavigableString or a str"
        )
    if arg.decomposed:
        raise ValueError("Cannot insert a decomposed element.")
    if _is_full_document(arg):
        raise ValueError(
            "Cannot insert a full html/xml soup: insert a fragment soup "
            "(features='fragment' or 'html.parser') or the root's contents"
        )
    return arg


def _check_not_ancestor(arg: Any, target_el: Any) -> None:
    """Refuse to put a tag inside itself or inside one of its descendants."""
    if isinstance(arg, classes.Tag) and not isinstance(arg, classes.Soup):
        el = arg._el
        if el is target_el:
            raise ValueError("Cannot insert a tag into itself.")
        for ancestor in target_el.iterancestors():
            if ancestor is el:
                raise ValueError("Cannot insert a tag into one of its descendants.")


def _prepare(arg: Any, doc: Any) -> Any:
    """Give a detached comment or processing instruction an lxml node of its own.

    A tag may be or hold a ``<template>``: the soup forgets whether its tree
    holds one (`_select.has_template`).
    """
    if not isinstance(arg, classes.NavigableString):
        if doc is not None:
            doc._template_check = None
            forget_contexts(doc)
        return arg
    if arg._el is not None:
        return arg
    node: Any
    if isinstance(arg, classes.Comment):
        try:
            node = etree.Comment(xml_safe(str(arg)))
        except ValueError as exc:
            raise ValueError(f"lxml cannot hold this comment: {exc}") from exc
        _view.mark_comment(node, str(arg), doc)
    elif isinstance(arg, classes.ProcessingInstruction):
        target, _, rest = str(arg).partition(" ")
        if isinstance(arg, classes.XMLProcessingInstruction) and rest.endswith("?"):
            rest = rest[:-1]
        node = etree.ProcessingInstruction(target, xml_safe(rest) or None)
    else:
        # Text, whatever its class: lxml's slot holds the text, the soup the
        # string object, whose class output and get_text() follow
        # (`_view.add_text`); a CData or doctype is text to lxml and parsel.
        return arg
    arg._el = node
    arg._doc = doc
    arg._raw = str(arg)
    remember(node, arg)
    return arg


def _detach(x: Any) -> None:
    """Take ``x`` out of the tree, wherever it is (bs4's ``extract``)."""
    if isinstance(x, classes.NavigableString) and x._el is None:
        owner = x._owner
        if owner is None:
            doc = x._doc
            if doc is not None and doc._is_top_level_string(x):
                doc._remove_top_level(x)
            return
        _view.take_string(x)
        return
    node = x._el
    if node.getparent() is None:
        doc = x._doc
        if doc is not None and doc._is_top_level(node):
            doc._remove_top_level(x)
        return
    _view.remove_node(node, x._doc)


def _index_in(items: list[Any], x: Any) -> int | None:
    for i, item in enumerate(items):
        if item is x:
            return i
    return None


def _list_insert(parent: Any, items: list[Any], position: int, arg: Any) -> list[Any]:
    """bs4's ``Tag._insert`` on a snapshot of ``parent``'s contents."""
    arg = _normalize_arg(arg)
    if arg is parent:
        raise ValueError("Cannot insert a tag into itself.")
    if isinstance(arg, classes.Soup):
        inserted: list[Any] = []
        for child in list(arg.contents):
            inserted.extend(_list_insert(parent, items, position, child))
            position += 1
        return inserted
    _check_not_ancestor(arg, parent._el)
    if position < 0:
        position = max(0, len(items) + position)
    position = min(position, len(items))
    current = _index_in(items, arg)
    if current is not None:
        if current < position:
            position -= 1
        elif current == position:
            return [arg]
        del items[current]
    else:
        _detach(arg)
    items.insert(position, _prepare(arg, parent._doc))
    return [arg]


def _insert_before_node(anchor: Any, arg: Any, doc: Any) -> list[Any]:
    """Put ``arg`` right before the lxml node ``anchor`` (and after the text before it)."""
    if isinstance(arg, classes.Soup):
        inserted: list[Any] = []
        for child in list(arg.contents):
            inserted.extend(_insert_before_node(anchor, _normalize_arg(child), doc))
        return inserted
    _detach(arg)
    if _is_node(arg):
        item = _prepare(arg, doc)
        node = item._el
        node.tail = None
        anchor.addprevious(node)
        _view.adopt(item, doc)
        return [arg]
    prev = anchor.getprevious()
    if prev is not None:
        _view.add_text(prev, True, arg, doc)
    else:
        _view.add_text(anchor.getparent(), False, arg, doc)
    return [arg]


def _insert_after_node(anchor: Any, arg: Any, doc: Any) -> Any:
    """Put the node ``arg`` right after ``anchor``, which hands it its tail; returns the node."""
    _detach(arg)
    item = _prepare(arg, doc)
    node = item._el
    node.tail = None
    anchor.addnext(node)
    _view.hand_tail(anchor, node, doc)
    _view.adopt(item, doc)
    return node


def _insert_beside(me: Any, args: tuple[Any, ...], after: bool) -> list[PageElement]:
    """``insert_before``/``insert_after``: bs4's checks and messages, then the edit.

    Nodes around a node are a few lxml calls; otherwise bs4's list of the
    parent's contents is edited and written back.
    """
    word = "after" if after else "before"
    if isinstance(me, classes.Soup):  # bs4's: a soup has no siblings
        raise NotImplementedError(
            f"BeautifulSoup objects don't support insert_{word}()."
        )
    parent = me.parent
    if parent is None:
        raise ValueError(f"Element has no parent, so '{word}' has no meaning.")
    if any(x is me for x in args):
        raise ValueError(f"Can't insert an element {word} itself.")
    if _is_full_document(parent):
        return parent._doc._edit_top_level(me, args, after=after)  # type: ignore[no-any-return]
    target = _parent_el(parent)
    normalized = [_normalize_arg(a) for a in args]
    for arg in normalized:
        _check_not_ancestor(arg, target)
    doc = parent._doc
    results: list[PageElement] = []
    if after:
        if _is_node(me) and all(
            _is_node(a) and not isinstance(a, classes.Soup) for a in normalized
        ):
            anchor = me._el
            for arg in normalized:
                anchor = _insert_after_node(anchor, arg, doc)
            return normalized
    elif _is_node(me):
        for arg in normalized:
            results.extend(_insert_before_node(me._el, arg, doc))
        return results
    items = parent._contents_list()
    try:
        for offset, arg in enumerate(normalized):
            if not isinstance(arg, classes.Soup):
                current = _index_in(items, arg)
                if current is not None:
                    del items[current]
                else:
                    _detach(arg)
            index = _index_in(items, me)
            assert index is not None
            position = index + 1 + offset if after else index
            results.extend(_list_insert(parent, items, position, arg))
    finally:
        _view.write_back(parent, items)
    return results


def _require_tag(me: Any, method: str) -> None:
    if not isinstance(me, classes.Tag):
        raise AttributeError(
            f"'{type(me).__name__}' object has no attribute '{method}'"
        )


class ModifyMixin:
    """bs4's tree-editing methods, for tags and strings alike (tag-only ones check)."""

    __slots__ = ()

    #: Set by `decompose` (a slot of `Tag`, an attribute of a string).
    _decomposed: bool

    # -- state ---------------------------------------------------------------
    @property
    def decomposed(self) -> bool:
        """Whether `decompose` was called on this node (or an ancestor)."""
        return self._decomposed

    # -- taking out ------------------------------------------------------------
    def extract(self, _self_index: int | None = None) -> Self:
        """Take this node out of the tree and return it (bs4's ``extract``).

        Unlike bs4, taking a node out from between two strings joins them.
        """
        me: Any = self
        if isinstance(me, classes.Soup):
            return self
        _detach(me)
        return self

    def decompose(self) -> None:
        """Take this node out and destroy it and everything in it (bs4's ``decompose``)."""
        me: Any = self
        me.extract()
        _mark_decomposed(me)
        if isinstance(me, classes.Tag):
            el = me._el
            for held in _view.release(el):
                _mark_decomposed(held)
            el.clear()

    # -- putting in ------------------------------------------------------------
    def insert(
        self, position: int, *new_children: InsertableElement
    ) -> list[PageElement]:
        """Insert nodes at ``position`` among this tag's children (bs4's ``insert``).

        Strings may be plain ``str``; nodes from this or another soup are
        moved; a fragment soup gives its contents.
        """
        me: Any = self
        _require_tag(me, "insert")
        _parent_el(me)
        items = me._contents_list()
        inserted: list[PageElement] = []
        try:
            for child in new_children:
                inserted.extend(_list_insert(me, items, position, child))
                position += 1
        finally:
            _view.write_back(me, items)
        return inserted

    def append(self, tag: InsertableElement) -> PageElement:
        """Add a node at the end of this tag's contents (bs4's ``append``)."""
        me: Any = self
        _require_tag(me, "append")
        el = _parent_el(me)
        arg = _normalize_arg(tag)
        if isinstance(arg, classes.Soup):
            # (bs4 returns the first node of the soup; this, all of them.)
            return me.insert(len(me), arg)  # type: ignore[no-any-return]
        if arg is me:
            raise ValueError("Cannot insert a tag into itself.")
        _check_not_ancestor(arg, el)
        if _is_node(arg):
            node = arg._el
            if node is not None and node.getparent() is el:
                return self.insert(len(me), arg)[0]
            _detach(arg)
            item = _prepare(arg, me._doc)
            item._el.tail = None
            el.append(item._el)
            _view.adopt(item, me._doc)
            return arg  # type: ignore[no-any-return]
        if arg._owner is not None and arg.parent is me:
            return self.insert(len(me), arg)[0]
        _detach(arg)
        if len(el):
            _view.add_text(el[-1], True, arg, me._doc)
        else:
            _view.add_text(el, False, arg, me._doc)
        return arg  # type: ignore[no-any-return]

    def extend(self, tags: Iterable[InsertableElement] | Tag) -> list[PageElement]:
        """Append each of ``tags`` (a tag: its contents) (bs4's ``extend``)."""
        me: Any = self
        _require_tag(me, "extend")
        tag_list: Iterable[Any]
        if isinstance(tags, classes.Tag):
            tag_list = list(tags.contents)
        elif isinstance(tags, (classes.PageElement, str)):
            warnings.warn(
                "A single non-Tag item was passed into Tag.extend. "
                "Use Tag.append instead.",
                UserWarning,
                stacklevel=2,
            )
            tag_list = [tags]
        else:
            tag_list = list(tags)
        results: list[PageElement] = []
        for tag in tag_list:
            appended = me.append(tag)
            if isinstance(appended, list):
                results.extend(appended)
            else:
                results.append(appended)
        return results

    def insert_before(self, *args: InsertableElement) -> list[PageElement]:
        """Put nodes right before this one, in order (bs4's ``insert_before``)."""
        return _insert_beside(self, args, after=False)

    def insert_after(self, *args: InsertableElement) -> list[PageElement]:
        """Put nodes right after this one, in order (bs4's ``insert_after``)."""
        return _insert_beside(self, args, after=True)

    # -- replacing ---------------------------------------------------------------
    def replace_with(self, *args: InsertableElement) -> Self:
        """Put ``args`` where this node is and take it out (bs4's ``replace_with``)."""
        me: Any = self
        parent = me.parent
        if parent is None:
            raise ValueError(
                "Cannot replace one element with another when the "
                "element to be replaced is not part of a tree."
            )
        if len(args) == 1 and args[0] is me:
            return self
        if any(x is parent for x in args):
            raise ValueError("Cannot replace a Tag with its parent.")
        if _is_full_document(parent):
            parent._doc._edit_top_level(
                me, [a for a in args if a is not me], after=True
            )
            _detach(me)
            return self
        target = _parent_el(parent)
        normalized = [_normalize_arg(a) for a in args]
        for arg in normalized:
            _check_not_ancestor(arg, target)
        if _is_node(me) and not any(arg is me for arg in normalized):
            for arg in normalized:
                _insert_before_node(me._el, arg, parent._doc)
            _detach(me)
            return self
        items = parent._contents_list()
        try:
            idx = _index_in(items, me)
            assert idx is not None
            del items[idx]
            if not _is_node(me):
                _view.unbind_string(me)
            for k, arg in enumerate(normalized):
                _list_insert(parent, items, idx + k, arg)
        finally:
            _view.write_back(parent, items)
        return self

    def replaceWith(self, *args: InsertableElement) -> Self:
        """Deprecated alias of `replace_with`."""
        warnings.warn(
            "Call to deprecated method replaceWith. (Replaced by replace_with) "
            "-- Deprecated since version 4.0.0.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.replace_with(*args)

    def wrap(self, wrap_inside: Tag) -> Tag:
        """Put this node inside ``wrap_inside``, which takes its place (bs4's ``wrap``)."""
        me: Any = self.replace_with(wrap_inside)
        wrap_inside.append(me)
        return wrap_inside

    def unwrap(self) -> Self:
        """Replace this tag with its contents (bs4's ``unwrap``)."""
        me: Any = self
        _require_tag(me, "unwrap")
        parent = me.parent
        if parent is None:
            raise ValueError(
                "Cannot replace an element with its contents when that "
                "element is not part of a tree."
            )
        _parent_el(parent)
        items = parent._contents_list()
        index = _index_in(items, me)
        assert index is not None
        items[index : index + 1] = me._contents_list()
        _view.write_back(parent, items)
        _view.empty(me._el)
        return self

    replace_with_children = unwrap

    def replaceWithChildren(self) -> Self:
        """Deprecated alias of `unwrap`."""
        warnings.warn(
            "Call to deprecated method replaceWithChildren. (Replaced by unwrap) "
            "-- Deprecated since version 4.0.0.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.unwrap()

    def clear(self, decompose: bool = False) -> None:
        """Take out (or decompose) every child of this tag (bs4's ``clear``)."""
        me: Any = self
        _require_tag(me, "clear")
        if decompose:
            for child in me._contents_list():
                child.decompose()
            return
        el = _parent_el(me)
        _view.empty(el)
        del el[:]

    def smooth(self) -> None:
        """Join neighbouring strings (bs4's ``smooth``): lxml already holds them joined.

        In a slot that held several strings, each run of neighbours, none of
        them preformatted (a ``CData``, a doctype), becomes one new
        `NavigableString`; the strings joined are let go (detached, as bs4's
        are), the others stay (`_view.smooth`).
        """
        _require_tag(self, "smooth")
        me: Any = self
        el = me._el if me._el is not None else getattr(me, "_root", None)
        if el is not None:
            _view.smooth(el, me._doc)

    def _set_string(self, value: str) -> None:
        """``tag.string = value``: the contents become that one string (bs4's setter)."""
        me: Any = self
        cls = type(value) if isinstance(value, classes.NavigableString) else None
        me.clear()
        # bs4's conversion, after the clear as there: bytes are UTF-8, None
        # or a number raise its TypeError and leave the tag empty.
        me.append((cls or classes.NavigableString)(value))

    # -- copying -------------------------------------------------------------------
    def __copy__(self) -> Self:
        """A detached deep copy (bs4: a copy of a tag is always deep)."""
        me: Any = self
        el = copy.deepcopy(me._el)
        el.tail = None
        cls = type(me)
        doc = me._doc
        clone = _UNDECOMPOSED_CLASSES.get(cls, cls)._wrap(el, doc)
        remember(el, clone)
        pos = me.sourcepos  # (the line is the element's, copied with it)
        if pos is not None:
            clone.sourcepos = pos
        if doc is not None and doc._beside_lxml:
            _view.copy_state(me._el, el, doc)
        return clone  # type: ignore[no-any-return]  # (type(me): Self's class)

    def __deepcopy__(self, memo: object) -> Self:
        return self.__copy__()

    # -- document methods ------------------------------------------------------
    def new_tag(
        self,
        name: str,
        namespace: str | None = None,
        nsprefix: str | None = None,
        attrs: Mapping[str, object] | None = None,
        sourceline: int | None = None,
        sourcepos: int | None = None,
        string: str | None = None,
        **kwattrs: object,
    ) -> Tag:
        """A new detached tag of this soup (bs4's ``BeautifulSoup.new_tag``)."""
        me: Any = self
        if not isinstance(me, classes.Soup):
            raise AttributeError(
                f"'{type(me).__name__}' object has no attribute 'new_tag'"
            )
        qname = f"{{{namespace}}}{name}" if namespace else name
        nsmap = {nsprefix: namespace} if namespace and me._mode == "xml" else None
        try:
            el = etree.Element(qname, nsmap=nsmap)
        except ValueError as exc:
            raise ValueError(f"lxml cannot hold a tag named {name!r}: {exc}") from exc
        tag = classes.Tag._wrap(el, me._doc)
        remember(el, tag)
        values = dict(attrs or {})
        values.update(kwattrs)
        if values:
            view = tag.attrs
            for key, value in values.items():
                view[key] = value
        if string is not None:
            tag.string = string
        return tag
