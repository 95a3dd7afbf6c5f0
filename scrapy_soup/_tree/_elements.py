"""The soup's nodes: thin wrappers over lxml nodes and text slots.

Nothing here copies the tree.  A `Tag` holds one lxml element; a
`NavigableString` is a ``str`` that remembers the slot it was read from (an
element's ``.text`` or ``.tail``), or the lxml node it stands for (comments,
processing instructions).  Navigation is computed from lxml on each call, so
the view is always current with the tree that ``response.css()`` sees.

Where bs4's tree differs from lxml's, the view emulates bs4 (see
``_normalize_text``, `Soup` for the document level).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, overload

from lxml import etree

from ._attrs import CDATA_LIST_ATTRIBUTES, AttrsView, delete_attribute
from ._find import FindMixin
from ._modify import TREE_EDITS, ModifyMixin

if TYPE_CHECKING:
    from typing import TypeAlias

    from ._attrs import AttributeValueList
    from ._formatter import Formatter, FormatterOrName
    from ._soup import Soup

    #: The string classes get_text() and .strings collect: one or several
    #: (bs4's ``_OneOrMoreStringTypes``).
    StringTypes: TypeAlias = "type[NavigableString] | Iterable[type[NavigableString]]"

_D = TypeVar("_D")

#: bs4 collapses a string made only of these characters (outside ``<pre>``
#: and ``<textarea>``) to "\n" or " " (``BeautifulSoup.endData``).
ASCII_SPACES = "\x20\x0a\x09\x0c\x0d"
PRESERVE_WHITESPACE_TAGS = frozenset({"pre", "textarea"})
#: The tags that change what a string inside them is (see `TextContext`).
TEXT_CONTEXT_TAGS = PRESERVE_WHITESPACE_TAGS | {
    "rt", "rp", "style", "script", "template"
}  # fmt: skip

#: bs4's ``HTMLTreeBuilder.DEFAULT_EMPTY_ELEMENT_TAGS``: rendered ``<br/>``.
VOID_ELEMENTS = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen",
        "link", "menuitem", "meta", "param", "source", "track", "wbr",
        "basefont", "bgsound", "command", "frame", "image", "isindex",
        "nextid", "spacer",
    }
)  # fmt: skip

_UNIVERSAL_MULTI = CDATA_LIST_ATTRIBUTES["*"]
#: Every attribute name that is multi-valued on some tag: ``tag["href"]``
#: returns lxml's value without reading the tag's name.
_ANY_MULTI = frozenset().union(*CDATA_LIST_ATTRIBUTES.values())

_ELEMENT = etree._Element
_COMMENT = etree._Comment
_PI = etree._ProcessingInstruction
_ENTITY = etree._Entity

#: Identity maps: lxml node -> wrapper, and (owner, is_tail) -> string.  The
#: same node gives the same object while someone holds it.  Plain dicts of
#: weak references, read inline: ``WeakValueDictionary``'s Python-level
#: methods cost more than the rest of ``wrap()`` together.  An entry holds
#: the lxml proxy only as long as its wrapper lives.


class _Ref(weakref.ref):  # type: ignore[type-arg]
    """A weak reference that knows its key in an identity map.

    ``weakref.KeyedRef`` does the same, but its constructor is Python code
    and costs four times as much as this subclass, whose ``key`` slot is set
    after a C-level construction: it is the largest part of `wrap`.
    """

    __slots__ = ("key",)
    key: Any


def _ref(obj: Any, callback: Any, key: Any) -> _Ref:
    ref = _Ref(obj, callback)
    ref.key = key
    return ref


_WRAPPER_REFS: dict[Any, _Ref] = {}
_STRING_REFS: dict[tuple[Any, bool], _Ref] = {}


def _forget_wrapper(ref: _Ref) -> None:
    if _WRAPPER_REFS.get(ref.key) is ref:
        del _WRAPPER_REFS[ref.key]


def _forget_string(ref: _Ref) -> None:
    if _STRING_REFS.get(ref.key) is ref:
        del _STRING_REFS[ref.key]


def remember(node: Any, wrapper: Any) -> None:
    """Make ``wrapper`` the object that `wrap` returns for ``node``."""
    _WRAPPER_REFS[node] = _ref(wrapper, _forget_wrapper, node)


def cached_wrapper(node: Any) -> Any:
    """The live wrapper of ``node``, or None."""
    ref = _WRAPPER_REFS.get(node)
    return ref() if ref is not None else None


def remember_string(owner: Any, is_tail: bool, string: Any) -> None:
    """Make ``string`` the object read from that slot while its text is unchanged."""
    key = (owner, is_tail)
    _STRING_REFS[key] = _ref(string, _forget_string, key)


def cached_string(owner: Any, is_tail: bool) -> Any:
    """The live string last read from that slot, or None (its text may have changed)."""
    ref = _STRING_REFS.get((owner, is_tail))
    return ref() if ref is not None else None


def _follow(node: Any, link: str) -> Iterator[Any]:
    """The nodes reached by following ``link`` (``next_sibling``, ...) from ``node``."""
    node = getattr(node, link)
    while node is not None:
        yield node
        node = getattr(node, link)


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
        return doc is not None and doc.is_xml

    def _document(self) -> Soup | None:
        raise NotImplementedError

    def format_string(self, s: str, formatter: FormatterOrName) -> str:
        """Format a string with a formatter, as bs4's method of that name."""
        from ._formatter import formatter_for_name

        if formatter is None:
            return s
        return formatter_for_name(formatter, self._is_xml).substitute(s)

    def formatter_for_name(self, formatter: FormatterOrName) -> Formatter:
        """Resolve a formatter name for this node's kind of document."""
        from ._formatter import formatter_for_name

        return formatter_for_name(formatter, self._is_xml)


