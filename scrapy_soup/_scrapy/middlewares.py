"""The downloader middleware that gives responses ``.soup``, and the spider
middleware that turns items into plain data and remembers where they came from.
"""

from __future__ import annotations

import functools
import logging
import weakref
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.http import Response, TextResponse, XmlResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.response import get_base_url

from scrapy_soup._scrapy._bridge import remember_code_languages
from scrapy_soup._scrapy._checks import FieldsSeen, crawler_config
from scrapy_soup._scrapy._origins import ItemOrigins, Origin
from scrapy_soup._scrapy._parser import choose_parser
from scrapy_soup._scrapy._plain import (
    FieldFailures,
    FieldPath,
    convert_item,
    escape_text,
    field_formats,
    html_field_names,
)
from scrapy_soup._scrapy.pipelines import early_stages
from scrapy_soup._scrapy.responses import (
    _base_url_in,
    built_soup,
    hand_on,
    parsed_root,
)

if TYPE_CHECKING:
    # typing.Self requires Python 3.11
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

    from scrapy_soup._tree._soup import Soup

__all__ = ["SoupDownloaderMiddleware", "SoupSpiderMiddleware"]

logger = logging.getLogger(__name__)

#: Request meta key: ``False`` keeps that request's response a plain one.
META_KEY = "soup"


class SoupDownloaderMiddleware:
    """Hand on HTML/XML responses with a ``.soup`` (recommended order 45).

    Its ``process_response()`` runs after HttpCompressionMiddleware (590) and
    HttpCacheMiddleware (900), which create new response objects; so the HTTP
    cache always stores the plain class. Exact ``HtmlResponse`` and
    ``XmlResponse`` become ``SoupHtmlResponse``/``SoupXmlResponse`` (and
    ``TextResponse`` bodies that look like HTML when ``SOUP_SNIFF_HTML`` is
    on); other plugins' response classes whose ``.css()`` works (scrapy-zyte-api's,
    scrapy-splash's) become their soup subclass
    (:func:`~scrapy_soup._scrapy.responses.soup_class`). The response object
    itself is handed on, now of that class: nothing is copied. Non-text and
    JSON responses pass untouched, and so does a request's response with
    ``meta["soup"] = False``. Scrapy's classes are never changed: a crawler
    without this middleware gets Scrapy's responses as they are.
    """

    def __init__(self, crawler: Crawler) -> None:
        # Raises NotConfigured when SOUP_ENABLED is off or a setting is wrong.
        self._config = crawler_config(crawler)
        self._stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        # ``spider`` is optional: Scrapy < 2.14 passes it, later ones do not.
        if request.meta.get(META_KEY, True) is False:
            return response
        wrapped = hand_on(response, self._stats, self._config.sniff_html)
        choose_parser(wrapped, request.meta, self._config.parser)
        return wrapped


def _soup_base_url(soup: Soup, url: str) -> str:
    return soup.base_url or url


def response_origin(response: Response) -> Origin:
    """Return the page URL and base URL that HTML scraped from ``response`` has.

    When the callback parsed the page, the base URL is read from its tree on
    first use (the look-up for ``<base>`` can walk the whole tree, ~0.1 ms a
    page in a crawl, and most items have no HTML field that needs it). The
    origin holds the tree, never the response: ``_by_response`` is keyed by
    the response weakly.
    """
    url = response.url
    soup = built_soup(response)
    if soup is not None:
        return Origin(url, functools.partial(_soup_base_url, soup, url))
    if not isinstance(response, TextResponse) or isinstance(response, XmlResponse):
        return Origin(url, url)
    root = parsed_root(response)
    if root is not None:
        # The callback parsed the page already: read <base> from the tree.
        return Origin(
            url, functools.partial(_base_url_in, root, url, response.encoding)
        )
    # Not parsed: do not parse the page only for this, scan its first 4 KiB as
    # Scrapy's own urljoin() does.
    try:
        return Origin(url, get_base_url(response))
    except ValueError:
        return Origin(url, url)


