"""SoupHtmlResponse / SoupXmlResponse / soup_of, on responses built directly.

These are unit tests of small pieces; the middleware that creates these
responses in a crawl is tested with real crawls in test_scrapy_middlewares.
"""

from __future__ import annotations

import copy
import gc
import pickle
import weakref
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from conftest import corpus_pages
from scrapy.exceptions import NotSupported
from scrapy.http import (
    HtmlResponse,
    JsonResponse,
    Request,
    Response,
    TextResponse,
    XmlResponse,
)
from scrapy_helpers import bs4_queries, soup_queries

from scrapy_soup._scrapy import (
    SoupHtmlResponse,
    SoupResponse,
    SoupXmlResponse,
    soup_of,
    soup_response,
)
from scrapy_soup._scrapy.responses import (
    built_soup,
    looks_like_html,
    page_base_url,
    soup_class,
)

URL = "http://example.com/dir/page.html"
BODY = (
    b"<html><head><title>T</title></head><body>"
    b'<p class="x">One <a href="a.html">a</a> <a href=" /b.html ">b</a></p>'
    b'<img src="i.png"><link rel="next" href="next.html"><a name="n">no href</a>'
    b"</body></html>"
)


def html_response(body: bytes = BODY, url: str = URL, **kw: Any) -> SoupHtmlResponse:
    plain = HtmlResponse(url, body=body, request=Request(url), **kw)
    response = soup_response(plain)
    assert isinstance(response, SoupHtmlResponse)
    return response


def test_soup_response_keeps_the_response_and_every_attribute() -> None:
    plain = HtmlResponse(
        URL,
        status=203,
        body=BODY,
        headers={"X-A": "1"},
        flags=["f"],
        request=Request(URL),
    )
    before = {name: getattr(plain, name) for name in plain.attributes}
    text = plain.text
    wrapped = soup_response(plain)
    # The same object, now of the soup class: nothing copied or decoded again.
    assert wrapped is plain
    assert type(wrapped) is SoupHtmlResponse
    assert {name: getattr(wrapped, name) for name in wrapped.attributes} == before
    assert wrapped.text is text
    assert soup_response(wrapped) is wrapped
    # A hand-built one is the same thing.
    built = SoupHtmlResponse(URL, body=BODY)
    assert str(built.soup) == str(wrapped.soup)


def test_subclasses_use_slots() -> None:
    if hasattr(HtmlResponse(URL), "__dict__"):
        pytest.skip("this Scrapy version's responses have no __slots__")
    response = html_response()
    assert not hasattr(response, "__dict__")
    with pytest.raises(AttributeError):
        response.anything = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("method", ["copy", "replace"])
def test_copy_and_replace_keep_the_class_not_the_soup(method: str) -> None:
    response = html_response()
    soup = response.soup
    other = getattr(response, method)()
    assert type(other) is SoupHtmlResponse
    assert other.soup is not soup
    assert str(other.soup) == str(soup)


def test_replace_with_a_new_body_gives_a_new_soup() -> None:
    response = html_response()
    assert response.soup.title.string == "T"
    other = response.replace(body=b"<title>U</title>")
    assert other.soup.title.string == "U"


def test_to_dict_names_the_plain_class() -> None:
    if not hasattr(Response, "to_dict"):
        pytest.skip("Response.to_dict() is new in Scrapy 2.19")
    from scrapy.utils.response import response_from_dict

    for wrapped, plain in (
        (html_response(), HtmlResponse),
        (soup_response(XmlResponse(URL, body=b"<a/>")), XmlResponse),
    ):
        restored = response_from_dict(wrapped.to_dict())
        assert type(restored) is plain
        assert restored.body == wrapped.body


def test_soup_is_lazy_cached_and_shares_the_selector_tree() -> None:
    response = html_response()
    assert built_soup(response) is None
    root = response.selector.root
    soup = response.soup
    assert response.soup is soup
    assert soup_of(response) is soup
    assert soup.find("p")._el is root.find(".//p")
    # An edit through one is visible through the other.
    soup.find("p")["class"] = "changed"
    assert response.css("p::attr(class)").get() == "changed"
    response.xpath("//title")[0].root.text = "New"
    assert soup.title.string == "New"


