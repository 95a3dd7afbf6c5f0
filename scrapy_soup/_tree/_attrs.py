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
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

if TYPE_CHECKING:
    from lxml import etree

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
_EMPTY: frozenset[str] = frozenset()

#: bs4 splits on Python's notion of whitespace (``\S+``), which is wider than
#: HTML's ASCII whitespace: ``class="a\xa0b"`` is two classes to bs4.
_NONWHITESPACE = re.compile(r"\S+")

#: Characters lxml refuses in text and attribute values (not XML characters).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` as lxml accepts it: NUL becomes U+FFFD, other control characters go.

    libxml2 turns NUL into U+FFFD when it parses HTML; lxml's API refuses the
    other C0 control characters (and lone surrogates, U+FFFE, U+FFFF), which
    bs4 would keep.  Dropping them keeps every edit possible.
    """
    if _NOT_XML.search(text) is None:
        return text
    return _NOT_XML.sub(lambda m: "\ufffd" if m.group() == "\x00" else "", text)


def is_multi_valued(tag_name: str, key: str) -> bool:
    """Whether bs4 reads this attribute of this tag as a list (HTML only)."""
    return key in _UNIVERSAL or key in CDATA_LIST_ATTRIBUTES.get(tag_name, _EMPTY)


def split_value(value: str) -> list[str]:
    """Split a multi-valued attribute as bs4 does."""
    return _NONWHITESPACE.findall(value)


def normalize_multi(value: str) -> str:
    """The value bs4 writes back for a multi-valued attribute: tokens joined by one space."""
    return " ".join(_NONWHITESPACE.findall(value))


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


class AttrsView(MutableMapping[str, Any]):
    """``tag.attrs``: a live mapping over an lxml element's attributes."""

    __slots__ = ("_el", "_is_xml")

    def __init__(self, el: etree._Element, is_xml: bool) -> None:
        self._el = el
        self._is_xml = is_xml

    def _wrap_value(self, key: str, value: str) -> Any:
        if not self._is_xml and is_multi_valued(self._el.tag, key):  # type: ignore[arg-type]
            return AttributeValueList._live(self._el, key, split_value(value))
        return value

    def _raw(self, key: str) -> str | None:
        try:
            return self._el.get(key)
        except ValueError:
            # libxml2's HTML parser accepts attribute names (control
            # characters) that lxml's API refuses to look up.
            for name, value in self._el.items():
                if name == key:
                    return value
            return None

    def __getitem__(self, key: str) -> Any:
        value = self._raw(key)
        if value is None:
            raise KeyError(key)
        return self._wrap_value(key, value)

    def get(self, key: str, default: Any = None) -> Any:
        value = self._raw(key)
        if value is None:
            return default
        return self._wrap_value(key, value)

    def __setitem__(self, key: str, value: Any) -> None:
        self._el.set(key, xml_safe(to_attribute_string(value)))

    def __delitem__(self, key: str) -> None:
        del self._el.attrib[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._el.attrib.keys())

    def __len__(self) -> int:
        return len(self._el.attrib)

    def __contains__(self, key: object) -> bool:
        return key in self._el.attrib

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (dict, AttrsView)):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def copy(self) -> dict[str, Any]:
        """A plain dict snapshot, as ``dict.copy`` gives in bs4."""
        return dict(self.items())