# ---------------------------------------------------------------------------
# wrapping lxml nodes


_new_object = object.__new__
_new_str = str.__new__


def wrap(node: Any, doc: Soup | None) -> Any:
    """The wrapper of an lxml node: a `Tag`, `Comment` or `ProcessingInstruction`.

    The same node gives the same object while it is referenced (and while
    ``doc`` lives: see ``Soup._kept``).  The synthetic container of a fragment
    soup gives the soup itself.
    """
    ref = _WRAPPER_REFS.get(node)
    if ref is not None:
        found = ref()
        if found is not None:
            return found
    wrapper: Any
    if isinstance(node.tag, str):
        # Inline Tag._wrap: this is the hottest line of every search.
        wrapper = _new_object(Tag)
        wrapper._el = node
        wrapper._doc = doc
        wrapper.hidden = False
    elif isinstance(node, _COMMENT):
        wrapper = Comment._for_node(node, doc)
    elif isinstance(node, _PI):
        wrapper = (
            XMLProcessingInstruction
            if doc is not None and doc.is_xml
            else ProcessingInstruction
        )._for_node(node, doc)
    elif isinstance(node, _ENTITY):
        wrapper = NavigableString._for_node(node, doc)
    else:  # pragma: no cover - lxml has no other node types in a tree
        raise TypeError(f"cannot wrap {node!r}")
    ref = _Ref(wrapper, _forget_wrapper)
    ref.key = node
    _WRAPPER_REFS[node] = ref
    if doc is not None:
        doc._kept[node] = wrapper
    return wrapper


def wrap_all(nodes: Iterable[Any], doc: Soup | None) -> list[Any]:
    """`wrap` of each node, in order: the loop of every search result."""
    get = _WRAPPER_REFS.get
    refs = _WRAPPER_REFS
    kept = doc._kept if doc is not None else {}
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
        tag = _new_object(Tag)
        tag._el = node
        tag._doc = doc
        tag.hidden = False
        ref = _Ref(tag, _forget_wrapper)
        ref.key = node
        refs[node] = ref
        kept[node] = tag
        append(tag)
    return out


def node_raw_text(node: Any) -> str:
    """The text of a comment, PI or entity node as bs4 holds it.

    bs4's lxml builder makes a processing instruction's string of
    ``target + " " + data``.
    """
    text = node.text or ""
    if isinstance(node, _PI):
        return f"{node.target} {text}"
    return text


def string_class_for(parent: Any) -> type[NavigableString]:
    """The string class bs4 gives text whose parent element is ``parent``.

    bs4 keeps a stack of the open ``<script>``, ``<style>``, ``<template>``,
    ``<rt>`` and ``<rp>`` tags and uses the innermost one's class.
    """
    if parent is None:
        return NavigableString
    tag = parent.tag
    cls = STRING_CONTAINERS.get(tag) if isinstance(tag, str) else None
    if cls is not None:
        return cls
    for ancestor in parent.iterancestors(*STRING_CONTAINERS):
        return STRING_CONTAINERS[ancestor.tag]
    return NavigableString


def normalize_text(raw: str, parent: Any, is_xml: bool) -> str:
    """What bs4 makes of a text node: whitespace-only strings collapse.

    bs4 turns a string of only ASCII whitespace into "\\n" (if it holds one)
    or " ", unless it is inside ``<pre>``/``<textarea>`` (HTML only).
    """
    if raw.strip(ASCII_SPACES):
        return raw
    if not is_xml and parent is not None:
        if parent.tag in PRESERVE_WHITESPACE_TAGS:
            return raw
        for _ in parent.iterancestors(*PRESERVE_WHITESPACE_TAGS):
            return raw
    return "\n" if "\n" in raw else " "


