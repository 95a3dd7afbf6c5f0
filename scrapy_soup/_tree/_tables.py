"""Tables of HTML that every layer of the tree reads.

Which characters bs4 counts as whitespace, which tags keep it, which change
the class of the strings inside them, which are void, and lxml's node
types.  No imports from the tree package: everything else builds on this.
"""

from __future__ import annotations

from lxml import etree

#: bs4 collapses a string made only of these characters (outside ``<pre>``
#: and ``<textarea>``) to "\n" or " " (``BeautifulSoup.endData``).
ASCII_SPACES = "\x20\x0a\x09\x0c\x0d"
PRESERVE_WHITESPACE_TAGS = frozenset({"pre", "textarea"})
#: The tags that change what a string inside them is (see `TextContext`).
TEXT_CONTEXT_TAGS = PRESERVE_WHITESPACE_TAGS | {
    "rt", "rp", "style", "script", "template"
}  # fmt: skip

#: bs4's ``HTMLFormatter.cdata_containing_tags``: the "minimal" formatter
#: leaves the text directly inside these unescaped.
CDATA_CONTAINING_TAGS = frozenset({"script", "style"})

#: bs4's ``HTMLTreeBuilder.DEFAULT_EMPTY_ELEMENT_TAGS``: rendered ``<br/>``.
VOID_ELEMENTS = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen",
        "link", "menuitem", "meta", "param", "source", "track", "wbr",
        "basefont", "bgsound", "command", "frame", "image", "isindex",
        "nextid", "spacer",
    }
)  # fmt: skip

#: lxml's node types (a text slot is not a node: see `_text`).
COMMENT_NODE = etree._Comment
PI_NODE = etree._ProcessingInstruction
ENTITY_NODE = etree._Entity

#: Encodings that only mean something inside Python: a document encoded with
#: one of them cannot name it in a ``<meta charset>`` (bs4 writes "").
PYTHON_SPECIFIC_ENCODINGS = frozenset(
    {
        "idna",
        "mbcs",
        "oem",
        "palmos",
        "punycode",
        "raw_unicode_escape",
        "undefined",
        "unicode_escape",
        "raw-unicode-escape",
        "unicode-escape",
        "string-escape",
        "string_escape",
    }
)
