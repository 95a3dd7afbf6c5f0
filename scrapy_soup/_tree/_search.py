"""The engine behind the find_* family (`._find` holds the public methods).

Every search builds bs4's `SoupStrainer` from its arguments and returns what
bs4 returns, in the same order.  How it gets there depends on the filter:

- tag filters compile (`._xpath`) to one XPath along the method's axis
  (``descendant::``, ``following::``, ``ancestor::``, ...), evaluated by
  lxml in C; only the groups XPath cannot decide (callables, ``string=`` on
  tags) are checked in Python, on the candidates XPath kept;
- string filters below a tag read the text nodes with one XPath and compare
  the view's strings (bs4 collapses whitespace-only strings, so the view's
  value is what must match);
- anything else (a custom `ElementFilter`, string searches along other
  axes, strings that live at the document level) walks the view's
  navigation in Python, exactly as bs4 does.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from lxml import etree

from . import _xpath
from ._classes import classes
from ._descend import iter_names
from ._identity import NO_REF, TAIL_REFS, TEXT_REFS, WRAPPER_REFS, wrap, wrap_all
from ._strainer import (
    AttributeResemblesVariableWarning,
    ElementFilter,
    ResultSet,
    SoupStrainer,
)
from ._tables import ASCII_SPACES
from ._text import new_string, segmented, text_string
from ._warn import warn_user

if TYPE_CHECKING:
    from ._node import PageElement

#: bs4's direction names -> (the view's generator, results nearest first?)
_GENERATORS = {
    "descendants": "descendants",
    "children": "children",
    "next": "next_elements",
    "previous": "previous_elements",
    "next_siblings": "next_siblings",
    "previous_siblings": "previous_siblings",
    "parents": "parents",
}


def _is_document(node: Any) -> bool:
    return isinstance(node, classes.Soup)


#: The argument types a search's strainer is cached for (`_call_key`): plain
#: data, and compiled patterns, which behave alike when equal.  Not callables:
#: a lambda written in a loop is a new object on every call.
_PLAIN_TYPES = frozenset({str, bytes, bool, type(None), re.Pattern})


class _NotPlain(Exception):
    """An argument `_call_key` does not cache by."""


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if (kind is list or kind is tuple) and all(type(item) is str for item in value):
        return (kind, *value)  # never equal to a plain value
    raise _NotPlain


def _call_key(
    name: Any, attrs: Any, string: Any, kwargs: dict[str, Any]
) -> Hashable | None:
    """A key for a search's filter arguments, or None when one is not plain data."""
    try:
        if type(attrs) is dict:
            attrs = tuple([(attr, _plain(v)) for attr, v in attrs.items()])
        else:
            attrs = _plain(attrs)
        return (
            _plain(name),
            attrs,
            _plain(string),
            tuple([(attr, _plain(v)) for attr, v in kwargs.items()]),
        )
    except _NotPlain:
        return None


#: Built strainers and their tag plans (HTML, XML) by `_call_key`: a search
#: called again with the same arguments (every page of a crawl) skips
#: building them, half of a small page's ``find_all``.  The strainers are
#: shared: ``ResultSet.source`` of two such searches is the same object.
_STRAINERS: dict[Hashable, tuple[SoupStrainer, list[Any]]] = {}
_STRAINERS_MAX = 512


class _Plan:
    """Where to evaluate a tag XPath for one anchor and direction."""

    __slots__ = ("axes", "context", "doc_last", "from_end", "reverse")

    def __init__(
        self,
        context: Any,
        axes: tuple[str, ...],
        reverse: bool = False,
        doc_last: bool = False,
    ) -> None:
        self.context = context
        if "preceding" in axes:
            axes = (*axes, _TOP_BEFORE)
        self.axes = axes
        # Reverse axes in one step count from the anchor; a union is in
        # document order and must be reversed (and limited from the end).
        self.reverse = reverse
        self.from_end = reverse and len(axes) > 1
        self.doc_last = doc_last


