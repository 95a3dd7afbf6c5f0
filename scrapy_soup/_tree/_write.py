"""The soup's one writer of HTML: an lxml tree as bs4's ``str()`` writes it.

``str()``, ``decode()``, ``encode()`` and ``decode_contents()`` of an HTML
tree, and the strings `clean`, `absolutize_links` and the item pipelines
hand back, are written here straight from the lxml tree: no event tuple and
no formatter call per node, several times faster than the general renderer
(`_output.render`, bs4's ``Tag.decode`` with any formatter, pretty-printing,
XML).  `fast_decode` is the one place that chooses: this writer for the
``"minimal"`` formatter without indentation, while the tree and lxml agree
(`Document._beside_lxml`: no edit left what only the soup keeps beside the
tree), the renderer otherwise.

It mirrors the renderer rule by rule, with the tree's tables; tests compare
the two outputs on every corpus page.  The second half of the module (the
C path) writes a tree `clean` has made plain through lxml's own serializer.
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

from lxml import etree

from ._attrs import (
    CDATA_LIST_ATTRIBUTES,
    NOT_XML,
    attribute_items,
    normalize_multi,
    write_attributes,
)
from ._classes import classes
from ._tables import (
    ASCII_SPACES,
    CDATA_CONTAINING_TAGS,
    COMMENT_NODE,
    PI_NODE,
    PRESERVE_WHITESPACE_TAGS,
    PYTHON_SPECIFIC_ENCODINGS,
    VOID_ELEMENTS,
)

if TYPE_CHECKING:
    from ._node import PageElement

__all__ = [
    "MULTI_VALUED",
    "contents_html",
    "contents_html_from_xml",
    "element_html",
    "fast_decode",
    "meta_substitution",
    "needs_settling",
    "settle_attributes",
]

_UNIVERSAL = CDATA_LIST_ATTRIBUTES["*"]
_MULTI: dict[str, frozenset[str]] = {
    tag: names | _UNIVERSAL for tag, names in CDATA_LIST_ATTRIBUTES.items()
}
#: bs4 rewrites a ``<meta>``'s declared charset to the output encoding
#: (``str()`` renders for UTF-8).
_ENCODING = "utf-8"


def _escape(text: str) -> str:
    """The "minimal" formatter: ``&``, ``<`` and ``>`` as entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _start_tag(el: Any, tag: str, keys: list[str], empty: bool, settle: bool) -> str:
    """An opening tag as bs4 writes it: attributes sorted, values quoted.

    *keys* are ``el.keys()`` (not empty): the values are read in linear time.
    """
    name = tag.split("}", 1)[1] if tag[0] == "{" else tag
    items = attribute_items(el, keys)
    multi = _MULTI.get(tag, _UNIVERSAL)
    if len(items) == 1 and name != "meta":
        # The common case once cleaned (<a href>, <img src>): nothing to
        # sort, and only the one value to look at.
        key, value = items[0]
        if key not in multi:
            if "&" in value or "<" in value or ">" in value:
                value = _escape(value)
            if '"' not in value:
                return (
                    f'<{name} {key}="{value}"/>'
                    if empty
                    else f'<{name} {key}="{value}">'
                )
    if not multi.isdisjoint(keys):
        items = [(k, normalize_multi(v) if k in multi else v) for k, v in items]
        if settle:
            _settle_attributes(el, items, multi)
    if name == "meta":
        items = meta_substitution(items, _ENCODING)
    if len(items) > 1:
        unsorted = items
        items = sorted(items)
        if settle and items != unsorted:
            _settle_order(el, items)
    parts = [f"<{name}"]
    for key, value in items:
        if "&" in value or "<" in value or ">" in value:
            value = _escape(value)
        if '"' in value:
            if "'" in value:
                parts.append(f' {key}="{value.replace(chr(34), "&quot;")}"')
            else:
                parts.append(f" {key}='{value}'")
        else:
            parts.append(f' {key}="{value}"')
    parts.append("/>" if empty else ">")
    return "".join(parts)


def _settle_attributes(
    el: Any, items: list[tuple[str, str]], multi: frozenset[str]
) -> None:
    """Write normalized multi-valued attributes back (see `contents_html`)."""
    for key, value in items:
        if key in multi and el.get(key) != value:
            # Only characters lxml refuses fail: the trees then differ and
            # `clean` takes its slow path.
            with contextlib.suppress(ValueError):
                el.set(key, value)


