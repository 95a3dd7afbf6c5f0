"""A page's metadata, read from what it states: `metadata`.

The structured sources first, in this order: JSON-LD (``schema.org``
``Article``, ``NewsArticle``, ``BlogPosting``, ``WebPage``, ... items, in
``@graph`` too), OpenGraph and ``article:`` properties, Twitter cards,
``<meta name>`` (``author``, ``description``, ``keywords``, Dublin Core,
``citation_*``), ``<link rel=canonical>``; then the page itself: ``<time
datetime>``, ``<title>``, the first ``<h1>``.  The language is ``<html
lang>`` first (``og:locale`` is often a site's default).  The first
source that states a field gives it.  Dates come out as ISO 8601
(``2021-03-04`` or ``2021-03-04T10:00:00+01:00``), URLs absolute.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from lxml import etree

from .._tree._soup import Soup
from ._markup import target_element

if TYPE_CHECKING:
    from .._tree._tag import Tag

__all__ = ["Metadata", "iso_date", "metadata"]

_WS = re.compile(r"\s+")
_TEXT = etree.XPath("string()", smart_strings=False)
# Elements found by libxml2's XPath: lxml's iter() takes quadratic time on a
# 100,000-deep tree.
_ALL_SCRIPT = etree.XPath("//script")
_ALL_META = etree.XPath("//meta")
_ALL_LINK = etree.XPath("//link")
_ALL_TIME = etree.XPath("//time[@datetime]")
_ALL_TITLE = etree.XPath("(//title)[1]")
_ALL_H1 = etree.XPath("(//h1)[1]")
#: JSON-LD types that describe the page's content (an article, a post, a page).
_CONTENT_TYPES = frozenset(
    {
        "article", "newsarticle", "blogposting", "reportagenewsarticle", "webpage",
        "analysisnewsarticle", "opinionnewsarticle", "techarticle", "scholarlyarticle",
        "report", "liveblogposting", "socialmediaposting", "discussionforumposting",
        "recipe", "howto", "product", "event", "creativework", "itempage", "aboutpage",
        "review", "videoobject", "podcastepisode", "medicalwebpage", "qapage",
    }
)  # fmt: skip
#: JSON-LD is read up to this many nodes (a hostile page's giant graph).
_MAX_JSON_NODES = 10_000
#: ``<meta>`` names and properties (lowercased) for each field, best first.
_META = {
    "title": ("og:title", "twitter:title", "dc.title", "dcterms.title", "citation_title", "title"),
    "description": ("og:description", "twitter:description", "description", "dc.description", "dcterms.description"),
    "site_name": ("og:site_name", "application-name", "twitter:site"),
    "image": ("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"),
    "canonical_url": ("og:url", "twitter:url"),
    "published": (
        "article:published_time", "datepublished", "og:published_time", "pubdate", "publishdate",
        "date", "dc.date", "dc.date.issued", "dcterms.date", "dcterms.created", "dcterms.issued",
        "citation_publication_date", "citation_date", "sailthru.date", "parsely-pub-date",
    ),
    "modified": ("article:modified_time", "og:updated_time", "datemodified", "dcterms.modified", "last-modified"),
    "language": ("og:locale", "content-language", "dc.language", "language"),
}  # fmt: skip
_META_AUTHORS = ("author", "article:author", "dc.creator", "dcterms.creator", "citation_author", "parsely-author", "sailthru.author", "twitter:creator")  # fmt: skip
_META_TAGS = ("article:tag", "keywords", "news_keywords", "parsely-tags")


@dataclass(frozen=True)
class Metadata:
    """What a page states about itself; each field None (or empty) when it does not.

    Plain data: strings and tuples of strings, `to_dict` gives a dict of
    strings and lists, ready for an item or JSON.
    """

    title: str | None = None
    authors: tuple[str, ...] = ()
    published: str | None = None
    modified: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    description: str | None = None
    site_name: str | None = None
    image: str | None = None
    tags: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict, tuples as lists.

        >>> Metadata(title="T", tags=("a",)).to_dict()["tags"]
        ['a']
        """
        return {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in asdict(self).items()
        }


