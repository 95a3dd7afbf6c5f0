"""Tag searches below one element that lxml can walk without XPath predicates.

libxml2's XPath evaluates a predicate (``*[@data-x]``) with a new context
per element: dearer than lxml's ``iter()`` plus a Python test on each tag,
which is what `iter_names` does for names.  For an attribute on any tag
(``find_all(attrs={"data-x": True})``, ``find_all(class_="x")``) even that
walk builds a proxy and reads the attribute of every element; the XPath
``descendant::*/@data-x`` visits the same elements without a predicate and
hands back only the attributes that are there, each one's element a
``getparent()`` away.  (Not ``descendant::*/@data-x/..``: libxml2 merges
the parent step's nodes with a duplicate check, quadratic in the results.)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import islice
from typing import Any

from lxml import etree

from . import _xpath
from ._attrs import is_multi_valued
from ._strainer import SoupStrainer

_DOWN_AXES = frozenset({("descendant",), ("descendant-or-self",)})


@functools.lru_cache(maxsize=256)
def _attributes_xpath(axis: str, attr: str, token: str | None) -> etree.XPath | None:
    """``{axis}::*/@{attr}`` (with ``[contains(., 'token')]``), compiled once;
    None for a token XPath cannot spell.  The token is written in, as
    `_xpath.tag_xpath` does (a variable is copied for each attribute
    tested, 5% of the search)."""
    test = ""
    if token is not None:
        lit = _xpath.literal(token)
        if lit is None:
            return None
        test = f"[contains(., {lit})]"
    # Smart strings: each result's getparent() is its element.
    return etree.XPath(f"{axis}::*/@{attr}{test}")


def iter_names(
    tag_plan: _xpath.TagPlan,
    context: Any,
    axes: tuple[str, ...],
    limit: int | None,
    xml: bool,
    strainer: SoupStrainer | None = None,
) -> list[Any] | None:
    """The tags of a search below ``context`` by lxml's ``iter`` (one walk in
    C: half libxml2's time or less) by names or any, with an attribute there,
    a class, or a regex Python tests anyway (`TagPlan.iter_test`); with a
    limit, named tags with attributes that ``strainer`` tests in Python
    until the limit.  None for the XPath (names alone with a limit), and in
    XML."""
    if axes not in _DOWN_AXES or xml:
        return None
    names: tuple[Any, ...] = tag_plan.names
    if limit is not None:
        # One name alone: libxml2 stops at the limit, sooner than
        # ``iter(name)``, which compares the name of each node; a union
        # (several names) it evaluates whole.  With attributes, it tests
        # every candidate of the tree before applying the limit.
        if not tag_plan.exact:
            return None
        if not tag_plan.predicates:
            return (
                list(islice(_walk_of(context, axes)(*names), limit)) if names else None
            )
        if strainer is None:
            return None
        if not names:
            if tag_plan.nodetest == "*":
                return None  # (every tag tested in Python: slower)
            names = (tag_plan.nodetest,)
        return _first(
            _walk_of(context, axes)(*names), limit, strainer, tag_plan.iter_test()
        )
    if not names:
        names = (etree.Element,) if tag_plan.nodetest == "*" else (tag_plan.nodetest,)
    test = tag_plan.iter_test()
    if test is None:
        return None
    attr, token = test
    if attr and names[0] is etree.Element and _xpath.is_simple_name(attr):
        owners = _owners(context, axes[0], attr, token)
        if owners is not None:
            return owners
    found = _walk_of(context, axes)(*names)
    if token is not None:  # bs4's test: one of the split values (C first)
        return [
            e for e in found if token in (v := e.get(attr) or "") and token in v.split()
        ]
    if attr:  # (comprehensions: a generator's resume per tag cost a fifth)
        return [el for el in found if el.get(attr) is not None]
    return list(found)


def _walk_of(context: Any, axes: tuple[str, ...]) -> Any:
    """``iter`` or ``iterdescendants`` of ``context``: ``iter`` starts with it."""
    return context.iterdescendants if axes[0] == "descendant" else context.iter


def _first(
    found: Iterator[Any],
    limit: int,
    strainer: SoupStrainer,
    test: tuple[str, str | None] | None,
) -> list[Any]:
    """The first ``limit`` elements of ``found`` whose attributes pass bs4's
    test: ``test`` as `iter_names` reads it, or the strainer's own
    (`SoupStrainer._attribute_match`, on the values the view's ``tag.get``
    gives: a multi-valued attribute split)."""
    out: list[Any] = []
    if test is not None:
        attr, token = test
        for el in found:
            raw = el.get(attr)
            if raw is not None and (
                token is None or (token in raw and token in raw.split())
            ):
                out.append(el)
                if len(out) >= limit:
                    break
        return out
    match = strainer._attribute_match
    groups = list(strainer.attribute_rules.items())
    for el in found:
        for attr, rules in groups:
            try:
                value: Any = el.get(attr)
            except ValueError:  # a name lxml refuses (NUL, ...): absent
                value = None
            if value is not None and is_multi_valued(el.tag, attr):
                value = value.split()
            if not match(value, rules):
                break
        else:
            out.append(el)
            if len(out) >= limit:
                break
    return out


def _owners(context: Any, axis: str, attr: str, token: str | None) -> list[Any] | None:
    """The elements along ``axis`` with ``attr``, holding ``token`` if given,
    in order; None for a token XPath cannot spell."""
    xpath = _attributes_xpath(axis, attr, token)
    if xpath is None:
        return None
    if token is None:
        return [value.getparent() for value in xpath(context)]
    # contains() is Python's ``in`` on the raw value: the split test only
    # runs on the values that hold the token's text.  str.split() is
    # `split_value` (both split on exactly the str.isspace() characters:
    # the regex's \s is Py_UNICODE_ISSPACE) without the regex machinery.
    return [value.getparent() for value in xpath(context) if token in value.split()]


__all__ = ["iter_names"]
