"""Bridges: a Tag is also a parsel Selector and an lxml element.

``tag.selector`` is a parsel ``Selector`` over the element the Tag wraps (no
copy, no parse), ``Soup(selector_list)`` / ``soup_of(selector_list)`` give
the Tags of ``response.soup``, and lxml-based libraries (ItemLoader,
html-text, ``lxml.html``) run on the same parse. On real pages of the corpus
through a hand-built ``SoupHtmlResponse``, as a callback sees it.
"""

from __future__ import annotations

from pathlib import Path

import html_text
import lxml.html
import parsel
import pytest
from conftest import corpus_pages, corpus_params
from itemloaders.processors import Join, MapCompose, TakeFirst
from scrapy.http import HtmlResponse
from scrapy.loader import ItemLoader

from scrapy_soup import ResultSet, Soup, Tag
from scrapy_soup._scrapy import SoupHtmlResponse, soup_of

PAGES = corpus_params(corpus_pages())


def page_response(path: Path) -> SoupHtmlResponse:
    return SoupHtmlResponse(
        f"https://example.com/{path.name}", body=path.read_bytes(), encoding="utf-8"
    )


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_selector_root_is_the_element_response_css_returns(path: Path) -> None:
    response = page_response(path)
    tags = response.soup.find_all(True)
    by_css = response.xpath("//*")
    assert len(tags) == len(by_css) > 0
    for tag, selector in zip(tags, by_css, strict=True):
        assert tag.selector.root is selector.root
        assert tag.selector.type == "html"
    # The whole soup's selector is the response's, over <html>.
    assert response.soup.selector.root is response.selector.root


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_soup_of_a_selector_list_is_find_all(path: Path) -> None:
    response = page_response(path)
    expected = response.soup.find_all("p")
    got = Soup(response.css("p"))
    assert isinstance(got, ResultSet)
    assert got == expected
    # The very same Tags, of the very same soup.
    assert all(a is b for a, b in zip(got, expected, strict=True))
    assert all(t._doc is response.soup._doc for t in got)
    by_soup_of = soup_of(response.css("p"))
    assert all(a is b for a, b in zip(by_soup_of, expected, strict=True))
    # Every element, not only paragraphs (a few fixture pages have none).
    everything = response.soup.find_all(True)
    assert len(everything) > 0
    assert Soup(response.xpath("//*")) == everything


def test_a_selector_list_before_the_soup_gives_that_soups_tags() -> None:
    # Not wrapped by the middleware: soup_of() makes the soup later.
    body = b"<html><body><div><p>a</p><p>b</p></div></body></html>"
    response = HtmlResponse("https://example.com/", body=body, encoding="utf-8")
    tags = Soup(response.css("p"))
    assert [t.get_text() for t in tags] == ["a", "b"]
    assert tags[0].find_parent("div") is tags[1].parent
    assert tags[0].parent.parent.name == "body"
    # A plain parsel selection, of a soup made from a string, is that soup's.
    soup = Soup("<ul><li>1</li><li>2</li></ul>")
    assert Soup(soup.ul.selector.css("li")) == soup.find_all("li")
    assert soup_of(soup.selector.xpath("//li"))[1] is soup.find_all("li")[1]
    assert Soup(parsel.SelectorList()) == []


def test_text_and_attribute_selections_are_refused() -> None:
    response = page_response(corpus_pages()[0])
    with pytest.raises(TypeError, match="element selections"):
        Soup(response.css("p::text"))
    with pytest.raises(TypeError, match="element selections"):
        soup_of(response.xpath("//a/@href"))


def test_an_edit_through_either_is_seen_by_the_other() -> None:
    response = page_response(corpus_pages()[0])
    tag = response.soup.find("p")
    assert tag is not None
    tag["data-seen"] = "soup"
    assert tag.selector.attrib["data-seen"] == "soup"
    assert response.css("p")[0].attrib["data-seen"] == "soup"
    tag.selector.root.set("data-back", "lxml")
    assert tag["data-back"] == "lxml"
    tag.selector.root.text = "rewritten"
    assert tag.get_text().startswith("rewritten")
    assert response.soup.find("p") is tag


def test_selector_of_xml_and_fragment_soups() -> None:
    xml = Soup("<feed><entry><title>T</title></entry></feed>", "xml")
    assert xml.entry.selector.type == "xml"
    assert xml.entry.selector.xpath("title/text()").get() == "T"
    fragment = Soup("<p>one</p><p>two</p>", "html.parser")
    assert fragment.selector.css("p::text").getall() == ["one", "two"]
    assert Soup(fragment.selector.css("p")) == fragment.find_all("p")
    with pytest.raises(ValueError, match="no element"):
        Soup("").selector  # noqa: B018