#: libxml2's preceding axis leaves out the top-level elements before the
#: anchor's own top-level ancestor (a second <html> made by content after a
#: stray </html> has one): this step adds them.
_TOP_BEFORE = "ancestor-or-self::*[not(parent::*)]/preceding-sibling"
_OR_SELF = ("descendant-or-self",)
_SELF = ("self",)
#: direction -> (axes, reverse, doc_last) of a search from a tag.
_TAG_AXES: dict[str, tuple[tuple[str, ...], bool, bool]] = {
    "descendants": (("descendant",), False, False),
    "children": (("child",), False, False),
    "next": (("descendant", "following"), False, False),
    "previous": (("ancestor", "preceding"), True, False),
    "parents": (("ancestor",), True, True),
    "next_siblings": (("following-sibling",), False, False),
    "previous_siblings": (("preceding-sibling",), True, False),
}


def _axes_plan(anchor: Any, direction: str) -> _Plan | None:
    """The XPath context and axes for a search from ``anchor``, or None to walk in Python."""
    if _is_document(anchor):
        el = anchor._el
        if el is not None:  # fragment: a container holds the top-level nodes
            if direction in ("descendants", "next"):
                return _Plan(el, ("descendant",))
            if direction == "children":
                return _Plan(el, ("child",))
            return _Plan(None, ())
        root = anchor._doc._root  # (the soup's `_root`, without its descriptor)
        if root is None:
            return _Plan(None, ())
        # libxml2 puts content after a stray </html> in a second top-level
        # element: a following sibling of the root, a child of the document.
        # Only then the union: one axis lets libxml2 stop at the first match
        # of find() and dot access.
        after = root.getnext() is not None and any(
            isinstance(n.tag, str) for n in root.itersiblings()
        )
        if direction in ("descendants", "next"):
            axes: tuple[str, ...] = (
                ("descendant-or-self", "following") if after else _OR_SELF
            )
            return _Plan(root, axes)
        if direction == "children":
            return _Plan(root, ("self", "following-sibling") if after else _SELF)
        return _Plan(None, ())  # nothing before, above or beside the document
    if isinstance(anchor, classes.Tag):
        axes, reverse, doc_last = _TAG_AXES[direction]
        return _Plan(anchor._el, axes, reverse, doc_last)
    if isinstance(anchor, classes.NavigableString):
        node = anchor._el
        if node is not None:  # a comment or PI: an lxml node of its own
            return _node_plan(node, direction)
        owner = anchor._owner
        if owner is None or not anchor._is_live():
            return None
        if not isinstance(owner.tag, str):  # the tail of a comment or PI
            return _node_plan(owner, direction) if anchor._tail else None
        if not anchor._tail:  # owner.text: before owner's children
            return {
                "next": lambda: _Plan(owner, ("descendant", "following")),
                "previous": lambda: _Plan(
                    owner, ("ancestor-or-self", "preceding"), reverse=True
                ),
                "parents": lambda: _Plan(
                    owner, ("ancestor-or-self",), reverse=True, doc_last=True
                ),
                "next_siblings": lambda: _Plan(owner, ("child",)),
                "previous_siblings": lambda: _Plan(None, ()),
            }.get(direction, lambda: None)()
        if owner.getparent() is None:
            return None
        return {
            "next": lambda: _Plan(owner, ("following",)),
            "previous": lambda: _Plan(
                owner, ("descendant-or-self", "ancestor", "preceding"), reverse=True
            ),
            "parents": lambda: _Plan(owner, ("ancestor",), reverse=True, doc_last=True),
            "next_siblings": lambda: _Plan(owner, ("following-sibling",)),
            "previous_siblings": lambda: _Plan(
                owner, ("self", "preceding-sibling"), reverse=True
            ),
        }.get(direction, lambda: None)()
    return None


