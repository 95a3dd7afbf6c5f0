"""Selector groups (``select("p, a")``) in document order without a quadratic merge.

An XPath union ``a | b`` is what a group means, but libxml2 merges the two
node-sets with a duplicate check of every node of one against every node
of the other: ``select("p, a")`` over 80,000 matches spent seconds there.
A disjunction in one step (``*[self::p or self::a]``) is linear but tests
a predicate on every element, 3-5x slower than the union on ordinary pages.
So each selector of a group runs as its own step (the walks the union made
anyway), and the results are merged here: by libxml2 when they are small
(the union of node-set variables sorts in C) when a walk would visit every
element, else by one walk in document order over the elements of the
group's names.  Groups cost 0-40% more than the union on ordinary pages
(one XPath call per selector), and stay linear on hostile ones.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ._cache import LRU

#: Above this many node comparisons, libxml2's merge costs more than a walk.
_MERGE_IN_C_LIMIT = 200_000

_UNIONS = LRU(64)


def _union_of(count: int) -> Any:
    """A compiled ``$v0 | $v1 | ...`` of ``count`` node-set variables."""
    return _UNIONS.get_or_make(
        count,
        lambda: etree.XPath(
            " | ".join(f"$v{i}" for i in range(count)), smart_strings=False
        ),
    )


def merge_group(
    context: Any, results: list[list[Any]], names: list[str] | None, child: bool
) -> list[Any]:
    """The union of ``results`` (each in document order) in document order, no duplicates.

    The steps went from ``context`` down its descendants (and maybe itself),
    or along its children with ``child``; ``names`` lists the element names
    their node tests require (None: any element).
    """
    found = [r for r in results if r]
    if len(found) <= 1:
        return found[0] if found else []
    comparisons = 0
    seen = 0
    for nodes in found:
        comparisons += seen * len(nodes)
        seen += len(nodes)
    if names is None and comparisons <= _MERGE_IN_C_LIMIT:
        # A walk would visit every element: libxml2 merges a few faster.
        variables = {f"v{i}": nodes for i, nodes in enumerate(found)}
        return _union_of(len(found))(context, **variables)  # type: ignore[no-any-return]
    members: set[Any] = set()
    for nodes in found:
        members.update(nodes)
    # The steps found only nodes on their axis: walking the context's
    # subtree (or children) and keeping the members puts them in order.
    tags = names if names else [etree.Element]
    walk = context.iterchildren(*tags) if child else context.iter(*tags)
    return [el for el in walk if el in members]
