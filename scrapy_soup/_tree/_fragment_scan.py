"""A fragment's ``<html>``, ``<head>`` and ``<body>`` tags, kept where written.

bs4's html.parser keeps exactly the document tags a fragment writes; libxml2,
which parses a fragment inside an open ``<html><body>`` (`FRAGMENT_START`),
would merge them into its own.  `fragment_container` renames them before
the parse (`mark_document_tags`: a scan of the markup that knows where
libxml2 reads tags, and where comments and raw text) and names them back in
the tree (`unmark_document_tags`).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from lxml import etree

from ._deep import keep_whole_html
from ._parse import utf8_html_parser

__all__ = [
    "FRAGMENT_START",
    "MAX_CLOSED_HERE",
    "MAX_DOCUMENT_TAGS",
    "fragment_container",
    "mark_document_tags",
    "unmark_document_tags",
]

#: More document tags than a page writes, or more end tags that html.parser
#: applies and libxml2 does not (each moves what follows it: markup built
#: to be slow), and the markup is parsed as if none were written.
MAX_DOCUMENT_TAGS = 64
MAX_CLOSED_HERE = 4
#: What the fragment parse calls them while libxml2 reads the markup, and
#: the empty element written after each renamed end tag.  Drawn once per
#: process, so markup cannot write a tag of these names: the elements of
#: these names are the renamed ones (what `_written_near_top` relies on).
_WRITTEN = f"scrapy-soup-written-{secrets.token_hex(6)}-"
_END_MARK = _WRITTEN + "end-"
_WRITTEN_TAGS = tuple(
    prefix + name
    for prefix in (_WRITTEN, _END_MARK)
    for name in ("html", "head", "body")
)
_WRITTEN_BYTES = _WRITTEN.encode()
_DROPPED = _WRITTEN + "dropped"
_END_MARK_ELEMENTS = {
    name.encode(): f"<{_END_MARK}{name}></{_END_MARK}{name}>".encode()
    for name in ("html", "head", "body")
}


def _any_case(word: bytes) -> bytes:
    """A regex for ``word`` in any ASCII case, one class per letter.

    Not ``re.I``: sre skips an alternative whose first class or literal does
    not match in one test, and cannot for a case-insensitive one.
    """
    return b"".join(
        b"[%c%c]" % (c, c - 32) if 97 <= c <= 122 else re.escape(bytes([c]))
        for c in word
    )


#: The elements whose text is raw (libxml2 2.14's list), and ``<plaintext>``,
#: whose text runs to the end: their text is stepped over in Python
#: (`_Specials.past`).
_RAW_TEXT_NAMES = (
    b"script", b"style", b"title", b"textarea", b"xmp", b"iframe", b"noembed",
    b"noframes",
)  # fmt: skip
_SPECIAL_NAMES = (*_RAW_TEXT_NAMES, b"plaintext")
_DOCUMENT_NAME = b"(?:%b|%b|%b)" % tuple(map(_any_case, (b"html", b"head", b"body")))
_SPECIAL_NAME = b"(?:%b)" % b"|".join(map(_any_case, _SPECIAL_NAMES))


def _by_first_letter(names: tuple[bytes, ...]) -> dict[int, list[bytes]]:
    """``names`` grouped by their first letter (lower case), in order."""
    groups: dict[int, list[bytes]] = {}
    for name in names:
        groups.setdefault(name[0], []).append(name)
    return groups


_SPECIAL_FIRSTS = _by_first_letter(_SPECIAL_NAMES)
#: One step over markup that is neither a document tag nor special (a
#: comment, declaration, processing instruction, raw-text element or
#: ``<plaintext>``: the scan stops at those, `_mark` decides): a ``<`` (a
#: run of them: only the last can open a tag) and what follows it, told by
#: its first letters (the common tags: one test), then the text up to the
#: next ``<``.
_STEP = b"|".join(
    [
        rb"<++(?:/[^<hbHB]",
        rb"[^<!?/hbHB%b%b]" % (bytes(_SPECIAL_FIRSTS), bytes(_SPECIAL_FIRSTS).upper()),
        rb"[hH][^<tTeE]|[bB][^<oO]",
        *(
            b"[%c%c](?!(?:%b)[\\s/>])"
            % (first, first - 32, b"|".join(_any_case(name[1:]) for name in names))
            for first, names in _SPECIAL_FIRSTS.items()
        ),
        rb"/(?!%b[\s/>])" % _DOCUMENT_NAME,
        rb"(?![!?/]|%b[\s/>]|%b[\s/>]))[^<]*+" % (_DOCUMENT_NAME, _SPECIAL_NAME),
    ]
)
#: A start tag's attributes as HTML's tokenizer (libxml2 2.14's) reads them:
#: a name runs to a space, ``/``, ``>`` or ``=`` (a quote is part of it, and
#: so is a first ``=``), then a value after ``=``: quoted (to the closing
#: quote, or the end of the markup), or to a space or ``>``.  A ``/`` not
#: before ``>`` is a space.
_ATTRIBUTES_SOURCE = (
    rb"(?:[\s/]++|[^\s/>][^\s/>=]*+"
    rb"(?:\s*+=\s*+(?:\"[^\"]*+\"?|'[^']*+'?|[^\s>]*+))?)*+"
)
#: From where `_mark` is: every step, then a document tag (group 1: a start
#: tag's name, its attributes stepped over; 2: an end tag's name, 3: the
#: rest of it to ``>``), something special (4: ``!``, ``?`` or the raw-text
#: element's name after the ``<``) or the end.  The steps stop only there.
_DOCUMENT_TAG_SCAN_SOURCE = (
    rb"[^<]*+(?:%b)*+(?:<++(%b)(?=[\s/>])%b"
    rb"|<++/(%b)(?=[\s/>])([^>]*+>)?|<++([!?]|%b(?=[\s/>]))|\Z)"
    % (_STEP, _DOCUMENT_NAME, _ATTRIBUTES_SOURCE, _DOCUMENT_NAME, _SPECIAL_NAME)
)
_DOCUMENT_TAG_SCAN: re.Pattern[bytes] | None
try:
    _DOCUMENT_TAG_SCAN = re.compile(_DOCUMENT_TAG_SCAN_SOURCE)
except re.error:  # possessive quantifiers are Python 3.11's: `_mark_by_steps`
    _DOCUMENT_TAG_SCAN = None

#: Python 3.10's scan (`_mark_by_steps`): the tags around which libxml2
#: reads text (comments, declarations and processing instructions, raw-text
#: elements) and the document tags, found one after another.
_DOCUMENT_TAG_CONTEXT = re.compile(
    rb"<(?:(!--)|([!?])|(%b)(?=[\s/>])|(/?)(html|head|body)(?=[\s/>]))"
    % b"|".join(_SPECIAL_NAMES),
    re.I,
)
#: `_ATTRIBUTES_SOURCE` without possessive quantifiers (it matches from
#: where it starts, so no backtracking is tried).
_ATTRIBUTES = re.compile(_ATTRIBUTES_SOURCE.replace(b"++", b"+").replace(b"*+", b"*"))
#: Where a tag opens: ``<`` and a letter (``</`` for an end tag).
_TAG_OPEN = re.compile(rb"</?[A-Za-z]")
#: A tag, its name and attributes as the tokenizer reads them, to its ``>``.
_TAG = re.compile(rb"</?[A-Za-z][^\s/>]*" + _ATTRIBUTES.pattern + rb">?")
#: Text and whole tags (`_TAG`, to their ``>``), one after another: where
#: it stops short of the end it is given, a tag opened and goes on past it
#: (`_tag_around`).  Python 3.11's possessive quantifiers: no backtracking.
_TAGS_SOURCE = (
    rb"(?:[^<]++|<(?!/?[A-Za-z])|</?[A-Za-z][^\s/>]*+%b>)*+" % _ATTRIBUTES_SOURCE
)
_TAGS: re.Pattern[bytes] | None
try:
    _TAGS = re.compile(_TAGS_SOURCE)
except re.error:  # Python 3.10: `_tag_around` steps in Python
    _TAGS = None


#: What a fragment is parsed after: libxml2 then moves nothing into a <head>.
FRAGMENT_START = b"<html><body>"


def mark_document_tags(data: bytes) -> tuple[bytes, int, int]:
    """``data`` with its ``<html>``/``<head>``/``<body>`` tags renamed.

    bs4's html.parser keeps exactly the document tags the markup writes,
    where it writes them; the fragment parse runs inside an open
    ``<html><body>`` (so that libxml2 moves nothing into a ``<head>``), where
    libxml2 would merge them into its own.  Renamed, they are ordinary
    elements, opened and closed where written; `unmark_document_tags`
    names them back.  An end tag with no start tag is then ignored, as
    html.parser ignores it, where libxml2 drops the rest of the markup
    after its own ``</body>`` or ``</html>``.  Also the numbers of start
    and end tags renamed; ``data`` itself when there are none.
    """
    found = _mark(data, b"")
    return (data, 0, 0) if found is None else found


def _mark(data: bytes, prefix: bytes) -> tuple[bytes, int, int] | None:
    """`mark_document_tags` after ``prefix`` (one copy of the page), or None.

    One regex pass in C (`_DOCUMENT_TAG_SCAN`), a Python step only at a
    document tag: a loop searching for each comment, raw-text element and
    tag in turn cost a quarter of the parse.  None: no tag to rename.
    """
    if _DOCUMENT_TAG_SCAN is None:
        return _mark_by_steps(data, prefix)
    out: list[bytes] = [prefix]
    starts = ends = done = pos = floor = 0
    specials = _Specials(data)
    while (found := _DOCUMENT_TAG_SCAN.match(data, pos)) is not None:
        kind = found.lastindex
        if kind is None:
            break  # the end
        if kind == 4:
            # A comment, declaration or raw-text element, unless in a tag.
            at = found.start(4) - 1
            if _inside_a_tag(data, at, floor):
                pos = at + 1
                continue
            pos = floor = specials.past(found[4], found.end(4), at, floor)
            continue
        if starts + ends >= MAX_DOCUMENT_TAGS:
            return None
        pos = floor = found.end()
        if kind == 1:
            out += (data[done : found.start(1) - 1], b"<", _WRITTEN_BYTES, found[1])
            done = found.end(1)
            starts += 1
        else:
            name = found[2]
            out += (data[done : found.start(2) - 2], b"</", _WRITTEN_BYTES, name)
            done = pos
            if kind == 3:
                # An element that only the end tag's parse makes: one written
                # where libxml2 reads text would not be one (see unmark).
                out += (found[3], _END_MARK_ELEMENTS[name.lower()])
                ends += 1
    else:
        # Never seen (the steps end only at a tag or the end): the scan lost
        # its place, and the markup is parsed as if none were written.
        return None
    if len(out) == 1:
        return None
    out.append(data[done:])
    return b"".join(out), starts, ends


#: A document tag, in any case.
_A_DOCUMENT_TAG = rb"</?%b(?=[\s/>])" % _DOCUMENT_NAME
_ANY_DOCUMENT_TAG = re.compile(_A_DOCUMENT_TAG)
#: Special markup's kind (`_Specials.past`) -> its end (group ``end``) or a
#: document tag before it, whichever comes first.
_END_OR_DOCUMENT_TAG: dict[bytes, re.Pattern[bytes]] = {
    b"--": re.compile(rb"(?P<end>-->)|" + _A_DOCUMENT_TAG),
    b"!": re.compile(rb"(?P<end>>)|" + _A_DOCUMENT_TAG),
    b"?": re.compile(rb"(?P<end>>)|" + _A_DOCUMENT_TAG),
    b"plaintext": re.compile(_A_DOCUMENT_TAG),
}


class _Specials:
    """Where a scan goes on after the special markup it meets (`past`).

    Stepping over a comment or raw text passes the document tags in it,
    which is right only where libxml2 reads it as markup: one that
    `_inside_a_tag` could not tell from an attribute's value
    (``title="<i>a>b<!--"``) would hide the tags after it, and an end tag
    left unrenamed makes libxml2 drop what follows.  So where a document
    tag comes before the markup's end, the tags from the scan's floor are
    read one by one first (`_tag_around`: exact, and needed only there).
    The end or tag is looked for in the same search as the end alone was,
    and found once for all the markup of a kind up to it (markup built to
    be slow, each value holding an unclosed ``<!--``, cannot make the scan
    quadratic).
    """

    __slots__ = ("data", "found")

    def __init__(self, data: bytes) -> None:
        self.data = data
        #: Kind -> where it was looked for from, and what was found first.
        self.found: dict[bytes, tuple[int, re.Match[bytes] | None]] = {}

    def past(self, head: bytes, pos: int, at: int, floor: int) -> int:
        """Where the scan goes on after the markup at ``at`` whose ``head`` ends at ``pos``."""
        data = self.data
        key = b"--" if head == b"!" and data.startswith(b"--", pos) else head.lower()
        # The end or document tag found first, looked for again only past it.
        cached = self.found.get(key)
        if (
            cached is not None
            and cached[0] <= pos
            and (cached[1] is None or pos <= cached[1].start())
        ):
            found = cached[1]
        else:
            pattern = _END_OR_DOCUMENT_TAG.get(key)
            if pattern is None:
                pattern = _END_OR_DOCUMENT_TAG[key] = _raw_text_end_or_document_tag(key)
            found = pattern.search(data, pos)
            self.found[key] = (pos, found)
        if found is None:
            return len(data)  # no end, and no document tag before it
        if found.lastgroup == "end":
            return found.end()
        around = _tag_around(data, at, floor)
        if around is not None:
            return around  # in a tag: no markup
        # Markup holding a document tag, as text: on to its end.
        while found is not None and found.lastgroup != "end":
            found = found.re.search(data, found.end())
        return len(data) if found is None else found.end()


def _raw_text_end_or_document_tag(name: bytes) -> re.Pattern[bytes]:
    """The end tag of raw-text element ``name`` (group ``end``) or a document
    tag, whichever comes first (one literal first, ``<``: sre finds it
    without trying the rest)."""
    return re.compile(
        rb"<(?:(?P<end>/%b)|/?%b)(?=[\s/>])" % (name, _DOCUMENT_NAME), re.I
    )


def _tag_around(data: bytes, at: int, floor: int) -> int | None:
    """The end of the tag holding ``at``, None if it is in none.

    Read from ``floor`` (a place outside any tag, from which no comment or
    raw text is left unread) tag by tag, as libxml2's tokenizer reads them.
    """
    if _TAGS is not None:
        start = _TAGS.match(data, floor, at).end()  # type: ignore[union-attr]
        if start == at:
            return None
        return _TAG.match(data, start).end()  # type: ignore[union-attr]
    pos = floor
    while (start := data.find(b"<", pos, at)) != -1:
        tag = _TAG.match(data, start)
        if tag is None:
            pos = start + 1  # text
        elif tag.end() > at:
            return tag.end()
        else:
            pos = tag.end()
    return None


def _inside_a_tag(data: bytes, at: int, floor: int) -> bool:
    """Whether the ``<`` at ``at`` is in a tag (an attribute's value or name),
    where libxml2 reads no markup (``<div title="<!--">``).

    ``floor``: a place outside any tag before it. In a tag if one opens
    after the last ``>`` before it, or if that ``>`` is in the quoted value
    of a tag that goes on past it (a ``>`` in a value holding a ``<``
    before it is not told apart: `_Specials.past` reads such a place again
    where it matters). Asked only where a comment or raw-text
    element would start: a few places on a page.
    """
    close = data.rfind(b">", floor, at)
    if _TAG_OPEN.search(data, floor if close == -1 else close + 1, at) is not None:
        return True
    if close == -1:
        return False
    opened = data.rfind(b"<", floor, close)
    if opened == -1 or _TAG_OPEN.match(data, opened) is None:
        return False
    return _TAG.match(data, opened).end() > at  # type: ignore[union-attr]


def _mark_by_steps(data: bytes, prefix: bytes) -> tuple[bytes, int, int] | None:
    """`_mark` on Python 3.10 (no possessive quantifiers): the same marks.

    A search for the next tag that matters, then a step over it in Python.
    """
    if _ANY_DOCUMENT_TAG.search(data) is None:
        return None
    out: list[bytes] = [prefix]
    starts = ends = done = pos = floor = 0
    specials = _Specials(data)
    while (found := _DOCUMENT_TAG_CONTEXT.search(data, pos)) is not None:
        comment, declaration, raw, slash, name = found.groups()
        if name is None:
            # A comment, declaration or raw-text element, unless in a tag.
            at = found.start()
            if _inside_a_tag(data, at, floor):
                pos = at + 1
            elif comment is not None:
                pos = floor = specials.past(b"!", at + 2, at, floor)
            else:
                head = declaration if raw is None else raw
                pos = floor = specials.past(head, found.end(), at, floor)
            continue
        if starts + ends >= MAX_DOCUMENT_TAGS:
            return None
        pos = found.end()
        out += (data[done : found.start()], b"<", slash, _WRITTEN_BYTES, name)
        done = pos
        if slash and (close := data.find(b">", pos)) != -1:
            # An element that only the end tag's parse makes (see unmark).
            pos = done = close + 1
            out += (data[found.end() : pos], _END_MARK_ELEMENTS[name.lower()])
            ends += 1
        if not slash:
            starts += 1
            pos = _ATTRIBUTES.match(data, pos).end()  # type: ignore[union-attr]
        floor = pos
    if len(out) == 1:
        return None
    out.append(data[done:])
    return b"".join(out), starts, ends


def fragment_container(data: bytes) -> tuple[Any, list[str]]:
    """The element holding fragment ``data``'s nodes and the document tags it
    writes, and what of it could not be rebuilt past libxml2's depth limit
    (empty: all of it; `_deep`).

    The markup is parsed after `FRAGMENT_START` with its
    ``<html>``/``<head>``/``<body>`` renamed (`mark_document_tags`) and
    named back; if that fails, once more as written.
    """
    found = _mark(data, FRAGMENT_START)
    if found is None:
        return _fragment_body(FRAGMENT_START + data)
    marked, starts, ends = found
    container, problems = _fragment_body(marked)
    if not unmark_document_tags(container, starts, ends):
        return _fragment_body(FRAGMENT_START + data)
    return container, problems


def _fragment_body(document: bytes) -> tuple[Any, list[str]]:
    """The element holding the fragment's nodes in ``document``: its
    ``<body>``, whole however deep the markup nests (`keep_whole_html`),
    and what could not be rebuilt."""
    # One read of the bytes: libxml2's push parser (``feed``, ``close``)
    # took 5% longer for the same tree.
    root = etree.fromstring(document, utf8_html_parser())
    problems = keep_whole_html(root, document)
    body = root.find("body")
    return (body if body is not None else root), problems


def unmark_document_tags(container: Any, starts: int, ends: int) -> bool:
    """Name back the tags `mark_document_tags` renamed, under ``container``.

    False unless each renamed start tag and each end tag's mark became an
    element: one renamed where libxml2 read text after all (an attribute
    value, markup the scan reads differently) would be text; the caller
    then parses the markup again, unmarked.  They are looked for first
    among the container's children and inside the renamed elements found
    there (a page's ``<html>``, ``<head>``, ``<body>``): walking the whole
    tree for them cost as much as the scan that renamed them.
    """
    found: list[Any] = []
    _written_near_top(container, found)
    if len(found) != starts + ends:
        found = list(container.iter(*_WRITTEN_TAGS))
    marks = []
    for el in found:
        tag = el.tag
        if tag.startswith(_END_MARK):
            marks.append(el)
        else:
            el.tag = tag[len(_WRITTEN) :]
    if len(marks) != ends or len(found) - ends != starts:
        return False
    for mark in marks:
        # An end tag libxml2 read as attribute names (``<p a=x </body>``)
        # has its mark right after the start tag it was read in, and left
        # its renamed name there.
        for near in (mark.getparent(), mark.getprevious()):
            names = [] if near is None else near.keys()  # an element's: not a dict
            if any(name.startswith(_WRITTEN) for name in names):
                return False
    # An end tag libxml2 applied has its mark right after the element it
    # closed.  It leaves an element open at an end tag it does not know when
    # the element ranks higher (``<div>``, ``<table>``: its htmlEndPriority);
    # html.parser closes everything up to the tag named.  Decided on
    # libxml2's tree, before any is closed here.
    unapplied = []
    for mark in marks:
        closes = mark.tag[len(_END_MARK) :]
        before = mark.getprevious()
        unapplied.append(
            None if before is not None and before.tag == closes else closes
        )
    closed = 0
    try:
        for mark, closes in zip(marks, unapplied, strict=True):
            if closes is not None:
                for target in mark.iterancestors(closes):
                    if target is container or target.getparent() is None:
                        break  # a stray end tag: html.parser ignores it
                    closed += 1
                    if closed > MAX_CLOSED_HERE:
                        return False
                    _close_at(mark, target)
                    break
            _drop_mark(mark)
    except ValueError:
        # Text moved here holds a control character libxml2 kept from the
        # markup and lxml refuses to set.
        return False
    return True


def _close_at(mark: Any, target: Any) -> None:
    """Move what follows ``mark`` inside ``target`` to just after ``target``."""
    rest, target.tail = target.tail, None
    last, node = target, mark
    while node is not target:
        text, node.tail = node.tail, None
        if text:
            last.tail = (last.tail or "") + text
        for sibling in list(node.itersiblings()):
            last.addnext(sibling)  # its tail goes with it
            last = sibling
        node = node.getparent()
    if rest:
        last.tail = (last.tail or "") + rest


def _drop_mark(mark: Any) -> None:
    """Remove an end tag's (empty) mark, its tail kept where it was."""
    parent, tail = mark.getparent(), mark.tail
    if tail:
        before = mark.getprevious()
        try:
            if before is not None:
                before.tail = (before.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
        except ValueError:
            # A control character libxml2 kept, which lxml refuses to set:
            # lxml's C joins the texts when it strips the mark (a walk of
            # the parent's subtree, so only here).
            mark.tag = _DROPPED
            etree.strip_tags(parent, _DROPPED)
            return
    parent.remove(mark)


def _written_near_top(parent: Any, found: list[Any]) -> None:
    """The renamed elements among ``parent``'s children and inside those, in order.

    Each renamed tag makes at most one element, so when these are as many
    as were renamed they are all of them; the whole tree is walked only
    when they are not (a ``<body>`` inside a ``<div>``).
    """
    for el in parent.iterchildren(*_WRITTEN_TAGS):  # no proxy for the others
        found.append(el)
        if not el.tag.startswith(_END_MARK):
            _written_near_top(el, found)
