"""Response classes whose ``.soup`` is a view over the tree parsel already built.

:class:`SoupHtmlResponse` and :class:`SoupXmlResponse` subclass Scrapy's
``HtmlResponse`` and ``XmlResponse``; :func:`soup_class` makes the same kind
of subclass, once, of any other response class that has a selector (other
plugins' classes: scrapy-zyte-api's, scrapy-splash's). Every ``isinstance()``
check, every selector and every other component sees the response it
expects; the subclass adds a lazily built, cached ``.soup`` and lets
``follow()``/``follow_all()`` take soup Tags as they take parsel Selectors.
Scrapy's own classes are never changed: a response the middleware did not
hand on has no ``.soup`` (:func:`soup_of` gives its soup).

Private Scrapy attributes this module uses (each checked by
``tests/test_scrapy_responses.py::test_the_private_scrapy_attributes_used_are_there``,
which runs at the floors and at the newest Scrapy):

- ``scrapy.utils.response._baseurl_cache`` (written, :func:`_ignore_broken_base`):
  no public API makes ``get_base_url()`` ignore a ``<base href>`` that does
  not parse; without it ``.css()``, ``urljoin()`` and link extractors raise
  ``ValueError`` on such a page.
- ``TextResponse._cached_selector`` (read, :func:`parsed_root`): no public
  API tells whether the page was parsed; reading ``.selector`` would parse
  it only to find a ``<base>``.
"""

from __future__ import annotations

import functools
import logging
import re
import types
import warnings
import weakref
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, overload
from urllib.parse import urljoin, urlsplit

from lxml import etree
from parsel import SelectorList
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

from scrapy_soup._scrapy._parser import built_html5_selector, html5_selector
from scrapy_soup._scrapy._stats import (
    DOCUMENTS_TRUNCATED,
    LINKS_SKIPPED,
    RESPONSES_WRAPPED,
)

if TYPE_CHECKING:
    from parsel import Selector as ParselSelector
    from scrapy.selector import Selector
    from scrapy.statscollectors import StatsCollector

    from scrapy_soup._tree._soup import Soup
    from scrapy_soup._tree._strainer import ResultSet
    from scrapy_soup._tree._tag import Tag

    # Type checkers see the mixin as what it always ends up in: a response
    # with a selector.
    _MixinBase = TextResponse
else:
    # At run time it derives from Response and adds no slot: combined with
    # any response class, the layout is that class's, which lets a response
    # become its soup class in place (on a base of object, Python's layout
    # check refuses that where Scrapy's responses have a __dict__, < 2.14).
    _MixinBase = Response

logger = logging.getLogger(__name__)

