"""Turn every soup object in an item into plain Python data.

A spider may put anything the soup hands out into an item: a ``Tag``, a
``NavigableString``, ``tag.attrs``, ``tag['class']``, a ``ResultSet``, at any
depth inside dicts, lists, tuples, sets and nested items. Exporters, queues
(Redis, disk) and other pipelines cannot encode those, and Scrapy's feed
exporter drops an item it cannot encode. :func:`convert_item` replaces them
in the item, in place, by what they stand for:

- a ``Tag``/``Soup`` -> its HTML ``str`` (``str(tag)``), recorded as markup
  so that the pipelines make its links absolute and clean it;
- a ``NavigableString`` (``Comment``, ``CData``, ...) -> its text as ``str``;
  inside an HTML field it is text, not markup: its ``&``, ``<`` and ``>``
  are escaped (bs4's "minimal" formatter) so that it reads as the same text;
- ``tag.attrs`` -> ``dict``; a multi-valued attribute (``tag['class']``) and a
  ``ResultSet`` -> ``list``.

Items that hold no soup object are looked at and left alone: nothing is
allocated for them. This module never imports Scrapy (itemadapter only).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter

from scrapy_soup._scrapy._stats import FIELDS_FAILED

if TYPE_CHECKING:
    from scrapy_soup._tree._soup import Soup

__all__ = [
    "FORMATS",
    "MAIN_CONTENT",
    "MAX_DEPTH",
    "Converted",
    "FieldFailures",
    "FieldPath",
    "Markup",
    "TagProcessor",
    "convert_item",
    "escape_text",
    "field_formats",
    "format_path",
    "holds_soup",
    "html_field_names",
    "is_item_type",
    "main_content_names",
    "same_sequence",
    "set_field",
]

logger = logging.getLogger(__name__)

#: A value's place in an item: the field name, then dict keys, list indexes
#: and nested items' field names (``("sections", 2, "html")``).
FieldPath = tuple[Any, ...]

#: How deep values are walked; a deeper (or self-referencing) value fails.
MAX_DEPTH = 100

#: Types that never hold a soup object (exact types: ``NavigableString`` is a
#: ``str`` subclass).
_SCALARS: frozenset[type] = frozenset({str, int, float, bool, type(None), bytes})

#: Type -> whether ItemAdapter knows it as an item (asked once per type).
_item_types: dict[type, bool] = {}


def is_item_type(value: Any) -> bool:
    """Tell whether ``value`` is an item ItemAdapter handles (cached per type)."""
    t = type(value)
    known = _item_types.get(t)
    if known is None:
        known = _item_types[t] = bool(ItemAdapter.is_item(value))
    return known


class _Types:
    """The soup classes, imported on first use (not when Scrapy starts)."""

    loaded = False
    # Any, not type: isinstance() against them must not narrow values to object.
    page_element: Any
    tag: Any
    string: Any
    attrs: Any
    attr_list: Any
    result_set: Any
    #: Every type that is a soup object (tuple for isinstance()).
    soup: tuple[type, ...]

    @classmethod
    def load(cls) -> type[_Types]:
        if not cls.loaded:
            from scrapy_soup._tree._attrs import AttributeValueList, AttrsView
            from scrapy_soup._tree._node import PageElement
            from scrapy_soup._tree._strainer import ResultSet
            from scrapy_soup._tree._strings import NavigableString
            from scrapy_soup._tree._tag import Tag

            cls.page_element, cls.tag, cls.string = PageElement, Tag, NavigableString
            cls.attrs, cls.attr_list, cls.result_set = (
                AttrsView,
                AttributeValueList,
                ResultSet,
            )
            cls.soup = (PageElement, AttrsView, AttributeValueList, ResultSet)
            cls.loaded = True
        return cls


def escape_text(text: str) -> str:
    """Text as HTML that reads as the same text (``&``, ``<``, ``>`` escaped).

    The "minimal" formatter bs4 writes strings with.
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def format_path(path: FieldPath, indexes: bool = True) -> str:
    """``("sections", 2, "html")`` -> ``"sections[2].html"``, for logs.

    Without ``indexes``: ``"sections[].html"``, the same for every element.
    """
    out = str(path[0]) if path else ""
    for key in path[1:]:
        if isinstance(key, int):
            out += f"[{key}]" if indexes else "[]"
        else:
            out += f".{key}"
    return out


