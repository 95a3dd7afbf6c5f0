"""What cleaning leaves of the attributes a converter reads, decided as it reads them.

`to_markdown` reads a few attributes of a few elements (a link's ``href``,
an image's ``src`` and ``alt``, a list's ``start`` and ``reversed``, an
item's ``value``, ``hidden``), while the cleaning walk looked at every
element's attribute names to find them (``keys()`` and a plan per
combination): half the cleaning's time, and a tenth of `to_markdown`'s.
The tree is cleaned of the elements the policy removes or unwraps as
before; the attributes are left as parsed, and `CleanedAttributes` gives
the converter each one as cleaning it (and making its link absolute) would
have left it: the same decision per tag and name (`_Cleaner.decide`), the
same value checks (`value_ok`), the same resolution (`single_url`).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ._attributes import value_ok
from ._policy import _DROP, _KEEP, _URL, _attr_key, _Cleaner, _local_tag
from ._url import Base
from .links import document_base, link_attribute_names, single_url

__all__ = ["CleanedAttributes"]


class CleanedAttributes:
    """The attributes of a tree cleaned of its elements but not of its attributes.

    ``el`` is the tree's container, the part cleaning would have walked;
    ``base_url``: the links' base (None: left as they are).
    """

    __slots__ = ("base", "compiled", "decisions", "document_url", "links", "url_ok")

    def __init__(
        self, compiled: _Cleaner, el: etree._Element, base_url: str | None
    ) -> None:
        self.compiled = compiled
        #: name -> tag -> (decision, local tag, attribute key).
        self.decisions: dict[str, dict[Any, tuple[int, str, str]]] = {}
        self.url_ok = compiled.url_ok
        self.links: frozenset[str] = frozenset()
        self.base: Base | None = None
        self.document_url: Base | None = None
        if base_url:
            self.links = frozenset(link_attribute_names())
            # The document's base is read from a <base> cleaned as the walk
            # would have cleaned it (one outside ``el`` never was).
            for node in el.iter("{*}base"):
                href = node.get("href")
                if href is not None and self.value(node, "href", href) is None:
                    del node.attrib["href"]
            self.base, self.document_url = document_base(el, base_url)

    def may_keep(self, name: str) -> bool:
        """Whether cleaning keeps attribute ``name`` on some tag."""
        return not self.compiled.dropped_everywhere(name)

    def value(self, node: Any, name: str, value: str) -> str | None:
        """What cleaning leaves of ``node``'s attribute ``name`` holding ``value``."""
        tag = node.tag
        by_tag = self.decisions.get(name)
        if by_tag is None:
            by_tag = self.decisions[name] = {}
        found = by_tag.get(tag)
        if found is None:
            local = _local_tag(tag)
            key = _attr_key(name)
            found = by_tag[tag] = (self.compiled.decide(local, key), local, key)
        decision, local, key = found
        if decision == _URL:  # href, src: most of what is read
            if not self.url_ok(value, local, key):
                return None
        elif decision == _DROP or (
            decision != _KEEP
            and not value_ok(self.compiled, node, decision, local, key, value)
        ):
            return None
        if self.base is not None and name in self.links:
            assert self.document_url is not None
            return single_url(
                name, value, local == "base", self.base, self.document_url
            )
        return value