class SoupSpiderMiddleware(BaseSpiderMiddleware):
    """Make each item a callback yields plain data; record where it came from.

    Every soup object in the item, at any depth, becomes plain Python data
    (:func:`~scrapy_soup._scrapy._plain.convert_item`: a Tag its HTML
    ``str``, ``tag.attrs`` a ``dict``, a ``ResultSet`` a ``list``...), so
    that no pipeline, exporter or queue ever sees one. Beside the item (no
    field is added) it records the page URL and base URL, and which values
    held markup: the pipelines make those absolute and clean them. A value
    that cannot be converted is replaced by None, logged once per field and
    counted in ``soup/fields_failed``; the item always goes on. With
    ``SOUP_URL_FIELD`` set, the page URL is also written into that field
    (unless the item already has a value there).
    """

    def __init__(self, crawler: Crawler) -> None:
        # Raises NotConfigured when SOUP_ENABLED is off or a setting is wrong.
        self._config = crawler_config(crawler)
        super().__init__(crawler)
        self._fields_seen = FieldsSeen.of(crawler, self._config)
        self._origins = ItemOrigins.of(crawler)
        # One origin per response, however many items it yields.
        self._by_response: weakref.WeakKeyDictionary[Response, Origin] = (
            weakref.WeakKeyDictionary()
        )
        self._warned_url_field: set[type] = set()
        # item class -> names of its HTML fields (settings + field metadata)
        self._marked: dict[type, tuple[str, ...]] = {}
        # item class -> its fields exported as text or Markdown
        self._formats: dict[type, dict[str, str]] = {}
        self._failures = FieldFailures(crawler.stats, type(self).__name__)
        self._stats = crawler.stats
        # The scrapy_soup pipelines whose work on a Tag's copy is done here.
        self._stages = early_stages(crawler)

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        # A dict is the usual item; is_item() asks every adapter class.
        if not (type(item) is dict or ItemAdapter.is_item(item)):
            return item
        self._fields_seen.add(item)
        origin = None if response is None else self._origin_of(response)
        failed: list[FieldPath] = []
        try:
            config = self._config
            names = html_field_names(item, config.markup_fields, self._marked)
            process = None
            if self._stages:
                formats = field_formats(
                    item, config.text_fields, config.markdown_fields, self._formats
                )
                process = functools.partial(self._process_tag, origin, failed, formats)
            converted = convert_item(item, names, process)
        except Exception:
            # Not expected (each value's failure is caught where it happens);
            # the pipelines convert the item again.
            logger.exception("Could not convert the soup objects of an item")
            converted = None
        markup = None
        if converted is not None:
            for path, exc in converted.failed:
                self._failures.report(path, exc, "None")
            markup = converted.markup or None
        if origin is not None or markup is not None or failed:
            # A start item has no page, but its markup is known.
            self._origins.record(item, origin, markup, bool(failed))
        if origin is not None and self._config.url_field is not None:
            self._set_url_field(item, origin)
        return item

    def _origin_of(self, response: Response) -> Origin:
        origin = self._by_response.get(response)
        if origin is None:
            try:
                origin = response_origin(response)
            except Exception:
                # Never lose an item over its base URL: links in it resolve
                # against the page URL instead.
                logger.warning(
                    "Could not read the base URL of %s", response, exc_info=True
                )
                origin = Origin(response.url, response.url)
            self._by_response[response] = origin
        return origin

    def _process_tag(
        self,
        origin: Origin | None,
        failed: list[FieldPath],
        formats: dict[str, str],
        fragment: Soup,
        tag: Any,
        path: FieldPath,
    ) -> str:
        """Do the pipelines' work on a Tag's copy; return the value's final str.

        What the pipelines would do with the value (see ``early_stages``),
        with the same stats and the same fail-closed rule: a copy that
        cannot be processed gives the Tag's text, escaped.
        """
        doc = tag._doc
        base_url = getattr(doc, "base_url", None) or (
            origin.base_url if origin is not None else None
        )
        stages = self._stages
        stage = stages[0]
        fmt = formats.get(path[0])
        try:
            if fmt == "markdown":
                remember_code_languages(fragment)
            for stage in stages:
                for key, count in stage.transform(fragment, base_url).items():
                    if count and self._stats is not None:
                        self._stats.inc_value(key, count)
            return stages[-1].finish_as(fragment, fmt)
        except Exception as exc:
            failed.append(path)
            stage._failures.report(path, exc, stage._instead)
            try:
                return escape_text(str(tag))
            except Exception:
                return ""

    def _set_url_field(self, item: Any, origin: Origin) -> None:
        name = self._config.url_field
        assert name is not None
        adapter = ItemAdapter(item)
        if adapter.get(name):
            return
        try:
            adapter[name] = origin.url
        except (KeyError, TypeError, AttributeError) as exc:
            # e.g. a scrapy.Item class that does not declare the field.
            item_type = type(item)
            if item_type not in self._warned_url_field:
                self._warned_url_field.add(item_type)
                logger.warning(
                    "SOUP_URL_FIELD: cannot set field %r on %s items: %s",
                    name,
                    item_type.__name__,
                    exc,
                )
