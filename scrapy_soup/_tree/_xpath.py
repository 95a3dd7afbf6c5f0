"""Compile bs4 filters to lxml XPath, so plain searches run in C.

A `SoupStrainer`'s rules come in groups (names, each attribute, strings):
rules inside a group are alternatives, groups combine with "and".  Each group
either compiles to an XPath predicate that gives exactly bs4's answer, or is
left to Python (`TagPlan.python_match`), which checks it on the view with the
strainer's own methods.  Since groups are and-ed, the XPath part is always a
correct pre-filter, and the answer is exact either way.

What compiles: names (str, list, ``True``, regex), attribute values (str,
list, ``True``/``None``, regex) and presence.  What stays in Python: callables
(they get the view's `Tag`), ``string=`` on tags (``tag.string`` is a view
notion), names and attribute names XPath cannot spell.

Regular expressions run inside the XPath through extension functions that
call the user's own compiled pattern (``pattern.search``), instead of EXSLT's
``re:test``: ``re:test`` recompiles the pattern *text* with only the ``i``
flag, so a pattern compiled with ``re.S``, ``re.X``, ``re.A`` or ``re.M``, or
a third-party ``regex`` pattern, would silently mean something else.  The cost
is the same (lxml's EXSLT regexps call Python's ``re`` too).

Compiled expressions are cached in a bounded LRU keyed by the filter.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from lxml import etree

from ._attrs import CDATA_LIST_ATTRIBUTES, NOT_XML, is_multi_valued, split_value
from ._cache import LRU
from ._strainer import SoupStrainer, TagNameMatchRule
from ._tables import ASCII_SPACES

if TYPE_CHECKING:
    from ._strainer import MatchRule, SoupStrainer
    from ._tag import Tag

#: Namespace of our XPath extension functions.
NS = "urn:x-scrapy-soup:search"
_NAMESPACES = {"ss": NS}

#: Python's whitespace (what bs4's ``\S+`` splits on) minus the characters
#: an XPath expression cannot contain (\x0b, \x0c, \x1c-\x1f).  Values that
#: hold those are caught by the exact Python check behind each fast path.
_XPATH_WS = "".join(
    c
    for c in map(chr, range(0x3001))
    if c.isspace() and (c in "\t\n\r" or ord(c) >= 0x20)
)
_TRANSLATE_WS = "translate(@{a}, '" + _XPATH_WS + "', '" + " " * len(_XPATH_WS) + "')"

#: An XML name without a colon: usable as an XPath name test or ``@name``.
_SIMPLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")

_UNIVERSAL_MULTI = CDATA_LIST_ATTRIBUTES["*"]
#: attribute -> tag names on which it is multi-valued (beyond the universal ones).
_TAG_MULTI: dict[str, tuple[str, ...]] = {}
for _tag, _names in CDATA_LIST_ATTRIBUTES.items():
    if _tag != "*":
        for _name in _names:
            _TAG_MULTI.setdefault(_name, ())
            _TAG_MULTI[_name] += (_tag,)


def literal(value: str) -> str | None:
    """An XPath 1.0 string literal for ``value``, or None if XPath cannot hold it."""
    if NOT_XML.search(value):  # (what lxml refuses in an XPath, as in text)
        return None
    if "'" not in value:
        return f"'{value}'"
    if '"' not in value:
        return f'"{value}"'
    parts = value.split("'")
    return "concat(" + ', "\'", '.join(f"'{p}'" for p in parts) + ")"


def is_simple_name(name: str) -> bool:
    """Whether ``name`` can be written as an XPath name test."""
    return _SIMPLE_NAME.match(name) is not None


#: Regex characters that are not themselves (`anchored_prefix` stops there).
_REGEX_SPECIAL = frozenset(".^$*+?{}[]\\|()")


def anchored_prefix(pattern: Any) -> str:
    """The text every match of an anchored ``str`` regex starts the string with.

    ``^https?://`` gives "http": a necessary condition XPath can test
    (``starts-with()``) before Python runs the regex on the few values left.
    Empty when unsure: no anchor, a flag that changes the anchor or the
    characters (MULTILINE, IGNORECASE, VERBOSE), or an alternation.
    """
    if not _plain_regex(pattern) or pattern.flags & (re.I | re.M | re.X):
        return ""
    text: str = pattern.pattern
    if text.startswith("\\A"):
        i = 2
    elif text.startswith("^"):
        i = 1
    else:
        return ""
    if "|" in text:
        return ""
    out: list[str] = []
    while i < len(text):
        c = text[i]
        if c == "\\":
            escaped = text[i + 1 : i + 2]
            if not escaped or escaped.isalnum():
                break  # a class (\d), an anchor (\b), a reference: not literal
            c = escaped
            i += 2
        elif c in _REGEX_SPECIAL:
            break
        else:
            i += 1
        following = text[i : i + 1]
        if following and following in "?*{":
            break  # this character may be absent
        out.append(c)
        if following == "+":
            break
    return "".join(out)


def _plain_regex(pattern: Any) -> bool:
    """Whether a pattern is a stdlib ``str`` regex we can call from inside XPath."""
    return isinstance(pattern, re.Pattern) and isinstance(pattern.pattern, str)


_PLANS = LRU(512)
_XPATHS = LRU(512)


class TagPlan:
    """The compiled form of a strainer's tag rules: an XPath step plus what Python must still check."""

    __slots__ = (
        "extensions",
        "key",
        "names",
        "never",
        "nodetest",
        "predicates",
        "prefilters",
        "python_attrs",
        "python_name",
        "python_searches",
        "python_string",
        "raw_name",
        "token",
        "xpaths",
    )

    def __init__(self) -> None:
        self.nodetest = "*"
        self.predicates: list[str] = []
        #: How many of ``predicates`` only narrow the candidates of a regex
        #: that Python runs on every node anyway (see `iter_attribute`).
        self.prefilters = 0
        #: (attribute, token) when the plan's one predicate is ``class_="x"``'s
        #: kind: a multi-valued attribute holding one whitespace-free value.
        self.token: tuple[str, str] | None = None
        self.extensions: dict[tuple[str, str], Callable[..., Any]] = {}
        self.python_name = False
        self.raw_name = False
        self.names: tuple[str, ...] = ()
        self.python_attrs: list[Any] = []
        #: (attribute, ``pattern.search``) when every attribute left to
        #: Python is a single-valued one tested by one regex: bs4's test is
        #: then just the search on the raw value (see `attribute_filter`).
        self.python_searches: list[tuple[str, Callable[[str], Any]]] | None = None
        self.python_string = False
        self.never = False
        self.key: Hashable | None = None
        #: `tag_xpath`'s compiled XPaths of a cached plan, by (axes, limit,
        #: from_end, extra): a small key, where the shared cache's holds the
        #: plan's whole key (a nested tuple hashed again on every look-up);
        #: bounded, as ``find_all(limit=n)`` for many n makes many.
        self.xpaths = LRU(16)

    @property
    def exact(self) -> bool:
        """Whether the XPath alone decides the match."""
        return not (
            self.python_name or self.raw_name or self.python_attrs or self.python_string
        )

    def python_match(self, strainer: SoupStrainer, tag: Tag) -> bool:
        """Check the groups the XPath left out, with the strainer's own (bs4) rules."""
        if self.python_name and not strainer.matches_name(tag):
            return False
        if self.raw_name and not self.name_match(strainer, tag._el, tag._is_xml):
            return False
        if self.python_attrs and not self.attrs_match(strainer, tag._el, tag._is_xml):
            return False
        return not self.python_string or self.string_match(strainer, tag)

    def attrs_match(self, strainer: SoupStrainer, el: Any, xml: bool) -> bool:
        """The attribute groups left to Python, tested on the lxml element.

        The values are the ones bs4 (and the view's ``tag.get``) gives: a
        multi-valued attribute as its list of tokens; so no `Tag` has to be
        built for the candidates that fail.
        """
        # The strainer's own (static) method: no import on every candidate.
        match = strainer._attribute_match
        rules = strainer.attribute_rules
        for attr in self.python_attrs:
            value: Any = None
            if isinstance(attr, str):
                try:
                    value = el.get(attr)
                except ValueError:  # a name lxml refuses (NUL, ...): absent
                    value = None
                if value is not None and not xml and is_multi_valued(el.tag, attr):
                    # str.split() is split_value() (both split on str.isspace
                    # characters) without the regex machinery.
                    value = value.split()
            if not match(value, rules[attr]):
                return False
        return True

    def iter_test(self) -> tuple[str, str | None] | None:
        """What a walk with lxml's ``iter()`` over the named tags must still
        test, when it can stand for the plan's XPath: (an attribute that must
        be there, or "" for none; a token its split value must hold, or
        None).  With neither, `attribute_filter` may test each tag whole.
        None when only the XPath decides the match."""
        preds = self.predicates
        if self.exact:
            if not preds:
                return "", None
            if len(preds) > 1:
                return None
            if self.token is not None:
                return self.token
            attr = preds[0][1:]
            if preds[0][:1] == "@" and is_simple_name(attr):
                return attr, None
            return None
        if (
            self.python_searches is not None
            and not (self.python_name or self.raw_name or self.python_string)
            and len(preds) == self.prefilters
        ):
            return "", None
        return None

    def attribute_filter(self, nodes: list[Any]) -> list[Any] | None:
        """The nodes that pass `python_searches` (None when the plan has none).

        `attrs_match` without its per-candidate calls, for the common
        ``find_all("a", href=re.compile(...))``.
        """
        searches = self.python_searches
        if searches is None:
            return None
        if len(searches) == 1:
            attr, search = searches[0]
            return [
                node
                for node in nodes
                if (value := node.get(attr)) is not None and search(value) is not None
            ]
        return [
            node
            for node in nodes
            if all(
                (value := node.get(attr)) is not None and search(value) is not None
                for attr, search in searches
            )
        ]

    @staticmethod
    def name_match(strainer: SoupStrainer, el: Any, xml: bool) -> bool:
        """Name rules without callables, tested on the lxml element (bs4's ``matches_name``)."""
        name: str = el.tag
        prefix = None
        if xml:
            if name[0] == "{":
                name = name.split("}", 1)[1]
            prefix = el.prefix
        for rule in strainer.name_rules:
            if rule.matches_string(name):
                return True
            if prefix and rule.matches_string(f"{prefix}:{name}"):
                return True
        return False

    @staticmethod
    def string_match(strainer: SoupStrainer, tag: Tag) -> bool:
        """bs4's ``string=`` test on a tag: its ``.string`` must match."""
        string = tag.string
        return string is not None and strainer.matches_any_string_rule(string)

    def _function(self, fn: Callable[..., Any]) -> str:
        name = f"f{len(self.extensions)}"
        self.extensions[(NS, name)] = fn
        return f"ss:{name}"

    def _name_group(self, rules: Sequence[MatchRule], xml: bool) -> None:
        if any(rule.function is not None for rule in rules):
            self.python_name = True
            return
        terms: list[str] = []
        simple: list[str] = []
        for rule in rules:
            if rule.exclude_everything or rule.present is False:
                continue
            if rule.present is True:
                return  # every tag has a name: no constraint
            if rule.string is not None:
                lit = literal(rule.string)
                if lit is None:
                    self.python_name = True
                    return
                if xml:
                    terms.append(
                        f"(local-name()={lit} or name()={lit})"
                        if ":" in rule.string
                        else f"local-name()={lit}"
                    )
                elif is_simple_name(rule.string):
                    simple.append(rule.string)
                    terms.append(f"self::{rule.string}")
                else:
                    terms.append(f"name()={lit}")
            else:
                # A regex: Python tests the raw element names (an XPath
                # extension function costs a few microseconds per element).
                self.raw_name = True
                return
        if not terms:
            self.never = True
        elif len(terms) == 1 and len(simple) == 1:
            self.nodetest = simple[0]
        elif len(simple) == len(terms):
            # A union of name tests runs several times faster in libxml2
            # than a predicate of ``self::`` tests.
            self.names = tuple(dict.fromkeys(simple))
        else:
            self.predicates.append(" or ".join(terms))

    def _attr_group(self, attr: Any, rules: Sequence[MatchRule], xml: bool) -> None:
        if not isinstance(attr, str) or any(
            rule.function is not None for rule in rules
        ):
            self.python_attrs.append(attr)
            return
        if is_simple_name(attr):
            ref = f"@{attr}"
        elif not xml and (lit := literal(attr)) is not None:
            ref = f"@*[name()={lit}]"
        else:
            self.python_attrs.append(attr)
            return
        if any(rule.pattern is not None for rule in rules):
            # Regexes run in Python on the raw values (cheaper than an XPath
            # extension call per element); XPath keeps the tags that have
            # the attribute when every rule needs it, and, for a single
            # value, that start with the literal text an anchored regex
            # begins with (``^https?://``: "http").
            if all(rule.present is not False for rule in rules):
                prefixes = [anchored_prefix(rule.pattern) for rule in rules]
                lits = [literal(p) for p in prefixes if p]
                one_value = xml or (
                    attr not in _UNIVERSAL_MULTI and attr not in _TAG_MULTI
                )
                if one_value and lits and len(lits) == len(rules) and None not in lits:
                    tests = [f"starts-with({ref}, {lit})" for lit in lits]
                    self.predicates.append(" or ".join(tests))
                else:
                    self.predicates.append(ref)
                self.prefilters += 1
            self.python_attrs.append(attr)
            return
        if xml:
            pred = self._value_predicate(ref, rules, multi=False)
        elif attr in _UNIVERSAL_MULTI:
            pred = self._value_predicate(ref, rules, multi=True)
            rule = rules[0]
            if (
                pred is not None
                and len(rules) == 1
                and ref == f"@{attr}"
                and rule.string is not None
                and split_value(rule.string) == [rule.string]
                and rule.pattern is None
                and rule.function is None
                and rule.present is None
                and not rule.exclude_everything
            ):
                self.token = (attr, rule.string)
        elif attr in _TAG_MULTI:
            single = self._value_predicate(ref, rules, multi=False)
            multi = self._value_predicate(ref, rules, multi=True)
            if single is None or multi is None:
                pred = None
            elif single == multi:
                pred = single
            else:
                tags = " or ".join(f"self::{t}" for t in _TAG_MULTI[attr])
                pred = f"(({tags}) and ({multi})) or (not({tags}) and ({single}))"
        else:
            pred = self._value_predicate(ref, rules, multi=False)
        if pred is None:
            self.python_attrs.append(attr)
            return
        if pred == "false()":
            self.never = True
        self.predicates.append(pred)

    def _value_predicate(
        self, ref: str, rules: Sequence[MatchRule], multi: bool
    ) -> str | None:
        """XPath for "some rule matches the attribute", or None to leave it to Python."""
        fast: list[str] = []  # each one alone proves a match
        pre: list[str] = []  # necessary conditions for the exact Python check
        needs_check = False
        translated = (
            _TRANSLATE_WS.format(a=ref[1:])
            if ref.startswith("@") and "[" not in ref
            else None
        )
        for rule in rules:
            if rule.exclude_everything:
                continue
            if rule.present is True:
                fast.append(ref)
            elif rule.present is False:
                fast.append(f"not({ref})")
            elif rule.string is not None:
                value = rule.string
                if not multi:
                    lit = literal(value)
                    if lit is None:
                        return None
                    fast.append(f"{ref}={lit}")
                    continue
                if translated is None:
                    return None
                tokens = split_value(value)
                if not tokens:
                    if value:  # whitespace only: never a token, never a joined value
                        continue
                    needs_check = True
                    fast.append(f"({ref} and normalize-space({translated})='')")
                    pre.append(ref)
                # The token tests split on XPath's whitespace only (no
                # translate() of the rest of Python's: it cost half the
                # search).  A hit is still exact: the value's tokens hold no
                # whitespace, so an XPath token equal to one is a bs4 token.
                # A miss goes to the exact Python check (rare: the value
                # must contain the token as a substring).
                elif len(tokens) == 1 and tokens[0] == value:
                    needs_check = True
                    padded = literal(f" {value} ")
                    lit = literal(value)
                    if padded is None or lit is None:
                        return None
                    fast.append(
                        f"contains(concat(' ', normalize-space({ref}), ' '), {padded})"
                    )
                    pre.append(f"contains({ref}, {lit})")
                elif " ".join(tokens) == value:
                    needs_check = True
                    lit = literal(value)
                    first = literal(tokens[0])
                    if lit is None or first is None:
                        return None
                    fast.append(f"normalize-space({ref})={lit}")
                    pre.append(f"contains({ref}, {first})")
                # else: bs4 joins tokens with single spaces, so it can never match.
            elif _plain_regex(rule.pattern):
                needs_check = True
                pre.append(ref)
            else:
                return None
        if (
            needs_check
            and pre
            and len(pre) == len([r for r in rules if not r.exclude_everything])
        ):
            # Every rule has a cheap necessary condition: test those first, so
            # the costlier exact tests only run on the few candidates.
            check = self._value_checker(rules, multi)
            exact = " or ".join([*fast, f"{check}(string({ref}))"])
            return f"({' or '.join(pre)}) and ({exact})"
        terms = list(fast)
        if needs_check and pre:
            check = self._value_checker(rules, multi)
            terms.append(f"(({' or '.join(pre)}) and {check}(string({ref})))")
        if not terms:
            return "false()"
        return " or ".join(terms)

    def _value_checker(self, rules: Sequence[MatchRule], multi: bool) -> str:
        match = SoupStrainer._attribute_match
        if multi:
            return self._function(lambda _ctx, v: match(split_value(v), rules))
        return self._function(lambda _ctx, v: match(v, rules))


