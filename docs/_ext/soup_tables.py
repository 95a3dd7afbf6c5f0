"""The reference tables of the docs, written from the code's own declarations.

Pure Python (no Sphinx): the ``soup_docs`` extension puts these tables in the
pages, and ``tests/test_docs_reference.py`` reads them to check them against
the package's source. Each function returns MyST Markdown.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

import scrapy_soup
from scrapy_soup._scrapy._settings import SETTINGS
from scrapy_soup._scrapy._stats import STATS

__all__ = [
    "policies_markdown",
    "setting_names",
    "settings_markdown",
    "stat_names",
    "stats_markdown",
]


def _cell(text: str) -> str:
    """One table cell: a pipe would end it, a newline would end the row."""
    return " ".join(text.split()).replace("|", "\\|")


def _code(value: str) -> str:
    """Inline code holding *value*, fenced with enough backticks."""
    fence = "`"
    while fence in value:
        fence += "`"
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def _literal(value: object) -> str:
    """A default as a Python literal: ``"safe"``, ``False``, ``[]``, ``None``."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (tuple, frozenset, set)):
        value = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
    return repr(value)


def _table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def setting_names() -> list[str]:
    """Every declared ``SOUP_*`` setting, in declaration order."""
    return [setting.name for setting in SETTINGS]


def stat_names() -> list[str]:
    """Every declared ``soup/...`` stat, in declaration order."""
    return [stat.name for stat in STATS]


def settings_markdown() -> str:
    """The settings reference: one row per declared setting."""
    rows = [
        (
            _code(setting.name),
            setting.kind,
            _code(_literal(setting.default)),
            setting.doc,
        )
        for setting in SETTINGS
    ]
    return _table(["setting", "type", "default", "meaning"], rows)


def stats_markdown() -> str:
    """The stats reference: one row per declared stat."""
    return _table(["key", "counts"], [(_code(s.name), s.doc) for s in STATS])


def _names(values: Iterable[str] | None, everything: str) -> str:
    if values is None:
        return everything
    names = sorted(values)
    return ", ".join(_code(n) for n in names) if names else "none"


def _attribute_map(mapping: Mapping[str, Iterable[str]]) -> str:
    if not mapping:
        return "none"
    parts = []
    for tag in sorted(mapping):
        where = "every tag" if tag == "*" else _code(f"<{tag}>")
        parts.append(f"{where}: {_names(mapping[tag], '')}")
    return "; ".join(parts)


def _policy_value(field: str, value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return _attribute_map(value)
    if value is None or isinstance(value, frozenset):
        return _names(value, "every tag not removed")  # None: allowed_tags only
    raise TypeError(f"CleanPolicy.{field}: no table form for {value!r}")


def policies_markdown() -> str:
    """What each cleaning preset keeps: one column per `scrapy_soup.POLICIES` entry."""
    presets = dict(scrapy_soup.POLICIES)
    fields: list[tuple[str, str]] = [
        ("allowed_tags", "tags kept (others unwrapped, their text kept)"),
        ("remove_tags", "tags removed with their content"),
        ("allowed_attributes", "attributes kept"),
        ("reset_attributes", "tags that keep only these attributes"),
        ("drop_attributes", "attributes removed even where allowed"),
        ("url_schemes", "URL schemes kept"),
        ("allow_relative_urls", "relative URLs kept"),
        ("data_image_urls", "`data:image/...` URLs kept in images"),
        ("keep_comments", "comments kept"),
    ]
    first_name, first = next(iter(presets.items()))
    rows = []
    for field, meaning in fields:
        row = [f"{meaning} ({_code(field)})"]
        for policy in presets.values():
            text = _policy_value(field, getattr(policy, field))
            if policy is not first and len(text) > 40 and text == row[1]:
                # A long list once: the other presets say they agree.
                text = f"as {_code(json.dumps(first_name))}"
            row.append(text)
        rows.append(row)
    header = ["", *(_code(json.dumps(name)) for name in presets)]
    return _table(header, rows)
