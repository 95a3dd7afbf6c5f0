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
from typing import TYPE_CHECKING, Any

from lxml import etree

from ._convert import BLOCK_TAGS, SKIPPED_TAGS, WHITESPACE, working_copy
from ._inline import Inline, escape_text, link_destination
from ._policy import CleanPolicy

if TYPE_CHECKING:
    from ._convert import HtmlOrTag

__all__ = ["code_languages", "markdown_of_element", "to_markdown"]

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_LISTS = frozenset({"ul", "ol", "menu", "dir"})
_EMPHASIS = {"em": "*", "i": "*", "strong": "**", "b": "**"}
_CODE = frozenset({"code", "kbd", "samp", "tt"})
_PRE = frozenset({"pre", "listing", "xmp", "plaintext"})
#: What makes a table a layout table (written as its cells' blocks): a
#: GFM table cell holds one line of inline content.
_NOT_IN_CELLS = ("table", "ul", "ol", "dl", "pre", "blockquote", "hr", *_HEADINGS)
#: The language of a code block: ``language-python`` (the HTML standard's
#: recommendation, highlight.js, Prism) or ``lang-python`` (Prettify).
_LANGUAGE = re.compile(r"(?:^|\s)lang(?:uage)?-([\w.+#-]+)")
#: URL schemes never written as a link or image, whatever the policy kept.
_SCRIPT_URL = re.compile(r"\s*(?:javascript|vbscript|livescript|mocha|data):", re.I)
_DATA_IMAGE = re.compile(r"\s*data:image/(?:png|gif|jpeg|webp|avif|bmp)[;,]", re.I)
#: Nesting deeper than this is written as plain paragraphs (no recursion
#: limit is ever reached, whatever the input).
_MAX_DEPTH = 120


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
    \\[x\\](javascript:alert(1))
    """
    languages: dict[Any, str] = {}
    el = working_copy(
        html_or_tag,
        policy,
        base_url,
        before_clean=lambda copy: languages.update(code_languages(copy)),
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
    el: etree._Element, languages: dict[Any, str] | None = None
) -> str:
    """`to_markdown` of a tree already cleaned and made absolute (its content)."""
    converter = _Converter(el, languages or {})
    return "\n\n".join(b.markdown() for b in converter.blocks(el, 0))


class _Block:
    """One block of the output: a paragraph or heading (whose text a link
    around blocks may still wrap), or Markdown already written (``raw``)."""

    __slots__ = ("kind", "linked", "prefix", "text")

    def __init__(self, kind: str, text: str, prefix: str = "", linked: bool = True):
        self.kind = kind
        self.text = text
        self.prefix = prefix
        self.linked = linked

    def markdown(self) -> str:
        return self.prefix + self.text


class _Converter:
    def __init__(self, root: etree._Element, languages: dict[Any, str]) -> None:
        self.languages = languages
        # Inline elements holding blocks (a link around a heading): treated
        # as blocks. Found once, bottom-up, instead of a search per element.
        holders: set[Any] = set()
        for block in root.iter(*BLOCK_TAGS):
            parent = block.getparent()
            while parent is not None and parent is not root and parent not in holders:
                holders.add(parent)
                parent = parent.getparent()
        self.holders = holders

    def is_block(self, node: Any) -> bool:
        return node.tag in BLOCK_TAGS or node in self.holders

    # -- blocks -------------------------------------------------------------
    def blocks(self, el: Any, depth: int) -> list[_Block]:
        """The blocks of ``el``'s content."""
        out: list[_Block] = []
        inline = Inline()
        holders = self.holders
        sub = WHITESPACE.sub
        if el.text:
            inline.text(sub(" ", el.text))
        for child in el:
            tag = child.tag
            if type(tag) is str and not _skipped(child):
                if tag in BLOCK_TAGS or child in holders:
                    if inline.content:
                        _paragraph(inline, out)
                    inline = Inline()
                    self.block(child, depth + 1, out)
                else:
                    self.inline(child, inline, depth + 1, flat=False)
            tail = child.tail
            if tail:
                inline.text(sub(" ", tail))
        if inline.content:
            _paragraph(inline, out)
        return out

    def block(self, el: Any, depth: int, out: list[_Block]) -> None:
        tag = el.tag
        if depth >= _MAX_DEPTH:
            out.extend(_Block("p", text) for text in _plain(el))
        elif tag in _HEADINGS:
            inline = Inline()
            self.inline_content(el, inline, depth, flat=True)
            text = inline.markdown(flat=True)
            if text.endswith("#"):
                text = text[:-1] + "\\#"
            prefix = "#" * int(tag[1]) + (" " if text else "")
            out.append(_Block("h", text, prefix, linked=inline.links > 0))
        elif tag in _LISTS:
            self.list_block(el, depth, out)
        elif tag == "blockquote":
            quoted = "\n\n".join(b.markdown() for b in self.blocks(el, depth))
            out.append(_Block("raw", _prefixed(quoted, "> ", ">")))
        elif tag in _PRE:
            out.append(_Block("raw", self.code_block(el)))
        elif tag == "hr":
            out.append(_Block("raw", "---"))
        elif tag == "table":
            self.table(el, depth, out)
        elif tag == "a" and _safe_url(el.get("href"), False):
            destination = link_destination(el.get("href"))
            inner = self.blocks(el, depth)
            for block in inner:
                if block.kind in ("p", "h") and not block.linked and block.text:
                    block.text = f"[{block.text}]({destination})"
                    block.linked = True
                    break
            else:
                # Nothing to link (an empty block): the link, empty, stays.
                inner.insert(0, _Block("p", f"[]({destination})"))
            out.extend(inner)
        else:
            out.extend(self.blocks(el, depth))

    def list_block(self, el: Any, depth: int, out: list[_Block]) -> None:
        """A list; what the parser let in beside the items (text, other tags)
        belongs to the item before it, or comes before the list."""
        before: list[_Block] = []
        items: list[list[_Block]] = []
        target = before
        inline = Inline()

        def flush() -> None:
            nonlocal inline
            if inline.content:
                _paragraph(inline, target)
            inline = Inline()

        if el.text:
            inline.text(WHITESPACE.sub(" ", el.text))
        for child in el:
            if isinstance(child.tag, str) and not _skipped(child):
                if child.tag == "li":
                    flush()
                    target = self.blocks(child, depth + 1)
                    items.append(target)
                elif self.is_block(child):
                    flush()
                    self.block(child, depth + 1, target)
                else:
                    self.inline(child, inline, depth + 1, flat=False)
            if child.tail:
                inline.text(WHITESPACE.sub(" ", child.tail))
        flush()
        out.extend(before)
        if not items:
            return
        ordered = el.tag == "ol"
        # Two lists in a row are one list in Markdown unless their markers differ.
        previous = out[-1].kind if out else ""
        if previous in ("ol.", "ul-"):
            kind = "ol)" if ordered else "ul*"
        else:
            kind = "ol." if ordered else "ul-"
        number = _start(el.get("start")) if ordered else 0
        loose = False
        lines: list[str] = []
        for blocks in items:
            body, spread = _item_body(blocks)
            loose = loose or spread
            if ordered:
                marker = f"{number}{kind[2]} "
                number += 1
            else:
                marker = f"{kind[2]} "
            lines.append(_prefixed(body, marker, marker.rstrip(), " " * len(marker)))
        out.append(_Block(kind, ("\n\n" if loose else "\n").join(lines)))

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

    def table(self, el: Any, depth: int, out: list[_Block]) -> None:
        rows = [
            [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]
            for row in _rows(el)
        ]
        rows = [r for r in rows if r]
        caption = el.find("caption")
        if caption is not None:
            out.extend(self.blocks(caption, depth))
        layout = any(node is not el for node in el.iter(*_NOT_IN_CELLS))
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
                inline = Inline()
                self.inline_content(cell, inline, depth, flat=True)
                cells.append(inline.markdown(flat=True))
            if i == 0:
                cells += [""] * (width - len(cells))
            lines.append("| " + " | ".join(cells) + " |")
            if i == 0:
                lines.append("|" + " --- |" * width)
        out.append(_Block("raw", "\n".join(lines)))

    # -- inline -------------------------------------------------------------
    def inline_content(self, el: Any, inline: Inline, depth: int, flat: bool) -> None:
        if el.text:
            inline.text(WHITESPACE.sub(" ", el.text))
        for child in el:
            if isinstance(child.tag, str) and not _skipped(child):
                self.inline(child, inline, depth + 1, flat)
            if child.tail:
                inline.text(WHITESPACE.sub(" ", child.tail))

    def inline(self, el: Any, inline: Inline, depth: int, flat: bool) -> None:
        tag = el.tag
        if depth >= _MAX_DEPTH:
            inline.text(WHITESPACE.sub(" ", " ".join(el.itertext())))
            return
        if tag == "br":
            inline.hard_break()
        elif tag == "img":
            src = el.get("src")
            if _safe_url(src, True):
                alt = escape_text(WHITESPACE.sub(" ", el.get("alt") or "").strip())
                inline.atom(f"![{alt}]({link_destination(src)})")
        elif tag == "a" and _safe_url(el.get("href"), False):
            inline.open_link()
            self.inline_content(el, inline, depth, flat)
            inline.close_link(el.get("href"))
        elif tag in _EMPHASIS:
            mark = inline.open_emphasis(_EMPHASIS[tag])
            self.inline_content(el, inline, depth, flat)
            inline.close_emphasis(mark)
        elif tag in _CODE and not any(True for _ in el.iter("a", "img")):
            inline.atom(_code_span(" ".join(el.itertext())))
        elif flat and tag in BLOCK_TAGS:
            inline.space()
            self.inline_content(el, inline, depth, flat)
            inline.space()
        else:
            self.inline_content(el, inline, depth, flat)


