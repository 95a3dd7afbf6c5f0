"""All ``SOUP_*`` settings, read from the crawler's settings in one place.

Every Scrapy component of scrapy_soup builds a :class:`Config` in its
``from_crawler()`` and reads nothing else from the settings afterwards, so the
settings reference in ``docs/scrapy.md`` and this module cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["DEFAULTS", "Config"]

#: Default value of every setting; ``docs/scrapy.md`` documents each one.
DEFAULTS: dict[str, Any] = {
    "SOUP_SNIFF_HTML": False,
    "SOUP_URL_FIELD": None,
    "SOUP_HTML_FIELDS": [],
    "SOUP_DROP_FAILED_ITEMS": False,
    "SOUP_LINKS_EXTRA_ATTRIBUTES": [],
    "SOUP_CLEAN_POLICY": "safe",
    "SOUP_CLEAN_ALLOWED_TAGS": None,
    "SOUP_CLEAN_ALLOWED_ATTRIBUTES": None,
    "SOUP_CLEAN_REMOVE_ATTRIBUTES": None,
    "SOUP_CLEAN_REMOVE_ELEMENTS": None,
    "SOUP_CLEAN_UNWRAP_TAGS": None,
    "SOUP_CLEAN_ALLOWED_SCHEMES": None,
    "SOUP_CLEAN_KEEP_COMMENTS": None,
}


def _optional_list(settings: BaseSettings, name: str) -> list[str] | None:
    # None means "not set, keep the preset's value"; an empty list is a value.
    if settings.get(name) is None:
        return None
    return [str(v) for v in settings.getlist(name)]


def _optional_bool(settings: BaseSettings, name: str) -> bool | None:
    if settings.get(name) is None:
        return None
    return settings.getbool(name)


@dataclass(frozen=True)
class Config:
    """The ``SOUP_*`` settings of one crawler, typed and validated."""

    sniff_html: bool = False
    url_field: str | None = None
    html_fields: tuple[str, ...] = ()
    drop_failed_items: bool = False
    links_extra_attributes: tuple[str, ...] = ()
    clean_policy: Any = "safe"
    clean_allowed_tags: list[str] | None = None
    clean_allowed_attributes: dict[str, list[str]] | None = None
    clean_remove_attributes: list[str] | None = None
    clean_remove_elements: list[str] | None = None
    clean_unwrap_tags: list[str] | None = None
    clean_allowed_schemes: list[str] | None = None
    clean_keep_comments: bool | None = None

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Config:
        """Read every ``SOUP_*`` setting; values may come as strings from ``-s``."""
        url_field = settings.get("SOUP_URL_FIELD") or None
        allowed_attributes: dict[str, list[str]] | None = None
        if settings.get("SOUP_CLEAN_ALLOWED_ATTRIBUTES") is not None:
            # getdict() also parses the JSON that ``-s NAME=...`` passes.
            raw = settings.getdict("SOUP_CLEAN_ALLOWED_ATTRIBUTES")
            allowed_attributes = {
                str(tag): [
                    str(a) for a in ([attrs] if isinstance(attrs, str) else attrs)
                ]
                for tag, attrs in raw.items()
            }
        return cls(
            sniff_html=settings.getbool("SOUP_SNIFF_HTML"),
            url_field=str(url_field) if url_field is not None else None,
            html_fields=tuple(str(f) for f in settings.getlist("SOUP_HTML_FIELDS")),
            drop_failed_items=settings.getbool("SOUP_DROP_FAILED_ITEMS"),
            links_extra_attributes=tuple(
                str(a) for a in settings.getlist("SOUP_LINKS_EXTRA_ATTRIBUTES")
            ),
            clean_policy=settings.get("SOUP_CLEAN_POLICY", "safe"),
            clean_allowed_tags=_optional_list(settings, "SOUP_CLEAN_ALLOWED_TAGS"),
            clean_allowed_attributes=allowed_attributes,
            clean_remove_attributes=_optional_list(
                settings, "SOUP_CLEAN_REMOVE_ATTRIBUTES"
            ),
            clean_remove_elements=_optional_list(
                settings, "SOUP_CLEAN_REMOVE_ELEMENTS"
            ),
            clean_unwrap_tags=_optional_list(settings, "SOUP_CLEAN_UNWRAP_TAGS"),
            clean_allowed_schemes=_optional_list(
                settings, "SOUP_CLEAN_ALLOWED_SCHEMES"
            ),
            clean_keep_comments=_optional_bool(settings, "SOUP_CLEAN_KEEP_COMMENTS"),
        )
