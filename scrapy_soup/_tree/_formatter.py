"""Output formatters: entity substitution and tag rendering rules, as bs4's.

These mirror ``bs4.formatter`` and ``bs4.dammit.EntitySubstitution`` so that
``decode(formatter=...)`` accepts the same names (``"minimal"``, ``"html"``,
``"html5"``, ``None``) and produces the same characters.  bs4 itself is never
imported: it is only the oracle of our tests.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from html.entities import codepoint2name, html5
from typing import TYPE_CHECKING, Any

from ._tables import CDATA_CONTAINING_TAGS

if TYPE_CHECKING:
    from typing import TypeAlias

    from ._tag import Tag

    #: What a ``formatter=`` argument may be, as in bs4: a `Formatter`, the
    #: name of one (``"minimal"``, ``"html"``, ``"html5"``), an entity
    #: substitution function, or None (no substitution).
    FormatterOrName: TypeAlias = "Formatter | str | EntitySubstitutionFunction | None"

EntitySubstitutionFunction = Callable[[str], str]


def _build_html_tables() -> tuple[
    dict[str, str], set[str], re.Pattern[str], re.Pattern[str]
]:
    """Build bs4's character -> entity-name table and the regexes that find them.

    Same algorithm as ``bs4.dammit.EntitySubstitutionMeta``: every HTML5 named
    reference, preferring ``html.entities.codepoint2name``'s (HTML 4) name for
    a character, ignoring plain ASCII except ``<`` and ``>``.
    """
    unicode_to_name: dict[str, str] = {}
    names: set[str] = set()
    short_entities: set[str] = set()
    long_by_first: defaultdict[str, set[str]] = defaultdict(set)
    for name_with_semicolon, character in sorted(html5.items()):
        name = name_with_semicolon.removesuffix(";")
        names.add(name)
        unicode_to_name[character] = name
        if len(character) == 1 and ord(character) < 128 and character not in "<>":
            continue
        if len(character) > 1 and all(ord(x) < 128 for x in character):
            continue
        if len(character) == 1 and character != "&":
            short_entities.add(character)
        else:
            long_by_first[character[0]].add(character)
    particles: set[str] = set()
    for short in short_entities:
        long_versions = long_by_first[short]
        if not long_versions:
            particles.add(short)
        else:
            ignore = "".join(x[1] for x in long_versions)
            particles.add(f"{short}(?![{ignore}])")
    for long_entities in long_by_first.values():
        particles.update(long_entities)
    # bs4 joins a set, whose order varies between runs; alternatives that can
    # match at the same place are made exclusive above, so order is moot.
    plain = re.compile("({})".format("|".join(particles)))
    particles.add("&")
    with_ampersand = re.compile("({})".format("|".join(particles)))
    for codepoint, name in codepoint2name.items():
        unicode_to_name[chr(codepoint)] = name
    return unicode_to_name, names, plain, with_ampersand


class EntitySubstitution:
    """Replace characters with XML or HTML entities, as bs4's class of that name."""

    CHARACTER_TO_XML_ENTITY = {
        "'": "apos",
        '"': "quot",
        "&": "amp",
        "<": "lt",
        ">": "gt",
    }
    ANY_ENTITY_RE = re.compile("&(#\\d+|#x[0-9a-fA-F]+|\\w+);", re.I)
    BARE_AMPERSAND_OR_BRACKET = re.compile("([<>]|&(?!#\\d+;|#x[0-9a-fA-F]+;|\\w+;))")
    AMPERSAND_OR_BRACKET = re.compile("([<>&])")

    _tables: (
        tuple[dict[str, str], set[str], re.Pattern[str], re.Pattern[str]] | None
    ) = None

    @classmethod
    def _html_tables(
        cls,
    ) -> tuple[dict[str, str], set[str], re.Pattern[str], re.Pattern[str]]:
        # Built on first use: it costs a few milliseconds and most users only
        # ever need the "minimal" formatter.
        if cls._tables is None:
            EntitySubstitution._tables = _build_html_tables()
        assert cls._tables is not None
        return cls._tables

    @classmethod
    def _substitute_html_entity(cls, match: re.Match[str]) -> str:
        original = match.group(0)
        entity = cls._html_tables()[0].get(original)
        if entity is None:
            return f"&amp;{original};"
        return f"&{entity};"

    @classmethod
    def _substitute_xml_entity(cls, match: re.Match[str]) -> str:
        return f"&{cls.CHARACTER_TO_XML_ENTITY[match.group(0)]};"

    @classmethod
    def quoted_attribute_value(cls, value: str) -> str:
        """Quote an attribute value: double quotes unless it holds only double quotes."""
        quote_with = '"'
        if '"' in value:
            if "'" in value:
                value = value.replace('"', "&quot;")
            else:
                quote_with = "'"
        return quote_with + value + quote_with

    @classmethod
    def substitute_xml(cls, value: str, make_quoted_attribute: bool = False) -> str:
        """Escape ``&``, ``<`` and ``>`` (the ``"minimal"`` formatter)."""
        value = cls.AMPERSAND_OR_BRACKET.sub(cls._substitute_xml_entity, value)
        if make_quoted_attribute:
            value = cls.quoted_attribute_value(value)
        return value

    @classmethod
    def substitute_xml_containing_entities(
        cls, value: str, make_quoted_attribute: bool = False
    ) -> str:
        """Escape ``<``, ``>`` and the ampersands that don't start an entity."""
        value = cls.BARE_AMPERSAND_OR_BRACKET.sub(cls._substitute_xml_entity, value)
        if make_quoted_attribute:
            value = cls.quoted_attribute_value(value)
        return value

    @classmethod
    def substitute_html(cls, s: str) -> str:
        """Replace characters that have a named HTML entity (the ``"html"`` formatter)."""
        return cls._html_tables()[3].sub(cls._substitute_html_entity, s)

    @classmethod
    def substitute_html5(cls, s: str) -> str:
        """HTML5 rules: escape only ambiguous ampersands, name the rest."""
        s = cls.ANY_ENTITY_RE.sub(lambda m: f"&amp;{m.group(1)};", s)
        return cls._html_tables()[2].sub(cls._substitute_html_entity, s)

    @classmethod
    def substitute_html5_raw(cls, s: str) -> str:
        """Like `substitute_html5`, for text whose entities were not decoded."""
        names = cls._html_tables()[1]

        def escape_unknown(match: re.Match[str]) -> str:
            name = match.group(1)
            return f"&{name};" if name in names else f"&amp;{name};"

        s = cls.ANY_ENTITY_RE.sub(escape_unknown, s)
        return cls._html_tables()[2].sub(cls._substitute_html_entity, s)


