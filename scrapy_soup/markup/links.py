"""Rewrite relative links in HTML to absolute ones.

Scraped HTML (an article body, a description) leaves the page it came from;
its relative links must be made absolute against that page, as a browser
would resolve them.  `absolutize_links` does it for a string, a soup `Tag`
or an lxml element; `absolutize_element` is the lxml-level function that
also tells how many links it rewrote.

No Scrapy import here: this is core, usable on its own.

>>> absolutize_links('<a href="../b.html">b</a>', "https://example.com/a/page.html")
'<a href="https://example.com/b.html">b</a>'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Set
from typing import Any, TypeVar

from lxml import etree

from .._tree._attrs import attribute_items
from .._tree._builder import site_markup
from .._tree._soup import Soup
from .._tree._strings import Doctype, NavigableString
from .._tree._tables import ASCII_SPACES
from .._tree._tag import Tag
from ._markup import (
    CleanError,
    Target,
    give_back,
    namespaced_names,
    parse_fragment,
    set_attribute,
    set_text,
    target_element,
    write_as_read,
)
from ._url import (
    _C0_OR_SPACE,
    Base,
    css_url_spans,
    ping_spans,
    refresh_url_span,
    srcset_url_spans,
)

__all__ = [
    "URL_ATTRIBUTES",
    "absolutize_element",
    "absolutize_links",
    "absolutize_nodes",
    "absolutize_read",
    "link_attribute_names",
]

T = TypeVar("T")

#: Attributes whose value is one URL (HTML Standard, "Attributes" index,
#: plus legacy ones still met in scraped pages).  ``xlink:href`` is the SVG 1
#: link; SVG 2 uses ``href``.  ``data`` counts only on ``<object>``: elsewhere
#: it is an unrelated custom attribute in the wild.
URL_ATTRIBUTES: frozenset[str] = frozenset(
    {
        "href", "src", "action", "formaction", "poster", "cite", "data",
        "background", "longdesc", "usemap", "manifest", "codebase",
        "xlink:href", "ping", "srcset", "imagesrcset",
    }
)  # fmt: skip

_XLINK_NS = "http://www.w3.org/1999/xlink"
# How each attribute's value holds its URLs.
_SINGLE, _LIST, _SRCSET, _STYLE, _CONTENT = 0, 1, 2, 3, 4
_KINDS = {"ping": _LIST, "srcset": _SRCSET, "imagesrcset": _SRCSET}
_ONLY_ON = {"data": frozenset({"object"})}


@functools.lru_cache(maxsize=64)
def _kinds(extra: tuple[str, ...]) -> dict[str, int]:
    """Attribute name -> how its value holds URLs; style/content handled apart."""
    kinds = {name: _KINDS.get(name, _SINGLE) for name in URL_ATTRIBUTES}
    for name in extra:
        kinds[name] = _SRCSET if name.endswith("srcset") else _SINGLE
    kinds["style"] = _STYLE
    kinds["content"] = _CONTENT
    # XML trees name it by namespace; the HTML parser keeps "xlink:href".
    kinds[f"{{{_XLINK_NS}}}href"] = _SINGLE
    return kinds


def _local(name: str) -> str:
    return name[name.index("}") + 1 :] if name[:1] == "{" else name


def _is_refresh(node: etree._Element, local_tag: str) -> bool:
    return (
        local_tag == "meta"
        and str(node.get("http-equiv", "")).strip().lower() == "refresh"
    )


def _rewrite_spans(
    value: str, spans: Iterable[tuple[int, int]], base: Base
) -> tuple[str, int]:
    """Replace each span of *value* by its resolved URL; count replacements."""
    return _rewrite(value, ((start, end, "") for start, end in spans), base)


#: What ends a CSS ``url()`` token: an unquoted one ends at whitespace,
#: quotes or parentheses, a quoted one at its quote (or a newline).
_UNQUOTED_URL_END = "\"'() \t\n\x0c\r"


def _rewrite_css(css: str, base: Base) -> tuple[str, int]:
    """`_rewrite_spans` of the ``url()`` tokens of a style sheet or attribute.

    A URL that would end the token it sits in is left as it is.
    """
    spans = (
        (start, end, quote + "\n" if quote else _UNQUOTED_URL_END)
        for start, end, quote in css_url_spans(css)
    )
    return _rewrite(css, spans, base)


def _rewrite(
    value: str, spans: Iterable[tuple[int, int, str]], base: Base
) -> tuple[str, int]:
    """Replace each span by its resolved URL, unless that is the same or holds
    one of the span's forbidden characters; count replacements."""
    out: list[str] = []
    done = 0
    count = 0
    for start, end, forbidden in spans:
        resolved = base.resolve(value[start:end])
        if resolved is None or resolved == value[start:end]:
            continue
        if forbidden and any(c in forbidden for c in resolved):
            continue
        out.append(value[done:start])
        out.append(resolved)
        done = end
        count += 1
    if not count:
        return value, 0
    out.append(value[done:])
    return "".join(out), count


