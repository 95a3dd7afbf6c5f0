"""Turn what `absolutize_links` and `clean` accept into an lxml element and back.

Both functions take a string of HTML, a soup `Tag`/`Soup`, or an lxml
element, and give back the same kind.  Strings are parsed as a *fragment*:
the output is the fragment's own top-level nodes, with no ``<html>`` or
``<body>`` added, as bs4's ``html.parser`` builder gives them.

The string path goes through the soup's ``"fragment"`` mode when it is
available, so that the output is what ``str(soup)`` gives (bs4's
serialization); otherwise lxml parses and serializes.  `parse_fragment` and
`serialize_fragment` are the one place to change that.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from lxml import etree

__all__ = [
    "Target",
    "give_back",
    "parse_fragment",
    "serialize_fragment",
    "set_attribute",
    "set_text",
    "target_element",
]

# Characters lxml's Python API refuses (XML 1.0 "Char" excludes them) though
# its HTML parser keeps them in the tree.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def set_text(node: etree._Element, tail: bool, value: str | None) -> None:
    """Set *node*'s text or tail; drop characters lxml refuses instead of raising."""
    try:
        if tail:
            node.tail = value
        else:
            node.text = value
    except ValueError:
        set_text(node, tail, _NOT_XML.sub("", value or "") or None)


def set_attribute(node: etree._Element, name: str, value: str) -> None:
    """Set an attribute; drop characters lxml refuses instead of raising."""
    try:
        node.set(name, value)
    except ValueError:
        node.set(name, _NOT_XML.sub("", value))


_PARSER = etree.HTMLParser(recover=True, huge_tree=True, default_doctype=False)
_ELEMENT = etree._Element
_TREE = etree._ElementTree


class Target:
    """The lxml element to work on, and how to hand the result back."""

    __slots__ = ("element", "original", "soup")

    def __init__(
        self, element: etree._Element, original: object, soup: Any = None
    ) -> None:
        self.element = element
        self.original = original
        self.soup = soup


def parse_fragment(text: str) -> Target:
    """Parse *text* as an HTML fragment under a container element not output."""
    soup = _soup_fragment(text)
    if soup is not None:
        return Target(soup._el, text, soup)
    # As lxml.html.fragments_fromstring does: parse inside an open <body>
    # (so <title>, <meta>, <style> stay where they are), and use the body as
    # the container.  Done by hand because fragment_fromstring() sets
    # leading text through the Python API, which refuses control characters
    # that the parser itself keeps.
    root = etree.fromstring(f"<html><body>{text}</body></html>", _PARSER)
    body = root.find("body")
    if body is None:  # pragma: no cover - libxml2 always makes a body here
        body = etree.SubElement(root, "body")
    return Target(body, text)


def serialize_fragment(target: Target) -> str:
    """Serialize the container's contents (not the container itself)."""
    if target.soup is not None:
        return str(target.soup.decode())
    el = target.element
    # The container's own text is not serialized by lxml: escape it as the
    # HTML serializer escapes text (never hand back "&lt;" decoded to "<").
    parts = [escape(el.text, quote=False) if el.text else ""]
    parts.extend(
        etree.tostring(child, method="html", encoding="unicode", with_tail=True)
        for child in el
    )
    return "".join(parts)


#: Go through the soup's "fragment" mode for strings, so that strings come
#: back as bs4 writes them (``<img/>``, sorted attributes), the same as the
#: pipelines' output.
USE_SOUP = True


def _soup_fragment(text: str) -> Any:
    """The soup of *text* in "fragment" mode, or None (lxml is used instead)."""
    if not USE_SOUP:
        return None
    try:
        from ._tree._soup import Soup  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return Soup(text, "fragment")


def target_element(obj: object) -> Target:
    """Find the lxml element behind *obj*; raise TypeError for other kinds."""
    if isinstance(obj, str):
        return parse_fragment(obj)
    if isinstance(obj, _ELEMENT):
        return Target(obj, obj)
    if isinstance(obj, _TREE):
        return Target(obj.getroot(), obj)
    # A soup Tag wraps `_el`; a Soup of a whole document has `_el` None and
    # its root element in `_root`.  Checked by attribute, not by class, so
    # this module does not import the tree.
    el = getattr(obj, "_el", None)
    if el is None:
        el = getattr(obj, "_root", None)
    if isinstance(el, _ELEMENT):
        return Target(el, obj)
    if hasattr(obj, "_root") and hasattr(obj, "_el"):
        # A soup of a document without elements: nothing to change; work on
        # an empty stand-in and hand the soup back.
        return Target(etree.Element("html"), obj)
    raise TypeError(
        f"expected a str of HTML, a soup Tag or an lxml element, not {type(obj).__name__}"
    )


def give_back(target: Target) -> Any:
    """Return what the caller gets: a str for str input, else the object itself."""
    if isinstance(target.original, str):
        return serialize_fragment(target)
    return target.original
