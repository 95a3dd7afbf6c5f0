"""Cleaning and link rewriting: scraped HTML made safe and its links absolute.

The public modules are `clean` (`clean`, `clean_element`, `CleanPolicy` and
its presets), `links` (`absolutize_links`, `absolutize_element`), `text`
(`to_text`), `markdown` (`to_markdown`, with `_inline`),
`main_content` (`main_content`, with its rules in `_content_rules`) and
`metadata` (`metadata`, `Metadata`); the
package re-exports their names, as does ``scrapy_soup``.  The private ones
hold the policy (`_policy`), URL parsing (`_url`), markup in and out
(`_markup`: parsed as the soup parses, written by the soup's one writer,
``scrapy_soup._tree._write``) and a document's top level (`_document`).  No Scrapy import here, and the imports go one way:
this package reads ``scrapy_soup._tree``; the tree never imports it.
"""

from __future__ import annotations

from .clean import (
    EPUB_POLICY,
    POLICIES,
    SAFE_ATTRIBUTES,
    SAFE_TAGS,
    STRICT_POLICY,
    AttributeMap,
    CleanError,
    CleanPolicy,
    CleanStats,
    clean,
    clean_element,
    get_policy,
)
from .links import URL_ATTRIBUTES, absolutize_element, absolutize_links
from .main_content import main_content
from .markdown import to_markdown
from .metadata import Metadata, metadata
from .text import to_text

__all__ = [
    "EPUB_POLICY",
    "POLICIES",
    "SAFE_ATTRIBUTES",
    "SAFE_TAGS",
    "STRICT_POLICY",
    "URL_ATTRIBUTES",
    "AttributeMap",
    "CleanError",
    "CleanPolicy",
    "CleanStats",
    "Metadata",
    "absolutize_element",
    "absolutize_links",
    "clean",
    "clean_element",
    "get_policy",
    "main_content",
    "metadata",
    "to_markdown",
    "to_text",
]