def html_field_names(
    item: Any, configured: tuple[str, ...], marked: dict[type, tuple[str, ...]]
) -> tuple[str, ...]:
    """Names of the item's HTML fields: those the settings name plus the marked ones.

    ``configured``: ``SOUP_HTML_FIELDS``, ``SOUP_TEXT_FIELDS``,
    ``SOUP_MARKDOWN_FIELDS`` and ``SOUP_MAIN_CONTENT_FIELDS``. A field is
    marked by its metadata (``html``, ``text``, ``markdown`` or
    ``main_content`` true): ``scrapy.Field(html=True)``,
    ``dataclasses.field(metadata={"html": True})``, ``attrs.field(metadata=
    {"html": True})`` or pydantic's ``Field(json_schema_extra={"html":
    True})``. ``marked`` caches the marked names per item class.
    """
    if type(item) is dict:
        return configured
    item_class = type(item)
    names = marked.get(item_class)
    if names is None:
        found: list[str] = list(configured)
        found.extend(n for n in _class_marks(item_class).names if n not in found)
        names = marked[item_class] = tuple(found)
    return names


#: The formats an HTML field can be exported in besides HTML, by metadata key.
FORMATS = ("markdown", "text")


def _marked(meta: Mapping[str, Any], key: str) -> bool:
    """Whether field metadata sets ``key`` (also in pydantic's json_schema_extra)."""
    if meta.get(key):
        return True
    extra = meta.get("json_schema_extra")
    return isinstance(extra, Mapping) and bool(extra.get(key))


#: The metadata key that marks a field holding a page, exported as its
#: main content (in the format its other keys choose).
MAIN_CONTENT = "main_content"


class _ClassMarks:
    """What an item class's field metadata marks, read once per class."""

    __slots__ = ("formats", "main_content", "names")

    def __init__(
        self, names: tuple[str, ...], formats: dict[str, str], main: tuple[str, ...]
    ) -> None:
        #: the fields holding HTML (``html``, ``text``, ``markdown`` or
        #: ``main_content`` true)
        self.names = names
        #: of those, the ones exported converted (Markdown if marked both ways)
        self.formats = formats
        #: of those, the ones holding a page, exported as its main content
        self.main_content = main


#: item class -> what `_class_marks` read of its field metadata
_CLASS_MARKS: dict[type, _ClassMarks] = {}


def _class_marks(item_class: type) -> _ClassMarks:
    """What an item class's field metadata marks, read once per class."""
    known = _CLASS_MARKS.get(item_class)
    if known is not None:
        return known
    names: list[str] = []
    formats: dict[str, str] = {}
    main: list[str] = []
    for name in ItemAdapter.get_field_names_from_class(item_class) or ():
        meta = ItemAdapter.get_field_meta_from_class(item_class, name)
        fmt = next((key for key in FORMATS if _marked(meta, key)), None)
        if fmt is not None:
            formats[name] = fmt
        if _marked(meta, MAIN_CONTENT):
            main.append(name)
        if fmt is not None or _marked(meta, "html") or name in main:
            names.append(name)
    known = _CLASS_MARKS[item_class] = _ClassMarks(tuple(names), formats, tuple(main))
    return known


def main_content_names(
    item: Any, configured: tuple[str, ...], cache: dict[type, tuple[str, ...]]
) -> tuple[str, ...]:
    """Names of the item's fields holding a page, exported as its main content.

    From ``SOUP_MAIN_CONTENT_FIELDS`` and the ``main_content`` key of the
    field metadata (``scrapy.Field(main_content=True)``, as ``html=True``).
    ``cache`` keeps the answer per item class.
    """
    item_class = type(item)
    names = cache.get(item_class)
    if names is None:
        found = list(configured)
        if item_class is not dict:
            found.extend(
                n for n in _class_marks(item_class).main_content if n not in found
            )
        names = cache[item_class] = tuple(found)
    return names


def field_formats(
    item: Any,
    text_fields: tuple[str, ...],
    markdown_fields: tuple[str, ...],
    cache: dict[type, dict[str, str]],
) -> dict[str, str]:
    """Field name -> ``"text"`` or ``"markdown"``: HTML fields exported converted.

    From ``SOUP_TEXT_FIELDS``/``SOUP_MARKDOWN_FIELDS`` and from the same keys
    in the field metadata as ``html=True`` (``scrapy.Field(markdown=True)``,
    ``metadata={"text": True}``, pydantic's ``json_schema_extra``); a field
    marked both ways is Markdown. ``cache`` keeps the answer per item class.
    """
    item_class = type(item)
    formats = cache.get(item_class)
    if formats is None:
        formats = dict.fromkeys(text_fields, "text")
        formats.update(dict.fromkeys(markdown_fields, "markdown"))
        if item_class is not dict:
            for name, fmt in _class_marks(item_class).formats.items():
                formats.setdefault(name, fmt)
        cache[item_class] = formats
    return formats


def same_sequence(value: list[Any] | tuple[Any, ...], items: list[Any]) -> Any:
    """``items`` as ``value``'s kind of sequence: a list (a list subclass, a
    ``ResultSet``, becomes a list), a tuple, or a namedtuple of its type."""
    if isinstance(value, list):
        return items
    make = getattr(type(value), "_make", None)
    return make(items) if make is not None else tuple(items)


