"""The one path an item's fields take through scrapy_soup.

:class:`ItemPath` (one per crawler, :meth:`ItemPath.of`) owns what happens to
an item's fields: finding its HTML fields (``SOUP_HTML_FIELDS``,
``SOUP_TEXT_FIELDS``, ``SOUP_MARKDOWN_FIELDS``, ``SOUP_MAIN_CONTENT_FIELDS``,
field metadata, values that held soup Tags), converting soup objects to
plain data, taking a page's main content (the first step for a
main-content field: only the article goes on), making links absolute,
cleaning, converting to text or Markdown, and counting failures.
The spider middleware calls :meth:`ItemPath.from_callback` and each pipeline
:meth:`ItemPath.process` with its own :class:`Stage`; neither builds the other
or reads its state.

Fail closed: a value that cannot be processed is never exported as it came.
Its text is escaped (it reads as the same text and holds no markup) or, with
``SOUP_DROP_FAILED_ITEMS``, the item is dropped; either way it is counted in
``soup/fields_failed`` and logged once per field. Wherever the path turns a
soup object or a declared field into plain data it also makes it absolute
and clean: with no scrapy_soup pipeline enabled, the spider middleware runs
both stages itself.
"""

from __future__ import annotations

import functools
import logging
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from w3lib.encoding import html_to_unicode

from scrapy_soup._scrapy._bridge import (
    absolutize,
    absolutize_document,
    clean,
    clean_markup,
    clean_text,
    container_of,
    convert,
    fragment_html,
    fragment_of_markup,
    is_document,
    remember_code_languages,
)
from scrapy_soup._scrapy._checks import crawler_config
from scrapy_soup._scrapy._fields_seen import FieldsSeen
from scrapy_soup._scrapy._main_content import extract, fill_metadata, is_page
from scrapy_soup._scrapy._origins import ItemOrigins, Origin
from scrapy_soup._scrapy._plain import (
    FieldFailures,
    FieldPath,
    Markup,
    convert_item,
    escape_text,
    field_formats,
    html_field_names,
    is_item_type,
    main_content_names,
    same_sequence,
    set_field,
)
from scrapy_soup._scrapy._setup import CLEAN, LINKS, Setup
from scrapy_soup._scrapy._stats import LINKS_ABSOLUTIZED, MAIN_CONTENT_EMPTY

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from scrapy_soup._scrapy._config import Config
    from scrapy_soup._tree._soup import Soup

__all__ = ["CleanStage", "ItemPath", "LinksStage", "NoBaseUrl", "Stage", "decode_html"]

logger = logging.getLogger(__name__)

#: Values that cannot hold markup: kept as they are in an HTML field.
_NO_MARKUP = (bool, int, float, type(None))

#: A relative link with no page URL resolves against this, only to be found.
_NO_BASE = "http://scrapy-soup.invalid/"


def decode_html(data: bytes) -> str:
    """Decode an HTML field given as bytes: its BOM or ``<meta charset>``, else UTF-8.

    As w3lib (and so Scrapy) decodes a response body without a
    Content-Type header; undecodable bytes become U+FFFD.
    """
    return html_to_unicode(None, data)[1]


class NoBaseUrl(ValueError):
    """A value holds relative links and no page URL is known to resolve them."""


class Stage:
    """One step of the path: what it does to a value's tree."""

    def transform(
        self, fragment: Soup, base_url: str | None, encoding: str | None
    ) -> dict[str, int]:
        """Change ``fragment`` in place; return the counts to add to the stats."""
        raise NotImplementedError

    def plain_text(self, text: str) -> tuple[str, dict[str, int]]:
        """What becomes of a value holding no markup; the counts for the stats."""
        return text, {}

    def finish(self, fragment: Soup) -> str:
        """The value's final ``str`` when this is the last stage."""
        return fragment_html(fragment)

    def document(self, text: str, base_url: str | None, encoding: str | None) -> str:
        """A whole document string done by this stage (no fragment can hold
        its ``<html>``, ``<head>`` and ``<body>``)."""
        raise NotImplementedError


