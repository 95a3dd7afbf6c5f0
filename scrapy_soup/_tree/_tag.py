"""`Tag`: an element of the page, a view of one lxml element.

Its name, attributes (see `_attrs`), contents and text are read from the
element on each call; the search and editing methods come from
`PageElement`'s mixins, the output from `_output`.
"""

from __future__ import annotations

import functools
import warnings
import weakref
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, overload

from lxml import etree

from . import _view
from ._attrs import (
    CDATA_LIST_ATTRIBUTES,
    META_KEYS,
    AttributeReading,
    AttrsView,
    delete_attribute,
    wrap_value,
)
from ._classes import classes
from ._identity import NO_REF, TAIL_REFS, WRAPPER_REFS, remember
from ._node import PageElement, node_next_sibling, node_parent, node_previous_sibling
from ._output import iter_strings, main_text_values, render, structurally_equal
from ._strings import CData, NavigableString
from ._tables import PRESERVE_WHITESPACE_TAGS, VOID_ELEMENTS
from ._text import child_nodes, forget_contexts, iter_descendants, small_text_values

if TYPE_CHECKING:
    import parsel

    from ._attrs import AttributeValueList
    from ._document import Document
    from ._formatter import FormatterOrName
    from ._node import StringTypes
    from ._soup import Soup


#: Every attribute name that is multi-valued on some tag: ``tag["href"]``
#: returns lxml's value without reading the tag's name.
_ANY_MULTI = frozenset().union(*CDATA_LIST_ATTRIBUTES.values())
#: With the names that read as a meta value (``<meta charset>``): one set
#: look-up on each read for the names that are neither.
_SPECIAL_KEYS = _ANY_MULTI | META_KEYS

#: Attribute names `Tag.__getattr__` answers with AttributeError instead of
#: a search: bs4's ``contents``, the soup-only attributes that the view's
#: code probes for on any tag (``_namespaces`` is bs4's, which the soup does
#: not record), and the slots every wrapper has once made (read before that,
#: from ``__del__`` after a constructor that raised, a search would recurse).
_NOT_TAG_NAMES = frozenset(
    {
        "contents", "_kept", "_namespaces", "_root", "_mode", "_verbatim",
        "_trailer", "_doctype", "_builder", "_doc", "_el", "_decomposed",
        "_hidden",
    }
)  # fmt: skip


_wrapper_ref = WRAPPER_REFS.get
_tail_ref = TAIL_REFS.get

#: What bs4 keeps on a tag that has no slot here (``sourcepos``, a
#: ``preserve_whitespace_tags`` of its own), for the few tags given one:
#: ``id(tag)`` -> values, dropped when the tag goes.  A slot (or a
#: ``__dict__``) would cost every wrapper memory for what is rarely set.
_EXTRAS: dict[int, dict[str, Any]] = {}


def _extra(tag: Tag, name: str, default: object) -> object:
    values = _EXTRAS.get(id(tag))
    return default if values is None else values.get(name, default)


def _set_extra(tag: Tag, name: str, value: object) -> None:
    key = id(tag)
    values = _EXTRAS.get(key)
    if values is None:
        values = _EXTRAS[key] = {}
        weakref.finalize(tag, _EXTRAS.pop, key, None)
    values[name] = value