def document_base(
    el: etree._Element, base_url: str, encoding: str | None = None
) -> tuple[Base, Base]:
    """The base for *el*: the document's first ``<base href>``, else *base_url*.

    HTML Standard, "document base URL": the first ``base`` element with an
    ``href`` in tree order, resolved against the document's URL; its
    "frozen base URL" falls back to the document URL when the href does not
    parse or has a ``data:`` or ``javascript:`` scheme.
    Returns ``(base, document_url)``: the ``<base>`` element's own href is
    resolved against the document URL, not against itself.  *encoding* is
    the page's, for the queries of resolved URLs (see `Base`).
    """
    document_url = Base(base_url, encoding)
    href = None
    # iter() with a tag filter walks in C; an XPath with a local-name()
    # predicate costs a function call per element ("{*}" also matches no
    # namespace).
    for node in el.getroottree().getroot().iter("{*}base"):
        href = node.get("href")
        if href is not None:
            break
    if href is None:
        return document_url, document_url
    try:
        base = Base(document_url.resolve(href) or href, encoding)
    except ValueError:
        return document_url, document_url
    if base.scheme in ("data", "javascript"):
        return document_url, document_url
    return base, document_url


def absolutize_element(
    el: etree._Element,
    base_url: str,
    *,
    extra_attrs: Iterable[str] = (),
    encoding: str | None = None,
) -> int:
    """Make every relative URL in *el* and its descendants absolute; return how many.

    *base_url* is the URL of the page the HTML comes from; a ``<base href>``
    anywhere in *el*'s document takes precedence, as in browsers.  Rewrites
    the attributes in `URL_ATTRIBUTES` (``srcset``/``imagesrcset`` per the
    HTML "parse a srcset attribute" algorithm, ``ping`` as a space-separated
    list), ``url()`` and ``@import`` in ``style`` attributes and ``<style>``
    elements, the URL of ``<meta http-equiv=refresh content="5; url=…">``,
    and each attribute named in *extra_attrs* (one URL, or a srcset if the
    name ends with ``srcset``, e.g. ``data-src``, ``data-srcset``).

    An empty ``href`` (``href=""``) links to the page itself: it becomes the
    base URL without its fragment, as a browser and lxml's
    ``make_links_absolute`` resolve it.  Left alone: other empty values
    (an empty ``src`` requests nothing), fragment-only (``#top``) and values with a
    scheme (absolute URLs, ``mailto:``, ``tel:``, ``data:``, ``javascript:``:
    removing those is `scrapy_soup.clean`'s business), and anything that
    does not parse (invalid IPv6 hosts, bad ports): never raises for a URL
    in the HTML.  Resolved URLs are percent-encoded the WHATWG way
    (`w3lib.url.safe_url_string`), their query in *encoding* (the page's;
    UTF-8 if not given), as ``response.follow()`` requests them.  Raises
    ValueError if *base_url* is not an absolute hierarchical URL.
    """
    kinds = _kinds(tuple(sorted(set(extra_attrs))))
    names = kinds.keys()
    # One walk in Python: measured on the corpus, it is several times faster
    # than selecting the elements with an XPath predicate on attributes.
    # Most elements have no URL attribute: a set test in C skips them.
    nodes = (
        node
        for node in el.iter(etree.Element)
        if not names.isdisjoint(node.keys()) or node.tag == "style"
    )
    return _absolutize_nodes(el, nodes, base_url, kinds, encoding)


def link_attribute_names(extra_attrs: Iterable[str] = ()) -> Set[str]:
    """The attribute names `absolutize_element` looks at (``style`` elements apart)."""
    return _kinds(tuple(sorted(set(extra_attrs)))).keys()