def text_string(
    owner: Any,
    is_tail: bool,
    doc: Soup | None,
    raw: str | None = None,
    walk: TextContext | None = None,
) -> Any:
    """The `NavigableString` in ``owner``'s ``.text`` or ``.tail`` slot, or None.

    ``walk`` (when the caller is walking the tree) already knows the string's
    class and whether whitespace is preserved, which saves a look at the
    ancestors.
    """
    if raw is None:
        raw = owner.tail if is_tail else owner.text
        if not raw:
            return None
    key = (owner, is_tail)
    ref = _STRING_REFS.get(key)
    if ref is not None:
        found = ref()
        if found is not None and found._raw == raw:
            return found
    return _new_string(key, owner, is_tail, doc, raw, walk)


def _new_string(
    key: tuple[Any, bool],
    owner: Any,
    is_tail: bool,
    doc: Soup | None,
    raw: str,
    walk: TextContext | None,
) -> Any:
    """A new string object for a text slot, remembered (`text_string`'s miss)."""
    if walk is not None:
        value = walk.value(raw)
        cls = walk.string_class()
    else:
        parent = owner.getparent() if is_tail else owner
        is_xml = doc is not None and doc.is_xml
        value = normalize_text(raw, parent, is_xml)
        cls = NavigableString if is_xml else string_class_for(parent)
    if value is not raw and doc is not None and doc._verbatim and key in doc._verbatim:
        value = raw  # an edit wrote it: bs4's value as it is
    # Inline _for_slot; ``_el`` keeps its class default (None).
    string = _new_str(cls, value)
    string._owner = owner
    string._tail = is_tail
    string._doc = doc
    string._raw = raw
    ref = _Ref(string, _forget_string)
    ref.key = key
    _STRING_REFS[key] = ref
    if doc is not None:
        doc._kept[key] = string
    return string


class TextContext:
    """What a walk down the tree knows about the strings it meets.

    bs4 decides a string's class (``Script``, ``Stylesheet``, ...) and whether
    its whitespace collapses from the tags open around it; a walk keeps that
    as a stack instead of looking at every string's ancestors.
    """

    __slots__ = ("containers", "is_xml", "preserve")

    def __init__(self, is_xml: bool, start_parent: Any) -> None:
        self.is_xml = is_xml
        self.preserve = 0
        self.containers: list[type[NavigableString]] = [NavigableString]
        if start_parent is not None and not is_xml:
            # One walk up for both questions; usually it meets none of these.
            cls = None
            tag = start_parent.tag
            if tag in TEXT_CONTEXT_TAGS:
                if tag in PRESERVE_WHITESPACE_TAGS:
                    self.preserve = 1
                else:
                    cls = STRING_CONTAINERS[tag]
            for ancestor in start_parent.iterancestors(*TEXT_CONTEXT_TAGS):
                tag = ancestor.tag
                if tag in PRESERVE_WHITESPACE_TAGS:
                    self.preserve = 1
                elif cls is None:
                    cls = STRING_CONTAINERS[tag]
                if cls is not None and self.preserve:
                    break
            self.containers.append(cls or NavigableString)

    # Only the tags of TEXT_CONTEXT_TAGS change the context: the others cost
    # one set lookup (a walk calls these for every element).
    def enter(self, el: Any) -> None:
        tag = el.tag
        if tag in TEXT_CONTEXT_TAGS and not self.is_xml:
            if tag in PRESERVE_WHITESPACE_TAGS:
                self.preserve += 1
            self.containers.append(STRING_CONTAINERS.get(tag) or self.containers[-1])

    def leave(self, el: Any) -> None:
        tag = el.tag
        if tag in TEXT_CONTEXT_TAGS and not self.is_xml:
            if tag in PRESERVE_WHITESPACE_TAGS:
                self.preserve -= 1
            self.containers.pop()

    def value(self, raw: str) -> str:
        if self.preserve or raw.strip(ASCII_SPACES):
            return raw
        return "\n" if "\n" in raw else " "

    def string_class(self) -> type[NavigableString]:
        return NavigableString if self.is_xml else self.containers[-1]


def _live_string(key: tuple[Any, bool], raw: str) -> Any:
    """The remembered string of a text slot if it still holds ``raw``, else None."""
    ref = _STRING_REFS.get(key)
    if ref is not None:
        found = ref()
        if found is not None and found._raw == raw:
            return found
    return None


def child_nodes(el: Any, doc: Soup | None) -> list[Any]:
    """An element's contents as bs4 lists them: text, children and their tails."""
    out: list[Any] = []
    append = out.append
    get_wrapper = _WRAPPER_REFS.get
    get_string = _STRING_REFS.get
    # Every string here has ``el`` as its parent: one look at the ancestors
    # serves all the strings that are not remembered yet.
    walk: TextContext | None = None
    raw = el.text
    if raw:
        key = (el, False)
        ref = get_string(key)
        found = ref() if ref is not None else None
        if found is None or found._raw != raw:
            walk = TextContext(doc is not None and doc.is_xml, el.getparent())
            walk.enter(el)
            found = _new_string(key, el, False, doc, raw, walk)
        append(found)
    for child in el:
        ref = get_wrapper(child)
        found = ref() if ref is not None else None
        append(found if found is not None else wrap(child, doc))
        raw = child.tail
        if raw:
            key = (child, True)
            ref = get_string(key)
            found = ref() if ref is not None else None
            if found is None or found._raw != raw:
                if walk is None:
                    walk = TextContext(doc is not None and doc.is_xml, el.getparent())
                    walk.enter(el)
                found = _new_string(key, child, True, doc, raw, walk)
            append(found)
    return out


