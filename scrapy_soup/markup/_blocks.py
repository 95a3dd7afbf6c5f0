"""The blocks `to_markdown` writes: paragraphs, headings, list items, table rows.

How the converter's blocks are made, linked, numbered and prefixed, apart
from the walk that finds them (`markdown._Converter`).
"""

from __future__ import annotations

import re
from typing import Any, Final

from ._convert import WHITESPACE
from ._inline import Inline

__all__ = [
    "Block",
    "add_paragraph",
    "code_span",
    "heading_block",
    "item_body",
    "link_blocks",
    "list_number",
    "plain_paragraphs",
    "prefixed",
    "table_rows",
]

#: Table cells.
_CELLS: Final = frozenset({"td", "th"})
#: A trailing run of ``#`` a heading would read as its closing sequence.
_CLOSING_HASHES: Final = re.compile(r"(?:^| )(#+)$")


class Block:
    """One block of the output: a paragraph or heading (whose text a link
    around blocks may still wrap), or Markdown already written (``raw``)."""

    __slots__ = ("interrupts", "kind", "linked", "prefix", "text")

    def __init__(self, kind: str, text: str, prefix: str = "", linked: bool = True):
        self.kind = kind
        self.text = text
        self.prefix = prefix
        self.linked = linked
        #: A list that may follow a paragraph's line without a blank line
        #: (CommonMark 5.3: a bullet list, or one numbered from 1, whose
        #: first item is not empty).
        self.interrupts = False

    def markdown(self) -> str:
        return self.prefix + self.text


def add_paragraph(inline: Inline, out: list[Block]) -> None:
    """Add ``inline`` to ``out`` as a paragraph (unless it writes nothing)."""
    text = inline.markdown()
    if text:
        out.append(Block("p", text, "", inline.links > 0))


def item_body(blocks: list[Block]) -> tuple[str, bool]:
    """A list item's blocks, and whether a blank line separates any two.

    A paragraph and the list after it stay together (a tight item), where
    that list may interrupt a paragraph (`Block.interrupts`): else its
    first line would be read as the paragraph's (``-`` alone: a setext
    underline).
    """
    parts: list[str] = []
    spread = False
    for i, block in enumerate(blocks):
        if i:
            tight = blocks[i - 1].kind == "p" and block.interrupts
            parts.append("\n" if tight else "\n\n")
            spread = spread or not tight
        parts.append(block.markdown())
    return "".join(parts), spread


def list_number(value: str, default: int) -> int:
    """An ``<ol start>`` or ``<li value>``: an integer, else ``default``."""
    try:
        return int(value.strip())
    except ValueError:
        return default


def heading_block(prefix: str, text: str) -> Block:
    """A heading's block; a trailing run of ``#`` it would close on is escaped."""
    match = _CLOSING_HASHES.search(text)
    if match is not None:
        text = text[: match.start(1)] + "\\" + text[match.start(1) :]
    return Block("h", text, prefix + (" " if text else ""))


def link_blocks(blocks: list[Block], destination: str) -> None:
    """Link the blocks a link around blocks holds: the first paragraphs (an
    image, a line of text) and the heading after them, as one link; the
    rest keep their own links, or none (a Markdown link holds one line)."""
    start = next(
        (
            i
            for i, b in enumerate(blocks)
            if b.kind in ("p", "h") and not b.linked and b.text
        ),
        None,
    )
    if start is None:
        # Nothing to link (an empty block): the link, empty, stays.
        blocks.insert(0, Block("p", f"[]({destination})"))
        return
    end = start
    while blocks[end].kind == "p" and end + 1 < len(blocks):
        after = blocks[end + 1]
        if after.kind not in ("p", "h") or after.linked or not after.text:
            break
        end += 1
    run = blocks[start : end + 1]
    last = run[-1]
    if last.kind == "h":
        text = " ".join(b.text.replace("\\\n", " ") for b in run)
    else:
        text = "\\\n".join(b.text for b in run)
    last.text = f"[{text}]({destination})"
    last.linked = True
    blocks[start : end + 1] = [last]


def table_rows(table: Any) -> list[list[Any]]:
    """The cells of the table's rows (not those of tables inside it), in the
    order a browser shows them: its first ``<thead>`` first, its first
    ``<tfoot>`` last (HTML 4 wrote it before the body). Cells the parser
    left outside a row (``<tbody><td>``) make one row, as a browser's
    parser would wrap them in one."""
    head: list[list[Any]] = []
    body: list[list[Any]] = []
    foot: list[list[Any]] = []
    for child in table:
        tag = child.tag
        if tag == "thead" and not head:
            _section_rows(child, head)
        elif tag == "tfoot":
            _section_rows(child, foot)
        elif tag in ("thead", "tbody", "tfoot"):
            _section_rows(child, body)
    _section_rows(table, body)
    return [row for row in head + body + foot if row]


def _section_rows(section: Any, rows: list[list[Any]]) -> None:
    """Add the rows of a table section (or the table's own) to ``rows``."""
    loose: list[Any] | None = None
    for child in section:
        tag = child.tag
        if tag == "tr":
            rows.append([c for c in child if c.tag in _CELLS])
            loose = None
        elif tag in _CELLS:
            if loose is None:
                loose = []
                rows.append(loose)
            loose.append(child)


def code_span(text: str, cell: bool) -> str:
    """Inline code; in a table cell, ``|`` is escaped even there (GFM 4.10)."""
    text = WHITESPACE.sub(" ", text)
    if not text.strip():
        return ""
    if cell:
        text = text.replace("|", "\\|")
    longest = max((len(r) for r in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text[0] in "` " or text[-1] in "` " else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def prefixed(text: str, first: str, bare: str, rest: str | None = None) -> str:
    """``text`` with ``first`` before its first line, ``rest`` (default: the
    same) before the others; an empty line gets ``bare`` (no trailing spaces)."""
    later = first if rest is None else rest
    out = []
    for i, line in enumerate(text.split("\n") if text else [""]):
        prefix = first if i == 0 else later
        out.append(prefix + line if line else (bare if i == 0 or rest is None else ""))
    return "\n".join(out)


def plain_paragraphs(el: Any) -> list[str]:
    """Too deep to convert: its text as paragraphs (escaped, collapsed)."""
    from .text import text_of_element

    out = []
    for line in text_of_element(el).split("\n"):
        inline = Inline()
        inline.raw(line)
        text = inline.markdown()
        if text:
            out.append(text)
    return out
