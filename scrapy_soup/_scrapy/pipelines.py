"""Item pipelines that make links absolute and clean HTML fields before export.

Both pipelines share :class:`_HtmlFieldPipeline`. It finds the HTML values
of an item: the fields named in ``SOUP_HTML_FIELDS`` or marked ``html=True``
in their metadata (every string in them, at any depth), and the values that
held soup Tags, recorded by :class:`~scrapy_soup.SoupSpiderMiddleware`. It
parses each once as a fragment, runs :meth:`~_HtmlFieldPipeline.transform`
on it and writes a ``str`` back: an item never holds a soup object between
two pipelines. The working tree is handed to the next scrapy_soup pipeline
beside the item (in :class:`~scrapy_soup._scrapy._origins.ItemOrigins`), so
that a value is parsed once for both.

Fail closed: a value that cannot be processed is never exported as it came.
Its text is escaped (it reads as the same text and holds no markup) or, with
``SOUP_DROP_FAILED_ITEMS``, the item is dropped; either way it is counted in
``soup/fields_failed`` and logged once per field.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object
from w3lib.encoding import html_to_unicode

from scrapy_soup._scrapy._bridge import (
    absolutize,
    clean,
    clean_markup,
    clean_text,
    convert,
    fragment_html,
    fragment_of_markup,
    remember_code_languages,
)
from scrapy_soup._scrapy._checks import FieldsSeen, crawler_config
from scrapy_soup._scrapy._origins import ItemOrigins
from scrapy_soup._scrapy._plain import (
    FieldFailures,
    FieldPath,
    Markup,
    convert_item,
    escape_text,
    field_formats,
    html_field_names,
    is_item_type,
    same_sequence,
    set_field,
)
from scrapy_soup._scrapy._stats import LINKS_ABSOLUTIZED

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

    from scrapy_soup._tree._soup import Soup

__all__ = ["AbsoluteLinksPipeline", "CleanHtmlPipeline"]

logger = logging.getLogger(__name__)

#: Values that cannot hold markup: kept as they are in an HTML field.
_NO_MARKUP = (bool, int, float, type(None))


def decode_html(data: bytes) -> str:
    """Decode an HTML field given as bytes: its BOM or ``<meta charset>``, else UTF-8.

    As w3lib (and so Scrapy) decodes a response body without a
    Content-Type header; undecodable bytes become U+FFFD.
    """
    return html_to_unicode(None, data)[1]


class _Failed(Exception):
    """A value in an HTML field failed; its escaped text replaces it."""

    def __init__(self, exc: BaseException, escaped: Any) -> None:
        super().__init__(str(exc))
        self.exc = exc
        self.escaped = escaped


class _ItemWork:
    """One item on its way through one pipeline."""

    __slots__ = ("base_url", "failed", "formats", "markup", "new_markup", "totals")

    def __init__(
        self,
        base_url: str | None,
        markup: dict[FieldPath, Markup] | None,
        formats: dict[str, str],
    ) -> None:
        self.base_url = base_url
        self.markup = markup or {}
        #: field name -> "text" or "markdown", for fields not exported as HTML
        self.formats = formats
        #: what this pipeline hands the next one
        self.new_markup: dict[FieldPath, Markup] = {}
        self.totals: dict[str, int] = {}
        self.failed = False


def _pipeline_classes(crawler: Crawler) -> list[Any]:
    """The classes of ``ITEM_PIPELINES`` in the order they run (None if broken)."""
    paths = build_component_list(crawler.settings.getwithbase("ITEM_PIPELINES"))
    classes: list[Any] = []
    for path in paths:
        try:
            classes.append(load_object(path))
        except (ImportError, NameError, ValueError, AttributeError):
            classes.append(None)
    return classes


def _is_soup(c: Any) -> bool:
    return isinstance(c, type) and issubclass(c, _HtmlFieldPipeline)


def early_stages(crawler: Crawler) -> list[_HtmlFieldPipeline]:
    """The scrapy_soup pipelines the spider middleware may run itself, in order.

    A Tag in an item is copied by the spider middleware; serializing the copy
    there and parsing (or copying) it again in the pipelines would double the
    work. When nothing but scrapy_soup's own pipelines (and Scrapy's media
    pipelines, which read URLs, not HTML) runs before the last of them, as
    with the add-on's orders, the result is the same if the middleware makes
    the copy absolute and clean itself and serializes it once. Otherwise
    (a pipeline of yours placed before them) nothing is run early: empty.
    """
    from scrapy.pipelines.media import MediaPipeline

    classes = _pipeline_classes(crawler)
    soup = [i for i, c in enumerate(classes) if _is_soup(c)]
    if not soup:
        return []
    for c in classes[: soup[-1]]:
        if not (_is_soup(c) or (isinstance(c, type) and issubclass(c, MediaPipeline))):
            return []
    return [classes[i].from_crawler(crawler) for i in soup]


class _HtmlFieldPipeline:
    """Find the HTML values of each item and run :meth:`transform` on each one."""

    #: Whether :meth:`transform` uses the base URL (warn once when unknown).
    needs_base_url = False

    def __init__(self, crawler: Crawler) -> None:
        # Raises NotConfigured when SOUP_ENABLED is off or a setting is wrong.
        self._config = crawler_config(crawler)
        self.crawler = crawler
        self._fields_seen = FieldsSeen.of(crawler, self._config)
        self._stats = crawler.stats
        self._origins = ItemOrigins.of(crawler)
        self._final, self._next_is_soup = self._place_in(crawler)
        # item class -> names of its HTML fields (settings + field metadata)
        self._marked: dict[type, tuple[str, ...]] = {}
        # item class -> its fields exported as text or Markdown
        self._formats: dict[type, dict[str, str]] = {}
        self._warned_no_base = False
        self._failures = FieldFailures(crawler.stats, type(self).__name__)
        self._instead = (
            "nothing, the item is dropped (SOUP_DROP_FAILED_ITEMS)"
            if self._config.drop_failed_items
            else "its text, escaped"
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _place_in(self, crawler: Crawler) -> tuple[bool, bool]:
        """Tell whether this is the last scrapy_soup pipeline, and whether the
        very next pipeline is one (then a value's tree is handed over and no
        ``str`` written in between, as nothing else can read it)."""
        classes = _pipeline_classes(crawler)
        mine = [i for i, c in enumerate(classes) if c is type(self)]
        if not mine:  # built by hand, not through ITEM_PIPELINES
            return True, False
        later = classes[mine[-1] + 1 :]
        return not any(_is_soup(c) for c in later), bool(later) and _is_soup(later[0])

    # -- what the concrete pipelines provide --------------------------------
    def transform(self, fragment: Soup, base_url: str | None) -> dict[str, int]:
        """Change ``fragment`` in place; return the counts to add to the stats."""
        raise NotImplementedError

    def plain_text(self, text: str) -> tuple[str, dict[str, int]]:
        """What becomes of a value holding no markup; the counts for the stats."""
        return text, {}

    def finish(self, fragment: Soup) -> str:
        """The value's final ``str`` (this is the last scrapy_soup pipeline)."""
        return fragment_html(fragment)

    def finish_as(self, fragment: Soup, fmt: str | None) -> str:
        """The value's final ``str``: HTML (`finish`), or converted to ``fmt``
        (``"text"``, ``"markdown"``) from the tree, with no second parse."""
        if fmt is None:
            return self.finish(fragment)
        return convert(fragment, fmt)

    # -- item handling -------------------------------------------------------
    def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        # ``spider`` is optional: Scrapy < 2.14 passes it, later ones do not.
        self._fields_seen.add(item)
        html_names = html_field_names(item, self._config.markup_fields, self._marked)
        markup = self._origins.markup(item)
        # What SoupSpiderMiddleware did for the callback's items, done again
        # for soup objects put into the item since (or without the middleware).
        converted = convert_item(item, html_names)
        if converted is not None:
            for path, exc in converted.failed:
                self._failures.report(path, exc, "None")
            if converted.markup:
                markup = {**(markup or {}), **converted.markup}
        fields: Any = item if type(item) is dict else ItemAdapter(item)
        by_field: dict[str, list[FieldPath]] = {}
        for path in markup or ():
            if path[0] not in html_names:
                by_field.setdefault(path[0], []).append(path[1:])
        names = [n for n in html_names if n in fields]
        names.extend(n for n in by_field if n not in names and n in fields)
        # The spider middleware could not process a Tag of this item.
        if self._config.drop_failed_items and self._origins.failed(item):
            raise DropItem(f"{type(self).__name__}: could not process fields")
        if not names:
            return item
        config = self._config
        formats = field_formats(
            item, config.text_fields, config.markdown_fields, self._formats
        )
        work = _ItemWork(self._base_url_of(item, fields), markup, formats)
        for name in names:
            value = fields.get(name)
            if value is None:
                continue
            rests = None if name in html_names else by_field[name]
            new = self._at(value, (name,), rests, work)
            if new is not value:
                set_field(item, name, new)
        for key, count in work.totals.items():
            if count:
                self._inc(key, count)
        if not self._final:
            # Paths not handed over still hold markup for the next pipeline,
            # which parses them again.
            handed = work.new_markup
            for path, recorded in work.markup.items():
                if path not in handed:
                    handed[path] = (
                        recorded if recorded.done else Markup(None, None, recorded.doc)
                    )
            self._origins.set_markup(item, handed)
        logger.debug(
            "%s: fields %s, base URL %s, %s",
            type(self).__name__,
            names,
            work.base_url,
            ", ".join(f"{k} {v}" for k, v in sorted(work.totals.items()))
            or "no changes",
        )
        if work.failed and self._config.drop_failed_items:
            raise DropItem(f"{type(self).__name__}: could not process fields")
        return item

    def _inc(self, key: str, count: int = 1) -> None:
        if self._stats is not None:
            self._stats.inc_value(key, count)

    def _base_url_of(self, item: Any, fields: Any) -> str | None:
        origin = self._origins.get(item)
        if origin is not None:
            return origin.base_url
        name = self._config.url_field
        if name is not None:
            value = fields.get(name)
            if isinstance(value, str) and value:
                return value
        return None

    # -- walking values ------------------------------------------------------
    def _at(
        self,
        value: Any,
        path: FieldPath,
        rests: list[FieldPath] | None,
        work: _ItemWork,
    ) -> Any:
        """Process the markup at ``rests`` below ``value`` (all of it if None)."""
        if rests is None or () in rests:
            return self._all(value, path, work)
        children: dict[Any, list[FieldPath]] = {}
        for rest in rests:
            children.setdefault(rest[0], []).append(rest[1:])
        if isinstance(value, (list, tuple)):
            items = list(value)
            for key, sub in children.items():
                if isinstance(key, int) and -len(items) <= key < len(items):
                    items[key] = self._at(items[key], (*path, key), sub, work)
            return same_sequence(value, items)
        if is_item_type(value):
            adapter = ItemAdapter(value)
            for key, sub in children.items():
                if key in adapter:
                    child = adapter[key]
                    new = self._at(child, (*path, key), sub, work)
                    if new is not child:
                        set_field(value, key, new)
            return value
        if isinstance(value, Mapping):
            out = dict(value)
            for key, sub in children.items():
                if key in out:
                    out[key] = self._at(out[key], (*path, key), sub, work)
            return out
        # Changed since it was recorded (by another pipeline): the value is
        # no longer where the markup was; nothing to do there.
        return value

    def _all(self, value: Any, path: FieldPath, work: _ItemWork) -> Any:
        """Process every string in ``value``: each one is HTML."""
        try:
            return self._all_or_fail(value, path, work)
        except _Failed as failed:
            work.failed = True
            self._failures.report(path, failed.exc, self._instead)
            return failed.escaped

    def _all_or_fail(self, value: Any, path: FieldPath, work: _ItemWork) -> Any:
        if isinstance(value, str):
            if type(value) is not str:
                value = str.__str__(value)
            return self._html(value, path, work)
        if isinstance(value, (bytes, bytearray)):
            try:
                text = decode_html(bytes(value))
            except Exception as exc:
                raise _Failed(
                    exc, escape_text(bytes(value).decode("utf-8", "replace"))
                ) from exc
            return self._html(text, path, work)
        if isinstance(value, _NO_MARKUP):
            return value
        if isinstance(value, (list, tuple)):
            items = [self._all(v, (*path, i), work) for i, v in enumerate(value)]
            return same_sequence(value, items)
        if isinstance(value, (set, frozenset)):
            items = [self._all(v, path, work) for v in value]
            return frozenset(items) if isinstance(value, frozenset) else set(items)
        if is_item_type(value):
            adapter = ItemAdapter(value)
            for key, child in list(adapter.items()):
                new = self._all(child, (*path, key), work)
                if new is not child:
                    set_field(value, key, new)
            return value
        if isinstance(value, Mapping):
            return {k: self._all(v, (*path, k), work) for k, v in value.items()}
        # Neither text nor a container of text: never exported as it came.
        error = TypeError(f"an HTML field holds a {type(value).__name__}")
        try:
            escaped: Any = escape_text(str(value))
        except Exception:
            escaped = None
        raise _Failed(error, escaped)

    def _html(self, text: str, path: FieldPath, work: _ItemWork) -> str:
        """Run :meth:`transform` on one HTML string; return what replaces it."""
        recorded = work.markup.get(path)
        base_url = work.base_url
        fragment: Soup | None = None
        if recorded is not None and recorded.text is text and recorded.done:
            # Made absolute and clean by the spider middleware already.
            work.new_markup[path] = recorded
            return text
        if recorded is not None and recorded.text is text:
            fragment = recorded.fragment
            own_base = getattr(recorded.doc, "base_url", None)
            if own_base:
                # A soup object keeps its own document's base URL.
                base_url = own_base
        fmt = work.formats.get(path[0]) if work.formats else None
        if fragment is None and fmt is None and "<" not in text:
            # No markup: nothing to rewrite or clean, and parsing would
            # only re-escape the text ("AT&T" -> "AT&amp;T"); but it goes to
            # the feed as it is, so the characters no feed can hold go.
            text, counts = self.plain_text(text)
            for key, count in counts.items():
                work.totals[key] = work.totals.get(key, 0) + count
            return text
        try:
            if fragment is None:
                fragment = fragment_of_markup(text)
            if fmt == "markdown":
                remember_code_languages(fragment)
            if base_url is None and self.needs_base_url and not self._warned_no_base:
                self._warned_no_base = True
                logger.warning(
                    "%s: no page URL known for an item; enable SoupSpiderMiddleware "
                    "or set SOUP_URL_FIELD so that relative links can be resolved",
                    type(self).__name__,
                )
            for key, count in self.transform(fragment, base_url).items():
                work.totals[key] = work.totals.get(key, 0) + count
            if self._final:
                return self.finish_as(fragment, fmt)
            # Hand the tree on: the next scrapy_soup pipeline uses it when the
            # value is still this very str.
            out = text if self._next_is_soup else fragment_html(fragment)
        except Exception as exc:
            raise _Failed(exc, escape_text(text)) from exc
        doc = recorded.doc if recorded is not None else None
        work.new_markup[path] = Markup(out, fragment, doc)
        return out