def test_soup_matches_bs4() -> None:
    response = html_response()
    ours = response.soup
    theirs = BeautifulSoup(response.text, "lxml")
    assert str(ours) == str(theirs)
    assert [a.get("href") for a in ours.find_all("a")] == [
        a.get("href") for a in theirs.find_all("a")
    ]


def test_xml_response_gives_an_xml_soup() -> None:
    body = b'<?xml version="1.0"?><feed><Entry id="1"><title>x</title></Entry></feed>'
    response = soup_response(XmlResponse(URL, body=body))
    assert isinstance(response, SoupXmlResponse)
    soup = response.soup
    assert soup.is_xml
    # Case is kept, as in bs4's "xml" builder.
    assert soup.find("Entry")["id"] == "1"
    assert soup.base_url == URL


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("", URL),
        ("<base href='/root/'>", "http://example.com/root/"),
        ("<base href='sub/'>", "http://example.com/dir/sub/"),
        (
            "<base target='_top'><base href='second/'><base href='/third/'>",
            "http://example.com/dir/second/",
        ),
        ("<base href=' \n/spaced/ '>", "http://example.com/spaced/"),
        ("<base href='http://[::1'>", URL),
        ("<base href='http://other.example/x/'>", "http://other.example/x/"),
    ],
)
def test_page_base_url(head: str, expected: str) -> None:
    response = html_response(f"<html><head>{head}</head><body></body></html>".encode())
    assert page_base_url(response) == expected
    assert response.soup.base_url == expected


def test_a_broken_base_href_breaks_neither_selectors_nor_urljoin() -> None:
    # Scrapy's own HtmlResponse raises ValueError from .css() on this page.
    body = b"<html><head><base href='http://[::1'></head><body><a href='x'>x</a></body></html>"
    response = html_response(body)
    assert response.css("a::attr(href)").get() == "x"
    assert response.urljoin("x") == "http://example.com/dir/x"
    assert response.follow(response.soup.a).url == "http://example.com/dir/x"
    other = html_response(body)
    assert other.urljoin("y") == "http://example.com/dir/y"


def test_a_broken_base_href_in_a_plain_response() -> None:
    # soup_of() on Scrapy's own class: the base is ignored for the soup, and
    # (the same fallback, on the same response) for its .css() and urljoin().
    body = b"<html><head><base href='http://[::1'></head><body><a href='x'>x</a></body></html>"
    plain = HtmlResponse(URL, body=body)
    assert soup_of(plain).base_url == URL
    assert soup_of(plain).a["href"] == "x"
    assert plain.css("a::attr(href)").get() == "x"
    assert plain.urljoin("x") == "http://example.com/dir/x"


class _PluginResponse(HtmlResponse):
    """Another plugin's response class: it gets a soup subclass of its own."""


def test_scrapy_classes_are_left_as_they_are() -> None:
    # Nothing of scrapy_soup's is on Scrapy's classes, however many soup
    # responses were made: a plain response has no .soup and Scrapy's follow().
    html_response().soup  # noqa: B018
    for cls in (Response, TextResponse, HtmlResponse, XmlResponse, JsonResponse):
        assert not hasattr(cls, "soup"), cls
        for name in ("follow", "follow_all", "selector", "urljoin"):
            method = getattr(cls, name, None)
            if isinstance(method, property):
                method = method.fget
            if method is not None:
                assert method.__module__.startswith("scrapy."), (cls, name)
    plain = HtmlResponse(URL, body=BODY)
    with pytest.raises(AttributeError):
        plain.soup  # type: ignore[attr-defined]  # noqa: B018
    soup = soup_of(plain)
    with pytest.raises(TypeError, match="Cannot mix str and non-str"):
        plain.follow(soup.a)  # type: ignore[arg-type]
    # soup_of() is the public way to the soup of a response nobody wrapped.
    assert plain.follow(soup.a["href"]).url == "http://example.com/dir/a.html"