def _node_plan(node: Any, direction: str) -> _Plan | None:
    """The plan for a comment or PI: lxml's XPath needs an element as context.

    The tags after a leaf node are its next element sibling, that sibling's
    descendants and everything following it; the tags before it are its
    previous element sibling (and its descendants), that sibling's ancestors
    and everything preceding it.  Without such a sibling the parent stands in.
    """
    after = next(node.itersiblings(etree.Element), None)
    before = next(node.itersiblings(etree.Element, preceding=True), None)
    parent = node.getparent()
    if direction == "parents":
        if parent is None:
            return _Plan(None, (), doc_last=True)
        return _Plan(parent, ("ancestor-or-self",), reverse=True, doc_last=True)
    if direction == "next":
        if after is not None:
            return _Plan(after, ("descendant-or-self", "following"))
        return _Plan(parent, ("following",)) if parent is not None else _Plan(None, ())
    if direction == "previous":
        if before is not None:
            return _Plan(
                before, ("descendant-or-self", "ancestor", "preceding"), reverse=True
            )
        if parent is not None:
            return _Plan(parent, ("ancestor-or-self", "preceding"), reverse=True)
        return _Plan(None, ())
    if direction == "next_siblings":
        if after is None:
            return _Plan(None, ())
        return _Plan(after, ("self", "following-sibling"))
    if direction == "previous_siblings":
        if before is None:
            return _Plan(None, ())
        return _Plan(before, ("self", "preceding-sibling"), reverse=True)
    return None


def _document_of(node: Any) -> Any:
    return node._doc


def _is_xml(doc: Any) -> bool:
    return doc is not None and doc._mode == "xml"


def _mode(doc: Any) -> str:
    if doc is None:
        return "html"
    return str(doc._mode)


def _container(doc: Any) -> Any:
    """The synthetic element that holds a fragment's nodes (never a result)."""
    if doc is not None and doc._mode == "fragment":
        return doc._el
    return None


def _normalize_limit(limit: Any) -> int | None:
    if limit is None:
        return None
    if not isinstance(limit, int):
        raise TypeError(f"limit must be an int or None, not {type(limit).__name__}")
    # bs4 checks the limit after adding a result: 0 or less gives one result.
    return max(limit, 1)


def _string_acceptor(matcher: SoupStrainer) -> Callable[[str], bool]:
    """A test of one string value against a strainer's string rules (bs4's ``match``)."""
    rules = matcher.string_rules
    if len(rules) == 1:
        rule = rules[0]
        if rule.present is True:
            return bool
        if rule.string is not None:
            literal = rule.string
            return lambda value: value == literal
        pattern = rule.pattern
        if pattern is not None:
            search = pattern.search
            return lambda value: search(value) is not None
        only = rule.matches_string
        return lambda value: bool(value) and only(value)
    return lambda value: bool(value) and any(r.matches_string(value) for r in rules)


def _literal_strings(
    item: Any,
    xpath: Any,
    doc: Any,
    accept: Callable[[str], bool],
    limit: int | None,
    results: list[Any],
) -> None:
    """Strings equal to literal rules: XPath finds the (rare) text nodes that hold them."""
    last_slot: tuple[Any, bool] | None = None
    for node in xpath(item):
        if isinstance(node, str):
            owner = node.getparent()  # type: ignore[attr-defined]
            tail = bool(node.is_tail)  # type: ignore[attr-defined]
            if last_slot is not None and last_slot[0] is owner and last_slot[1] == tail:
                continue  # one slot split into several text nodes
            last_slot = (owner, tail)
            string = text_string(owner, tail, doc)
        else:
            last_slot = None
            string = wrap(node, doc)
        if string is None or not accept(string):
            continue
        results.append(string)
        if limit is not None and len(results) >= limit:
            return


_PRESERVING = etree.XPath(
    "boolean(ancestor-or-self::pre | ancestor-or-self::textarea"
    " | descendant::pre | descendant::textarea)"
)