def _settle_order(el: Any, items: list[tuple[str, str]]) -> None:
    """Set the attributes again in output order (see `contents_html`).

    A value lxml would refuse to write back (libxml2 keeps control
    characters it parsed) leaves the order as it is: the trees then differ
    and `clean` takes its slow path, as for `_settle_attributes`.
    """
    values = dict(attribute_items(el))
    if any(NOT_XML.search(v) for v in values.values()):
        return
    write_attributes(el, [(key, values[key]) for key, _ in items])


def _bare_tag(tag: str, empty: bool) -> str:
    """An opening tag without attributes; cached per tag name."""
    name = tag.split("}", 1)[1] if tag[0] == "{" else tag
    found = _BARE[empty][tag] = f"<{name}/>" if empty else f"<{name}>"
    return found


def _end_tag(tag: str) -> str:
    """A closing tag; cached per tag name."""
    name = tag.split("}", 1)[1] if tag[0] == "{" else tag
    found = _END[tag] = f"</{name}>"
    return found


#: Tags without attributes, and closing tags, by lxml tag (a few hundred
#: names at most in practice; the parser lowercases HTML names).
_BARE: tuple[dict[str, str], dict[str, str]] = ({}, {})
_END: dict[str, str] = {}


_CHARSET_RE = re.compile(r"((^|;)\s*charset=)([^;]*)", re.M)


def meta_substitution(
    items: list[tuple[str, Any]], encoding: str
) -> list[tuple[str, Any]]:
    """A ``<meta>``'s declared charset rewritten to the output *encoding*, as bs4 does."""
    attrs = dict(items)
    if "charset" in attrs:
        value = "" if encoding in PYTHON_SPECIFIC_ENCODINGS else encoding
        return [(k, value if k == "charset" else v) for k, v in items]
    content = attrs.get("content")
    http_equiv = attrs.get("http-equiv")
    if (
        content is not None
        and http_equiv is not None
        and http_equiv.lower() == "content-type"
    ):
        if encoding in PYTHON_SPECIFIC_ENCODINGS:
            new = _CHARSET_RE.sub("", content)
        else:
            new = _CHARSET_RE.sub(lambda m: m.group(1) + encoding, content)
        return [(k, new if k == "content" else v) for k, v in items]
    return items


def _in_preserving(el: Any) -> int:
    """1 if *el* is inside a ``<pre>``/``<textarea>`` (whitespace kept), else 0."""
    if el is None:
        return 0
    if el.tag in PRESERVE_WHITESPACE_TAGS:
        return 1
    return 1 if any(True for _ in el.iterancestors(*PRESERVE_WHITESPACE_TAGS)) else 0


def contents_html(
    el: etree._Element, settle: bool = False, keep_space: bool = False
) -> str:
    """*el*'s contents (not *el*, not its tail) as ``str()`` of a soup over it writes them.

    The same as ``Soup(el, "fragment").decode()``, for an HTML tree.
    Strings are only escaped, and whitespace-only ones collapsed, when a
    cheap test says they may need it (`_string_html`).

    With *settle*, what the output normalizes is written back into the tree
    (whitespace-only strings collapsed, multi-valued attributes' spacing,
    the attributes' order), so
    that the tree equals the parse of the output when the parser keeps the
    structure: `scrapy_soup.markup.clean` compares the two to know it is done.

    With *keep_space* (the html5 mode's tree: ``Document._collapses``), no
    string is collapsed, as if a ``<pre>`` enclosed them all.
    """
    out: list[str] = []
    _write_contents(el, out, settle, keep_space)
    return "".join(out)


def _write_contents(el: Any, out: list[str], settle: bool, keep_space: bool) -> None:
    """Append `contents_html` of *el* to *out*."""
    preserve = (
        _in_preserving(el.getparent())
        + (1 if el.tag in PRESERVE_WHITESPACE_TAGS else 0)
        + keep_space
    )
    raw = el.text
    if raw:
        cdata = el.tag in CDATA_CONTAINING_TAGS
        out.append(_text_html(el, raw, preserve, cdata, settle))
    _write_children(el, out, preserve, settle)


