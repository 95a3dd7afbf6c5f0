"""Response classes whose ``.soup`` is a view over the tree parsel already built.

:class:`SoupHtmlResponse` and :class:`SoupXmlResponse` subclass Scrapy's
``HtmlResponse`` and ``XmlResponse``: every ``isinstance()`` check, every
selector and every other component sees the response it expects. They add a
lazily built, cached ``.soup`` and let ``follow()``/``follow_all()`` take soup
Tags as they take parsel Selectors.
"""

from __future__ import annotations

import functools
import logging
import re
import warnings
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from lxml import etree
from scrapy.exceptions import NotSupported
from scrapy.http import (
    HtmlResponse,
    JsonResponse,
    Request,
    Response,
    TextResponse,
    XmlResponse,
)
from w3lib.url import safe_url_string

from scrapy_soup._scrapy._stats import DOCUMENTS_TRUNCATED

if TYPE_CHECKING:
    from scrapy.selector import Selector
    from scrapy.statscollectors import StatsCollector

    from scrapy_soup._tree._soup import Soup
    from scrapy_soup._tree._tag import Tag

logger = logging.getLogger(__name__)

__all__ = [
    "SoupHtmlResponse",
    "SoupXmlResponse",
    "install_response_soup",
    "install_tag_follow",
    "looks_like_html",
    "page_base_url",
    "soup_of",
    "url_of_tag",
]

# What WHATWG "strip leading and trailing ASCII whitespace" removes from an
# attribute value that holds a URL (w3lib.html.strip_html5_whitespace).
_HTML5_WHITESPACE = " \t\n\r\x0c"

# The first bytes of a body that is HTML even though the server called it
# text/plain: optional BOM, whitespace and comments, then a doctype or one of
# the tags a document starts with. Only the first 2 KiB are looked at.
_HTML_START = re.compile(
    rb"\A(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)[\s>/]",
    re.IGNORECASE | re.DOTALL,
)

# A character parsel does not strip before parsing: without one, parsel
# parses a stand-in "<html/>" (searched, not stripped: no copy of the body).
_NOT_BLANK = re.compile(r"[^\x00\t\n\x0c\r ]")

# Attributes that carry the URL a Tag points at, in the order follow() tries
# them: <a>/<area>/<link> use href, embedded resources use src.
_URL_ATTRIBUTES = ("href", "src")


def looks_like_html(body: bytes) -> bool:
    """Tell whether a body sent as plain text starts like an HTML document."""
    return _HTML_START.match(body[:2048]) is not None


def page_base_url(response: TextResponse) -> str:
    """Return the base URL of an HTML page: its first ``<base href>``, else its URL.

    As the HTML standard says (and ``w3lib.html.get_base_url`` does), the first
    ``base`` element with an ``href`` wins and is resolved against the page URL.
    This reads the tree the response's selector already parsed, so, unlike
    ``scrapy.utils.response.get_base_url``, a ``<base>`` after the first 4 KiB
    of the page is still found. XML documents have no ``<base>``: their base
    URL is the response URL.
    """
    url = response.url
    if isinstance(response, XmlResponse):
        return url
    return _base_url_in(response.selector.root, url, response.encoding)


def _base_url_in(root: Any, url: str, encoding: str) -> str:
    """`page_base_url` from the parsed tree, the page URL and its encoding."""
    if not isinstance(root, etree._Element):  # a JSON selector
        return url
    # iter() walks the tree in C and stops at the first match; an XPath
    # would be compiled on each call and collect every <base> first.
    for base in root.iter("base"):
        value = base.get("href")
        if value is not None:
            break
    else:
        return url
    href = str(value).strip(_HTML5_WHITESPACE)
    try:
        return safe_url_string(urljoin(url, href), encoding=encoding)
    except ValueError:
        # An unparsable <base href> (e.g. "http://[::1") is ignored, as a
        # browser ignores a base URL it cannot parse.
        return url


def url_of_tag(tag: Tag) -> str | None:
    """Return the URL a soup Tag points at (``href``, else ``src``), or None."""
    el = tag._el
    for name in _URL_ATTRIBUTES:
        value = el.get(name)
        if value is not None:
            return str(value).strip(_HTML5_WHITESPACE)
    return None


