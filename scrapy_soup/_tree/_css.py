"""CSS selectors through cssselect, with soupsieve's meaning (bs4's ``tag.css``).

bs4 runs selectors with soupsieve, in Python.  Here cssselect translates
them to XPath and lxml runs them in C.  `SoupSieveTranslator` is cssselect's
HTML translator changed wherever its XPath means something other than
soupsieve's match:

- A selector is a *match* on each candidate (soupsieve's model), not a path
  from the starting tag: ``tag.select("div p")`` finds the ``p`` below
  ``tag`` that have a ``div`` ancestor anywhere, as soupsieve does, where
  cssselect's path would need the ``div`` inside ``tag``.
- ``:empty`` ignores comments and whitespace-only text.
- Attribute selectors see bs4's values: multi-valued attributes joined by
  single spaces, HTML's case-insensitive attributes (``type``, ``rel``, ...)
  compared in ASCII lower case, soupsieve's operators (``^=``, ``$=``, ``*=``
  and ``~=`` with an empty value match nothing); ``.cls`` tests bs4's class
  list.
- ``:root``, ``:only-child`` count only elements and hold for the document
  element; ``*:first-of-type`` and friends work without a type.
- ``:link``/``:any-link`` are ``a``/``area`` with ``href`` (not ``link``);
  ``:checked`` is soupsieve's.
- ``:-soup-contains()``/``:-soup-contains-own()`` (and ``:contains()``) use
  the view's text.
- ``<template>`` contents are outside the document, as in soupsieve.

A selector cssselect cannot parse or translate raises `SelectorError`
(a ``ValueError``) whose message names the selector and the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from cssselect import HTMLTranslator
from cssselect import SelectorError as _CSSSelectorError
from cssselect.parser import CombinedSelector
from cssselect.xpath import ExpressionError, XPathExpr

from ._attrs import CDATA_LIST_ATTRIBUTES, split_value
from ._text import normalize_text
from ._xpath import NS, literal

if TYPE_CHECKING:
    pass

_NOT_EMPTY = re.compile("[^ \t\r\n\f]")
_CSS_WS = re.compile("[ \t\r\n\f]")
#: Any whitespace (Python's): a class name holding some is never one token.
_HAS_SPACE = re.compile(r"\s")
_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")

#: soupsieve's ``HTML_CASE_INSENSITIVE_ATTRIBUTES``: compared in ASCII lower case in HTML.
HTML_CASE_INSENSITIVE_ATTRIBUTES = frozenset(
    (
        "accept", "accept-charset", "align", "alink", "axis", "bgcolor", "charset", "checked",
        "clear", "codetype", "color", "compact", "declare", "defer", "dir", "direction",
        "disabled", "enctype", "face", "frame", "hreflang", "http-equiv", "lang", "language",
        "link", "media", "method", "multiple", "nohref", "noresize", "noshade", "nowrap",
        "readonly", "rel", "rev", "rules", "scope", "scrolling", "selected", "shape", "target",
        "text", "type", "valign", "valuetype", "vlink",
    )
)  # fmt: skip
_UNIVERSAL_MULTI = CDATA_LIST_ATTRIBUTES["*"]


class SelectorError(ValueError, _CSSSelectorError):
    """A CSS selector that cssselect cannot parse or translate to XPath.

    Also a cssselect ``SelectorError``: code written for parsel's errors
    catches it.
    """


class SelectorSyntaxError(SelectorError):
    """A selector that does not parse (soupsieve's exception of that name).

    A selector that parses but that cssselect cannot translate (an unknown
    pseudo-class, a pseudo-element) raises `SelectorError` only, where
    soupsieve raises its ``SelectorSyntaxError`` for the unknown ones.
    """


def _add(xpath: XPathExpr, condition: str) -> XPathExpr:
    """``xpath.add_condition`` (it changes ``xpath`` in place), typed for mypy."""
    xpath.add_condition(condition)
    return xpath


def _ascii_lower(value: str) -> str:
    return value.translate(_LOWER)


_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _el_name(el: Any) -> str:
    tag: str = el.tag
    return tag.split("}", 1)[1] if tag[0] == "{" else tag


# -- extension functions (they get lxml nodes, never view objects) -----------


def _nonblank(_ctx: Any, text: str) -> bool:
    """soupsieve's RE_NOT_EMPTY on a text node's value.

    Called as ``fn(string(.))``: a plain string crosses from libxml2, where
    a node-set argument would be a list of "smart" strings, each making a
    proxy for its parent element (a third of the time of ``:empty``).
    """
    return _NOT_EMPTY.search(text) is not None


def _of_type(_ctx: Any, nodes: list[Any], a: float, b: float, last: bool) -> bool:
    """``:nth(-last)-of-type(an+b)`` for an element of any type."""
    el = nodes[0]
    count = sum(1 for _ in el.itersiblings(el.tag, preceding=not last))
    return _nth(count + 1, int(a), int(b))


def _nth(index: int, a: int, b: int) -> bool:
    if a == 0:
        return index == b
    diff = index - b
    return diff % a == 0 and diff // a >= 0


def _own_text(el: Any, xml: bool, collapse: bool = True) -> list[str]:
    """The content strings directly in ``el`` (soupsieve's ``get_own_text``), as the view reads them."""
    if not xml and el.tag == "template":
        return []
    raws = [el.text] + [child.tail for child in el]
    if not collapse:
        return [raw for raw in raws if raw]
    return [normalize_text(raw, el, xml) for raw in raws if raw]


def _contains(_ctx: Any, nodes: list[Any], own: bool, xml: bool, *values: str) -> bool:
    el = nodes[0]
    if own:
        texts = _own_text(el, xml)
        return any(v in t for v in values for t in texts)
    text = "".join(_iter_text(el, xml))
    return any(v in text for v in values)


def _contains_as_parsed(_ctx: Any, nodes: list[Any], own: bool, *values: str) -> bool:
    """`_contains` in the html5 mode, whose strings read as parsed
    (``Document._collapses``)."""
    el = nodes[0]
    if own:
        texts = _own_text(el, False, collapse=False)
        return any(v in t for v in values for t in texts)
    text = "".join(_iter_text(el, False, collapse=False))
    return any(v in text for v in values)


def _as_parsed(raw: str, _parent: Any, _xml: bool) -> str:
    return raw


def _iter_text(el: Any, xml: bool, collapse: bool = True) -> Iterator[str]:
    """All content strings below ``el`` in document order, skipping template contents.

    A loop with a stack of open elements, not recursion: a page may nest
    elements deeper than Python's recursion limit.
    """
    if not xml and el.tag == "template":
        return
    read = normalize_text if collapse else _as_parsed
    if el.text:
        yield read(el.text, el, xml)
    stack: list[tuple[Any, Iterator[Any]]] = [(el, iter(el))]
    while stack:
        parent, children = stack[-1]
        for child in children:
            if isinstance(child.tag, str) and (xml or child.tag != "template"):
                if child.text:
                    yield read(child.text, child, xml)
                stack.append((child, iter(child)))
                break
            if child.tail:
                yield read(child.tail, parent, xml)
        else:
            stack.pop()
            if stack and parent.tail:
                yield read(parent.tail, stack[-1][0], xml)


class _AttrMatcher:
    """soupsieve's attribute test for one selector, run on the raw lxml value."""

    def __init__(
        self, name: str, op: str, value: str | None, flag: str | None, xml: bool
    ) -> None:
        self.name = name
        self.xml = xml
        self.inverse = op == "!="
        if flag:
            ignore_case = flag == "i"
        else:
            ignore_case = not xml and name.lower() in HTML_CASE_INSENSITIVE_ATTRIBUTES
        self.ignore_case = ignore_case
        if value is None:
            self.pattern = None
            return
        if ignore_case:
            value = _ascii_lower(value)
        self.pattern = _attribute_pattern(op, value)

    def __call__(self, _ctx: Any, nodes: list[Any]) -> bool:
        el = nodes[0]
        raw = el.get(self.name)
        if raw is None:
            return self.inverse
        if self.pattern is None:
            return True
        value = raw
        if not self.xml and (
            self.name in _UNIVERSAL_MULTI
            or self.name in CDATA_LIST_ATTRIBUTES.get(_el_name(el), ())
        ):
            value = " ".join(split_value(raw))
        if self.ignore_case:
            value = _ascii_lower(value)
        return self.pattern.search(value) is not None


def _attribute_pattern(op: str, value: str) -> re.Pattern[str]:
    """soupsieve's ``parse_attribute_pattern``."""
    if op == "^=":
        source = r"^(?!)" if not value else rf"^{re.escape(value)}"
    elif op == "$=":
        source = r"(?!)" if not value else rf"{re.escape(value)}\Z"
    elif op == "*=":
        source = r"(?!)" if not value else re.escape(value)
    elif op == "~=":
        word = r"(?!)" if not value or _CSS_WS.search(value) else re.escape(value)
        source = rf"(?:(?<=^)|(?<=[ \t\r\n\f])){word}(?=(?:[ \t\r\n\f]|\Z))"
    elif op == "|=":
        source = rf"^{re.escape(value)}(?:-.*)?\Z"
    elif op == "!=":
        source = rf"^(?!{re.escape(value)}\Z)"
    else:
        source = rf"^{re.escape(value)}\Z"
    return re.compile(source, re.DOTALL)


class _ClassMatcher:
    """bs4's class list test (``.cls``) on the raw attribute."""

    def __init__(self, name: str, xml: bool) -> None:
        self.name = name
        self.xml = xml

    def __call__(self, _ctx: Any, value: str) -> bool:
        # Called as ``fn(string(@class))`` after ``@class`` (see `_nonblank`).
        tokens = _CSS_WS.split(value) if self.xml else split_value(value)
        return self.name in tokens


class SoupSieveTranslator(HTMLTranslator):
    """cssselect's HTML translator, changed to match what soupsieve matches.

    ``mode`` is the soup's mode (``"html"``, ``"xml"``, ``"fragment"``);
    with ``templates`` the expressions keep to the ``<template>`` world of
    ``$tk`` enclosing templates (soupsieve does not enter template contents).
    """

    def __init__(self, mode: str = "html", templates: bool = False) -> None:
        super().__init__(xhtml=mode == "xml")
        self.mode = mode
        self.xml = mode == "xml"
        self.templates = templates and not self.xml
        self.extensions: dict[tuple[str, str], Callable[..., Any]] = {}
        if self.xml:
            # XML is case-sensitive (cssselect's GenericTranslator behaviour).
            self.lower_case_element_names = False
            self.lower_case_attribute_names = False

    # -- helpers -------------------------------------------------------------
    def _fn(self, fn: Callable[..., Any]) -> str:
        name = f"c{len(self.extensions)}"
        self.extensions[(NS, name)] = fn
        return f"ss:{name}"

    @property
    def _world(self) -> str:
        """A predicate: the node is in the same template world as the results."""
        return "count(ancestor::template) = $tk"

    def _lit(self, value: str) -> str:
        lit = literal(value)
        if lit is None:
            raise ExpressionError(
                f"cannot match {value!r} in XPath (control characters)"
            )
        return lit

    def _name_condition(self, expr: XPathExpr) -> str | None:
        """``expr`` as a condition on the context node (element name test included)."""
        element = expr.element
        conds: list[str] = []
        if element != "*" and self.xml and ":" not in element:
            # soupsieve: an unprefixed type selector matches any namespace.
            conds.append(f"local-name() = {self._lit(element)}")
        elif element != "*":
            prefix, colon, local = element.partition(":")
            if _SIMPLE.match(prefix) and (
                not colon or local == "*" or _SIMPLE.match(local)
            ):
                conds.append(f"self::{element}")
            else:
                conds.append(f"name() = {self._lit(element)}")
        if expr.condition:
            conds.append(f"({expr.condition})" if conds else expr.condition)
        return " and ".join(conds) or None

    def match_condition(self, tree: Any) -> str | None:
        """A condition that holds for the elements matching ``tree`` (None: every element).

        Combinators are walked right to left with reverse axes, which is how
        soupsieve matches (and what a match-based select needs).
        """
        if isinstance(tree, CombinedSelector):
            right = self.match_condition(tree.subselector)
            return self._combined(tree, right)
        return self._name_condition(self.xpath(tree))

    def _combined(self, tree: Any, right: str | None) -> str:
        """The condition for ``left <combinator> right``, given right's condition."""
        if tree.combinator == "+":
            # The adjacent sibling, whatever its name: the name is a condition.
            test, left = "*", self.match_condition(tree.selector)
            axis = "preceding-sibling::*[1]"
        else:
            # The left side's type goes into the axis' node test, as in
            # `split_condition` (``ancestor::article`` walks in half the time
            # of ``ancestor::*[self::article]``).
            test, left = self.split_condition(tree.selector)
            axis = {" ": "ancestor", ">": "parent", "~": "preceding-sibling"}[
                tree.combinator
            ] + f"::{test}"
        conds = [c for c in (left,) if c]
        if self.templates and tree.combinator in " >":
            conds.append(self._world)
        if conds:
            axis += "[" + " and ".join(f"({c})" for c in conds) + "]"
        if (conds or test != "*") and tree.combinator in " ~":
            # Only whether one exists: libxml2 stops at the first when
            # asked for it, and otherwise collects (and, on a reverse
            # axis, sorts) every candidate for every element tested.
            axis += "[1]"
        if right is None:
            return axis
        if tree.combinator in ">+":
            # One step: cheaper than most tests of the element itself
            # (``@href`` builds a node-set), and it rejects most elements.
            return f"{axis} and ({right})"
        # A walk up or back: the element's own tests first reject most.
        return f"({right}) and {axis}"

    def split_condition(self, tree: Any) -> tuple[str, str | None]:
        """``tree`` as (element name test, condition): `match_condition` with the
        rightmost type selector hoisted into the XPath node test.

        libxml2 filters a node test (``descendant::p``) far faster than a
        ``self::p`` predicate on every element.
        """
        if isinstance(tree, CombinedSelector):
            test, right = self.split_condition(tree.subselector)
            return test, self._combined(tree, right)
        expr = self.xpath(tree)
        element = expr.element
        if not self.xml and element != "*" and _SIMPLE.match(element):
            return element, expr.condition or None
        return "*", self._name_condition(expr)

    def selector_parts(self, selector: Any) -> tuple[str, str | None]:
        """The (node test, condition) for one parsed selector (pseudo-elements refused)."""
        if selector.pseudo_element:
            raise ExpressionError("Pseudo-elements are not supported.")
        return self.split_condition(selector.parsed_tree)

    def selector_condition(self, selector: Any) -> str:
        """The condition for one parsed selector (pseudo-elements refused)."""
        if selector.pseudo_element:
            raise ExpressionError("Pseudo-elements are not supported.")
        cond = self.match_condition(selector.parsed_tree)
        return cond or "true()"

    # -- overrides -------------------------------------------------------------
    def xpath_empty_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        cond = f"not(*) and not(text()[{self._fn(_nonblank)}(string(.))])"
        if self.templates:
            cond = f"self::template or ({cond})"
        return _add(xpath, cond)

    def xpath_root_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        if self.mode == "fragment":
            # The fragment's container stands for the document: its one element
            # child is the root when no other element or text sits beside it.
            return _add(
                xpath,
                "parent::*[not(parent::*)] and not(preceding-sibling::*[1]) "
                f"and not(following-sibling::*[1]) and not(../text()[{self._fn(_nonblank)}(string(.))])",
            )
        # A second top-level element (content after a stray </html>) means
        # neither is the root, as soupsieve decides.
        return _add(
            xpath,
            "not(parent::*) and not(preceding-sibling::*[1]) and not(following-sibling::*[1])",
        )

    def xpath_scope_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        # The tag select() was called on (a document's root element for a soup).
        return _add(xpath, "count(. | $scope) = 1")

    def xpath_only_child_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        return _add(
            xpath, "not(preceding-sibling::*[1]) and not(following-sibling::*[1])"
        )

    def xpath_first_child_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        return _add(xpath, "not(preceding-sibling::*[1])")

    def xpath_last_child_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        return _add(xpath, "not(following-sibling::*[1])")

    def _of_type(self, xpath: XPathExpr, a: int, b: int, last: bool) -> XPathExpr:
        fn = self._fn(_of_type)
        return _add(xpath, f"{fn}(., {a}, {b}, {'true()' if last else 'false()'})")

    def _typed(self, xpath: XPathExpr) -> bool:
        element = xpath.element
        return element != "*" and not element.endswith(":*")

    def xpath_first_of_type_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        if self._typed(xpath):
            return _add(xpath, f"not(preceding-sibling::{xpath.element}[1])")
        return self._of_type(xpath, 0, 1, False)

    def xpath_last_of_type_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        if self._typed(xpath):
            return _add(xpath, f"not(following-sibling::{xpath.element}[1])")
        return self._of_type(xpath, 0, 1, True)

    def xpath_only_of_type_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        if self._typed(xpath):
            e = xpath.element
            return _add(
                xpath,
                f"not(preceding-sibling::{e}[1]) and not(following-sibling::{e}[1])",
            )
        self._of_type(xpath, 0, 1, False)
        return self._of_type(xpath, 0, 1, True)

    def _series(self, function: Any) -> tuple[int, int]:
        from cssselect.parser import parse_series

        try:
            a, b = parse_series(function.arguments)
        except ValueError as exc:
            raise ExpressionError(f"Invalid series: '{function.arguments!r}'") from exc
        return int(a), int(b)

    def xpath_nth_of_type_function(self, xpath: XPathExpr, function: Any) -> XPathExpr:
        if self._typed(xpath):
            return super().xpath_nth_of_type_function(xpath, function)
        a, b = self._series(function)
        return self._of_type(xpath, a, b, False)

    def xpath_nth_last_of_type_function(
        self, xpath: XPathExpr, function: Any
    ) -> XPathExpr:
        if self._typed(xpath):
            return super().xpath_nth_last_of_type_function(xpath, function)
        a, b = self._series(function)
        return self._of_type(xpath, a, b, True)

    def xpath_link_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        # soupsieve: :link is html|*:is(a, area)[href]
        return _add(xpath, "@href and (self::a or self::area)")

    xpath_any_link_pseudo = xpath_link_pseudo

    def xpath_checked_pseudo(self, xpath: XPathExpr) -> XPathExpr:
        # soupsieve: html|*:is(input[type=checkbox], input[type=radio])[checked], html|option:selected
        low = "translate(@type, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
        return _add(
            xpath,
            f"(self::input and @checked and ({low} = 'checkbox' or {low} = 'radio'))"
            " or (self::option and @selected)",
        )

    def xpath_class(self, class_selector: Any) -> XPathExpr:
        xpath = self.xpath(class_selector.selector)
        name = class_selector.class_name
        check = self._fn(_ClassMatcher(name, self.xml))
        padded = literal(f" {name} ")
        lit = literal(name)
        if padded is None or lit is None or not name or _HAS_SPACE.search(name):
            # (An escaped space, ``.a\\ b``, is never one token: the exact check.)
            return _add(xpath, f"@class and {check}(string(@class))")
        # contains() first: it rejects most elements before the costly tests.
        # The token test splits on XPath's four whitespace characters only: a
        # hit is exact (the name holds no whitespace, so an XPath token equal
        # to it is one of soupsieve's too), a miss goes to the exact check.
        return _add(
            xpath,
            f"contains(@class, {lit}) and (contains(concat(' ', normalize-space(@class), ' '), {padded})"
            f" or {check}(string(@class)))",
        )

    def xpath_attrib(self, selector: Any) -> XPathExpr:
        xpath = self.xpath(selector.selector)
        name = selector.attrib if self.xml else selector.attrib.lower()
        if selector.namespace:
            raise ExpressionError("Namespaced attribute selectors are not supported.")
        ref = f"@{name}" if _SIMPLE.match(name) else f"@*[name() = {self._lit(name)}]"
        if selector.operator == "exists":
            return _add(xpath, ref)
        op = selector.operator
        value = selector.value.value
        flag = getattr(selector, "flag", None)
        matcher = _AttrMatcher(name, op, value, flag, self.xml)
        multi = not self.xml and (
            name in _UNIVERSAL_MULTI
            or any(name in names for names in CDATA_LIST_ATTRIBUTES.values())
        )
        lit = literal(value)
        if (
            not (matcher.ignore_case or multi)
            and lit is not None
            and _SIMPLE.match(name)
        ):
            fast = self._plain_attrib(ref, op, value, lit)
            if fast is not None:
                return _add(xpath, fast)
        check = f"{self._fn(matcher)}(.)"
        if op == "!=":
            return _add(xpath, f"not({ref}) or {check}")
        return _add(xpath, f"{ref} and {check}")

    def _plain_attrib(self, ref: str, op: str, value: str, lit: str) -> str | None:
        """Pure XPath for soupsieve's operators on a plain, case-sensitive attribute."""
        if op == "=":
            return f"{ref} = {lit}"
        if op == "!=":
            return f"not({ref}) or {ref} != {lit}"
        if not value and op in ("^=", "$=", "*=", "~="):
            return "false()"
        if op == "^=":
            return f"starts-with({ref}, {lit})"
        if op == "*=":
            return f"contains({ref}, {lit})"
        if op == "$=":
            return (
                f"substring({ref}, string-length({ref}) - {len(value) - 1}) = {lit}"
                if not _has_astral(value)
                else None
            )
        if op == "|=":
            dash = literal(value + "-")
            return f"({ref} = {lit} or starts-with({ref}, {dash}))" if dash else None
        return None  # ~=: \f is a separator to soupsieve and cannot be written in XPath

    def xpath_relation(self, relation: Any) -> XPathExpr:
        """``:has()``, built here so that every cssselect version means the same.

        cssselect 1.6 parses a list of relative selectors (``relation.arguments``)
        and calls ``xpath_relation_*_combinator(right)`` for a condition;
        cssselect 1.2-1.5 (the newest on Python 3.10) parse one
        (``relation.combinator``, ``relation.subselector``) and called those
        methods as ``(left, right)`` for an expression. One walk, with the
        one-argument methods below, serves both.
        """
        arguments = getattr(relation, "arguments", None)
        if arguments is None:
            arguments = [(relation.combinator, relation.subselector)]
        condition = ""
        for combinator, subselector in arguments:
            kind = self.combinator_mapping.get(combinator.value)
            if kind is None:  # cssselect < 1.5 lets "-" through as one
                raise ExpressionError(f"no combinator {combinator.value!r} in :has()")
            method = getattr(self, f"xpath_relation_{kind}_combinator")
            argument = method(self.xpath(subselector.parsed_tree))
            condition = f"({condition}) or ({argument})" if condition else argument
        return _add(self.xpath(relation.selector), condition)

    def xpath_relation_descendant_combinator(self, right: XPathExpr) -> str:
        return self._relation("descendant::", right)

    def xpath_relation_child_combinator(self, right: XPathExpr) -> str:
        return self._relation("child::", right)

    def xpath_relation_direct_adjacent_combinator(self, right: XPathExpr) -> str:
        # The next sibling element itself is tested against right's first step
        # (``self::``); cssselect before 1.6 compared its name only.
        if right.path:
            right.path = f"self::{right.path}"
        else:
            right.element = f"self::{right.element}"
        return f"following-sibling::*[1]/{right}"

    def xpath_relation_indirect_adjacent_combinator(self, right: XPathExpr) -> str:
        return f"following-sibling::{right}"

    def _relation(self, axis: str, right: XPathExpr) -> str:
        if self.templates:
            right.add_condition(self._world)
        return f"{axis}{right}"

    def _contains(self, xpath: XPathExpr, function: Any, own: bool) -> XPathExpr:
        values = []
        for token in function.arguments:
            if token.type in ("STRING", "IDENT"):
                values.append(self._lit(token.value))
            elif (token.type == "DELIM" and token.value == ",") or token.type == "S":
                continue
            else:
                raise ExpressionError(
                    f"Expected strings for :{function.name}(), got {function.arguments!r}"
                )
        if not values:
            raise ExpressionError(f":{function.name}() needs at least one string")
        own_flag = "true()" if own else "false()"
        if self.mode == "html5":
            fn = self._fn(_contains_as_parsed)
            return _add(xpath, f"{fn}(., {own_flag}, {', '.join(values)})")
        fn = self._fn(_contains)
        xml_flag = "true()" if self.xml else "false()"
        return _add(xpath, f"{fn}(., {own_flag}, {xml_flag}, {', '.join(values)})")

    def xpath__soup_contains_function(
        self, xpath: XPathExpr, function: Any
    ) -> XPathExpr:
        return self._contains(xpath, function, own=False)

    def xpath__soup_contains_own_function(
        self, xpath: XPathExpr, function: Any
    ) -> XPathExpr:
        return self._contains(xpath, function, own=True)

    def xpath_contains_function(self, xpath: XPathExpr, function: Any) -> XPathExpr:
        return self._contains(xpath, function, own=False)


def _has_astral(value: str) -> bool:
    # libxml2 counts characters as Python does, but keep the fast path to the BMP.
    return any(ord(c) > 0xFFFF for c in value)
