"""One paragraph of Markdown: text, emphasis, links, images, code, hard breaks.

`Inline` collects a paragraph's pieces as tokens while the tree is walked
and writes them once it is complete, because whether a ``*`` opens or
closes emphasis in CommonMark depends on the characters on both sides of
it (its "flanking"): ``**Note:**text`` shows its asterisks, so such
emphasis is written without them, and spaces at the edges of emphasis and
links are moved outside (``a<a> b</a>`` is ``a [b](…)``, never ``a[ b]``).
Text is escaped so that it reads as text: ``[x](javascript:alert(1))``
typed in a page stays those characters.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Final

from ._convert import WHITESPACE_CHARS, collapse_inner
from ._strings import Atom as _Atom

__all__ = ["Inline", "escape_text", "link_destination"]

#: Characters that may be Markdown syntax inside a line, depending on what
#: is around them (`escape_text`): ``|`` only in table cells, ``]`` only in
#: a link's text or an image's description. As bytes, deleted by
#: `bytes.translate` to tell in C that a text's UTF-8 holds none (a regex
#: search tested a class per character).
_MAYBE_SYNTAX_BYTES: Final = b"\\`*_[]<|~&"
#: Each such character (runs of ``*``, ``_`` and ``~`` as one).
_SYNTAX: Final = re.compile(r"\*+|_+|~+|[\\`\[\]<|&]")
#: ``&`` that starts an entity or character reference: written ``\&``.
_ENTITY: Final = re.compile(r"#?[0-9A-Za-z]+;")
_ENTITY_START: Final = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
#: What `link_destination` changes in a URL.
_DESTINATION_SPECIAL: Final = re.compile(r"[\s\\()<>&]")
#: The same in ASCII (``\s`` there: ``\t-\r``, ``\x1c-\x1f`` and space).
_DESTINATION_SPECIAL_BYTES: Final = b"\\()<>& \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
#: ASCII punctuation: what a backslash escapes (CommonMark 2.4).
_ASCII_PUNCTUATION: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: What may follow ``<`` in raw HTML or an autolink (CommonMark 6.5, 6.6).
_TAG_START: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/!?")
#: What would start a block at the start of a line (CommonMark 4 and 5):
#: an ATX heading, a block quote, a bullet or ordered list marker, a setext
#: underline or a table's delimiter row (GFM). ``*``, ``_``, `````, ``~``
#: and ``<`` are escaped wherever they may be syntax already.
_LINE_START: Final = re.compile(
    r"#{1,6}(?= |$)|>|[-+](?= |$)|\d{1,9}[.)](?= |$)|[-=]+ *$|[-|:][-|: ]*$"
)
_SPACE: Final = " "


def escape_text(text: str, link: bool = False, cell: bool = False) -> str:
    """Text (whitespace already collapsed) written so Markdown shows it as it is.

    Only what CommonMark or GFM would read as syntax where it stands is
    escaped (``2.3 GB/s``, ``apache_builds``, ``a * b`` stay as they are):
    see `_escaped`. ``link``: the text is inside a link's brackets (or an
    image's), where ``]`` would end them; ``cell``: in a table cell, where
    ``|`` would end it. What is at the text's edges is escaped as if
    anything could stand beside it.
    """
    # In UTF-8 a character beyond ASCII holds no ASCII byte. (``encode()``
    # without arguments: the fast path, far cheaper than naming a codec.)
    try:
        data = text.encode()
    except UnicodeEncodeError:  # a lone surrogate (never from lxml)
        data = text.encode("utf-8", "surrogatepass")
    if len(data.translate(None, _MAYBE_SYNTAX_BYTES)) == len(data):
        return text
    return _SYNTAX.sub(lambda m: _escaped(m, link, cell), text)


def _escaped(match: re.Match[str], link: bool, cell: bool) -> str:
    """One run of characters that may be syntax, escaped if it would be."""
    text, start, end = match.string, match.start(), match.end()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    run = match.group()
    c = run[0]
    if c == "*" or c == "~":
        # Emphasis or strikethrough only where the run is flanking: not
        # between two spaces (``a * b``).
        if before.isspace() and after.isspace():
            return run
    elif c == "_":
        # ``_`` never opens nor closes emphasis inside a word (``a_b``).
        if _in_word(before) and _in_word(after):
            return run
        if before.isspace() and after.isspace():
            return run
    elif c == "\\":
        # A backslash escapes only ASCII punctuation (or ends a line).
        if after and after not in _ASCII_PUNCTUATION:
            return run
    elif c == "<":
        # Raw HTML or an autolink starts with a letter, "/", "!" or "?".
        if after and after not in _TAG_START:
            return run
    elif c == "&":
        if _ENTITY.match(text, end) is None:
            return run
    elif (c == "]" and not link) or (c == "|" and not cell):
        return run
    return "\\" + "\\".join(run)


def _in_word(c: str) -> bool:
    """Neither whitespace nor punctuation, nor a text edge (CommonMark 2.1)."""
    return c != "" and not c.isspace() and not _is_punct(c)


def link_destination(url: str) -> str:
    """A URL as a link destination: the parser reads back exactly ``url``.

    Spaces are written ``%20`` (CommonMark renderers percent-encode them
    anyway); parentheses and backslashes are escaped.
    """
    if url.isascii():
        data = url.encode()
        if len(data.translate(None, _DESTINATION_SPECIAL_BYTES)) == len(data):
            return url  # most absolute URLs
    elif _DESTINATION_SPECIAL.search(url) is None:
        return url
    # Browsers strip the ASCII whitespace around a URL, and tabs and
    # newlines inside it (WHATWG URL parser).
    url = (
        url.strip(WHITESPACE_CHARS)
        .replace("\\", "\\\\")
        .replace("(", "\\(")
        .replace(")", "\\)")
        .replace(" ", "%20")
        .replace("<", "%3C")
        .replace(">", "%3E")
        .replace("\n", "")
        .replace("\r", "")
        .replace("\t", "")
    )
    if "&" in url:
        # Not an entity: ``&amp;`` in the URL stays those characters. As a
        # reference itself, not ``\&``, which mistune 3 does not read there.
        url = _ENTITY_START.sub("&amp;", url)
    return url


class _Mark:
    """An emphasis delimiter (``*``/``**``); ``pair`` is its other half."""

    __slots__ = ("delim", "kept", "opens", "pair")

    def __init__(self, delim: str, opens: bool) -> None:
        self.delim = delim
        self.opens = opens
        self.kept = True
        self.pair: _Mark | None = None


class _LinkEdge:
    """``[`` or ``](destination)``: always written."""

    __slots__ = ("opens", "text")

    def __init__(self, text: str, opens: bool) -> None:
        self.text = text
        self.opens = opens


_BREAK: Final = object()  # a hard line break
#: What `Inline.open` and `Inline.within` start as (most paragraphs open
#: neither a link nor emphasis: not one list and set more for each).
_NO_LINKS: Final[list[list[Any]]] = []
_NO_EMPHASIS: Final[frozenset[str]] = frozenset()
_Token = object  # str (escaped text), " ", _Atom, _Mark, _LinkEdge or _BREAK


def _is_space(c: str) -> bool:
    return c == "" or c.isspace()


def _is_punct(c: str) -> bool:
    return c != "" and unicodedata.category(c)[0] in "PS"


class Inline:
    """The tokens of one paragraph, written by `markdown`.

    Spaces and breaks are kept outside emphasis and links as they come: one
    after an opener goes before it, one before a closer after it (``*a *``
    is not emphasis, ``[a ](…)`` glues words).
    """

    __slots__ = (
        "breaks",
        "cell",
        "content",
        "emphasis",
        "in_link",
        "linking",
        "links",
        "marks",
        "open",
        "tokens",
        "within",
    )

    def __init__(self, cell: bool = False, link: bool = False) -> None:
        self.tokens: list[object] = []
        #: Whether it is a table cell's (``|`` is escaped).
        self.cell = cell
        #: How many links are open (``]`` is escaped inside them); ``link``:
        #: one around it.
        self.linking = link
        #: Whether text added now is in a link's text.
        self.in_link = link
        #: The links open in it: [destination, whether it ended already].
        self.open: list[list[Any]] = _NO_LINKS  # a list of its own once one opens
        #: The emphasis delimiters open.
        self.within: frozenset[str] = _NO_EMPHASIS
        #: Whether it holds emphasis, links or breaks (else it is written
        #: by joining its strings).
        self.marks = False
        #: Whether it holds emphasis (whose flanking is then checked).
        self.emphasis = False
        #: Whether it holds a hard break (else it is one line).
        self.breaks = False
        #: Whether it holds anything but spaces and breaks.
        self.content = False
        #: How many links it holds (an ``<a>`` around blocks links one
        #: paragraph that holds none).
        self.links = 0

    def raw(self, text: str) -> None:
        """Add text as the tree holds it, its whitespace runs one space.

        Only the spaces at its ends are tokens of their own (they may move
        out of emphasis and links); the words between stay one string.
        Most texts are whitespace between tags (one space token).
        """
        core = text.strip(WHITESPACE_CHARS)
        if not core:
            if text:
                if self.marks:
                    self._outside(_SPACE)
                else:  # `_outside` without the call: most texts are this
                    self.tokens.append(_SPACE)
            return
        if text[0] in WHITESPACE_CHARS:
            self._outside(_SPACE)
        tokens = self.tokens
        tokens.append(escape_text(collapse_inner(core), self.in_link, self.cell))
        self.content = True
        if text[-1] in WHITESPACE_CHARS:
            tokens.append(_SPACE)

    def _outside(self, token: object) -> None:
        """Add a space or break, before the openers it would follow."""
        tokens = self.tokens
        if not self.marks:
            tokens.append(token)
            return
        i = len(tokens)
        while i and type(tokens[i - 1]) in _EDGES and tokens[i - 1].opens:  # type: ignore[attr-defined]
            i -= 1
        tokens.insert(i, token)

    def _close(self, closer: object) -> None:
        """Add a closer, before the spaces and breaks that end its content."""
        tokens = self.tokens
        last = tokens[-1] if tokens else None
        if last is not _SPACE and last is not _BREAK:
            tokens.append(closer)  # most closers: right after their content
            return
        moved = []
        while tokens and (tokens[-1] is _SPACE or tokens[-1] is _BREAK):
            moved.append(tokens.pop())
        tokens.append(closer)
        tokens.extend(reversed(moved))

    def space(self) -> None:
        self._outside(_SPACE)

    def atom(self, markdown: str) -> None:
        self.tokens.append(_Atom(markdown))
        self.content = True

    def hard_break(self) -> None:
        self._outside(_BREAK)
        self.marks = self.breaks = True

    def open_emphasis(self, delim: str) -> _Mark | None:
        """Open emphasis (None: the same is open, ``<b><b>`` is one)."""
        if delim in self.within:
            return None
        self.within = self.within | {delim}
        mark = _Mark(delim, True)
        self.tokens.append(mark)
        self.marks = self.emphasis = self.content = True
        return mark

    def close_emphasis(self, opener: _Mark | None) -> None:
        if opener is None:
            return
        self.within = self.within - {opener.delim}
        mark = _Mark(opener.delim, False)
        mark.pair, opener.pair = opener, mark
        self._close(mark)

    def open_link(self, destination: str) -> None:
        """Open a link to ``destination``. In a link (lxml's parser nests
        them, a browser's does not), the outer one ends here: Markdown links
        do not nest, and the text after the inner one is the outer's no more."""
        opened = self.open
        if opened:
            if not opened[-1][1]:
                self._end_link(opened[-1][0])
                opened[-1][1] = True
        else:
            opened = self.open = []
        self.tokens.append(_LinkEdge("[", True))
        self.marks = self.content = self.in_link = True
        opened.append([destination, False])

    def close_link(self) -> None:
        destination, ended = self.open.pop()
        if not ended:
            self._end_link(destination)
        self.in_link = self.linking > 0 or bool(self.open)

    def _end_link(self, destination: str) -> None:
        self._close(_LinkEdge(f"]({link_destination(destination)})", False))
        self.links += 1

    def is_blank(self) -> bool:
        return not self.content

    # -- writing ---------------------------------------------------------------
    def markdown(self, flat: bool = False) -> str:
        """The paragraph as Markdown; ``flat``: on one line (headings, cells)."""
        if not self.marks:
            text = "".join(self.tokens)  # type: ignore[arg-type]
            if "  " in text:
                # Runs of space tokens are one (else no two spaces meet).
                text = "".join(_join_spaces(self.tokens))
            return _line_of(text, flat)
        tokens = self.tokens
        if self.emphasis:
            tokens = _drop_empty_emphasis(tokens)
            _check_flanking(tokens)
        elif not self.breaks:
            return _linked_line(tokens, flat)
        lines: list[str] = []
        line: list[str] = []
        for token in tokens:
            kind = type(token)
            if kind is str or kind is _Atom:
                if token is _SPACE and (not line or line[-1] == _SPACE):
                    continue
                line.append(token)  # type: ignore[arg-type]
            elif token is _BREAK:
                if flat:
                    if line and line[-1] != _SPACE:
                        line.append(_SPACE)
                    continue
                lines.append(_line(line, flat))
                line = []
            elif kind is _Mark:
                if token.kept:  # type: ignore[attr-defined]
                    line.append(token.delim)  # type: ignore[attr-defined]
            else:
                assert isinstance(token, _LinkEdge)
                if token.opens and line and line[-1].endswith("!"):
                    line[-1] = line[-1][:-1] + "\\!"  # not an image
                line.append(token.text)
        lines.append(_line(line, flat))
        lines = [x for x in lines if x] if flat else _trim_lines(lines)
        return (" " if flat else "\\\n").join(lines)


_EDGES: Final = (_Mark, _LinkEdge)


def _linked_line(tokens: list[object], flat: bool) -> str:
    """`Inline.markdown` of a paragraph of text and links alone (no
    emphasis, no break): one line, written without the general loop."""
    line: list[str] = []
    for token in tokens:
        if type(token) is _LinkEdge:
            if token.opens and line and line[-1].endswith("!"):
                line[-1] = line[-1][:-1] + "\\!"  # not an image
            line.append(token.text)
        elif token is _SPACE and (not line or line[-1] == _SPACE):
            continue
        else:
            line.append(token)  # type: ignore[arg-type]
    text = _line(line, flat)
    if flat:
        return text
    return "" if text.isspace() else text  # as `_trim_lines` drops it


def _join_spaces(tokens: list[object]) -> list[str]:
    """The strings of a paragraph without marks, runs of spaces made one."""
    out: list[str] = []
    for token in tokens:
        assert isinstance(token, str)
        if token is _SPACE and (not out or out[-1] == _SPACE):
            continue
        out.append(token)
    return out


def _line(parts: list[str], flat: bool = False) -> str:
    """One line of a paragraph; ``flat``: a heading's or a cell's, which no
    block syntax can start."""
    return _line_of("".join(parts), flat)


def _line_of(text: str, flat: bool) -> str:
    """`_line` of the parts joined."""
    text = text.strip(_SPACE)
    if flat or not text:
        return text
    match = _LINE_START.match(text)
    if match is not None:
        if text[0].isdigit():
            end = match.end() - 1
            text = text[:end] + "\\" + text[end:]
        else:
            text = "\\" + text
    return text


def _trim_lines(lines: list[str]) -> list[str]:
    """Hard breaks at the start or end of a paragraph are dropped (a trailing
    one would show its backslash); empty lines between are kept as breaks.
    A line of only no-break spaces counts as empty: renderers trim them
    (JavaScript's ``trim()``) from a paragraph's ends."""
    start, end = 0, len(lines)
    while start < end and (not lines[start] or lines[start].isspace()):
        start += 1
    while end > start and (not lines[end - 1] or lines[end - 1].isspace()):
        end -= 1
    return lines[start:end]


def _drop_empty_emphasis(tokens: list[object]) -> list[object]:
    """Emphasis around nothing goes; so do a closer and the same opener that
    meet (``*a**b*`` is ``*ab*``)."""
    out: list[object] = []
    for token in tokens:
        if type(token) is not _Mark or not out:
            out.append(token)  # text, spaces, links: most tokens
            continue
        last = out[-1]
        if not token.opens:
            if last is token.pair:
                out.pop()
                continue
        elif type(last) is _Mark and not last.opens and last.delim == token.delim:
            # "</em><em>": one emphasis, from the first opener to the
            # second closer.
            out.pop()
            first, later = last.pair, token.pair
            assert first is not None
            first.pair = later
            if later is not None:
                later.pair = first
            continue
        out.append(token)
    return out


def _neighbour(tokens: list[object], i: int, step: int) -> str:
    """The character written next to token ``i`` (``""``: a line edge)."""
    j = i + step
    end = len(tokens)
    while 0 <= j < end:
        token = tokens[j]
        if token is _BREAK:
            return ""
        if type(token) is _Mark:
            # Kept or not, a mark is no neighbour: asterisks next to each
            # other are one delimiter run in CommonMark, whose flanking is
            # decided by the characters on either side of the whole run
            # (``*⌂***Home**``: the run ``***`` follows a symbol).
            pass
        elif isinstance(token, _LinkEdge):
            return token.text[0] if step > 0 else token.text[-1]
        elif isinstance(token, str) and token:
            return token[0] if step > 0 else token[-1]
        j += step
    return ""


def _check_flanking(tokens: list[object]) -> None:
    """Unmark emphasis whose delimiters CommonMark would not read as such."""
    marks = [i for i, t in enumerate(tokens) if type(t) is _Mark]
    for _ in range(4):
        changed = False
        for i in marks:
            mark = tokens[i]
            assert isinstance(mark, _Mark)
            if not mark.kept:
                continue
            before, after = _neighbour(tokens, i, -1), _neighbour(tokens, i, 1)
            if mark.opens:
                ok = not _is_space(after) and (
                    not _is_punct(after) or _is_space(before) or _is_punct(before)
                )
            else:
                ok = not _is_space(before) and (
                    not _is_punct(before) or _is_space(after) or _is_punct(after)
                )
            if not ok or mark.pair is None:
                mark.kept = False
                if mark.pair is not None:
                    mark.pair.kept = False
                changed = True
        if not changed:
            return