def metadata(
    markup_or_soup: str | bytes | Tag | etree._Element, *, base_url: str | None = None
) -> Metadata:
    """The page's title, authors, dates, language, canonical URL, description, ...

    ``markup_or_soup``: a page's HTML (parsed once) or its soup (read, never
    changed).  ``base_url`` (by default the soup's own) makes the canonical
    URL and the image absolute.  Never raises on what a page holds: a
    source that does not parse is skipped.

    >>> page = '''<html lang="en"><head><title>A page</title>
    ... <meta property="og:title" content="The story">
    ... <meta name="author" content="Ada Lovelace">
    ... <meta property="article:published_time" content="2021-03-04T10:00:00+01:00">
    ... <link rel="canonical" href="/story"></head><body></body></html>'''
    >>> meta = metadata(page, base_url="https://example.com/x?y")
    >>> meta.title, meta.authors, meta.published, meta.language, meta.canonical_url
    ('The story', ('Ada Lovelace',), '2021-03-04T10:00:00+01:00', 'en', 'https://example.com/story')
    """
    if isinstance(markup_or_soup, (str, bytes)):
        root = target_element(Soup(markup_or_soup, base_url=base_url)).element
    else:
        root = target_element(markup_or_soup).element
        if base_url is None:
            own = getattr(getattr(markup_or_soup, "_doc", None), "base_url", None)
            base_url = own if isinstance(own, str) else None
    root = root.getroottree().getroot()
    found: dict[str, Any] = {}
    # The page's own <html lang> before og:locale, often a site's default.
    _set(
        found,
        "language",
        root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang"),
    )
    _from_json_ld(root, found)
    _from_meta(root, found)
    _from_page(root, found)
    for key in ("canonical_url", "image"):
        if found.get(key) and base_url:
            found[key] = urljoin(base_url, found[key])
    for key in ("published", "modified"):
        if key in found:
            found[key] = iso_date(found[key])
    for key in ("authors", "tags"):
        found[key] = tuple(dict.fromkeys(v for v in found.get(key, ()) if v))
    return Metadata(**{k: v for k, v in found.items() if v not in (None, "")})


