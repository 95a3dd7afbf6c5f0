"""``parse_only``: bs4's strained parse, emulated after the whole parse."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ._strings import Doctype, NavigableString
from ._tables import ASCII_SPACES
from ._tag import Tag

if TYPE_CHECKING:
    from ._soup import Soup
    from ._strainer import ElementFilter


#: bs4's ``BeautifulSoup.ASCII_SPACES``: what makes a string whitespace-only.


def strain(soup: Soup, parse_only: ElementFilter) -> None:
    """Keep only what bs4's builder would have created with ``parse_only``.

    bs4 asks the filter about each tag and string while nothing it allowed
    is open: an allowed tag is kept with all its contents, a refused tag is
    left out but its contents are asked about in turn.  The soup is parsed
    whole here (lxml has no such hook), then holds copies of what was kept,
    as a fragment holds its nodes; when only strings are kept, as a document
    without elements holds its strings (and its doctype).  A doctype kept
    with tags is left out: a fragment holds none.
    """
    kept: list[Any] = []
    pending: list[Any] = list(reversed(soup.contents))
    while pending:
        node = pending.pop()
        if isinstance(node, Tag):
            el = node._el
            attrs = dict(el.attrib) if el is not None else {}
            if parse_only.allow_tag_creation(node.prefix, node.name, attrs):
                kept.append(copy.copy(node))
            else:
                pending.extend(reversed(node.contents))
        elif isinstance(node, NavigableString):
            # No tag is open here in bs4's parse (none was created), so not
            # a ``<pre>`` either: whitespace collapses as outside one.
            if not node.strip(ASCII_SPACES) and node:
                node = type(node)("\n" if "\n" in node else " ")
            if parse_only.allow_string_creation(node):
                kept.append(node)
    is_xml = soup.is_xml
    encoding = soup.original_encoding
    declared = soup.declared_html_encoding
    strings_only = not any(isinstance(node, Tag) for node in kept)
    old = soup._doc
    mode = old._mode if strings_only else "fragment"
    old.release()  # (the soup now stands for a new document)
    type(soup).__init__(soup, "", mode, base_url=old._base_url)
    doc = soup._doc
    soup.is_xml = is_xml
    soup.original_encoding = encoding
    soup.declared_html_encoding = declared
    if strings_only and mode != "fragment":
        # A document without elements holds its strings at its top level;
        # a fragment holds them in its container, below.
        if kept and isinstance(kept[0], Doctype):
            doc._top_doctype = Doctype._synthetic(str(kept[0]), doc)  # type: ignore[assignment]
        doc._top_trailer = [
            type(node)._synthetic(str(node), doc)
            for node in kept
            if not isinstance(node, Doctype)
        ]
        return
    for node in kept:
        if isinstance(node, Doctype):
            continue
        if isinstance(node, NavigableString):
            node = type(node)(str(node))
        soup.append(node)
