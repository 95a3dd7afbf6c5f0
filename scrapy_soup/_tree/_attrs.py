"""Attribute views: ``tag.attrs`` as a live mapping over the lxml attributes.

bs4 keeps a dict per tag and splits multi-valued attributes (``class``,
``rel`` on ``<a>``, ...) into lists at parse time.  Here the lxml element is
the only storage: the mapping reads and writes ``element.attrib``, and a
multi-valued attribute reads as an `AttributeValueList` whose in-place edits
(``tag['class'].append('x')``) write the joined value back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, MutableMapping
from typing import Any, SupportsIndex, TypeVar, overload

from lxml import etree

from ._tables import PYTHON_SPECIFIC_ENCODINGS

#: bs4's ``HTMLTreeBuilder.DEFAULT_CDATA_LIST_ATTRIBUTES``: attributes whose
#: value is a whitespace-separated list, per tag (``"*"``: every tag).
CDATA_LIST_ATTRIBUTES: dict[str, frozenset[str]] = {
    "*": frozenset({"class", "accesskey", "dropzone"}),
    "a": frozenset({"rel", "rev"}),
    "link": frozenset({"rel", "rev"}),
    "td": frozenset({"headers"}),
    "th": frozenset({"headers"}),
    "form": frozenset({"accept-charset"}),
    "object": frozenset({"archive"}),
    "area": frozenset({"rel"}),
    "icon": frozenset({"sizes"}),
    "iframe": frozenset({"sandbox"}),
    "output": frozenset({"for"}),
}
_UNIVERSAL = CDATA_LIST_ATTRIBUTES["*"]
_D = TypeVar("_D")
_EMPTY: frozenset[str] = frozenset()

#: bs4 splits on Python's notion of whitespace (``\S+``), which is wider than
#: HTML's ASCII whitespace: ``class="a\xa0b"`` is two classes to bs4.
_NONWHITESPACE = re.compile(r"\S+")

#: Characters lxml refuses in text and attribute values (not XML characters).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` as lxml accepts it: NUL becomes U+FFFD, other control characters go.

    libxml2 turns NUL into U+FFFD when it parses HTML; lxml's API refuses the
    other C0 control characters (and lone surrogates, U+FFFE, U+FFFF), which
    bs4 would keep.  Dropping them keeps every edit possible.
    """
    if NOT_XML.search(text) is None:
        return text
    return NOT_XML.sub(lambda m: "\ufffd" if m.group() == "\x00" else "", text)


def is_multi_valued(tag_name: str, key: str) -> bool:
    """Whether bs4 reads this attribute of this tag as a list (HTML only)."""
    return key in _UNIVERSAL or key in CDATA_LIST_ATTRIBUTES.get(tag_name, _EMPTY)


def split_value(value: str) -> list[str]:
    """Split a multi-valued attribute as bs4 does."""
    return _NONWHITESPACE.findall(value)


def normalize_multi(value: str) -> str:
    """The value bs4 writes back for a multi-valued attribute: tokens joined by one space."""
    return " ".join(_NONWHITESPACE.findall(value))


#: bs4's ``ContentMetaAttributeValue.CHARSET_RE``.
CHARSET_RE = re.compile(r"((^|;)\s*charset=)([^;]*)", re.M)
#: The attribute names that may read as a meta value: with the multi-valued
#: ones, one set look-up on each ``tag[key]`` decides.
META_KEYS = frozenset({"charset", "content"})


class AttributeValueWithCharsetSubstitution(str):
    """An attribute value that names the document's encoding (bs4's base class).

    It prints as the encoding of the output: see its two subclasses.
    """

    original_value: str

    def __new__(cls, original_value: str) -> AttributeValueWithCharsetSubstitution:
        obj = str.__new__(cls, original_value)
        obj.original_value = original_value
        return obj

    def substitute_encoding(self, eventual_encoding: str | None = "utf-8") -> str:
        """The value to print for output in ``eventual_encoding``."""
        raise NotImplementedError


class CharsetMetaAttributeValue(AttributeValueWithCharsetSubstitution):
    """A ``<meta charset>`` value, which prints as the output encoding (bs4's class).

    >>> from scrapy_soup import Soup
    >>> charset = Soup('<meta charset="x-sjis">').meta["charset"]
    >>> charset, charset.substitute_encoding("utf8")
    ('x-sjis', 'utf8')
    """

    def substitute_encoding(self, eventual_encoding: str | None = "utf-8") -> str:
        """The encoding to print: ``eventual_encoding`` ("" for a Python-only one)."""
        if eventual_encoding in PYTHON_SPECIFIC_ENCODINGS:
            return ""
        return eventual_encoding or ""