def _ignore_broken_base(response: TextResponse) -> bool:
    """Make Scrapy use the page URL as base URL; tell whether that was possible.

    Scrapy computes the base URL once per response (``get_base_url()``,
    cached in ``scrapy.utils.response._baseurl_cache``) and raises ValueError
    when the ``<base href>`` does not parse (``http://[::1``, a port out of
    range), which breaks ``.selector``, ``.css()``, ``.xpath()`` and
    ``urljoin()`` on the page. A browser ignores such a base (WHATWG HTML,
    "frozen base URL": a failed parse falls back to the document URL); so does
    this, for the whole response.
    """
    from scrapy.utils import response as response_utils

    cache = getattr(response_utils, "_baseurl_cache", None)
    if cache is None:
        return False
    cache[response] = response.url
    return True


def _selector_of(response: TextResponse) -> Selector:
    """Return ``response.selector``, even when the page's ``<base href>`` is broken."""
    try:
        return response.selector
    except ValueError:
        if not _ignore_broken_base(response):
            raise
        return response.selector


def _build_soup(response: TextResponse) -> Soup:
    # Imported here so that loading the middlewares (at crawler start) does not
    # pay for the tree package until a callback asks for a soup.
    from scrapy_soup._tree._soup import Soup

    features = "xml" if isinstance(response, XmlResponse) else "html"
    if isinstance(response, JsonResponse):
        # Scrapy < 2.14 would parse the JSON text as HTML; later ones read it
        # as JSON (the selector below then has no element tree).
        raise NotSupported(
            "Response content isn't HTML or XML (JsonResponse read as json)"
        )
    selector = _selector_of(response)
    if getattr(selector, "type", "html") not in ("html", "xml"):
        # parsel reads JSON responses as JSON (its root is a dict or list).
        raise NotSupported(
            f"Response content isn't HTML or XML ({type(response).__name__} "
            f"read as {selector.type})"
        )
    root = selector.root
    # Only a childless root can be parsel's placeholder: real pages skip the
    # text scan (it was a tenth of the first .soup's cost).
    if (
        isinstance(root, etree._Element)
        and len(root) == 0
        and _NOT_BLANK.search(response.text) is None
    ):
        # parsel parses an empty body as "<html/>" so that XPath has a root;
        # bs4 (and so the soup) gives an empty document. Nothing is shared
        # that could be edited: the selector's tree is that placeholder.
        return Soup("", features, base_url=response.url)
    # The <base href> lookup walks the whole tree (most pages have none):
    # done when something reads soup.base_url, not on every first .soup.
    if features == "xml":
        return Soup(selector, features, base_url=response.url)
    # Not the response itself: a soup must not keep it alive.
    base_url = functools.partial(_base_url_in, root, response.url, response.encoding)
    return Soup(selector, features, base_url=base_url)


def _is_tag(value: object) -> bool:
    from scrapy_soup._tree._tag import Tag

    return isinstance(value, Tag)


def _follow_url(url: Any) -> Any:
    """``url`` for ``follow()``: a soup Tag gives its ``href``, else its ``src``."""
    if _is_tag(url):
        tag_url = url_of_tag(url)
        if tag_url is None:
            raise ValueError(f"<{url.name}> element has no href or src attribute")
        return tag_url
    return url


def _follow_all_urls(urls: Any) -> Any:
    """``urls`` for ``follow_all()``: Tags give their URL; Tags without one are
    skipped, as parsel's SelectorList skips ``<a>`` without ``href``."""
    if urls is None or isinstance(urls, (str, bytes)) or not hasattr(urls, "__iter__"):
        return urls
    converted: list[Any] = []
    for value in urls:
        if _is_tag(value):
            value = url_of_tag(value)
            if value is None:
                continue
        converted.append(value)
    return converted


