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

from collections.abc import Hashable
from itertools import islice
from typing import Any

from lxml import etree

from . import _xpath
from ._attrs import split_value

DOWN_AXES = frozenset({("descendant",), ("descendant-or-self",)})

#: ``{axis}::*/@{attr}`` (with ``[contains(., $token)]``) by (axis, attr, token?).
_OWNERS: dict[Hashable, Any] = {}
_OWNERS_MAX = 256


def _attributes_xpath(axis: str, attr: str, token: bool) -> Any:
    key = (axis, attr, token)
    found = _OWNERS.get(key)
    if found is None:
        if len(_OWNERS) >= _OWNERS_MAX:  # the oldest goes
            del _OWNERS[next(iter(_OWNERS))]
        test = "[contains(., $token)]" if token else ""
        # Smart strings: each result's getparent() is its element.
        found = _OWNERS[key] = etree.XPath(f"{axis}::*/@{attr}{test}")
    return found


def iter_names(
    tag_plan: _xpath.TagPlan,
    context: Any,
    axes: tuple[str, ...],
    limit: int | None,
    xml: bool,
) -> list[Any] | None:
    """The tags of a search below ``context`` by lxml's ``iter`` (one walk in
    C: half libxml2's time or less) by names or any, with an attribute there,
    a class, or a regex Python tests anyway (`TagPlan.iter_test`); None (the
    XPath, which stops there) with a limit but for names alone, or in XML."""
    names: tuple[Any, ...] = tag_plan.names
    if not names and limit is None:
        names = (etree.Element,) if tag_plan.nodetest == "*" else (tag_plan.nodetest,)
    test = tag_plan.iter_test() if names else None
    if test is None or axes not in DOWN_AXES or xml:
        return None
    attr, token = test
    if limit is not None and attr:
        return None  # (libxml2 stops at the limit)
    if attr and names[0] is etree.Element and _xpath.is_simple_name(attr):
        return _owners(context, axes[0], attr, token)
    # (``iter`` starts with the element itself)
    walk = context.iterdescendants if axes[0] == "descendant" else context.iter
    found = walk(*names)
    if token is not None:  # bs4's test: one of the split values (C first)
        return [
            e
            for e in found
            if token in (v := e.get(attr) or "") and token in split_value(v)
        ]
    if attr:  # (comprehensions: a generator's resume per tag cost a fifth)
        return [el for el in found if el.get(attr) is not None]
    return list(found if limit is None else islice(found, limit))


def _owners(context: Any, axis: str, attr: str, token: str | None) -> list[Any]:
    """The elements along ``axis`` with ``attr``, holding ``token`` if given, in order."""
    if token is None:
        return [
            value.getparent() for value in _attributes_xpath(axis, attr, False)(context)
        ]
    # contains() is Python's ``in`` on the raw value: the split test only
    # runs on the values that hold the token's text.
    return [
        value.getparent()
        for value in _attributes_xpath(axis, attr, True)(context, token=token)
        if token in split_value(value)
    ]


__all__ = ["DOWN_AXES", "iter_names"]