def absolutize_nodes(
    el: etree._Element,
    nodes: Iterable[etree._Element],
    base_url: str,
    *,
    extra_attrs: Iterable[str] = (),
) -> int:
    """`absolutize_element` on *el*, given the elements that may hold links.

    *nodes* must include every element of *el*'s subtree that has an
    attribute named in `link_attribute_names` or is a ``<style>``; others
    may be there.  `scrapy_soup.clean` collects them in its own walk.
    """
    return _absolutize_nodes(
        el, nodes, base_url, _kinds(tuple(sorted(set(extra_attrs))))
    )


def absolutize_read(
    el: etree._Element,
    nodes: Iterable[etree._Element],
    base_url: str,
    names: Set[str],
) -> int:
    """`absolutize_nodes` of only the attributes *names* (a converter's
    ``href`` and ``src``: one URL each), which is all a caller that reads
    nothing else needs.

    The other link attributes (``srcset``, ``style``, ``<style>``'s CSS) are
    left as they are: the caller never writes them.  Each node's *names*
    are read by name instead of going through all its attributes.  Names
    that do not hold one URL everywhere take `_absolutize_nodes`'s path.
    """
    kinds = _kinds(())
    if any(kinds.get(name) != _SINGLE or name in _ONLY_ON for name in names):
        read_kinds = {name: kind for name, kind in kinds.items() if name in names}
        return _absolutize_nodes(el, nodes, base_url, read_kinds)
    base, document_url = document_base(el, base_url)
    ordered = sorted(names)
    count = 0
    for node, local_tag in _with_local_tags(nodes):
        for name in ordered:
            value = node.get(name)
            if value is not None:
                count += _set_single(
                    node, name, value, local_tag == "base", base, document_url
                )
    return count


def _with_local_tags(
    nodes: Iterable[etree._Element],
) -> Iterator[tuple[etree._Element, str]]:
    """The elements of *nodes*, each with its tag's local name in lower case."""
    local_tags: dict[str, str] = {}
    for node in nodes:
        tag = node.tag
        if not isinstance(tag, str):  # pragma: no cover - elements only
            continue
        local_tag = local_tags.get(tag)
        if local_tag is None:
            local_tag = local_tags[tag] = _local(tag).lower()
        yield node, local_tag


def single_url(
    name: str, value: str, is_base: bool, base: Base, document_url: Base
) -> str:
    """The one URL of attribute *name* made absolute (*value* if it cannot be)."""
    if is_base:
        # A <base>'s own href is resolved against the document's URL.
        resolved = document_url.resolve(value)
    elif name == "href" and not value.strip(_C0_OR_SPACE):
        # A link to the page itself, as a browser follows it (an empty
        # src requests nothing: left alone).
        resolved = base.resolve_empty()
    else:
        resolved = base.resolve(value)
    return value if resolved is None else resolved


def _set_single(
    node: etree._Element,
    name: str,
    value: str,
    is_base: bool,
    base: Base,
    document_url: Base,
) -> int:
    """Make the one URL of attribute *name* absolute; 1 if it changed."""
    resolved = single_url(name, value, is_base, base, document_url)
    if resolved == value:
        return 0
    try:
        node.set(name, resolved)
    except ValueError:
        set_attribute(node, name, resolved)
    return 1


def _absolutize_nodes(
    el: etree._Element,
    nodes: Iterable[etree._Element],
    base_url: str,
    kinds: dict[str, int],
    encoding: str | None = None,
) -> int:
    base, document_url = document_base(el, base_url, encoding)
    count = 0
    for node, local_tag in _with_local_tags(nodes):
        for name, value in attribute_items(node):
            kind = kinds.get(name)
            if kind is None:
                continue
            if name[:1] == "{" and name not in namespaced_names(node):
                # A name the HTML parser kept ("{http://www.w3.org/1999/
                # xlink}href" written out): no link to a browser.
                continue
            new = None
            n = 0
            if kind == _SINGLE:
                # Most links: one URL, set at once.
                if name in _ONLY_ON and local_tag not in _ONLY_ON[name]:
                    continue
                count += _set_single(
                    node, name, value, local_tag == "base", base, document_url
                )
                continue
            if kind == _SRCSET:
                new, n = _rewrite_spans(value, srcset_url_spans(value), base)
            elif kind == _LIST:
                new, n = _rewrite_spans(value, ping_spans(value), base)
            elif kind == _STYLE:
                new, n = _rewrite_css(value, base)
            elif _is_refresh(node, local_tag):
                span = refresh_url_span(value)
                if span is not None:
                    new, n = _rewrite_spans(value, [span], base)
            if n and new is not None:
                set_attribute(node, name, new)
                count += n
        if local_tag == "style" and node.text:
            css, n = _rewrite_css(node.text, base)
            if n:
                set_text(node, False, css)
                count += n
    return count


