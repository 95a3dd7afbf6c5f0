"""The named rules of `main_content`: what is never content, what is boilerplate, what votes.

Each rule looks at one element by itself (its tag, ``class``, ``id``,
``role``, ``style``), never at its descendants, so applying them costs one
pass over the tree, whatever its shape: extraction stays linear in the
page.  Names are matched as plain substrings or whole words of the
lowercased ``"class id"``, which is ten times faster than a regular
expression of alternatives in Python and than libxml2's XPath attribute
tests.  The vocabulary comes from reading the pages of trafilatura's
evaluation set (the class and id names WordPress, Drupal, news CMSs and
page builders give their containers) and is our own; trafilatura's
``xpaths.py`` (Apache 2.0) was the map of which concepts matter.
"""

from __future__ import annotations

import functools
import re
from typing import TypeAlias

__all__ = [
    "BOILERPLATE_ROLES",
    "BOILERPLATE_TAGS",
    "CONTENT",
    "CONTENT_WORDS",
    "HIDDEN_STYLE",
    "LEAD",
    "LEAD_WORDS",
    "MEDIA",
    "NEVER_CONTENT",
    "PARAGRAPHS",
    "TABLES",
    "TAG_WEIGHTS",
    "boilerplate_name",
    "overlay_name",
]

#: Elements whose content is never text a reader reads: code, forms, media
#: players, the document's head, ruby annotations (the readings set over
#: the text, as in ``<ruby>漢<rt>かん</rt></ruby>``: the text is the base).
#: Removed with everything inside them.
NEVER_CONTENT = (
    "script", "style", "noscript", "template", "head", "title", "meta", "link",
    "button", "input", "select", "textarea", "option", "datalist", "label",
    "iframe", "object", "embed", "canvas", "svg", "dialog", "menu", "rt", "rp",
)  # fmt: skip

#: Elements made to be out of the reading flow, whatever their names:
#: navigation, sidebars, page footers.  (A ``<header>`` is not here: it is
#: the page's masthead outside an article, the headline inside one.)
BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer"})

#: Roles that are boilerplate.
BOILERPLATE_ROLES = frozenset(
    {"navigation", "complementary", "banner", "contentinfo", "dialog", "alert", "menu"}
)

#: A style that hides the element.
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)

#: Class and id words that name boilerplate wherever they are in the name:
#: sharing and social widgets, related and recommended links, cookie and
#: newsletter prompts, ads, breadcrumbs, pagination, menus, a post's meta
#: line and tag list, author boxes, image captions and credits, paywalls,
#: ratings, affiliate notes and info boxes beside the text.
BOILERPLATE_WORDS = (
    "sidebar", "sharing", "social", "related", "recommend", "cookie", "consent",
    "newsletter", "subscri", "signup", "sign-up", "breadcrumb", "paginat",
    "navbar", "navigation", "footer", "masthead", "advert", "adsense", "adslot",
    "google_ad", "sponsor", "promo", "popup", "modal", "banner", "more-stories",
    "also-read", "most-read", "mostread", "trending",
    "popular", "post-meta", "entry-meta", "postmeta", "entry-utility",
    "post-tags", "entry-tags", "tag-list", "taglist", "tagcloud", "tag-cloud",
    "author-box", "authorbox", "about-author", "author-bio", "byline",
    "skip-link", "screen-reader", "sr-only", "visually-hidden", "outbrain",
    "taboola", "yarpp", "disclaimer", "copyright", "login", "toolbar",
    "shariff", "addthis", "sharedaddy", "overlay", "lightbox", "flyout",
    "offcanvas", "off-canvas", "popmake", "paywall", "ratings", "caption",
    "credit", "bildunterschrift", "imagedescription", "image-subtitle",
    "img-metadata", "affiliate", "infobox",
)  # fmt: skip

#: Class and id words that name boilerplate as a whole word (split at
#: spaces, ``-`` and ``_``): ``nav`` but not ``canvas``, ``ad`` but not
#: ``header``.
BOILERPLATE_TOKENS = frozenset(
    {"nav", "menu", "share", "shares", "ad", "ads", "tags", "pager",
     "meta", "aside", "bio", "skip", "rating", "toc", "legend"}
)  # fmt: skip

#: The names of comment sections (kept with ``comments=True``).
COMMENT_WORDS = ("comment", "disqus", "respond", "discussion", "kommentar")
COMMENT_TOKENS = frozenset({"reply", "replies"})

#: Not boilerplate though a word above is in its name (``no-sidebar``
#: layouts wrap the whole page; ``has-comments`` marks the article).
NOT_BOILERPLATE_WORDS = (
    "no-sidebar", "with-sidebar", "has-sidebar", "without-sidebar",
    "sidebar-none", "comments-open", "comments-closed", "has-comments",
    "content-sidebar", "commentary", "single-post", "article-body",
    "entry-content", "post-content",
)  # fmt: skip

_SPLIT = re.compile(r"[\s_-]+")


