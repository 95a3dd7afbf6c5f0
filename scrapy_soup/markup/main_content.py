"""A page's main content, on the tree the page was parsed into: `main_content`.

Three steps, each a named rule in `._content_rules` or a function here:

1. **Choose** the element that holds the article (`_vote`): each paragraph
   scores by its length and commas and gives its score to its parent, half
   to its grandparent and a 3n-th to the ancestor n levels up (five more)
   (Mozilla's Readability); a candidate's tag and class or id names add or
   take away (`_name_weight`); the best five are weighed by their link
   density; near candidates in one ancestor give it the content
   (`_common_ancestor`), a better-scoring ancestor takes it
   (`_better_parent`), a short winner gives way to a fuller candidate
   (`_fuller_candidate`), siblings that score or read as paragraphs come
   along (`_with_siblings`), and so does the lead before the content, up
   to four levels above it (`_leads_above`, `_is_lead`).
2. **Copy** it: the page's tree is only read, never changed.
3. **Prune** the copy: what is never content (scripts, form controls,
   media players; tables, images, links if asked; a table's ``<figure>``
   and a ``<noscript>`` holding paragraphs are kept as text,
   `_unwrap_text_holders`), then in one walk
   (`_prune`) what the page hides, boilerplate by tag, role and name
   (navigation, sharing, related links, ads, comment threads unless asked
   for; a block named so that holds most of the text stays) and, on the
   way back up, the blocks that are mostly links; last, the headings left
   heading nothing (`_drop_empty_headings`).

Each step is one pass of libxml2 or of Python over the tree or the copy
(the candidates' ancestors are read at most 40 levels up), so the time is
linear in the page, and nothing recurses in Python, so a 100,000-deep page
is read like any other.
"""

from __future__ import annotations

import copy
import functools
from typing import TYPE_CHECKING, Literal

from lxml import etree

from .._tree._classes import extensions
from .._tree._soup import Soup
from . import _content_rules as rules
from ._document import remove
from ._markup import target_element

if TYPE_CHECKING:
    from .._tree._tag import Tag

__all__ = ["Favor", "content_element", "main_content"]

#: Favour precision (less boilerplate, maybe less content), recall (the
#: other way round) or neither.
Favor = Literal["balanced", "precision", "recall"]

#: Pruning that leaves less than this share of the text is undone.
_LEAST_KEPT = {"balanced": 0.1, "precision": 0.05, "recall": 0.2}
#: A block is dropped as navigation when this share of its text is links.
_LINK_DENSITY = {"balanced": 0.5, "precision": 0.35, "recall": 0.7}
#: What a paragraph's vote is divided by, for each ancestor it reaches:
#: the parent gets it all, the grandparent half, an ancestor n levels up a
#: 3n-th (Mozilla's Readability), seven levels up in all.
_SHARES = (1, 2, 6, 9, 12, 15, 18)
#: Candidates weighed by their link density after the vote.
_CANDIDATES = 5
#: Candidates this near the best one (a share of its score), two of them
#: in one ancestor, make that ancestor the content.
_NEAR = {"balanced": 0.5, "precision": 0.75, "recall": 0.35}
#: Siblings of the content scoring this share of it come along.
_SIBLING_SHARE = 0.1
#: How far up a candidate's ancestors are read (bounds the work on deep pages).
_ANCESTORS_CHECKED = 40
#: Paragraphs shorter than this (characters) do not vote.
_MIN_PARAGRAPH = 25
#: Blocks judged by their link density.
_BLOCKS = frozenset(
    {"div", "section", "ul", "ol", "dl", "table", "p", "li", "span", "header", "center"}
)
_TEXT = etree.XPath("string()", smart_strings=False)


def _text_of(el: etree._Element) -> str:
    """``el``'s text, as `_TEXT`: a tenth faster on the small elements the
    vote reads by the hundred (no XPath context set up for each)."""
    return etree.tostring(el, method="text", encoding=str, with_tail=False)


