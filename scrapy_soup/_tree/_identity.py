"""Which wrapper stands for which lxml node: the identity maps.

The same lxml node gives the same `Tag` (or comment, PI) while someone
holds it, and the same text slot gives the same string while its text is
unchanged, as in bs4, where a node is one object.  This module holds both
maps and makes wrappers (`wrap`); the hot loops of `_text` read
``WRAPPER_REFS``/``TEXT_REFS``/``TAIL_REFS`` inline and write a `Ref` only
for a string they just made.  Which string an edit binds to which slot is
`_view`'s, the owner of everything the soup keeps beside lxml's tree.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ._classes import classes
from ._tables import COMMENT_NODE, ENTITY_NODE, PI_NODE

if TYPE_CHECKING:
    from lxml.etree import _Element

    from ._document import Document

#: Identity maps: lxml node -> wrapper, and owner element -> the string of
#: its text (``TEXT_REFS``) or tail (``TAIL_REFS``) slot.  The
#: same node gives the same object while someone holds it.  Plain dicts of
#: weak references, read inline: ``WeakValueDictionary``'s Python-level
#: methods cost more than the rest of ``wrap()`` together.  An entry holds
#: the lxml proxy only as long as its wrapper lives.


class Ref(weakref.ref):  # type: ignore[type-arg]
    """A weak reference that knows its key in an identity map.

    ``weakref.KeyedRef`` does the same, but its constructor is Python code
    and costs four times as much as this subclass, whose ``key`` slot is set
    after a C-level construction: it is the largest part of `wrap`.
    """

    __slots__ = ("key",)
    key: Any


def _ref(obj: Any, callback: Any, key: Any) -> Ref:
    ref = Ref(obj, callback)
    ref.key = key
    return ref


WRAPPER_REFS: dict[Any, Ref] = {}
#: Two maps keyed by the element, not one keyed by ``(owner, is_tail)``: a
#: walk looks up every slot, and building and hashing the tuple cost more
#: than the look-up itself.
TEXT_REFS: dict[Any, Ref] = {}
TAIL_REFS: dict[Any, Ref] = {}
#: The default of a look-up in these maps, so that ``MAP.get(key, NO_REF)()``
#: is the live object or None in one expression: a missing entry calls
#: ``NoneType()``, which returns None (in C, as calling a `Ref` is).
NO_REF: Any = type(None)


def _forget_wrapper(ref: Ref) -> None:
    if WRAPPER_REFS.get(ref.key) is ref:
        del WRAPPER_REFS[ref.key]


def forget_text(ref: Ref) -> None:
    """The callback of a text slot string's `Ref`: drop its entry when it dies."""
    if TEXT_REFS.get(ref.key) is ref:
        del TEXT_REFS[ref.key]


def forget_tail(ref: Ref) -> None:
    """The callback of a tail slot string's `Ref`: drop its entry when it dies."""
    if TAIL_REFS.get(ref.key) is ref:
        del TAIL_REFS[ref.key]


def remember(node: _Element, wrapper: Any) -> None:
    """Make ``wrapper`` the object that `wrap` returns for ``node``."""
    WRAPPER_REFS[node] = _ref(wrapper, _forget_wrapper, node)


def cached_wrapper(node: _Element) -> Any:
    """The live wrapper of ``node``, or None."""
    ref = WRAPPER_REFS.get(node)
    return ref() if ref is not None else None


def remember_string(owner: _Element, is_tail: bool, string: Any) -> None:
    """Make ``string`` the object read from that slot while its text is unchanged."""
    if is_tail:
        TAIL_REFS[owner] = _ref(string, forget_tail, owner)
    else:
        TEXT_REFS[owner] = _ref(string, forget_text, owner)


def cached_string(owner: _Element, is_tail: bool) -> Any:
    """The live string last read from that slot, or None (its text may have changed)."""
    ref = (TAIL_REFS if is_tail else TEXT_REFS).get(owner)
    return ref() if ref is not None else None


_new_object = object.__new__


def wrap(node: _Element, doc: Document | None) -> Any:
    """The wrapper of an lxml node: a `Tag`, `Comment` or `ProcessingInstruction`.

    The same node gives the same object while it is referenced (and while
    ``doc`` lives: see ``Document._kept``).  The synthetic container of a fragment
    soup gives the soup itself.
    """
    ref = WRAPPER_REFS.get(node)
    if ref is not None:
        found = ref()
        if found is not None:
            return found
    wrapper: Any
    if doc is not None and node is doc._el:
        # A fragment's container stands for the soup: the user's let go.
        return doc.soup
    if isinstance(node.tag, str):
        # Inline Tag._wrap: this is the hottest line of every search.
        wrapper = _new_object(classes.Tag)
        wrapper._el = node
        wrapper._doc = doc
        wrapper._hidden = False
    elif isinstance(node, COMMENT_NODE):
        wrapper = classes.Comment._for_node(node, doc)
    elif isinstance(node, PI_NODE):
        wrapper = (
            classes.XMLProcessingInstruction
            if doc is not None and doc._mode == "xml"
            else classes.ProcessingInstruction
        )._for_node(node, doc)
    elif isinstance(node, ENTITY_NODE):
        wrapper = classes.NavigableString._for_node(node, doc)
    else:  # pragma: no cover - lxml has no other node types in a tree
        raise TypeError(f"cannot wrap {node!r}")
    ref = Ref(wrapper, _forget_wrapper)
    ref.key = node
    WRAPPER_REFS[node] = ref
    if doc is not None:
        doc._kept[node] = wrapper
    return wrapper


def wrap_all(nodes: Iterable[_Element], doc: Document | None) -> list[Any]:
    """`wrap` of each node, in order: the loop of every search result."""
    get = WRAPPER_REFS.get
    refs = WRAPPER_REFS
    kept = doc._kept if doc is not None else {}
    tag_class = classes.Tag
    out: list[Any] = []
    append = out.append
    for node in nodes:
        ref = get(node)
        if ref is not None:
            found = ref()
            if found is not None:
                append(found)
                continue
        if not isinstance(node.tag, str):
            append(wrap(node, doc))
            continue
        # `wrap`'s Tag branch inline: search results are mostly new tags.
        tag = _new_object(tag_class)
        tag._el = node
        tag._doc = doc
        tag._hidden = False
        ref = Ref(tag, _forget_wrapper)
        ref.key = node
        refs[node] = ref
        kept[node] = tag
        append(tag)
    return out