class Formatter(EntitySubstitution):
    """How to render a tree as text; the same constructor and hooks as bs4's.

    Subclass it and override `attributes` (order or filter attributes) or
    `substitute` (escape strings) to customise output, as in bs4.
    """

    HTML = "html"
    XML = "xml"
    HTML_DEFAULTS: dict[str, set[str]] = {
        "cdata_containing_tags": set(CDATA_CONTAINING_TAGS)
    }

    def __init__(
        self,
        language: str | None = None,
        entity_substitution: EntitySubstitutionFunction | None = None,
        void_element_close_prefix: str = "/",
        cdata_containing_tags: set[str] | None = None,
        empty_attributes_are_booleans: bool = False,
        indent: int | str = 1,
    ) -> None:
        self.language = language or self.HTML
        self.entity_substitution = entity_substitution
        self.void_element_close_prefix = void_element_close_prefix
        if cdata_containing_tags is None:
            cdata_containing_tags = (
                set()
                if self.language == self.XML
                else set(self.HTML_DEFAULTS["cdata_containing_tags"])
            )
        self.cdata_containing_tags = cdata_containing_tags
        self.empty_attributes_are_booleans = empty_attributes_are_booleans
        indent_str: str
        if indent is None:
            indent = 0
        if isinstance(indent, int):
            indent_str = " " * max(indent, 0)
        elif isinstance(indent, str):
            indent_str = indent
        else:
            indent_str = " "
        self.indent = indent_str

    def substitute(self, ns: str) -> str:
        """Escape a string, except text directly inside a CDATA-containing tag."""
        if not self.entity_substitution:
            return ns
        parent = getattr(ns, "parent", None)
        if parent is not None and parent.name in self.cdata_containing_tags:
            return ns
        return self.entity_substitution(ns)

    def attribute_value(self, value: str) -> str:
        """Escape an attribute value."""
        return self.substitute(value)

    def attributes(self, tag: Tag) -> Iterable[tuple[str, Any]]:
        """Attributes to render, sorted by name as bs4 does."""
        items = list(tag.attrs.items())
        return sorted(
            (k, (None if self.empty_attributes_are_booleans and v == "" else v))
            for k, v in items
        )


