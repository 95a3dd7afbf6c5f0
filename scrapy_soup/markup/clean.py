"""Clean scraped HTML: keep only the tags and attributes a policy allows, safely.

`clean` takes a string of HTML, a soup `Tag` or an lxml element and gives
back the same kind; `clean_element` is the lxml-level function, which also
counts what it removed.  What is kept is a `CleanPolicy` (an allowlist);
the default is safe against script injection: no ``<script>``/``<iframe>``/
``<object>``…, no ``on*`` attributes, no ``javascript:``/``vbscript:``/
``data:`` URLs (but images) once entities, control characters, tabs,
newlines and case are normalized as browsers do, no ``style``.

No Scrapy import here: this is core, usable on its own.  It is written on
lxml (the package's only parser): ``nh3``/``ammonia`` and
``lxml_html_clean`` are not dependencies.  Unlike those, it changes the
tree in place, so a soup `Tag` stays a view of the cleaned tree.

>>> clean('<p onclick="x()" class="c">Hi <script>evil()</script><b>you</b></p>')
'<p>Hi <b>you</b></p>'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set
from dataclasses import dataclass
from typing import Any, TypeVar

from lxml import etree

from .._tree._write import (
    MULTI_VALUED,
    contents_html,
    contents_html_from_xml,
    settle_attributes,
)
from ._attributes import clean_attributes, delete_attributes, value_ok
from ._characters import (
    ENCODED_FORBIDDEN,
    drop_characters,
    has_forbidden,
    tree_has_forbidden,
)
from ._document import (
    DOCUMENT_PARTS,
    clean_top_level,
    comment_ok,
    document_parts,
    remove,
)
from ._foreign import remove_raw_text_in_foreign_content
from ._markup import (
    CleanError,
    as_html,
    markup_of,
    parse_markup,
    set_text,
    target_element,
    write_as_read,
    write_markup,
)
from ._policy import (
    _NOT_ELEMENT,
    _URL,
    EPUB_POLICY,
    POLICIES,
    SAFE_ATTRIBUTES,
    SAFE_TAGS,
    STRICT_POLICY,
    AttributeMap,
    CleanPolicy,
    _Cleaner,
    _cleaner,
    get_policy,
)
from ._url import Base
from .links import (
    absolutize_element,
    absolutize_nodes,
    absolutize_read,
    link_attribute_names,
)

__all__ = [
    "EPUB_POLICY",
    "POLICIES",
    "SAFE_ATTRIBUTES",
    "SAFE_TAGS",
    "STRICT_POLICY",
    "AttributeMap",
    "CleanError",
    "CleanPolicy",
    "CleanStats",
    "clean",
    "clean_element",
    "get_policy",
]

T = TypeVar("T")


@dataclass
class CleanStats:
    """What one `clean_element` call removed (for the pipeline's stats)."""

    #: Elements removed with their content, descendants included.
    elements_removed: int = 0
    #: Elements unwrapped: the tag removed, its text and children kept.
    tags_unwrapped: int = 0
    #: Attributes removed.
    attributes_removed: int = 0
    #: Comments (and processing instructions) removed.
    comments_removed: int = 0
    #: Characters HTML or XML 1.0 forbid in text, dropped (see `_characters`).
    characters_removed: int = 0

    def __iadd__(self, other: CleanStats) -> CleanStats:
        self.elements_removed += other.elements_removed
        self.tags_unwrapped += other.tags_unwrapped
        self.attributes_removed += other.attributes_removed
        self.comments_removed += other.comments_removed
        self.characters_removed += other.characters_removed
        return self


#: Tag names lxml's strip_tags() accepts; the HTML parser also makes names
#: like "a\x08<" that only a hand-made unwrap can handle.
_PLAIN_TAG = re.compile(r"(\{[^}]*\})?[A-Za-z_][\w.:\-]*\Z")


def _unwrap(node: Any) -> None:
    """Replace *node* by its children and text (lxml's strip_tags, by hand)."""
    parent = node.getparent()
    if parent is None:
        return
    text, tail = node.text or "", node.tail or ""
    children = list(node)
    previous = node.getprevious()
    lead = text if children else text + tail
    if lead:
        if previous is not None:
            set_text(previous, True, (previous.tail or "") + lead)
        else:
            set_text(parent, False, (parent.text or "") + lead)
    if children:
        last = children[-1]
        if tail:
            set_text(last, True, (last.tail or "") + tail)
        index = parent.index(node)
        parent[index : index + 1] = children
    else:
        parent.remove(node)


def clean_element(
    el: etree._Element, policy: CleanPolicy | str | None = None
) -> CleanStats:
    """Clean *el*'s attributes and descendants in place by *policy*; return the counts.

    *el* itself is kept (it is the caller's container): its attributes are
    cleaned as any element's, and if its tag is one removed with its content,
    its content is removed.  Descendants whose tag is not allowed are
    unwrapped, or removed with their content for the tags the policy
    removes.  The ``<html>`` at the root of a document keeps its ``<head>``
    and ``<body>`` (the comments around it are `clean`'s business).
    Characters that HTML or XML 1.0 forbid in text (control characters,
    noncharacters) are dropped from what stays.  Never raises for any tree
    lxml can hold.
    """
    return clean_with_links(el, _cleaner(get_policy(policy)), None)


def clean_with_links(
    el: etree._Element,
    compiled: _Cleaner,
    base_url: str | None,
    extra_attrs: tuple[str, ...] = (),
    characters: bool = True,
    read: Set[str] | None = None,
) -> CleanStats:
    """`clean_element`, then `absolutize_element` with a *base_url*, in one walk.

    The walk that cleans also collects the elements links may be in
    (`_clean_tree`), which `absolutize_nodes` then rewrites, as the string
    path of `clean` does.  Without *characters*, the characters HTML or XML
    forbid are not looked for (a caller that checks its output instead).

    *read*: the attribute names the caller reads of the tree and nothing
    else (a converter that writes no HTML: `to_text`, `to_markdown`).  Only
    those attributes are checked (and, of the links, made absolute); the
    others are left as they are, unchecked, never to be written.  The
    elements and text are the same as without it.  An empty *read*: no
    attribute is checked (the caller reads them through
    `_read.CleanedAttributes`).
    """
    found: list[Any] = []
    names: Set[str] | None = None
    if base_url is not None:
        names = link_attribute_names(extra_attrs)
        if read is not None:
            # Links nobody reads need not be made absolute either.
            names = names & read
    stats = _clean_tree(el, compiled, names, found, read=read)[0]
    if characters:
        _clean_characters(el, compiled, stats, read)
    if base_url is not None:
        if read is not None and names is not None:
            absolutize_read(el, found, base_url, names)
        else:
            absolutize_nodes(el, found, base_url, extra_attrs=extra_attrs)
    return stats


def _clean_characters(
    el: etree._Element,
    compiled: _Cleaner,
    stats: CleanStats,
    read: Set[str] | None = None,
) -> None:
    """After a tree's walk: drop the characters HTML or XML forbid, counted in *stats*.

    Looked for in the cleaned tree (`tree_has_forbidden`, in C); found, they
    are dropped and the tree is cleaned again: a value checked with them in
    (``java\x01script:``, a relative URL) may read otherwise without them.
    """
    if tree_has_forbidden(el):
        stats.characters_removed += drop_characters(el)
        stats += _clean_tree(el, compiled, None, [], read=read)[0]


def _clean_tree(
    el: etree._Element,
    compiled: _Cleaner,
    link_names: Set[str] | None,
    found: list[Any],
    settle: bool = False,
    strip_first: bool = False,
    read: Set[str] | None = None,
) -> tuple[CleanStats, bool]:
    """`clean_element`; with *link_names*, also collect the kept elements links may be in.

    *found* gets the elements kept whose attributes (before cleaning)
    include one of *link_names*, and ``<style>`` elements: what
    `absolutize_nodes` needs, found in this walk instead of another.

    With *settle* (the string path), the kept attributes are also written
    back as the string output has them (`settle_attributes`); the second
    value returned says whether the tree is then plain, so that
    `contents_html_from_xml` can write it.  The counts then leave out the
    common attributes stripped first.  With *strip_first* (the string path
    too), the elements removed with their content and the comments are
    removed first in C, and not counted.

    A whole document's ``<html>`` (the root of its tree) keeps its
    ``<head>`` and ``<body>``: their attributes are cleaned as any
    element's, and what ``<head>`` holds that the policy does not keep is
    removed, not unwrapped (text in ``<head>`` would move to ``<body>``
    when the output is parsed again).  For *read*, see `clean_with_links`.
    """
    _strip_in_c(el, compiled, settle, strip_first)
    stats = CleanStats()
    parts, stats.elements_removed = document_parts(el, compiled)
    walk = _walk(el, compiled, parts, link_names, found, settle, read)
    stats.attributes_removed = walk.attributes_removed
    # Remove, then unwrap; tails stay in place.
    _remove_collected(el, compiled, walk, stats)
    if walk.strip:
        etree.strip_attributes(el, *walk.strip)
    _unwrap_collected(el, walk)
    stats.tags_unwrapped = walk.unwrapped
    if compiled.emptied:
        _empty_collected(el, compiled, stats)
    if compiled.style_allowed:
        _remove_unsafe_styles(el, compiled, stats)
        stats.elements_removed += remove_raw_text_in_foreign_content(el)
    return stats, walk.plain and el.tail is None


def _strip_in_c(
    el: etree._Element, compiled: _Cleaner, settle: bool, strip_first: bool
) -> None:
    """Before the walk: strip in C what goes wherever it is (the string path only).

    With *settle* (no counts kept), the most common attributes the policy
    removes everywhere go, and the walk reads fewer names (most elements
    then have none left); no check reads them (see `_COMMON_ATTRIBUTES`).
    With *strip_first*, the elements removed with their content and the
    comments go too, without the walk visiting them or `remove` merging
    their tails into the text before (the tail's text nodes stay, next to
    it).
    """
    if settle and compiled.prestrip:
        etree.strip_attributes(el, *compiled.prestrip)
    if strip_first:
        etree.strip_elements(el, *compiled.preremove, with_tail=False)


class _Walk:
    """What `_walk` found: the nodes to remove or unwrap, and the counts so far."""

    __slots__ = (
        "attributes_removed",
        "comments",
        "odd",
        "plain",
        "removed",
        "strip",
        "unwrap",
        "unwrapped",
    )

    def __init__(self, plain: bool) -> None:
        #: Comments and processing instructions to remove.
        self.comments: list[Any] = []
        #: Elements to remove with their content.
        self.removed: list[Any] = []
        #: Elements to unwrap by hand (`_unwrap`): names strip_tags refuses.
        self.odd: list[Any] = []
        #: Tag names to unwrap everywhere with lxml's strip_tags.
        self.unwrap: set[str] = set()
        #: Elements unwrapped, either way.
        self.unwrapped = 0
        #: Attribute names to strip from the whole tree at the end.
        self.strip: set[Any] = set()
        self.attributes_removed = 0
        #: Whether `contents_html_from_xml` can still write the tree.
        self.plain = plain


def _walk(
    el: etree._Element,
    compiled: _Cleaner,
    parts: tuple[Any, ...],
    link_names: Set[str] | None,
    found: list[Any],
    settle: bool,
    read: Set[str] | None = None,
) -> _Walk:
    """One walk: sort the nodes to remove or unwrap, clean the kept ones' attributes.

    lxml's iterator is far cheaper than XPath predicates on this corpus.
    It collects comments and processing instructions (the HTML parser makes
    ``<?php ?>`` a comment) and the elements to remove or unwrap
    (`_collect`), and cleans the attributes of the elements kept by the
    plan for their tag and names (`_Cleaner.plan`, made once per
    combination), so that only the values that matter (URLs, CSS) are read
    here.  Subtrees being removed are skipped: their attributes do not
    count.  *el* itself and a document's ``<head>`` and ``<body>``
    (*parts*) are kept.  For *link_names* and *found*, see `_clean_tree`.

    The per-element work is written out in this one loop, not called: a
    call per element cost 5% of `clean_element`'s time on the corpus.
    """
    walk = _Walk(settle)
    actions = compiled.tag_actions
    plans = compiled.plans
    url_ok = compiled.url_ok
    plain = settle
    attributes_removed = 0
    no_attributes = read is not None and not read
    skip_to: Any = None
    node: Any
    for node in el.iter():
        if skip_to is not None:
            if node is skip_to:
                skip_to = None
            continue
        tag = node.tag
        action = actions.get(tag)
        if action is None:
            action = actions[tag] = compiled.tag_action(tag)
        if action:
            if action < 0:
                plain = False
            elif action == _NOT_ELEMENT or (
                node is not el and not (tag in DOCUMENT_PARTS and node in parts)
            ):
                skip_to = _collect(walk, compiled, node, tag, action, parts)
                # A comment kept makes the tree no longer plain.
                plain = plain and walk.plain
                continue
        if no_attributes:
            continue  # read by `_read.CleanedAttributes` instead
        names = node.keys()
        if not names:
            # Most elements once the common attributes are stripped.
            if tag == "style" and link_names is not None:
                found.append(node)
            continue
        if read is not None:
            if read.isdisjoint(names):
                continue  # attributes nobody reads (see `clean_with_links`)
            # Only the ones read are checked: the others are never written.
            names = [name for name in names if name in read]
        if link_names is not None and (
            tag == "style" or not link_names.isdisjoint(names)
        ):
            found.append(node)
        plan_key = (tag, *names)
        plan = plans.get(plan_key)
        if plan is None:
            plan = plans[plan_key] = compiled.plan(tag, plan_key[1:])
        drops, checks, drop_all, ordered, stripped, fixed, simple, rewrite = plan
        if not simple:
            plain = False
        if ordered:
            attributes_removed += clean_attributes(
                compiled, compiled.decisions_by_tag, node, tag, names
            )
        else:
            attributes_removed += fixed
            if stripped:
                # Removed from the whole tree in one pass at the end.
                walk.strip.update(stripped)
            if drop_all:
                if read is None:
                    node.attrib.clear()
                else:
                    delete_attributes(node, plan_key[1:])
                continue
            for name, decision, local, key in checks:
                value = node.get(name, "")
                if not (
                    url_ok(value, local, key)
                    if decision == _URL
                    else value_ok(compiled, node, decision, local, key, value)
                ):
                    drops = (*drops, name)
                    attributes_removed += 1
            if drops:
                delete_attributes(node, drops)
        if plain and rewrite and not settle_attributes(node):
            plain = False
    walk.attributes_removed = attributes_removed
    walk.plain = plain
    return walk


def _collect(
    walk: _Walk,
    compiled: _Cleaner,
    node: Any,
    tag: Any,
    action: int,
    parts: tuple[Any, ...] = (),
) -> Any:
    """Note a node that goes (a comment, an element removed or unwrapped).

    A comment the policy keeps stays (the tree is then no longer plain).
    Returns the last node of a removed element's subtree, which the walk
    skips to, or None.  A ``<head>`` or ``<body>`` is unwrapped by hand
    only in a whole document (*parts*: the ones it keeps), where
    ``strip_tags`` would take those too; elsewhere (a fragment holding a
    page's ``<body>``, as a field taken from a page does) in C: moving a
    large body's children by hand costs lxml a walk of every one's subtree.
    """
    if action == _NOT_ELEMENT:
        if (
            compiled.policy.keep_comments
            and isinstance(node, etree._Comment)
            and comment_ok(node.text)
        ):
            walk.plain = False
        else:
            walk.comments.append(node)
        return None
    if action == 2:
        walk.removed.append(node)
        last = node
        while len(last):
            last = last[-1]
        return last if last is not node else None
    walk.unwrapped += 1
    if tag not in walk.unwrap:
        if _PLAIN_TAG.match(tag) and not (parts and tag in DOCUMENT_PARTS):
            walk.unwrap.add(tag)
        else:
            walk.odd.append(node)
    return None


def _remove_collected(
    el: etree._Element, compiled: _Cleaner, walk: _Walk, stats: CleanStats
) -> None:
    """Remove the comments and elements the walk collected, counting them.

    If *el*'s own tag is one removed with its content, *el* stays (it is
    the caller's container) and its content goes.
    """
    for node in walk.comments:
        remove(node)
    stats.comments_removed = len(walk.comments)
    elements_removed = stats.elements_removed
    for node in walk.removed:
        # Most are leaves (<script>, <link>, <meta>): no walk to count them.
        elements_removed += sum(1 for _ in node.iter(etree.Element)) if len(node) else 1
        remove(node)
    stats.elements_removed = elements_removed
    if compiled.tag_actions.get(el.tag) == 2:
        stats.elements_removed += sum(1 for _ in el.iter(etree.Element)) - 1
        for child in list(el):
            el.remove(child)
        set_text(el, False, None)


def _unwrap_collected(el: etree._Element, walk: _Walk) -> None:
    """Unwrap the elements the walk collected: by tag in C, odd names by hand."""
    if walk.unwrap:
        etree.strip_tags(el, *walk.unwrap)
    for node in walk.odd:
        _unwrap(node)


def _empty_collected(el: etree._Element, compiled: _Cleaner, stats: CleanStats) -> None:
    """Empty the kept ``<iframe>``, ``<noembed>``, ``<noframes>`` (`EMPTIED_TAGS`).

    Their content is raw text to the HTML parser, written escaped: kept, it
    would gain an ``amp;`` per clean.  A browser never shows it.
    """
    for node in el.iter(*compiled.emptied):
        if len(node):
            stats.elements_removed += sum(1 for _ in node.iter(etree.Element)) - 1
            for child in list(node):
                node.remove(child)
        if node.text is not None:
            set_text(node, False, None)


def _remove_unsafe_styles(
    el: etree._Element, compiled: _Cleaner, stats: CleanStats
) -> None:
    """Remove the allowed ``<style>`` elements holding CSS a browser can escape from."""
    for node in el.iter("style", "{*}style"):
        if node is not el and not compiled.css_ok(node.text or "", "style"):
            remove(node)
            stats.elements_removed += 1


def clean(
    html_or_tag: T,
    policy: CleanPolicy | str | None = None,
    *,
    base_url: str | None = None,
    extra_attrs: Iterable[str] = (),
) -> T:
    """Clean HTML by *policy* (default: the safe policy); return the same kind as given.

    A ``str`` is parsed as an HTML fragment and a new ``str`` returned; a
    soup `Tag`/`Soup` or an lxml element is cleaned in place and returned.
    *policy* is a `CleanPolicy` or a preset name (``"safe"``, ``"strict"``,
    ``"epub"``).  See `clean_element`.

    A whole document (a string starting with a doctype or ``<html>``, or
    whose output as a fragment would, a document soup, a root ``<html>``
    element) stays one: ``<html>``, ``<head>`` and ``<body>`` keep the
    attributes the policy keeps, and the comments and processing
    instructions around ``<html>`` go too.

    It fails closed: if it cannot finish it raises `CleanError` (the cause
    chained) and returns nothing; a tree cleaned in place may then be
    partly cleaned.  An unknown preset or a relative *base_url* raises
    ValueError, an object of another kind TypeError.

    With *base_url*, links are also made absolute, in the same pass: the
    result is ``absolutize_links(clean(x, policy), base_url,
    extra_attrs=extra_attrs)``, with one parse instead of several.

    >>> clean('<a href=" jav&#x09;ascript:alert(1)">x</a><img src=a.png onerror=alert(1)>')
    '<a>x</a><img src="a.png"/>'
    >>> clean('<p align="center"><img src="a.png" class="wide" alt="A"></p>', "epub")
    '<p><img alt="A" src="a.png"/></p>'
    >>> clean('<a href="b.html" onclick="x()">b</a>', base_url="https://example.com/a/")
    '<a href="https://example.com/a/b.html">b</a>'
    """
    compiled = _cleaner(get_policy(policy))
    extra_attrs = tuple(extra_attrs)
    if isinstance(html_or_tag, str):
        result: Any = _clean_text(html_or_tag, compiled, base_url, extra_attrs)
        return result  # type: ignore[no-any-return]
    if base_url is not None:
        Base(base_url)  # a bad base URL is the caller's error (ValueError)
    target = target_element(html_or_tag)
    try:
        for element in target.elements:
            clean_with_links(element, compiled, base_url, extra_attrs)
            if element is target.element:
                # The top level is one for all the root elements.
                clean_top_level(html_or_tag, element, compiled)
    except Exception as exc:
        raise _failed(exc) from exc
    return html_or_tag


def _failed(exc: Exception) -> CleanError:
    """The error `clean` raises when it cannot finish: it never returns the input."""
    return CleanError(
        f"clean() could not clean this markup ({type(exc).__name__}: {exc}); "
        "nothing was returned"
    )


def clean_and_absolutize(
    text: str,
    base_url: str,
    policy: CleanPolicy | str | None = None,
    *,
    extra_attrs: Iterable[str] = (),
) -> str:
    """``absolutize_links(clean(text, policy), base_url)`` on one parse, written once.

    What ``clean(text, policy, base_url=...)`` runs: the links of the tree
    `_clean_tree` leaves are made absolute before it is written, instead of
    `absolutize_links` parsing the output again.  Fails closed as `clean`
    does; a relative *base_url* raises ValueError.
    """
    return _clean_text(text, _cleaner(get_policy(policy)), base_url, tuple(extra_attrs))


def _clean_text(
    text: str,
    compiled: _Cleaner,
    base_url: str | None,
    extra_attrs: tuple[str, ...],
) -> str:
    """`clean` of a string, links made absolute with a *base_url*.

    Fails closed (`_failed`); a relative *base_url* raises ValueError.
    """
    if base_url is not None:
        Base(base_url)  # a bad base URL is the caller's error (ValueError)
    try:
        return write_as_read(
            text,
            lambda document: _clean_string(
                text, compiled, base_url, extra_attrs, document
            ),
        )
    except Exception as exc:
        raise _failed(exc) from exc


def _clean_string(
    text: str,
    compiled: _Cleaner,
    base_url: str | None,
    extra_attrs: tuple[str, ...],
    document: bool,
    strip_first: bool = True,
    drop: bool = False,
) -> str:
    """`clean` of a string: one parse, one serialization, one re-parse to check.

    The output must parse back to itself for clean(clean(x)) == clean(x):
    unwrapping and removing can leave trees the HTML parser builds
    differently from their serialization (a <p> inside a <p>, text directly
    in a <table>).  The output is parsed again and compared with the tree it
    was written from, in C (XML serialization of both); the serializer's own
    normalizations (collapsed whitespace, multi-valued attributes, sorted
    attributes) are written back into that tree first, so a tree that round-trips compares
    equal.  Then cleaning the output again would change nothing (cleaning a
    cleaned tree is a no-op), so it is the fixed point.  Otherwise the
    output is cleaned again until it stops changing (`_clean_string_rounds`).

    A whole *document* (`is_document`, or a string whose output as a
    fragment would be one) is parsed and written as one: its ``<html>``,
    ``<head>`` and ``<body>`` stay, the comments around it go.

    *strip_first*: see `_clean_tree`.  Text next to an element removed
    that way keeps characters the lxml API refuses, which `remove` (the
    reference) drops when it joins the tail to the text before.  Only the
    XML path can tell (it declines a tree holding control characters;
    U+FFFE/U+FFFF it writes as they are), so a tree it cannot write is
    made again without *strip_first*; policies that keep comments or
    script, style or meta elements (never written so) go without it.

    An output holding characters HTML or XML forbid (`has_forbidden`: one
    search of the output, which every string pays for) is made again with
    *drop*: they are dropped from the parsed tree before the walk checks
    anything.
    """
    strip_first = strip_first and compiled.strip_first
    target = parse_markup(text, document)
    document = target.document
    el = target.element
    if drop:
        drop_characters(el)
    found: list[Any] = []
    names = None if base_url is None else link_attribute_names(extra_attrs)
    plain = _clean_tree(el, compiled, names, found, True, strip_first)[1]
    if document:
        clean_top_level(text, el, compiled)
    if base_url is not None:
        absolutize_nodes(el, found, base_url, extra_attrs=extra_attrs)
        # Links written after the walk settled the attributes must not be
        # multi-valued ones (only a user's extra_attrs could name one).
        plain = plain and MULTI_VALUED.isdisjoint(extra_attrs)
    with as_html(el):
        written = contents_html_from_xml(el) if plain else None
    if strip_first and (
        written is None or "\ufffe" in written[0] or "\uffff" in written[0]
    ):
        return _clean_string(
            text, compiled, base_url, extra_attrs, document, False, drop
        )
    if written is None:
        result = write_markup(target, contents_html(el, settle=True))
        settled = None
    else:
        # The serialization of the settled tree came with the output.
        result, settled = write_markup(target, written[0]), written[1]
    if not drop and (
        has_forbidden(result)
        # Links made absolute have them percent-encoded: dropped first, they
        # are as ``absolutize_links(clean(text), base_url)`` has them (a
        # "%01" written in the page costs one more pass, and changes nothing).
        or (base_url is not None and ENCODED_FORBIDDEN.search(result) is not None)
    ):
        return _clean_string(
            text, compiled, base_url, extra_attrs, document, strip_first, True
        )
    if result == text and base_url is None:
        return result
    again = parse_markup(result, document)
    with as_html(el), as_html(again.element):
        same = again.document == document and _same_tree(el, again.element, settled)
    if same:
        return result
    return _clean_string_rounds(text, compiled, base_url, extra_attrs, document)


def _same_tree(a: etree._Element, b: etree._Element, a_xml: str | None) -> bool:
    """Whether two trees are equal: the same XML serialization, computed in C.

    *a* has been settled (`contents_html`): its attributes are in the sorted
    order the parse of the output has, its whitespace collapsed.  Or
    *a_xml* is that serialization (`contents_html_from_xml`).
    """
    try:
        # As str: bytes would write non-ASCII characters as references.
        if a_xml is None:
            a_xml = etree.tostring(a, encoding="unicode")
        return a_xml == etree.tostring(b, encoding="unicode")
    except Exception:  # anything odd: take the slow path
        return False


def _clean_string_rounds(
    text: str,
    compiled: _Cleaner,
    base_url: str | None,
    extra_attrs: tuple[str, ...],
    document: bool | None = None,
) -> str:
    """The reference string path: clean, serialize, re-parse until nothing changes.

    *document*: whether *text* is one; by default decided as `clean` does
    (`write_as_read`).
    """
    if document is None:
        return write_as_read(
            text,
            lambda document: _clean_string_rounds(
                text, compiled, base_url, extra_attrs, document
            ),
        )

    def once(markup: str, drop: bool = False) -> str:
        target = parse_markup(markup, document)
        if drop:
            drop_characters(target.element)
        _clean_tree(target.element, compiled, None, [])
        if target.document:
            clean_top_level(markup, target.element, compiled)
        out = markup_of(target)
        if not drop and has_forbidden(out):
            # As `_clean_string` does: dropped before the walk.
            return once(markup, True)
        return out

    result = once(text)
    previous = text
    for _ in range(_MAX_ROUNDS):
        if result == previous:
            break
        previous, result = result, once(result)
    if base_url is not None:
        target = parse_markup(result, document)
        absolutize_element(target.element, base_url, extra_attrs=extra_attrs)
        result = markup_of(target)
    return result


#: Re-parse rounds for string input; the HTML parser's fix-ups settle in
#: one or two.
_MAX_ROUNDS = 4