class LinksStage(Stage):
    """Make every URL absolute against the item's base URL."""

    def __init__(self, config: Config) -> None:
        self._extra = config.links_extra_attributes

    def transform(
        self, fragment: Soup, base_url: str | None, encoding: str | None
    ) -> dict[str, int]:
        if base_url is None:
            # Fail closed: a relative link must not leave as it is.
            if absolutize(fragment, _NO_BASE, self._extra, None):
                raise NoBaseUrl(
                    "relative links and no page URL to resolve them against: "
                    "enable SoupSpiderMiddleware or set SOUP_URL_FIELD"
                )
            return {}
        count = absolutize(fragment, base_url, self._extra, encoding)
        return {LINKS_ABSOLUTIZED: count}

    def document(self, text: str, base_url: str | None, encoding: str | None) -> str:
        if base_url is None:
            # As transform(): fails if the document holds a relative link.
            self.transform(fragment_of_markup(text), None, None)
            return text
        return absolutize_document(text, base_url, self._extra, encoding)


class CleanStage(Stage):
    """Remove what the cleaning policy does not keep."""

    def __init__(self, config: Config) -> None:
        self._policy = config.policy

    def transform(
        self, fragment: Soup, base_url: str | None, encoding: str | None
    ) -> dict[str, int]:
        return clean(fragment, self._policy)

    def plain_text(self, text: str) -> tuple[str, dict[str, int]]:
        return clean_text(text)

    def finish(self, fragment: Soup) -> str:
        # What is exported must be what ``clean()`` returns for a string: a
        # fixpoint that parses back to a tree the policy accepts (one more
        # round here, as the tree is already clean).
        return clean_markup(fragment_html(fragment), self._policy)

    def document(self, text: str, base_url: str | None, encoding: str | None) -> str:
        return clean_markup(text, self._policy)


def _finish_as(stage: Stage, fragment: Soup, fmt: str | None) -> str:
    """The value's final ``str``: HTML, or ``fmt`` (``"text"``, ``"markdown"``)
    from the tree, with no second parse."""
    if fmt is None:
        return stage.finish(fragment)
    return convert(fragment, fmt)


class _Failed(Exception):
    """A value in an HTML field failed; its escaped text replaces it."""

    def __init__(self, exc: BaseException, escaped: Any) -> None:
        super().__init__(str(exc))
        self.exc = exc
        self.escaped = escaped


class _ItemWork:
    """One item on its way through one component."""

    __slots__ = (
        "base_url",
        "encoding",
        "failed",
        "failures",
        "formats",
        "main",
        "markup",
        "metadata",
        "new_markup",
        "origin",
        "stages",
        "totals",
    )

    def __init__(
        self,
        stages: tuple[Stage, ...],
        failures: FieldFailures,
        origin: Origin | None,
        base_url: str | None,
        markup: dict[FieldPath, Markup] | None,
        formats: dict[str, str],
        main: tuple[str, ...] = (),
    ) -> None:
        self.stages = stages
        self.failures = failures
        self.origin = origin
        self.base_url = base_url
        self.encoding = origin.encoding if origin is not None else None
        self.markup = markup or {}
        #: field name -> "text" or "markdown", for fields not exported as HTML
        self.formats = formats
        #: fields holding a page, exported as its main content
        self.main = main
        #: the metadata of the pages read (``SOUP_MAIN_CONTENT_METADATA``)
        self.metadata: list[dict[str, Any]] = []
        #: what this component hands the next one
        self.new_markup: dict[FieldPath, Markup] = {}
        self.totals: dict[str, int] = {}
        self.failed = False