class ContentMetaAttributeValue(AttributeValueWithCharsetSubstitution):
    """The ``content`` of ``<meta http-equiv="Content-Type">`` (bs4's class).

    Its ``charset=``, if any, prints as the output encoding.
    """

    CHARSET_RE = CHARSET_RE

    def substitute_encoding(self, eventual_encoding: str | None = "utf-8") -> str:
        """The value with its charset replaced by ``eventual_encoding``."""
        if eventual_encoding in PYTHON_SPECIFIC_ENCODINGS:
            return CHARSET_RE.sub("", self.original_value)
        encoding = eventual_encoding or ""
        return CHARSET_RE.sub(lambda m: m.group(1) + encoding, self.original_value)


def meta_value(el: Any, key: str, value: str) -> str:
    """``value`` as bs4's HTML builders read it: a meta value class on ``<meta>``.

    bs4 (``HTMLTreeBuilder.set_up_substitutions``) gives ``charset`` that
    class, or else ``content`` when ``http-equiv`` is Content-Type.
    """
    if el.tag != "meta":
        return value
    if key == "charset":
        return CharsetMetaAttributeValue(value)
    if key == "content" and el.get("charset") is None:
        http_equiv = el.get("http-equiv")
        if http_equiv is not None and http_equiv.lower() == "content-type":
            return ContentMetaAttributeValue(value)
    return value


class AttributeValueList(list[str]):
    """The list a multi-valued attribute reads as (bs4's class of that name).

    It is live: editing it in place rewrites the attribute on the element it
    came from.  A list not read from a tag (``AttributeValueList(['a'])``) is
    a plain list.
    """

    __slots__ = ("_el", "_key")

    def __init__(self, values: Iterable[str] = ()) -> None:
        super().__init__(values)
        self._el: etree._Element | None = None
        self._key = ""

    @classmethod
    def _live(
        cls, el: etree._Element, key: str, values: list[str]
    ) -> AttributeValueList:
        obj = cls(values)
        obj._el = el
        obj._key = key
        return obj

    def _sync(self) -> None:
        if self._el is not None and self._key in self._el.attrib:
            self._el.set(self._key, xml_safe(" ".join(str(v) for v in self)))

    def append(self, value: str) -> None:
        super().append(value)
        self._sync()

    def extend(self, values: Iterable[str]) -> None:
        super().extend(values)
        self._sync()

    def insert(self, index: SupportsIndex, value: str) -> None:
        super().insert(index, value)
        self._sync()

    def remove(self, value: str) -> None:
        super().remove(value)
        self._sync()

    def pop(self, index: SupportsIndex = -1) -> str:
        value = super().pop(index)
        self._sync()
        return value

    def clear(self) -> None:
        super().clear()
        self._sync()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        super().sort(*args, **kwargs)
        self._sync()

    def reverse(self) -> None:
        super().reverse()
        self._sync()

    @overload
    def __setitem__(self, index: SupportsIndex, value: str) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[str]) -> None: ...
    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value)
        self._sync()

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        super().__delitem__(index)
        self._sync()

    def __iadd__(self, values: Iterable[str]) -> AttributeValueList:  # type: ignore[override,misc]
        super().__iadd__(values)
        self._sync()
        return self


def to_attribute_string(value: Any) -> str:
    """Convert a value being assigned to an attribute, as bs4's parsed tags do.

    bs4 stores what it is given and calls `str` on output: numbers and
    ``True`` print as ``"22"``/``"True"``, lists are joined with spaces, and
    its lxml builders store ``None`` as ``""``.  lxml stores only strings, so
    the conversion happens on assignment.  (bs4's ``html.parser`` builder
    keeps ``None`` and prints a bare ``disabled``; here it is ``disabled=""``.)
    """
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


#: An element's attribute values, in the order of ``el.keys()``.
_ATTRIBUTE_VALUES = etree.XPath("@*", smart_strings=False)
#: Up to this many attributes lxml's own items() is the faster call.
_MANY_ATTRIBUTES = 32


def attribute_items(
    el: etree._Element, keys: list[str] | None = None
) -> list[tuple[str, str]]:
    """``el.items()`` in time linear in the number of attributes.

    lxml reads each value by looking its name up in the element's list of
    attributes, so ``items()`` is quadratic: 50,000 attributes on one tag
    took seconds to print.  The names and, through XPath, the values are
    each one pass over that list, in the same order.  *keys*, when the
    caller has them, are ``el.keys()``.  Names are as items() gives them
    (``{ns}local`` for a namespaced attribute).
    """
    # Counted without building the list of names when not given (keys()
    # would be a third of the cost of items() for a usual tag).
    if (len(el.attrib) if keys is None else len(keys)) <= _MANY_ATTRIBUTES:
        return el.items()
    values: Any = _ATTRIBUTE_VALUES(el)
    return list(zip(el.keys() if keys is None else keys, values, strict=True))