def _every_string(top: Any, doc: Any, results: list[Any]) -> None:
    """`_walk_strings` for ``string=True``: every text slot, comment and PI.

    No text slot's string is empty (a whitespace-only one collapses to a
    space or a newline), so each is a result: the remembered ones are read
    inline, without `_walk_strings`' three calls per string.
    """
    get_text = TEXT_REFS.get
    get_tail = TAIL_REFS.get
    append = results.append
    raw = top.text
    if raw:
        append(text_string(top, False, doc, raw))
    stack = [top]
    nodes = top.iter()
    next(nodes)
    for el in nodes:
        parent = el.getparent()
        while stack[-1] is not parent:
            done = stack.pop()
            raw = done.tail
            if raw:
                found = get_tail(done, NO_REF)()
                if found is None or found._raw != raw:
                    found = new_string(done, True, doc, raw, None)
                append(found)
        stack.append(el)
        if isinstance(el.tag, str):
            raw = el.text
            if raw:
                found = get_text(el, NO_REF)()
                if found is None or found._raw != raw:
                    found = new_string(el, False, doc, raw, None)
                append(found)
        else:  # a comment or PI: an empty one is no result
            string = WRAPPER_REFS.get(el, NO_REF)() or wrap(el, doc)
            if string:
                append(string)
    while len(stack) > 1:
        done = stack.pop()
        raw = done.tail
        if raw:
            append(text_string(done, True, doc, raw))


def _walk_strings(
    top: Any,
    doc: Any,
    accept: Callable[[str], bool],
    limit: int | None,
    results: list[Any],
    impure: bool,
) -> None:
    """Every string below ``top`` in document order that ``accept`` takes.

    One walk of lxml's ``iter()`` that reads each text slot as it passes
    (a stack of open elements puts each tail after its element's subtree,
    in document order): the text is tested as the view reads it (bs4
    collapses whitespace-only strings outside ``<pre>``/``<textarea>``), and
    the view's string is built only for the ones that pass.  Half the cost
    of an XPath for every text node, which builds a "smart" string and a
    parent proxy for each.
    """
    if accept is bool and limit is None:
        _every_string(top, doc, results)
        return
    # (The html5 mode's whitespace reads as parsed everywhere: as in a <pre>.)
    preserving = (doc is not None and not doc._collapses) or bool(_PRESERVING(top))
    newline = accept("\n")
    space = accept(" ")
    # Pages repeat their texts (menus, labels, indentation): without
    # callables a verdict holds for every copy, so each distinct text is
    # tested once.
    verdicts: dict[str, int] = {}
    known = verdicts.get

    def verdict(raw: str) -> int:
        """0: not a match; 1: a match as it is; 2: decided on the view's string."""
        # Not only whitespace: looking at the ends first spares a copy of
        # every long text (scripts) that strip() would make.
        if (
            raw[:1] not in ASCII_SPACES
            or raw[-1:] not in ASCII_SPACES
            or raw.strip(ASCII_SPACES)
        ):
            v = 1 if accept(raw) else 0
        elif (newline if "\n" in raw else space) or (preserving and accept(raw)):
            v = 2
        else:
            v = 0
        if not impure:
            verdicts[raw] = v
        return v

    def found(owner: Any, is_tail: bool, raw: str, check: bool) -> bool:
        """Add a matching text slot's string; True when ``limit`` is reached."""
        string = text_string(owner, is_tail, doc, raw)
        if check and not (string and accept(string)):
            return False
        results.append(string)
        return limit is not None and len(results) >= limit

    def test(owner: Any, is_tail: bool, raw: str) -> bool:
        """Test a text slot not known to fail; True when ``limit`` is reached."""
        v = known(raw, -1)
        if v < 0:
            v = verdict(raw)
        return v > 0 and found(owner, is_tail, raw, v == 2)

    # ``known(raw, -1)`` before each call: most slots are empty or repeat a
    # text already known not to match, and a call per slot was a third of
    # the search.
    raw = top.text
    if raw and known(raw, -1) and test(top, False, raw):
        return
    stack = [top]
    nodes = top.iter()
    next(nodes)
    for el in nodes:
        parent = el.getparent()
        while stack[-1] is not parent:
            done = stack.pop()
            raw = done.tail
            if raw and known(raw, -1) and test(done, True, raw):
                return
        stack.append(el)
        if isinstance(el.tag, str):
            raw = el.text
            if raw and known(raw, -1) and test(el, False, raw):
                return
        else:  # a comment or PI: tested as the view's string
            string = wrap(el, doc)
            if string and accept(string):
                results.append(string)
                if limit is not None and len(results) >= limit:
                    return
    while len(stack) > 1:
        done = stack.pop()
        raw = done.tail
        if raw and known(raw, -1) and test(done, True, raw):
            return


