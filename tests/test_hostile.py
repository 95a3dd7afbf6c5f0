"""Hostile documents: nothing a server sends may crash, hang or leak.

Sizes are the issue's (100,000-deep nesting, 1,000,000 siblings, 50 MB,
10,000 attributes), the checks are linear; the three largest cost the most
CPU of the suite (the 50 MB page about 90 CPU-seconds), so they run once in
CI's slow pass (``pytest -m slow``), not in every default run. Where
bs4 can process the same input in reasonable time it is the oracle; where it
cannot (1,000,000 siblings, 50 MB) lxml's own XPath over the same tree is.
"""

from __future__ import annotations

import re
from pathlib import Path

import bs4
import pytest
from conftest import corpus_pages, read_page
from local_server import LocalServer, Reply
from lxml import etree

from scrapy_soup import Soup, TruncatedDocumentWarning, absolutize_links, clean

MODES = ["html", "fragment", "xml"]
CONTROL = "".join(map(chr, [*range(0x20), *range(0x7F, 0xA0)]))


def _everything(soup: Soup) -> None:
    """Use the soup as a spider would: output, text, searches, navigation."""
    assert isinstance(str(soup), str)
    assert isinstance(soup.get_text(), str)
    assert isinstance(soup.encode("utf-8"), bytes)
    found = soup.find_all(True, limit=50)
    assert found == soup.select("*", limit=50) or soup.is_xml
    for tag in found[:10]:
        assert tag.parent is not None
        _ = tag.next_element, tag.previous_element, tag.attrs


# -- size and shape ----------------------------------------------------------------
# 2-5 s each: the rebuild from parser events is linear, and the soup frees
# its wrappers deepest first (Soup.__del__; top-down took ~45 s).
@pytest.mark.slow  # CPU-heavy: the slow pass of .ci/run (once), not the default run
@pytest.mark.parametrize("mode", MODES)
def test_100_000_deep_nesting(mode: str) -> None:
    text = "<div>" * 100_000 + "deep" + "</div>" * 100_000 + "<p>after</p>"
    # Past libxml2's tree depth (2,048) the tree is rebuilt from the
    # parser's events, as bs4 builds it: everything is kept.
    soup = Soup(f"<r>{text}</r>" if mode == "xml" else text, mode)
    assert not soup.truncated
    assert soup.get_text() == "deepafter"
    assert len(soup.find_all("div")) == 100_000
    _everything(soup)
    divs = soup.find_all("div")
    assert divs
    assert len(soup.select("div > div", limit=10)) == 10
    assert str(soup).count("<div") == len(divs)


def test_100_000_deep_tree_built_with_lxml() -> None:
    # lxml frees an element proxy by walking up to the nearest ancestor that
    # still has one: the chain's proxies are held while it is built and let
    # go deepest first (building it with each proxy dropped took ~30 s).
    root = etree.Element("html")
    chain = [etree.SubElement(root, "body")]
    for _ in range(100_000):
        chain.append(etree.SubElement(chain[-1], "div"))
    chain[-1].text = "deep"
    while chain:
        chain.pop()
    soup = Soup(root)
    assert soup.get_text() == "deep"
    assert str(soup).count("<div>") == 100_000
    assert len(soup.find_all("div", limit=3)) == 3
    assert soup.select_one("body > div") is soup.find("div")


def test_deep_tree_built_with_lxml_through_clean_and_links() -> None:
    # 10,000 levels, not 100,000: lxml's iter() costs O(depth) per step
    # (clean_element and absolutize_element walk with it), so 100,000 levels
    # take minutes; the HTML parser never builds trees that deep.
    root = etree.Element("div")
    el = root
    for _ in range(10_000):
        el = etree.SubElement(el, "a", href="x", onclick="y")
    el.text = "deep"
    soup = Soup(root, "fragment")
    assert absolutize_links(soup, "http://e.com/") is soup
    assert clean(soup) is soup
    assert soup.get_text() == "deep"
    assert 'href="http://e.com/x"' in str(soup) and "onclick" not in str(soup)


