"""Internal entities of XML documents: expanded once, linearly, within a budget.

The XML parser never expands entities (billion laughs, external files).
libxml2 still counts what a reference *would* expand to against its
amplification limit (about 5x the input past 1 MB) and, past it, stops
parsing: a document using one 100-character entity 10,000 times lost the
rest of its text, and writing 10,000 kept references back as text was
quadratic.  So, before the parse, the references to internal entities whose
replacement text is plain text (after expanding the entities it uses, and
character references) are replaced in the source by that text, escaped,
in element content and quoted attribute values, never in comments, CDATA
sections, processing instructions or the DTD.  Everything substituted
counts against a budget (`budget`) relative to the document's size, as
libxml2 bounds its own expansion: an entity whose text would exceed it (an
exponential "billion laughs" one, or a quadratic blow-up) or that refers to
itself is refused, its references dropped and the soup marked truncated.
Entities whose text holds markup are dropped, as before.
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

# The budget follows libxml2's guard against "billion laughs" (parser.c,
# xmlParserEntityCheck): past XML_PARSER_ALLOWED_EXPANSION (1,000,000) bytes
# of expansion, it stops once the text expanded is more than maxAmpl
# (XML_MAX_AMPLIFICATION_DEFAULT, 5) times the bytes read.  Two differences:
# - the allowance is smaller: libxml2 lets a 4 KB document become 1 MB, and
#   what a crawl exports must stay within a few times what it downloaded;
# - no fixed cost per reference (libxml2 adds XML_ENT_FIXED_COST, 20, for
#   the CPU each expansion costs it): here each entity's text is worked out
#   once and a reference costs what it copies, so only characters count.
# An absolute ceiling bounds a huge document's expansion too.

#: Characters of entity text any document may have substituted.
ENTITY_ALLOWANCE = 64 * 1024
#: ... or this many times the document's size (libxml2's default
#: amplification factor), if more ...
ENTITY_AMPLIFICATION = 5
#: ... but never more than this many per document.
ENTITY_BUDGET = 16 * 1024 * 1024

_PREDEFINED = {"lt": "<", "gt": ">", "amp": "&", "apos": "'", "quot": '"'}
_QUOTED = rb"(?:\"[^\"]*\"|'[^']*')"
_PROLOG = re.compile(
    rb"(?:\xef\xbb\xbf)?(?:\s+|<\?.*?\?>|<!--.*?-->)*<!DOCTYPE\s+[^\s\[>]+"
    rb"(?:\s+(?:SYSTEM\s*"
    + _QUOTED
    + rb"|PUBLIC\s*"
    + _QUOTED
    + rb"\s*"
    + _QUOTED
    + rb"))?"
    rb"\s*\[",
    re.S,
)
_SUBSET_TOKEN = re.compile(
    rb"\s+|<!--.*?-->|<\?.*?\?>|<!(?:[^>\"']|" + _QUOTED + rb")*>|%[^;\s]+;", re.S
)
_SUBSET_END = re.compile(rb"\]\s*>")
_GENERAL_ENTITY = re.compile(rb"<!ENTITY\s+([^\s%\"']+)")
_BODY_TOKEN = re.compile(
    rb"<!--.*?(?:-->|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)|<\?.*?(?:\?>|\Z)"
    rb"|(<[^<>\"']*(?:" + _QUOTED + rb"[^<>\"']*)*>)|&([^\s&;<>\"']+);",
    re.S,
)
_QUOTED_VALUE = re.compile(_QUOTED)
_REFERENCE = re.compile(rb"&([^\s&;<>\"']+);")
_VALUE_REFERENCE = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|[^\s&;<>\"']+);")
_TEXT_ESCAPES = str.maketrans({"<": "&#60;", "&": "&#38;", "\r": "&#13;"})
_ATTRIBUTE_ESCAPES = str.maketrans(
    {"<": "&#60;", "&": "&#38;", '"': "&#34;", "'": "&#39;"}
)


class _Refused(Exception):
    """An entity that is not plain text (markup, external) or breaks a limit."""

    def __init__(self, limit: bool) -> None:
        super().__init__()
        self.limit = limit


def budget(data: bytes) -> int:
    """How many characters of entity text a document may have substituted.

    ``ENTITY_AMPLIFICATION`` times its size, at least ``ENTITY_ALLOWANCE``
    and at most ``ENTITY_BUDGET``: a 4 KB document gives at most 64 Ki
    characters of entity text, a 1 MB one 5 Mi.
    """
    return min(ENTITY_BUDGET, max(ENTITY_ALLOWANCE, ENTITY_AMPLIFICATION * len(data)))


class _Entities:
    """The plain-text replacement of each internal entity, worked out on demand."""

    def __init__(self, contents: dict[str, str | None], limit: int) -> None:
        self.contents = contents
        self.limit = limit
        self.spent = 0
        self.done: dict[str, str | None] = {}
        #: entities refused, and whether for a limit (else: markup, external)
        self.refused: dict[str, bool] = {}
        #: why content was dropped, for the soup's warning
        self.problems: list[str] = []

    def text(self, name: str) -> str | None:
        """The entity's replacement text; None if it is refused (references dropped)."""
        if name in self.done:
            return self.done[name]
        try:
            value: str | None = self._expand(name, ())
        except _Refused as refused:
            value = None
            if refused.limit:
                self.problems.append(
                    f"the entity &{name}; expands past the limit of "
                    f"{self.limit} characters, or refers to itself"
                )
        self.done[name] = value
        return value

    def _expand(self, name: str, stack: tuple[str, ...]) -> str:
        known = self.done.get(name)
        if known is not None:
            return known
        if name in self.refused:
            raise _Refused(self.refused[name])
        try:
            return self._expand_new(name, stack)
        except _Refused as refused:
            # Remembered: ten references to a refused entity in another's
            # text must not expand it ten times up to the budget.
            self.refused[name] = refused.limit
            raise

    def _expand_new(self, name: str, stack: tuple[str, ...]) -> str:
        if name in stack:
            raise _Refused(limit=True)
        raw = self.contents.get(name)
        if raw is None or "<" in raw:
            raise _Refused(limit=False)  # external, or markup: dropped by policy
        pieces: list[str] = []
        size = 0
        pos = 0
        for found in _VALUE_REFERENCE.finditer(raw):
            pieces.append(raw[pos : found.start()])
            ref = found[1]
            if ref[0] == "#":
                code = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
                piece = chr(code) if 0 < code <= 0x10FFFF else ""
            elif ref in _PREDEFINED:
                piece = _PREDEFINED[ref]
            else:
                piece = self._expand(ref, (*stack, name))
            pieces.append(piece)
            size += len(piece) + found.start() - pos
            if size > self.limit:
                raise _Refused(limit=True)
            pos = found.end()
        pieces.append(raw[pos:])
        text = "".join(pieces)
        if len(text) > self.limit:
            raise _Refused(limit=True)
        if "<" in text:
            raise _Refused(limit=False)  # markup through a character reference
        self.done[name] = text
        return text

    def substitute(self, name: bytes, in_attribute: bool) -> bytes | None:
        """The escaped bytes for a reference (None: leave it to the parser)."""
        try:
            key = name.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if key not in self.contents or key in _PREDEFINED:
            return None  # undeclared: libxml2 drops it, as bs4 does
        text = self.text(key)
        if text is None:
            return b""
        if self.spent + len(text) > self.limit:
            if not any("budget" in p for p in self.problems):
                self.problems.append(
                    f"entity references past a budget of {self.limit} "
                    "characters were dropped"
                )
            return b""
        self.spent += len(text)
        escapes = _ATTRIBUTE_ESCAPES if in_attribute else _TEXT_ESCAPES
        return text.translate(escapes).encode("ascii", "xmlcharrefreplace")