def test_soup_of_responses_the_middleware_leaves_alone() -> None:
    # Non-text: the error Response.css() raises.
    binary = Response(URL, body=b"\x89PNG")
    with pytest.raises(NotSupported) as soup_error:
        soup_of(binary)
    assert str(soup_error.value) == "Response content isn't text"
    with pytest.raises(NotSupported) as css_error:
        binary.css("p")
    assert str(css_error.value) == str(soup_error.value)
    with pytest.raises(NotSupported, match="isn't HTML or XML"):
        soup_of(JsonResponse(URL, body=b'{"a": "<p>x</p>"}'))
    # Text responses: the soup over the tree .css() uses.
    for response in (
        HtmlResponse(URL, body=BODY),
        XmlResponse(URL, body=b"<r><p>x</p></r>"),
        TextResponse(URL, body=b"<p>x</p>", encoding="utf-8"),
        _PluginResponse(URL, body=BODY),
    ):
        soup = soup_of(response)
        assert soup is soup_of(response)
        assert soup.find("p")._el is response.css("p")[0].root
    assert soup_of(XmlResponse(URL, body=b"<r/>")).is_xml


def test_soup_classes_of_other_plugins_classes() -> None:
    made = soup_class(_PluginResponse)
    # Made once, then the same class; a subclass of both.
    assert soup_class(_PluginResponse) is made
    assert soup_class(made) is made
    assert issubclass(made, _PluginResponse)
    assert issubclass(made, SoupResponse)
    assert made.__name__ == "Soup_PluginResponse"
    assert soup_class(HtmlResponse) is SoupHtmlResponse
    assert soup_class(XmlResponse) is SoupXmlResponse
    for cls in (Response, JsonResponse):
        with pytest.raises(NotSupported):
            soup_class(cls)
    response = soup_response(_PluginResponse(URL, body=BODY, request=Request(URL)))
    assert type(response) is made
    assert response.soup.title.string == "T"
    assert response.follow(response.soup.a).url == "http://example.com/dir/a.html"
    for other in (response.replace(), response.copy()):
        assert type(other) is made
        assert str(other.soup) == str(response.soup)
    if hasattr(Response, "to_dict"):
        assert response.to_dict()["_class"].endswith("._PluginResponse")


def test_soup_responses_pickle_before_they_are_parsed() -> None:
    # As Scrapy's own responses do (a parsel Selector does not pickle): the
    # plain class's soup class is made again where the response is unpickled.
    for response in (
        SoupHtmlResponse(URL, body=BODY),
        soup_response(_PluginResponse(URL, body=BODY)),
    ):
        restored = pickle.loads(pickle.dumps(response))
        assert type(restored) is type(response)
        assert restored.body == response.body
        assert restored.soup.title.string == "T"
        assert copy.copy(response).soup.title.string == "T"


def test_follow_takes_tags() -> None:
    response = html_response()
    soup = response.soup
    a, b = soup.find_all("a", href=True)
    assert response.follow(a).url == "http://example.com/dir/a.html"
    # Surrounding whitespace is stripped, as for Selectors.
    assert response.follow(b).url == "http://example.com/b.html"
    assert response.follow(soup.img).url == "http://example.com/dir/i.png"
    assert response.follow(soup.link).url == "http://example.com/dir/next.html"
    with pytest.raises(ValueError, match="no href or src"):
        response.follow(soup.find("a", attrs={"name": "n"}))
    # Everything else still works as in Scrapy.
    assert response.follow("x.html").url == "http://example.com/dir/x.html"
    assert response.follow(response.css("a")[0]).url == "http://example.com/dir/a.html"


def test_follow_all_takes_tags_and_skips_those_without_a_url() -> None:
    response = html_response()
    soup = response.soup
    urls = [r.url for r in response.follow_all(soup.find_all(["a", "img"]))]
    assert urls == [
        "http://example.com/dir/a.html",
        "http://example.com/b.html",
        "http://example.com/dir/i.png",
    ]
    mixed = [r.url for r in response.follow_all([soup.a, "z.html"])]
    assert mixed == ["http://example.com/dir/a.html", "http://example.com/dir/z.html"]
    assert [r.url for r in response.follow_all(css="a")] == urls[:2]
    # A generator of Tags works too.
    assert len(list(response.follow_all(t for t in soup.find_all("a")))) == 2


