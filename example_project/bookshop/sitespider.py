"""A spider base class: crawl the bundled site unless ``-a start_url=`` says otherwise."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag, urlsplit

import scrapy

from .localsite import LocalSite, serve_site

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import TextResponse
    from typing_extensions import Self

__all__ = ["SiteSpider", "is_loopback"]


def is_loopback(url: str) -> bool:
    """Tell whether ``url`` points at this machine (the bundled site, a dev server)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class SiteSpider(scrapy.Spider):
    """Start from ``start_url``, or serve the bundled site and start from it.

    ``scrapy crawl NAME`` with no argument therefore works offline, in this
    directory, with no server to start by hand; ``-a start_url=https://...``
    points the same spider at a real site, which it crawls politely (a
    download delay, same host only, at most ``max_pages`` pages, 50 unless
    ``-a max_pages=N``; 0 means no limit). Loopback URLs (127.0.0.1,
    localhost) count as the bundled site: no delay, no page limit.
    """

    #: The bundled site's server, when this spider started it.
    local_site: LocalSite | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        spider = super().from_crawler(crawler, *args, **kwargs)
        if not is_loopback(spider.start_url):
            # A real site: be polite. Settings are not frozen yet here, and
            # "spider" priority is what custom_settings would have.
            crawler.settings.set("DOWNLOAD_DELAY", 0.5, priority="spider")
        return spider

    def __init__(
        self,
        start_url: str | None = None,
        max_pages: int | str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if not start_url:
            self.local_site = serve_site()
            start_url = self.local_site.url
        self.start_url = start_url
        if max_pages is not None:
            self.max_pages = int(max_pages)
        else:
            self.max_pages = 0 if is_loopback(start_url) else 50
        self.host = urlsplit(self.start_url).netloc
        self._wanted: set[str] = set()

    def on_site(self, url: str) -> bool:
        """Tell whether ``url`` is an http(s) URL on the start URL's host."""
        try:
            parts = urlsplit(url)
        except ValueError:  # a malformed href on a real page ("http://[x")
            return False
        return parts.scheme in ("http", "https") and parts.netloc == self.host

    def wants(self, url: str) -> bool:
        """Tell whether to follow ``url``: on the site, new, within ``max_pages``.

        Scrapy's duplicate filter would drop repeated requests anyway; counting
        distinct URLs here is what makes ``max_pages`` count pages.
        """
        if not self.on_site(url):
            return False
        url = urldefrag(url)[0]
        if url in self._wanted:
            return False
        if self.max_pages and len(self._wanted) >= self.max_pages:
            return False
        self._wanted.add(url)
        return True

    def link_url(self, response: TextResponse, href: str) -> str | None:
        """The absolute URL of a link of ``response``, as ``follow()`` resolves it.

        ``response.urljoin`` honours the page's ``<base href>``; a malformed
        href of a real page (``http://[oops``) gives None.
        """
        try:
            return response.urljoin(href)
        except ValueError:
            return None

    def wants_link(self, response: TextResponse, href: str) -> bool:
        """`wants` for a link of ``response`` (False for a malformed one)."""
        url = self.link_url(response, href)
        return url is not None and self.wants(url)

    def closed(self, reason: str) -> None:
        if self.local_site is not None:
            self.local_site.stop()