class ItemPath:
    """What happens to the fields of one crawler's items (one per crawler)."""

    def __init__(self, crawler: Crawler, config: Config) -> None:
        self.config = config
        self.setup = Setup.of(crawler)
        self._fields_seen = FieldsSeen.of(crawler, config)
        self._stats = crawler.stats
        self.origins = ItemOrigins.of(crawler)
        self.stage = {LINKS: LinksStage(config), CLEAN: CleanStage(config)}
        # item class -> names of its HTML fields (settings + field metadata)
        self._marked: dict[type, tuple[str, ...]] = {}
        # item class -> its fields exported as text or Markdown
        self._formats: dict[type, dict[str, str]] = {}
        # item class -> its fields holding a page, exported as its main content
        self._main: dict[type, tuple[str, ...]] = {}
        self._failures: dict[str, FieldFailures] = {}
        self.instead = (
            "nothing, the item is dropped (SOUP_DROP_FAILED_ITEMS)"
            if config.drop_failed_items
            else "its text, escaped"
        )
        # What the spider middleware does on a callback's items.
        early = self.setup.early_stages()
        if not self.setup.has_pipelines:
            # No pipeline of ours will see the items: do all of it here.
            early = [LINKS, CLEAN]
        self._early = tuple(self.stage[s] for s in early)
        self._all_early = not self.setup.has_pipelines

    @classmethod
    def of(cls, crawler: Crawler) -> ItemPath:
        """The item path of ``crawler`` (raises NotConfigured as `crawler_config`)."""
        config = crawler_config(crawler)
        path = _by_crawler.get(crawler)
        if path is None:
            path = _by_crawler[crawler] = cls(crawler, config)
        return path

    def failures(self, who: str) -> FieldFailures:
        """The failure counter and log of component ``who``."""
        failures = self._failures.get(who)
        if failures is None:
            failures = self._failures[who] = FieldFailures(self._stats, who)
        return failures

    def _inc(self, totals: dict[str, int]) -> None:
        if self._stats is not None:
            for key, count in totals.items():
                if count:
                    self._stats.inc_value(key, count)

    # -- the spider middleware's part -----------------------------------------
    def from_callback(self, item: Any, origin: Origin | None, who: str) -> bool:
        """Make a callback's item plain data and record where it came from.

        Soup objects become plain data, their copies made absolute and clean
        here when the pipelines would do nothing else first; with no
        scrapy_soup pipeline, the declared HTML fields are processed here too.
        Returns False when the item must be dropped (``SOUP_DROP_FAILED_ITEMS``).
        """
        self._fields_seen.add(item)
        config = self.config
        failures = self.failures(who)
        names = html_field_names(item, config.markup_fields, self._marked)
        formats = field_formats(
            item, config.text_fields, config.markdown_fields, self._formats
        )
        # No base URL read yet: a Tag's own document has one, and finding a
        # page's <base> can walk its whole tree.
        main = main_content_names(item, config.main_content_fields, self._main)
        work = _ItemWork(self._early, failures, origin, None, None, formats, main)
        pages = None
        try:
            process = None
            if self._early:
                process = functools.partial(self._process_tag, work)
            if main:
                pages = self._take_pages(item, work, process)
            converted = convert_item(item, names, process)
        except Exception:
            # Not expected (each value's failure is caught where it happens).
            logger.exception("Could not convert the soup objects of an item")
            converted = None
        markup = pages or None
        if converted is not None:
            for path, exc in converted.failed:
                failures.report(path, exc, "None")
            if converted.markup:
                markup = {**(markup or {}), **converted.markup}
        if origin is not None or markup is not None or work.failed:
            # A start item has no page, but its markup is known.
            self.origins.record(item, origin, markup, work.failed)
        if origin is not None and config.url_field is not None:
            self._set_url_field(item, origin)
        if self._all_early:
            ok = self._process(item, self._early, True, False, failures, origin)
            return ok and not (work.failed and config.drop_failed_items)
        # The first pipeline drops it (recorded as failed).
        return True

    def _process_tag(
        self, work: _ItemWork, fragment: Soup, tag: Any, path: FieldPath
    ) -> str:
        """The stages' work on a Tag's copy; the value's final str.

        With the same stats and the same fail-closed rule as on a string: a
        copy that cannot be processed gives the Tag's text, escaped.
        """
        base_url = getattr(tag._doc, "base_url", None) or work.base_url
        if base_url is None and work.origin is not None:
            base_url = work.base_url = work.origin.base_url
        fmt = work.formats.get(path[0])
        try:
            if fmt == "markdown":
                remember_code_languages(fragment)
            for stage in work.stages:
                self._inc(stage.transform(fragment, base_url, work.encoding))
            return _finish_as(work.stages[-1], fragment, fmt)
        except Exception as exc:
            work.failed = True
            work.failures.report(path, exc, self.instead)
            try:
                return escape_text(str(tag))
            except Exception:
                return ""

    def _take_pages(
        self, item: Any, work: _ItemWork, process: Any
    ) -> dict[FieldPath, Markup]:
        """Main-content fields holding a page object (a response, a soup):
        each becomes its main content, read on the page's own tree.

        With ``process`` (the spider middleware runs the stages), the content
        leaves here as its final ``str``; otherwise as its HTML, its tree
        handed to the pipelines beside the item. Returns the markup recorded.
        """
        fields: Any = item if type(item) is dict else ItemAdapter(item)
        found: dict[FieldPath, Markup] = {}
        for name in work.main:
            value = fields.get(name)
            if not is_page(value):
                continue
            path = (name,)
            base_url = work.base_url
            if base_url is None and work.origin is not None:
                base_url = work.origin.base_url
            try:
                fragment = self._page_content(value, base_url, work)
                if process is not None:
                    text = process(fragment, fragment, path)
                    found[path] = Markup(text, None, None, done=True)
                else:
                    text = fragment_html(fragment)
                    # Its base URL goes with it (the page's own).
                    found[path] = Markup(text, fragment, fragment)
            except Exception as exc:
                work.failed = True
                work.failures.report(path, exc, self.instead)
                text = escape_text(_page_text(value))
                found[path] = Markup(text, None, None, done=True)
            set_field(item, name, text)
        for meta in work.metadata:
            fill_metadata(item, meta)
        work.metadata.clear()
        return found

    def _page_content(self, page: Any, base_url: str | None, work: _ItemWork) -> Soup:
        """The main content of ``page`` as a working tree; its metadata kept in
        ``work`` when the item is to have it."""
        fragment, meta = extract(page, base_url, self.config.main_content_metadata)
        if meta is not None:
            work.metadata.append(meta)
        if not len(container_of(fragment)):
            self._inc({MAIN_CONTENT_EMPTY: 1})
        return fragment

    _warned_url_field: set[type] | None = None

    def _set_url_field(self, item: Any, origin: Origin) -> None:
        name = self.config.url_field
        assert name is not None
        adapter = ItemAdapter(item)
        if adapter.get(name):
            return
        try:
            adapter[name] = origin.url
        except (KeyError, TypeError, AttributeError) as exc:
            # e.g. a scrapy.Item class that does not declare the field.
            warned = self._warned_url_field
            if warned is None:
                warned = self._warned_url_field = set()
            item_type = type(item)
            if item_type not in warned:
                warned.add(item_type)
                logger.warning(
                    "SOUP_URL_FIELD: cannot set field %r on %s items: %s",
                    name,
                    item_type.__name__,
                    exc,
                )

    # -- the pipelines' part ------------------------------------------------
    def process(self, item: Any, stage: str, cls: type) -> bool:
        """Run ``stage`` on the HTML values of ``item`` for pipeline ``cls``.

        Returns False when the item must be dropped (``SOUP_DROP_FAILED_ITEMS``).
        """
        final, next_is_soup = self.setup.place_of(cls)
        self._fields_seen.add(item)
        failures = self.failures(cls.__name__)
        # The spider middleware could not process a Tag of this item.
        failed_before = self.config.drop_failed_items and self.origins.failed(item)
        ok = self._process(
            item,
            (self.stage[stage],),
            final,
            next_is_soup,
            failures,
            self.origins.get(item),
        )
        return ok and not failed_before

    def _process(
        self,
        item: Any,
        stages: tuple[Stage, ...],
        final: bool,
        next_is_soup: bool,
        failures: FieldFailures,
        origin: Origin | None,
    ) -> bool:
        config = self.config
        html_names = html_field_names(item, config.markup_fields, self._marked)
        markup = self.origins.markup(item)
        fields: Any = item if type(item) is dict else ItemAdapter(item)
        main = main_content_names(item, config.main_content_fields, self._main)
        formats = field_formats(
            item, config.text_fields, config.markdown_fields, self._formats
        )
        base_url = self._base_url_of(origin, fields)
        work = _ItemWork(stages, failures, origin, base_url, markup, formats, main)
        if main:
            # A page object put into the item since the callback (or without
            # the spider middleware) is read on its own tree.
            pages = self._take_pages(item, work, None)
            if pages:
                markup = work.markup = {**(markup or {}), **pages}
        # Soup objects put into the item since the callback (or without the
        # spider middleware) become plain data first.
        converted = convert_item(item, html_names)
        if converted is not None:
            for path, exc in converted.failed:
                failures.report(path, exc, "None")
            if converted.markup:
                markup = work.markup = {**(markup or {}), **converted.markup}
        by_field: dict[str, list[FieldPath]] = {}
        for path in markup or ():
            if path[0] not in html_names:
                by_field.setdefault(path[0], []).append(path[1:])
        names = [n for n in html_names if n in fields]
        names.extend(n for n in by_field if n not in names and n in fields)
        if not names:
            return not (work.failed and config.drop_failed_items)
        for name in names:
            value = fields.get(name)
            if value is None:
                continue
            rests = None if name in html_names else by_field[name]
            new = self._at(value, (name,), rests, work, final, next_is_soup)
            if new is not value:
                set_field(item, name, new)
        for meta in work.metadata:
            fill_metadata(item, meta)
        self._inc(work.totals)
        if not final:
            # Paths not handed over still hold markup for the next pipeline,
            # which parses them again.
            handed = work.new_markup
            for path, recorded in work.markup.items():
                if path not in handed:
                    handed[path] = (
                        recorded if recorded.done else Markup(None, None, recorded.doc)
                    )
            self.origins.set_markup(item, handed)
        return not (work.failed and config.drop_failed_items)

    def _base_url_of(self, origin: Origin | None, fields: Any) -> str | None:
        if origin is not None:
            return origin.base_url
        name = self.config.url_field
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
        final: bool,
        next_is_soup: bool,
    ) -> Any:
        """Process the markup at ``rests`` below ``value`` (all of it if None)."""
        if rests is None or () in rests:
            return self._all(value, path, work, final, next_is_soup)
        children: dict[Any, list[FieldPath]] = {}
        for rest in rests:
            children.setdefault(rest[0], []).append(rest[1:])
        at = functools.partial(
            self._at, work=work, final=final, next_is_soup=next_is_soup
        )
        if isinstance(value, (list, tuple)):
            items = list(value)
            for key, sub in children.items():
                if isinstance(key, int) and -len(items) <= key < len(items):
                    items[key] = at(items[key], (*path, key), sub)
            return same_sequence(value, items)
        if is_item_type(value):
            adapter = ItemAdapter(value)
            for key, sub in children.items():
                if key in adapter:
                    child = adapter[key]
                    new = at(child, (*path, key), sub)
                    if new is not child:
                        set_field(value, key, new)
            return value
        if isinstance(value, Mapping):
            out = dict(value)
            for key, sub in children.items():
                if key in out:
                    out[key] = at(out[key], (*path, key), sub)
            return out
        # Changed since it was recorded (by another pipeline): the value is
        # no longer where the markup was; nothing to do there.
        return value

    def _all(
        self, value: Any, path: FieldPath, work: _ItemWork, final: bool, nxt: bool
    ) -> Any:
        """Process every string in ``value``: each one is HTML."""
        try:
            return self._all_or_fail(value, path, work, final, nxt)
        except _Failed as failed:
            work.failed = True
            work.failures.report(path, failed.exc, self.instead)
            if isinstance(failed.escaped, str):
                # Final: a later stage must not read the escaped text as
                # markup (a text field would give the markup back as text).
                work.new_markup[path] = Markup(failed.escaped, None, None, done=True)
            return failed.escaped

    def _all_or_fail(
        self, value: Any, path: FieldPath, work: _ItemWork, final: bool, nxt: bool
    ) -> Any:
        if isinstance(value, str):
            if type(value) is not str:
                value = str.__str__(value)
            return self._html(value, path, work, final, nxt)
        if isinstance(value, (bytes, bytearray)):
            try:
                text = decode_html(bytes(value))
            except Exception as exc:
                raise _Failed(
                    exc, escape_text(bytes(value).decode("utf-8", "replace"))
                ) from exc
            return self._html(text, path, work, final, nxt)
        if isinstance(value, _NO_MARKUP):
            return value
        if isinstance(value, (list, tuple)):
            items = [
                self._all(v, (*path, i), work, final, nxt) for i, v in enumerate(value)
            ]
            return same_sequence(value, items)
        if isinstance(value, (set, frozenset)):
            items = [self._all(v, path, work, final, nxt) for v in value]
            return frozenset(items) if isinstance(value, frozenset) else set(items)
        if is_item_type(value):
            adapter = ItemAdapter(value)
            for key, child in list(adapter.items()):
                new = self._all(child, (*path, key), work, final, nxt)
                if new is not child:
                    set_field(value, key, new)
            return value
        if isinstance(value, Mapping):
            return {
                k: self._all(v, (*path, k), work, final, nxt) for k, v in value.items()
            }
        # Neither text nor a container of text: never exported as it came.
        error = TypeError(f"an HTML field holds a {type(value).__name__}")
        try:
            escaped: Any = escape_text(str(value))
        except Exception:
            escaped = None
        raise _Failed(error, escaped)

    def _html(
        self, text: str, path: FieldPath, work: _ItemWork, final: bool, nxt: bool
    ) -> str:
        """Run the stages on one HTML string; return what replaces it."""
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
        main = path[0] in work.main
        if fragment is None and main:
            # A page: its main content is what the stages work on.
            try:
                fragment = self._page_content(text, base_url, work)
            except Exception as exc:
                raise _Failed(exc, escape_text(text)) from exc
        if fragment is None and fmt is None and "<" not in text:
            # No markup: nothing to rewrite or clean, and parsing would
            # only re-escape the text ("AT&T" -> "AT&amp;T"); but it goes to
            # the feed as it is, so the characters no feed can hold go.
            for stage in work.stages:
                text, counts = stage.plain_text(text)
                for key, count in counts.items():
                    work.totals[key] = work.totals.get(key, 0) + count
            return text
        try:
            if fragment is None and fmt is None and is_document(text):
                # Kept whole, as clean() keeps a document string; serialized
                # by each stage (a whole document field is rare).
                for stage in work.stages:
                    text = stage.document(text, base_url, work.encoding)
                return text
            if fragment is None:
                fragment = fragment_of_markup(text)
            if fmt == "markdown":
                remember_code_languages(fragment)
            for stage in work.stages:
                counts = stage.transform(fragment, base_url, work.encoding)
                for key, count in counts.items():
                    work.totals[key] = work.totals.get(key, 0) + count
            if final:
                return _finish_as(work.stages[-1], fragment, fmt)
            # Hand the tree on: the next scrapy_soup pipeline uses it when the
            # value is still this very str.
            out = text if nxt else fragment_html(fragment)
        except Exception as exc:
            raise _Failed(exc, escape_text(text)) from exc
        doc = recorded.doc if recorded is not None else None
        work.new_markup[path] = Markup(out, fragment, doc)
        return out


def _page_text(page: Any) -> str:
    """A page object's markup as it came, to be escaped when it failed."""
    from scrapy.http import Response, TextResponse

    if isinstance(page, TextResponse):
        return page.text
    if isinstance(page, Response):
        return page.body.decode("utf-8", "replace")
    return str(page)


_by_crawler: weakref.WeakKeyDictionary[Crawler, ItemPath] = weakref.WeakKeyDictionary()
