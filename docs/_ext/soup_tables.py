"""The reference tables of the docs, written from the code's own declarations.

Pure Python (no Sphinx). The tables are committed in the pages, between
``<!-- soup-tables:NAME -->`` and ``<!-- /soup-tables:NAME -->``, so that the
pages read on GitHub as on the Sphinx site. After adding or changing a
setting, a stat, a preset or a public name, regenerate them and commit::

    python docs/_ext/soup_tables.py           # rewrite the tables in docs/
    python docs/_ext/soup_tables.py --check   # exit 1 if one is out of date

``tests/test_docs_reference.py`` checks that the committed tables are current
and match the package's source. Each function returns Markdown (CommonMark
with GitHub's tables).
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import scrapy_soup
from scrapy_soup._scrapy._settings import SETTINGS
from scrapy_soup._scrapy._stats import STATS

__all__ = [
    "TABLES",
    "api_markdown",
    "main",
    "policies_markdown",
    "regenerate",
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


def _summary(value: object) -> str:
    """The first sentence of a docstring (its first paragraph, one line)."""
    doc = inspect.getdoc(value) or ""
    return " ".join(doc.split("\n\n")[0].split())


def api_markdown() -> str:
    """Every public name of ``scrapy_soup.__all__`` with its kind and summary."""
    rows = []
    for name in sorted(scrapy_soup.__all__, key=str.lower):
        value = getattr(scrapy_soup, name)
        if isinstance(value, type):
            kind = "class"
            summary = _summary(value)
            if issubclass(value, Warning) and summary == _summary(Warning):
                summary = ""
        elif callable(value):
            kind = "function"
            summary = _summary(value)
        else:  # a constant: its type's docstring would say nothing of it
            kind, summary = "constant", ""
        rows.append((_code(name), kind, summary))
    return _table(["name", "kind", "what it is"], rows)


#: Each table: the page it is committed in and the function writing it.
TABLES: dict[str, tuple[str, Callable[[], str]]] = {
    "settings": ("settings.md", settings_markdown),
    "stats": ("stats.md", stats_markdown),
    "policies": ("security.md", policies_markdown),
    "api": ("api.md", api_markdown),
}
DOCS = Path(__file__).resolve().parents[1]


def _region(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- soup-tables:{name} [^>]*-->\n)(.*?)(<!-- /soup-tables:{name} -->)",
        re.S,
    )


def regenerate(docs: Path = DOCS) -> dict[str, tuple[str, str]]:
    """Each page whose tables changed: ``{page: (committed, current)}``."""
    changed: dict[str, tuple[str, str]] = {}
    for name, (page, write) in TABLES.items():
        path = docs / page
        committed = changed.get(page, (path.read_text("utf-8"),))[-1]
        region = _region(name)
        if len(region.findall(committed)) != 1:
            raise LookupError(f"{page}: no single soup-tables:{name} region")
        current = region.sub(
            lambda m, w=write: m.group(1) + w() + m.group(3), committed
        )
        if current != committed:
            changed[page] = (changed.get(page, (committed,))[0], current)
    return changed


def main(argv: list[str]) -> int:
    check = argv[1:] == ["--check"]
    changed = regenerate()
    for page, (_, current) in changed.items():
        if check:
            print(f"{page}: its tables are out of date; run {argv[0]}", file=sys.stderr)
        else:
            (DOCS / page).write_text(current, "utf-8")
            print(f"{page}: tables regenerated")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