def test_deep_string_through_clean_and_links() -> None:
    text = "<div><a href='x'>" * 20_000 + "deep"
    assert clean(text).count("<div>") == 20_000  # deeper than libxml2 builds
    assert clean(text).endswith("deep" + "</a></div>" * 20_000)
    assert "http://example.com/x" in absolutize_links(text, "http://example.com/")
    shallow = "<div><a href='x'>" * 500 + "deep"
    assert clean(shallow).count("deep") == 1
    assert absolutize_links(shallow, "http://e.com/").count("http://e.com/x") == 500


@pytest.mark.slow  # CPU-heavy: the slow pass of .ci/run (once), not the default run
def test_1_000_000_siblings() -> None:
    text = "<body>" + "<br>" * 1_000_000 + "<p id=last>end</p></body>"
    soup = Soup(text)
    body = soup.body
    assert body is not None
    assert len(body.find_all("br")) == 1_000_000
    assert len(body.contents) == 1_000_001
    last = soup.find("p", id="last")
    assert last is not None and last.previous_sibling.name == "br"
    assert soup.select_one("p:last-child") is last
    assert soup.get_text() == "end"
    assert len(str(soup)) == len("<html><body>") + 5 * 1_000_000 + 34


def _fifty_megabytes() -> str:
    """One document: the bodies of corpus pages, repeated to 50 MB."""
    bodies = []
    for page in corpus_pages()[:40]:
        text = read_page(page)
        start = re.search(r"<body[^>]*>", text, re.I)
        end = text.lower().rfind("</body>")
        if start and end > start.end():
            bodies.append(text[start.end() : end])
    assert bodies, "no corpus page with a <body>"
    body = "".join(bodies)
    repeat = 50 * 2**20 // len(body.encode()) + 1
    return "<!DOCTYPE html><html><head><title>big</title></head><body>" + (
        body * repeat
    )


@pytest.mark.slow  # CPU-heavy: the slow pass of .ci/run (once), not the default run
def test_50_mb_page() -> None:
    text = _fifty_megabytes()
    data = text.encode("utf-8")
    assert len(data) >= 50 * 2**20
    soup = Soup(data)
    assert soup.original_encoding in ("utf-8", "utf8")
    root = soup._root
    # The view answers what lxml's XPath over the same tree answers.
    assert len(soup.find_all("a", href=True)) == int(root.xpath("count(//a[@href])"))
    assert len(soup.select("p")) == int(root.xpath("count(//p)"))
    text = soup.get_text()
    assert len(text) > 5 * 2**20
    first = soup.find("p")
    assert first is not None and first.get_text() in text


@pytest.mark.parametrize("mode", MODES)
def test_10_000_attributes_on_one_tag(mode: str) -> None:
    attrs = " ".join(f'a{i}="v{i}"' for i in range(10_000))
    text = f"<root><div {attrs} href='/x'>x</div></root>"
    soup = Soup(text, mode)
    div = soup.find("div")
    assert div is not None and len(div.attrs) == 10_001
    assert div["a9999"] == "v9999"
    assert soup.select_one("div[a5000=v5000]") is div
    assert soup.find(attrs={"a123": "v123"}) is div
    out = str(soup)
    assert out.count('="v') == 10_000
    if mode != "xml":
        assert str(bs4.BeautifulSoup(text, "lxml").div) == str(div)
        assert 'href="http://e.com/x"' in absolutize_links(text, "http://e.com/")
        assert clean(text) == "<div>x</div>"


@pytest.mark.parametrize("mode", ["html", "fragment"])
def test_huge_attribute_value(mode: str) -> None:
    value = "x" * (20 * 2**20)
    soup = Soup(f'<p title="{value}" href="/{value[:1000]}">y</p>', mode)
    p = soup.find("p")
    assert p is not None and p["title"] == value
    assert len(str(p)) > len(value)
    assert soup.find("p", title=value) is p


def test_huge_values_in_xml() -> None:
    value = "x" * (11 * 2**20)
    soup = Soup(f'<r><p title="{value}">y</p><t>{value}</t></r>', "xml")
    p = soup.find("p")
    assert p is not None and p["title"] == value
    t = soup.find("t")
    assert t is not None and t.string == value


def test_xml_deeper_than_256_levels_keeps_its_content() -> None:
    text = "<r>" + "<a>" * 300 + "deep" + "</a>" * 300 + "</r>"
    theirs = bs4.BeautifulSoup(text, "xml")
    ours = Soup(text, "xml")
    assert len(ours.find_all("a")) == len(theirs.find_all("a")) == 300
    assert ours.get_text() == theirs.get_text() == "deep"


