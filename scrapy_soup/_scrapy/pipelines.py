"""Item pipelines that make links absolute and clean HTML fields before export.

Both pipelines share :class:`_HtmlFieldPipeline`: it finds the HTML fields of
an item (named in ``SOUP_HTML_FIELDS``, marked ``html=True`` in the field
metadata, or holding soup Tags), parses plain strings once as fragments,
copies soup Tags so the response's own tree never changes, and hands the
result on. The last of the two that is enabled turns every result into a
plain ``str``: JSON and JSON Lines exporters cannot encode other objects and
would lose the whole item.
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object

from scrapy_soup._scrapy._bridge import (
    absolutize,
    clean,
    clean_markup,
    fragment_html,
    fragment_of_markup,
    fragment_of_tag,
    policy_from_config,
)
from scrapy_soup._scrapy._config import Config
from scrapy_soup._scrapy._origins import ItemOrigins

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

    from scrapy_soup._tree._elements import NavigableString, PageElement, Tag
    from scrapy_soup._tree._soup import Soup

__all__ = ["AbsoluteLinksPipeline", "CleanHtmlPipeline"]

logger = logging.getLogger(__name__)

# Working copies that a scrapy_soup pipeline made and may therefore change in
# place: id -> object. Entries vanish with their object.
_owned: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


class _UnsupportedValue(TypeError):
    """A value in an HTML field that is neither text nor a soup object."""


_TREE_TYPES: tuple[type[PageElement], type[Tag], type[NavigableString]] | None = None


def _tree_types() -> tuple[type[PageElement], type[Tag], type[NavigableString]]:
    # Late import: building the pipelines must not import the tree package
    # before a crawl needs it (and keeps this module importable on its own).
    global _TREE_TYPES
    if _TREE_TYPES is None:
        from scrapy_soup._tree._elements import NavigableString, PageElement, Tag

        _TREE_TYPES = (PageElement, Tag, NavigableString)
    return _TREE_TYPES


def _holds_soup(value: Any, page_element: type) -> bool:
    if isinstance(value, page_element):
        return True
    if isinstance(value, (list, tuple)):
        # Every item passes here, soup or not, and list fields are often long
        # (every link of a page): look at each distinct type once, collected
        # in C, instead of an isinstance() per element in Python.
        return any(issubclass(t, page_element) for t in set(map(type, value)))
    return False


def _plain(value: Any) -> Any:
    """``value`` with every soup object in it (or in its list) made a str."""
    page_element = _tree_types()[0]
    if isinstance(value, page_element):
        return str.__str__(value) if isinstance(value, str) else str(value)
    if isinstance(value, (list, tuple)) and _holds_soup(value, page_element):
        return type(value)(_plain(v) for v in value)
    return value


class _HtmlFieldPipeline:
    """Find the HTML fields of each item and run :meth:`transform` on each one."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self._config = Config.from_settings(crawler.settings)
        self._stats = crawler.stats
        self._origins = ItemOrigins.of(crawler)
        self._final = self._is_last_soup_pipeline(crawler)
        # item class -> names of fields whose metadata says html=True
        self._marked: dict[type, tuple[str, ...]] = {}
        self._warned_no_base = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _is_last_soup_pipeline(self, crawler: Crawler) -> bool:
        """Tell whether no other scrapy_soup pipeline runs after this one."""
        paths = build_component_list(crawler.settings.getwithbase("ITEM_PIPELINES"))
        classes = []
        for path in paths:
            try:
                classes.append(load_object(path))
            except (ImportError, NameError, ValueError, AttributeError):
                classes.append(None)
        mine = [i for i, c in enumerate(classes) if c is type(self)]
        if not mine:  # built by hand, not through ITEM_PIPELINES
            return True
        later = classes[mine[-1] + 1 :]
        return not any(
            isinstance(c, type) and issubclass(c, _HtmlFieldPipeline) for c in later
        )

    # -- what the concrete pipelines provide --------------------------------
    def transform(self, fragment: Soup, base_url: str | None) -> dict[str, int]:
        """Change ``fragment`` in place; return the counts to add to the stats."""
        raise NotImplementedError

    def finish(self, fragment: Soup) -> str:
        """The field's final value for exporters (this is the last pipeline)."""
        return fragment_html(fragment)

    # -- item handling -------------------------------------------------------
    def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        # ``spider`` is optional: Scrapy < 2.14 passes it, later ones do not.
        names = self._html_field_names(item)
        if not names:
            return item
        adapter = ItemAdapter(item)
        base_url = self._base_url_of(item, adapter)
        totals: dict[str, int] = {}
        failed: list[str] = []
        for name in names:
            value = adapter.get(name)
            if value is None:
                continue
            counts: dict[str, int] = {}
            try:
                new_value = self._process_value(value, base_url, counts)
            except Exception as exc:
                failed.append(name)
                self._inc("soup/fields_failed")
                logger.warning(
                    "%s could not process field %r (%s); the field is kept as it was: %r",
                    type(self).__name__,
                    name,
                    type(value).__name__,
                    exc,
                    exc_info=logger.isEnabledFor(logging.DEBUG),
                )
                if self._final:
                    # Still no soup object for the exporters: unprocessed, but
                    # a str (a JSON exporter would lose the whole item).
                    adapter[name] = _plain(value)
                continue
            adapter[name] = new_value
            for key, count in counts.items():
                totals[key] = totals.get(key, 0) + count
        for key, count in totals.items():
            if count:
                self._inc(key, count)
        logger.debug(
            "%s: fields %s, base URL %s, %s",
            type(self).__name__,
            names,
            base_url,
            ", ".join(f"{k} {v}" for k, v in sorted(totals.items())) or "no changes",
        )
        if failed and self._config.drop_failed_items:
            raise DropItem(f"{type(self).__name__}: could not process fields {failed}")
        return item

    def _inc(self, key: str, count: int = 1) -> None:
        if self._stats is not None:
            self._stats.inc_value(key, count)

    def _html_field_names(self, item: Any) -> list[str]:
        # Every item passes here, most with no HTML field: a plain dict (the
        # usual item) is read directly, as ItemAdapter's Mapping walk is
        # Python-level per field, and a dict class declares no fields.
        fields: Any
        marked: tuple[str, ...]
        if type(item) is dict:
            fields, marked = item, ()
        else:
            fields = ItemAdapter(item)
            marked = self._marked_fields(type(item))
        page_element = _tree_types()[0]
        names: list[str] = []
        for name in self._config.html_fields:
            if name in fields and name not in names:
                names.append(name)
        for name in marked:
            if name in fields and name not in names:
                names.append(name)
        for name, value in fields.items():
            if name not in names and _holds_soup(value, page_element):
                names.append(name)
        return names

    def _marked_fields(self, item_class: type) -> tuple[str, ...]:
        marked = self._marked.get(item_class)
        if marked is None:
            found: list[str] = []
            field_names = ItemAdapter.get_field_names_from_class(item_class) or []
            for name in field_names:
                meta = ItemAdapter.get_field_meta_from_class(item_class, name)
                if meta.get("html"):
                    found.append(name)
            marked = self._marked[item_class] = tuple(found)
        return marked

    def _base_url_of(self, item: Any, adapter: ItemAdapter) -> str | None:
        origin = self._origins.get(item)
        if origin is not None:
            return origin.base_url
        name = self._config.url_field
        if name is not None:
            value = adapter.get(name)
            if isinstance(value, str) and value:
                return value
        return None

    def _process_value(
        self, value: Any, base_url: str | None, totals: dict[str, int]
    ) -> Any:
        if isinstance(value, (list, tuple)):
            processed = [self._process_value(v, base_url, totals) for v in value]
            return tuple(processed) if isinstance(value, tuple) else processed
        _, tag_type, string_type = _tree_types()
        fragment: Any
        if isinstance(value, string_type):
            # Text, not markup (bs4's str() of a NavigableString is unescaped):
            # nothing to rewrite, only make it a plain str for exporters.
            return str.__str__(value) if self._final else value
        if isinstance(value, tag_type):
            if _owned.get(id(value)) is value:
                # A working copy an earlier scrapy_soup pipeline made; it
                # carries the base URL that pipeline used.
                fragment = value
                base_url = getattr(value, "base_url", None) or base_url
            else:
                doc = value._doc if value._doc is not None else value
                own_base = getattr(doc, "base_url", None)
                if own_base:
                    # A soup object keeps its own document's base URL.
                    base_url = own_base
                fragment = fragment_of_tag(value)
        elif isinstance(value, str):
            if "<" not in value:
                # No markup: nothing to rewrite or clean, and parsing would
                # only re-escape the text ("AT&T" -> "AT&amp;T").
                return value
            fragment = fragment_of_markup(value)
        else:
            raise _UnsupportedValue(
                f"expected str, a soup object or a list of those, got {type(value).__name__}"
            )
        if base_url is None and not self._warned_no_base:
            self._warned_no_base = True
            logger.warning(
                "%s: no page URL known for an item; enable SoupSpiderMiddleware "
                "or set SOUP_URL_FIELD so that relative links can be resolved",
                type(self).__name__,
            )
        for key, count in self.transform(fragment, base_url).items():
            totals[key] = totals.get(key, 0) + count
        if self._final:
            return self.finish(fragment)
        _owned[id(fragment)] = fragment
        # Remember the base with the copy: the next pipeline reads it there.
        fragment.base_url = base_url
        return fragment