class SearchMixin:
    """The engine of bs4's search methods, shared by tags and strings."""

    __slots__ = ()

    # -- the engine ----------------------------------------------------------------
    def _find_all(
        self,
        direction: str,
        name: Any,
        attrs: Any,
        string: Any,
        limit: Any,
        kwargs: dict[str, Any],
    ) -> ResultSet[Any]:
        """Run one bs4 search (``PageElement._find_all``) from this node in ``direction``."""
        if string is None and "text" in kwargs:
            string = kwargs.pop("text")
            warn_user(
                "The 'text' argument to find()-type methods is deprecated. Use 'string' instead.",
                DeprecationWarning,
            )
        if "_class" in kwargs:
            warn_user(
                AttributeResemblesVariableWarning.MESSAGE
                % {"original": "_class", "autocorrect": "class_"},
                AttributeResemblesVariableWarning,
            )
        plans: list[Any] | None = None
        if isinstance(name, ElementFilter):
            matcher: ElementFilter = name
        elif (key := _call_key(name, attrs, string, kwargs)) is None:
            matcher = SoupStrainer(name, attrs, string, **kwargs)
        else:
            cached = _STRAINERS.get(key)
            if cached is None:
                if len(_STRAINERS) >= _STRAINERS_MAX:  # the oldest goes
                    del _STRAINERS[next(iter(_STRAINERS))]
                strainer = SoupStrainer(name, attrs, string, **kwargs)
                cached = _STRAINERS[key] = (strainer, [None, None])
            matcher, plans = cached
        if (
            string is None
            and not limit
            and not attrs
            and not kwargs
            and (name is True or name is None or isinstance(name, str))
        ):
            # bs4's unfiltered fast path ignores a limit of 0.
            limit = None
        n = _normalize_limit(limit)
        if getattr(self, "_decomposed", False):  # (the `decomposed` property's)
            return ResultSet(matcher, [])
        if (
            type(matcher) is SoupStrainer
            and not matcher.includes_everything
            and not (matcher.string_rules and segmented(self))
        ):
            if matcher.name_rules or matcher.attribute_rules:
                found = self._tags_compiled(direction, matcher, n, plans)
                if found is not None:
                    return ResultSet(matcher, found)
            elif direction == "descendants":
                found = self._strings_below(matcher, n)
                if found is not None:
                    return ResultSet(matcher, found)
        return self._walk(direction, matcher, n)

    def _walk(
        self, direction: str, matcher: ElementFilter, limit: int | None
    ) -> ResultSet[Any]:
        """bs4's own loop over the view's navigation (the exact fallback)."""
        generator: Iterator[Any] = getattr(self, _GENERATORS[direction])
        if direction == "previous":
            # bs4's document object is never among previous_elements.
            generator = (node for node in generator if not _is_document(node))
        return matcher.find_all(generator, limit)

    def _tags_compiled(
        self,
        direction: str,
        matcher: SoupStrainer,
        limit: int | None,
        plans: list[Any] | None = None,
    ) -> list[Any] | None:
        """A tag search by XPath; ``plans`` keeps the matcher's plans (`_STRAINERS`)."""
        plan = _axes_plan(self, direction)
        if plan is None:
            return None
        doc = _document_of(self)
        results: list[Any] = []
        if plan.context is not None and plan.axes:
            xml = _is_xml(doc)
            if plans is None:
                tag_plan = _xpath.tag_plan(matcher, xml)
            else:
                tag_plan = plans[xml]
                if tag_plan is None:
                    tag_plan = plans[xml] = _xpath.tag_plan(matcher, xml)
            if tag_plan.never:
                return []
            container = _container(doc)
            guard = container is not None and plan.reverse
            xlimit = limit if tag_plan.exact and not guard else None
            # A union is in document order: on reverse axes, limit from its end.
            from_end = plan.from_end or (plan.reverse and len(tag_plan.names) > 1)
            nodes = iter_names(tag_plan, plan.context, plan.axes, xlimit, xml, matcher)
            if nodes is None:
                xpath = _xpath.tag_xpath(tag_plan, plan.axes, xlimit, from_end)
                nodes = xpath(plan.context)
            if plan.reverse:
                nodes.reverse()
            if tag_plan.exact:
                if guard:
                    nodes = [node for node in nodes if node is not container]
                if limit is not None:
                    nodes = nodes[:limit]
                    if len(nodes) == limit:
                        return wrap_all(nodes, doc)
                results = wrap_all(nodes, doc)
            elif (
                not (guard or tag_plan.python_name or tag_plan.raw_name)
                and not tag_plan.python_string
                and (kept := tag_plan.attribute_filter(nodes)) is not None
            ):
                results = wrap_all(kept if limit is None else kept[:limit], doc)
                if limit is not None and len(results) >= limit:
                    return results
            else:
                # bs4's order of tests (name, attributes, string), but a Tag
                # is built only when a name callable or a string rule needs one.
                xml = _is_xml(doc)
                by_name = tag_plan.python_name
                raw_name = tag_plan.raw_name
                by_attrs = bool(tag_plan.python_attrs)
                by_string = tag_plan.python_string
                attrs_match = tag_plan.attrs_match
                name_match = tag_plan.name_match
                matches_name = matcher.matches_name
                rules = matcher.name_rules
                if by_name and len(rules) == 1 and rules[0].function is not None:
                    # One function (find_all(lambda t: ...)): bs4 calls it
                    # with the tag and takes its truth, nothing else.
                    function = rules[0].function

                    def matches_name(tag: Any) -> bool:
                        return bool(function(tag))

                get_wrapper = WRAPPER_REFS.get
                for node in nodes:
                    if guard and node is container:
                        continue
                    if raw_name and not name_match(matcher, node, xml):
                        continue
                    if by_name:
                        ref = get_wrapper(node)
                        tag = ref() if ref is not None else None
                        if tag is None:
                            tag = wrap(node, doc)
                        if not matches_name(tag):
                            continue
                        if by_attrs and not attrs_match(matcher, node, xml):
                            continue
                    else:
                        if by_attrs and not attrs_match(matcher, node, xml):
                            continue
                        tag = wrap(node, doc)
                    if by_string and not tag_plan.string_match(matcher, tag):
                        continue
                    results.append(tag)
                    if limit is not None and len(results) >= limit:
                        return results
        if plan.doc_last and doc is not None and matcher.matches_tag(doc.soup):
            results.append(doc.soup)
        return results

    def _strings_below(
        self, matcher: SoupStrainer, limit: int | None
    ) -> list[Any] | None:
        """Strings below this tag matching string-only rules, without wrapping the others.

        Literal rules select the text nodes with one XPath; other rules walk
        the lxml tree once, test each raw text (as the view reads it:
        whitespace-only strings collapse) and build strings only for matches.
        """
        doc = _document_of(self)
        if _is_xml(doc) or not isinstance(self, classes.Tag):
            return None
        top: list[Any]
        if _is_document(self):
            if self._el is not None:
                top = [self._el]
            else:
                top = [
                    item._el if isinstance(item, classes.Tag) else item
                    for item in self.contents
                ]
        else:
            top = [self._el]
        xpath, exact = _xpath.string_xpath(matcher)
        accept = _string_acceptor(matcher)
        results: list[Any] = []
        for item in top:
            if not hasattr(item, "tag"):  # a document-level string of the view
                if item and accept(item):
                    results.append(item)
                    if limit is not None and len(results) >= limit:
                        return results
                continue
            if exact:
                if xpath is not None:
                    _literal_strings(item, xpath, doc, accept, limit, results)
            else:
                impure = any(r.function is not None for r in matcher.string_rules)
                _walk_strings(item, doc, accept, limit, results, impure)
            if limit is not None and len(results) >= limit:
                return results
        return results

    def _find_one(
        self, method: Callable[..., Sequence[PageElement]], *args: Any, **kwargs: Any
    ) -> PageElement | None:
        results = method(*args, limit=1, **kwargs)
        return results[0] if results else None

    def _find_by_name(self, name: str) -> Any:
        """The first descendant tag called ``name`` (dot access), or False to take the long way."""
        if not isinstance(self, classes.Tag) or self._decomposed:
            return False
        plan = _axes_plan(self, "descendants")
        if plan is None or plan.context is None:
            return None if plan is not None else False
        doc = _document_of(self)
        tag_plan = _xpath.name_plan(name, _is_xml(doc))
        if not tag_plan.exact:
            return False
        if tag_plan.never:
            return None
        # (libxml2 stops at the first: sooner than `iter_names`)
        nodes = _xpath.tag_xpath(tag_plan, plan.axes, 1)(plan.context)
        return wrap(nodes[0], doc) if nodes else None


