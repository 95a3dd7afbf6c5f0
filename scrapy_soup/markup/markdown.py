"""HTML as GitHub-flavoured Markdown: `to_markdown`.

A converter over the lxml tree (no second parse), run on a copy cleaned by
a policy first, so that the Markdown never holds what the sanitizer would
remove, and never any raw HTML: headings, paragraphs, emphasis, links and
images with absolute URLs, nested and ordered lists (with ``start``), block
quotes, inline code and fenced code blocks (the language read from
``class="language-…"`` before the cleaning drops the class), GFM tables,
``<hr>`` and hard breaks. Text that would read as Markdown is escaped.

Why our own converter and not a library: measured on the corpus pages
(``benchmarks/bench_markdown.py``), markdownify and html-to-markdown keep
the words of about half of the pages intact when the Markdown is rendered
back (links wrapped around blocks, ``**.**`` shown as it is, words glued
at link edges), and markdownify needs a second parse into Beautiful Soup.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final, TypeGuard

from lxml import etree

from ._blocks import (
    Block,
    add_paragraph,
    code_span,
    heading_block,
    item_body,
    link_blocks,
    list_number,
    plain_paragraphs,
    prefixed,
    table_rows,
)
from ._characters import ENCODED_FORBIDDEN, has_forbidden
from ._convert import (
    BLOCK_TAGS,
    SKIPPED_TAGS,
    WHITESPACE,
    elements_copy,
    working_copy,
)
from ._inline import Inline, escape_text, link_destination
from ._policy import CleanPolicy

if TYPE_CHECKING:
    from ._convert import HtmlOrTag
    from ._read import CleanedAttributes

__all__ = ["code_languages", "markdown_of_element", "to_markdown"]

#: The attributes the converter reads after cleaning: only they are cleaned
#: on the way (links and images in full, with their URLs checked and made
#: absolute; cleaning the rest is most of the sanitizer's time, for nothing
#: here). ``class`` is read before (`code_languages`).
_READ: Final = frozenset(
    {"href", "src", "alt", "start", "reversed", "value", "hidden", "open"}
)
_HEADINGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_LISTS: Final = frozenset({"ul", "ol", "menu", "dir"})
_EMPHASIS: Final = {"em": "*", "i": "*", "strong": "**", "b": "**"}
_CODE: Final = frozenset({"code", "kbd", "samp", "tt"})
_PRE: Final = frozenset({"pre", "listing", "xmp", "plaintext"})
#: What makes a ``<pre>`` a container of blocks rather than code (a results
#: list laid out in one): Markdown has no blocks inside a code block.
_NOT_IN_CODE: Final = frozenset({"table", "dl", *_HEADINGS, *_LISTS})
#: The elements `_Converter.inline` writes otherwise than as their content.
_INLINE_SHAPED: Final = frozenset({"br", "img", "a", *_EMPHASIS, *_CODE, *BLOCK_TAGS})
#: The blocks `_Converter.block` writes in a shape of their own (the others
#: are their content's paragraphs and blocks).
_SHAPED: Final = frozenset({*_HEADINGS, *_LISTS, *_PRE, "blockquote", "hr", "table"})
#: What a GFM table cell or a heading cannot hold on its one line: a table
#: holding one is a layout table (written as its cells' blocks); one in a
#: heading is written as blocks after it.
_NOT_ON_ONE_LINE: Final = frozenset(
    {"table", "ul", "ol", "li", "dl", "pre", "blockquote", "hr", *_HEADINGS}
)
#: What a block shows even without text.
_STRUCTURE: Final = frozenset({"img", "hr", "li", *_HEADINGS, *_PRE})
#: What makes ``<code>`` more than a code span (`_Converter.inline`).
_LINKS_IN_CODE: Final = frozenset({"a", "img"})
#: The language of a code block: ``language-python`` (the HTML standard's
#: recommendation, highlight.js, Prism) or ``lang-python`` (Prettify).
_LANGUAGE: Final = re.compile(r"(?:^|\s)lang(?:uage)?-([\w.+#-]+)")
#: URL schemes never written as a link or image, whatever the policy kept.
_SCRIPT_URL: Final = re.compile(
    r"\s*(?:javascript|vbscript|livescript|mocha|data):", re.I
)
#: Starts of a URL that no script URL has (most links on a page).
_PLAIN_URL_STARTS: Final = ("http://", "https://", "/")
_DATA_IMAGE: Final = re.compile(
    r"\s*data:image/(?:png|gif|jpeg|webp|avif|bmp)[;,]", re.I
)
#: Nesting deeper than this is written as plain paragraphs (no recursion
#: limit is ever reached, whatever the input).
_MAX_DEPTH: Final = 120


def to_markdown(
    html_or_tag: HtmlOrTag,
    base_url: str | None = None,
    policy: CleanPolicy | str | None = None,
) -> str:
    """HTML as GitHub-flavoured Markdown, cleaned first, links absolute.

    ``html_or_tag`` is a string of HTML, a soup `Tag` or `Soup`, or an lxml
    element; it is never changed (a tree is copied). The copy is cleaned by
    ``policy`` (the safe default, a `CleanPolicy` or a preset name) and its
    links made absolute against ``base_url`` (for a Tag, its soup's base URL
    by default: a Scrapy response's page). The output holds no raw HTML.

    >>> print(to_markdown('<h2>Tea</h2><p>A <b>fine</b> <a href="/t">brew</a>.</p>'
    ...                   '<ol start="3"><li>boil<li>pour</ol>', "https://example.com/"))
    ## Tea
    <BLANKLINE>
    A **fine** [brew](https://example.com/t).
    <BLANKLINE>
    3. boil
    4. pour
    >>> print(to_markdown('<p>[x](javascript:alert(1)) <script>x()</script></p>'))
    \\[x](javascript:alert(1))
    """
    # As `to_text` does: the Markdown is searched for the characters HTML or
    # XML forbid (raw, or percent-encoded by a link made absolute), not the
    # whole tree; only Markdown holding some is made again from a tree they
    # are dropped from.
    markdown = _converted(html_or_tag, base_url, policy, characters=False)
    if has_forbidden(markdown) or (
        "%" in markdown and ENCODED_FORBIDDEN.search(markdown) is not None
    ):
        markdown = _converted(html_or_tag, base_url, policy, characters=True)
    return markdown


def _converted(
    html_or_tag: HtmlOrTag,
    base_url: str | None,
    policy: CleanPolicy | str | None,
    characters: bool,
) -> str:
    """The Markdown of a copy cleaned first.

    Without ``characters``, the copy is cleaned of its elements only and
    the converter reads each attribute as cleaning would leave it
    (`elements_copy`); with them (the forbidden characters dropped), or
    where the converter needs the cleaned tree itself, of its attributes
    too (`working_copy`).
    """
    languages: dict[Any, str] = {}

    def read_languages(copy: etree._Element) -> None:
        languages.update(code_languages(copy))

    if not characters:
        el, attributes = elements_copy(html_or_tag, policy, base_url, read_languages)
        try:
            return markdown_of_element(el, languages, attributes)
        except _NeedsCleaning:
            languages.clear()
    el = working_copy(
        html_or_tag,
        policy,
        base_url,
        before_clean=read_languages,
        characters=characters,
        read=_READ,
    )
    return markdown_of_element(el, languages)


def code_languages(el: etree._Element) -> dict[Any, str]:
    """``<pre>`` element -> the language its class (or its ``<code>``'s) names.

    Read before cleaning, which drops ``class``; the elements (kept by the
    dict) are the same after it.
    """
    found: dict[Any, str] = {}
    for pre in el.iter("pre"):
        for node in (pre, *pre.iterchildren("code")):
            match = _LANGUAGE.search(node.get("class") or "")
            if match is not None:
                found[pre] = match.group(1)
                break
    return found


def markdown_of_element(
    el: etree._Element,
    languages: dict[Any, str] | None = None,
    attributes: CleanedAttributes | None = None,
) -> str:
    """`to_markdown` of a tree already cleaned and made absolute (its content).

    With ``attributes``, a tree cleaned of its elements only, whose
    attributes are read through them (`elements_copy`).
    """
    converter = _Converter(el, languages or {}, attributes)
    return "\n\n".join(b.markdown() for b in converter.blocks(el, 0))


class _Flow:
    """The blocks being written for one container, and its open paragraph."""

    __slots__ = ("inline", "items", "out")

    def __init__(self, inline: Inline) -> None:
        self.out: list[Block] = []
        self.inline = inline
        #: List items outside a list, in a row (written as one list).
        self.items: list[Any] = []


class _NeedsCleaning(Exception):
    """The converter met what it reads only from a tree cleaned in full."""


class _Converter:
    def __init__(
        self,
        root: etree._Element,
        languages: dict[Any, str],
        attributes: CleanedAttributes | None = None,
    ) -> None:
        self.languages = languages
        #: The attributes as cleaned, for a tree cleaned of its elements
        #: only (`elements_copy`); None: the tree is cleaned, read as it is.
        self.attributes = attributes
        #: Whether an element's ``hidden`` may hide it (False: the policy
        #: drops ``hidden`` on every tag, and no element is asked for it).
        self.hides = attributes is None or attributes.may_keep("hidden")
        #: How many links around blocks the walk is in (``]`` is escaped).
        self.linking = 0
        # Inline elements holding blocks (a link around a heading): treated
        # as blocks. Found once, bottom-up, instead of a search per element.
        # A block that shows nothing (``<a>More<div></div></a>``) leaves the
        # inline element inline, as a browser keeps it on its line.
        holders: set[Any] = set()
        for block in root.iter(*BLOCK_TAGS):
            parent = block.getparent()
            if (
                parent is None
                or parent is root
                or parent in holders
                or parent.tag in BLOCK_TAGS
                or _shows_nothing(block)
            ):
                continue
            while parent is not None and parent is not root and parent not in holders:
                holders.add(parent)
                parent = parent.getparent()
        self.holders = holders

    def is_block(self, node: Any) -> bool:
        return node.tag in BLOCK_TAGS or node in self.holders

    def get(self, node: Any, name: str) -> str | None:
        """Attribute ``name`` of ``node`` as the cleaned tree has it."""
        value: str | None = node.get(name)
        if value is None or self.attributes is None:
            return value
        return self.attributes.value(node, name, value)

    def hidden(self, node: Any) -> bool:
        """Whether ``node``'s ``hidden``, which it has, stays once cleaned."""
        return self.attributes is None or self.get(node, "hidden") is not None

    def skipped(self, node: Any) -> bool:
        """Whether an element is never shown (`SKIPPED_TAGS`, ``hidden``).

        Asked of each element as the walk meets it: an XPath search for
        ``hidden`` took longer than reading the attribute of every element.
        """
        return node.tag in SKIPPED_TAGS or (
            self.hides and node.get("hidden") is not None and self.hidden(node)
        )

    def plain(self, el: Any) -> list[str]:
        """Too deep to convert: its text as paragraphs (escaped, collapsed)."""
        if self.attributes is not None:
            raise _NeedsCleaning  # `text_of_element` reads a cleaned tree
        return plain_paragraphs(el)

    # -- blocks -------------------------------------------------------------
    def blocks(self, el: Any, depth: int) -> list[Block]:
        """The blocks of ``el``'s content."""
        flow = _Flow(Inline(False, self.linking > 0))
        if el.text:
            flow.inline.raw(el.text)
        self.flow(el, 0, depth, flow)
        self.end_line(flow, depth)
        return flow.out

    def end_line(self, flow: _Flow, depth: int) -> None:
        """End the paragraph (or the list items outside a list) being written."""
        if flow.items:
            self.list_block(None, depth + 1, flow.out, flow.items)
            flow.items = []
        if flow.inline.content:
            add_paragraph(flow.inline, flow.out)
            flow.inline = Inline(False, self.linking > 0)

    def flow(self, el: Any, start: int, depth: int, flow: _Flow) -> None:
        """Add ``el``'s children from ``start`` (with their tails) to ``flow``.

        An inline element holding blocks (`holders`) is looked through, as
        a browser lays it out: what comes before its first block continues
        the line, what comes after its last block starts one that its tail
        continues. A link does the same if it starts with text (written as
        a link on that line); else it links the blocks it holds.
        """
        holders = self.holders
        hides = self.hides
        for child in el[start:] if start else el:
            tag = child.tag
            if (
                type(tag) is str
                and tag not in SKIPPED_TAGS
                and (not hides or child.get("hidden") is None or not self.hidden(child))
            ):
                if tag == "li" and depth + 1 < _MAX_DEPTH:
                    # A browser shows it as a list item wherever it is.
                    if flow.inline.content:
                        add_paragraph(flow.inline, flow.out)
                        flow.inline = Inline(False, self.linking > 0)
                    flow.items.append(child)
                    if (child.tail or "").strip():
                        self.end_line(flow, depth)
                        flow.inline.raw(child.tail)
                    continue
                if flow.items:
                    self.end_line(flow, depth)
                if tag in BLOCK_TAGS:
                    self.end_line(flow, depth)
                    if tag in _SHAPED or depth + 1 >= _MAX_DEPTH:
                        self.block(child, depth + 1, flow.out)
                    else:
                        # A block of paragraphs and blocks (div, p, section):
                        # `block` of it, without a flow of its own.
                        outer = flow.inline if flow.inline.tokens else None
                        if outer is not None:  # spaces, breaks: for after it
                            flow.inline = Inline(False, self.linking > 0)
                        if child.text:
                            flow.inline.raw(child.text)
                        self.flow(child, 0, depth + 1, flow)
                        self.end_line(flow, depth + 1)
                        if outer is not None:
                            flow.inline = outer
                        elif flow.inline.tokens:  # its own spaces: dropped
                            flow.inline = Inline(False, self.linking > 0)
                elif child not in holders:
                    if tag in _INLINE_SHAPED or depth + 1 >= _MAX_DEPTH:
                        self.inline(child, flow.inline, depth + 1, False)
                    else:  # as in `inline_content`
                        self.inline_content(child, flow.inline, depth + 1, False)
                elif depth + 1 >= _MAX_DEPTH:
                    self.end_line(flow, depth)
                    self.block(child, depth + 1, flow.out)
                elif tag == "a" and _safe_url(href := self.get(child, "href"), False):
                    lead = self.leading_inline(child)
                    if lead is not None:
                        inline = flow.inline
                        inline.open_link(href)
                        if child.text:
                            inline.raw(child.text)
                        for node in child[:lead]:
                            if type(node.tag) is str and not self.skipped(node):
                                self.inline(node, inline, depth + 2, flat=False)
                            if node.tail:
                                inline.raw(node.tail)
                        inline.close_link()
                        self.flow(child, lead, depth + 1, flow)
                    else:
                        self.end_line(flow, depth)
                        self.block(child, depth + 1, flow.out)
                else:
                    if child.text:
                        flow.inline.raw(child.text)
                    self.flow(child, 0, depth + 1, flow)
            tail = child.tail
            if tail:
                if flow.items and tail.strip():
                    self.end_line(flow, depth)
                flow.inline.raw(tail)

    def leading_inline(self, el: Any) -> int | None:
        """How many children of ``el`` come before its first block, if text
        comes before it (else None: images alone join the block's link)."""
        shown = bool((el.text or "").strip())
        for i, child in enumerate(el):
            tag = child.tag
            if type(tag) is str and not self.skipped(child):
                if tag in BLOCK_TAGS or tag == "li" or child in self.holders:
                    return i if shown else None
                shown = shown or _has_text(child)
            shown = shown or bool((child.tail or "").strip())
        return None

    def block(self, el: Any, depth: int, out: list[Block]) -> None:
        tag = el.tag
        if depth >= _MAX_DEPTH:
            out.extend(Block("p", text) for text in self.plain(el))
        elif tag in _HEADINGS:
            prefix = "#" * int(tag[1])
            if _holds(el, _NOT_ON_ONE_LINE):
                # A list (or table…) in a heading: the heading is its first
                # paragraph (else empty), the rest blocks after it.
                inner = self.blocks(el, depth)
                if inner and inner[0].kind == "p":
                    first = inner.pop(0)
                    heading = heading_block(prefix, first.text.replace("\\\n", " "))
                    heading.linked = first.linked
                else:
                    heading = heading_block(prefix, "")
                out.append(heading)
                out.extend(inner)
                return
            inline = Inline(False, self.linking > 0)
            self.inline_content(el, inline, depth, flat=True)
            heading = heading_block(prefix, inline.markdown(flat=True))
            heading.linked = inline.links > 0
            out.append(heading)
        elif tag in _LISTS:
            self.list_block(el, depth, out)
        elif tag == "blockquote":
            quoted = "\n\n".join(b.markdown() for b in self.blocks(el, depth))
            out.append(Block("raw", prefixed(quoted, "> ", ">")))
        elif tag in _PRE:
            if next(el.iter(*_NOT_IN_CODE), None) is None:
                out.append(Block("raw", self.code_block(el)))
            else:
                out.extend(self.blocks(el, depth))
        elif tag == "hr":
            out.append(Block("raw", "---"))
        elif tag == "table":
            self.table(el, depth, out)
        elif tag == "a" and _safe_url(href := self.get(el, "href"), False):
            self.linking += 1
            inner = self.blocks(el, depth)
            self.linking -= 1
            link_blocks(inner, link_destination(href))
            out.extend(inner)
        else:
            out.extend(self.blocks(el, depth))

    def list_block(
        self, el: Any, depth: int, out: list[Block], nodes: list[Any] | None = None
    ) -> None:
        """A list (``el``, or the list items ``nodes`` found outside one).

        What the parser let in beside the items (text, other tags) belongs
        to the item before it, or comes before the list; an element that
        holds items of this list (``<ul><div><li>``) is looked through, as
        a browser shows them as its items.
        """
        before: list[Block] = []
        items: list[tuple[Any, list[Block]]] = []
        self._list_items(el, nodes, depth, before, items)
        out.extend(before)
        if not items:
            return
        ordered = el is not None and el.tag == "ol"
        # Two lists in a row are one list in Markdown unless their markers differ.
        previous = out[-1].kind if out else ""
        if previous in ("ol.", "ul-"):
            kind = "ol)" if ordered else "ul*"
        else:
            kind = "ol." if ordered else "ul-"
        step = 1
        number = 0
        if ordered:
            # HTML 4.4.5: a reversed list counts down from its size.
            if self.get(el, "reversed") is not None:
                step = -1
            start = self.get(el, "start")
            if start is not None:
                number = list_number(start, 1)
            else:
                number = len(items) if step < 0 else 1
        loose = False
        lines: list[str] = []
        first_number = number
        for i, (li, blocks) in enumerate(items):
            body, spread = item_body(blocks)
            if body.startswith("---"):
                # "- ---" is a thematic break; "- ___" an item holding one.
                body = "___" + body[3:]
            loose = loose or spread
            if ordered:
                value = self.get(li, "value")
                if value is not None:
                    number = list_number(value, number)
                if i == 0:
                    first_number = number
                marker = f"{min(max(number, 0), 999_999_999)}{kind[2]} "
                number += step
            else:
                marker = f"{kind[2]} "
            lines.append(prefixed(body, marker, marker.rstrip(), " " * len(marker)))
        block = Block(kind, ("\n\n" if loose else "\n").join(lines))
        block.interrupts = bool(items[0][1]) and (not ordered or first_number == 1)
        out.append(block)

    def _list_items(
        self,
        el: Any,
        nodes: list[Any] | None,
        depth: int,
        before: list[Block],
        items: list[tuple[Any, list[Block]]],
    ) -> None:
        """Sort a list's content into ``items`` (each with the blocks after
        it) and the blocks ``before`` the first."""
        target = before if not items else items[-1][1]
        inline = Inline(False, self.linking > 0)

        def flush() -> None:
            nonlocal inline
            if inline.tokens:  # else unused: kept
                if inline.content:
                    add_paragraph(inline, target)
                inline = Inline(False, self.linking > 0)

        if nodes is None:
            if el.text:
                inline.raw(el.text)
            nodes = list(el)
        last = nodes[-1] if nodes else None
        for child in nodes:
            tag = child.tag
            if isinstance(tag, str) and not self.skipped(child):
                if tag == "li":
                    flush()
                    target = self.blocks(child, depth + 1)
                    items.append((child, target))
                elif tag not in _LISTS and _holds_items(child):
                    flush()
                    count = len(items)
                    self.linking += 1
                    self._list_items(child, None, depth + 1, target, items)
                    self.linking -= 1
                    if tag == "a" and _safe_url(href := self.get(child, "href"), False):
                        linked = items[count][1] if len(items) > count else target
                        link_blocks(linked, link_destination(href))
                    if items:
                        target = items[-1][1]
                elif self.is_block(child):
                    flush()
                    self.block(child, depth + 1, target)
                else:
                    self.inline(child, inline, depth + 1, flat=False)
            if child.tail and (el is not None or child is not last):
                inline.raw(child.tail)
        flush()

    def code_block(self, el: Any) -> str:
        for br in el.iter("br"):
            br.tail = "\n" + (br.tail or "")
        code = etree.tostring(el, method="text", encoding=str, with_tail=False)
        longest = max((len(r) for r in re.findall(r"`+", code)), default=0)
        fence = "`" * max(3, longest + 1)
        language = self.languages.get(el, "")
        if code and not code.endswith("\n"):
            code += "\n"
        return f"{fence}{language}\n{code}{fence}"

    def table(self, el: Any, depth: int, out: list[Block]) -> None:
        rows = table_rows(el)
        caption = el.find("caption")
        if caption is not None:
            out.extend(self.blocks(caption, depth))
        layout = any(node is not el for node in el.iter(*_NOT_ON_ONE_LINE))
        if layout or not rows:
            for row in rows:
                for cell in row:
                    out.extend(self.blocks(cell, depth + 1))
            return
        width = max(len(r) for r in rows)
        lines = []
        for i, row in enumerate(rows):
            cells = []
            for cell in row:
                inline = Inline(True, self.linking > 0)
                self.inline_content(cell, inline, depth, flat=True)
                cells.append(inline.markdown(flat=True))
            if i == 0:
                cells += [""] * (width - len(cells))
            lines.append("| " + " | ".join(cells) + " |")
            if i == 0:
                lines.append("|" + " --- |" * width)
        out.append(Block("raw", "\n".join(lines)))

    # -- inline -------------------------------------------------------------
    def inline_content(self, el: Any, inline: Inline, depth: int, flat: bool) -> None:
        text = el.text
        if text:
            inline.raw(text)
        depth += 1
        hides = self.hides
        for child in el:
            tag = child.tag
            if (
                type(tag) is str
                and tag not in SKIPPED_TAGS
                and (not hides or child.get("hidden") is None or not self.hidden(child))
            ):
                if tag in _INLINE_SHAPED or depth >= _MAX_DEPTH:
                    self.inline(child, inline, depth, flat)
                else:  # a <span> and the like: `inline` of it, without the call
                    self.inline_content(child, inline, depth, flat)
            tail = child.tail
            if tail:
                inline.raw(tail)

    def inline(self, el: Any, inline: Inline, depth: int, flat: bool) -> None:
        tag = el.tag
        if depth >= _MAX_DEPTH:
            inline.raw(" ".join(el.itertext()))
            return
        if tag == "br":
            inline.hard_break()
        elif tag == "img":
            src = self.get(el, "src")
            if _safe_url(src, True):
                alt = WHITESPACE.sub(" ", self.get(el, "alt") or "").strip()
                alt = escape_text(alt, link=True, cell=inline.cell)
                inline.atom(f"![{alt}]({link_destination(src)})")
        elif tag == "a" and _safe_url(href := self.get(el, "href"), False):
            inline.open_link(href)
            self.inline_content(el, inline, depth, flat)
            inline.close_link()
        elif tag in _EMPHASIS:
            mark = inline.open_emphasis(_EMPHASIS[tag])
            self.inline_content(el, inline, depth, flat)
            inline.close_emphasis(mark)
        elif tag in _CODE and not _holds(el, _LINKS_IN_CODE):
            inline.atom(code_span(" ".join(el.itertext()), inline.cell))
        elif tag in BLOCK_TAGS:
            # In a heading or a cell, or a block that shows nothing: its
            # line breaks are spaces.
            inline.space()
            self.inline_content(el, inline, depth, flat)
            inline.space()
        else:
            self.inline_content(el, inline, depth, flat)


def _safe_url(url: str | None, image: bool) -> TypeGuard[str]:
    """Whether ``url`` is there and no script URL (nor ``data:`` but an
    image's), whatever the policy kept."""
    if url is None:
        return False
    if url.startswith(_PLAIN_URL_STARTS):
        return True  # most links: no script scheme can follow
    if image and _DATA_IMAGE.match(url):
        return True
    return _SCRIPT_URL.match(url) is None


def _shows_nothing(block: Any) -> bool:
    """Whether a block holds no text, image, rule, list item or heading to
    show (an empty heading is still one)."""
    if block.tag in _STRUCTURE or _holds(block, _STRUCTURE):
        return False
    return not _has_text(block)


def _holds(el: Any, tags: frozenset[str]) -> bool:
    """Whether an element inside ``el`` is named in ``tags``.

    A walk in Python: ``el.iter(*tags)`` looks each name up in the
    document's dictionary first, more than the walk of most of the small
    subtrees asked about (headings, code, the blocks in a link).
    """
    return any(node.tag in tags for node in el.iterdescendants())


def _has_text(el: Any) -> bool:
    text = etree.tostring(el, method="text", encoding=str, with_tail=False)
    return not text.isspace() and text != ""


def _holds_items(el: Any) -> bool:
    """Whether ``el`` (in a list) holds list items of no list inside it."""
    for li in el.iter("li"):
        parent = li.getparent()
        while parent is not el:
            if parent.tag in _LISTS:
                break
            parent = parent.getparent()
        else:
            return True
    return False