def element_html(el: etree._Element, keep_space: bool = False) -> str:
    """*el* itself and its contents (not its tail) as ``str()`` of its Tag
    writes them (*keep_space*: as `contents_html`)."""
    out: list[str] = []
    _write_element(el, out, keep_space)
    return "".join(out)


def _write_element(el: Any, out: list[str], keep_space: bool) -> None:
    """Append `element_html` of *el* to *out*."""
    tag: str = el.tag
    keys = el.keys()
    if not el.text and not len(el) and tag in VOID_ELEMENTS:
        if keys:
            out.append(_start_tag(el, tag, keys, True, False))
        else:
            out.append(_BARE[1].get(tag) or _bare_tag(tag, True))
        return
    if keys:
        out.append(_start_tag(el, tag, keys, False, False))
    else:
        out.append(_BARE[0].get(tag) or _bare_tag(tag, False))
    _write_contents(el, out, False, keep_space)
    out.append(_END.get(tag) or _end_tag(tag))


def _document_html(doc: Any) -> str:
    """A document soup's children (bs4's document level) and its root element.

    The doctype, comments and strings around the root are the soup's own
    (`Document._top_children`), each written as its ``output_ready()``.
    """
    out: list[str] = []
    keep_space = not doc._collapses
    for child in doc._top_children():
        el = getattr(child, "_el", None)
        if el is not None and isinstance(el.tag, str):
            _write_element(el, out, keep_space)
        else:
            out.append(child.output_ready())
    return "".join(out)


def fast_decode(
    node: PageElement,
    indent_level: int | bool | None,
    eventual_encoding: str | None,
    formatter: object,
    contents_only: bool,
) -> str | None:
    """What `_output.render` returns, written by this module; None where it cannot be.

    The one place that chooses between the two writers.  This one writes
    a Tag or soup of an HTML tree with the ``"minimal"`` formatter, no
    indentation, for UTF-8 output (a ``<meta>`` charset names it), while the
    tree and lxml agree: an edit that left what only the soup keeps beside
    lxml's tree (`Document._beside_lxml`) sends output to the renderer.
    """
    if (
        indent_level is not None
        or eventual_encoding != _ENCODING
        or formatter != "minimal"
        or not isinstance(node, classes.Tag)
    ):
        return None
    doc = node._doc
    if doc is None or doc._mode == "xml" or doc._beside_lxml:
        return None
    el = node._el
    if isinstance(node, classes.Soup):
        if node.is_xml:  # set by the user: an XML declaration and formatter
            return None
        # A fragment soup is its container, which is never written.
        return _document_html(doc) if el is None else contents_html(el)
    keep_space = not doc._collapses
    if contents_only:
        return contents_html(el, keep_space=keep_space)
    return element_html(el, keep_space)


def _text_html(node: Any, raw: str, preserve: int, cdata: bool, settle: bool) -> str:
    """A non-empty ``.text`` as the "minimal" formatter writes it.

    Whitespace-only, outside ``<pre>``/``<textarea>`` (*preserve*): one
    newline or one space (and, with *settle*, so in the tree too).  Else
    escaped, but directly inside ``<script>``/``<style>`` (*cdata*).
    `_write_children` writes the same rule out inline for each node.
    """
    if not preserve and raw[0] in ASCII_SPACES and not raw.strip(ASCII_SPACES):
        raw = "\n" if "\n" in raw else " "
        if settle:
            node.text = raw
    elif not cdata and ("&" in raw or "<" in raw or ">" in raw):
        raw = _escape(raw)
    return raw