def _clean(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    text = _WS.sub(" ", value).strip()
    return text or None


def _set(found: dict[str, Any], key: str, value: object) -> None:
    """Set ``found[key]`` unless an earlier source set it."""
    if found.get(key):
        return
    if key in ("authors", "tags"):
        if isinstance(value, (list, tuple)) and value:
            found[key] = list(value)
        return
    text = _clean(value)
    if text:
        found[key] = text


# -- JSON-LD -------------------------------------------------------------------
def _json_ld_items(root: etree._Element) -> list[dict[str, Any]]:
    """The JSON-LD objects of the page, flattened (``@graph``, lists), in order."""
    items: list[dict[str, Any]] = []
    for script in _ALL_SCRIPT(root):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        try:
            data = json.loads(script.text or "")
        except (ValueError, RecursionError):
            continue
        stack = [data]
        while stack and len(items) < _MAX_JSON_NODES:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(reversed(node))
            elif isinstance(node, dict):
                items.append(node)
                graph = node.get("@graph")
                if isinstance(graph, list):
                    stack.extend(reversed(graph))
    return items


def _types(item: dict[str, Any]) -> set[str]:
    kind = item.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return {k.lower() for k in kinds if isinstance(k, str)}


def _names(value: object) -> list[str]:
    """Names from a JSON-LD person or organization, a list of them, or a string."""
    values = value if isinstance(value, list) else [value]
    names = []
    for v in values:
        name = v.get("name") if isinstance(v, dict) else v
        text = _clean(name)
        if text:
            names.append(text)
    return names


def _from_json_ld(root: etree._Element, found: dict[str, Any]) -> None:
    items = _json_ld_items(root)
    content = [item for item in items if _types(item) & _CONTENT_TYPES]
    # The article before the page that holds it.
    content.sort(key=lambda item: "webpage" in _types(item))
    for item in content:
        _set(found, "title", item.get("headline") or item.get("name"))
        _set(found, "authors", _names(item.get("author") or item.get("creator")))
        _set(found, "published", item.get("datePublished") or item.get("dateCreated"))
        _set(found, "modified", item.get("dateModified"))
        _set(found, "description", item.get("description"))
        _set(found, "language", item.get("inLanguage"))
        url = item.get("mainEntityOfPage")
        url = url.get("@id") if isinstance(url, dict) else url
        _set(found, "canonical_url", url or item.get("url"))
        publisher = _names(item.get("publisher"))
        _set(found, "site_name", publisher[0] if publisher else None)
        image = item.get("image")
        image = image[0] if isinstance(image, list) and image else image
        _set(found, "image", image.get("url") if isinstance(image, dict) else image)
        keywords = item.get("keywords")
        if isinstance(keywords, str):
            keywords = keywords.split(",")
        if isinstance(keywords, list):
            _set(found, "tags", [t for k in keywords if (t := _clean(k))])
    for item in items:
        if "website" in _types(item):
            _set(found, "site_name", item.get("name"))


# -- <meta> and <link> -----------------------------------------------------------
def _from_meta(root: etree._Element, found: dict[str, Any]) -> None:
    values: dict[str, list[str]] = {}
    for meta in _ALL_META(root):
        key = (
            meta.get("property")
            or meta.get("name")
            or meta.get("itemprop")
            or meta.get("http-equiv")
        )
        content = _clean(meta.get("content"))
        if key and content:
            values.setdefault(key.strip().lower(), []).append(content)
    for field, keys in _META.items():
        for key in keys:
            if key in values:
                _set(found, field, values[key][0])
                break
    for key in _META_AUTHORS:
        if key in values and not (
            key == "twitter:creator" and values[key][0].startswith("@")
        ):
            _set(
                found,
                "authors",
                [a.strip() for v in values[key] for a in _split_authors(v)],
            )
            break
    for key in _META_TAGS:
        if key in values:
            _set(
                found,
                "tags",
                [t.strip() for v in values[key] for t in v.split(",") if t.strip()],
            )
            break
    for link in _ALL_LINK(root):
        rel = (link.get("rel") or "").lower().split()
        if "canonical" in rel and link.get("href"):
            # The canonical link is the page's own statement: it wins over og:url.
            found["canonical_url"] = link.get("href", "").strip()
            break


def _split_authors(value: str) -> list[str]:
    if value.startswith(("http://", "https://")):
        return []  # a profile URL, not a name
    return re.split(r"\s*(?:;|\band\b|\bund\b|&)\s*", value)


# -- the page itself ---------------------------------------------------------------
def _from_page(root: etree._Element, found: dict[str, Any]) -> None:
    stamps = [
        (
            t.get("pubdate") is not None or t.get("itemprop") == "datePublished",
            t.get("datetime"),
        )
        for t in _ALL_TIME(root)
        if t.get("datetime")
    ]
    if stamps:
        # A <time pubdate> or itemprop=datePublished first, else the first.
        _set(found, "published", max(stamps, key=lambda stamp: stamp[0])[1])
    for title in _ALL_TITLE(root):
        _set(found, "title", _TEXT(title))
        break
    for h1 in _ALL_H1(root):
        _set(found, "title", _TEXT(h1))
        break


_DAY_FIRST = re.compile(r"^(\d{1,2})[./](\d{1,2})[./](\d{4})$")
_YEAR_FIRST = re.compile(r"^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$")
# A UTC offset written "-0400" or " -04:00": Python 3.10's fromisoformat
# takes only "-04:00" right after the time.
_OFFSET = re.compile(r"(?<=\d)\s*([+-])(\d\d):?(\d\d)$")


def iso_date(value: str) -> str:
    """``value`` as ISO 8601 if it reads as a date (kept as it is otherwise).

    >>> iso_date("2021-03-04T10:00:00Z"), iso_date("Thu, 04 Mar 2021 10:00:00 GMT")
    ('2021-03-04T10:00:00+00:00', '2021-03-04T10:00:00+00:00')
    >>> iso_date("04.03.2021"), iso_date("2021/03/04"), iso_date("20210304")
    ('2021-03-04', '2021-03-04', '2021-03-04')
    >>> iso_date("2015-07-10 09:53:00 -0400")
    '2015-07-10T09:53:00-04:00'
    """
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    if len(text) == 8 and text.isdigit():
        text = f"{text[:4]}-{text[4:6]}-{text[6:]}"
    for pattern, order in ((_DAY_FIRST, (3, 2, 1)), (_YEAR_FIRST, (1, 2, 3))):
        match = pattern.match(text)
        if match:
            try:
                return date(*(int(match.group(i)) for i in order)).isoformat()
            except ValueError:
                return value
    try:
        if len(text) == 10:
            return date.fromisoformat(text).isoformat()
        stamp = _OFFSET.sub(r"\1\2:\3", text).replace(" ", "T", 1)
        return datetime.fromisoformat(stamp).isoformat()
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(text).isoformat()
    except (TypeError, ValueError, IndexError):
        return value
