"""All ``SOUP_*`` settings, read and checked in one place.

Every Scrapy component of scrapy_soup gets its :class:`Config` from
:func:`~scrapy_soup._scrapy._checks.crawler_config` and reads nothing else from
the settings. The settings are declared in
:mod:`~scrapy_soup._scrapy._settings`; each value is checked here against its
declared kind, accepting what Scrapy's ``getbool``/``getlist``/``getdict``
accept (so the strings ``scrapy crawl -s NAME=VALUE`` gives work) plus JSON
lists, and nothing else: a wrong value raises :class:`SettingsError`, whose
message is one line naming the setting, the value and the expected form.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from scrapy_soup._scrapy._parser import parser_name
from scrapy_soup._scrapy._settings import (
    ATTRIBUTE_MAP,
    BOOL,
    CLEAN_PREFIX,
    PARSER,
    PRESET,
    SETTINGS,
    SETTINGS_BY_NAME,
    STR_LIST,
    STR_OR_NONE,
    TAGS,
)
from scrapy_soup.markup.clean import POLICIES, CleanPolicy

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = [
    "CLEAN_PREFIX",
    "DEFAULTS",
    "Config",
    "SettingsError",
    "parse_setting",
    "settings_error",
]

_T = TypeVar("_T")

#: The declared defaults the add-on sets (at "addon" priority); the
#: ``SOUP_CLEAN_*`` fields default to the ``SOUP_CLEAN_POLICY`` preset's.
DEFAULTS: dict[str, object] = {
    s.name: s.default for s in SETTINGS if s.default is not None
}

#: What each kind looks like on the command line, for error messages.
_EXAMPLES = {
    BOOL: "True/False, true/false or 1/0",
    STR_OR_NONE: "a name",
    STR_LIST: 'a list of strings, "a,b" or \'["a", "b"]\'',
    TAGS: '"*", a list of tag names, "p,a" or \'["p", "a"]\'',
    ATTRIBUTE_MAP: '\'{"a": ["href"], "*": ["title"]}\', or a list of names '
    "for every tag",
}


class SettingsError(ValueError):
    """A ``SOUP_*`` setting has a value its kind does not allow.

    Without ``expected``, the value has the right form and ``why`` says all
    that is wrong with it.
    """

    def __init__(
        self, name: str, value: object, why: str = "", expected: bool = True
    ) -> None:
        kind = SETTINGS_BY_NAME[name].kind
        because = f" ({why})" if why else ""
        example = _EXAMPLES.get(kind)
        if expected:
            super().__init__(
                f"Invalid setting {name}={value!r}{because}: expected {kind}"
                + (f", e.g. {example}" if example else "")
            )
        else:
            super().__init__(f"Invalid setting {name}={value!r}: {why}")
        self.name = name
        self.value = value
        self.why = why


def _bool(name: str, value: object) -> bool:
    # Scrapy's own getbool(), refusing what it would turn into a bool by
    # accident (a list, None).
    from scrapy.settings import BaseSettings

    if isinstance(value, (bool, int, float, str)):
        try:
            return BaseSettings({name: value}).getbool(name)
        except ValueError:
            pass
    raise SettingsError(name, value)


def _strings(name: str, value: object, items: object) -> tuple[str, ...]:
    if not isinstance(items, (list, tuple, set, frozenset)):
        raise SettingsError(name, value)
    bad = [v for v in items if not isinstance(v, str)]
    if bad:
        raise SettingsError(name, value, f"{bad[0]!r} is not a string")
    return tuple(v.strip() for v in items if v.strip())


def _json(name: str, value: str) -> object:
    try:
        return json.loads(value.strip())
    except ValueError as exc:
        raise SettingsError(name, value, f"not valid JSON: {exc}") from None


#: List settings whose names are HTML names (tags, attributes, schemes):
#: lowercased, as HTML reads them.
_HTML_NAMES = frozenset(
    {
        "SOUP_LINKS_EXTRA_ATTRIBUTES",
        "SOUP_CLEAN_ALLOWED_TAGS",
        "SOUP_CLEAN_REMOVE_TAGS",
        "SOUP_CLEAN_URL_SCHEMES",
        "SOUP_CLEAN_ALLOWED_ATTRIBUTES",
        "SOUP_CLEAN_RESET_ATTRIBUTES",
        "SOUP_CLEAN_DROP_ATTRIBUTES",
    }
)

#: List settings where no name at all empties every field it touches (no
#: URL kept, no tag kept): refused unless given as an explicit empty list.
_NOT_EMPTY_BY_ACCIDENT = {
    "SOUP_CLEAN_URL_SCHEMES": "no URL scheme kept removes every href and src",
    "SOUP_CLEAN_ALLOWED_TAGS": "no tag kept unwraps every element",
}


def _str_list(name: str, value: object) -> tuple[str, ...]:
    """Every list setting takes the same forms: a list, tuple or set, a JSON
    list, or a string of names separated by commas and/or whitespace (as
    Scrapy's getlist() splits on commas; ``-s NAME=a,b``)."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith(("[", "{")):
            names = _strings(name, value, _json(name, value))
        else:
            names = _strings(name, value, re.split(r"[\s,]+", text))
            if not names and name in _NOT_EMPTY_BY_ACCIDENT:
                raise SettingsError(
                    name,
                    value,
                    f"an empty string names nothing: {_NOT_EMPTY_BY_ACCIDENT[name]}; "
                    "give an explicit empty list ([]) if that is meant",
                    expected=False,
                )
    else:
        names = _strings(name, value, value)
    names = tuple(n for item in names for n in item.split())
    if name in _HTML_NAMES:
        names = tuple(n.lower() for n in names)
    return names


def _names(name: str, value: object) -> tuple[str, ...]:
    """Tag, attribute or scheme names (lowercased)."""
    return _str_list(name, value)


def _tags(name: str, value: object) -> tuple[str, ...] | str:
    names = _names(name, value)
    # "*": every tag (None in the policy, which here means "not set").
    return "*" if names == ("*",) else names


def _attribute_map(name: str, value: object) -> dict[str, tuple[str, ...]]:
    # As BaseSettings.getdict(): a dict, or a str holding a JSON object; and
    # what CleanPolicy takes besides: a list of names, meaning {"*": names}.
    given = value
    if isinstance(value, str) and value.strip().startswith("{"):
        given = _json(name, value)
    if isinstance(given, Mapping):
        out: dict[str, tuple[str, ...]] = {}
        for tag, attrs in given.items():
            if not isinstance(tag, str):
                raise SettingsError(name, value, f"key {tag!r} is not a string")
            try:
                out[tag.strip().lower()] = _names(name, attrs)
            except SettingsError as exc:
                why = f"{tag!r}: {exc.why or f'{attrs!r} is not a list of names'}"
                raise SettingsError(name, value, why) from None
        return out
    return {"*": _names(name, value)}


def _preset(name: str, value: object) -> CleanPolicy:
    if isinstance(value, CleanPolicy):
        return value
    if isinstance(value, str) and value.strip().lower() in POLICIES:
        return POLICIES[value.strip().lower()]
    raise SettingsError(name, value)


def _str_or_none(name: str, value: object) -> str | None:
    if not isinstance(value, str):
        raise SettingsError(name, value)
    return value.strip() or None


def _parser(name: str, value: object) -> str:
    try:
        return parser_name(value)
    except ValueError as exc:
        raise SettingsError(name, value, str(exc)) from None


_PARSERS = {
    BOOL: _bool,
    STR_OR_NONE: _str_or_none,
    STR_LIST: _str_list,
    TAGS: _tags,
    ATTRIBUTE_MAP: _attribute_map,
    PRESET: _preset,
    PARSER: _parser,
}


def parse_setting(name: str, value: object) -> object:
    """``value`` of the declared setting ``name``, checked and normalized.

    None (not set) gives the declared default. Raises :class:`SettingsError`.
    """
    setting = SETTINGS_BY_NAME[name]
    if value is None:
        return None if setting.default is None else parse_setting(name, setting.default)
    return _PARSERS[setting.kind](name, value)


def _policy(values: dict[str, object]) -> CleanPolicy:
    policy = values["SOUP_CLEAN_POLICY"]
    assert isinstance(policy, CleanPolicy)
    changes = {
        name.removeprefix(CLEAN_PREFIX).lower(): None if value == "*" else value
        for name, value in values.items()
        if name.startswith(CLEAN_PREFIX)
        and name != "SOUP_CLEAN_POLICY"
        and value is not None
    }
    return policy.replace(**changes)


def _get(values: dict[str, object], name: str, kind: type[_T]) -> _T:
    value = values[name]
    assert isinstance(value, kind)
    return value


@dataclass(frozen=True)
class Config:
    """The ``SOUP_*`` settings of one crawler, checked and typed."""

    enabled: bool = True
    sniff_html: bool = False
    #: ``SOUP_PARSER``: "lxml" or "html5"
    parser: str = "lxml"
    url_field: str | None = None
    html_fields: tuple[str, ...] = ()
    #: fields converted to plain text / Markdown after cleaning
    text_fields: tuple[str, ...] = ()
    markdown_fields: tuple[str, ...] = ()
    #: fields holding a page, exported as its main content
    main_content_fields: tuple[str, ...] = ()
    #: ``SOUP_MAIN_CONTENT_METADATA``: the page's metadata fills the item
    main_content_metadata: bool = False
    drop_failed_items: bool = False
    links_extra_attributes: tuple[str, ...] = ()
    #: ``SOUP_CLEAN_POLICY`` changed by the other ``SOUP_CLEAN_*`` settings
    policy: CleanPolicy = field(default_factory=CleanPolicy)

    @property
    def markup_fields(self) -> tuple[str, ...]:
        """Every field the settings name as holding HTML, whatever its format."""
        # Once each: a main-content field is named again for its format.
        return tuple(
            dict.fromkeys(
                self.html_fields
                + self.text_fields
                + self.markdown_fields
                + self.main_content_fields
            )
        )

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Config:
        """Read and check every declared setting (strings from ``-s`` too).

        Raises :class:`SettingsError` for the first value that is wrong.
        """
        values = {s.name: parse_setting(s.name, settings.get(s.name)) for s in SETTINGS}
        text_fields = _get(values, "SOUP_TEXT_FIELDS", tuple)
        markdown_fields = _get(values, "SOUP_MARKDOWN_FIELDS", tuple)
        both = sorted(set(text_fields) & set(markdown_fields))
        if both:
            raise SettingsError(
                "SOUP_MARKDOWN_FIELDS",
                settings.get("SOUP_MARKDOWN_FIELDS"),
                "SOUP_TEXT_FIELDS and SOUP_MARKDOWN_FIELDS both name "
                f"{', '.join(both)}: a field is exported in one format",
                expected=False,
            )
        url_field = values["SOUP_URL_FIELD"]
        assert url_field is None or isinstance(url_field, str)
        return cls(
            enabled=_get(values, "SOUP_ENABLED", bool),
            sniff_html=_get(values, "SOUP_SNIFF_HTML", bool),
            parser=_get(values, "SOUP_PARSER", str),
            url_field=url_field,
            html_fields=_get(values, "SOUP_HTML_FIELDS", tuple),
            text_fields=text_fields,
            markdown_fields=markdown_fields,
            main_content_fields=_get(values, "SOUP_MAIN_CONTENT_FIELDS", tuple),
            main_content_metadata=_get(values, "SOUP_MAIN_CONTENT_METADATA", bool),
            drop_failed_items=_get(values, "SOUP_DROP_FAILED_ITEMS", bool),
            links_extra_attributes=_get(values, "SOUP_LINKS_EXTRA_ATTRIBUTES", tuple),
            policy=_policy(values),
        )


def settings_error(settings: BaseSettings) -> SettingsError | None:
    """The error a crawler with these settings stops on (None: none, or off)."""
    try:
        if parse_setting("SOUP_ENABLED", settings.get("SOUP_ENABLED")) is False:
            return None
        Config.from_settings(settings)
    except SettingsError as exc:
        return exc
    return None
