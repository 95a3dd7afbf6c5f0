"""The HTML5 mode's parse: the WHATWG tree builder, into an lxml tree.

bs4's ``"html5lib"`` feature parses as a browser does (`<tbody>` added,
``<p>`` closed, misnested ``<a>`` re-parented by the adoption agency); so
does this mode, with turbohtml's tree builder (C) in place of html5lib's
(pure Python, the same algorithm).  Its tree becomes an lxml tree (written
as XML by turbohtml, read back by libxml2: `_xml_tree`), so search, edits,
output and cleaning run on it unchanged, and a Scrapy response's selector
is built on it.

Chosen by measurement (``benchmarks/bench_html5.py``, docs/migrating.md):
on the repository's 36 real pages its tree equals bs4's html5lib tree on
every page, at about a tenth of bs4's html5lib time; html5lib's own lxml
tree builder is as slow as bs4; html5-parser needs lxml built against its
libxml2 (not lxml's wheels); selectolax and markupever give no lxml tree
without a serialization round-trip that libxml2 would parse its own way.

turbohtml is the optional ``html5`` extra: asking for the mode without it
raises `FeatureNotFound` naming what to install.
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
import threading
from typing import Any

from lxml import etree

from ._parse import FeatureNotFound, utf8_html_parser

#: What to install for the mode (the message of the error without it).
INSTALL_HINT = (
    'The html5 parser (bs4\'s "html5lib" feature) needs turbohtml: '
    "pip install 'scrapy-soup[html5]'"
)

#: The C0 controls lxml refuses in a tree (XML 1.0 forbids them).  A browser
#: shows nothing for them; html5lib keeps them, lxml cannot: they are left
#: out, before the parse (docs/migrating.md).
_REFUSED_CONTROLS = re.compile("[\x00-\x08\x0b\x0e-\x1f]")

_turbohtml: Any = None


def _parser() -> Any:
    """The turbohtml module, imported once; `FeatureNotFound` without it."""
    global _turbohtml
    if _turbohtml is None:
        try:
            import turbohtml
            import turbohtml.etree
            import turbohtml.saxparse
        except ImportError as exc:
            hint = INSTALL_HINT
            if sys.version_info < (3, 11):
                hint += " (turbohtml needs Python 3.11 or later)"
            raise FeatureNotFound(hint) from exc
        _turbohtml = turbohtml
    return _turbohtml


def available() -> bool:
    """Whether the html5 mode can parse here (its extra is installed)."""
    try:
        _parser()
    except FeatureNotFound:
        return False
    return True


def parse_html5(markup: str) -> Any:
    """The ``<html>`` element of ``markup`` parsed as the WHATWG algorithm does.

    Its document holds what the page's doctype says (none when the page has
    none: libxml2's invented one is never added) and the comments before
    and after ``<html>`` as the root's siblings, where the soup's document
    level and lxml's serializer both read them.
    """
    return parse_html5_document(markup)[0]


def parse_html5_document(markup: str, data: bytes | None = None) -> tuple[Any, int]:
    """`parse_html5`'s root, and how many comments come before the doctype.

    (lxml's document has its doctype first, whatever comes before it: the
    soup lists those comments before it.)  The tree is turbohtml's read
    back as XML (`_xml_tree`); where that cannot say what the tree holds,
    it is built from the parser's events (`_events_tree`); where lxml's API
    refuses what they hold, from turbohtml's own conversion
    (`_converted_tree`), which costs about three times as much.  ``data``:
    ``markup``'s UTF-8 where the caller has it (searched for controls).
    """
    turbohtml = _parser()
    found = _xml_tree(turbohtml, markup, data)
    if found is not None:
        return found
    if _may_declare_shadow_root(markup) or _has_foreign_prefixes(markup):
        return _converted_tree(turbohtml, markup)
    for attempt in (markup, None):
        if attempt is None:
            if _REFUSED_CONTROLS.search(markup) is None:
                break
            attempt = markup = _REFUSED_CONTROLS.sub("", markup)
        try:
            found = _events_tree(turbohtml, attempt)
        except ValueError:  # a control character lxml refuses, in the text
            continue
        if found is not None:
            return found
    return _converted_tree(turbohtml, markup)


#: The elements with an attribute whose name XML refuses, which turbohtml's
#: XML leaves out (Vue's ``@click`` and ``:class``, ``1a``, ``"``): a
#: character no XML name holds, or a first one no name starts with.
_REFUSED_NAMES = (
    "/html//*[@*[translate(name(), '\"<>=/\\@()[]{}!#$%&*+,;?^`|~', '') != name()"
    " or contains(name(), \"'\") or starts-with(name(), ':')"
    " or contains('0123456789-.', substring(name(), 1, 1))]]"
)

#: libxml2's XML parser for `_xml_tree`, one per thread (`_xml_parser`).
_XML_PARSERS = threading.local()

#: The one error `_xml_tree` lets libxml2 recover from: a prefix no
#: declaration names (``v-bind:href``, ``<g:plusone>``), which it keeps
#: in the name, as HTML does.
_UNDECLARED_PREFIX = "NS_ERR_UNDEFINED_NAMESPACE"


def _xml_parser() -> Any:
    """libxml2's XML parser for `_xml_tree`: nothing fetched or expanded; no
    depth limit short of turbohtml's own; no table of ``xml:id`` values
    (HTML's ``id`` is not one: it cost 40% of the read); recovering, for
    `_UNDECLARED_PREFIX`, whose ``error_log`` is read after each parse."""
    parser = getattr(_XML_PARSERS, "parser", None)
    if parser is None:
        parser = _XML_PARSERS.parser = etree.XMLParser(
            resolve_entities=False,
            no_network=True,
            huge_tree=True,
            collect_ids=False,
            recover=True,
        )
    return parser


#: The namespaces turbohtml's XML serialization declares for foreign content.
_FOREIGN = ("{http://www.w3.org/2000/svg}*", "{http://www.w3.org/1998/Math/MathML}*")

#: The characters `_REFUSED_CONTROLS` matches, each searched for alone
#: in the UTF-8 (a twentieth of a regex's time over a page's text).
_CONTROLS = tuple(bytes([c]) for c in range(32) if chr(c) not in "\t\n\x0c\r")


def _namespaced(document: Any, xml: str) -> list[Any] | None:
    """The elements below ``<html>`` with an attribute whose name XML reads
    as a namespace (``xlink:href``, ``xml:lang``, ``xmlns``); None if an
    element's own name has a colon.

    ``xml``: their XML, searched first (one attribute test in turbohtml's
    XPath costs a tenth of the parse): such a name follows a space there;
    without a declared prefix (``xmlns:fb``) XML refuses a name with one.
    """
    found = []
    if " xmlns=" in xml:
        found += document.xpath("//@xmlns/..")
    if " xml:" in xml or " xmlns:" in xml or " xlink:" in xml:
        found += document.xpath("//@*[contains(name(), ':')]/..")
        if " xmlns:" in xml and document.xpath("//*[contains(name(), ':')]"):
            return None
    html = document.root
    unique = {id(node): node for node in found if node is not html}
    return list(unique.values())


def _xml_tree(
    turbohtml: Any, markup: str, data: bytes | None = None
) -> tuple[Any, int] | None:
    """`parse_html5_document` through turbohtml's tree, read back as XML.

    turbohtml parses and writes its tree as XML in C, libxml2's XML parser
    reads it in C: no Python call per node (benchmarks/README.md).  XML
    reads back exactly what was written (a name with an undeclared prefix,
    ``v-bind:href`` or ``<g:plusone>``, as it is); what it names otherwise
    is put back: ``xml:lang``, ``xlink:href`` and ``xmlns`` attributes
    (namespaced or declarations in XML: `_name_prefixed`,
    `_name_attributes`), attributes whose names XML refuses (``@click``,
    left out of the XML: `_REFUSED_NAMES`), SVG and MathML names (in
    their namespaces), comments the writer alters (``--`` becomes ``- -``)
    and instructions (comments in HTML).  None, for `_events_tree` to
    build it, where the XML cannot hold the tree: a control character, or
    an element in a namespace HTML does not give it (``<nav
    xmlns="http://www.w3.org/1999/html">``).
    """
    if data is None:
        data = markup.encode("utf-8", "surrogatepass")
    if any(control in data for control in _CONTROLS):
        return None
    document = turbohtml.parse(
        markup, positions=False, allow_declarative_shadow_roots=False
    )
    html = document.root
    xml = html.inner_xml
    parser = _xml_parser()
    try:
        # (UTF-8, which libxml2 reads as it is: a str costs it a conversion.)
        parsed = etree.fromstring(f"<html>{xml}</html>".encode(), parser)
    except (etree.XMLSyntaxError, UnicodeEncodeError):
        return None
    if parsed is None or any(
        error.type_name != _UNDECLARED_PREFIX for error in parser.error_log
    ):
        return None
    foreign = ' xmlns="http://www.w3.org/' in xml  # (SVG or MathML in the page)
    for el in parsed.iter(_FOREIGN) if foreign else ():
        el.tag = etree.QName(el).localname
    attributes = document.xpath("count(//@*)") - len(html.attrs)
    if parsed.xpath("count(//@*)") == attributes:
        # Every attribute read back, none as a declaration (``xmlns``):
        # only ``xml:`` and ``xlink:`` names to give back, if any.
        if " xml:" in xml or " xlink:" in xml:
            if not _name_prefixed(parsed):
                namespaced = _namespaced(document, xml)
                if namespaced is None or not _name_attributes(
                    turbohtml, document, namespaced, parsed
                ):
                    return None
            etree.cleanup_namespaces(parsed)
    else:
        namespaced = _namespaced(document, xml)
        if namespaced is None:
            return None
        if namespaced:
            if not _name_attributes(turbohtml, document, namespaced, parsed):
                return None
            etree.cleanup_namespaces(parsed)
        if parsed.xpath("count(//@*)") != attributes:
            # A name XML refuses, left out: searched for last (the search
            # costs half the parse), on the few pages that have one.
            refused = document.xpath(_REFUSED_NAMES)
            if not refused or not _name_attributes(
                turbohtml, document, refused, parsed
            ):
                return None
            if parsed.xpath("count(//@*)") != attributes:
                return None
    if foreign:
        etree.cleanup_namespaces(parsed)
    inner = document.xpath("/html//comment() | /html//processing-instruction()")
    mine = parsed.xpath("//comment() | //processing-instruction()")
    if len(inner) != len(mine):
        return None
    for node, made in zip(inner, mine, strict=True):
        if made.tag is etree.Comment and made.text == node.data:
            continue  # (a comment both ways: most of them)
        text = _comment_text(node)
        comment = _comment(text)
        comment.tail = made.tail
        made.getparent().replace(made, comment)
    doctype = _doctype_of(document)
    root = _skeleton(doctype, [(name, html.attr(name)) for name in html.attrs])
    root.text = parsed.text
    root.extend(parsed)  # (moves each child, its tail with it)
    return root, _place_top_level(document, root)


#: The prefixes turbohtml's XML serialization declares on its own.
_PREFIXES = {
    "http://www.w3.org/XML/1998/namespace": "xml:",
    "http://www.w3.org/1999/xlink": "xlink:",
}


def _name_prefixed(parsed: Any) -> bool:
    """Give ``xml:lang``, ``xlink:href`` back their names, as `_name_attributes`
    does, from the XML tree alone (its attributes are in the page's order);
    False, nothing changed, if libxml2 does not make one of the elements so.
    """
    found = parsed.xpath("//*[@*[namespace-uri()]]")
    specs = []
    for el in found:
        attrs = []
        for name, value in el.items():
            if name[0] == "{":
                namespace, _, name = name[1:].partition("}")
                if namespace not in _PREFIXES:
                    return False
                name = _PREFIXES[namespace] + name
            attrs.append((name, value))
        specs.append((el.tag, attrs))
    made = _html_elements(specs)
    if any(named is None for named in made):
        return False
    for named, el in zip(made, found, strict=True):
        _take_place(named, el)
    return True


def _name_attributes(turbohtml: Any, document: Any, nodes: Any, parsed: Any) -> bool:
    """Give the elements of ``parsed`` standing for ``nodes`` (elements of
    turbohtml's ``document``) their attributes as HTML names them.

    XML reads ``xlink:href`` and ``xml:lang`` as namespaced and ``xmlns``
    as a declaration; lxml's API refuses these names: each such element is
    replaced by one libxml2 makes (`_html_elements`) or turbohtml's
    conversion of it (its attributes as the tree has them, in its order),
    holding the XML tree's text and children.  False when the trees do not
    line up.
    """
    elements = list(parsed.iter(etree.Element))
    # turbohtml hands back one Python object per node (kept alive here):
    # each element's place in document order, ``<html>`` being 0.
    below_html = document.xpath("/html//*")
    places = {id(node): index for index, node in enumerate(below_html, 1)}
    if len(elements) != len(places) + 1:
        return False
    found = []
    for node in nodes:
        index = places.get(id(node), 0)
        el = elements[index]
        if not index or el.tag != node.tag:
            return False
        found.append((index, node, el))
    specs = [(el.tag, [(n, node.attr(n)) for n in node.attrs]) for _, node, el in found]
    for (index, node, el), shell in zip(found, _html_elements(specs), strict=True):
        if shell is None:  # (converts the whole subtree)
            shell = turbohtml.etree.to_lxml_html(turbohtml.etree.ElementView(node))
            if shell.tag != el.tag:
                return False
            del shell[:]
        _take_place(shell, el)
        elements[index] = shell
    return True


def _html_element(name: str, attrs: Any) -> Any:
    """An empty element ``name`` with ``attrs`` (name, value pairs) whatever
    their names (``xml:lang``); None if libxml2 does not make exactly that
    (`_html_elements`)."""
    return _html_elements([(name, attrs)])[0]


def _html_elements(specs: list[tuple[str, Any]]) -> list[Any]:
    """Empty elements of these names and attributes (name, value pairs),
    whatever the names (``xml:lang``, ``xmlns``): each made by libxml2's
    HTML parser, or None where it does not make exactly that.

    lxml's API refuses such names, libxml2 reads them from markup.  It
    lowercases names (SVG's ``viewBox``), which lxml's API takes: the
    attributes after the last name it refuses are set with it.  One parse
    makes them all; where it does not give them in order, one parse each.
    """
    split = [_split(attrs) for _, attrs in specs]
    if len(specs) > 1:
        markup = "".join(
            f"<{name}{_attributes(parsed)}></{name}>"
            for (name, _), (parsed, _) in zip(specs, split, strict=True)
        )
        body = _html_body(markup)
        if (
            body is not None
            and len(body) == len(specs)
            and all(el.tag == name for el, (name, _) in zip(body, specs, strict=True))
        ):
            return [
                _finished(el, name, *parts)
                for el, (name, _), parts in zip(body, specs, split, strict=True)
            ]
    out = []
    for (name, _), (parsed, rest) in zip(specs, split, strict=True):
        body = _html_body(f"<{name}{_attributes(parsed)}></{name}>")
        made = body[0] if body is not None and len(body) == 1 else None
        out.append(None if made is None else _finished(made, name, parsed, rest))
    return out


def _html_body(markup: str) -> Any:
    """The ``<body>`` libxml2's HTML parser makes of ``markup``, if any."""
    holder = etree.fromstring(
        f"<html><body>{markup}</body></html>".encode(), utf8_html_parser()
    )
    return holder.find("body")


def _finished(el: Any, name: str, parsed: Any, rest: Any) -> Any:
    """``el``, made of ``<name parsed>``, with the ``rest`` of the attributes
    set; None if it is not that element."""
    if el.tag != name or el.items() != [(k, v or "") for k, v in parsed]:
        return None
    try:
        for key, value in rest:
            el.set(key, value or "")
    except ValueError:  # (a value lxml refuses: a control character)
        return None
    return el


def _split(attrs: Any) -> tuple[Any, Any]:
    """``attrs`` cut after the last name lxml's API refuses: the attributes
    libxml2's parser must make, and those lxml's API can set after them."""
    attrs = list(attrs)
    last = max(
        (i for i, (name, _) in enumerate(attrs) if not _settable(name)), default=-1
    )
    return attrs[: last + 1], attrs[last + 1 :]


def _take_place(new: Any, old: Any) -> None:
    """Put empty element ``new`` where ``old`` is, with its text, children and tail."""
    text, tail = old.text, old.tail
    # In its document first: the children then move within one document.
    old.getparent().replace(old, new)
    new.text, new.tail = text, tail
    new.extend(old)


def _may_declare_shadow_root(markup: str) -> bool:
    """Whether ``markup`` may hold a ``<template shadowrootmode>``.

    The events leave such a template out (turbohtml attaches it to its host
    as a shadow root); html5lib, which predates them, keeps a template, and
    so do `_xml_tree` and `_converted_tree`.  Three plain searches in C: a
    regex ignoring case cost a quarter of the parse.
    """
    return "hadowroot" in markup or "hadowRoot" in markup or "HADOWROOT" in markup


def _has_foreign_prefixes(markup: str) -> bool:
    """Whether ``markup`` likely has SVG with ``xlink:`` attributes.

    lxml's API refuses their names, and libxml2, which makes such an
    element otherwise (`_events_tree`), lowercases SVG's ``viewBox``:
    these pages go to `_converted_tree` at once, not after a first try.
    """
    return "xlink" in markup


def _converted_tree(turbohtml: Any, markup: str) -> tuple[Any, int]:
    """`parse_html5_document` through turbohtml's tree and its conversion."""
    if _REFUSED_CONTROLS.search(markup) is not None:
        markup = _REFUSED_CONTROLS.sub("", markup)
    # No scripting flag (html5lib's default, and bs4's): <noscript> holds
    # markup.  A <template shadowrootmode> stays a template with its
    # content, as html5lib (which predates declarative shadow roots) keeps it.
    document = turbohtml.parse(
        markup, positions=False, allow_declarative_shadow_roots=False
    )
    _inline_templates(document)
    parsed = turbohtml.etree.to_lxml_html(turbohtml.etree.ElementView(document.root))
    root = _skeleton(_doctype_of(document), ())
    root.text = parsed.text
    for name, value in parsed.items():
        root.set(name, value)
    root.extend(parsed)  # (moves each child, its tail with it)
    _place_comments(document, root)
    _restore_names(document, root)
    return root, _place_top_level(document, root)


def _doctype_of(document: Any) -> tuple[str, str | None, str | None] | None:
    """The name and identifiers of turbohtml ``document``'s doctype, if any."""
    for node in document.children:
        if type(node).__name__ == "Doctype":
            return node.name, node.public_id, node.system_id
    return None


def _place_top_level(document: Any, root: Any) -> int:
    """Put ``document``'s own comments around ``root``; how many come before
    the doctype."""
    last = None  # the last node after the root: None before it
    before_doctype = leading = 0
    for node in document.children:
        kind = type(node).__name__
        if kind == "Doctype":
            before_doctype = leading
        elif kind == "Element":
            last = root
        elif kind in ("Comment", "ProcessingInstruction"):
            leading += last is None
            comment = _comment(_comment_text(node))
            if last is None:
                root.addprevious(comment)
            else:
                last.addnext(comment)
                last = comment
    return before_doctype


def _events_tree(turbohtml: Any, markup: str) -> tuple[Any, int] | None:
    """`parse_html5_document` from the tree builder's events, into lxml's TreeBuilder.

    Both in C but for one Python call per event.  What lxml's API refuses
    (a name with a colon, ``--`` in a comment) is made by libxml2 at the
    end; None when that fails too.  Raises ValueError for a control
    character in the text.
    """
    events = _events_handler(turbohtml)
    try:
        turbohtml.saxparse.sax_parse(markup, events)
    except _NotForEvents:
        return None
    events.builder.close()
    body = events.root
    root = _skeleton(events.found_doctype, events.root_attrs)
    root.text = body.text
    root.extend(body)
    for el, attrs in events.odd:
        named = _html_element(el.tag, attrs)
        if named is None or el.getparent() is None:
            return None
        _take_place(named, el)
    for placeholder, text in events.odd_comments:
        if placeholder.getparent() is None:
            continue  # (one of the trailing comments)
        comment = _comment(text)
        comment.tail = placeholder.tail
        placeholder.getparent().replace(placeholder, comment)
    for text in events.leading:
        root.addprevious(_comment(text))
    last = root
    for text in events.trailing:
        comment = _comment(text)
        last.addnext(comment)
        last = comment
    return root, events.before_doctype


_handler_class: Any = None


def _events_handler(turbohtml: Any) -> Any:
    """A new handler of turbohtml's events building an lxml tree (`_events_tree`)."""
    global _handler_class
    if _handler_class is None:
        _handler_class = _events_class(turbohtml.saxparse.SaxHandler)
    return _handler_class()


class _NotForEvents(Exception):
    """The markup has what `_events_tree` cannot build (a tag name with a colon)."""


def _events_class(base: type) -> type:
    """The class of `_events_handler` (its base is turbohtml's, imported late)."""

    class Events(base):  # type: ignore[misc]
        def __init__(self) -> None:
            # (types-lxml types TreeBuilder's methods as returning None.)
            self.builder: Any = etree.TreeBuilder()
            builder = self.builder
            # Bound in C: no Python call for most events.
            self.characters = builder.data
            self.end_element = builder.end
            self.root: Any = None
            self.root_attrs: Any = ()
            self.found_doctype: tuple[str, str | None, str | None] | None = None
            self.before_doctype = 0
            self.leading: list[str] = []
            self.trailing: list[str] = []
            self.odd: list[tuple[Any, Any]] = []
            self.odd_comments: list[tuple[Any, str]] = []

        def start_element(self, tag: str, attrs: Any) -> None:
            if self.root is None:
                # <html>'s attributes go to the skeleton, which libxml2 makes.
                self.root_attrs = attrs
                self.root = self.builder.start(tag, _NO_ATTRIBUTES)
                return
            try:
                self.builder.start(tag, dict(attrs) if attrs else _NO_ATTRIBUTES)
            except (ValueError, TypeError):
                if ":" in tag:
                    raise _NotForEvents from None
                # A valueless attribute (None), or a name lxml's API refuses
                # (``xml:lang``): libxml2 makes the element at the end.
                kept = {
                    name: "" if value is None else value
                    for name, value in attrs
                    if _settable(name)
                }
                if len(kept) == len(attrs):
                    self.builder.start(tag, kept)
                else:
                    self.odd.append((self.builder.start(tag, _NO_ATTRIBUTES), attrs))

        def comment(self, data: str) -> None:
            if self.root is None:
                self.leading.append(data)
                return
            try:
                made = self.builder.comment(data)
            except ValueError:
                made = self.builder.comment("")
                self.odd_comments.append((made, data))
            if made.getparent() is None:  # after </html>: the document's
                self.trailing.append(data)

        def processing_instruction(self, target: str, data: str) -> None:
            self.comment(_pi_comment(target, data))

        def doctype(
            self, name: str, public_id: str | None, system_id: str | None
        ) -> None:
            self.found_doctype = (name, public_id, system_id)
            self.before_doctype = len(self.leading)

    return Events


_NO_ATTRIBUTES: dict[str, str] = {}


@functools.lru_cache(maxsize=1024)
def _settable(name: str) -> bool:
    """Whether lxml's API takes ``name`` as an attribute name."""
    try:
        etree.Element("x", {name: ""})
    except ValueError:
        return False
    return True


def _place_comments(document: Any, root: Any) -> None:
    """Put the comments inside ``<html>`` where the WHATWG tree has them.

    The conversion to lxml leaves comments out: each is inserted after the
    element or comment it follows (or first in its parent), and the text
    lxml holds there split where the comment stood, in document order.
    """
    elements: dict[int, tuple[Any, Any]] = {}  # id -> (turbohtml node, lxml)
    for comment in document.xpath("//comment() | //processing-instruction()"):
        parent = comment.parent
        if type(parent).__name__ != "Element":
            continue  # the document's own: `parse_html5` places them
        before: list[str] = []
        index = 0  # among the parent's elements and comments
        for sibling in comment.previous_siblings:  # the nearest first
            if type(sibling).__name__ == "Text":
                if not index:
                    before.append(sibling.data)
            else:
                index += 1
        text = "".join(reversed(before))
        el = _lxml_element(parent, root, elements)
        node = _comment(_comment_text(comment))
        if index:
            anchor = el[index - 1]
            rest = anchor.tail or ""
            anchor.addnext(node)
            anchor.tail = text or None
        else:
            rest = el.text or ""
            el.insert(0, node)
            el.text = text or None
        node.tail = rest[len(text) :] or None


def _restore_names(document: Any, root: Any) -> None:
    """Give back the names with a colon (``<g:plusone>``) the conversion changed.

    lxml's API refuses such a name, which libxml2's HTML parser keeps (the
    default mode's tree has them, and bs4's): an element of that name made
    by libxml2 takes the place of the renamed one, with its attributes,
    text and children.
    """
    elements: dict[int, tuple[Any, Any]] = {}
    for node in document.xpath("//*[contains(name(), ':')]"):
        el = _lxml_element(node, root, elements)
        name = node.tag
        if el.tag == name or el.getparent() is None:
            continue
        holder = etree.fromstring(
            f"<html><body><{name}></{name}></body></html>".encode(),
            utf8_html_parser(),
        )
        named = holder[0][0]
        if named.tag != name:
            continue  # not a name libxml2 reads whole either
        try:
            for key, value in el.items():
                named.set(key, value)
        except ValueError:
            continue  # an attribute lxml's API cannot set either: kept as it is
        named.text, named.tail = el.text, el.tail
        named.extend(el)
        el.getparent().replace(el, named)
        elements[id(node)] = (node, named)


def _lxml_element(node: Any, root: Any, found: dict[int, tuple[Any, Any]]) -> Any:
    """The lxml element standing for turbohtml element ``node``: the same
    path of element indexes from ``<html>`` (comments placed so far are
    not counted)."""
    known = found.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    parent = node.parent
    if type(parent).__name__ != "Element":
        el = root
    else:
        index = sum(1 for s in node.previous_siblings if type(s).__name__ == "Element")
        container = _lxml_element(parent, root, found)
        el = next(itertools.islice(container.iterchildren(etree.Element), index, None))
    found[id(node)] = (node, el)
    return el


def _comment_text(node: Any) -> str:
    """What html5lib's comment for a turbohtml comment or instruction holds."""
    if type(node).__name__ == "ProcessingInstruction":
        return _pi_comment(node.target, node.data)
    return str(node.data)


def _pi_comment(target: str, data: str) -> str:
    """html5lib's comment for ``<?target data?>``.

    HTML has no processing instructions: ``<?php echo 1 ?>`` is a comment
    of ``?php echo 1 ?`` (a "bogus comment", to the next ``>``), as
    html5lib keeps it.  turbohtml splits it into a target and data; written
    back with one space and a closing ``?``, the usual spelling (which
    space and whether a ``?`` closed it are not kept: docs/migrating.md).
    """
    return f"?{target} {data}?" if data else f"?{target}?"


def _comment(text: str) -> Any:
    """An lxml comment of ``text``.

    lxml's API refuses ``--`` in a comment and a last ``-``, which HTML
    allows (``<!--- x --->``); libxml2's HTML parser makes such a comment
    from markup, as the default mode's parse does.
    """
    if "--" not in text and not text.endswith("-"):
        return etree.Comment(text)
    holder = etree.fromstring(
        f"<html><body><!--{text}--></body></html>".encode(), utf8_html_parser()
    )
    return holder[0][0]


def _inline_templates(document: Any) -> None:
    """Put each ``<template>``'s content back under it, as html5lib's tree has it.

    The WHATWG tree keeps it in a separate fragment (which the conversion
    to lxml leaves out); a template inside a template's content is found
    on the next pass.
    """
    while True:
        fragments = [
            child
            for template in document.find_all("template")
            for child in template.children
            if type(child).__name__ == "DocumentFragment"
        ]
        if not fragments:
            return
        for fragment in fragments:
            for child in list(fragment.children):
                fragment.insert_before(child)
            fragment.extract()


def _skeleton(doctype: tuple[str, str | None, str | None] | None, attrs: Any) -> Any:
    """An empty ``<html>`` in a document with the page's doctype (or none).

    Made by libxml2 from a doctype and ``<html>`` alone, so that the
    document's ``docinfo`` says what the page said, for the soup and for
    lxml's serializer alike.  ``attrs``: the ``<html>`` tag's, whatever
    their names (``xml:lang``, which lxml's API refuses).
    """
    head = ""
    if doctype is not None:
        name, public_id, system_id = doctype
        name = name or "html"
        if public_id:
            head = f'<!DOCTYPE {name} PUBLIC "{public_id}"'
            head += f' "{system_id}">' if system_id else ">"
        elif system_id:
            head = f'<!DOCTYPE {name} SYSTEM "{system_id}">'
        else:
            head = f"<!DOCTYPE {name}>"
    return etree.fromstring(
        f"{head}<html{_attributes(attrs)}></html>".encode(), utf8_html_parser()
    )


def _attributes(attrs: Any) -> str:
    """``attrs`` (name, value pairs) written for libxml2's HTML parser."""
    return "".join(
        f' {name}="{(value or "").replace("&", "&amp;").replace(chr(34), "&quot;")}"'
        for name, value in attrs
    )