def _paragraph(inline: Inline, out: list[_Block]) -> None:
    """Add ``inline`` to ``out`` as a paragraph (unless it writes nothing)."""
    text = inline.markdown()
    if text:
        out.append(_Block("p", text, linked=inline.links > 0))


def _item_body(blocks: list[_Block]) -> tuple[str, bool]:
    """A list item's blocks, and whether a blank line separates any two.

    A paragraph and the list after it stay together (a tight item), where
    that list may interrupt a paragraph: a bullet list, or one numbered
    from 1.
    """
    parts: list[str] = []
    spread = False
    for i, block in enumerate(blocks):
        if i:
            before = blocks[i - 1]
            tight = (
                before.kind == "p"
                and (block.kind.startswith("ul") or block.text.startswith("1"))
                and block.kind[:2] in ("ul", "ol")
            )
            parts.append("\n" if tight else "\n\n")
            spread = spread or not tight
        parts.append(block.markdown())
    return "".join(parts), spread


def _skipped(el: Any) -> bool:
    return el.tag in SKIPPED_TAGS or el.get("hidden") is not None


def _safe_url(url: str | None, image: bool) -> bool:
    """Whether ``url`` is there and no script URL (nor ``data:`` but an
    image's), whatever the policy kept."""
    if url is None:
        return False
    if image and _DATA_IMAGE.match(url):
        return True
    return _SCRIPT_URL.match(url) is None


