"""Every ``SOUP_*`` setting, declared once: name, kind, default, one line of doc.

The code reads no ``SOUP_*`` setting that is not declared here
(:class:`~scrapy_soup._scrapy._config.Config` is built from this table and
validates each value against its ``kind``), and the settings reference in the
docs is generated from it. ``kind`` is one of the forms in :data:`KINDS`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLEAN_PREFIX", "KINDS", "SETTINGS", "SETTINGS_BY_NAME", "Setting"]

#: Prefix of the settings that change one field of the cleaning policy
#: (``SOUP_CLEAN_DROP_ATTRIBUTES`` -> ``CleanPolicy.drop_attributes``).
CLEAN_PREFIX = "SOUP_CLEAN_"

#: The kinds a setting may have, as the docs print them.
BOOL = "bool"
STR_OR_NONE = "str or None"
STR_LIST = "list of str"
TAGS = 'list of str, or "*"'
ATTRIBUTE_MAP = "dict of str to list of str, or list of str"
PRESET = '"safe", "strict", "epub" or a CleanPolicy'
PARSER = '"lxml" or "html5"'
KINDS = (BOOL, STR_OR_NONE, STR_LIST, TAGS, ATTRIBUTE_MAP, PRESET, PARSER)


@dataclass(frozen=True)
class Setting:
    """One ``SOUP_*`` setting."""

    #: e.g. ``"SOUP_HTML_FIELDS"``
    name: str
    #: the expected form, one of :data:`KINDS` (``"list of str"``, ...)
    kind: str
    #: the value when the setting is not set (None for a ``SOUP_CLEAN_*``
    #: field: the ``SOUP_CLEAN_POLICY`` preset's value)
    default: object
    #: one line, MyST Markdown
    doc: str


_PRESET_VALUE = "default: the `SOUP_CLEAN_POLICY` preset's"

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "SOUP_ENABLED",
        BOOL,
        True,
        "`False` turns the plugin off for a spider (e.g. in its `custom_settings`): "
        "every scrapy_soup component stays out, and its responses, items and stats "
        "are what they would be without the plugin",
    ),
    Setting(
        "SOUP_SNIFF_HTML",
        BOOL,
        False,
        "also give a soup to plain `TextResponse`s (e.g. served as `text/plain`) "
        "whose body starts like an HTML document",
    ),
    Setting(
        "SOUP_PARSER",
        PARSER,
        "lxml",
        '`"html5"` parses HTML responses as browsers do (`<tbody>` added, '
        "misnested tags as the browser nests them; needs the `html5` extra): "
        "`.css()`, `.xpath()` and `.soup` all read that tree; per request with "
        '`meta["soup_parser"]`',
    ),
    Setting(
        "SOUP_HTML_FIELDS",
        STR_LIST,
        [],
        "item fields that hold HTML (every string in them, at any depth), made "
        "absolute and clean by the pipelines; for items without field metadata "
        "(dicts)",
    ),
    Setting(
        "SOUP_TEXT_FIELDS",
        STR_LIST,
        [],
        "item fields holding HTML that are converted to plain text after cleaning",
    ),
    Setting(
        "SOUP_MARKDOWN_FIELDS",
        STR_LIST,
        [],
        "item fields holding HTML that are converted to Markdown after cleaning",
    ),
    Setting(
        "SOUP_MAIN_CONTENT_FIELDS",
        STR_LIST,
        [],
        "item fields holding a page (a response, `response.soup` or its HTML) "
        "exported as its main content (`main_content()`), absolute and clean: "
        "HTML, or text or Markdown when `SOUP_TEXT_FIELDS` or "
        "`SOUP_MARKDOWN_FIELDS` names the field too",
    ),
    Setting(
        "SOUP_MAIN_CONTENT_METADATA",
        BOOL,
        False,
        "also fill the item's `title`, `authors`, `published`, `modified`, "
        "`language`, `canonical_url`, `description`, `site_name`, `image` and "
        "`tags` fields from the `metadata()` of the page in its main-content "
        "field: those the item declares (a dict: all) and that are empty",
    ),
    Setting(
        "SOUP_URL_FIELD",
        STR_OR_NONE,
        None,
        "name of a field the spider middleware fills with the page URL (if "
        "empty); the pipelines fall back to it for the base URL",
    ),
    Setting(
        "SOUP_DROP_FAILED_ITEMS",
        BOOL,
        False,
        "drop (`DropItem`) an item when one of its HTML values cannot be "
        "processed, instead of keeping it with that value's text escaped",
    ),
    Setting(
        "SOUP_LINKS_EXTRA_ATTRIBUTES",
        STR_LIST,
        [],
        'more attributes holding a URL, e.g. `["data-src", "data-srcset"]` '
        "(a name ending in `srcset` is read as a srcset)",
    ),
    Setting(
        "SOUP_CLEAN_POLICY",
        PRESET,
        "safe",
        'the cleaning preset (`"safe"`, `"strict"`, `"epub"`) or a '
        "`scrapy_soup.CleanPolicy` object; the `SOUP_CLEAN_*` settings below "
        "change it",
    ),
    Setting(
        "SOUP_CLEAN_ALLOWED_TAGS",
        TAGS,
        None,
        'tags kept; other tags are unwrapped (their text kept); `"*"` keeps '
        f"every tag not removed ({_PRESET_VALUE})",
    ),
    Setting(
        "SOUP_CLEAN_REMOVE_TAGS",
        STR_LIST,
        None,
        "tags removed with their content (`script`, `style`, `iframe`, ...) "
        f"unless allowed ({_PRESET_VALUE})",
    ),
    Setting(
        "SOUP_CLEAN_ALLOWED_ATTRIBUTES",
        ATTRIBUTE_MAP,
        None,
        'attributes kept, per tag: `{"*": ["title"], "a": ["href"]}` (a list '
        f'means `{{"*": [...]}}`) ({_PRESET_VALUE})',
    ),
    Setting(
        "SOUP_CLEAN_RESET_ATTRIBUTES",
        ATTRIBUTE_MAP,
        None,
        '`{"img": ["src", "alt"]}`: these tags keep only these attributes, '
        f"whatever else allows ({_PRESET_VALUE})",
    ),
    Setting(
        "SOUP_CLEAN_DROP_ATTRIBUTES",
        ATTRIBUTE_MAP,
        None,
        'attributes removed even where allowed (`["align"]`, or per tag) '
        f"({_PRESET_VALUE})",
    ),
    Setting(
        "SOUP_CLEAN_URL_SCHEMES",
        STR_LIST,
        None,
        f"URL schemes kept in URL attributes ({_PRESET_VALUE})",
    ),
    Setting(
        "SOUP_CLEAN_ALLOW_RELATIVE_URLS",
        BOOL,
        None,
        f"keep URLs without a scheme ({_PRESET_VALUE})",
    ),
    Setting(
        "SOUP_CLEAN_DATA_IMAGE_URLS",
        BOOL,
        None,
        "keep `data:image/...` URLs (PNG, GIF, JPEG, WebP, AVIF, BMP) in images "
        f"({_PRESET_VALUE})",
    ),
    Setting(
        "SOUP_CLEAN_KEEP_COMMENTS",
        BOOL,
        None,
        "keep comments (those a browser could end early are dropped anyway) "
        f"({_PRESET_VALUE})",
    ),
)

SETTINGS_BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}