def _rules_key(rules: Sequence[MatchRule]) -> tuple[Any, ...]:
    return tuple(rule.key() for rule in rules)


def tag_plan(strainer: SoupStrainer, xml: bool) -> TagPlan:
    """The (cached) `TagPlan` for a strainer's name and attribute rules."""
    try:
        key: Hashable | None = (
            xml,
            _rules_key(strainer.name_rules),
            tuple(
                (attr, _rules_key(rules))
                for attr, rules in strainer.attribute_rules.items()
            ),
            bool(strainer.string_rules),
        )
        hash(key)
    except TypeError:  # an unhashable callable or pattern: compile, don't cache
        key = None
    if key is not None:
        plan: TagPlan | None = _PLANS.get(key)
        if plan is not None:
            return plan
    plan = TagPlan()
    plan.key = key
    if strainer.name_rules:
        plan._name_group(strainer.name_rules, xml)
    for attr, rules in strainer.attribute_rules.items():
        plan._attr_group(attr, rules, xml)
    plan.python_string = bool(strainer.string_rules)
    plan.python_searches = _single_searches(plan, strainer, xml)
    if key is not None:
        _PLANS.put(key, plan)
    return plan


def _single_searches(
    plan: TagPlan, strainer: SoupStrainer, xml: bool
) -> list[tuple[str, Callable[[str], Any]]] | None:
    """``plan.python_searches``: each Python attribute one regex on a single value."""
    if not plan.python_attrs:
        return None
    searches = []
    for attr in plan.python_attrs:
        rules = strainer.attribute_rules[attr]
        if not (
            isinstance(attr, str)
            and is_simple_name(attr)  # lxml's get() accepts it
            and (xml or (attr not in _UNIVERSAL_MULTI and attr not in _TAG_MULTI))
            and len(rules) == 1
            and _plain_regex(rules[0].pattern)
        ):
            return None
        searches.append((attr, rules[0].pattern.search))
    return searches


