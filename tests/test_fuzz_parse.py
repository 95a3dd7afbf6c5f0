"""Fuzz target: any str or bytes parses, in every mode, into a consistent tree.

Invariants checked on each parse: no exception; output, text and prettify
are strings; every tag found by ``find_all(True)`` is a descendant, listed in
its parent's contents, in document order; ``next_element`` walks the same
sequence as ``descendants``.
"""

from __future__ import annotations

from typing import Any

from fuzzing import fuzz, markup, markup_bytes
from hypothesis import given
from hypothesis import strategies as st

from scrapy_soup import Soup, Tag

MODES = st.sampled_from(["html", "fragment", "xml"])


def check_tree(soup: Soup) -> None:
    """The invariants every parsed tree keeps."""
    assert isinstance(str(soup), str)
    assert isinstance(soup.get_text(), str)
    assert isinstance(soup.get_text("|", strip=True), str)
    assert isinstance(soup.prettify(), str)
    nodes = list(soup.descendants)
    tags = [n for n in nodes if isinstance(n, Tag)]
    assert tags == list(soup.find_all(True))
    for tag in tags:
        parent = tag.parent
        assert parent is not None
        assert any(c is tag for c in parent.contents)
    if nodes:
        walked: list[Any] = []
        node: Any = nodes[0]
        while node is not None and len(walked) <= len(nodes):
            walked.append(node)
            node = node.next_element
        assert len(walked) == len(nodes)
        assert all(a is b or a == b for a, b in zip(walked, nodes, strict=True))


@fuzz(examples=300)
@given(markup(), MODES)
def test_parse_str(text: str, mode: str) -> None:
    check_tree(Soup(text, mode))


@fuzz(examples=300)
@given(markup_bytes(), MODES)
def test_parse_bytes(data: bytes, mode: str) -> None:
    soup = Soup(data, mode)
    check_tree(soup)
    # bytes out: the declared encoding must be able to carry the document.
    assert isinstance(soup.encode("utf-8"), bytes)