class HTMLFormatter(Formatter):
    """A Formatter for HTML documents."""

    REGISTRY: dict[str | None, HTMLFormatter] = {}

    def __init__(
        self,
        entity_substitution: EntitySubstitutionFunction | None = None,
        void_element_close_prefix: str = "/",
        cdata_containing_tags: set[str] | None = None,
        empty_attributes_are_booleans: bool = False,
        indent: int | str = 1,
    ) -> None:
        super().__init__(
            self.HTML,
            entity_substitution,
            void_element_close_prefix,
            cdata_containing_tags,
            empty_attributes_are_booleans,
            indent=indent,
        )


class XMLFormatter(Formatter):
    """A Formatter for XML documents."""

    REGISTRY: dict[str | None, XMLFormatter] = {}

    def __init__(
        self,
        entity_substitution: EntitySubstitutionFunction | None = None,
        void_element_close_prefix: str = "/",
        cdata_containing_tags: set[str] | None = None,
        empty_attributes_are_booleans: bool = False,
        indent: int | str = 1,
    ) -> None:
        super().__init__(
            self.XML,
            entity_substitution,
            void_element_close_prefix,
            cdata_containing_tags,
            empty_attributes_are_booleans,
            indent=indent,
        )


HTMLFormatter.REGISTRY["html"] = HTMLFormatter(
    entity_substitution=EntitySubstitution.substitute_html
)
HTMLFormatter.REGISTRY["html5"] = HTMLFormatter(
    entity_substitution=EntitySubstitution.substitute_html5,
    void_element_close_prefix="",
    empty_attributes_are_booleans=True,
)
HTMLFormatter.REGISTRY["html5-4.12"] = HTMLFormatter(
    entity_substitution=EntitySubstitution.substitute_html,
    void_element_close_prefix="",
    empty_attributes_are_booleans=True,
)
HTMLFormatter.REGISTRY["minimal"] = HTMLFormatter(
    entity_substitution=EntitySubstitution.substitute_xml
)
HTMLFormatter.REGISTRY[None] = HTMLFormatter(entity_substitution=None)
XMLFormatter.REGISTRY["html"] = XMLFormatter(
    entity_substitution=EntitySubstitution.substitute_html
)
XMLFormatter.REGISTRY["minimal"] = XMLFormatter(
    entity_substitution=EntitySubstitution.substitute_xml
)
XMLFormatter.REGISTRY[None] = XMLFormatter(entity_substitution=None)

#: The formatters whose `attributes`/`substitute` we know, so output may take
#: its fast path without calling them per node.
BUILTIN_FORMATTERS = frozenset(
    id(f) for f in (*HTMLFormatter.REGISTRY.values(), *XMLFormatter.REGISTRY.values())
)


def formatter_for_name(
    formatter: Formatter | str | EntitySubstitutionFunction | None, is_xml: bool
) -> Formatter:
    """Resolve a formatter name, object or substitution function, as bs4 does."""
    if isinstance(formatter, Formatter):
        return formatter
    if callable(formatter):
        cls: type[Formatter] = XMLFormatter if is_xml else HTMLFormatter
        return cls(entity_substitution=formatter)
    registry: dict[str | None, Any] = (
        XMLFormatter.REGISTRY if is_xml else HTMLFormatter.REGISTRY
    )
    if formatter not in registry and hasattr(formatter, "substitute"):
        return formatter  # type: ignore[return-value]  # a duck-typed bs4 Formatter
    return registry[formatter]  # type: ignore[no-any-return]