def name_plan(name: str, xml: bool) -> TagPlan:
    """A plan for a bare tag name (dot access, ``find("b")``), built without a strainer."""
    key = ("name", name, xml)
    plan: TagPlan | None = _PLANS.get(key)
    if plan is not None:
        return plan
    plan = TagPlan()
    plan.key = key
    plan._name_group([TagNameMatchRule(string=name)], xml)
    _PLANS.put(key, plan)
    return plan


def tag_xpath(
    plan: TagPlan,
    axes: tuple[str, ...],
    limit: int | None,
    from_end: bool = False,
    extra: str | None = None,
) -> Any:
    """The compiled XPath selecting the plan's tags along ``axes``.

    ``limit`` (only for exact plans) keeps the first ``limit`` nodes in axis
    order for one axis, or in document order for a union, or the last
    ``limit`` in document order when ``from_end``.  ``extra`` is one more
    predicate (e.g. excluding a fragment's container).
    """
    own_key = (axes, limit, from_end, extra)
    found = plan.xpaths.get(own_key)
    if found is None:

        def compile_it() -> Any:
            return _compile_tag_xpath(plan, axes, limit, from_end, extra)

        if plan.key is None:
            found = compile_it()
        else:  # plans made again for the same rules share their XPaths
            found = _XPATHS.get_or_make((plan.key, *own_key), compile_it)
        plan.xpaths.put(own_key, found)
    return found