class AbsoluteLinksPipeline(_HtmlFieldPipeline):
    """Rewrite every URL in HTML fields to an absolute one.

    The base is the item's page (its first ``<base href>``, else its URL) as
    recorded by :class:`~scrapy_soup.SoupSpiderMiddleware`, or a soup object's
    own document. ``SOUP_LINKS_EXTRA_ATTRIBUTES`` adds attributes such as the
    lazy-loading ``data-src``. Counts ``soup/links_absolutized``.
    """

    def transform(self, fragment: Soup, base_url: str | None) -> dict[str, int]:
        if base_url is None:
            return {}
        count = absolutize(fragment, base_url, self._config.links_extra_attributes)
        return {"soup/links_absolutized": count}


class CleanHtmlPipeline(_HtmlFieldPipeline):
    """Remove unwanted elements and attributes from HTML fields.

    The policy is ``SOUP_CLEAN_POLICY`` (a preset name or a ``CleanPolicy``)
    adjusted by the ``SOUP_CLEAN_*`` settings. Counts
    ``soup/attributes_removed`` and ``soup/elements_removed``.
    """

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self._policy = policy_from_config(self._config)

    def transform(self, fragment: Soup, base_url: str | None) -> dict[str, int]:
        return clean(fragment, self._policy)

    def finish(self, fragment: Soup) -> str:
        # What is exported must be what ``clean()`` returns for a string: a
        # fixpoint that parses back to a tree the policy accepts. Removing
        # and unwrapping can leave trees the HTML parser rebuilds differently
        # from their serialization; ``clean()`` re-cleans until stable (one
        # more round here, as the tree is already clean).
        return clean_markup(fragment_html(fragment), self._policy)
