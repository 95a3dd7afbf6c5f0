"""Filters for the find_* methods: `SoupStrainer`, `ElementFilter`, `ResultSet`.

A faithful port of bs4's ``bs4.filter`` matching rules (4.13+), applied to
the view's `Tag` and `NavigableString` objects.  This is the reference
semantics: the XPath compiler (`._xpath`) only takes over the parts of a
filter it can prove equivalent, and everything else runs through the
methods here.
"""

from __future__ import annotations

import re
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ._classes import classes
from ._warn import warn_user

if TYPE_CHECKING:
    from typing import TypeAlias

    from ._node import PageElement
    from ._strings import NavigableString
    from ._tag import Tag

    # What a find_* argument may be, as bs4 4.13+ types it (``bs4._typing``).
    #: A tag name, attribute value or string matches a string, bytes, a
    #: regular expression, or True/False (present or not).
    _BaseStrainable: TypeAlias = str | bytes | re.Pattern[str] | bool
    #: A name filter may also be a function of the `Tag`.
    _BaseStrainableElement: TypeAlias = _BaseStrainable | Callable[[Tag], bool]
    #: An attribute value or string filter may be a function of the value
    #: (None when the tag lacks the attribute).
    _BaseStrainableAttribute: TypeAlias = _BaseStrainable | Callable[[str | None], bool]
    #: One criterion, or a list of alternatives.
    StrainableElement: TypeAlias = (
        _BaseStrainableElement | Iterable[_BaseStrainableElement]
    )
    StrainableAttribute: TypeAlias = (
        _BaseStrainableAttribute | Iterable[_BaseStrainableAttribute]
    )
    StrainableString: TypeAlias = StrainableAttribute
    #: Filters on several attributes at once (``attrs={"data-x": True}``).
    StrainableAttributes: TypeAlias = dict[str, StrainableAttribute]
    #: The ``name`` argument of a find_* method: a filter or a ready-made one.
    FindMethodName: TypeAlias = "StrainableElement | ElementFilter"
    #: The ``attrs`` argument: a dict of attribute filters, or one filter on
    #: the class attribute (``find_all("p", "title")``, as bs4 reads it).
    FindMethodAttrs: TypeAlias = StrainableAttributes | StrainableAttribute

_T = TypeVar("_T")


class UnusualUsageWarning(UserWarning):
    """A warning about a call that is probably a mistake (bs4's class of that name)."""


class AttributeResemblesVariableWarning(UnusualUsageWarning, SyntaxWarning):
    """An attribute name that looks like a misspelled keyword (``_class``), as bs4 warns."""

    MESSAGE: str = (
        "%(original)r is an unusual attribute name and is a common misspelling "
        "for %(autocorrect)r.\n\nIf you meant %(autocorrect)r, change your code "
        "to use it, and this warning will go away.\n\nIf you really did mean to "
        "check the %(original)r attribute, this warning is spurious and can be "
        "filtered. To make it go away, run this code before creating your "
        "BeautifulSoup object:\n\n"
        "    from scrapy_soup import AttributeResemblesVariableWarning\n"
        "    import warnings\n\n"
        '    warnings.filterwarnings("ignore", '
        "category=AttributeResemblesVariableWarning)\n"
    )


class ResultSet(list[_T], Generic[_T]):
    """A list of search results that remembers the filter that found them (bs4's ``ResultSet``)."""

    source: ElementFilter | None

    def __init__(self, source: ElementFilter | None, result: Iterable[_T] = ()) -> None:
        super().__init__(result)
        self.source = source

    def __getattr__(self, key: str) -> None:
        """Explain the common mistake of treating a list of results as one element."""
        raise AttributeError(
            f'ResultSet object has no attribute "{key}". You\'re probably treating '
            "a list of elements like a single element. Did you call find_all() "
            "when you meant to call find()?"
        )


def is_regex(obj: object) -> bool:
    """Whether bs4 treats ``obj`` as a regular expression (has ``search`` and ``pattern``)."""
    return hasattr(obj, "search") and hasattr(obj, "pattern")