def set_field(item: Any, name: str, value: Any) -> None:
    """``item[name] = value`` for any item type, frozen dataclasses included."""
    if type(item) is dict:
        item[name] = value
        return
    try:
        ItemAdapter(item)[name] = value
    except (AttributeError, TypeError, ValueError):
        # A frozen dataclass, attrs class or pydantic model: the object is
        # the spider's own output, so this changes nothing anyone else holds.
        # (pydantic's ValidationError is a ValueError.)
        object.__setattr__(item, name, value)


class Markup:
    """A markup value of an item: the ``str`` in the item and the tree behind it.

    ``fragment`` is a working copy (a fragment soup nobody else holds) whose
    serialization is ``text``, or None when there is none and ``text`` must
    be parsed; ``doc`` is the soup document the value came from (its base
    URL wins over the page's), or None. ``done``: ``text`` is already what
    the pipelines would make of it (the spider middleware ran them).
    """

    __slots__ = ("doc", "done", "fragment", "text")

    def __init__(
        self, text: str | None, fragment: Soup | None, doc: Any, done: bool = False
    ) -> None:
        self.text = text
        self.fragment = fragment
        self.doc = doc
        self.done = done


#: Processes a Tag's working copy as the pipelines would: (copy, the Tag, its
#: path) -> the value's final ``str``. Handles its own failures.
TagProcessor = Callable[[Any, Any, FieldPath], str]


class Converted:
    """What converting one item found: markup and the values that failed."""

    __slots__ = ("failed", "markup", "process")

    def __init__(self, process: TagProcessor | None = None) -> None:
        self.process = process
        #: path -> the markup found there
        self.markup: dict[FieldPath, Markup] = {}
        #: (path, exception) of each value that could not be converted
        self.failed: list[tuple[FieldPath, BaseException]] = []


class _TooDeep(ValueError):
    pass


def _holds_soup(value: Any, depth: int) -> bool:
    """Tell whether ``value`` holds a soup object anywhere (no allocation)."""
    if depth > MAX_DEPTH:
        return True  # the conversion reports it
    if isinstance(value, _Types.soup):
        return True
    if type(value) is dict:
        for key, v in value.items():
            if type(v) not in _SCALARS and _holds_soup(v, depth + 1):
                return True
            if type(key) not in _SCALARS and isinstance(key, _Types.page_element):
                return True
        return False
    if isinstance(value, (list, tuple, set, frozenset)):
        # Long lists (every link of a page) are common: look at each
        # distinct type once, collected in C.
        types = set(map(type, value))
        if types <= _SCALARS:
            return False
        return any(type(v) not in _SCALARS and _holds_soup(v, depth + 1) for v in value)
    if is_item_type(value):
        return any(
            type(v) not in _SCALARS and _holds_soup(v, depth + 1)
            for v in ItemAdapter(value).values()
        )
    if isinstance(value, Mapping):
        return any(
            type(v) not in _SCALARS and _holds_soup(v, depth + 1)
            for v in value.values()
        )
    return False


def holds_soup(item: Any) -> bool:
    """Tell whether ``item`` holds a soup object anywhere."""
    if not _Types.loaded:
        _Types.load()
    return _holds_soup(item, 0)


def _tag_markup(tag: Any, serialize: bool = True) -> tuple[str | None, Soup | None]:
    """``str(tag)``, and a working copy of the tag when it is cheaper that way.

    For a Tag of an HTML page the tag is copied (in C) into a fragment soup
    and that copy serialized straight from lxml (``fragment_html``: tested
    equal to ``str()``, ~2x faster); the pipelines then work on the copy
    instead of parsing the string again. Whole documents, XML, tags inside
    ``<pre>``/``<textarea>`` (whose whitespace bs4 keeps) and documents
    edited with what only the soup writes (verbatim whitespace, strings kept
    apart or of their own class such as an inserted ``CData``, hidden tags;
    a copy of the lxml tree has none of it) take ``str()``. Without ``serialize``,
    a copy is not serialized (None): the caller processes it first.
    """
    from scrapy_soup._scrapy._bridge import fragment_html, fragment_of_tag

    el = tag._el
    doc = tag._doc
    if (
        el is None
        or doc is None
        or doc._mode == "xml"
        or doc._beside_lxml
        or el.tag in ("pre", "textarea")
        or next(el.iterancestors("pre", "textarea"), None) is not None
    ):
        return str(tag), None
    fragment = fragment_of_tag(tag)
    return (fragment_html(fragment) if serialize else None), fragment