def _write_children(el: Any, out: list[str], preserve: int, settle: bool) -> None:
    """Append the output of *el*'s children and their tails to *out*, depth first.

    An explicit stack, not recursion: deep trees do not reach the
    recursion limit.  *preserve* counts the ``<pre>``/``<textarea>``
    around the current node.  Each node's own work is written out here
    (see `_string_html` for the string rule) rather than called: every
    written node goes through this loop, and a call per node or per tail
    measured 2-3% slower on the corpus.
    """
    append = out.append
    escape = _escape
    void = VOID_ELEMENTS
    cdata = CDATA_CONTAINING_TAGS
    keep = PRESERVE_WHITESPACE_TAGS
    spaces = ASCII_SPACES
    bare, bare_empty = _BARE
    ends = _END
    stack: list[tuple[Any, Any]] = [(el, iter(el))]
    while stack:
        parent, children = stack[-1]
        for child in children:
            tag = child.tag
            if tag.__class__ is str:
                raw = child.text
                keys = child.keys()
                leaf = not len(child)
                if leaf and not raw and tag in void:
                    if keys:
                        append(_start_tag(child, tag, keys, True, settle))
                    else:
                        append(bare_empty.get(tag) or _bare_tag(tag, True))
                else:
                    if keys:
                        append(_start_tag(child, tag, keys, False, settle))
                    else:
                        append(bare.get(tag) or _bare_tag(tag, False))
                    if raw:
                        if (
                            not preserve
                            and tag not in keep
                            and raw[0] in spaces
                            and not raw.strip(spaces)
                        ):
                            raw = "\n" if "\n" in raw else " "
                            if settle:
                                child.text = raw
                        elif tag not in cdata and (
                            "&" in raw or "<" in raw or ">" in raw
                        ):
                            raw = escape(raw)
                        append(raw)
                    if not leaf:
                        if tag in keep:
                            preserve += 1
                        stack.append((child, iter(child)))
                        break
                    # A leaf (most elements): written whole, no stack frame.
                    append(ends.get(tag) or _end_tag(tag))
            else:
                append(_special(child, parent, preserve))
            raw = child.tail
            if raw:
                if not preserve and raw[0] in spaces and not raw.strip(spaces):
                    raw = "\n" if "\n" in raw else " "
                    if settle:
                        child.tail = raw
                elif (
                    "&" in raw or "<" in raw or ">" in raw
                ) and parent.tag not in cdata:
                    raw = escape(raw)
                append(raw)
        else:
            stack.pop()
            if not stack:
                break
            tag = parent.tag
            if tag in keep:
                preserve -= 1
            append(ends.get(tag) or _end_tag(tag))
            raw = parent.tail
            if raw:
                # The rule written out as for the tails above, not called
                # (a call per closed element measured 2-4% slower).
                if not preserve and raw[0] in spaces and not raw.strip(spaces):
                    raw = "\n" if "\n" in raw else " "
                    if settle:
                        parent.tail = raw
                elif ("&" in raw or "<" in raw or ">" in raw) and stack[-1][
                    0
                ].tag not in cdata:
                    raw = escape(raw)
                append(raw)


def _special(node: Any, parent: Any, preserve: int) -> str:
    """A comment, processing instruction or entity node, as bs4 writes it."""
    raw = node.text or ""
    if isinstance(node, PI_NODE):
        # bs4's lxml builder makes a PI's string of "target data".
        return f"<?{node.target} {raw}>"
    if not preserve and not raw.strip(ASCII_SPACES):
        raw = "\n" if "\n" in raw else " "
    if isinstance(node, COMMENT_NODE):
        return f"<!--{raw}-->"
    return raw if parent.tag in CDATA_CONTAINING_TAGS else _escape(raw)


# -- the C path -------------------------------------------------------------
#
# For a tree `clean` has made plain (see `contents_html_from_xml`), lxml's
# XML serializer writes the same text as `contents_html` but for a few
# spellings, which are rewritten on the string: whitespace-only strings
# collapsed, ``<p/>`` as ``<p></p>``, tabs and newlines in attribute values
# written as themselves, values holding ``"`` single-quoted.  In the XML
# text, ``<`` and ``>`` are escaped everywhere but in markup, so ``>`` then
# whitespace then ``<`` is exactly one whitespace-only string (adjacent text
# nodes included, as bs4 sees them), and ``/>`` always ends an empty element.

#: One whitespace-only string between two tags, holding a newline / not.
_WS_NEWLINE = re.compile(r">[\t\x0c\r ]*\n[\t\n\x0c\r ]*<")
_WS_OTHER = re.compile(r">[\t\x0c\r ]+<")
#: Start and end tags of the elements whose strings are kept as they are.
_PRESERVING = re.compile(r"<(/?)(?:pre|textarea)(?=[\s/>])[^>]*>")
#: An attribute value the XML serializer wrote with ``&quot;``.
_QUOTED = re.compile(r'="([^"]*&quot;[^"]*)"')
#: Character references the XML serializer writes besides 9 and 10.
_OTHER_REFERENCE = re.compile(r"&#(?!9;|10;)")