__all__ = [
    "SoupHtmlResponse",
    "SoupResponse",
    "SoupXmlResponse",
    "looks_like_html",
    "page_base_url",
    "soup_class",
    "soup_of",
    "soup_response",
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

# The schemes follow_all() follows a Tag's link to; relative links (no
# scheme of their own) are followed too.
_FOLLOWED_SCHEMES = frozenset({"http", "https"})


class SelectableResponse(Protocol):
    """What :func:`soup_of` needs of a response that is not Scrapy's: a selector.

    web-poet's ``HttpResponse`` (and its page objects) have one, as any
    object with parsel's ``.selector``, ``.text`` and ``.url`` does.
    """

    @property
    def selector(self) -> ParselSelector: ...

    @property
    def text(self) -> str: ...

    @property
    def url(self) -> object: ...


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


def parsed_root(response: Response) -> Any:
    """The root of the tree ``response.css()`` searches, if it was parsed; else None.

    Reads Scrapy's private ``_cached_selector`` (see the module's docstring):
    the only way to know without parsing the page.
    """
    selector = getattr(response, "_cached_selector", None) or built_html5_selector(
        response
    )
    return None if selector is None else selector.root


def _ignore_broken_base(response: Response) -> bool:
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


def _selector_of(response: SelectableResponse) -> ParselSelector:
    """Return ``response.selector``, even when the page's ``<base href>`` is broken."""
    try:
        return response.selector
    except ValueError:
        if not isinstance(response, Response) or not _ignore_broken_base(response):
            raise
        return response.selector


def _build_soup(response: SelectableResponse) -> Soup:
    # Imported here so that loading the middlewares (at crawler start) does not
    # pay for the tree package until a callback asks for a soup.
    from scrapy_soup._tree._soup import Soup

    if isinstance(response, JsonResponse):
        # Scrapy < 2.14 would parse the JSON text as HTML; later ones read it
        # as JSON (the selector below then has no element tree).
        raise NotSupported(
            "Response content isn't HTML or XML (JsonResponse read as json)"
        )
    html5 = html5_selector(response)
    selector = _selector_of(response) if html5 is None else html5
    kind = getattr(selector, "type", "html")
    if kind not in ("html", "xml"):
        # parsel reads JSON responses as JSON (its root is a dict or list).
        raise NotSupported(
            f"Response content isn't HTML or XML ({type(response).__name__} "
            f"read as {kind})"
        )
    url = str(response.url)
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
        return Soup("", kind, base_url=url)
    # The <base href> lookup walks the whole tree (most pages have none):
    # done when something reads soup.base_url, not on every first .soup.
    base_url: Any = url
    if kind != "xml":
        encoding = getattr(response, "encoding", None) or "utf-8"
        # Not the response itself: a soup must not keep it alive.
        base_url = functools.partial(_base_url_in, root, url, encoding)
    earlier = _earlier_document(root)
    if earlier is not None:
        # Soup(response.css(...)) came first: its Tags are this page's soup,
        # which now learns the page's URL (one document, one parent chain).
        earlier._base_url = base_url
        soup: Soup = earlier.soup
        return soup
    return Soup(selector, kind if html5 is None else "html5", base_url=base_url)


def _earlier_document(root: Any) -> Any:
    """The document ``Soup(selector_list)`` made over this page's tree, if any:
    a whole-tree soup that has no URL."""
    from scrapy_soup._tree._soup import document_viewing

    if not isinstance(root, etree._Element):
        return None
    doc = document_viewing(root)
    if doc is None or doc._el is not None or doc._base_url is not None:
        return None
    return doc


def _is_tag(value: object) -> bool:
    from scrapy_soup._tree._tag import Tag

    return isinstance(value, Tag)


def _follow_url(url: Any) -> Any:
    """``url`` for ``follow()``: a soup Tag gives its ``href``, else its ``src``."""
    if _is_tag(url):
        if url._el is None:
            raise ValueError(
                "follow() takes a URL, a Link, a Selector or a Tag with an href "
                f"or src attribute, not a whole {type(url).__name__}"
            )
        tag_url = url_of_tag(url)
        if tag_url is None:
            raise ValueError(f"<{url.name}> element has no href or src attribute")
        return tag_url
    return url


def _other_scheme(url: str) -> bool:
    """Whether a link names a scheme other than ``http(s)``: not followed from a page.

    Scrapy's LinkExtractor skips those (``mailto:``, ``tel:``,
    ``javascript:``, ``data:``); relative links (no scheme) are followed.
    """
    try:
        scheme = urlsplit(url).scheme
    except ValueError:  # e.g. "http://[::1": no request can be made of it
        return True
    return bool(scheme) and scheme not in _FOLLOWED_SCHEMES


def _follow_tags(
    response: SoupResponse, urls: Iterable[Any], args: Any, kwargs: Any
) -> Iterator[Request]:
    """``follow_all()`` of an iterable that may hold soup Tags.

    Each value goes to ``response.follow()``, as in Scrapy's
    ``follow_all()``. Tags without a URL are skipped, as parsel's
    SelectorList skips ``<a>`` without ``href``; so are, as Scrapy's
    LinkExtractor skips them, Tags whose link names another scheme than
    ``http(s)`` or makes no valid request URL (``http://[::1``, a port out
    of range), counted in ``soup/links_skipped``. Strings, Links and
    Selectors raise what Scrapy raises for them.
    """
    skipped = 0
    try:
        for value in urls:
            if not _is_tag(value):
                yield response.follow(value, *args, **kwargs)
                continue
            url = url_of_tag(value)
            if url is None:
                continue
            if _other_scheme(url):
                skipped += 1
                continue
            try:
                request = response.follow(url, *args, **kwargs)
            except ValueError:
                skipped += 1
                continue
            yield request
    finally:
        if skipped:
            state = _states.get(response)
            if state is not None and state.stats is not None:
                state.stats.inc_value(LINKS_SKIPPED, skipped)


def _count_truncated(response: Response, soup: Soup, stats: StatsCollector) -> None:
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


class _State:
    """What scrapy_soup keeps about one response: its soup and its crawl's stats."""

    __slots__ = ("soup", "stats")

    def __init__(self, stats: StatsCollector | None = None) -> None:
        self.soup: Soup | None = None
        self.stats = stats


# Per response, weakly: the responses keep their class's layout (no slot of
# ours), so that the middleware can hand on the very object it was given.
# A state must not refer back to its response (or the response's selector),
# or the entry would keep its own key alive.
_states: weakref.WeakKeyDictionary[object, _State] = weakref.WeakKeyDictionary()
# The same, by id(), for objects that compare by value (attrs and dataclass
# page objects are unhashable); an entry goes when its object goes.
_states_by_id: dict[int, _State] = {}


def _state_of(response: object) -> _State:
    try:
        state = _states.get(response)
        if state is None:
            state = _states[response] = _State()
        return state
    except TypeError:  # unhashable
        pass
    key = id(response)
    state = _states_by_id.get(key)
    if state is None:
        state = _State()
        try:
            weakref.finalize(response, _states_by_id.pop, key, None)
        except TypeError:  # not weakly referable either: not kept
            return state
        _states_by_id[key] = state
    return state


def _soup_from_state(response: Any) -> Soup:
    state = _state_of(response)
    soup = state.soup
    if soup is None:
        soup = state.soup = _build_soup(response)
        if state.stats is not None:
            _count_truncated(response, soup, state.stats)
    return soup


def built_soup(response: object) -> Soup | None:
    """The soup of ``response`` if a callback asked for it already, else None."""
    try:
        state = _states.get(response)
    except TypeError:  # unhashable
        state = _states_by_id.get(id(response))
    return None if state is None else state.soup


class SoupResponse(_MixinBase):
    """What a soup response adds to its Scrapy class: ``.soup``, ``follow(tag)``.

    Every response the downloader middleware hands on with a soup is an
    instance of this class: :class:`SoupHtmlResponse`,
    :class:`SoupXmlResponse`, or the subclass :func:`soup_class` made of
    another plugin's response class. It is a mixin: never built on its own.
    """

    # No layout of its own, so that a response of the plain class can become
    # one of its soup class in place (the middleware copies nothing).
    __slots__ = ()

    #: The class this one adds a soup to (named by ``to_dict()``).
    _plain_class: ClassVar[type[Response]] = TextResponse

    @property
    def selector(self) -> Selector:
        """The response's Selector, as Scrapy builds it, even with a broken ``<base>``.

        Over the HTML5 tree when the response is parsed as HTML5 (`_parser`).
        """
        html5 = html5_selector(self)
        if html5 is not None:
            return html5
        try:
            return super().selector
        except ValueError:
            if not _ignore_broken_base(self):
                raise
            return super().selector

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
        return _soup_from_state(self)

    def to_dict(self) -> dict[str, Any]:
        """Describe the response as the plain class it adds a soup to.

        HTTP cache storages persist this; naming the plain class keeps a cache
        readable after scrapy_soup is uninstalled.
        """
        d = super().to_dict()
        plain = self._plain_class
        d["_class"] = f"{plain.__module__}.{plain.__qualname__}"
        return d

    def __reduce_ex__(self, protocol: Any) -> Any:
        # A class soup_class() made cannot be found by name: pickle names
        # the plain class, and the unpickling process makes its soup class.
        reduced: Any = super().__reduce_ex__(protocol)
        cls = type(self)
        if not cls.__dict__.get("_soup_class_made") or not isinstance(reduced, tuple):
            return reduced
        func, args, *rest = reduced
        if not args or args[0] is not cls:
            return reduced
        return (_new_soup_response, (cls._plain_class, func, *args[1:]), *rest)

    def follow(self, url: Any, *args: Any, **kwargs: Any) -> Request:
        """Return a Request for ``url``, which may also be a soup Tag.

        A Tag gives its ``href`` (``<a>``, ``<link>``, ``<area>``) or its
        ``src`` (``<img>``, ``<iframe>``, …), as a parsel Selector of an
        ``<a>`` gives its ``href``; a Tag with neither raises ValueError. A
        link Scrapy cannot request (``mailto:``, ``javascript:``) raises
        Scrapy's ``ValueError``, as that URL given as a string does.
        """
        return super().follow(_follow_url(url), *args, **kwargs)

    def follow_all(
        self, urls: Any = None, *args: Any, **kwargs: Any
    ) -> Iterable[Request]:
        """Return Requests for ``urls``, which may also hold soup Tags.

        As for a parsel SelectorList, Tags without a URL are skipped, so
        ``response.follow_all(soup.select("a"))`` works on any page; as
        Scrapy's LinkExtractor does, so are Tags whose link is neither
        ``http(s)`` nor relative (``mailto:``, ``tel:``, ``javascript:``,
        ``data:``) or does not make a valid URL, counted in
        ``soup/links_skipped``.
        """
        if _is_tag(urls):
            # One Tag (or a Soup) iterates over its children: refused, as
            # Scrapy refuses one Selector.
            raise TypeError(
                "'urls' argument must be an iterable of URLs or Tags, not one "
                f"{type(urls).__name__}: use follow() for one link"
            )
        if (
            urls is None
            or isinstance(urls, (str, bytes, SelectorList))
            or not hasattr(urls, "__iter__")
            or "css" in kwargs
            or "xpath" in kwargs
        ):
            # Scrapy's own cases (a SelectorList skips link-less selectors).
            return super().follow_all(urls, *args, **kwargs)
        return _follow_tags(self, urls, args, kwargs)


class SoupHtmlResponse(SoupResponse, HtmlResponse):
    """An ``HtmlResponse`` with ``.soup``: an HTML-mode soup over the page's tree."""

    __slots__ = ()
    _plain_class = HtmlResponse


class SoupXmlResponse(SoupResponse, XmlResponse):
    """An ``XmlResponse`` with ``.soup``: an XML-mode soup (bs4's ``"xml"``)."""

    __slots__ = ()
    _plain_class = XmlResponse


# Plain class -> its soup class, made once per class (a class stays alive as
# long as its module anyway).
_made: dict[type[Response], type[SoupResponse]] = {
    HtmlResponse: SoupHtmlResponse,
    XmlResponse: SoupXmlResponse,
}


def _is_text(cls: type[Response]) -> bool:
    """Whether ``cls`` has a selector: a text response, or one with ``selector``."""
    return issubclass(cls, TextResponse) or hasattr(cls, "selector")


def _has_selector(cls: type[Response]) -> bool:
    """Whether ``cls.css()`` works on markup: a text response that is not JSON."""
    return _is_text(cls) and not issubclass(cls, JsonResponse)


def soup_class(cls: type[Response]) -> type[SoupResponse]:
    """Return the soup class of a response class (made once, then the same class).

    ``HtmlResponse`` gives :class:`SoupHtmlResponse`, ``XmlResponse``
    :class:`SoupXmlResponse`, a soup class its own; any other class whose
    ``.css()`` works (a ``TextResponse`` subclass, or one with a
    ``selector``, as scrapy-splash's ``SplashJsonResponse``) a subclass of
    it and :class:`SoupResponse`. A non-text response or a ``JsonResponse``
    raises ``NotSupported``, as their ``.css()`` does.
    """
    if issubclass(cls, SoupResponse):
        return cls
    made = _made.get(cls)
    if made is not None:
        return made
    if issubclass(cls, JsonResponse):
        raise NotSupported(
            f"Response content isn't HTML or XML ({cls.__name__} read as json)"
        )
    if not _has_selector(cls):
        raise NotSupported("Response content isn't text")

    def body(namespace: dict[str, Any]) -> None:
        namespace["__slots__"] = ()
        namespace["__module__"] = __name__
        namespace["_plain_class"] = cls
        namespace["_soup_class_made"] = True
        namespace["__doc__"] = f"{cls.__qualname__} with ``.soup`` (scrapy_soup)."

    made = types.new_class(f"Soup{cls.__name__}", (SoupResponse, cls), exec_body=body)
    return _made.setdefault(cls, made)


def _new_soup_response(plain: type[Response], func: Any, *args: Any) -> Any:
    """Unpickle a response of a made soup class (see ``SoupResponse.__reduce_ex__``)."""
    return func(soup_class(plain), *args)


def _become(response: Response, cls: type[SoupResponse]) -> SoupResponse:
    """Make ``response`` an instance of ``cls``, in place when Python allows it.

    ``cls`` subclasses the response's class (or, for a ``TextResponse``
    found to hold HTML, ``HtmlResponse``) and adds no attribute: the same
    object keeps its URL, body, request, headers and everything already
    computed from them (decoded text, encoding, base URL, selector), and
    nothing is copied. Where Python finds the layouts different (another
    plugin's mixin class over Scrapy < 2.14's responses, which have a
    ``__dict__``), a new object of ``cls`` gets the response's state, as
    ``copy.copy()`` would give it: not ``replace()``, which runs the class's
    ``__init__`` again (scrapy-splash's ``SplashJsonResponse`` would then
    read its HTML body as JSON).
    """
    try:
        response.__class__ = cls
    except TypeError:
        return _recast(response, cls)
    assert isinstance(response, cls)
    return response


def _recast(response: Response, cls: type[SoupResponse]) -> SoupResponse:
    """A new ``cls`` object with the state of ``response`` (``copy.copy()``'s way)."""
    state: Any = response.__reduce_ex__(2)[2]
    recast = cls.__new__(cls)
    slots: dict[str, Any] = {}
    if isinstance(state, tuple):
        state, slots = state
    for name, value in [*(state or {}).items(), *(slots or {}).items()]:
        object.__setattr__(recast, name, value)
    return recast


def soup_response(response: Response) -> SoupResponse:
    """Give a Scrapy response ``.soup``, ``follow(tag)`` and ``follow_all(tags)``.

    What the downloader middleware does to each response it hands on, for a
    response made some other way (a test, ``scrapy shell`` with the plugin
    off, another plugin's): the response becomes an instance of its
    :func:`soup_class`, in place (nothing is copied, the same object is
    returned). A soup response is returned as it is; a non-text response or
    a ``JsonResponse`` raises ``NotSupported``.

    >>> from scrapy.http import HtmlResponse
    >>> response = soup_response(HtmlResponse("https://example.com", body=b"<a href=x>"))
    >>> type(response).__name__, response.soup.a["href"]
    ('SoupHtmlResponse', 'x')
    """
    return _become(response, soup_class(type(response)))


@overload
def soup_of(response: Response | SelectableResponse) -> Soup: ...
@overload
def soup_of(response: SelectorList[Any]) -> ResultSet[Tag]: ...
def soup_of(
    response: Response | SelectableResponse | SelectorList[Any],
) -> Soup | ResultSet[Tag]:
    """Return the soup of any response whose ``.css()`` works, wrapped or not.

    For a :class:`SoupResponse` this is ``response.soup``. Any other Scrapy
    ``TextResponse`` (or response with a selector), and web-poet's
    ``HttpResponse`` (or anything with parsel's ``.selector``, ``.text`` and
    ``.url``, page objects too), gets the same kind of view over its
    selector's tree, cached per response. A non-text response raises
    ``scrapy.exceptions.NotSupported``, as ``Response.css()`` does, and so
    does a JSON one. A parsel ``SelectorList`` (``response.css("p")``) gives
    its elements' Tags, those of ``response.soup``, as a ``ResultSet`` (as
    ``Soup(selector_list)``).
    """
    if isinstance(response, SelectorList):
        from scrapy_soup._tree._soup import tags_of_selectors

        return tags_of_selectors(response)
    if isinstance(response, SoupResponse):
        return response.soup
    if isinstance(response, Response) and not _is_text(type(response)):
        raise NotSupported("Response content isn't text")
    return _soup_from_state(response)


def hand_on(
    response: Response, stats: StatsCollector | None, sniff_html: bool
) -> Response:
    """The response the downloader middleware hands on: with ``.soup`` if it can have one.

    Exact ``HtmlResponse``/``XmlResponse`` become :class:`SoupHtmlResponse`/
    :class:`SoupXmlResponse`; a ``TextResponse`` whose body starts like HTML
    a :class:`SoupHtmlResponse` (with ``sniff_html``); another plugin's class
    whose ``.css()`` works its :func:`soup_class`. Non-text responses, JSON,
    Scrapy's ``TextResponse`` and soup responses pass as they are.
    """
    cls = _crawl_classes.get(type(response), _UNKNOWN)
    if cls is _UNKNOWN:
        cls = _crawl_classes[type(response)] = _crawl_class(type(response))
    if cls is None:
        if not (
            sniff_html
            and type(response) is TextResponse
            and looks_like_html(response.body)
        ):
            return response
        cls = SoupHtmlResponse
    assert isinstance(cls, type)
    wrapped = _become(response, cls)
    if stats is not None:
        stats.inc_value(RESPONSES_WRAPPED)
        _states[wrapped] = _State(stats)
    return wrapped


_UNKNOWN = object()
# Response class -> the class the middleware makes of it (None: none).
_crawl_classes: dict[type, object] = {}


def _crawl_class(cls: type[Response]) -> type[SoupResponse] | None:
    if (
        issubclass(cls, SoupResponse)
        or cls in (Response, TextResponse)
        or not _has_selector(cls)
    ):
        return None
    return soup_class(cls)