def _start(value: str | None) -> int:
    try:
        number = int((value or "1").strip())
    except ValueError:
        return 1
    return min(max(number, 0), 999_999_999)


def _rows(table: Any) -> list[Any]:
    """The table's rows, in order, not those of tables inside it."""
    rows: list[Any] = []
    for child in table:
        if child.tag in ("thead", "tbody", "tfoot"):
            rows.extend(c for c in child if c.tag == "tr")
        elif child.tag == "tr":
            rows.append(child)
    return rows


def _code_span(text: str) -> str:
    text = WHITESPACE.sub(" ", text)
    if not text.strip():
        return escape_text(text.strip())
    longest = max((len(r) for r in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text[0] in "` " or text[-1] in "` " else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _prefixed(text: str, first: str, bare: str, rest: str | None = None) -> str:
    """``text`` with ``first`` before its first line, ``rest`` (default: the
    same) before the others; an empty line gets ``bare`` (no trailing spaces)."""
    later = first if rest is None else rest
    out = []
    for i, line in enumerate(text.split("\n") if text else [""]):
        prefix = first if i == 0 else later
        out.append(prefix + line if line else (bare if i == 0 or rest is None else ""))
    return "\n".join(out)


def _plain(el: Any) -> list[str]:
    """Too deep to convert: its text as paragraphs (escaped, collapsed)."""
    from .text import text_of_element

    out = []
    for line in text_of_element(el).split("\n"):
        inline = Inline()
        inline.text(WHITESPACE.sub(" ", line))
        text = inline.markdown()
        if text:
            out.append(text)
    return out