def _count_truncated(response: TextResponse, soup: Soup, stats: StatsCollector) -> None:
    """Log and count a page whose tree the parser cut short (deeper than its limit).

    In a crawl this takes the place of `TruncatedDocumentWarning`: a Python
    warning would go to stderr, or raise in the callback where warnings are
    errors; the crawl logs it once per page and goes on.
    """
    from scrapy_soup._tree._parse import TruncatedDocumentWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncatedDocumentWarning)
        truncated = soup.truncated
    if truncated:
        stats.inc_value(DOCUMENTS_TRUNCATED)
        logger.warning(
            "The tree of %s stops at the parser's depth limit: what was nested "
            "deeper, and what came after it, is not in response.soup (nor in "
            "response.css()); Soup(response.text) keeps it",
            response,
        )


class _SoupResponse(TextResponse):
    """The ``.soup``, ``follow()`` and ``follow_all()`` both subclasses share."""

    # The slot lives here; HtmlResponse/XmlResponse add none, so the concrete
    # classes can derive from both without a layout conflict.
    __slots__ = ("_cached_soup", "_soup_stats")

    #: The plain Scrapy class this one stands for in ``to_dict()``.
    _plain_class: type[TextResponse] = TextResponse

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cached_soup: Soup | None = None
        # The crawler's stats, set by SoupDownloaderMiddleware: a soup whose
        # tree the parser cut short is counted in soup/documents_truncated.
        self._soup_stats: StatsCollector | None = None

    @property
    def selector(self) -> Selector:
        """The response's Selector, as Scrapy builds it, even with a broken ``<base>``."""
        if self._cached_selector is None:
            from scrapy.selector import Selector

            try:
                self._cached_selector = Selector(self)
            except ValueError:
                if not _ignore_broken_base(self):
                    raise
                self._cached_selector = Selector(self)
        return self._cached_selector

    def urljoin(self, url: str) -> str:
        """Join ``url`` to the page's base URL (its URL if the base is broken)."""
        try:
            return super().urljoin(url)
        except ValueError:
            if not _ignore_broken_base(self):
                raise
            return super().urljoin(url)

    @property
    def soup(self) -> Soup:
        """The page as a Beautiful Soup tree, sharing the tree of ``.selector``.

        Built on first access from ``self.selector.root`` without parsing again,
        then cached. Changing the soup changes what ``.css()``/``.xpath()`` see,
        and the other way round.
        """
        if self._cached_soup is None:
            soup = self._cached_soup = _build_soup(self)
            if self._soup_stats is not None:
                _count_truncated(self, soup, self._soup_stats)
        return self._cached_soup

    def to_dict(self) -> dict[str, Any]:
        """Describe the response as the plain Scrapy class it wraps.

        HTTP cache storages persist this; naming the plain class keeps a cache
        readable after scrapy_soup is uninstalled.
        """
        d = super().to_dict()
        plain = self._plain_class
        d["_class"] = f"{plain.__module__}.{plain.__name__}"
        return d

    def follow(self, url: Any, *args: Any, **kwargs: Any) -> Request:
        """Return a Request for ``url``, which may also be a soup Tag.

        A Tag gives its ``href`` (``<a>``, ``<link>``, ``<area>``) or its
        ``src`` (``<img>``, ``<iframe>``, …), as a parsel Selector of an
        ``<a>`` gives its ``href``; a Tag with neither raises ValueError.
        """
        return super().follow(_follow_url(url), *args, **kwargs)

    def follow_all(
        self, urls: Any = None, *args: Any, **kwargs: Any
    ) -> Iterable[Request]:
        """Return Requests for ``urls``, which may also hold soup Tags.

        As for a parsel SelectorList, Tags without a URL are skipped, so
        ``response.follow_all(soup.select("a"))`` works on any page.
        """
        return super().follow_all(_follow_all_urls(urls), *args, **kwargs)


class SoupHtmlResponse(_SoupResponse, HtmlResponse):
    """An ``HtmlResponse`` with ``.soup``: an HTML-mode soup over the page's tree."""

    __slots__ = ()
    _plain_class = HtmlResponse


class SoupXmlResponse(_SoupResponse, XmlResponse):
    """An ``XmlResponse`` with ``.soup``: an XML-mode soup (bs4's ``"xml"``)."""

    __slots__ = ()
    _plain_class = XmlResponse