def _subset_end(data: bytes) -> tuple[int, int] | None:
    """Where the internal DTD subset starts and ends (None: no subset, or unreadable)."""
    prolog = _PROLOG.match(data)
    if prolog is None:
        return None
    pos = prolog.end()
    while True:
        end = _SUBSET_END.match(data, pos)
        if end is not None:
            return prolog.end(), end.end()
        token = _SUBSET_TOKEN.match(data, pos)
        if token is None:
            return None
        pos = token.end()


def _declared(data: bytes, start: int, end: int, parser: Any) -> dict[str, str | None]:
    """The general entities the internal subset declares: name to raw content."""
    names = {
        m[1].decode("utf-8", "replace")
        for m in _GENERAL_ENTITY.finditer(data, start, end)
    }
    if not names:
        return {}
    try:
        root = etree.fromstring(data[:end] + b"<r/>", parser)
    except etree.XMLSyntaxError:
        return {}
    dtd = root.getroottree().docinfo.internalDTD if root is not None else None
    if dtd is None:
        return {}
    contents: dict[str, str | None] = {}
    for entity in dtd.iterentities():
        if entity.name in names and entity.name not in contents:
            contents[entity.name] = entity.content
    return contents


def expand_internal_entities(data: bytes, parser: Any) -> tuple[bytes, list[str]]:
    """``data`` with references to plain-text internal entities replaced by their text.

    Returns the new bytes and what was dropped for a limit (empty: nothing).
    ``parser`` reads the DTD's declarations (the safe XML parser).  Only
    ASCII-compatible encodings are rewritten; others parse as they are.
    """
    bounds = _subset_end(data)
    if bounds is None:
        return data, []
    contents = _declared(data, bounds[0], bounds[1], parser)
    if not contents:
        return data, []
    entities = _Entities(contents, budget(data))

    def in_tag(found: re.Match[bytes]) -> bytes:
        value = entities.substitute(found[1], True)
        return found[0] if value is None else value

    def in_quotes(found: re.Match[bytes]) -> bytes:
        return _REFERENCE.sub(in_tag, found[0])

    def replace(found: re.Match[bytes]) -> bytes:
        tag, name = found[1], found[2]
        if tag is not None:
            return _QUOTED_VALUE.sub(in_quotes, tag) if b"&" in tag else tag
        if name is None:
            return found[0]  # a comment, CDATA section or PI
        value = entities.substitute(name, False)
        return found[0] if value is None else value

    end = bounds[1]
    body = _BODY_TOKEN.sub(replace, data[end:])
    return data[:end] + body, entities.problems


