"""Items of the bookshop project; ``html=True`` marks the fields holding HTML.

A spider may put a soup ``Tag`` straight into a field: scrapy_soup's spider
middleware turns it into a ``str`` as the item leaves the callback. Its
pipelines find HTML fields by that metadata (and by the Tags they held):
they make every link in them absolute (against the page's ``<base href>``
or URL) and clean their attributes with the spider's policy, before any
pipeline of the project's own.
"""

from __future__ import annotations

import scrapy


class BookItem(scrapy.Item):
    """A book page of the catalogue."""

    type = scrapy.Field()
    url = scrapy.Field()
    title = scrapy.Field()
    author = scrapy.Field()
    price = scrapy.Field()
    in_stock = scrapy.Field()
    rating = scrapy.Field()
    category = scrapy.Field()
    tags = scrapy.Field()
    isbn = scrapy.Field()
    pages = scrapy.Field()
    cover = scrapy.Field()
    summary = scrapy.Field()
    description = scrapy.Field(html=True)


class PostItem(scrapy.Item):
    """A blog post."""

    type = scrapy.Field()
    url = scrapy.Field()
    title = scrapy.Field()
    author = scrapy.Field()
    published = scrapy.Field()
    words = scrapy.Field()
    body = scrapy.Field(html=True)


class PageItem(scrapy.Item):
    """Any other HTML page: listings, about, contact, or a page of another site."""

    type = scrapy.Field()
    url = scrapy.Field()
    title = scrapy.Field()
    headings = scrapy.Field()
    links = scrapy.Field()
    content = scrapy.Field(html=True)


class ImageItem(scrapy.Item):
    """An image the pages show (a binary response: no soup)."""

    type = scrapy.Field()
    url = scrapy.Field()
    content_type = scrapy.Field()
    size = scrapy.Field()


class ChapterItem(scrapy.Item):
    """One blog post made into an e-book chapter (the ``chapters`` spider)."""

    type = scrapy.Field()
    url = scrapy.Field()
    number = scrapy.Field()
    title = scrapy.Field()
    words = scrapy.Field()
    blocks = scrapy.Field()
    body = scrapy.Field(html=True)