class MatchRule:
    """One way a value can match: a string, a regex, a function, presence, or nothing.

    Mirrors bs4's ``MatchRule``: exactly one of the five is set.
    """

    __slots__ = ("exclude_everything", "function", "pattern", "present", "string")

    string: str | None
    pattern: Any
    function: Callable[..., Any] | None
    present: bool | None
    exclude_everything: bool | None

    def __init__(
        self,
        string: str | bytes | None = None,
        pattern: Any = None,
        function: Callable[..., Any] | None = None,
        present: bool | None = None,
        exclude_everything: bool | None = None,
    ) -> None:
        if isinstance(string, bytes):
            string = string.decode("utf8")
        self.string = string
        if isinstance(pattern, bytes):
            self.pattern = re.compile(pattern.decode("utf8"))
        elif isinstance(pattern, str):
            self.pattern = re.compile(pattern)
        else:
            self.pattern = pattern
        self.function = function
        self.present = present
        self.exclude_everything = exclude_everything
        given = [
            x
            for x in (string, self.pattern, function, present, exclude_everything)
            if x is not None
        ]
        if not given:
            raise ValueError(
                "Either string, pattern, function, present, or exclude_everything must be provided."
            )
        if len(given) > 1:
            raise ValueError(
                "At most one of string, pattern, function, present, and exclude_everything must be provided."
            )

    def _base_match(self, string: str | None) -> bool | None:
        """The cheap part of a match: True/False, or None when only the function can tell."""
        if self.exclude_everything:
            return False
        if self.present is True:
            return string is not None
        if self.present is False:
            return string is None
        if self.string is not None:
            return self.string == string
        if self.pattern is not None:
            if string is None:
                return False
            return self.pattern.search(string) is not None
        return None

    def matches_string(self, string: str | None) -> bool:
        """Whether ``string`` (None: an absent attribute) satisfies this rule."""
        result = self._base_match(string)
        if result is not None:
            return result
        return not (self.function is not None and not self.function(string))

    def key(self) -> tuple[Any, ...]:
        """A hashable description of the rule (the XPath cache key is built from these)."""
        return (
            type(self).__name__,
            self.string,
            self.pattern,
            self.function,
            self.present,
            self.exclude_everything,
        )

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} string={self.string} pattern={self.pattern} "
            f"function={self.function} present={self.present}>"
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, MatchRule)
            and self.string == other.string
            and self.pattern == other.pattern
            and self.function == other.function
            and self.present == other.present
        )

    __hash__ = None  # type: ignore[assignment]


class TagNameMatchRule(MatchRule):
    """A rule on a tag's name; a function gets the `Tag` itself (bs4's class of that name)."""

    __slots__ = ()

    def matches_tag(self, tag: Tag) -> bool:
        """Whether the tag's name (or, for a function, the tag) satisfies the rule."""
        result = self._base_match(tag.name)
        if result is not None:
            return result
        assert self.function is not None
        return bool(self.function(tag))


class AttributeValueMatchRule(MatchRule):
    """A rule on one attribute value (bs4's class of that name)."""

    __slots__ = ()


class StringMatchRule(MatchRule):
    """A rule on a string's text (bs4's class of that name)."""

    __slots__ = ()


class ElementFilter:
    """Decides whether a node matches, by a function (bs4's ``ElementFilter``).

    The base class matches everything, or what ``match_function`` accepts.
    """

    match_function: Callable[[PageElement], bool] | None

    def __init__(
        self, match_function: Callable[[PageElement], bool] | None = None
    ) -> None:
        self.match_function = match_function

    @property
    def includes_everything(self) -> bool:
        """Whether the filter obviously lets every node through."""
        return not self.match_function

    @property
    def excludes_everything(self) -> bool:
        """Whether the filter obviously matches nothing."""
        return False

    def match(self, element: PageElement, _known_rules: bool = False) -> bool:
        """Whether ``element`` passes the filter."""
        if not _known_rules and self.includes_everything:
            return True
        if not self.match_function:
            return True
        return bool(self.match_function(element))

    def filter(self, generator: Iterator[PageElement]) -> Iterator[PageElement]:
        """Yield the nodes of ``generator`` that match, skipping empty strings (as bs4)."""
        if self.includes_everything:
            yield from generator
        for node in generator:
            if node and self.match(node, _known_rules=True):
                yield node

    def find(self, generator: Iterator[PageElement]) -> PageElement | None:
        """The first node of ``generator`` that matches, or None."""
        for node in self.filter(generator):
            return node
        return None

    def find_all(
        self, generator: Iterator[PageElement], limit: int | None = None
    ) -> ResultSet[PageElement]:
        """The nodes of ``generator`` that match, stopping after ``limit`` (bs4's quirks kept)."""
        results: list[PageElement] = []
        for node in self.filter(generator):
            results.append(node)
            # bs4 checks the limit after appending: limit=0 gives one result.
            if limit is not None and len(results) >= limit:
                break
        return ResultSet(self, results)

    def allow_tag_creation(self, nsprefix: str | None, name: str, attrs: Any) -> bool:
        """Always True: the view never skips nodes while parsing."""
        return True

    def allow_string_creation(self, string: str) -> bool:
        """Always True: the view never skips nodes while parsing."""
        return True