#: Elements whose text is not read: scripts, styles, a menu's options.
_UNREAD = ("script", "style", "option")
_VISIBLE_TEXT = etree.XPath(
    ".//text()[not(parent::script or parent::style or parent::option)]",
    smart_strings=False,
)
#: A lead before the content has at least this many characters.
_LEAD = 60
#: What a lead's text ends with (a sentence, a quotation).
_SENTENCE_END = frozenset('.!?\u201c\u201d"\u00bb')
#: How many levels above the content a lead is looked for, and its
#: longest there (characters).
_LEAD_LEVELS = 4
_LEAD_LONGEST = 1000
#: A chosen element with less text than this (characters) is compared
#: with the other candidates (`_fuller_candidate`) ...
_SHORT = 500
#: ... and gives way to one holding this many times its text outside links.
_FULLER = 3
#: (Not ".//a//text()": the same nodes, in twice the time on large pages,
#: libxml2 walking its descendant-or-self steps.)
_LINK_TEXT = etree.XPath("descendant::a/descendant::text()", smart_strings=False)
#: An element named as boilerplate holding more than this share of the
#: content's text is kept.
_MOSTLY = 0.5
#: A heading longer than this (characters) is prose set large, not a title.
_TITLE = 80
#: Headings and their levels.
_HEADINGS: dict[object, int] = {f"h{n}": n for n in range(1, 7)}
#: The elements that may hold a paragraph's text of their own, and the
#: least text of their own (before their first child) that makes one.
_OWN_TEXT: dict[object, int] = {
    "div": _MIN_PARAGRAPH * 3,
    "td": _MIN_PARAGRAPH,
    "blockquote": _MIN_PARAGRAPH,
    "dd": _MIN_PARAGRAPH,
}
#: The paragraphs that vote, and the elements that may hold one's text of
#: their own.  Found by ``etree.iterwalk``, not ``iter()``, which takes
#: quadratic time on a 100,000-deep tree (libxml2's XPath, linear too, is
#: five times slower on real pages).
_PARAGRAPHS = (*rules.PARAGRAPHS, *(tag for tag in _OWN_TEXT if isinstance(tag, str)))


def main_content(
    markup_or_soup: str | bytes | Tag | etree._Element,
    *,
    base_url: str | None = None,
    comments: bool = False,
    tables: bool = True,
    images: bool = False,
    links: bool = True,
    favor: Favor = "balanced",
) -> Soup | None:
    """The page's main content as a new fragment soup, boilerplate removed; None if none.

    ``markup_or_soup`` is a page's HTML (``str`` or ``bytes``, parsed once,
    as `Soup` parses it), a `Soup` or `Tag` (read in place, as
    ``response.soup`` is: never changed) or an lxml element.  The result is
    a new ``"fragment"`` soup holding a copy of the content, ready for
    `clean`, `absolutize_links`, `to_text` and `to_markdown`; its
    ``base_url`` is ``base_url`` or the page soup's own.

    ``comments`` keeps comment threads, ``tables``, ``images`` (and their
    captions) and ``links`` keep those elements (without ``links`` a
    link's text stays),
    and ``favor`` trades recall for precision (``"precision"``: stricter
    link density, candidates merged only when they score near the best)
    or the other way round.

    >>> page = (
    ...     "<body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
    ...     "<article><h1>Title</h1><p>The first paragraph of the story, long"
    ...     " enough, with a comma, to read as content.</p>"
    ...     "<div class='share-buttons'><a href='/tw'>Tweet</a></div></article>"
    ...     "<footer>(c) Example</footer></body>"
    ... )
    >>> print(main_content(page, favor="recall"))
    <article><h1>Title</h1><p>The first paragraph of the story, long enough, with a comma, to read as content.</p></article>
    """
    if isinstance(markup_or_soup, (str, bytes)):
        page = Soup(markup_or_soup, base_url=base_url)
        root = target_element(page).element
    else:
        root = target_element(markup_or_soup).element
        if base_url is None:
            own = getattr(getattr(markup_or_soup, "_doc", None), "base_url", None)
            base_url = own if isinstance(own, str) else None
    content = content_element(
        root, comments=comments, tables=tables, images=images, links=links, favor=favor
    )
    if content is None:
        return None
    holder = etree.Element("body")
    holder.append(content)
    return Soup(holder, "fragment", base_url=base_url)


extensions.main_content = main_content