#: Tags whose strings are not of the page's main text (`STRING_CONTAINERS`),
#: and those plus the tags that keep whitespace.
_NOT_PLAIN_TEXT = TEXT_CONTEXT_TAGS - PRESERVE_WHITESPACE_TAGS
_NOT_PLAIN_TEXT_PRESERVED = TEXT_CONTEXT_TAGS
#: Elements larger than this take the XPath path of `get_text()`.
_SMALL_TEXT_NODES = 48


def small_text_values(el: Any, strip: bool) -> list[str] | None:
    """``get_text()``'s values for a small HTML element (a paragraph), or None.

    One walk of its few nodes in Python (a stack of open elements puts each
    tail after its element's subtree) costs a fraction of an XPath that
    tests five ancestors of every text node.  None, for the general path,
    when the element is large, or a ``<script>``, ``<style>``,
    ``<template>``, ``<rt>``, ``<rp>`` (or, without ``strip``, a
    ``<pre>``/``<textarea>``) is the element, around it or inside it.
    """
    blocked = _NOT_PLAIN_TEXT if strip else _NOT_PLAIN_TEXT_PRESERVED
    if el.tag in blocked or next(el.iterancestors(*blocked), None) is not None:
        return None
    out: list[str] = []
    append = out.append

    def add(raw: str) -> None:
        if strip:
            raw = raw.strip()
            if raw:
                append(raw)
        elif raw.strip(ASCII_SPACES):
            append(raw)
        else:  # bs4 collapses a whitespace-only string of the parser
            append("\n" if "\n" in raw else " ")

    raw = el.text
    if raw:
        add(raw)
    stack = [el]
    nodes = el.iter()
    next(nodes)
    for count, node in enumerate(nodes):
        if count == _SMALL_TEXT_NODES:
            return None
        parent = node.getparent()
        while stack[-1] is not parent:
            raw = stack.pop().tail
            if raw:
                add(raw)
        stack.append(node)
        tag = node.tag
        if isinstance(tag, str):  # (a comment's or PI's text is not a string)
            if tag in blocked:
                return None
            raw = node.text
            if raw:
                add(raw)
    while len(stack) > 1:
        raw = stack.pop().tail
        if raw:
            add(raw)
    return out


def iter_descendants(el: Any, doc: Soup | None) -> Iterator[Any]:
    """Everything inside ``el`` in document order, without recursion."""
    get_wrapper = _WRAPPER_REFS.get
    get_string = _STRING_REFS.get
    walk = TextContext(doc is not None and doc.is_xml, el.getparent())
    special_tags = frozenset() if walk.is_xml else TEXT_CONTEXT_TAGS
    walk.enter(el)
    raw = el.text
    if raw:
        yield text_string(el, False, doc, raw, walk)
    # Each entry: an element, the iterator over its children, and whether
    # it changed the text context (to undo when its subtree ends).
    stack: list[tuple[Any, Iterator[Any], bool]] = [(el, iter(el), True)]
    while stack:
        children = stack[-1][1]
        for child in children:
            # Inline `wrap` and `text_string` for remembered nodes: a walk
            # over a tree walked before is only these lookups.
            ref = get_wrapper(child)
            found = ref() if ref is not None else None
            yield found if found is not None else wrap(child, doc)
            tag = child.tag
            if isinstance(tag, str):
                special = tag in special_tags
                if special:
                    walk.enter(child)
                raw = child.text
                if raw:
                    key = (child, False)
                    ref = get_string(key)
                    found = ref() if ref is not None else None
                    if found is None or found._raw != raw:
                        found = _new_string(key, child, False, doc, raw, walk)
                    yield found
                if len(child):
                    stack.append((child, iter(child), special))
                    break
                if special:
                    walk.leave(child)
            raw = child.tail
            if raw:
                key = (child, True)
                ref = get_string(key)
                found = ref() if ref is not None else None
                if found is None or found._raw != raw:
                    found = _new_string(key, child, True, doc, raw, walk)
                yield found
        else:
            parent, _, special = stack.pop()
            if special:
                walk.leave(parent)
            if stack:
                raw = parent.tail
                if raw:
                    yield text_string(parent, True, doc, raw, walk)