def _make_match_rules(obj: Any, rule_class: type[MatchRule]) -> Iterator[MatchRule]:
    """Turn one filter argument into rules, as bs4's ``SoupStrainer._make_match_rules``."""
    if obj is None:
        return
    if isinstance(obj, (str, bytes)):
        yield rule_class(string=obj)
    elif isinstance(obj, bool):
        yield rule_class(present=obj)
    elif callable(obj):
        yield rule_class(function=obj)
    elif is_regex(obj):
        yield rule_class(pattern=obj)
    elif hasattr(obj, "__iter__"):
        if not obj:
            yield rule_class(exclude_everything=True)
        for item in obj:
            if not isinstance(item, (bytes, str)) and hasattr(item, "__iter__"):
                warnings.warn(
                    f"Ignoring nested list {item} to avoid the possibility of infinite recursion.",
                    stacklevel=5,
                )
                yield rule_class(exclude_everything=True)
                continue
            yield from _make_match_rules(item, rule_class)
    else:
        yield rule_class(string=str(obj))


class SoupStrainer(ElementFilter):
    """The filter behind every find_* call: name, attribute and string rules (bs4's ``SoupStrainer``).

    Rules of one kind are alternatives (any may match); kinds combine with
    "and".  A strainer with only string rules matches strings; one with name
    or attribute rules matches tags (and checks ``tag.string`` against any
    string rules).

    >>> SoupStrainer("a", href=True)
    <SoupStrainer name=[...] attrs=...>
    """

    name_rules: list[TagNameMatchRule]
    attribute_rules: dict[str, list[AttributeValueMatchRule]]
    string_rules: list[StringMatchRule]

    def __init__(
        self,
        name: StrainableElement | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> None:
        if string is None and "text" in kwargs:
            string = kwargs.pop("text")
            warnings.warn(
                "As of version 4.11.0, the 'text' argument to the SoupStrainer "
                "constructor is deprecated. Use 'string' instead.",
                DeprecationWarning,
                stacklevel=2,
            )
        if name is None and not attrs and not string and not kwargs:
            # bs4: a strainer with no arguments at all matches every tag.
            self.name_rules = [TagNameMatchRule(present=True)]
        else:
            self.name_rules = list(_make_match_rules(name, TagNameMatchRule))  # type: ignore[arg-type]
        self.attribute_rules = defaultdict(list)
        if attrs is None:
            attrs = {}
        if not isinstance(attrs, dict):
            # bs4: anything but a dict is a filter on the class attribute.
            attrs = {"class": attrs}
        for attrdict in (attrs, kwargs):
            for attr, value in attrdict.items():
                if attr == "class_" and attrdict is kwargs:
                    attr = "class"
                if value is None:
                    value = False
                for rule in _make_match_rules(value, AttributeValueMatchRule):
                    self.attribute_rules[attr].append(rule)  # type: ignore[arg-type,index]
        self.string_rules = list(_make_match_rules(string, StringMatchRule))  # type: ignore[arg-type]
        self.__string = string

    @property
    def includes_everything(self) -> bool:
        """Whether there are no rules at all."""
        return (
            not self.name_rules and not self.string_rules and not self.attribute_rules
        )

    @property
    def excludes_everything(self) -> bool:
        """Whether the rules obviously contradict each other."""
        if self.string_rules and (self.name_rules or self.attribute_rules):
            return True
        if any(r.exclude_everything for r in self.string_rules):
            return True
        if any(r.exclude_everything for r in self.name_rules):
            return True
        return any(
            any(r.exclude_everything for r in rules)
            for rules in self.attribute_rules.values()
        )

    @property
    def string(self) -> Any:
        """Deprecated: the ``string`` argument as given (bs4 4.13 deprecation)."""
        warnings.warn(
            "Access to deprecated property string. (Look at .string_rules instead) "
            "-- Deprecated since version 4.13.0.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.__string

    @property
    def text(self) -> Any:
        """Deprecated: the ``string`` argument as given (bs4 4.13 deprecation)."""
        warnings.warn(
            "Access to deprecated property text. (Look at .string_rules instead) "
            "-- Deprecated since version 4.13.0.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.__string

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} name={self.name_rules} "
            f"attrs={self.attribute_rules} string={self.string_rules}>"
        )

    def matches_name(self, tag: Tag) -> bool:
        """Whether some name rule matches the tag or its prefixed name (bs4's rules)."""
        prefixed_name: str | None = ""  # "" until needed: few rules look at it
        for rule in self.name_rules:
            if rule.matches_tag(tag):
                return True
            if rule.function:
                continue
            if prefixed_name == "":
                prefix = tag.prefix
                prefixed_name = f"{prefix}:{tag.name}" if prefix else None
            if prefixed_name is not None and rule.matches_string(prefixed_name):
                return True
        return False

    def matches_attribute(
        self, tag: Tag, attr: Any, rules: Sequence[MatchRule]
    ) -> bool:
        """Whether the tag's value for ``attr`` satisfies one of ``rules``."""
        try:
            value = tag.get(attr, None) if isinstance(attr, str) else None
        except ValueError:  # a name lxml refuses (NUL, control characters): absent
            value = None
        return self._attribute_match(value, rules)

    def matches_tag(self, tag: Tag) -> bool:
        """Whether the tag satisfies the name, attribute and string rules (bs4's ``matches_tag``)."""
        if not self.name_rules and not self.attribute_rules:
            return False
        if self.name_rules and not self.matches_name(tag):
            return False
        for attr, rules in self.attribute_rules.items():
            if not self.matches_attribute(tag, attr, rules):
                return False
        if self.string_rules:
            string = tag.string
            if string is None or not self.matches_any_string_rule(string):
                return False
        return True

    @staticmethod
    def _attribute_match(value: Any, rules: Sequence[MatchRule]) -> bool:
        """bs4's attribute test: any value of a list, then the list joined by spaces."""
        values: Sequence[str | None] = value if isinstance(value, list) else [value]
        for rule in rules:
            for item in values:
                if rule.matches_string(item):
                    return True
        if len(values) != 1:
            joined = " ".join(values)  # type: ignore[arg-type]
            for rule in rules:
                if rule.matches_string(joined):
                    return True
        return False

    def matches_any_string_rule(self, string: str) -> bool:
        """Whether some string rule matches (True when there are none)."""
        if not self.string_rules:
            return True
        return any(rule.matches_string(string) for rule in self.string_rules)

    def match(self, element: PageElement, _known_rules: bool = False) -> bool:
        """Whether the node matches this strainer (bs4's ``SoupStrainer.match``)."""
        if not _known_rules and self.includes_everything:
            return True
        if isinstance(element, classes.Tag):
            return self.matches_tag(element)
        if not (self.name_rules or self.attribute_rules):
            return self.matches_any_string_rule(element)  # type: ignore[arg-type]
        return False

    def allow_tag_creation(self, nsprefix: str | None, name: str, attrs: Any) -> bool:
        """Whether a tag with this name and attributes would match (bs4's method)."""
        if self.string_rules:
            return False
        prefixed_name = f"{nsprefix}:{name}" if nsprefix else None
        if self.name_rules and not any(
            rule.matches_string(x)
            for rule in self.name_rules
            for x in (name, prefixed_name)
            if x is not None
        ):
            return False
        attrs = attrs or {}
        return all(
            self._attribute_match(attrs.get(attr), rules)
            for attr, rules in self.attribute_rules.items()
        )

    def allow_string_creation(self, string: str) -> bool:
        """Whether a string with this text would match (bs4's method)."""
        if self.name_rules or self.attribute_rules:
            return False
        return self.matches_any_string_rule(string)

    def search_tag(self, name: str, attrs: Any) -> bool:
        """Deprecated `allow_tag_creation` without a prefix (bs4 warns too)."""
        warn_user(
            "Call to deprecated method search_tag. (Replaced by allow_tag_creation) "
            "-- Deprecated since version 4.13.0.",
            DeprecationWarning,
        )
        return self.allow_tag_creation(None, name, attrs)

    def search(self, element: PageElement) -> PageElement | None:
        """Deprecated `match` giving the element or None (bs4 warns too)."""
        warn_user(
            "Call to deprecated method search. (Replaced by match) "
            "-- Deprecated since version 4.13.0.",
            DeprecationWarning,
        )
        return element if self.match(element) else None


def matches_string_node(strainer: ElementFilter, string: NavigableString) -> bool:
    """Whether a string node passes ``strainer`` the way bs4's filter loop tests it."""
    return bool(string) and strainer.match(string, _known_rules=True)
