"""Every ``soup/...`` stat, declared once: the key and one line of doc.

The code increments no ``soup/...`` key that is not one of these constants,
and the stats reference in the docs is generated from :data:`STATS`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ATTRIBUTES_REMOVED",
    "CHARACTERS_REMOVED",
    "COMMENTS_REMOVED",
    "DOCUMENTS_TRUNCATED",
    "ELEMENTS_REMOVED",
    "FIELDS_FAILED",
    "LINKS_ABSOLUTIZED",
    "LINKS_SKIPPED",
    "MAIN_CONTENT_EMPTY",
    "RESPONSES_WRAPPED",
    "STATS",
    "STATS_BY_NAME",
    "TAGS_UNWRAPPED",
    "Stat",
]


@dataclass(frozen=True)
class Stat:
    """One ``soup/...`` stat."""

    #: e.g. ``"soup/fields_failed"``
    name: str
    #: one line, MyST Markdown
    doc: str


RESPONSES_WRAPPED = "soup/responses_wrapped"
LINKS_ABSOLUTIZED = "soup/links_absolutized"
ATTRIBUTES_REMOVED = "soup/attributes_removed"
ELEMENTS_REMOVED = "soup/elements_removed"
TAGS_UNWRAPPED = "soup/tags_unwrapped"
COMMENTS_REMOVED = "soup/comments_removed"
CHARACTERS_REMOVED = "soup/characters_removed"
FIELDS_FAILED = "soup/fields_failed"
DOCUMENTS_TRUNCATED = "soup/documents_truncated"
LINKS_SKIPPED = "soup/links_skipped"
MAIN_CONTENT_EMPTY = "soup/main_content_empty"

STATS: tuple[Stat, ...] = (
    Stat(
        RESPONSES_WRAPPED,
        "responses given a `.soup` by `SoupDownloaderMiddleware`",
    ),
    Stat(
        LINKS_ABSOLUTIZED,
        "URLs in HTML fields rewritten to absolute ones by `AbsoluteLinksPipeline`",
    ),
    Stat(
        ATTRIBUTES_REMOVED,
        "attributes removed from HTML fields by `CleanHtmlPipeline`",
    ),
    Stat(
        ELEMENTS_REMOVED,
        "elements removed with their content by `CleanHtmlPipeline`",
    ),
    Stat(
        TAGS_UNWRAPPED,
        "tags removed with their text kept by `CleanHtmlPipeline`",
    ),
    Stat(
        COMMENTS_REMOVED,
        "comments removed by `CleanHtmlPipeline`",
    ),
    Stat(
        CHARACTERS_REMOVED,
        "characters HTML or XML 1.0 forbid in text (control characters, "
        "noncharacters) dropped by `CleanHtmlPipeline`",
    ),
    Stat(
        FIELDS_FAILED,
        "values the spider middleware could not convert (now `None`) or a "
        "pipeline could not process (now their text, escaped, or the item "
        "dropped); each field logged once",
    ),
    Stat(
        DOCUMENTS_TRUNCATED,
        "pages whose tree libxml2 cut short at its depth limit (2,048 levels), "
        "counted and logged once when `response.soup` is first read; "
        "`Soup(response.text)` keeps the whole page",
    ),
    Stat(
        LINKS_SKIPPED,
        "soup Tags `response.follow_all()` skipped, as Scrapy's LinkExtractor "
        "skips them: links neither `http(s)` nor relative (`mailto:`, `tel:`, "
        "`javascript:`, `data:`, `ftp:`), and links that make no valid URL",
    ),
    Stat(
        MAIN_CONTENT_EMPTY,
        "pages in main-content fields where nothing reads as content "
        "(`main_content()` gave None): the field is exported empty",
    ),
)

STATS_BY_NAME: dict[str, Stat] = {s.name: s for s in STATS}