def absolutize_links(
    html_or_tag: T,
    base_url: str,
    *,
    extra_attrs: Iterable[str] = (),
    encoding: str | None = None,
) -> T:
    """Make relative links absolute; return the same kind of object as given.

    A ``str`` is parsed as an HTML fragment and a new ``str`` is returned
    (a whole document, one starting with a doctype or ``<html>`` or whose
    output as a fragment would, is parsed and written whole, as
    ``str(Soup(html))`` without the whitespace and second doctype that only
    stray end tags before its root leave there); a soup `Tag`/`Soup`
    or an lxml element is changed in place and returned.  See
    `absolutize_element` for what is rewritten and what is left alone (and
    *encoding*, the page's, for the queries).
    Raises `scrapy_soup.CleanError` if it cannot finish (it never
    returns the markup unprocessed), ValueError for a bad *base_url*.

    >>> absolutize_links(
    ...     '<img srcset="a,1.jpg 1x, b.jpg 2x"/><a href="#top">top</a>',
    ...     "https://example.com/dir/",
    ... )
    '<img srcset="https://example.com/dir/a,1.jpg 1x, https://example.com/dir/b.jpg 2x"/><a href="#top">top</a>'
    """
    Base(base_url)  # a bad base URL is the caller's error (ValueError)
    extra_attrs = tuple(extra_attrs)
    if isinstance(html_or_tag, str):
        text = html_or_tag
        written: Any = write_as_read(
            text,
            lambda document: (
                _absolutize_document(text, base_url, extra_attrs, encoding)
                if document
                else _absolutize_target(
                    parse_fragment(text), base_url, extra_attrs, encoding
                )
            ),
        )
        return written  # type: ignore[no-any-return]
    result = _absolutize_target(
        target_element(html_or_tag), base_url, extra_attrs, encoding
    )
    return result  # type: ignore[no-any-return]


def _absolutize_document(
    text: str, base_url: str, extra_attrs: tuple[str, ...], encoding: str | None
) -> str:
    """`absolutize_links` of a whole document string.

    Its comments and doctype stay as bs4 writes them: the soup of it is the
    one serializer that knows.
    """
    with site_markup():  # (an XHTML or SVG document is HTML enough)
        soup = Soup(text)
    _drop_what_is_not_read_back(soup)
    absolutize_links(soup, base_url, extra_attrs=extra_attrs, encoding=encoding)
    return str(soup)


def _drop_what_is_not_read_back(soup: Soup) -> None:
    """Take out of a document soup's top level, before the root, what a parse drops.

    libxml2 reports whitespace before the root element only after a stray
    end tag (bs4 keeps it), and its tree keeps one doctype: written out,
    they would be gone when the output is parsed again, and a second call
    would give another string.  Without stray end tags there is neither.
    """
    doctypes = 0
    for node in list(soup.contents):
        if isinstance(node, Tag):
            break
        if isinstance(node, Doctype):
            doctypes += 1
            if doctypes > 1:
                node.extract()
        elif type(node) is NavigableString and not node.strip(ASCII_SPACES):
            node.extract()


def _absolutize_target(
    target: Target, base_url: str, extra_attrs: tuple[str, ...], encoding: str | None
) -> Any:
    """`absolutize_links` of a parsed target: its elements changed, given back."""
    try:
        for element in target.elements:
            absolutize_element(
                element, base_url, extra_attrs=extra_attrs, encoding=encoding
            )
        result: Any = give_back(target)
    except Exception as exc:
        raise CleanError(
            f"absolutize_links() could not process this markup "
            f"({type(exc).__name__}: {exc}); nothing was returned"
        ) from exc
    return result