# Soups of responses that are not ours, so that soup_of() returns the same
# soup each time. The Soup must not refer back to its response (or the
# response's selector), or the entry would keep its own key alive.
_foreign_soups: weakref.WeakKeyDictionary[Response, Soup] = weakref.WeakKeyDictionary()


def soup_of(response: Response) -> Soup:
    """Return the soup of any text response, with or without the middleware.

    For a :class:`SoupHtmlResponse`/:class:`SoupXmlResponse` this is
    ``response.soup``. Any other ``TextResponse`` gets the same kind of view
    over its selector's tree, cached per response. A non-text response raises
    ``scrapy.exceptions.NotSupported``, as ``Response.css()`` does.
    """
    if isinstance(response, _SoupResponse):
        return response.soup
    if not isinstance(response, TextResponse):
        raise NotSupported("Response content isn't text")
    soup = _foreign_soups.get(response)
    if soup is None:
        soup = _foreign_soups[response] = _build_soup(response)
    return soup


def _any_response_soup(response: Response) -> Soup:
    """The soup of a response the middleware did not wrap, as :func:`soup_of` gives it.

    Installed as ``scrapy.http.Response.soup`` by :func:`install_response_soup`.
    ``.soup`` then works wherever ``.css()`` works: on any text response
    (JSON excepted), parsed on first access by the response's own selector. A
    non-text response raises ``NotSupported("Response content isn't text")``,
    the error ``Response.css()`` raises.
    """
    return soup_of(response)


def install_response_soup() -> bool:
    """Give every Scrapy ``Response`` a ``.soup`` (once); tell whether it is there.

    :class:`SoupHtmlResponse`/:class:`SoupXmlResponse` keep their own ``.soup``;
    this one serves every other response in a callback, so that
    ``response.soup`` on an image, a PDF or a JSON document raises Scrapy's
    ``NotSupported`` (as ``response.css()`` does) and never AttributeError.
    Idempotent; an existing ``soup`` attribute of ``Response`` (another
    plugin's) is left alone, and then False is returned.
    """
    current = Response.__dict__.get("soup")
    if isinstance(current, property) and current.fget is _any_response_soup:
        return True
    if hasattr(Response, "soup"):
        return False
    # Monkey-patching Scrapy's base class is the only way for a response the
    # middleware does not replace (non-text, JSON, other plugins' classes,
    # meta["soup"] = False) to answer ``.soup`` at all.
    setattr(Response, "soup", property(_any_response_soup))  # noqa: B010
    return True


def install_tag_follow() -> None:
    """Let ``follow()``/``follow_all()`` of every ``TextResponse`` take soup Tags.

    The middleware gives its own responses this; other plugins' responses
    (scrapy-zyte-api's, scrapy-splash's: ``TextResponse`` subclasses it
    leaves alone) inherit Scrapy's, which passes a Tag on to ``urljoin()``
    and fails with "Cannot mix str and non-str arguments". So Scrapy's own
    methods are wrapped, once: a Tag becomes its URL, anything else goes to
    the original method unchanged. A subclass that overrides them keeps its
    own.
    """
    follow: Any = TextResponse.follow
    if getattr(follow, "_soup_tags", False):
        return

    @functools.wraps(follow)
    def follow_tags(self: TextResponse, url: Any, *args: Any, **kwargs: Any) -> Any:
        return follow(self, _follow_url(url), *args, **kwargs)

    follow_all: Any = TextResponse.follow_all

    @functools.wraps(follow_all)
    def follow_all_tags(
        self: TextResponse, urls: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        return follow_all(self, _follow_all_urls(urls), *args, **kwargs)

    follow_tags._soup_tags = True  # type: ignore[attr-defined]
    follow_all_tags._soup_tags = True  # type: ignore[attr-defined]
    # Monkey-patching, as for ``Response.soup``: the only way to reach
    # responses of classes scrapy_soup does not create.
    setattr(TextResponse, "follow", follow_tags)  # noqa: B010
    setattr(TextResponse, "follow_all", follow_all_tags)  # noqa: B010