class AbsoluteLinksPipeline(_HtmlFieldPipeline):
    """Rewrite every URL in HTML fields to an absolute one.

    The base is the item's page (its first ``<base href>``, else its URL) as
    recorded by :class:`~scrapy_soup.SoupSpiderMiddleware`, or a soup object's
    own document. ``SOUP_LINKS_EXTRA_ATTRIBUTES`` adds attributes such as the
    lazy-loading ``data-src``. Counts ``soup/links_absolutized``.
    """

    needs_base_url = True

    def transform(self, fragment: Soup, base_url: str | None) -> dict[str, int]:
        if base_url is None:
            return {}
        count = absolutize(fragment, base_url, self._config.links_extra_attributes)
        return {LINKS_ABSOLUTIZED: count}


class CleanHtmlPipeline(_HtmlFieldPipeline):
    """Remove unwanted elements and attributes from HTML fields.

    The policy is ``SOUP_CLEAN_POLICY`` (a preset name or a ``CleanPolicy``)
    adjusted by the ``SOUP_CLEAN_*`` settings. Counts
    ``soup/attributes_removed`` and ``soup/elements_removed``.
    """

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self._policy = self._config.policy

    def transform(self, fragment: Soup, base_url: str | None) -> dict[str, int]:
        return clean(fragment, self._policy)

    def plain_text(self, text: str) -> tuple[str, dict[str, int]]:
        return clean_text(text)

    def finish(self, fragment: Soup) -> str:
        # What is exported must be what ``clean()`` returns for a string: a
        # fixpoint that parses back to a tree the policy accepts. Removing
        # and unwrapping can leave trees the HTML parser rebuilds differently
        # from their serialization; ``clean()`` re-cleans until stable (one
        # more round here, as the tree is already clean).
        return clean_markup(fragment_html(fragment), self._policy)
