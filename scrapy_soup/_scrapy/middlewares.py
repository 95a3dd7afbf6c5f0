"""The downloader middleware that gives responses ``.soup``, and the spider
middleware that turns items into plain data and remembers where they came from.
"""

from __future__ import annotations

import functools
import logging
import weakref
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.http import Response, TextResponse, XmlResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.response import get_base_url

from scrapy_soup._scrapy._checks import DOWNLOADER_ALONE, crawler_config
from scrapy_soup._scrapy._item_path import ItemPath
from scrapy_soup._scrapy._origins import Origin
from scrapy_soup._scrapy._parser import choose_parser
from scrapy_soup._scrapy._plain import holds_soup
from scrapy_soup._scrapy._setup import Setup
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
        setup = Setup.of(crawler)
        if not setup.spider_middleware and not setup.has_pipelines:
            # No component of ours sees items: say it again on the first one
            # holding a soup object (the start check said it once).
            self._told = False
            crawler.signals.connect(self._item_seen, signals.item_scraped)
            crawler.signals.connect(self._item_seen, signals.item_error)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _item_seen(self, item: Any, **kwargs: Any) -> None:
        if not self._told and holds_soup(item):
            self._told = True
            logger.error("An item holds a soup object. %s", DOWNLOADER_ALONE)

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
    encoding = getattr(response, "encoding", None)
    soup = built_soup(response)
    if soup is not None:
        return Origin(url, functools.partial(_soup_base_url, soup, url), encoding)
    if not isinstance(response, TextResponse) or isinstance(response, XmlResponse):
        return Origin(url, url, encoding)
    root = parsed_root(response)
    if root is not None:
        # The callback parsed the page already: read <base> from the tree.
        return Origin(
            url, functools.partial(_base_url_in, root, url, response.encoding), encoding
        )
    # Not parsed: do not parse the page only for this, scan its first 4 KiB as
    # Scrapy's own urljoin() does.
    try:
        return Origin(url, get_base_url(response), encoding)
    except ValueError:
        return Origin(url, url, encoding)


class SoupSpiderMiddleware(BaseSpiderMiddleware):
    """Make each item a callback yields plain data; record where it came from.

    Every soup object in the item, at any depth, becomes plain Python data
    (:func:`~scrapy_soup._scrapy._plain.convert_item`: a Tag its HTML
    ``str``, ``tag.attrs`` a ``dict``, a ``ResultSet`` a ``list``...), so
    that no pipeline, exporter or queue ever sees one. Beside the item (no
    field is added) it records the page URL and base URL, and which values
    held markup: the pipelines make those absolute and clean them; with no
    scrapy_soup pipeline enabled, it does that itself, on the HTML fields
    too (:class:`~scrapy_soup._scrapy._item_path.ItemPath`). A value that
    cannot be converted is replaced by None, logged once per field and
    counted in ``soup/fields_failed``; the item always goes on. With
    ``SOUP_URL_FIELD`` set, the page URL is also written into that field
    (unless the item already has a value there).
    """

    def __init__(self, crawler: Crawler) -> None:
        # Raises NotConfigured when SOUP_ENABLED is off or a setting is wrong.
        self._path = ItemPath.of(crawler)
        super().__init__(crawler)
        # One origin per response, however many items it yields.
        self._by_response: weakref.WeakKeyDictionary[Response, Origin] = (
            weakref.WeakKeyDictionary()
        )
        self._who = type(self).__name__
        self._told_no_soup = False

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        # A dict is the usual item; is_item() asks every adapter class.
        if not (type(item) is dict or ItemAdapter.is_item(item)):
            return item
        origin = None if response is None else self._origin_of(response)
        if self._path.from_callback(item, origin, self._who):
            return item
        logger.warning(
            "%s: dropped an item whose fields could not be processed "
            "(SOUP_DROP_FAILED_ITEMS)",
            self._who,
        )
        return None

    def process_spider_exception(
        self, response: Response, exception: Exception, spider: Spider | None = None
    ) -> None:
        """Say once which component is missing when a callback reads ``.soup``
        on a response the downloader middleware did not hand on."""
        if (
            not self._told_no_soup
            and not self._path.setup.downloader_middleware
            and isinstance(response, TextResponse)
            and isinstance(exception, AttributeError)
            and getattr(exception, "name", None) == "soup"
            and not hasattr(response, "soup")
        ):
            self._told_no_soup = True
            logger.error(
                "A callback read response.soup on a %s, which has none: "
                "SoupDownloaderMiddleware is not enabled. Enable the add-on "
                '(ADDONS = {"scrapy_soup.Addon": 0}) or add '
                'DOWNLOADER_MIDDLEWARES = {"scrapy_soup.SoupDownloaderMiddleware": 45}',
                type(response).__name__,
            )

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
