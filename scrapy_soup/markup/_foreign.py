"""Raw-text elements where a browser reads their text as markup: removed.

libxml2's HTML parser (and so the sanitizer's tree) knows no foreign content:
it reads the text of ``<style>`` as text wherever it is, and writes it back
unescaped. A browser parsing the output reads ``<svg><style>`` and
``<math><style>`` as foreign elements whose content is markup (HTML
Standard, "parsing main inforeign"), and a ``<noscript>`` with scripting on
as raw text that ends at the first ``</noscript>``, inside the style's text
or not. Either way the text the sanitizer saw as CSS becomes elements
(mutation XSS: ``<svg><style><img src=x onerror=...>``). A policy that keeps
``<style>`` therefore loses it there, whatever else it keeps.
"""

from __future__ import annotations

from lxml import etree

from ._document import remove

__all__ = ["remove_raw_text_in_foreign_content"]

#: Elements under which a browser does not read ``<style>`` as raw text.
_NOT_RAW_UNDER = frozenset({"svg", "math", "noscript"})


def _local(tag: str) -> str:
    return tag.rpartition("}")[2].lower()


def remove_raw_text_in_foreign_content(el: etree._Element) -> int:
    """Remove each ``<style>`` under ``<svg>``, ``<math>`` or ``<noscript>``
    in *el* (*el* itself included); return how many were removed."""
    found = [
        node
        for node in el.iter("style", "{*}style")
        if any(
            isinstance(up.tag, str) and _local(up.tag) in _NOT_RAW_UNDER
            for up in node.iterancestors()
        )
    ]
    for node in found:
        remove(node)
    return len(found)
