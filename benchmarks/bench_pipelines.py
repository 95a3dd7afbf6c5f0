"""Workload 6, cleaning + link absolutizing of a page's HTML vs nh3 and lxml_html_clean.

Each real corpus page's HTML goes through:

- scrapy_soup, one call on a string (what a user writes):
  ``clean(html, base_url=base)``, one parse;
- scrapy_soup, the two public functions on strings:
  ``absolutize_links(clean(html), base)``;
- scrapy_soup, one tree (what the pipelines do): a fragment soup cleaned and
  absolutized in place, then ``str()``;
- ``nh3.clean(html)`` alone (Rust; cleaning only, no link rewriting);
- lxml_html_clean: ``Cleaner().clean_html`` on a parsed tree,
  ``make_links_absolute``, ``tostring``.

The cleaner objects are built once, outside the timings, as a pipeline does.
The corpus pages are whole documents: the string paths keep them whole
(``<html>``, ``<head>``, ``<body>``, the doctype) and drop the comments
around ``<html>``, as ``clean()`` does for any document; the one-tree path
works on a fragment soup of the page, as a pipeline does with a field.

Then the add-on's item path on a dict item whose one field holds the whole
page (issue 39's cost bound: a main-content Markdown field at most 2x the
same item with the page as an HTML field), side by side:

- 6b, the page's HTML ``str`` through the pipelines (links, then cleaning):
  the field as an HTML field (``SOUP_HTML_FIELDS``: the whole document
  absolutized and cleaned) and as a main-content Markdown field
  (``SOUP_MAIN_CONTENT_FIELDS`` + ``SOUP_MARKDOWN_FIELDS``: parsed once,
  the article extracted, then only it absolutized, cleaned, converted);
- 6c, the field holding ``response.soup`` (the page parsed before the
  timing, as in a spider) through the spider middleware's part of the path
  and the pipelines.

The ratio rows divide the main-content figure by the HTML field's.

    python benchmarks/bench_pipelines.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lxml.html

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _harness import OURS, Case, Row, by_key, standalone

from scrapy_soup import Soup, absolutize_links, clean

WORKLOAD = "6. clean + absolutize links"
BASE = "https://example.com/section/page.html"


def _ours_one_call(html: str) -> str:
    return clean(html, base_url=BASE)


def _ours_two_calls(html: str) -> str:
    return absolutize_links(clean(html), BASE)


def _ours_one_tree(html: str) -> str:
    fragment = Soup(html, "fragment")
    clean(fragment)
    absolutize_links(fragment, BASE)
    return str(fragment)


def _timed(fn: Callable[[str], Any]) -> Callable[[str], Callable[[], Any]]:
    return lambda text: lambda: fn(text)


def cases() -> list[Case]:
    """The three scrapy_soup paths and the installed competitors."""
    out = [
        Case(WORKLOAD, OURS, _timed(_ours_one_call)),
        Case(WORKLOAD, "scrapy_soup (two calls)", _timed(_ours_two_calls)),
        Case(WORKLOAD, "scrapy_soup (one tree)", _timed(_ours_one_tree)),
    ]
    try:
        import nh3
    except ImportError:
        print("nh3 is not installed: pip install nh3", file=sys.stderr)
    else:
        out.append(Case(WORKLOAD, "nh3.clean (no links)", _timed(nh3.clean)))
    try:
        from lxml_html_clean import Cleaner
    except ImportError:
        print("lxml_html_clean is not installed", file=sys.stderr)
    else:
        cleaner = Cleaner()

        def lxml_clean(html: str) -> str:
            doc = cleaner.clean_html(lxml.html.fromstring(html))
            doc.make_links_absolute(BASE)
            return lxml.html.tostring(doc, encoding="unicode")

        out.append(Case(WORKLOAD, "lxml_html_clean + links", _timed(lxml_clean)))
    return out


#: Issue 39's cost bound, on a field holding the page's HTML or its soup.
MAIN_STR = "6b. item path, one field: the page's HTML"
MAIN_SOUP = "6c. item path, one field: response.soup"
AS_HTML = "HTML field"
AS_MAIN_MD = "main-content Markdown field"


def _item_path(settings: dict[str, Any], soup: bool) -> Callable[[str], Any]:
    """The add-on's item path on ``{"url": BASE, "page": ...}``: the spider
    middleware's part (for a soup) and both pipelines, as a crawl runs them."""
    from scrapy_helpers import ADDON_SETTINGS, make_crawler

    from scrapy_soup import AbsoluteLinksPipeline, CleanHtmlPipeline
    from scrapy_soup._scrapy._item_path import ItemPath
    from scrapy_soup._scrapy._origins import Origin

    crawler = make_crawler(
        settings={**ADDON_SETTINGS, "SOUP_URL_FIELD": "url", **settings}
    )
    path = ItemPath.of(crawler)
    pipelines = [AbsoluteLinksPipeline(crawler), CleanHtmlPipeline(crawler)]
    origin = Origin(BASE, BASE)

    def prepare(html: str) -> Callable[[], Any]:
        page: Any = Soup(html, base_url=BASE) if soup else html

        def run() -> Any:
            item: Any = {"url": BASE, "page": page}
            if soup:
                path.from_callback(item, origin, "SoupSpiderMiddleware")
            for pipeline in pipelines:
                item = pipeline.process_item(item)
            path.origins.release(item)
            assert type(item["page"]) is str
            return item

        return run

    return prepare


def main_content_cases() -> list[Case]:
    """A page in one field, as an HTML field and as a main-content Markdown field."""
    html = {"SOUP_HTML_FIELDS": ["page"]}
    main_md = {
        "SOUP_MAIN_CONTENT_FIELDS": ["page"],
        "SOUP_MARKDOWN_FIELDS": ["page"],
    }
    return [
        Case(MAIN_STR, AS_HTML, _item_path(html, False)),
        Case(MAIN_STR, AS_MAIN_MD, _item_path(main_md, False)),
        Case(MAIN_SOUP, AS_HTML, _item_path(html, True)),
        Case(MAIN_SOUP, AS_MAIN_MD, _item_path(main_md, True)),
    ]


def main_content_ratios(rows: list[Row]) -> list[Row]:
    """Main-content Markdown / HTML field, per workload (bound: at most 2x)."""
    k = by_key(rows)
    out = []
    for workload in (MAIN_STR, MAIN_SOUP):
        if (workload, AS_HTML) in k and (workload, AS_MAIN_MD) in k:
            value = k[(workload, AS_MAIN_MD)].value / k[(workload, AS_HTML)].value
            out.append(Row(workload, "main-content Markdown / HTML", value, "x"))
    return out


if __name__ == "__main__":
    standalone(
        lambda: cases() + main_content_cases(), __doc__, derive=main_content_ratios
    )