def _convert(
    value: Any, path: FieldPath, html: bool, out: Converted, depth: int
) -> Any:
    """``value`` as plain data; soup objects replaced, containers rebuilt."""
    try:
        if depth > MAX_DEPTH:
            raise _TooDeep(f"nested more than {MAX_DEPTH} levels deep")
        types = _Types
        if isinstance(value, types.tag):
            process = out.process
            text, fragment = _tag_markup(value, serialize=process is None)
            if text is None:
                assert process is not None and fragment is not None
                # Made absolute and clean here, serialized once.
                text = process(fragment, value, path)
                out.markup[path] = Markup(text, None, value._doc, done=True)
            else:
                out.markup[path] = Markup(text, fragment, value._doc)
            return text
        if isinstance(value, types.string):
            text = str.__str__(value)
            # In an HTML field, text is text: escaped, never read as markup.
            return escape_text(text) if html else text
        if isinstance(value, types.attrs):
            return {
                str(k): _convert(v, (*path, k), False, out, depth + 1)
                for k, v in value.items()
            }
        if isinstance(value, types.attr_list):
            return [str.__str__(v) if isinstance(v, str) else v for v in value]
        if isinstance(value, types.page_element):
            # Another kind of page element: its markup.
            return str(value)
        return _convert_container(value, path, html, out, depth)
    except Exception as exc:
        out.failed.append((path, exc))
        return None


def _convert_container(
    value: Any, path: FieldPath, html: bool, out: Converted, depth: int
) -> Any:
    t = type(value)
    if t is dict or (isinstance(value, Mapping) and not is_item_type(value)):
        return {
            (str(k) if isinstance(k, _Types.page_element) else k): (
                v
                if type(v) in _SCALARS
                else _convert(v, (*path, k), html, out, depth + 1)
            )
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        items = [
            v if type(v) in _SCALARS else _convert(v, (*path, i), html, out, depth + 1)
            for i, v in enumerate(value)
        ]
        return same_sequence(value, items)
    if isinstance(value, (set, frozenset)):
        # Elements of a set have no address: the set itself is the markup.
        found = len(out.markup)
        items = [_convert(v, path, html, out, depth + 1) for v in value]
        if len(out.markup) > found:
            out.markup[path] = Markup(None, None, None)
        return frozenset(items) if isinstance(value, frozenset) else set(items)
    if is_item_type(value):
        adapter = ItemAdapter(value)
        for name, v in list(adapter.items()):
            if type(v) not in _SCALARS and _holds_soup(v, depth + 1):
                set_field(value, name, _convert(v, (*path, name), html, out, depth + 1))
        return value
    return value


def convert_item(
    item: Any, html_names: tuple[str, ...], process: TagProcessor | None = None
) -> Converted | None:
    """Replace every soup object in ``item`` (in place); None if it held none.

    ``html_names`` are the item's HTML fields: a string in one of them is
    escaped. A value that cannot be converted is replaced by None and
    reported in :attr:`Converted.failed`; the item always goes on. With
    ``process``, a Tag's copy is processed by it instead of serialized as it
    is (the spider middleware runs the pipelines' work there).
    """
    if not _Types.loaded:
        _Types.load()
    fields: Any = item if type(item) is dict else ItemAdapter(item)
    # Every item passes here, most without a soup object: look first, in
    # one comprehension, and allocate nothing more for those.
    todo = [
        (name, value)
        for name, value in fields.items()
        if type(value) not in _SCALARS and _holds_soup(value, 0)
    ]
    if not todo:
        return None
    out = Converted(process)
    for name, value in todo:
        new = _convert(value, (name,), name in html_names, out, 0)
        try:
            set_field(item, name, new)
        except Exception as exc:
            out.failed.append(((name,), exc))
    return out


class FieldFailures:
    """Count every value that failed in ``soup/fields_failed``; log each field once.

    Fields are told apart by their path without list indexes
    (``sections[].html``), so that a failure repeated on every item of a
    crawl is one warning; each later one is logged at DEBUG level.
    """

    def __init__(self, stats: Any, who: str) -> None:
        self._stats = stats
        self._who = who
        self._logged: set[str] = set()

    def report(self, path: FieldPath, exc: BaseException, instead: str) -> None:
        """Count and log one value at ``path`` that failed with ``exc``."""
        if self._stats is not None:
            self._stats.inc_value(FIELDS_FAILED)
        shown = format_path(path)
        key = format_path(path, indexes=False)
        first = key not in self._logged
        if first:
            self._logged.add(key)
        logger.log(
            logging.WARNING if first else logging.DEBUG,
            "%s could not process field %s (%s: %s); exported instead: %s%s",
            self._who,
            shown,
            type(exc).__name__,
            exc,
            instead,
            "" if not first else " (logged once for this field)",
            exc_info=logger.isEnabledFor(logging.DEBUG),
        )