def _compile_tag_xpath(
    plan: TagPlan,
    axes: tuple[str, ...],
    limit: int | None,
    from_end: bool,
    extra: str | None,
) -> Any:
    preds = "".join(f"[{p}]" for p in plan.predicates)
    if extra:
        preds += f"[{extra}]"
    tests = plan.names or (plan.nodetest,)
    if len(axes) == 1 and len(tests) == 1:
        expr = f"{axes[0]}::{tests[0]}{preds}"
    else:
        steps = [f"{axis}::{test}" for axis in axes for test in tests]
        expr = "(" + " | ".join(steps) + ")" + preds
    if limit is not None:
        if from_end:
            expr += f"[position() > last() - {limit}]"
        else:
            expr += "[1]" if limit == 1 else f"[position() <= {limit}]"
    return etree.XPath(
        expr,
        namespaces=_NAMESPACES,
        extensions=plan.extensions or None,
        smart_strings=False,
    )


def string_xpath(strainer: SoupStrainer) -> tuple[Any, bool]:
    """An XPath for the text, comment and PI nodes below a node, and whether it is exact.

    Exact when every string rule is a literal string that is not whitespace
    only: the view changes only whitespace-only strings (bs4 collapses them),
    so such a string equals the view's value exactly when it equals lxml's.
    Otherwise every string node is returned for a Python check.
    """
    lits: list[str] = []
    exact = True
    for rule in strainer.string_rules:
        if rule.exclude_everything:
            continue
        if rule.string is not None and rule.string.strip(ASCII_SPACES):
            lit = literal(rule.string)
            if lit is not None:
                lits.append(lit)
                continue
        exact = False
        break
    if not exact:
        key: tuple[Any, ...] = ("strings",)
        expr = "descendant::text() | descendant::comment() | descendant::processing-instruction()"
    else:
        key = ("strings", *lits)
        if not lits:
            return None, True
        cond = " or ".join(f".={lit}" for lit in lits)
        # PIs read as "target text" in the view: always checked in Python.
        expr = (
            f"descendant::text()[{cond}] | descendant::comment()[{cond}]"
            " | descendant::processing-instruction()"
        )
    return _XPATHS.get_or_make(key, lambda: etree.XPath(expr)), exact