def test_soup_of_plain_responses() -> None:
    plain = HtmlResponse(URL, body=BODY)
    soup = soup_of(plain)
    assert soup is soup_of(plain)
    assert soup.title.string == "T"
    text = TextResponse(URL, body=b"<p>hi</p>", encoding="utf-8")
    assert soup_of(text).p.string == "hi"
    with pytest.raises(NotSupported):
        soup_of(Response(URL, body=b"\x89PNG"))
    json_response = JsonResponse(URL, body=b'{"a": "<p>x</p>"}')
    with pytest.raises(NotSupported, match="JsonResponse read as json"):
        soup_of(json_response)


def test_soups_do_not_keep_responses_alive() -> None:
    # The soups are kept per response, weakly; a soup must not refer back to
    # its response (or its Selector), or the entry would keep itself alive.
    for make in (lambda: HtmlResponse(URL, body=BODY), html_response):
        response = make()
        soup = soup_of(response)
        assert built_soup(response) is soup
        ref = weakref.ref(response)
        del response, soup
        gc.collect()
        assert ref() is None


@pytest.mark.parametrize(
    "body",
    [
        b"<!DOCTYPE html><p>x",
        b"\xef\xbb\xbf  <html lang=en>",
        b"<!-- c --> <HEAD><title>",
        b"\n\n<body>",
    ],
)
def test_looks_like_html(body: bytes) -> None:
    assert looks_like_html(body)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"plain text <html>",
        b'{"a": 1}',
        b"<?xml version='1.0'?><html/>",
        b"<htmlx>",
    ],
)
def test_does_not_look_like_html(body: bytes) -> None:
    assert not looks_like_html(body)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b" \n\t\r ",
        b"<html>",
        b"<html></html>",
        b"\xff\xfe\x00\x00garbage",
        b"<html><body>\x80\x81</body>",
        b"<<<>>>&&&",
    ],
)
def test_bad_bodies_give_a_soup(body: bytes) -> None:
    response = html_response(body)
    soup = response.soup
    ours = [t.name for t in soup.find_all(True)]
    theirs = [t.name for t in BeautifulSoup(response.text, "lxml").find_all(True)]
    assert ours == theirs


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_pages(), ids=lambda p: p.name)
def test_every_corpus_page_matches_bs4(path: Path) -> None:
    # No Content-Type charset: Scrapy detects the encoding, and bs4 gets the
    # text Scrapy decoded, so only the trees are compared.
    response = html_response(path.read_bytes(), url="http://example.com/page.html")
    assert soup_queries(response.soup) == bs4_queries(response.text, "lxml")


# Document-level shapes the soup rebuilds from the page text (doctype,
# comments and PIs around the root, whitespace and comments after </html>,
# a stray end tag first).
DOCUMENT_LEVEL_CASES = [
    b"<!DOCTYPE html><html><body><p>x</p></body></html>\n",
    b"<!-- before --><!DOCTYPE html>\n<html><body>x</body></html>\n<!-- after -->\n",
    b'<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
    b'"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html><p>x</p></html>',
    b"<html><head><title>no doctype</title></head><body>x</body></html>  \n\n",
    b"</p>\n<!DOCTYPE html>\n<html><body>stray end tag first</body></HTML >\n",
    # After a stray end tag libxml2 drops the doctype and (in parsel's parser)
    # invents its HTML 4.0 one: the page's own is the one to show.
    b"</div><!-- c --><!DOCTYPE html><p>x",
    b"<!-- c --></b>\n<!doctype HTML>\n<html><p>x</p></html>",
    b'</p><!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN" '
    b'"http://www.w3.org/TR/REC-html40/loose.dtd"><html><body>x</body></html>',
    b"<p>no html element at all",
]


@pytest.mark.parametrize("body", DOCUMENT_LEVEL_CASES)
def test_the_document_level_is_worked_out_on_first_use(body: bytes) -> None:
    from scrapy_soup import Soup

    response = html_response(body)
    response.css("p")
    soup = response.soup
    # Searching does not need the doctype or what surrounds the root ...
    assert soup.find_all("p") == soup.find_all("p")
    assert soup._doc._pending is not None
    # ... the document's children do, and they are those of a soup that
    # parsed the text itself, and bs4's.
    contents = [str(c) for c in soup.contents]
    assert soup._doc._pending is None
    assert contents == [str(c) for c in Soup(response.text).contents]
    theirs = BeautifulSoup(response.text, "lxml")
    assert contents == [str(c) for c in theirs.contents]
    assert str(soup) == str(theirs)


