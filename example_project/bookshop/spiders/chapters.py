"""Blog posts made into e-book chapters: the EPUB recipe of the Beautiful Soup article.

The spider reads the site's ``sitemap.xml`` (an XML soup), fetches the posts
it lists, and shapes each post's ``<article>`` into a chapter with the soup's
modification API: a new ``<h1>`` from ``new_tag`` put in with
``insert_before``, ``<b>`` renamed ``<strong>``, attributes deleted and set
like dictionary keys. The cleaning pipeline then applies the ``"epub"``
policy (``custom_settings`` below): it drops ``align`` everywhere and resets
``<img>`` to ``src``, ``alt``, ``width`` and ``height``; the links pipeline
has already made every link absolute.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import scrapy
from scrapy.http import Response

from scrapy_soup import SoupHtmlResponse, SoupXmlResponse, soup_of

from ..items import ChapterItem
from ..sitespider import SiteSpider


class ChaptersSpider(SiteSpider):
    """Turn the posts a sitemap lists into numbered e-book chapters.

    ``-a start_url=`` takes a site (its ``/sitemap.xml`` is read) or a
    sitemap URL; ``-a pattern=REGEX`` picks the sitemap URLs to fetch
    (default: the bundled blog's posts).
    """

    name = "chapters"
    custom_settings = {
        # The EPUB preset: any attribute but align; <img> keeps only src,
        # alt, width and height; event handlers and scripts still go.
        "SOUP_CLEAN_POLICY": "epub",
    }

    def __init__(self, pattern: str = r"/blog/posts/", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pattern = re.compile(pattern)

    async def start(self) -> Any:
        url = self.start_url
        if not url.endswith(".xml"):
            url = urljoin(url, "/sitemap.xml")
        yield scrapy.Request(url, self.parse_sitemap)

    def parse_sitemap(self, response: Response) -> Iterator[scrapy.Request]:
        """Follow the sitemap's matching ``<loc>``s, numbering them in order."""
        if isinstance(response, SoupXmlResponse):
            soup = response.soup  # an XmlResponse: bs4's "xml" mode
        else:
            # Some servers send sitemaps as text/plain: soup_of() gives any
            # TextResponse a soup (and raises NotSupported for binary ones).
            soup = soup_of(response)
        # A sitemap index lists more sitemaps.
        for sitemap in soup.find_all("sitemap"):
            if sitemap.loc is not None:
                yield response.follow(
                    sitemap.loc.get_text(strip=True), self.parse_sitemap
                )
        # string= with a regex: only the <loc>s whose text matches.
        locs = soup.find_all("loc", string=self.pattern)
        urls = [loc.get_text(strip=True) for loc in locs if loc.parent.name == "url"]
        for number, url in enumerate(urls, start=1):
            if self.wants(url):
                yield response.follow(
                    url, self.parse_chapter, cb_kwargs={"number": number}
                )

    def parse_chapter(self, response: Response, number: int) -> Iterator[ChapterItem]:
        if not isinstance(response, SoupHtmlResponse):
            return  # not HTML (or opted out of the soup with meta "soup": False)
        soup = response.soup
        article = soup.find("article") or soup.find("main") or soup.body
        if article is None:
            return
        old_title = article.find(["h1", "h2"])
        title = (
            old_title.get_text(" ", strip=True)
            if old_title is not None
            else (soup.title.get_text(strip=True) if soup.title else response.url)
        )

        # These edits change the response's own tree (the one response.css()
        # sees too); the pipelines then work on a copy of the article.
        heading = soup.new_tag("h1")
        heading.string = f"Chapter {number}: {title}"
        if old_title is not None:
            old_title.insert_before(heading)
            old_title.decompose()
        else:
            article.insert(0, heading)
        # Navigation, bylines and comment forms do not belong in a book.
        for extra in article.find_all(["nav", "form", "iframe"]):
            extra.decompose()
        for meta in article.find_all("p", class_="meta"):
            meta.decompose()
        # Tags are renamed by assigning .name, as in bs4.
        for bold in article.find_all("b"):
            bold.name = "strong"
        # Attributes read and write like a dictionary.
        # (class_=True and id=True: tags that have the attribute at all.)
        for tag in article.find_all(class_=True):
            del tag["class"]
        for tag in article.find_all(id=True):
            del tag["id"]
        del article["class"]
        article["id"] = f"chapter-{number}"
        article["epub:type"] = "chapter"

        # .children gives the strings between the blocks too; their .name is
        # None, so this lists the tags at the top of the chapter.
        blocks = [child.name for child in article.children if child.name is not None]
        yield ChapterItem(
            type="chapter",
            url=response.url,
            number=number,
            title=title,
            words=len(article.get_text(" ", strip=True).split()),
            blocks=blocks,
            body=article,
        )
