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

from typing import Any

from lxml import etree, html

__all__ = ["Target", "parse_fragment", "serialize_fragment", "target_element"]

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
    # lxml.html wraps the fragment in <html><body> to parse it, then moves
    # the body's children under our container: nothing of html/body/head
    # reaches the output, and leading text is kept as the container's text.
    container = (
        html.fragment_fromstring(text, create_parent="div") if text.strip() else None
    )
    if container is None:
        container = html.Element("div")
        container.text = text or None
    return Target(container, text)


def serialize_fragment(target: Target) -> str:
    """Serialize the container's contents (not the container itself)."""
    if target.soup is not None:
        return str(target.soup.decode())
    el = target.element
    parts = [el.text or ""]
    parts.extend(
        etree.tostring(child, method="html", encoding="unicode", with_tail=True)
        for child in el
    )
    return "".join(parts)


def _soup_fragment(text: str) -> Any:
    """The soup of *text* in "fragment" mode, or None until the soup exists."""
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
    raise TypeError(
        f"expected a str of HTML, a soup Tag or an lxml element, not {type(obj).__name__}"
    )


def give_back(target: Target) -> Any:
    """Return what the caller gets: a str for str input, else the object itself."""
    if isinstance(target.original, str):
        return serialize_fragment(target)
    return target.original