class Tag(AttributeReading, PageElement):
    """An element of the page, wrapping one lxml element (bs4's ``Tag``)."""

    # ``__dict__``: attributes of your own (``tag.seen = True``), as on bs4's
    # tags; made only when one is set.
    __slots__ = ("__dict__", "__weakref__", "_doc", "_el", "_hidden")

    #: Whether `decompose` was called on it (or on a tag around it): a class
    #: attribute, which `decompose` changes by giving the tag a class of its
    #: own (`_modify._mark_decomposed`), so that no wrapper stores it.
    _decomposed: bool = False
    _el: Any
    _doc: Document | None
    _hidden: bool

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
        # lxml keeps a prefix only with its namespace: without one,
        # ``prefix`` is dropped (README, differences).
        nsmap = {prefix: namespace} if namespace and prefix else None
        self._el = etree.Element(qname, nsmap=nsmap)
        self._doc = parser._doc if parser is not None else None
        self._hidden = False
        remember(self._el, self)
        if attrs:
            view = self.attrs
            for key, value in attrs.items():
                view[key] = value

    @classmethod
    def _wrap(cls, el: Any, doc: Document | None) -> Tag:
        tag = cls.__new__(cls)
        tag._el = el
        tag._doc = doc
        tag._hidden = False
        return tag

    def _document(self) -> Document | None:
        return self._doc

    @property
    def selector(self) -> parsel.Selector:
        """A parsel ``Selector`` over this tag's lxml element: no copy, no parse.

        ``.css()``, ``.xpath()`` and an ``ItemLoader(selector=...)`` run on
        the very tree the soup views, so an edit through either is seen by
        the other; ``.root`` is the element itself, the one parsel's and
        Scrapy's ``response.css()`` return for the same node. Of a whole
        soup, the selector is over its root element (``<html>``), as a
        response's ``selector`` is. bs4 has no such attribute (``tag.selector``
        is not a search for a ``<selector>`` child here).

        >>> from scrapy_soup import Soup
        >>> soup = Soup('<div><p class="x">Hi</p></div>')
        >>> soup.div.selector.css("p.x::text").get()
        'Hi'
        >>> soup.p.selector.root is soup.div.selector.css("p")[0].root
        True
        """
        from parsel import Selector

        doc = self._doc
        el = self._el
        if el is None and doc is not None:
            el = doc._root  # a whole document: its root element
        if el is None:
            raise ValueError("an empty document has no element to select from")
        kind = "xml" if doc is not None and doc.is_xml else "html"
        # The namespaces registered on the response's selector hold here too.
        namespaces = doc._namespaces if doc is not None else None
        if doc is not None and el is doc._el and doc._mode == "fragment":
            # A fragment soup's container is hidden: CSS matches what it shows.
            return _contents_selector()(root=el, type=kind, namespaces=namespaces)
        return Selector(root=el, type=kind, namespaces=namespaces)

    @property
    def hidden(self) -> bool:
        """Whether output leaves this tag out (its contents print), as in bs4."""
        return self._hidden

    @hidden.setter
    def hidden(self, value: bool) -> None:
        self._hidden = value
        doc = self._doc
        # (A soup is always hidden: its document keeps no reference to it.)
        if value and doc is not None and not isinstance(self, classes.Soup):
            _view.keep_hidden(self)

    # -- identity, name, attributes ------------------------------------------
    @property
    def name(self) -> str:
        """The tag name (the local name; see `prefix` for XML)."""
        tag: str = self._el.tag
        # ``in`` is an operator, cheaper than indexing for the usual answer.
        if "}" in tag and tag[0] == "{":
            return tag.split("}", 1)[1]
        return tag

    @name.setter
    def name(self, value: str) -> None:
        if self._doc is not None:  # it may become a <template> (or a <pre>)
            self._doc._template_check = None
            forget_contexts(self._doc)
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

    def _value(self, key: str) -> str | AttributeValueList | None:
        # The common case without building an `AttrsView`: a str value.
        # A name starting with "{" is not a namespace to the HTML parser
        # (`AttrsView`); lxml would read "{}src" as "src".
        el = self._el
        if key[:1] == "{":
            return self.attrs.get(key)
        try:
            value: str | None = el.get(key)
        except (AttributeError, TypeError, ValueError):  # a soup; odd keys
            return self.attrs.get(key)
        if value is None or key not in _SPECIAL_KEYS:
            return value
        return wrap_value(el, key, value, self._is_xml)  # a list, a <meta> charset

    def __setitem__(self, key: str, value: object) -> None:
        self.attrs[key] = value

    def __delitem__(self, key: str) -> None:
        # bs4: deleting a missing attribute is not an error.
        delete_attribute(self._el, key, self._is_xml)

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
        """The column the tag started at: lxml does not record it, so None
        unless set (bs4 code copying a tag's position sets it)."""
        return _extra(self, "sourcepos", None)  # type: ignore[return-value]

    @sourcepos.setter
    def sourcepos(self, value: int | None) -> None:
        _set_extra(self, "sourcepos", value)

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
        return None if self._is_xml else CDATA_LIST_ATTRIBUTES

    @property
    def preserve_whitespace_tags(self) -> Collection[str] | None:
        """Tags whose whitespace is kept as is (the builder's, unless set)."""
        tags: Any = _extra(self, "preserve_whitespace_tags", self)
        if tags is not self:
            return tags  # type: ignore[no-any-return]
        return frozenset() if self._is_xml else PRESERVE_WHITESPACE_TAGS

    @preserve_whitespace_tags.setter
    def preserve_whitespace_tags(self, value: Collection[str] | None) -> None:
        # Read by `_should_pretty_print`; output follows the builder's table.
        _set_extra(self, "preserve_whitespace_tags", value)

    def _should_pretty_print(self, indent_level: int | None = 1) -> bool:
        """Whether `prettify` indents this tag's contents (bs4's rule)."""
        tags = self.preserve_whitespace_tags
        return indent_level is not None and (not tags or self.name not in tags)

    @property
    def interesting_string_types(self) -> frozenset[type[NavigableString]]:
        """The string classes get_text() collects by default in this tag."""
        if not self._is_xml:
            cls = classes.STRING_CONTAINERS.get(self.name)
            if cls is not None:
                return frozenset({cls})
        return Tag.MAIN_CONTENT_STRING_TYPES

    # -- navigation ------------------------------------------------------------
    @property
    def parent(self) -> Tag | None:
        return node_parent(self._el, self._doc)  # type: ignore[no-any-return]

    @property
    def next_sibling(self) -> PageElement | None:
        # `node_next_sibling` inline for a remembered sibling: the step of
        # every sibling walk (a top-level element's siblings are the soup's).
        el = self._el
        if el.getparent() is not None:
            raw = el.tail
            if raw:
                found = _tail_ref(el, NO_REF)()
                if found is not None and found._raw == raw:
                    return found  # type: ignore[no-any-return]
            else:
                following = el.getnext()
                if following is None:
                    return None
                found = _wrapper_ref(following, NO_REF)()
                if found is not None:
                    return found  # type: ignore[no-any-return]
        return node_next_sibling(self, el)

    @property
    def previous_sibling(self) -> PageElement | None:
        return node_previous_sibling(self, self._el)

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
        doc = self._doc
        if doc is not None and doc._segmented:  # a slot may hold several strings
            return len(self._contents_list())
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
            and (
                doc is None
                or not (doc._mode == "xml" or doc._verbatim or doc._segmented)
            )
        ):
            # The main text of a small HTML element (None: a string
            # container is the element, around it or in it; or it is large).
            values = small_text_values(el, strip, doc)
            if values is not None:
                return separator.join(values)
        if types is PageElement.default:
            types = self.interesting_string_types
        if types is not Tag.MAIN_CONTENT_STRING_TYPES or (
            doc is not None and doc._segmented
        ):
            return separator.join(self._all_strings(strip, types))
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
    soup = classes.Soup(markup, "xml" if is_xml else "fragment", base_url=base_url)
    for child in soup.contents:
        if isinstance(child, Tag):
            return child
    return soup  # pragma: no cover - markup of a Tag always holds one


Tag.MAIN_CONTENT_STRING_TYPES = frozenset({NavigableString, CData})
classes.Tag = Tag


@functools.cache
def _contents_selector() -> type[parsel.Selector]:
    """The class of a fragment soup's ``selector`` (made on first use)."""
    from parsel import Selector
    from parsel.csstranslator import GenericTranslator, HTMLTranslator

    translators = {"html": HTMLTranslator(), "xml": GenericTranslator()}

    class ContentsSelector(Selector):
        """A Selector over a fragment soup's hidden container: ``css()``
        searches below it (``descendant::``), as ``soup.select()`` does,
        and gives plain Selectors."""

        def css(self, query: str) -> Any:
            translator = translators["xml" if self.type == "xml" else "html"]
            plain = Selector(root=self.root, type=self.type, namespaces=self.namespaces)
            return plain.xpath(translator.css_to_xpath(query, "descendant::"))

    return ContentsSelector