def replace_entity_references(root: Any) -> None:
    """Write the entity references the parser kept as text, as bs4 reads them.

    What the pre-pass did not substitute reaches here: an undeclared
    reference (bs4 drops it), an external or markup entity (dropped,
    nothing fetched), a plain-text one the pre-pass could not see (a
    document in UTF-16).  Text is joined once per slot: adding it
    reference by reference was quadratic.
    """
    references = list(root.iter(etree.Entity))
    if not references:
        return
    dtd = root.getroottree().docinfo.internalDTD
    declared: dict[str, str] = {}
    if dtd is not None:
        for entity in dtd.iterentities():
            content = entity.content
            if content is not None and "<" not in content and "&" not in content:
                declared.setdefault(entity.name, content)
    # Per text slot (an element's tail, or a parent's text): its pieces.
    slots: dict[tuple[Any, bool], list[str]] = {}
    for node in references:
        text = declared.get(node.name, "") + (node.tail or "")
        parent = node.getparent()
        previous = node.getprevious()
        if text:
            key = (previous, True) if previous is not None else (parent, False)
            pieces = slots.get(key)
            if pieces is None:
                owner, is_tail = key
                pieces = slots[key] = [(owner.tail if is_tail else owner.text) or ""]
            pieces.append(text)
        parent.remove(node)
    for (owner, is_tail), pieces in slots.items():
        if is_tail:
            owner.tail = "".join(pieces)
        else:
            owner.text = "".join(pieces)
