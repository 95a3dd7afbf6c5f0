"""The main crawl: every page of the bookstore, with the soup as bs4 users know it.

Each HTML page gives one item: a ``BookItem`` for a book page, a
``PostItem`` for a blog post, a ``PageItem`` for anything else (listings,
about, contact, or the pages of a real site given with ``-a start_url=``);
every image shown gives an ``ImageItem``. Links are followed with
``response.follow(tag)``, which takes soup Tags as it takes Selectors.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy.http import Response

from scrapy_soup import SoupHtmlResponse, SoupXmlResponse, Tag

from ..items import BookItem, ImageItem, PageItem, PostItem
from ..sitespider import SiteSpider

#: Heading tags, the Beautiful Soup documentation's regex example.
HEADINGS = re.compile(r"^h[1-6]$")
#: Image URLs worth fetching: not the inline ``data:`` placeholders.
FETCHABLE = re.compile(r"^(?!data:)", re.IGNORECASE)


def text_of(tag: Tag | None, separator: str = "") -> str | None:
    """The stripped text of ``tag``; None when the page has no such part."""
    return tag.get_text(separator, strip=True) if tag is not None else None


def whole_number(text: str | None) -> int | None:
    """``"312"`` as 312; None for a missing or non-numeric value."""
    return int(text) if text and text.isdecimal() else None


class BookstoreSpider(SiteSpider):
    """Crawl the whole site once; books, posts and pages become items."""

    name = "bookstore"

    async def start(self) -> Any:
        # Scrapy >= 2.13 reads start requests from this async generator.
        self.wants(self.start_url)
        yield scrapy.Request(self.start_url, self.parse)

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        """Dispatch on the page kind, then follow the page's links."""
        if isinstance(response, SoupXmlResponse):
            yield from self.parse_sitemap(response)
            return
        if not isinstance(response, SoupHtmlResponse):
            # Neither HTML nor XML (plain text, JSON, ...): scrapy_soup's
            # middleware left it a plain Scrapy response, with no soup.
            return
        soup = response.soup
        if book := soup.find("article", class_="book"):
            yield self.book(response, book)
        elif post := soup.find("article", class_="post"):
            yield self.post(response, post)
        else:
            yield self.page(response)
        yield from self.follow_links(response)

    def follow_links(self, response: SoupHtmlResponse) -> Iterator[scrapy.Request]:
        soup = response.soup
        # href=True: every <a> that has an href, whatever its value.
        for a in soup.find_all("a", href=True):
            # rel is multi-valued (a list, as in bs4); get() gives None if absent.
            if "nofollow" in (a.get("rel") or []):
                continue
            # Resolved against the page's <base href>, as follow() does.
            if self.wants_link(response, a["href"]):
                yield response.follow(a, self.parse)
        # A regex on an attribute: skip the data: placeholders of lazy images.
        for img in soup.find_all("img", src=FETCHABLE):
            if self.wants_link(response, img["src"]):
                yield response.follow(img, self.parse_image)

    def parse_sitemap(self, response: SoupXmlResponse) -> Iterator[scrapy.Request]:
        """A sitemap is an XmlResponse: its soup is an XML soup (bs4's "xml")."""
        for loc in response.soup.find_all("loc"):
            url = loc.get_text(strip=True)
            if self.wants(url):
                yield response.follow(url, self.parse)

    def parse_image(self, response: Response) -> Iterator[ImageItem]:
        # A binary response: the middleware passed it through untouched.
        yield ImageItem(
            type="image",
            url=response.url,
            content_type=(response.headers.get("Content-Type") or b"").decode(
                "latin-1"
            ),
            size=len(response.body),
        )

    # -- items -------------------------------------------------------------
    # A real site's pages need not have every part a book or a post of the
    # bundled site has: a missing part gives an empty field (None, [] or 0),
    # as response.css(...).get() gives None, never an exception.
    def book(self, response: SoupHtmlResponse, book: Tag) -> BookItem:
        soup = response.soup
        # The first <b> of a book page is its price; class is multi-valued,
        # so it reads as a list, as in bs4: ['price', 'in-stock'].
        price = soup.b
        # class_ with a regex matches each class name on its own.
        rating = book.find("p", class_=re.compile(r"^star-rating$"))
        stars = [c for c in rating["class"] if c != "star-rating"] if rating else []
        # .children yields the whitespace between the <li>s too: strings
        # have .name None, so this keeps the tags only.
        tags_list = book.find("ul", class_="tags")
        tags = [
            child.get_text(strip=True)
            for child in (tags_list.children if tags_list else ())
            if child.name is not None
        ]
        info = {
            th.get_text(strip=True): text_of(th.find_next_sibling("td"))
            for th in book.select("table.product-info th")
        }
        description = book.find("div", class_="description")
        cover = description.find("img", src=True) if description else None
        text = description.get_text(" ") if description else ""
        summary = " ".join(text.split())  # one line, whitespace collapsed
        crumbs = book.find_previous("ol", class_="breadcrumb")
        levels = crumbs.find_all("li") if crumbs else []
        return BookItem(
            type="book",
            url=response.url,
            title=text_of(book.h1),
            author=text_of(book.select_one(".author [itemprop=author]")),
            price=text_of(price),
            in_stock=price is not None and "in-stock" in (price.get("class") or []),
            rating=stars[0] if stars else None,
            category=text_of(levels[2]) if len(levels) > 2 else None,
            tags=tags,
            isbn=info.get("ISBN"),
            pages=whole_number(info.get("Pages")),
            cover=self.link_url(response, cover["src"]) if cover else None,
            summary=summary,
            # A Tag of the page: the pipelines copy it, make its links
            # absolute, clean it and export it as a str.
            description=description,
        )

    def post(self, response: SoupHtmlResponse, post: Tag) -> PostItem:
        body = post.find("div", class_="entry-content")
        when = post.find("time")
        return PostItem(
            type="post",
            url=response.url,
            title=text_of(post.find(HEADINGS), " "),
            author=text_of(post.select_one(".meta .author")),
            # get(): None when the <time> has no datetime attribute.
            published=when.get("datetime") if when else None,
            words=len(body.get_text(" ", strip=True).split()) if body else 0,
            body=body,
        )

    def page(self, response: SoupHtmlResponse) -> PageItem:
        soup = response.soup
        content = soup.find("main") or soup.find("article") or soup.body
        return PageItem(
            type="page",
            url=response.url,
            title=soup.title.get_text(strip=True) if soup.title else None,
            # A regex as a tag name: h1 to h6, in document order.
            headings=[h.get_text(" ", strip=True) for h in soup.find_all(HEADINGS)],
            links=len(soup.find_all("a", href=True)),
            # A plain str of HTML works too: the pipelines parse it.
            content=str(content) if content is not None else None,
        )
