"""Characters that HTML or XML 1.0 forbid in text: found and dropped by `clean`.

What `clean` gives back goes into feeds: JSON, CSV, and XML, whose parsers
stop at a character XML 1.0 does not allow.  libxml2's HTML parser keeps
them all (a ``\\x1d`` in a page's text, ``&#29;``), so `clean` drops the
characters that either standard forbids in text and attribute values:

- XML 1.0 (Fifth Edition), section 2.2, production [2] ``Char``: ``#x9 |
  #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]``.  Out:
  the C0 controls but tab, line feed and carriage return (form feed
  included), surrogates, U+FFFE and U+FFFF.
- HTML (the WHATWG Living Standard, 13.1.4 "Text", and 13.2.3.5 on the
  input stream): text "must not contain control characters other than
  ASCII whitespace" nor noncharacters, a *control* being a C0 control or
  U+007F DELETE to U+009F (Infra).  Out: C0 controls but tab, line feed,
  form feed and carriage return, U+007F-U+009F, and the noncharacters
  U+FDD0-U+FDEF and U+xFFFE/U+xFFFF of every plane.

Both lists are dropped, so that the output is both well-formed XML text and
conforming HTML text.  U+007F-U+009F are XML characters, but HTML forbids
them and a browser shows nothing a reader needs for them (its parser maps
``&#150;`` to an en dash as libxml2 does; only a raw C1 control is left, a page
decoded in the wrong encoding).  Form feed is the one kept by HTML (it is
ASCII whitespace) and refused by XML: it becomes a space, which a browser
reads the same way outside ``<pre>``.  NUL never reaches a tree (libxml2
makes it U+FFFD), nor do lone surrogates (a string's are made U+FFFD before
the parse); both are in the list all the same, for trees made by hand.
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from .._tree._attrs import attribute_items
from ._markup import namespaced_names, set_text

__all__ = [
    "ENCODED_FORBIDDEN",
    "drop_characters",
    "drop_forbidden",
    "has_forbidden",
    "tree_has_forbidden",
]

#: The characters to drop, and (U+1FFFE up) every character of planes 2-16,
#: whose noncharacters a search then tells apart (`_is_forbidden`): one range
#: keeps the search as fast as for the Basic Multilingual Plane alone; a
#: class listing the 32 other noncharacters one by one made it ten times
#: slower.
_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
    "\U0001fffe-\U0010ffff]"
)
#: Where lxml's XML serializer wrote a character XML forbids (it writes
#: C0 controls as this reference; a real U+FFFD is written as itself).
_REFUSED = b"&#xFFFD;"


def _is_forbidden(char: str) -> bool:
    """Whether a character `_FORBIDDEN` found is one to drop (not plane 2-16 text)."""
    return char < "\U0001fffe" or ord(char) & 0xFFFE == 0xFFFE


#: The ones in ASCII, as bytes: deleting them in C (`bytes.translate`) is
#: twenty times faster than a search.
_ASCII_FORBIDDEN = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
#: The same, percent-encoded in a URL (UTF-8): what `absolutize_links`
#: makes of them.
ENCODED_FORBIDDEN = re.compile(
    "%(?:0[0-8BbCcEeFf]|1[0-9A-Fa-f]|7[Ff]|[Cc]2%[89][0-9A-Fa-f]|[Ee][Ff]%[Bb]7%[89AaBb][0-9A-Fa-f]"
    "|[Ee][Ff]%[Bb][Ff]%[Bb][EeFf]|[Ff][0-4]%[89AaBb][Ff]%[Bb][Ff]%[Bb][EeFf])"
)


#: The non-ASCII characters to drop, as UTF-8 (lone surrogates as
#: ``surrogatepass`` writes them), by the byte each starts with, which
#: ``in`` finds with ``memchr`` before a search runs (a two-byte ``in`` is a
#: hundred times slower): U+0080-U+009F; the surrogates; U+FDD0-U+FDEF and
#: U+FFFE/U+FFFF; U+xFFFE/U+xFFFF of planes 1-16.
_UTF8_FORBIDDEN = (
    (b"\xc2", re.compile(b"\xc2[\x80-\x9f]")),
    (b"\xed", re.compile(b"\xed[\xa0-\xbf]")),
    (b"\xef", re.compile(b"\xef(?:\xb7[\x90-\xaf]|\xbf[\xbe\xbf])")),
    *(
        (bytes([lead]), re.compile(bytes([lead]) + b"[\x8f\x9f\xaf\xbf]\xbf[\xbe\xbf]"))
        for lead in range(0xF0, 0xF5)
    ),
)


def has_forbidden(text: str) -> bool:
    """Whether *text* holds a character `drop_forbidden` drops or replaces.

    Asked of every string `clean` writes: on its UTF-8 bytes, where C0
    controls are single bytes (one ``translate`` in C) and each other kind
    starts with a byte ``memchr`` finds; a search of the text itself, one
    character class per character, took three times as long.
    """
    return _utf8_has_forbidden(text.encode("utf-8", "surrogatepass"))


def _utf8_has_forbidden(data: bytes) -> bool:
    """`has_forbidden` of text as UTF-8 bytes."""
    if len(data.translate(None, _ASCII_FORBIDDEN)) != len(data):
        return True
    return not data.isascii() and any(
        start in data and pattern.search(data) is not None
        for start, pattern in _UTF8_FORBIDDEN
    )


def drop_forbidden(text: str) -> tuple[str, int]:
    """*text* without the characters HTML or XML forbid, and how many there were.

    A form feed becomes a space (HTML whitespace); the others go.

    >>> drop_forbidden("a\\x1db\\x0cc\\x85\\ufdd0")
    ('ab c', 4)
    """
    count = 0

    def replace(found: re.Match[str]) -> str:
        nonlocal count
        char = found.group()
        if not _is_forbidden(char):
            return char
        count += 1
        return " " if char == "\x0c" else ""

    return _FORBIDDEN.sub(replace, text), count


def tree_has_forbidden(el: etree._Element) -> bool:
    """Whether *el* (text, attribute values, comments) holds a character to drop.

    One serialization in C and one search of its bytes: lxml writes the
    characters XML refuses as ``&#xFFFD;``, the others as themselves.
    """
    xml = etree.tostring(el, encoding="utf-8", with_tail=False)
    return _REFUSED in xml or _utf8_has_forbidden(xml)


def drop_characters(el: etree._Element) -> int:
    """Drop the forbidden characters from *el*'s content in place; return how many.

    Texts, tails (but *el*'s own), comments, processing instructions and
    attribute values.  An attribute whose name lxml cannot address (the
    walk of `clean` removes those) is left as it is.
    """
    removed = 0
    node: Any
    for node in el.iter():
        tag = node.tag
        if tag is etree.Entity:
            continue
        text = node.text
        if text and has_forbidden(text):
            text, count = drop_forbidden(text)
            set_text(node, False, text or None)
            removed += count
        tail = node.tail
        if tail and node is not el and has_forbidden(tail):
            tail, count = drop_forbidden(tail)
            set_text(node, True, tail or None)
            removed += count
        if isinstance(tag, str) and len(node.attrib):
            removed += _drop_in_attributes(node)
    return removed


def _drop_in_attributes(node: Any) -> int:
    """`drop_characters` for one element's attribute values."""
    removed = 0
    items = [(k, v) for k, v in attribute_items(node) if has_forbidden(v)]
    namespaced = namespaced_names(node) if items else set()
    for name, value in items:
        if name[:1] == "{" and name not in namespaced:
            continue  # a plain name lxml would read as a namespace ("{}src")
        value, count = drop_forbidden(value)
        try:
            node.set(name, value)
        except ValueError:
            continue  # a name lxml refuses (a control character)
        removed += count
    return removed
