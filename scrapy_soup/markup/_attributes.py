"""Attribute checks of `scrapy_soup.markup.clean`: the values that matter, and removal.

`clean_attributes` cleans one element's attributes name by name (the slow
path: names lxml cannot address, refresh checks that depend on the order);
`value_ok` checks a URL, srcset, CSS, refresh or animation value; and
`delete_attributes` removes names even where lxml refuses to look them up.
The fast path, by plan, is `clean._walk`.
"""

from __future__ import annotations

import html
import re
from typing import Any

from .._tree._attrs import attribute_items, write_attributes
from ._policy import (
    _DROP,
    _KEEP,
    _NO_SCRIPT,
    _REFRESH,
    _SRCSET,
    _STYLE,
    _URL,
    _URL_LIST,
    SCRIPT_SCHEMES,
    _attr_key,
    _Cleaner,
    _local_tag,
    odd_attribute_names,
)
from ._url import hidden_scheme, ping_spans, refresh_url_span, srcset_url_spans

__all__ = ["clean_attributes", "delete_attributes", "value_ok"]


def clean_attributes(
    compiled: _Cleaner,
    by_tag: dict[Any, dict[Any, int]],
    node: Any,
    tag: str,
    names: list[Any],
) -> int:
    """Remove the attributes of *node* the policy does not keep; return how many.

    Decisions are cached per (tag, attribute name); a value is read only
    when it must be checked (URLs, CSS).  Names no policy keeps
    (`odd_attribute_names`) go whatever the policy says.
    """
    decisions = by_tag.get(tag)
    if decisions is None:
        decisions = by_tag[tag] = {}
    odd = odd_attribute_names(node, names)
    if odd:
        return _clean_odd_attributes(compiled, decisions, node, tag, odd)
    drops: list[Any] = []
    for name in names:
        decision = decisions.get(name)
        if decision is None:
            decision = decisions[name] = compiled.decide(
                _local_tag(tag), _attr_key(name)
            )
        if decision == _KEEP:
            continue
        if decision != _DROP and value_ok(
            compiled,
            node,
            decision,
            _local_tag(tag),
            _attr_key(name),
            node.get(name, ""),
        ):
            continue
        drops.append(name)
    if drops:
        delete_attributes(node, tuple(drops))
    return len(drops)


def _clean_odd_attributes(
    compiled: _Cleaner,
    decisions: dict[Any, int],
    node: Any,
    tag: str,
    odd: set[Any],
) -> int:
    """`clean_attributes` for an element with names lxml cannot address as they are.

    The values come from the items (lxml cannot look them up by name), and
    the attributes kept are written again after a clear: only ever fewer.
    """
    items = attribute_items(node)
    local = _local_tag(tag)
    kept: list[tuple[Any, str]] = []
    for name, value in items:
        if name in odd:
            continue
        decision = decisions.get(name)
        if decision is None:
            decision = decisions[name] = compiled.decide(local, _attr_key(name))
        if decision == _KEEP or (
            decision != _DROP
            and value_ok(compiled, node, decision, local, _attr_key(name), value)
        ):
            kept.append((name, value))
    return len(items) - write_attributes(node, kept)


def value_ok(
    compiled: _Cleaner, node: Any, decision: int, tag: str, key: str, value: str
) -> bool:
    """Whether an attribute whose value matters (URLs, CSS) may stay."""
    if decision == _URL:
        return compiled.url_ok(value, tag, key)
    if decision == _SRCSET:
        return compiled.spans_ok(
            value, srcset_url_spans(value), tag, key
        ) and compiled.candidates_ok(value, tag, key)
    if decision == _URL_LIST:
        return compiled.spans_ok(value, ping_spans(value), tag, key)
    if decision == _STYLE:
        return compiled.css_ok(value, tag)
    if decision == _REFRESH:
        return _refresh_ok(compiled, node, value)
    if decision == _NO_SCRIPT:
        return compiled.script_free(value)
    # _ANIMATE: SVG <animate attributeName="href"> can set a URL.
    target = _attr_key(value.strip())
    return not (target.endswith("href") or target.startswith("on"))


def delete_attributes(node: Any, names: tuple[Any, ...]) -> None:
    """Delete attributes, even ones whose names lxml refuses to look up.

    libxml2 keeps what it parsed (``\x01`` in a name); lxml's ``del``
    checks the name and raises.  Then the other attributes are written
    again (`write_attributes`).
    """
    attrib = node.attrib
    try:
        if len(names) >= _MANY_DROPS:
            # Each del scans the element's attribute list: write the kept
            # ones again instead (a tag with thousands of attributes).
            raise ValueError
        for name in names:
            del attrib[name]
    except ValueError:
        gone = set(names)
        write_attributes(
            node, [(k, v) for k, v in attribute_items(node) if k not in gone]
        )


#: From this many attributes removed from one element, `delete_attributes`
#: writes the others again.
_MANY_DROPS = 64


def _refresh_ok(compiled: _Cleaner, node: Any, value: str) -> bool:
    """A ``content`` attribute: a refresh URL must pass, a script URL never does.

    Browsers navigate only for ``<meta http-equiv=refresh>``, but a policy
    that keeps any attribute (EPUB) keeps ``content`` everywhere: a value
    that reads as a script or data URL once a refresh's time and ``url=``
    are skipped goes, whichever tag holds it.
    """
    if ":" in value or "&" in value:
        for candidate in {value, html.unescape(value)}:
            scheme = hidden_scheme(_REFRESH_PREFIX.sub("", candidate, count=1))
            if scheme in SCRIPT_SCHEMES and scheme not in compiled.policy.url_schemes:
                return False
    if str(node.get("http-equiv", "")).strip().lower() != "refresh":
        return True
    span = refresh_url_span(value)
    return span is None or compiled.url_ok(value[span[0] : span[1]], "meta", "content")


#: What a refresh puts before its URL: the time, separators, ``url=``, a quote.
_REFRESH_PREFIX = re.compile(r"^[\d.\s;,]*(?:url\s*=\s*)?['\"]?", re.I)
