"""What `to_text` and `to_markdown` share: a working copy, cleaned, links absolute.

Both take a string of HTML, a soup `Tag`/`Soup` or an lxml element, and
never change the caller's tree: a string is parsed once (as `clean` parses
it), a tree is copied by lxml in C. The copy is cleaned with a policy (the
safe default unless told otherwise) before it is converted, so that the
text or Markdown never carries what the sanitizer would remove, and its
links are made absolute against ``base_url`` (or the soup's own).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Set
from typing import TYPE_CHECKING, Any, Final

from lxml import etree

from ._markup import target_element
from ._policy import CleanPolicy, _cleaner, get_policy

if TYPE_CHECKING:
    from typing import TypeAlias

    from scrapy_soup._tree._tag import Tag

    from ._read import CleanedAttributes

    #: What the converters take: HTML text, a soup Tag or Soup, an lxml
    #: element or tree.
    HtmlOrTag: TypeAlias = str | Tag | etree._Element | etree._ElementTree

__all__ = [
    "BLOCK_TAGS",
    "SKIPPED_TAGS",
    "WHITESPACE",
    "WHITESPACE_CHARS",
    "collapse",
    "collapse_inner",
    "elements_copy",
    "working_copy",
]

#: ASCII whitespace as HTML collapses it (not U+00A0, which is kept).
WHITESPACE: Final = re.compile(r"[ \t\n\r\f]+")
#: The same characters, for ``str.strip`` and ``in``.
WHITESPACE_CHARS: Final = " \t\n\r\f"


def collapse(text: str) -> str:
    """``WHITESPACE.sub(" ", text)``: runs of ASCII whitespace made one space.

    Most texts between tags are whitespace alone, and most others have no
    run to collapse but at their ends: both are told by ``strip`` and
    ``in`` in C, and only the rest split (`collapse_inner`).
    """
    core = text.strip(WHITESPACE_CHARS)
    if not core:
        return " " if text else ""
    core = collapse_inner(core)
    if text[0] in WHITESPACE_CHARS:
        core = " " + core
    if text[-1] in WHITESPACE_CHARS:
        core += " "
    return core


def collapse_inner(core: str) -> str:
    """`collapse` of text with no ASCII whitespace at its ends.

    Split in C on the UTF-8 bytes, whose whitespace is HTML's and ``\v``
    (a multi-byte character holds no ASCII byte): the regex tried every
    position of every text, a fifth of `to_text`'s instructions.
    """
    if not (
        "  " in core or "\n" in core or "\t" in core or "\r" in core or "\f" in core
    ):
        return core  # single spaces between words, if any
    if "\x0b" in core:  # not HTML whitespace, but bytes.split's
        return WHITESPACE.sub(" ", core)
    try:
        return b" ".join(core.encode().split()).decode()
    except UnicodeError:  # a lone surrogate (not from lxml)
        return WHITESPACE.sub(" ", core)


#: Elements a browser lays out as blocks (the WHATWG rendering section's
#: ``display: block``, ``list-item``, ``table*``): each on lines of its own.
BLOCK_TAGS: Final = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption",
        "center", "dd", "details", "dialog", "dir", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
        "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend",
        "li", "listing", "main", "menu", "nav", "ol", "p", "plaintext", "pre",
        "search", "section", "summary", "table", "tbody", "td", "tfoot", "th",
        "thead", "tr", "ul", "xmp",
    }
)  # fmt: skip

#: Elements that are never rendered (``display: none`` in the WHATWG
#: rendering section) or replaced by media: nothing of them is text. The
#: default policy removes most of them already; a policy that keeps them
#: must not make their content readable text.
SKIPPED_TAGS: Final = frozenset(
    {
        "area", "audio", "base", "datalist", "embed", "head", "iframe",
        "link", "map", "meta", "noembed", "noframes", "noscript", "object",
        "param", "rp", "script", "select", "style", "template", "textarea",
        "title", "track", "video",
    }
)  # fmt: skip


def _copy_of(el: etree._Element) -> etree._Element:
    """A deep copy of ``el`` without the text after it (which is its parent's)."""
    new = copy.deepcopy(el)
    new.tail = None
    return new


def working_copy(
    html_or_tag: HtmlOrTag,
    policy: CleanPolicy | str | None,
    base_url: str | None,
    before_clean: Any = None,
    characters: bool = True,
    read: Set[str] | None = None,
) -> etree._Element:
    """The element to convert: a fresh tree, cleaned by ``policy``, links absolute.

    A string is parsed (a whole document as one, anything else as a
    fragment); a Tag, Soup or element is copied. ``base_url`` defaults to
    the soup's own (a Scrapy response's page). ``before_clean`` is called
    with the copy before it is cleaned (Markdown reads the code languages
    the cleaning drops).  Without ``characters``, the characters HTML or
    XML forbid are left in the tree (`clean_with_links`).  ``read``: the
    attribute names the converter reads, the only ones cleaned (elements
    holding none keep theirs unchecked: see `clean_with_links`).
    """
    from .clean import clean_with_links

    compiled = _cleaner(get_policy(policy))
    el, base_url = _fresh(html_or_tag, base_url, before_clean)
    clean_with_links(el, compiled, base_url or None, characters=characters, read=read)
    return el


def elements_copy(
    html_or_tag: HtmlOrTag,
    policy: CleanPolicy | str | None,
    base_url: str | None,
    before_clean: Any = None,
) -> tuple[etree._Element, CleanedAttributes]:
    """`working_copy` cleaned of its elements only, and its attributes as cleaned.

    The elements the policy removes or unwraps go, the characters HTML or
    XML forbid stay (``characters=False``); the attributes stay as parsed,
    and the second value reads each as cleaning would leave it, its link
    made absolute (`_read.CleanedAttributes`): for a converter that reads a
    few attributes of a few elements (`to_markdown`).
    """
    from ._read import CleanedAttributes
    from .clean import clean_with_links

    compiled = _cleaner(get_policy(policy))
    el, base_url = _fresh(html_or_tag, base_url, before_clean)
    clean_with_links(el, compiled, None, characters=False, read=frozenset())
    return el, CleanedAttributes(compiled, el, base_url or None)


def _fresh(
    html_or_tag: HtmlOrTag, base_url: str | None, before_clean: Any
) -> tuple[etree._Element, str | None]:
    """A tree of the caller's own (a string parsed, a tree copied), and its
    base URL; ``before_clean`` (if any) called with it."""
    target = target_element(html_or_tag)
    el = target.element
    if not isinstance(html_or_tag, str):
        if base_url is None:
            base_url = _own_base_url(html_or_tag)
        el = _copy_of(el)
    if before_clean is not None:
        before_clean(el)
    return el, base_url


def _own_base_url(obj: object) -> str | None:
    """The base URL of the soup a Tag belongs to (a response's page), or None."""
    doc = getattr(obj, "_doc", None)
    value = getattr(doc, "base_url", None)
    return value if isinstance(value, str) and value else None