def test_item_loader_runs_on_a_tags_selector() -> None:
    # The README's example: a Tag found with bs4's API, loaded with Scrapy's.
    body = b"""<html><body>
      <article class="product"><h2> Tea  </h2><span class="price">3.50</span>
        <ul><li>green</li><li>loose</li></ul></article>
      <article class="product"><h2>Coffee</h2><span class="price">4</span></article>
    </body></html>"""
    response = SoupHtmlResponse("https://example.com/", body=body, encoding="utf-8")
    products = []
    for tag in response.soup.find_all("article", class_="product"):
        loader = ItemLoader(item={}, selector=tag.selector)
        loader.default_output_processor = TakeFirst()
        loader.add_css("name", "h2::text", MapCompose(str.strip))
        loader.add_css("price", ".price::text", MapCompose(float))
        loader.add_xpath("tags", ".//li/text()", Join(", "))
        products.append(loader.load_item())
    assert products == [
        {"name": "Tea", "price": 3.5, "tags": "green, loose"},
        {"name": "Coffee", "price": 4.0},
    ]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_html_text_runs_on_the_same_tree(path: Path) -> None:
    response = page_response(path)
    body = response.soup.body
    assert isinstance(body, Tag)
    text = html_text.extract_text(body.selector.root)
    # What users did before: serialize the Tag and have html-text parse it.
    assert text == html_text.extract_text(str(body))


def test_lxml_html_functions_run_on_the_same_tree() -> None:
    response = page_response(corpus_pages()[0])
    body = response.soup.body
    assert body is not None
    root = body.selector.root
    assert isinstance(root, lxml.html.HtmlElement)
    links = [link for _, attr, link, _ in lxml.html.iterlinks(root) if attr == "href"]
    assert links
    assert links == [a["href"] for a in body.find_all(["a", "link"], href=True)]
    # lxml.html's own methods see the soup's elements.
    anchors = body.find_all("a")
    assert [a.selector.root for a in anchors] == root.cssselect("a")
    assert root.text_content() == body.selector.xpath("string()").get()


# -- bridges independent of call order and input ------------------------------------
def _relative_page() -> SoupHtmlResponse:
    body = b"<html><body><p>x <a href='rel.html'>r</a></p></body></html>"
    return SoupHtmlResponse("http://example.com/dir/page.html", body=body)


def test_soup_of_a_selector_list_before_response_soup_is_the_same_document() -> None:
    from scrapy_soup import to_markdown

    response = _relative_page()
    [p] = Soup(response.css("p"))  # before response.soup
    soup = response.soup
    assert p.find_parent("html").parent is soup
    assert p is soup.p
    assert soup.base_url == "http://example.com/dir/page.html"
    assert "(http://example.com/dir/rel.html)" in to_markdown(p)


def test_follow_all_of_one_tag_or_a_soup_raises_type_error_as_scrapy_does() -> None:
    response = _relative_page()
    with pytest.raises(TypeError):  # Scrapy, for one Selector
        response.follow_all(response.css("a")[0])
    for one in (response.soup.a, response.soup):
        with pytest.raises(TypeError, match="use follow"):
            response.follow_all(one)
    assert [r.url for r in response.follow_all(response.soup.find_all("a"))] == [
        "http://example.com/dir/rel.html"
    ]


def test_follow_of_a_whole_soup_says_what_it_takes() -> None:
    response = _relative_page()
    with pytest.raises(ValueError, match="takes a URL, a Link, a Selector or a Tag"):
        response.follow(response.soup)
    assert response.follow(response.soup.a).url == "http://example.com/dir/rel.html"


def test_tag_selector_keeps_the_namespaces_registered_on_the_response() -> None:
    from scrapy_soup._scrapy import SoupXmlResponse

    body = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<url><loc>http://example.com/a</loc></url></urlset>"
    )
    response = SoupXmlResponse("http://example.com/sitemap.xml", body=body)
    url = response.soup.find("url")  # the soup first, the namespace after
    response.selector.register_namespace(
        "sm", "http://www.sitemaps.org/schemas/sitemap/0.9"
    )
    # The oracle: the response's own selector with the same registration.
    expected = response.xpath("//sm:url/sm:loc/text()").getall()
    assert url.selector.xpath("sm:loc/text()").getall() == expected
    assert expected == ["http://example.com/a"]


@pytest.mark.parametrize("query", ["body", "html", "p", "b", "p > b", "*", ":root"])
def test_a_fragment_soups_selector_matches_what_the_soup_shows(query: str) -> None:
    from bs4 import BeautifulSoup

    markup = "<p>a <b>x</b></p><b>y</b>"
    soup = Soup(markup, "fragment")
    found = [s.root for s in soup.selector.css(query)]
    assert found == [tag._el for tag in soup.select(query)]
    # bs4's html.parser, which has no wrapper at all, is the oracle.
    oracle = [str(t) for t in BeautifulSoup(markup, "html.parser").select(query)]
    assert [s.get() for s in soup.selector.css(query)] == oracle