#: Attribute names `Tag.__getattr__` answers with AttributeError instead of
#: a search: bs4's ``contents``, and the soup-only attributes that the view's
#: code probes for on any tag (``_namespaces`` is bs4's, which the soup does not record).
_NOT_TAG_NAMES = frozenset(
    {
        "contents", "_kept", "_namespaces", "_root", "_mode", "_verbatim",
        "_trailer", "_doctype",
    }
)  # fmt: skip


class Tag(PageElement):
    """An element of the page, wrapping one lxml element (bs4's ``Tag``)."""

    __slots__ = ("__weakref__", "_doc", "_el", "hidden")

    _el: Any
    _doc: Soup | None
    hidden: bool

    #: bs4's default string types for get_text(): not comments, not scripts.
    MAIN_CONTENT_STRING_TYPES: ClassVar[frozenset[type[NavigableString]]]

    def __init__(
        self,
        parser: Soup | None = None,
        builder: object = None,
        name: str | None = None,
        namespace: str | None = None,
        prefix: str | None = None,
        attrs: Mapping[str, object] | None = None,
        **kwargs: Any,
    ) -> None:
        if name is None:
            raise ValueError("No value provided for new tag's name.")
        qname = f"{{{namespace}}}{name}" if namespace else name
        self._el = etree.Element(qname)
        self._doc = parser
        self.hidden = False
        remember(self._el, self)
        if attrs:
            view = self.attrs
            for key, value in attrs.items():
                view[key] = value

    @classmethod
    def _wrap(cls, el: Any, doc: Soup | None) -> Tag:
        tag = cls.__new__(cls)
        tag._el = el
        tag._doc = doc
        tag.hidden = False
        return tag

    def _document(self) -> Soup | None:
        return self._doc

    # -- identity, name, attributes ------------------------------------------
    @property
    def name(self) -> str:
        """The tag name (the local name; see `prefix` for XML)."""
        tag: str = self._el.tag
        if tag[0] == "{":
            return tag.split("}", 1)[1]
        return tag

    @name.setter
    def name(self, value: str) -> None:
        TREE_EDITS[0] += 1  # (it may become a <template>)
        tag: str = self._el.tag
        if tag[0] == "{":
            self._el.tag = tag.split("}", 1)[0] + "}" + value
        else:
            self._el.tag = value

    @property
    def namespace(self) -> str | None:
        """The namespace URI (XML), else None."""
        tag: str = self._el.tag
        if tag[0] == "{":
            return tag[1:].split("}", 1)[0]
        return None

    @property
    def prefix(self) -> str | None:
        """The namespace prefix (XML), else None."""
        return self._el.prefix  # type: ignore[no-any-return]

    @property
    def attrs(self) -> AttrsView:
        """The attributes, as a live mapping (writes go to the lxml element)."""
        return AttrsView(self._el, self._is_xml)

    @attrs.setter
    def attrs(self, value: Mapping[str, object] | None) -> None:
        # None empties them (bs4 allows it: its formatter reads no attributes).
        self._el.attrib.clear()
        view = self.attrs
        for key, item in dict(value or {}).items():
            view[key] = item

    def __getitem__(self, key: str) -> str | AttributeValueList:
        # The common case without building an `AttrsView`: a str value.
        # A name starting with "{" is not a namespace to the HTML parser
        # (`AttrsView`); lxml would read "{}src" as "src".
        el = self._el
        if key[:1] == "{":
            return self.attrs[key]
        try:
            value: str | None = el.get(key)
        except (AttributeError, TypeError, ValueError):  # a soup; odd keys
            return self.attrs[key]
        if value is None:
            raise KeyError(key)
        if key in _ANY_MULTI and (
            key in _UNIVERSAL_MULTI or key in CDATA_LIST_ATTRIBUTES.get(el.tag, ())
        ):
            return self.attrs[key]  # HTML reads it as a live list (XML: str)
        return value

    def __setitem__(self, key: str, value: object) -> None:
        self.attrs[key] = value

    def __delitem__(self, key: str) -> None:
        # bs4: deleting a missing attribute is not an error.
        delete_attribute(self._el, key, self._is_xml)

    @overload
    def get(
        self, key: str, default: None = None
    ) -> str | AttributeValueList | None: ...
    @overload
    def get(self, key: str, default: _D) -> str | AttributeValueList | _D: ...
    def get(
        self, key: str, default: _D | None = None
    ) -> str | AttributeValueList | _D | None:
        """The attribute's value, or ``default`` (a list for a multi-valued one in HTML)."""
        el = self._el
        if key[:1] == "{":
            return self.attrs.get(key, default)
        try:
            value: str | None = el.get(key)
        except (AttributeError, TypeError, ValueError):  # a soup; odd keys
            return self.attrs.get(key, default)
        if value is None:
            return default
        if key in _ANY_MULTI and (
            key in _UNIVERSAL_MULTI or key in CDATA_LIST_ATTRIBUTES.get(el.tag, ())
        ):
            return self.attrs.get(key, default)
        return value

    def get_attribute_list(
        self, key: str, default: str | list[str] | None = None
    ) -> list[str]:
        """The attribute's value as a list (bs4's method of that name)."""
        value = self.get(key, default)
        if value is None:
            return []
        if isinstance(value, list):
            return value
        return [value]

    def has_attr(self, key: str) -> bool:
        """Whether the tag has this attribute."""
        return key in self.attrs

    def has_key(self, key: str) -> bool:
        """Deprecated alias of `has_attr` (bs3)."""
        return self.has_attr(key)

    @property
    def sourceline(self) -> int | None:
        """The line of the source this tag started on (lxml's ``sourceline``)."""
        line = self._el.sourceline
        return line if line else None

    @sourceline.setter
    def sourceline(self, value: int | None) -> None:
        # Stored on the lxml node (as bs4 stores it on the tag): copies keep it.
        self._el.sourceline = value or 0

    @property
    def sourcepos(self) -> int | None:
        """Not recorded by lxml: always None."""
        return None

    @property
    def known_xml(self) -> bool:
        """Whether this tag comes from an XML document."""
        return self._is_xml

    @property
    def can_be_empty_element(self) -> bool:
        """Whether the tag renders as ``<tag/>`` when it has no contents."""
        return self._is_xml or self.name in VOID_ELEMENTS

    @property
    def is_empty_element(self) -> bool:
        """A void element with no contents (bs4's definition)."""
        el = self._el
        return not el.text and not len(el) and self.can_be_empty_element

    @property
    def isSelfClosing(self) -> bool:
        """Deprecated alias of `is_empty_element`."""
        return self.is_empty_element

    @property
    def cdata_list_attributes(self) -> dict[str, frozenset[str]] | None:
        """The multi-valued attribute table in force (None in XML)."""
        from ._attrs import CDATA_LIST_ATTRIBUTES

        return None if self._is_xml else CDATA_LIST_ATTRIBUTES

    @property
    def preserve_whitespace_tags(self) -> frozenset[str]:
        """Tags whose whitespace is kept as is."""
        return frozenset() if self._is_xml else PRESERVE_WHITESPACE_TAGS

    @property
    def interesting_string_types(self) -> frozenset[type[NavigableString]]:
        """The string classes get_text() collects by default in this tag."""
        if not self._is_xml:
            cls = STRING_CONTAINERS.get(self.name)
            if cls is not None:
                return frozenset({cls})
        return Tag.MAIN_CONTENT_STRING_TYPES

    # -- navigation ------------------------------------------------------------
    @property
    def parent(self) -> Tag | None:
        el = self._el
        parent = el.getparent()
        if parent is not None:
            return wrap(parent, self._doc)  # type: ignore[no-any-return]
        doc = self._doc
        if doc is not None and doc._is_top_level(el):
            return doc
        return None

    @property
    def next_sibling(self) -> PageElement | None:
        return _node_next_sibling(self, self._el)

    @property
    def previous_sibling(self) -> PageElement | None:
        return _node_previous_sibling(self, self._el)

    def _contents_list(self) -> list[PageElement]:
        return child_nodes(self._el, self._doc)

    @property
    def contents(self) -> list[PageElement]:
        """The children, as a new list (text, tags, comments, in order)."""
        return child_nodes(self._el, self._doc)

    @property
    def children(self) -> Iterator[PageElement]:
        """An iterator over the children."""
        return iter(child_nodes(self._el, self._doc))

    @property
    def descendants(self) -> Iterator[PageElement]:
        """Every node inside this tag, in document order."""
        return iter_descendants(self._el, self._doc)

    @property
    def self_and_descendants(self) -> Iterator[PageElement]:
        """This tag, then `descendants`."""
        yield self
        yield from self.descendants

    def childGenerator(self) -> Iterator[PageElement]:
        """Deprecated alias of `children`."""
        return self.children

    def recursiveChildGenerator(self) -> Iterator[PageElement]:
        """Deprecated alias of `descendants`."""
        return self.descendants

    def __iter__(self) -> Iterator[PageElement]:
        return self.children

    def __len__(self) -> int:
        el = self._el
        count = 1 if el.text else 0
        for child in el:
            count += 2 if child.tail else 1
        return count

    def __contains__(self, x: object) -> bool:
        return x in self.contents

    def __bool__(self) -> bool:
        return True

    def index(self, element: PageElement) -> int:
        """The position of ``element`` among the children (by identity)."""
        for i, child in enumerate(self.contents):
            if child is element:
                return i
        raise ValueError("Tag.index: element not in tag")

    @property
    def string(self) -> NavigableString | None:
        """The single string inside this tag (through one-child tags), else None."""
        node: Tag = self
        while True:
            contents = node._contents_list()
            if len(contents) != 1:
                return None
            child = contents[0]
            if isinstance(child, NavigableString):
                return child
            if not isinstance(child, Tag):  # pragma: no cover
                return None
            node = child

    @string.setter
    def string(self, value: str) -> None:
        self._set_string(value)

    # -- text ------------------------------------------------------------------
    def _all_strings(
        self, strip: bool = False, types: StringTypes = PageElement.default
    ) -> Iterator[str]:
        from ._output import iter_strings

        if types is PageElement.default:
            types = self.interesting_string_types
        return iter_strings(self, strip, types)

    def get_text(
        self,
        separator: str = "",
        strip: bool = False,
        types: StringTypes = PageElement.default,
    ) -> str:
        """All the text below this tag, joined with ``separator`` (bs4's rules).

        By default that is the strings that are neither comments nor inside
        ``<script>``/``<style>``/``<template>``/``<rt>``/``<rp>`` (in a tag
        that is one of those: its own kind of string).
        """
        el = self._el
        doc = self._doc
        if (
            types is PageElement.default
            and el is not None
            and (doc is None or not (doc.is_xml or doc._verbatim))
        ):
            # The main text of a small HTML element (None: a string
            # container is the element, around it or in it; or it is large).
            values = small_text_values(el, strip)
            if values is not None:
                return separator.join(values)
        if types is PageElement.default:
            types = self.interesting_string_types
        if types is not Tag.MAIN_CONTENT_STRING_TYPES:
            return separator.join(self._all_strings(strip, types))
        from ._output import main_text_values

        return separator.join(main_text_values(self, strip))

    getText = get_text

    @property
    def text(self) -> str:
        """``get_text()``."""
        return self.get_text()

    @property
    def strings(self) -> Iterator[str]:
        """The strings inside this tag of the interesting types (bs4's rules)."""
        return self._all_strings()

    # -- comparison, copying ---------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Tag):
            return False
        from ._output import structurally_equal

        return structurally_equal(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(str(self))

    def __getattr__(self, name: str) -> Tag | None:
        # bs4 looks for a tag of any other name; our own probes for
        # attributes only a soup has (``getattr(tag, "_root", None)``) must
        # not cost a search of the whole tree.
        if name.startswith("__") or name in _NOT_TAG_NAMES:
            raise AttributeError(
                f"'{type(self).__name__}' object has no attribute '{name}'"
            )
        if len(name) > 3 and name.endswith("Tag"):
            import warnings

            warnings.warn(
                f'.{name} is deprecated, use .find("{name[:-3]}") instead. If you '
                f'really were looking for a tag called {name}, use .find("{name}")',
                DeprecationWarning,
                stacklevel=2,
            )
            return self.find(name[:-3])
        return self.find(name)

    # -- output ------------------------------------------------------------------
    def decode(
        self,
        indent_level: int | None = None,
        eventual_encoding: str | None = "utf-8",
        formatter: FormatterOrName = "minimal",
        iterator: Iterable[PageElement] | None = None,
    ) -> str:
        """Render this tag and its contents as a string (bs4's ``decode``)."""
        from ._output import render

        return render(
            self, indent_level, eventual_encoding, formatter, contents_only=False
        )

    def decode_contents(
        self,
        indent_level: int | None = None,
        eventual_encoding: str | None = "utf-8",
        formatter: FormatterOrName = "minimal",
    ) -> str:
        """Render only the contents (bs4's ``decode_contents``)."""
        from ._output import render

        return render(
            self, indent_level, eventual_encoding, formatter, contents_only=True
        )

    def encode(
        self,
        encoding: str = "utf-8",
        indent_level: int | None = None,
        formatter: FormatterOrName = "minimal",
        errors: str = "xmlcharrefreplace",
    ) -> bytes:
        """Render and encode (bs4's ``encode``)."""
        return self.decode(indent_level, encoding, formatter).encode(encoding, errors)

    def encode_contents(
        self,
        indent_level: int | None = None,
        encoding: str = "utf-8",
        formatter: FormatterOrName = "minimal",
    ) -> bytes:
        """Render and encode only the contents."""
        return self.decode_contents(indent_level, encoding, formatter).encode(encoding)

    def renderContents(
        self, encoding: str = "utf-8", prettyPrint: bool = False, indentLevel: int = 0
    ) -> bytes:
        """Deprecated bs3 name of `encode_contents`."""
        return self.encode_contents(indentLevel if prettyPrint else None, encoding)

    @overload
    def prettify(
        self, encoding: None = None, formatter: FormatterOrName = "minimal"
    ) -> str: ...
    @overload
    def prettify(
        self, encoding: str, formatter: FormatterOrName = "minimal"
    ) -> bytes: ...
    def prettify(
        self, encoding: str | None = None, formatter: FormatterOrName = "minimal"
    ) -> str | bytes:
        """Render with one tag per line, indented (bs4's ``prettify``)."""
        if encoding is None:
            return self.decode(indent_level=0, formatter=formatter)
        return self.encode(encoding, indent_level=0, formatter=formatter)

    def __repr__(self) -> str:
        return self.decode()

    __str__ = __repr__

    def __unicode__(self) -> str:
        return self.decode()

    def __reduce__(self) -> tuple[Any, tuple[str, bool, str | None]]:
        # lxml elements do not pickle: a pickled Tag comes back as a detached
        # copy of itself (its markup re-parsed), which is what Scrapy's
        # serializers (disk queues, scrapy-redis) need of an item's value.
        # The base URL goes with it: the link pipeline resolves against it.
        doc = self._doc
        base_url = doc.base_url if doc is not None else None
        return (
            _unpickle_tag,
            (self.decode(eventual_encoding=None), self._is_xml, base_url),
        )


def _unpickle_tag(markup: str, is_xml: bool, base_url: str | None = None) -> Any:
    from ._soup import Soup

    soup = Soup(markup, "xml" if is_xml else "fragment", base_url=base_url)
    for child in soup.contents:
        if isinstance(child, Tag):
            return child
    return soup  # pragma: no cover - markup of a Tag always holds one


def _node_next_sibling(wrapper: Any, el: Any) -> PageElement | None:
    doc = wrapper._doc
    if el.getparent() is None:
        if doc is not None:
            return doc._top_level_sibling(wrapper, 1)  # type: ignore[no-any-return]
        return None
    raw = el.tail
    if raw:
        key = (el, True)
        ref = _STRING_REFS.get(key)
        if ref is not None:
            found = ref()
            if found is not None and found._raw == raw:
                return found  # type: ignore[no-any-return]
        return _new_string(key, el, True, doc, raw, None)  # type: ignore[no-any-return]
    following = el.getnext()
    if following is None:
        return None
    ref = _WRAPPER_REFS.get(following)
    if ref is not None:
        found = ref()
        if found is not None:
            return found  # type: ignore[no-any-return]
    return wrap(following, doc)  # type: ignore[no-any-return]


def _node_previous_sibling(wrapper: Any, el: Any) -> PageElement | None:
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
    return found


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
    _doc: Soup | None = None
    _raw: str | None = None

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
        cls, value: str, owner: Any, is_tail: bool, raw: str, doc: Soup | None
    ) -> NavigableString:
        obj = str.__new__(cls, value)
        obj._owner = owner
        obj._tail = is_tail
        obj._el = None
        obj._doc = doc
        obj._raw = raw
        return obj

    @classmethod
    def _for_node(cls, node: Any, doc: Soup | None) -> NavigableString:
        raw = node_raw_text(node)
        value = raw
        if cls is Comment:
            # bs4 collapses whitespace-only comments as it does text.
            is_xml = doc is not None and doc.is_xml
            value = normalize_text(raw, None if is_xml else node.getparent(), is_xml)
        obj = str.__new__(cls, value)
        obj._owner = None
        obj._tail = False
        obj._el = node
        obj._doc = doc
        obj._raw = raw
        return obj

    @classmethod
    def _synthetic(cls, value: str, doc: Soup) -> NavigableString:
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

    def _document(self) -> Soup | None:
        return self._doc

    def output_ready(self, formatter: FormatterOrName = "minimal") -> str:
        """The string as it appears in output, escaped by ``formatter``."""
        output = self.format_string(self, formatter)
        return self.PREFIX + output + self.SUFFIX

    @property
    def parent(self) -> Tag | None:
        el = self._el
        if el is not None:
            parent = el.getparent()
            if parent is not None:
                return wrap(parent, self._doc)  # type: ignore[no-any-return]
            doc = self._doc
            if doc is not None and doc._is_top_level(el):
                return doc
            return None
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
            return doc
        return None

    def _is_live(self) -> bool:
        """Whether the slot still holds the text this string was read from."""
        owner = self._owner
        raw = owner.tail if self._tail else owner.text
        return bool(raw == self._raw)

    @property
    def next_sibling(self) -> PageElement | None:
        el = self._el
        if el is not None:
            return _node_next_sibling(self, el)
        owner = self._owner
        if owner is not None:
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
            ref = _WRAPPER_REFS.get(following)
            if ref is not None:
                found = ref()
                if found is not None:
                    return found  # type: ignore[no-any-return]
            return wrap(following, self._doc)  # type: ignore[no-any-return]
        doc = self._doc
        if doc is not None:
            return doc._top_level_sibling(self, 1)  # type: ignore[no-any-return]
        return None

    @property
    def previous_sibling(self) -> PageElement | None:
        el = self._el
        if el is not None:
            return _node_previous_sibling(self, el)
        owner = self._owner
        if owner is not None:
            if not self._is_live() or not self._tail:
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
            types = Tag.MAIN_CONTENT_STRING_TYPES
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
Tag.MAIN_CONTENT_STRING_TYPES = frozenset({NavigableString, CData})