# -- characters and bytes ----------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_every_control_character(mode: str) -> None:
    text = f'<root><p title="{CONTROL}">{CONTROL}</p><!--{CONTROL}--></root>'
    soup = Soup(text, mode)
    _everything(soup)
    again = Soup(str(soup), mode)
    assert again.get_text() == soup.get_text()
    assert Soup(text.encode("utf-8"), mode).get_text() == soup.get_text()
    assert isinstance(clean(text), str)
    assert isinstance(absolutize_links(text, "http://e.com/"), str)


@pytest.mark.parametrize("mode", MODES)
def test_lone_surrogates_in_str(mode: str) -> None:
    text = '<root><p title="\ud800x">a\udfffb</p>\udc80<!--\ud83d--></root>'
    soup = Soup(text, mode)
    _everything(soup)
    p = soup.find("p")
    assert p is not None
    assert p.get_text() == "a\ufffdb"
    assert p["title"] == "\ufffdx"
    assert isinstance(clean(text), str)
    assert isinstance(absolutize_links(text, "http://e.com/"), str)


# XML-declared input parsed as HTML on purpose.
@pytest.mark.filterwarnings("ignore::scrapy_soup.XMLParsedAsHTMLWarning")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "data",
    [
        b"<root><p>\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x90\x28\xbc</p></root>",
        b"<root><p>caf\xc3\xa9 caf\xe9 \x93quoted\x94 \x82\xa0</p></root>",  # mixed
        b'<meta charset="utf-8"><root><p>\xe9\xe8</p></root>',  # lying declaration
        b'<?xml version="1.0" encoding="koi8-r"?><root>\xff\x00\xfe</root>',
        b"\xef\xbb\xbf<root>\x00\x00<p>\x00x\x00</p>\x00</root>",
        b"\xff\xfe<\x00r\x00>\x00\x00\xd8",  # UTF-16 with a cut surrogate
        b"<root>" + bytes(range(256)) * 4 + b"</root>",
    ],
    ids=["invalid-utf8", "mixed", "lying-meta", "xml-decl", "nuls", "utf16", "all"],
)
def test_undecodable_bytes(mode: str, data: bytes) -> None:
    soup = Soup(data, mode)
    _everything(soup)
    assert Soup(str(soup), mode).get_text() == soup.get_text() or soup.is_xml


@pytest.mark.parametrize("mode", MODES)
def test_nul_bytes_in_str(mode: str) -> None:
    text = "<root><p a='\x00'>x\x00y</p>\x00<!--\x00--><script>\x00</script></root>"
    soup = Soup(text, mode)
    _everything(soup)
    assert "\x00" not in str(soup)  # never written out: XML cannot carry it


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "tail",
    [
        "<!-- never closed <p>x</p>",
        "<![CDATA[ never closed <p>x</p>",
        "<script>never closed <p>x</p>",
        "<style>never closed",
        "<textarea>never closed <b>",
        "<title>never closed",
        "<?pi never closed",
        "<!DOCTYPE never closed",
        "<p a='never closed",
        "<p a=x b",
        "</",
        "<",
        "&#x",
        "&am",
    ],
)
def test_unterminated_constructs(mode: str, tail: str) -> None:
    text = "<root><p>before</p>" + tail
    soup = Soup(text, mode)
    _everything(soup)
    assert "before" in soup.get_text() or mode == "xml"
    out = clean(text)
    assert "<script" not in out and "<style" not in out
    assert isinstance(absolutize_links(text, "http://e.com/"), str)


@pytest.mark.parametrize(
    "base",
    [
        "http://[::1",
        "http://a:99999/",
        "javascript:alert(1)",
        "data:text/html,x",
        "//",
        "",
        "\x00\x01 http://e.com/",
        "http://\u2028/",
        "http://xn--/",
        "h" * 10_000,
        "http://e.com/" + "%" * 1000,
    ],
)
def test_base_href_with_invalid_urls(base: str) -> None:
    text = f'<base href="{base}"><a href="rel">x</a><img src="/i.png">'
    out = absolutize_links(text, "http://page.example/dir/page.html")
    soup = Soup(out, "fragment")
    a, img = soup.find("a"), soup.find("img")
    assert a is not None and img is not None
    # Resolved against the page when the base is unusable, never raising.
    assert a["href"].startswith(("http", "rel")) or a["href"] == "rel"
    assert isinstance(clean(text), str)


