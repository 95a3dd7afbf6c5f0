"""All ``SOUP_*`` settings, read from the crawler's settings in one place.

Every Scrapy component of scrapy_soup builds a :class:`Config` in its
``from_crawler()`` and reads nothing else from the settings afterwards, so the
settings reference in ``docs/scrapy.md`` and this module cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["CLEAN_PREFIX", "DEFAULTS", "Config"]

#: Default value of every setting the add-on sets; ``docs/scrapy.md``
#: documents each one. The other ``SOUP_CLEAN_*`` settings default to the
#: value of the ``SOUP_CLEAN_POLICY`` preset.
DEFAULTS: dict[str, Any] = {
    "SOUP_SNIFF_HTML": False,
    "SOUP_URL_FIELD": None,
    "SOUP_HTML_FIELDS": [],
    "SOUP_TEXT_FIELDS": [],
    "SOUP_MARKDOWN_FIELDS": [],
    "SOUP_DROP_FAILED_ITEMS": False,
    "SOUP_LINKS_EXTRA_ATTRIBUTES": [],
    "SOUP_CLEAN_POLICY": "safe",
}

#: Prefix of the settings that change one field of the cleaning policy
#: (``SOUP_CLEAN_DROP_ATTRIBUTES`` -> ``CleanPolicy.drop_attributes``).
CLEAN_PREFIX = "SOUP_CLEAN_"


@dataclass(frozen=True)
class Config:
    """The ``SOUP_*`` settings of one crawler, typed."""

    sniff_html: bool = False
    url_field: str | None = None
    html_fields: tuple[str, ...] = ()
    #: HTML fields exported as text (``to_text``) / as Markdown (``to_markdown``).
    text_fields: tuple[str, ...] = ()
    markdown_fields: tuple[str, ...] = ()
    drop_failed_items: bool = False
    links_extra_attributes: tuple[str, ...] = ()
    #: A preset name or a ``CleanPolicy`` object.
    clean_policy: Any = "safe"
    #: ``SOUP_CLEAN_*`` settings other than the preset, as given (not None).
    clean_options: dict[str, Any] = field(default_factory=dict)

    @property
    def markup_fields(self) -> tuple[str, ...]:
        """Every field the settings name as holding HTML, whatever its format."""
        return self.html_fields + self.text_fields + self.markdown_fields

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Config:
        """Read every ``SOUP_*`` setting; values may come as strings from ``-s``."""
        url_field = settings.get("SOUP_URL_FIELD") or None
        clean_options = {
            str(key): settings.get(key)
            for key in settings
            if isinstance(key, str)
            and key.startswith(CLEAN_PREFIX)
            and key != "SOUP_CLEAN_POLICY"
            and settings.get(key) is not None
        }
        text_fields = tuple(
            str(f).strip() for f in settings.getlist("SOUP_TEXT_FIELDS")
        )
        markdown_fields = tuple(
            str(f).strip() for f in settings.getlist("SOUP_MARKDOWN_FIELDS")
        )
        both = sorted(set(text_fields) & set(markdown_fields))
        if both:
            raise ValueError(
                "SOUP_TEXT_FIELDS and SOUP_MARKDOWN_FIELDS both name "
                f"{', '.join(both)}: a field is exported in one format"
            )
        return cls(
            sniff_html=settings.getbool("SOUP_SNIFF_HTML"),
            url_field=str(url_field) if url_field is not None else None,
            html_fields=tuple(str(f) for f in settings.getlist("SOUP_HTML_FIELDS")),
            text_fields=text_fields,
            markdown_fields=markdown_fields,
            drop_failed_items=settings.getbool("SOUP_DROP_FAILED_ITEMS"),
            links_extra_attributes=tuple(
                str(a) for a in settings.getlist("SOUP_LINKS_EXTRA_ATTRIBUTES")
            ),
            clean_policy=settings.get("SOUP_CLEAN_POLICY") or "safe",
            clean_options=clean_options,
        )