# Links follow_all(tags) skips, as Scrapy's LinkExtractor does, and why.
SKIPPED_LINKS = [
    "mailto:someone@example.com",
    "tel:+15551234",
    "javascript:void(0)",
    " JavaScript:alert(1)",
    "java\nscript:alert(1)",
    "data:text/html,<p>x</p>",
    "ftp://example.com/file",
    "http://[::1",  # does not resolve
    "http://example.com:99999/",  # no valid request URL
]
FOLLOWED_LINKS = {
    "next.html": "http://example.com/dir/next.html",
    "//other.example/x": "http://other.example/x",
    "HTTPS://example.com/y": "https://example.com/y",
    "?page=2": "http://example.com/dir/page.html?page=2",
}


def test_follow_all_skips_links_a_crawl_cannot_follow() -> None:
    from scrapy.statscollectors import MemoryStatsCollector

    links = [*SKIPPED_LINKS, *FOLLOWED_LINKS]
    body = "".join(f"<a href='{href}'>x</a>" for href in links).encode()
    response = SoupHtmlResponse(URL, body=body)
    tags = response.soup.find_all("a")
    assert [tag["href"] for tag in tags] == links
    urls = [request.url for request in response.follow_all(tags)]
    assert urls == list(FOLLOWED_LINKS.values())
    # Strings are Scrapy's business: follow_all() passes them on as given.
    with pytest.raises(ValueError, match="Missing scheme"):
        list(response.follow_all(["mailto:x@example.com"]))
    # In a crawl, the skipped ones are counted (the middleware hands the
    # crawler's stats on with the response).
    from scrapy_helpers import make_crawler

    from scrapy_soup._scrapy._stats import LINKS_SKIPPED
    from scrapy_soup._scrapy.responses import hand_on

    stats = MemoryStatsCollector(make_crawler())
    crawled = hand_on(HtmlResponse(URL, body=body), stats, sniff_html=False)
    assert isinstance(crawled, SoupResponse)
    assert len(list(crawled.follow_all(crawled.soup.find_all("a")))) == len(
        FOLLOWED_LINKS
    )
    assert stats.get_value(LINKS_SKIPPED) == len(SKIPPED_LINKS)


@pytest.mark.parametrize("href", SKIPPED_LINKS[:3])
def test_follow_raises_scrapys_error_where_scrapy_would(href: str) -> None:
    response = SoupHtmlResponse(URL, body=f"<a href='{href}'>x</a>".encode())
    with pytest.raises(ValueError) as ours:
        response.follow(response.soup.a)
    with pytest.raises(ValueError) as scrapys:
        HtmlResponse(URL, body=b"").follow(href)
    assert str(ours.value) == str(scrapys.value)


def test_the_private_scrapy_attributes_used_are_there() -> None:
    """Every private Scrapy attribute scrapy_soup uses (see responses.py's docstring).

    Fails when a Scrapy release drops or renames one: run at the floors and
    at the newest Scrapy.
    """
    from weakref import WeakKeyDictionary

    from scrapy.utils import response as response_utils
    from scrapy.utils.response import get_base_url

    from scrapy_soup._scrapy.responses import parsed_root

    # _baseurl_cache: get_base_url() reads the base URL from it.
    cache = response_utils._baseurl_cache
    assert isinstance(cache, WeakKeyDictionary)
    plain = HtmlResponse(URL, body=b"<base href='http://[::1'>")
    cache[plain] = "http://example.com/from-the-cache/"
    assert get_base_url(plain) == "http://example.com/from-the-cache/"
    # _cached_selector: None until the page is parsed, then the selector.
    fresh = HtmlResponse(URL, body=BODY)
    assert fresh._cached_selector is None
    assert parsed_root(fresh) is None
    assert parsed_root(fresh) is None
    selector = fresh.selector
    assert fresh._cached_selector is selector
    assert parsed_root(fresh) is selector.root
