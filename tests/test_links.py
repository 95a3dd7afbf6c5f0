"""Tests for scrapy_soup.markup.links: absolutize_links / absolutize_element."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from bs4 import BeautifulSoup
from conftest import corpus_page, corpus_pages, corpus_params, read_page
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree, html
from w3lib.html import get_base_url
from w3lib.url import safe_url_string

from scrapy_soup import Soup
from scrapy_soup.markup._url import (
    Base,
    css_url_spans,
    ping_spans,
    refresh_url_span,
    srcset_url_spans,
    url_scheme,
)
from scrapy_soup.markup.links import (
    URL_ATTRIBUTES,
    absolutize_element,
    absolutize_links,
    absolutize_read,
)

PAGE = "https://example.com/dir/page.html?q=1"


PAGES = corpus_pages()


def _one(fragment: str, base: str = PAGE, **kw: object) -> str:
    result = absolutize_links(fragment, base, **kw)  # type: ignore[arg-type]
    assert isinstance(result, str)
    return result


def _attr(fragment: str, tag: str, attr: str, base: str = PAGE) -> str | None:
    """Absolutize, then read the attribute back through bs4 (the oracle parser)."""
    out = BeautifulSoup(_one(fragment, base), "html.parser").find(tag)
    assert out is not None
    value = out.get(attr)
    return (
        None if value is None else " ".join(value) if isinstance(value, list) else value
    )


# -- one URL per attribute -------------------------------------------------
SINGLE = [
    ("a", "href"),
    ("link", "href"),
    ("area", "href"),
    ("img", "src"),
    ("script", "src"),
    ("iframe", "src"),
    ("form", "action"),
    ("button", "formaction"),
    ("input", "formaction"),
    ("video", "poster"),
    ("blockquote", "cite"),
    ("q", "cite"),
    ("object", "data"),
    ("body", "background"),
    ("td", "background"),
    ("img", "longdesc"),
    ("img", "usemap"),
    ("html", "manifest"),
    ("object", "codebase"),
]


@pytest.mark.parametrize(("tag", "attr"), SINGLE)
def test_every_single_url_attribute(tag: str, attr: str) -> None:
    fragment = f'<div><{tag} {attr}="../img/a b.png?x=1#f">t</{tag}></div>'
    el = html.fragment_fromstring(fragment, create_parent="div")
    count = absolutize_element(el, PAGE)
    node = el.find(f".//{tag}") if tag not in ("html", "body") else el.find(".//div")
    # body/html inside a fragment are dropped by the HTML parser; test those
    # on an element built directly.
    if node is None or tag in ("html", "body"):
        node = etree.SubElement(el, tag, {attr: "../img/a b.png?x=1#f"})
        count = absolutize_element(el, PAGE)
    assert count == 1
    assert node.get(attr) == safe_url_string(urljoin(PAGE, "../img/a b.png?x=1#f"))
    assert node.get(attr) == "https://example.com/img/a%20b.png?x=1#f"


def test_data_only_on_object() -> None:
    assert _attr('<div data="x.json">d</div>', "div", "data") == "x.json"
    assert _attr('<object data="x.swf"></object>', "object", "data") == (
        "https://example.com/dir/x.swf"
    )


def test_usemap_fragment_is_left_alone() -> None:
    assert _attr('<img usemap="#map">', "img", "usemap") == "#map"


LEFT_ALONE = [
    "#top",
    "mailto:someone@example.com",
    "tel:+33123456789",
    "data:image/png;base64,iVBORw0KGgo=",
    "javascript:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "https://other.example/x",
    "HTTP://OTHER.example/x",
    "ftp://files.example/f",
    "//[::1/broken-ipv6",
    "http://[::1/broken-ipv6",
]


@pytest.mark.parametrize("value", ["", "   "])
@pytest.mark.parametrize("page", [PAGE, PAGE + "#part"])
def test_an_empty_href_links_to_the_page_as_lxml_resolves_it(
    value: str, page: str
) -> None:
    el = etree.fromstring("<div><a>x</a><img/></div>")
    el[0].set("href", value)
    el[1].set("src", value)
    oracle = html.fromstring('<div><a href="">x</a></div>')
    oracle.make_links_absolute(page)
    assert absolutize_element(el, page) == 1
    # lxml keeps the page's fragment; a browser drops it (WHATWG URL).
    assert el[0].get("href") == oracle[0].get("href").split("#")[0]
    assert el[1].get("src") == value  # an empty src requests nothing


@pytest.mark.parametrize(
    ("encoding", "query"),
    [("cp1252", "caf\xe9"), ("shift_jis", "\u65e5\u672c"), ("utf-8", "caf\xe9")],
)
def test_the_query_is_encoded_in_the_page_encoding_as_scrapy_requests_it(
    encoding: str, query: str
) -> None:
    from scrapy import Request

    el = etree.fromstring("<div><a>x</a></div>")
    el[0].set("href", f"/s?q={query}")
    absolutize_element(el, PAGE, encoding=encoding)
    # What response.follow() requests: Request(urljoin(...), encoding=page's).
    expected = Request(urljoin(PAGE, f"/s?q={query}"), encoding=encoding).url
    assert el[0].get("href") == expected


@pytest.mark.parametrize("value", LEFT_ALONE)
def test_left_alone(value: str) -> None:
    el = etree.fromstring("<div><a>x</a></div>")
    el[0].set("href", value)
    assert absolutize_element(el, PAGE) == 0
    assert el[0].get("href") == value


# -- resolution matches urljoin + safe_url_string (the w3lib/Scrapy way) ----
RELATIVE = [
    "foo.html",
    "./foo.html",
    "../foo.html",
    "../../../../foo.html",
    "/abs/path",
    "/a/./b/../c",
    "?only=query",
    "foo?x=1&y=2#frag",
    "foo;params",
    "dir/",
    ".",
    "..",
    "//cdn.example/lib.js",
    "//CDN.Example/lib.js",
    "café/naïve.html",
    "a b/c d.html",
    "x%20y",
    "a|b",
    "[x]",
    "foo'bar",
]


@pytest.mark.parametrize("ref", RELATIVE)
def test_resolution_agrees_with_w3lib(ref: str) -> None:
    base = "https://example.com/dir/sub/page.html?q=1"
    expected = safe_url_string(urljoin(base, ref))
    if ref == "?only=query":
        # urljoin keeps nothing of the base query either way; same result.
        pass
    assert Base(base).resolve(ref) == expected


def test_backslash_is_a_slash_in_http_paths() -> None:
    # WHATWG URL: for special schemes "\" in the path is "/", so browsers
    # take "\\evil.example\x" as a network-path reference.
    assert _attr('<a href="\\\\evil.example\\x?a\\b">e</a>', "a", "href") == (
        "https://evil.example/x?a%5Cb"
    )


def test_whitespace_and_newlines_are_removed_like_browsers() -> None:
    assert _attr('<a href="  foo\n.html\t ">x</a>', "a", "href") == (
        "https://example.com/dir/foo.html"
    )


@given(st.text(alphabet="abc/.?#%-_ é", max_size=20))
def test_fast_resolution_matches_safe_url_string(ref: str) -> None:
    base = Base("https://example.com/d1/d2/p.html?b=1")
    resolved = base.resolve(ref)
    if resolved is None:
        return
    # An empty query or fragment ("x?", "x#") is kept, as browsers keep it;
    # urljoin and safe_url_string drop it.  Compare the rest.
    # urljoin also collapses "//" inside paths, which browsers keep.
    if re.search(r"[?#]\s*([?#]|$)", ref) or "//" in ref:
        return
    assert safe_url_string(resolved) == resolved
    if not ref.strip().startswith("//"):
        assert resolved == safe_url_string(urljoin(base.url, ref.strip()))


# -- srcset (HTML Standard, "parse a srcset attribute") --------------------
SRCSET_CASES = [
    # (value, URLs the spec's parser finds)
    ("a.jpg", ["a.jpg"]),
    ("a.jpg 1x, b.jpg 2x", ["a.jpg", "b.jpg"]),
    ("a,b.jpg 1x, c.jpg 2x", ["a,b.jpg", "c.jpg"]),
    ("a.jpg,b.jpg", ["a.jpg,b.jpg"]),
    ("a.jpg, b.jpg", ["a.jpg", "b.jpg"]),
    ("a.jpg,, b.jpg", ["a.jpg", "b.jpg"]),
    (",,,,  ,,, data:,a", ["data:,a"]),
    (",0", ["0"]),
    (" data:,a 1x, data:,b 2x ", ["data:,a", "data:,b"]),
    ("data:,a ( , data:,b 1x, ), data:,c", ["data:,a", "data:,c"]),
    ("data:,a (, data:,b", ["data:,a"]),
    ("data:,a 100w 50h, data:,b", ["data:,a", "data:,b"]),
    ("image.jpg?w=100,200 100w", ["image.jpg?w=100,200"]),
    ("", []),
    (" , ", []),
]


@pytest.mark.parametrize(("value", "urls"), SRCSET_CASES)
def test_srcset_parsing(value: str, urls: list[str]) -> None:
    assert [value[s:e] for s, e in srcset_url_spans(value)] == urls


def test_srcset_rewrite_keeps_descriptors_and_separators() -> None:
    value = "a,1.jpg 1x,\n  b.jpg   2x , /c.jpg 300w"
    out = _attr(f'<img srcset="{value}">', "img", "srcset")
    assert out == (
        "https://example.com/dir/a,1.jpg 1x,\n  https://example.com/dir/b.jpg   2x ,"
        " https://example.com/c.jpg 300w"
    )


def test_imagesrcset_and_ping() -> None:
    out = _one(
        '<link rel=preload imagesrcset="a.png 1x, b.png 2x"><a ping="/p1  p2">x</a>'
    )
    soup = BeautifulSoup(out, "html.parser")
    assert soup.link["imagesrcset"] == (
        "https://example.com/dir/a.png 1x, https://example.com/dir/b.png 2x"
    )
    assert soup.a["ping"] == "https://example.com/p1  https://example.com/dir/p2"


# -- meta refresh ------------------------------------------------------------
REFRESH = [
    ("5; url=next.html", "next.html"),
    ("5;URL='next.html'", "next.html"),
    ('0 ; Url = "next.html" ', "next.html"),
    ("0, next.html", "next.html"),
    ("0.5; url=next.html", "next.html"),
    (".5 next.html", "next.html"),
    ("5", None),
    ("x; url=next.html", None),
    ("5;url=", None),
    ("0; url='a b.html", "a b.html"),
]


@pytest.mark.parametrize(("content", "url"), REFRESH)
def test_refresh_url_span(content: str, url: str | None) -> None:
    span = refresh_url_span(content)
    assert (None if span is None else content[span[0] : span[1]]) == url


def test_meta_refresh_rewritten() -> None:
    out = _attr(
        '<meta http-equiv="Refresh" content="5; URL=\'../next.html\'">',
        "meta",
        "content",
    )
    assert out == "5; URL='https://example.com/next.html'"
    # Another http-equiv: content is not a URL.
    assert _attr('<meta http-equiv="x" content="0; url=a">', "meta", "content") == (
        "0; url=a"
    )


# -- CSS -----------------------------------------------------------------------
def test_css_in_style_attribute_and_element() -> None:
    out = _one(
        "<div style=\"background: url( 'bg.png' ) no-repeat; list-style: url(i.gif)\">x</div>"
        '<style>@import "s.css"; p { background: url("../p.png") } '
        "q { background: url(data:image/png;base64,AA) }</style>"
    )
    soup = BeautifulSoup(out, "html.parser")
    assert soup.div["style"] == (
        "background: url( 'https://example.com/dir/bg.png' ) no-repeat;"
        " list-style: url(https://example.com/dir/i.gif)"
    )
    assert soup.style.string == (
        '@import "https://example.com/dir/s.css"; p { background: url("https://example.com/p.png") } '
        "q { background: url(data:image/png;base64,AA) }"
    )


def test_css_url_spans_skip_escapes() -> None:
    css = r"a{b:url(x\).png)} c{d:url(y.png)}"
    assert [css[s:e] for s, e, _ in css_url_spans(css)] == ["y.png"]


def test_css_unquoted_url_needing_quotes_is_quoted_safely() -> None:
    # A resolved URL with ')' or "'" cannot go unquoted; left as it was.
    out = _attr('<p style="background:url(a\'b(c).png)">x</p>', "p", "style")
    assert out == "background:url(a'b(c).png)"


# -- <base href> -----------------------------------------------------------------
BASES = [
    ('<base href="/other/">', "https://example.com/other/x.html"),
    ('<base href="sub/">', "https://example.com/dir/sub/x.html"),
    ('<base href="https://cdn.example/root/">', "https://cdn.example/root/x.html"),
    ('<base href="javascript:alert(1)">', "https://example.com/dir/x.html"),
    ('<base href="data:text/html,x">', "https://example.com/dir/x.html"),
    ('<base target="_top"><base href="/second/">', "https://example.com/second/x.html"),
    ('<base href="/first/"><base href="/second/">', "https://example.com/first/x.html"),
    ('<base href="http://[::1/">', "https://example.com/dir/x.html"),
]


@pytest.mark.parametrize(("base_tag", "expected"), BASES)
def test_base_element(base_tag: str, expected: str) -> None:
    out = _one(f'{base_tag}<a href="x.html">x</a>')
    assert BeautifulSoup(out, "html.parser").a["href"] == expected


def test_base_element_own_href_resolves_against_page() -> None:
    out = _one('<base href="sub/"><a href="x.html">x</a>')
    assert (
        BeautifulSoup(out, "html.parser").base["href"] == "https://example.com/dir/sub/"
    )


def test_base_found_anywhere_in_the_document_of_a_tag() -> None:
    root = html.document_fromstring(
        '<html><head><base href="/b/"></head><body><p><a href="x">x</a></p></body></html>'
    )
    p = root.find(".//p")
    assert p is not None
    assert absolutize_links(p, PAGE) is p
    assert p[0].get("href") == "https://example.com/b/x"


# -- SVG, namespaces, extra attributes -----------------------------------------
def test_svg_links() -> None:
    out = _one(
        '<svg><a xlink:href="l.html"><image href="i.png"/></a><use href="#icon"/></svg>'
    )
    soup = BeautifulSoup(out, "html.parser")
    assert soup.find("a")["xlink:href"] == "https://example.com/dir/l.html"
    assert soup.find("image")["href"] == "https://example.com/dir/i.png"
    assert soup.find("use")["href"] == "#icon"


def test_namespaced_xlink_in_xml_tree() -> None:
    el = etree.fromstring(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<image xlink:href="i.png"/></svg>'
    )
    assert absolutize_element(el, PAGE) == 1
    assert (
        el[0].get("{http://www.w3.org/1999/xlink}href")
        == "https://example.com/dir/i.png"
    )


def test_extra_attributes() -> None:
    out = _one(
        '<img src="ph.gif" data-src="real.jpg" data-srcset="a.jpg 1x, b,c.jpg 2x" '
        'data-other="keep.jpg">',
        extra_attrs=("data-src", "data-srcset"),
    )
    img = BeautifulSoup(out, "html.parser").img
    assert img["data-src"] == "https://example.com/dir/real.jpg"
    assert img["data-srcset"] == (
        "https://example.com/dir/a.jpg 1x, https://example.com/dir/b,c.jpg 2x"
    )
    assert img["data-other"] == "keep.jpg"


# -- counts, kinds, errors --------------------------------------------------------
def test_count_counts_every_url_rewritten() -> None:
    el = html.fragment_fromstring(
        '<a href="a" ping="p q">x</a><img srcset="1.png 1x, 2.png 2x" src="#x">'
        '<p style="background:url(b.png)">t</p><a href="https://abs.example/">y</a>',
        create_parent="div",
    )
    assert absolutize_element(el, PAGE) == 6
    assert absolutize_element(el, PAGE) == 0


def test_returns_same_kind() -> None:
    el = html.fragment_fromstring("<p><a href='x'>x</a></p>")
    assert absolutize_links(el, PAGE) is el
    tree = etree.ElementTree(html.fragment_fromstring("<p><a href='y'>y</a></p>"))
    assert absolutize_links(tree, PAGE) is tree
    assert tree.getroot()[0].get("href") == "https://example.com/dir/y"
    assert isinstance(absolutize_links("<a href='x'>x</a>", PAGE), str)


def test_fragment_output_has_no_html_body() -> None:
    out = _one("lead <b>bold</b> <a href=x>x</a> tail")
    assert out == 'lead <b>bold</b> <a href="https://example.com/dir/x">x</a> tail'
    assert _one("") == ""
    assert _one("just text") == "just text"


@pytest.mark.parametrize("bad", [None, b"<a href=x>", 3])
def test_unsupported_input_type(bad: object) -> None:
    with pytest.raises(TypeError):
        absolutize_links(bad, PAGE)


@pytest.mark.parametrize(
    "base", ["", "relative/path", "mailto:x@example.com", "about:blank"]
)
def test_bad_base_url(base: str) -> None:
    with pytest.raises(ValueError):
        absolutize_links("<a href=x>x</a>", base)


def test_url_scheme_browser_normalisation() -> None:
    assert url_scheme("\x01 JaVa\tScRi\npt:x") == "javascript"
    assert url_scheme("java script:x") is None
    assert url_scheme("/a:b") is None
    assert ping_spans(" a  b ") == [(1, 2), (4, 5)]


# What lxml lets a value hold: no C0 controls but tab/newlines, no
# U+FFFE/U+FFFF.
_XML_CHARS = st.characters(
    blacklist_categories=("Cs",), blacklist_characters="\x00\ufffe\uffff"
).filter(lambda c: c in "\t\n\r" or ord(c) >= 0x20)


@settings(max_examples=300)
@given(
    st.sampled_from(["href", "src", "srcset", "ping", "style", "content", "data-src"]),
    st.text(_XML_CHARS, max_size=40),
    st.sampled_from([PAGE, "http://[::1]/x/", "https://xn--caf-dma.example/a?b#c"]),
)
def test_never_raises(attr: str, value: str, base: str) -> None:
    el = etree.Element("div")
    child = etree.SubElement(el, "meta" if attr == "content" else "img", {attr: value})
    if attr == "content":
        child.set("http-equiv", "refresh")
    style = etree.SubElement(el, "style")
    style.text = f"a{{b:url({value})}}"
    absolutize_element(el, base, extra_attrs=["data-src"])


@settings(max_examples=200)
@given(st.text(max_size=60))
def test_never_raises_on_any_string(text: str) -> None:
    assert isinstance(absolutize_links(text, PAGE), str)


# -- real pages -----------------------------------------------------------------
_HAS_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def _left_alone_by_rule(value: str) -> bool:
    v = re.sub("[\t\n\r]", "", value.strip("".join(map(chr, range(0x21)))))
    return not v or v.startswith("#") or bool(_HAS_SCHEME.match(v))


@pytest.mark.parametrize("path", corpus_params(PAGES), ids=lambda p: p.name)
def test_corpus_pages(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    page_url = f"https://corpus.example/pages/{path.name}"
    before = html.document_fromstring(text)
    after = html.document_fromstring(text)
    absolutize_element(after, page_url)
    # The base we used is the one w3lib (Scrapy's get_base_url) finds.
    expected_base = safe_url_string(get_base_url(text, page_url))
    if not expected_base.startswith(("javascript:", "data:")):
        base_el = after.find(".//base[@href]")
        probe = etree.SubElement(after, "a", href="probe")
        absolutize_element(probe, page_url)
        assert probe.get("href") == safe_url_string(urljoin(expected_base, "probe")), (
            base_el
        )
        after.remove(probe)
    for old, new in zip(before.iter(), after.iter(), strict=True):
        assert old.tag == new.tag
        for name in URL_ATTRIBUTES & set(new.keys()):
            if name in ("srcset", "imagesrcset", "ping") or (
                name == "data" and new.tag != "object"
            ):
                continue
            value = new.get(name)
            assert value is not None
            if value == old.get(name):
                assert _left_alone_by_rule(value) or Base(page_url).resolve(value) in (
                    None,
                    value,
                ), (name, value)
            else:
                assert _HAS_SCHEME.match(value), (name, value)
        for name in ("srcset", "imagesrcset"):
            value = new.get(name)
            if value:
                for s, e in srcset_url_spans(value):
                    assert (
                        _left_alone_by_rule(value[s:e])
                        or Base(page_url).resolve(value[s:e]) is None
                    ), value


def test_corpus_base_fixtures_with_bs4() -> None:
    """The readability base-url fixtures: every link absolute, resolved like urljoin."""
    for name, base_dir in [
        ("base-url.html", "https://fakehost/test/"),
        ("base-url-base-element.html", "https://fakehost/"),
        ("base-url-base-element-relative.html", "https://fakehost/test/base/"),
    ]:
        text = read_page(corpus_page(name))
        root = html.document_fromstring(text)
        count = absolutize_element(root, "https://fakehost/test/page.html")
        original = BeautifulSoup(text, "lxml")
        result = BeautifulSoup(etree.tostring(root, encoding="unicode"), "lxml")
        pairs = list(
            zip(
                original.find_all(["a", "img"]),
                result.find_all(["a", "img"]),
                strict=True,
            )
        )
        assert pairs
        rewritten = 0
        for old, new in pairs:
            attr = "href" if old.name == "a" else "src"
            if old[attr].startswith(("#", "http:", "https:")):
                assert new[attr] == old[attr]
            else:
                assert new[attr] == urljoin(base_dir, old[attr])
                rewritten += 1
        assert count >= rewritten > 0


def test_clean_and_absolutize_writes_one_tree_by_lxml(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_clean import spy_xml_path

    from scrapy_soup import clean
    from scrapy_soup._tree._write import contents_html
    from scrapy_soup.markup.clean import clean_and_absolutize

    calls = spy_xml_path(monkeypatch)
    markup = '<p class=" a  b " title=t>x <a href="b.html" rel=" n  f ">y</a></p>'
    cleaned = clean(markup, "epub")
    calls.clear()
    # One parse for both jobs, and the tree it cleaned is plain: the same
    # text as the Python serializer writes, written by lxml.
    reference = html.fragment_fromstring(cleaned, create_parent="div")
    absolutize_element(reference, PAGE)
    one_pass = clean_and_absolutize(markup, PAGE, "epub")
    assert one_pass == absolutize_links(cleaned, PAGE) == contents_html(reference)
    assert one_pass == clean(markup, "epub", base_url=PAGE)
    assert calls == [True, True]
    # A link attribute that is also multi-valued: the Python serializer.
    calls.clear()
    reference = html.fragment_fromstring(cleaned, create_parent="div")
    absolutize_element(reference, PAGE, extra_attrs=["rel"])
    assert clean_and_absolutize(markup, PAGE, "epub", extra_attrs=["rel"]) == (
        absolutize_links(cleaned, PAGE, extra_attrs=["rel"])
    )
    assert absolutize_links(cleaned, PAGE, extra_attrs=["rel"]) == (
        contents_html(reference)
    )
    assert calls == []


@pytest.mark.parametrize(
    "document",
    [
        '<?xml version="1.0"?><svg><a href="x"/></svg>',
        '<?xml version="1.0"?>\n<!DOCTYPE html><html><body><a href="x">a</a>'
        + " " * 600
        + "</body></html>",
    ],
)
def test_xml_declared_document_gives_no_parser_warning(document: str) -> None:
    # bs4 would warn (XMLParsedAsHTMLWarning) for the soup parsed inside;
    # the caller has no parser to choose, and filterwarnings=error checks
    # that none escapes.
    assert 'href="https://example.com/x"' in absolutize_links(
        document, "https://example.com/"
    )


@pytest.mark.parametrize("path", corpus_params(PAGES), ids=lambda p: p.name)
def test_a_whole_page_string_is_written_as_its_soup_is(path: Path) -> None:
    # The string path writes the root element with the fast serializer; the
    # soup's own str() (checked against bs4's on the corpus) is the oracle.
    text = read_page(path)
    page_url = f"https://corpus.example/pages/{path.name}"
    soup = Soup(text)
    absolutize_links(soup, page_url)
    assert absolutize_links(text, page_url) == str(soup)


_READ_CASES = [
    '<a href="b/c.html">x</a><img src="../i.png" srcset="s.png 2x">',
    '<a href="">self</a><a href=" #top">top</a><a href="mailto:a@b">m</a>',
    '<base href="https://other.example/dir/"><a href="x">x</a>',
    '<base href="/root/"><img src="y.png"><a href="?q=1">q</a>',
    '<object data="o.swf"><a data="d" href="//cdn.example/z">z</a></object>',
    '<a href="%20a b">s</a><img src="http://[::1">',
]


@pytest.mark.parametrize(
    "markup",
    _READ_CASES + [read_page(p) for p in PAGES[:20]],
    ids=[f"case-{i}" for i in range(len(_READ_CASES))] + [p.name for p in PAGES[:20]],
)
def test_absolutize_read_gives_the_links_absolutize_nodes_gives(markup: str) -> None:
    # A converter's path: only href and src made absolute, read by name.
    from scrapy_soup.markup._markup import parse_fragment

    names = frozenset({"href", "src"})
    base = "https://example.com/a/page.html"
    full = parse_fragment(markup).element
    absolutize_element(full, base)
    read = parse_fragment(markup).element
    nodes = [n for n in read.iter(etree.Element) if not names.isdisjoint(n.keys())]
    absolutize_read(read, nodes, base, names)
    for name in names:
        assert [n.get(name) for n in read.iter()] == [n.get(name) for n in full.iter()]