def content_element(
    root: etree._Element,
    *,
    comments: bool = False,
    tables: bool = True,
    images: bool = False,
    links: bool = True,
    favor: Favor = "balanced",
) -> etree._Element | None:
    """The main content of the page under ``root``, as a pruned copy; None if none."""
    body = root.find("body") if root.tag == "html" else None
    if body is None:
        body = root
    chosen = _vote(body, favor) or [body]
    content = _copy(chosen)
    _unwrap_text_holders(content, tables)
    never: list[str] = list(rules.NEVER_CONTENT)
    if not tables:
        never += rules.TABLES
    if not images:
        never += rules.MEDIA
    etree.strip_elements(
        content, etree.Comment, etree.ProcessingInstruction, *never, with_tail=False
    )
    if not links:
        etree.strip_tags(content, "a")
    least = _LEAST_KEPT[favor]
    # By names, then (if the names lied) by tags and hiding alone.
    if not _prune(content, comments, _LINK_DENSITY[favor], least, names=True):
        _prune(content, comments, _LINK_DENSITY[favor], least, names=False)
    _drop_empty_headings(content)
    if not _TEXT(content).strip():
        return None
    return content


def _unwrap_text_holders(content: etree._Element, tables: bool) -> None:
    """Turn into ``<div>``s the media and script wrappers that hold text.

    A ``<figure>`` holding a table is a table (kept with ``tables``), not an
    image; a ``<noscript>`` holding paragraphs is the article as served
    without scripts (Blogger serves its posts so).  Both would otherwise go
    with the media and the scripts.
    """
    # One walk over these four tags alone; each holder collects the tags
    # found in it and hands them to the holder around it, so nested
    # holders cost no more than flat ones.
    if content.find(".//figure") is None and content.find(".//noscript") is None:
        return
    wanted = {"figure": "table" if tables else "", "noscript": "p"}
    holders: list[tuple[etree._Element, set[str]]] = []
    walk = etree.iterwalk(
        content, events=("start", "end"), tag=("figure", "noscript", "table", "p")
    )
    for event, el in walk:
        tag = el.tag
        if tag not in wanted:
            if event == "start" and holders:
                holders[-1][1].add(tag)  # type: ignore[arg-type]
        elif event == "start":
            holders.append((el, set()))
        else:
            holder, found = holders.pop()
            if wanted[tag] in found:
                holder.tag = "div"
            if holders:
                holders[-1][1].update(found)