def test_base_href_with_invalid_urls_in_a_response() -> None:
    from scrapy.http import HtmlResponse

    from scrapy_soup import soup_of

    for base in ("http://[::1", "javascript:x", "\x00", "http://a:99999/"):
        body = f'<html><head><base href="{base}"></head><body><a href="r">x'
        response = HtmlResponse("http://page.example/", body=body.encode())
        soup = soup_of(response)
        assert isinstance(soup.base_url, str)
        assert soup.find("a") is not None
        # The same response's selectors work too (Scrapy's own raise here).
        assert response.css("a::attr(href)").get() == "r"
        if base in ("http://[::1", "http://a:99999/"):
            # Unparsable: ignored, as a browser ignores it.
            assert soup.base_url == "http://page.example/"


# -- XML: no entity expansion, no fetching -----------------------------------------
def _entities(levels: int) -> str:
    ents = "".join(
        f'<!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">' for i in range(2, levels)
    )
    return f'<!DOCTYPE r [<!ENTITY lol1 "lol">{ents}]>'


# XML-declared input parsed as HTML on purpose.
@pytest.mark.filterwarnings("ignore::scrapy_soup.XMLParsedAsHTMLWarning")
@pytest.mark.parametrize("as_bytes", [True, False])
@pytest.mark.parametrize(
    "body",
    ["<r>&lol9;</r>", '<r a="&lol9;">x</r>', "<r><x>&lol9;&lol9;</x>tail</r>"],
)
def test_billion_laughs_is_not_expanded(body: str, as_bytes: bool) -> None:
    text = '<?xml version="1.0"?>' + _entities(10) + body
    # Refused past the entity budget, said so, and the rest of the document
    # kept (libxml2's own limit stopped the parse there).
    with pytest.warns(TruncatedDocumentWarning, match="&lol9; expands past"):
        soup = Soup(text.encode() if as_bytes else text, "xml")
    assert soup.truncated
    out = str(soup)
    assert len(out) < 10_000
    assert "lollol" not in out and "lollol" not in soup.get_text()
    assert soup.find("r") is not None
    kept = "tail" if "tail" in body else "x" if "x<" in body else ""
    assert soup.get_text() == kept
    for mode in ("html", "fragment"):
        assert len(str(Soup(text, mode))) < 10_000


def _fetches() -> LocalServer:
    """The local test server (started), answering every GET with an entity."""
    return LocalServer(lambda _target: Reply(b'<!ENTITY leak "FETCHED">')).start()


# XML-declared input parsed as HTML on purpose.
@pytest.mark.filterwarnings("ignore::scrapy_soup.XMLParsedAsHTMLWarning")
def test_external_entities_are_neither_fetched_nor_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    server = _fetches()
    try:
        docs = [
            f'<!DOCTYPE r [<!ENTITY x SYSTEM "{secret.as_uri()}">]><r>&x;</r>',
            f'<!DOCTYPE r [<!ENTITY x SYSTEM "{server.base}/ent">]><r>&x;</r>',
            f'<!DOCTYPE r [<!ENTITY % p SYSTEM "{server.base}/dtd"> %p;]><r>&leak;</r>',
            f'<!DOCTYPE r SYSTEM "{server.base}/doctype"><r>&leak;</r>',
            f'<!DOCTYPE r [<!ENTITY x SYSTEM "{secret}">]><r a="&x;">&x;</r>',
            '<r xmlns:xi="http://www.w3.org/2001/XInclude">'
            f'<xi:include href="{secret.as_uri()}" parse="text"/></r>',
        ]
        for doc in docs:
            text = '<?xml version="1.0"?>' + doc
            for markup in (text, text.encode()):
                for mode in MODES:
                    soup = Soup(markup, mode)
                    out = str(soup) + soup.get_text()
                    assert "TOP-SECRET" not in out
                    assert "FETCHED" not in out
        assert server.requests == []
    finally:
        server.close()