#: bs4's old method names (camelCase from bs3, ``fetch*``), all deprecated there.
ALIASES: dict[str, tuple[str, str]] = {
    "findAll": ("find_all", "4.0.0"),
    "findChildren": ("find_all", "3.0.0"),
    "findChild": ("find", "3.0.0"),
    "findNext": ("find_next", "4.0.0"),
    "findAllNext": ("find_all_next", "4.0.0"),
    "findNextSibling": ("find_next_sibling", "4.0.0"),
    "findNextSiblings": ("find_next_siblings", "4.0.0"),
    "fetchNextSiblings": ("find_next_siblings", "3.0.0"),
    "findPrevious": ("find_previous", "3.0.0"),
    "findAllPrevious": ("find_all_previous", "4.0.0"),
    "fetchAllPrevious": ("find_all_previous", "3.0.0"),
    "findPreviousSibling": ("find_previous_sibling", "4.0.0"),
    "findPreviousSiblings": ("find_previous_siblings", "4.0.0"),
    "fetchPreviousSiblings": ("find_previous_siblings", "3.0.0"),
    "findParent": ("find_parent", "4.0.0"),
    "findParents": ("find_parents", "4.0.0"),
    "fetchParents": ("find_parents", "3.0.0"),
}


def _alias(old: str, new: str, version: str) -> Callable[..., Any]:
    def alias(self: Any, *args: Any, **kwargs: Any) -> Any:
        warnings.warn(
            f"Call to deprecated method {old}. (Replaced by {new}) -- "
            f"Deprecated since version {version}.",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(self, new)(*args, **kwargs)

    alias.__name__ = old
    alias.__doc__ = f"Deprecated alias of `{new}` (bs4 warns too)."
    return alias


for _old, (_new, _version) in ALIASES.items():
    setattr(SearchMixin, _old, _alias(_old, _new, _version))

__all__ = ["ALIASES", "SearchMixin"]

if TYPE_CHECKING:  # keep the import used for annotations only
    _unused: PageElement | None = None
