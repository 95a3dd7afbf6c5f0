"""Fuzz target: ``absolutize_links`` never raises; every URL it writes is absolute.

Each URL-bearing attribute of the output is either unchanged from the input
(left alone by rule: empty, fragment-only, with a scheme, or unparsable) or
an absolute URL; a ``srcset``'s candidates are checked one by one.
"""

from __future__ import annotations

import re
from typing import Any

from fuzzing import VALUES, fuzz, markup
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from test_attr_names import hostile_markup
from test_fuzz_clean import documents
from test_fuzz_output import _RAW_TEXT

from scrapy_soup import Soup, absolutize_links, clean
from scrapy_soup.markup._markup import is_document
from scrapy_soup.markup.links import _drop_what_is_not_read_back

BASES = st.sampled_from(
    [
        "http://example.com/dir/page.html",
        "https://example.com",
        "https://user:pw@host.example:8080/a/b/?q=1#f",
        "http://[::1]/x/",
        "http://xn--bcher-kva.example/é/",
        "file:///tmp/a.html",
    ]
)
_SINGLE = ["href", "src", "action", "poster", "cite", "background", "longdesc"]
_ABSOLUTE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@st.composite
def linked_markup(draw: st.DrawFn) -> str:
    """Markup with URL attributes on tags that carry them, mixed with noise."""
    parts = [draw(markup(max_parts=8))]
    for _ in range(draw(st.integers(1, 6))):
        tag = draw(st.sampled_from(["a", "img", "form", "video", "blockquote", "td"]))
        attr = draw(st.sampled_from([*_SINGLE, "srcset", "ping", "style"]))
        value = draw(st.one_of(st.sampled_from(VALUES), st.text(max_size=12)))
        value = value.replace('"', "&quot;")
        parts.append(f'<{tag} {attr}="{value}">x</{tag}>')
        parts.append(draw(markup(max_parts=4)))
    return "".join(parts)


def _attrs(markup_text: str) -> list[tuple[str, str, str]]:
    soup = Soup(markup_text, "fragment")
    return [
        (tag.name, name, value if isinstance(value, str) else " ".join(value))
        for tag in soup.find_all(True)
        for name, value in tag.attrs.items()
    ]


@fuzz(examples=200)
@given(linked_markup(), BASES)
def test_absolutize_string(text: str, base: str) -> None:
    out = absolutize_links(text, base)
    assert isinstance(out, str)
    # Read as a document (its output is one), the text's elements are the
    # document parse's: the attributes of a second <html> are dropped, as
    # bs4's parse drops them.
    source = str(Soup(text)) if is_document(out) else text
    before = sorted(_attrs(source), key=lambda a: a[:2])
    after = sorted(_attrs(out), key=lambda a: a[:2])
    # The same elements and attributes: only values change.
    assert [(t, n) for t, n, _ in after] == [(t, n) for t, n, _ in before]
    for (tag, name, old), (_, _, new) in zip(before, after, strict=True):
        if new == old or name not in (*_SINGLE, "srcset"):
            continue
        if name == "srcset":
            # The spec's parser skips whitespace and commas before a URL.
            first = new.lstrip(" \t\n\r\x0c,")
            urls = [c.split()[0] for c in re.split(r",\s+", first) if c.split()]
            assert all(_ABSOLUTE.match(u) for u in urls[:1]), (tag, name, old, new)
        else:
            assert _ABSOLUTE.match(new), (tag, name, old, new)
    # Once absolute, always absolute: a second pass changes nothing (raw-text
    # elements and carriage returns aside: FUZZING.md, known limits).
    if not _RAW_TEXT.search(text) and "\r" not in out:
        assert absolutize_links(out, base) == out


@fuzz(examples=100)
@given(linked_markup(), BASES, st.sampled_from(["html", "fragment"]))
def test_absolutize_tree_in_place(text: str, base: str, mode: str) -> None:
    soup = Soup(text, mode)
    assert absolutize_links(soup, base) is soup
    root: Any = soup._el if soup._el is not None else soup._root
    if root is not None:
        assert isinstance(etree.tostring(root), bytes)


@fuzz(examples=100)
@given(
    st.one_of(linked_markup(), markup()),
    BASES,
    st.sampled_from(["html", "fragment"]),
    st.sampled_from([None, "safe", "strict", "epub"]),
)
def test_clean_tree_with_links_is_clean_then_absolutize(
    text: str, base: str, mode: str, preset: str | None
) -> None:
    """``clean(soup, base_url=...)`` (one walk finds the links) equals the two calls."""
    one, two = Soup(text, mode), Soup(text, mode)
    clean(one, preset, base_url=base)
    absolutize_links(clean(two, preset), base)
    assert str(one) == str(two)


@fuzz(examples=100)
@given(st.one_of(hostile_markup(), documents()), BASES)
def test_absolutize_links_hostile_names_and_documents(text: str, base: str) -> None:
    out = absolutize_links(text, base)
    assert isinstance(out, str)
    if is_document(text):
        # A document stays one: the soup of it, links made absolute, less
        # what only a stray end tag before the root leaves at the top level
        # (a parse of the output drops it).
        soup = Soup(text)
        _drop_what_is_not_read_back(soup)
        assert out == str(absolutize_links(soup, base))
    # Idempotent: absolute links stay as they are (raw-text elements such as
    # <plaintext>, and carriage returns, do not round-trip: FUZZING.md, known
    # limits).
    if not _RAW_TEXT.search(text) and "\r" not in out:
        assert absolutize_links(out, base) == out