def write_attributes(el: etree._Element, items: Iterable[tuple[str, str]]) -> int:
    """Clear *el*'s attributes and set *items* again, in order; return how many were set.

    The one way to remove names lxml refuses to look up (control characters
    libxml2 kept), or to change the attributes' order.  An item lxml
    refuses to write (such a character in its name or value) is left out.
    """
    el.attrib.clear()
    written = 0
    for key, value in items:
        try:
            el.set(key, value)
        except ValueError:
            continue
        written += 1
    return written


def lxml_name(name: str) -> str:
    """How lxml addresses the attribute an HTML parser named *name*.

    lxml reads a name starting with ``{`` as ``{namespace}local`` (Clark
    notation), but libxml2's HTML parser keeps ``{{lazy}}`` or ``{}src``
    (template leftovers) as plain names.  An empty namespace first,
    ``{}{{lazy}}``, makes lxml take the rest as the name itself.
    """
    return "{}" + name if name[:1] == "{" else name


def _clark_namespace(name: str) -> bool:
    """Whether *name* reads as ``{namespace}local`` with a namespace."""
    end = name.find("}")
    return name[:1] == "{" and end > 1 and end < len(name) - 1


def get_attribute(el: etree._Element, name: str, is_xml: bool) -> str | None:
    """The value of attribute *name* of *el*, whatever characters the name has.

    In XML trees a ``{ns}local`` name is a namespaced attribute; in HTML
    trees it is first the name the parser kept (`lxml_name`), then a
    namespaced attribute lxml code may have set.  Names lxml refuses to
    look up (control characters libxml2 kept) are found among the items.
    """
    try:
        if is_xml or name[:1] != "{":
            return el.get(name)
        value = el.get("{}" + name)
        if value is None and _clark_namespace(name):
            value = el.get(name)
        return value
    except ValueError:
        for key, value in attribute_items(el):
            if key == name:
                return value
        return None


def delete_attribute(el: etree._Element, name: str, is_xml: bool) -> bool:
    """Delete attribute *name* of *el* if it is there; return whether it was.

    Any name the parser produced can go (see `get_attribute`).  A name lxml
    refuses to address (a control character) is removed by writing the
    other attributes again; any of those lxml refuses to write (control
    characters too) are lost with it.
    """
    attrib = el.attrib
    try:
        if is_xml or name[:1] != "{":
            return attrib.pop(name, None) is not None
        if attrib.pop("{}" + name, None) is not None:
            return True
        return _clark_namespace(name) and attrib.pop(name, None) is not None
    except ValueError:
        items = attribute_items(el)
        if all(key != name for key, _ in items):
            return False
        write_attributes(
            el,
            [(k if is_xml else lxml_name(k), v) for k, v in items if k != name],
        )
        return True


def wrap_value(el: Any, key: str, value: str, is_xml: bool) -> str | AttributeValueList:
    """An attribute's value as bs4 reads it in HTML: a live list for a
    multi-valued one (``class``), a charset-aware string for a ``<meta>``'s;
    otherwise (and in XML) the string itself."""
    if not is_xml:
        if is_multi_valued(el.tag, key):
            return AttributeValueList._live(el, key, split_value(value))
        if key in META_KEYS:
            return meta_value(el, key, value)
    return value


class AttributeReading:
    """``obj[key]`` and ``obj.get(key, default)`` of an attribute, for `Tag` and `AttrsView`.

    Both read through ``_value`` (None: no such attribute).
    """

    __slots__ = ()

    def _value(self, key: str) -> str | AttributeValueList | None:
        raise NotImplementedError

    def __getitem__(self, key: str) -> str | AttributeValueList:
        value = self._value(key)
        if value is None:
            raise KeyError(key)
        return value

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
        value = self._value(key)
        return default if value is None else value


class AttrsView(AttributeReading, MutableMapping[str, str | AttributeValueList]):
    """``tag.attrs``: a live mapping over an lxml element's attributes."""

    __slots__ = ("_el", "_is_xml")

    def __init__(self, el: etree._Element, is_xml: bool) -> None:
        self._el = el
        self._is_xml = is_xml

    def _value(self, key: str) -> str | AttributeValueList | None:
        value = get_attribute(self._el, key, self._is_xml)
        if value is None:
            return None
        return wrap_value(self._el, key, value, self._is_xml)

    def __setitem__(self, key: str, value: object) -> None:
        # bs4 stores the name as given: in HTML, "{x}y" is a name, not a
        # namespace.
        name = key if self._is_xml else lxml_name(key)
        self._el.set(name, xml_safe(to_attribute_string(value)))

    def __delitem__(self, key: str) -> None:
        if not delete_attribute(self._el, key, self._is_xml):
            raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._el.attrib.keys())

    def __len__(self) -> int:
        return len(self._el.attrib)

    def __contains__(self, key: object) -> bool:
        return (
            isinstance(key, str)
            and get_attribute(self._el, key, self._is_xml) is not None
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (dict, AttrsView)):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def copy(self) -> dict[str, str | AttributeValueList]:
        """A plain dict snapshot, as ``dict.copy`` gives in bs4."""
        return dict(self.items())