#: Names of regions over or beside the page (dialogs, cookie and privacy
#: prompts, lightboxes): a candidate inside one is not the content, however
#: well it scores.
OVERLAY_WORDS = (
    "modal", "popup", "cookie", "consent", "privacy", "dsgvo", "gdpr",
    "overlay", "lightbox", "newsletter",
)  # fmt: skip


#: A node of the trie ``_words`` builds: the next character to the node after
#: it (``""`` where a word ends).
_Trie: TypeAlias = "dict[str, _Trie]"


def _words(words: tuple[str, ...]) -> re.Pattern[str]:
    """One search for any of ``words`` (lowercase literals), as a trie.

    A fifth of the time of testing them one by one; written as a trie
    (``s(?:hare|ocial|ponsor)``, a word that ends where a longer one goes
    on being enough) instead of a flat alternation, the search is 2-2.5x
    faster again on the names of real pages (Python's ``re`` tries each
    alternative at each position).  Only whether a word is there is read.

    >>> _words(("share", "shariff", "social")).pattern
    's(?:har(?:e|iff)|ocial)'
    """
    trie: _Trie = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: _Trie) -> str:
        if "" in node:  # a word ends here: what follows does not matter
            return ""
        branches = [re.escape(char) + pattern(node[char]) for char in sorted(node)]
        return branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"

    return re.compile(pattern(trie))


_BOILERPLATE = _words(BOILERPLATE_WORDS)
_BOILERPLATE_OR_COMMENT = _words(BOILERPLATE_WORDS + COMMENT_WORDS)
_BOILERPLATE_OR_COMMENT_TOKENS = BOILERPLATE_TOKENS | COMMENT_TOKENS
_NOT_BOILERPLATE = _words(NOT_BOILERPLATE_WORDS)
_OVERLAY = _words(OVERLAY_WORDS)


@functools.lru_cache(maxsize=4096)
def overlay_name(names: str) -> bool:
    """Whether an element's lowercased ``"class id"`` names a dialog, popup or prompt."""
    return _OVERLAY.search(names) is not None


@functools.lru_cache(maxsize=4096)
def boilerplate_name(names: str, comments: bool) -> bool:
    """Whether an element's lowercased ``"class id"`` names boilerplate.

    Cached: a site gives the same names to many elements and pages.

    >>> boilerplate_name("share-buttons top", comments=False)
    True
    >>> boilerplate_name("entry-content no-sidebar", comments=False)
    False
    >>> boilerplate_name("comments-area", comments=True)
    False
    """
    if _NOT_BOILERPLATE.search(names):
        return False
    # Without comments, a comment section's names are boilerplate's: one
    # search for both word lists (most names match neither).
    words, tokens = (
        (_BOILERPLATE, BOILERPLATE_TOKENS)
        if comments
        else (_BOILERPLATE_OR_COMMENT, _BOILERPLATE_OR_COMMENT_TOKENS)
    )
    return words.search(names) is not None or not tokens.isdisjoint(_SPLIT.split(names))


#: Class and id words of the containers that name themselves the content
#: (lowercased): a candidate with one of them gains in the vote.
CONTENT_WORDS = (
    "articlebody", "article-body", "article_body", "article__body", "article-content",
    "article_content", "article__content", "articlecontent", "articletext",
    "article-text", "entry-content", "entry_content", "entrycontent", "post-content",
    "post_content", "postcontent", "post-body", "post_body", "postbody", "post-entry",
    "post-text", "story-body", "storybody", "story-content", "storycontent",
    "body-text", "bodytext", "main-text", "text-content", "single-content",
    "blog-content", "page-content", "field-body", "rich-text", "richtext",
    "article-inner", "news-text", "content-text", "fulltext", "full-text",
    "wpb_text_column", "node-content", "item-page", "main-content", "maincontent",
)  # fmt: skip

CONTENT = _words(CONTENT_WORDS)

#: Class and id words of an article's lead (its standfirst, summary or
#: subtitle), which come along with the content before it.
LEAD_WORDS = (
    "lead", "intro", "summary", "teaser", "excerpt", "abstract", "subtitle",
    "standfirst", "bajada", "chapo", "subline", "sub-headline", "subheadline",
)  # fmt: skip

LEAD = _words(LEAD_WORDS)

TABLES = ("table",)
#: Images and what goes with them (``images=False``, the default, as
#: trafilatura's): captions are not the article's text.
MEDIA = ("img", "picture", "figure", "figcaption", "video", "audio", "source", "track")

#: Elements that hold a paragraph's worth of text: the units that vote (and
#: cells, quotes, definitions and divs that hold text of their own).
PARAGRAPHS = ("p", "pre", "h2", "h3")

#: What a candidate's tag adds to its vote, as Readability weighs it: a
#: ``<div>`` is a likely container, a list or a heading an unlikely one.
TAG_WEIGHTS: dict[str, float] = {
    "div": 5, "article": 10, "main": 10, "section": 3, "pre": 3, "td": 3,
    "blockquote": 3, "address": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3,
    "dt": -3, "li": -3, "form": -3, "h1": -5, "h2": -5, "h3": -5, "h4": -5,
    "h5": -5, "h6": -5, "th": -5,
}  # fmt: skip