def _vote(
    body: etree._Element, favor: Favor = "balanced"
) -> list[etree._Element] | None:
    """Readability's vote: paragraphs score their parent and grandparent.

    Each paragraph of some length gives 1, one per comma and one per 100
    characters (up to 3); the candidates named as content gain, those named
    as boilerplate lose (`_name_weight`), and the five best are weighed by
    how much of their text is not links.  The best one comes with the
    siblings that score near it or read as paragraphs (`_with_siblings`).
    """
    scores: dict[etree._Element, float] = {}
    for _, p in etree.iterwalk(body, events=("start",), tag=_PARAGRAPHS):
        shortest = _OWN_TEXT.get(p.tag)
        if shortest is not None:
            # A cell, quote or div holding text directly (and <br>s) is a
            # paragraph; its text before its first child is what counts
            # (these nest: the whole text of each would be quadratic).
            text = p.text
            if text is None or len(text) < shortest:
                continue
            text = text.strip()
            if len(text) < shortest:
                continue
        else:
            text = _text_of(p).strip()
            if len(text) < _MIN_PARAGRAPH:
                continue
        score = 1.0 + text.count(",") + text.count("\uff0c") + min(len(text) // 100, 3)
        for share, ancestor in zip(_SHARES, p.iterancestors(), strict=False):
            if ancestor in scores:
                scores[ancestor] += score / share
            else:
                scores[ancestor] = _name_weight(ancestor) + score / share
    if not scores:
        return None
    ranked = sorted(scores, key=scores.__getitem__, reverse=True)
    known: dict[etree._Element, bool] = {}
    top = [el for el in ranked[: _CANDIDATES * 3] if not _in_region(el, known)]
    top = top[:_CANDIDATES]
    if not top:  # all in a <nav>: the page is built oddly, the vote stands
        top = ranked[:_CANDIDATES]
    measures = _Measures()
    for el in top:
        scores[el] *= 1 - measures.density(el)
    top.sort(key=scores.__getitem__, reverse=True)
    best = _common_ancestor(top, scores, _NEAR[favor])
    best = _better_parent(best, scores, measures)
    best = _fuller_candidate(best, top, measures)
    return _leads_above(best, measures) + _with_siblings(best, scores, measures)


def _leads_above(best: etree._Element, measures: _Measures) -> list[etree._Element]:
    """The leads before ``best``'s ancestors, up to `_LEAD_LEVELS` up, in page order.

    A headline block's standfirst (``p.lead``, ``div.summary``, a
    subtitle) is often a cousin of the body rather than its sibling: the
    article's header and its body are wrapped separately.
    """
    leads: list[etree._Element] = []
    node = best.getparent()
    for _ in range(_LEAD_LEVELS):
        if node is None or node.tag in ("body", "html") or _is_boilerplate(node, False):
            break
        found = []
        for sibling in node.itersiblings(preceding=True):
            if isinstance(sibling.tag, str) and _is_lead(
                sibling, measures, _LEAD_LONGEST
            ):
                found.append(sibling)
        leads[:0] = reversed(found)
        node = node.getparent()
    return leads


def _fuller_candidate(
    best: etree._Element, top: list[etree._Element], measures: _Measures
) -> etree._Element:
    """``best``, or a candidate holding several times its text if ``best`` is short.

    A short element whose few paragraphs score well by themselves (a
    thank-you note, a teaser named ``article-text``, a print-only summary)
    can win the vote against the article, whose paragraphs are split over
    wrappers or diluted by links.  When the winner reads less than
    `_SHORT` characters (scripts left out), the candidate that reads the
    most text outside links, `_FULLER` times the winner's at least, is
    taken instead (trafilatura's fallback on a short extraction is the
    same idea).
    """
    text = measures.visible(best)
    if text >= _SHORT:
        return best
    fuller, most, around = best, text * _FULLER, False
    for el in top:
        own = measures.visible(el) * (1 - measures.density(el))
        if own > text * _FULLER and _is_inside(best, el) > around:
            fuller, most, around = el, own, True  # an ancestor first
        elif own > most and _is_inside(best, el) >= around:
            fuller, most = el, own
    return fuller


def _better_parent(
    best: etree._Element, scores: dict[etree._Element, float], measures: _Measures
) -> etree._Element:
    """An ancestor that scores higher than ``best`` once weighed by its links (Mozilla's Readability).

    Going up while the ancestors keep a third of the score: content whose
    paragraphs sit in wrappers of their own (a lead, then the body) is held
    by an ancestor that gathers their votes.  An only child gives way to its
    parent too.
    """
    last = scores[best]
    for level, ancestor in enumerate(best.iterancestors()):
        if level == _ANCESTORS_CHECKED or ancestor.tag in ("body", "html"):
            break
        if ancestor not in scores:
            continue
        score = scores[ancestor]
        if score < last / 3:
            break
        weighed = score * (1 - measures.density(ancestor))
        if weighed > scores[best]:
            scores[ancestor] = weighed
            best = ancestor
            break
        last = score
    parent = best.getparent()
    while (
        parent is not None and parent.tag not in ("body", "html") and len(parent) == 1
    ):
        scores[parent] = scores[best]
        best, parent = parent, parent.getparent()
    return best


def _in_region(el: etree._Element, known: dict[etree._Element, bool]) -> bool:
    """Whether a candidate is in a region beside or over the content.

    A ``<nav>``, an ``<aside>``, a ``<footer>``, or an element named as a
    dialog, popup or cookie prompt (`rules.overlay_name`), itself or up to
    `_ANCESTORS_CHECKED` levels up.  ``known`` holds what was found for
    the ancestors of the candidates read before (they share most of them):
    ancestor -> in a region.
    """
    read: list[etree._Element] = []
    inside = False
    for level, node in enumerate(el.iterancestors()):
        if level == _ANCESTORS_CHECKED or node.tag == "body":
            break  # (a body's classes say what the page is showing now)
        if node in known:
            inside = known[node]
            break
        read.append(node)
        if _is_overlay(node):
            inside = True
            break
    for node in read:
        known[node] = inside
    return inside or _is_overlay(el)


def _is_overlay(el: etree._Element) -> bool:
    if el.tag in rules.BOILERPLATE_TAGS:
        return True
    names = el.get("class", "") + " " + el.get("id", "")
    return names != " " and rules.overlay_name(names.lower())


def _common_ancestor(
    top: list[etree._Element], scores: dict[etree._Element, float], share: float
) -> etree._Element:
    """The best candidate, or the ancestor it shares with two more near it (Mozilla's Readability).

    Content split into sections (a guide's chapters, a recipe's steps)
    makes several good candidates; their common ancestor holds them all.
    """
    best = top[0]
    near = [el for el in top[1:] if scores[el] >= scores[best] * share]
    if len(near) < 2:
        return best
    for level, ancestor in enumerate(best.iterancestors()):
        if level == _ANCESTORS_CHECKED or ancestor.tag == "body":
            break
        inside = sum(1 for el in near if _is_inside(el, ancestor))
        if inside >= 2:
            scores.setdefault(ancestor, scores[best])
            scores[ancestor] = max(scores[ancestor], scores[best])
            return ancestor
    return best


def _is_inside(el: etree._Element, ancestor: etree._Element) -> bool:
    for level, parent in enumerate(el.iterancestors()):
        if parent is ancestor:
            return True
        if level == _ANCESTORS_CHECKED:
            break
    return False


def _name_weight(el: etree._Element) -> float:
    """What a candidate's tag and names add to its vote."""
    tag = el.tag
    weight = rules.TAG_WEIGHTS.get(tag, 0) if isinstance(tag, str) else 0
    if not el.attrib:
        return weight
    names = f"{el.get('class', '')} {el.get('id', '')}"
    if names != " ":
        weight += _names_weight(names.lower())
    if el.get("itemprop", "").lower() == "articlebody":
        weight += 25
    return weight


@functools.lru_cache(maxsize=4096)
def _names_weight(names: str) -> float:
    """What a lowercased ``"class id"`` adds to a vote (cached: sites repeat names)."""
    weight = 25.0 if rules.CONTENT.search(names) else 0.0
    return weight - 25 if rules.boilerplate_name(names, comments=False) else weight


class _Measures:
    """What one vote reads of the elements it weighs, each computed once.

    The candidates, their ancestors, the siblings and leads around the
    winner are often the same elements, and most of them are large: their
    text is read once, for their link density and their visible length.
    """

    __slots__ = ("densities", "lengths")

    def __init__(self) -> None:
        self.lengths: dict[etree._Element, int] = {}
        self.densities: dict[etree._Element, float] = {}

    def length(self, el: etree._Element) -> int:
        """The length of ``el``'s text."""
        length = self.lengths.get(el)
        if length is None:
            length = self.lengths[el] = len(_TEXT(el))
        return length

    def density(self, el: etree._Element) -> float:
        """The share of ``el``'s text that is in links (1 for no text)."""
        density = self.densities.get(el)
        if density is None:
            text = self.length(el)
            density = min(sum(map(len, _LINK_TEXT(el))) / text, 1.0) if text else 1.0
            self.densities[el] = density
        return density

    def visible(self, el: etree._Element) -> float:
        """The length of ``el``'s text outside scripts and styles."""
        unread = etree.iterwalk(el, events=("start",), tag=_UNREAD)
        return float(self.length(el) - sum(len(u.text or "") for _, u in unread))


def _with_siblings(
    best: etree._Element, scores: dict[etree._Element, float], measures: _Measures
) -> list[etree._Element]:
    """``best``, with its siblings that score near it or read as paragraphs."""
    parent = best.getparent()
    if parent is None:
        return [best]
    threshold = max(10.0, scores[best] * _SIBLING_SHARE)
    kept: list[etree._Element] = []
    before = True
    for sibling in parent:
        if sibling is best:
            kept.append(sibling)
            before = False
            continue
        if not isinstance(sibling.tag, str):
            continue
        if (
            scores.get(sibling, 0.0) >= threshold and measures.density(sibling) < 0.3
        ) or (before and sibling.tag != "p" and _is_lead(sibling, measures)):
            kept.append(sibling)
        elif sibling.tag == "p":
            text = _TEXT(sibling).strip()
            density = measures.density(sibling)
            if (len(text) > 80 and density < 0.25) or (
                len(text) > 0 and density == 0 and text.endswith((".", "!", "?"))
            ):
                kept.append(sibling)
    return kept


def _is_lead(el: etree._Element, measures: _Measures, longest: int = 0) -> bool:
    """Whether an element before the content reads as its lead (a standfirst, an excerpt).

    The paragraph or two that introduce an article often sit in a wrapper
    of their own (a header, a ``teaser`` block) beside the body the vote
    chose: it is prose (a sentence, hardly any links), not boilerplate.
    """
    if _is_boilerplate(el, comments=False):
        return False
    if not _LEAD <= measures.visible(el) <= (longest or float("inf")):
        return False
    if measures.density(el) >= 0.2:
        return False
    names = f"{el.get('class', '')} {el.get('id', '')}".lower()
    if el.tag == "header" or rules.LEAD.search(names):
        return True
    text = "".join(_VISIBLE_TEXT(el)).rstrip()
    return text[-1:] in _SENTENCE_END


def _copy(chosen: list[etree._Element]) -> etree._Element:
    """A copy of the chosen element, or of the chosen siblings under one ``<div>``."""
    if len(chosen) == 1:
        new = copy.deepcopy(chosen[0])
        new.tail = None
        return new
    content = etree.Element("div")
    for el in chosen:
        content.append(copy.deepcopy(el))
        content[-1].tail = None
    return content


def _is_boilerplate(el: etree._Element, comments: bool, names: bool = True) -> bool:
    """Whether ``el`` is boilerplate by its tag, role, hiding or names."""
    tag = el.tag
    if tag in rules.BOILERPLATE_TAGS:
        return True
    if tag in ("article", "main") or not el.attrib:
        return False
    if el.get("role") in rules.BOILERPLATE_ROLES:
        return True
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    style = el.get("style")
    if style and rules.HIDDEN_STYLE.search(style):
        return True
    if not names:
        return False
    both = f"{el.get('class', '')} {el.get('id', '')}"
    return both != " " and rules.boilerplate_name(both.lower(), comments)


def _drop_empty_headings(content: etree._Element) -> None:
    """Drop the headings left heading nothing (the title of a pruned block).

    "Read more", "You may also like", "Mehr zum Thema": a related-links
    block's heading often sits beside the list it heads, which pruning
    removed.  A short heading with no text after it before the next
    heading of its level or above (or the end) heads nothing, in one walk.
    """
    empty: list[etree._Element] = []
    pending: etree._Element | None = None
    walk = etree.iterwalk(content, events=("start",))
    for _, el in walk:
        level = _HEADINGS.get(el.tag)
        if level is not None:
            if pending is not None and level <= _HEADINGS[pending.tag]:
                empty.append(pending)
            pending = el
            walk.skip_subtree()
            if el.tail and el.tail.strip():
                pending = None
            continue
        if pending is not None and (
            (el.text and el.text.strip()) or (el.tail and el.tail.strip())
        ):
            pending = None
    if pending is not None:
        empty.append(pending)
    for el in empty:
        if el is not content and len(_TEXT(el)) <= _TITLE:
            remove(el)


def _named_only_text(el: etree._Element, comments: bool, names: bool) -> int:
    """The length of ``el``'s text if it is boilerplate by its names alone, else -1.

    A ``post-main-aside-container`` or a ``sidebar-layout`` wrapper can
    hold the article: a name does not outweigh most of the text (`_prune`).
    """
    if not names or _is_boilerplate(el, comments, names=False):
        return -1
    return len(_TEXT(el))


def _prune(
    content: etree._Element, comments: bool, most: float, least: float, names: bool
) -> bool:
    """Drop boilerplate and the blocks whose text is mostly links, in one pass.

    Going down, an element that is boilerplate (`_is_boilerplate`) is
    dropped without looking inside it.  Coming back up, each element's text
    and linked text are summed from its children's, so no subtree is read
    twice, and a block with more than ``most`` of its text in links (a menu,
    a list of related links) is dropped.  Nothing is dropped if that would
    leave less than ``least`` of the text (False is returned): then the
    names lied (a page builder that calls its every block a widget), and
    without ``names`` only tags, roles and hiding are read.  A block
    boilerplate by its names alone that holds more than `_MOSTLY` of the
    text around it is kept.
    """
    before = len(_TEXT(content))
    stack = [[0, 0]]
    doomed: list[etree._Element] = []
    # The text a block named as boilerplate must not hold most of: the
    # content's, or that of the named block kept around it.
    wholes = [(content, before)]
    walk = etree.iterwalk(content, events=("start", "end"))
    for event, el in walk:
        if event == "start":
            if el is not content and _is_boilerplate(el, comments, names):
                held = _named_only_text(el, comments, names)
                if held > wholes[-1][1] * _MOSTLY:
                    wholes.append((el, held))
                else:
                    doomed.append(el)
                    walk.skip_subtree()
                    stack.append([-1, 0])
                    continue
            stack.append([len(el.text or ""), 0])
            continue
        if wholes[-1][0] is el:
            wholes.pop()
        text, linked = stack.pop()
        if text < 0:  # dropped on the way down
            continue
        if el.tag == "a":
            linked = text
        elif el.tag in _BLOCKS and text and linked / text > most and el is not content:
            doomed.append(el)
            continue
        totals = stack[-1]
        totals[0] += text + len(el.tail or "")
        totals[1] += linked
    if stack[0][0] < before * least:
        return False
    for el in doomed:
        remove(el)
    return True