def _collapse(xml: str) -> str:
    """Collapse whitespace-only strings as the serializer does (ASCII spaces)."""
    return _WS_OTHER.sub("> <", _WS_NEWLINE.sub(">\n<", xml))


def _collapse_outside_preserving(xml: str) -> str:
    """`_collapse`, leaving the strings inside ``<pre>``/``<textarea>`` alone."""
    out: list[str] = []
    depth = 0
    done = 0
    for match in _PRESERVING.finditer(xml):
        end_tag = bool(match.group(1))
        if not end_tag and xml[match.end() - 2] == "/":
            continue  # <pre/>: empty
        if depth == 0 and not end_tag:
            # Outside up to and with the start tag; inside from here.
            out.append(_collapse(xml[done : match.end()]))
            done = match.end()
        depth += -1 if end_tag else 1
        if depth == 0:
            out.append(xml[done : match.start()])
            done = match.start()
        depth = max(depth, 0)
    out.append(_collapse(xml[done:]) if depth == 0 else xml[done:])
    return "".join(out)


def _requote(match: re.Match[str]) -> str:
    value = match.group(1)
    if "'" in value:
        return match.group(0)
    return "='" + value.replace("&quot;", '"') + "'"


def _open_empty(xml: str) -> str:
    """``<p/>`` as ``<p></p>`` but for void elements (``<br/>``)."""
    parts = xml.split("/>")
    void = VOID_ELEMENTS
    for i in range(len(parts) - 1):
        part = parts[i]
        start = part.rfind("<") + 1
        space = part.find(" ", start)
        name = part[start:space] if space != -1 else part[start:]
        parts[i] = part + ("/" if name in void else f"></{name}")
    return ">".join(parts)


#: Every attribute name some tag takes as multi-valued.
MULTI_VALUED: frozenset[str] = frozenset().union(*_MULTI.values())


def needs_settling(tag: str, names: list[str]) -> bool:
    """Whether an element's kept attributes must be rewritten for `contents_html_from_xml`.

    They must be in sorted order, and multi-valued ones (``class``) spaced
    as `contents_html` writes them.
    """
    multi = _MULTI.get(tag, _UNIVERSAL)
    return names != sorted(names) or not multi.isdisjoint(names)


def settle_attributes(el: Any) -> bool:
    """Write an element's attributes back as `contents_html` writes them; False if lxml refused.

    Multi-valued attributes' spacing normalized, the attributes sorted.
    """
    items = attribute_items(el)
    multi = _MULTI.get(el.tag, _UNIVERSAL)
    settled = sorted((k, normalize_multi(v) if k in multi else v) for k, v in items)
    if settled == items:
        return True
    if any(NOT_XML.search(v) for _, v in items):
        # lxml would refuse to set the value again (libxml2 keeps the
        # control characters it parsed): leave the element as it is.
        return False
    return write_attributes(el, settled) == len(settled)


def contents_html_from_xml(el: etree._Element) -> tuple[str, str] | None:
    """`contents_html(el, settle=True)` from lxml's serializer; None where it cannot.

    Returns the output and *el*'s XML serialization as the settled tree
    gives it (what `scrapy_soup.clean` compares with the parse of the
    output).  The caller vouches that the tree is plain: elements and text
    only (no comments or processing instructions); tag and attribute names
    of ASCII letters, digits and ``-_.:``; no ``<script>``, ``<style>`` or
    ``<meta>`` (their text or attributes are written differently); every
    element's attributes settled (`settle_attributes`); no tail on *el*.
    None when a character the XML serializer writes as a reference (control
    characters, carriage returns) is in the tree.
    """
    xml = etree.tostring(el, encoding="unicode", with_tail=False)
    if "&#" in xml and _OTHER_REFERENCE.search(xml):
        return None
    if "<pre" not in xml and "<textarea" not in xml:
        settled = _collapse(xml)
    else:
        settled = _collapse_outside_preserving(xml)
    out = _open_empty(settled) if "/>" in settled else settled
    if "&" in out:
        if "&#" in out:
            out = out.replace("&#9;", "\t").replace("&#10;", "\n")
        if "&quot;" in out:
            out = _QUOTED.sub(_requote, out)
    start = out.index(">") + 1
    if start == len(out):
        return "", settled  # <body/>: nothing inside
    return out[start : out.rindex("</")], settled
