"""The docs' reference pages against the code: settings, stats, presets, API.

The settings, stats, presets and API tables are committed Markdown that
``docs/_ext/soup_tables.py`` writes from the declarations (run it after a
change; here a test fails until the committed tables are current). The
tables are checked against the package's source too: a ``SOUP_*`` setting or ``soup/...`` stat written anywhere
in ``scrapy_soup/`` must be in the generated table, and every name in the
table must be in the code. Hand-written pages may name only settings and
stats that exist.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import scrapy_soup
from scrapy_soup.markup._policy import CleanPolicy

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "scrapy_soup"
DOCS = REPO / "docs"

#: A setting or stat key as a whole string literal of the code: "SOUP_X",
#: 'soup/x_y' (not a prefix such as "SOUP_CLEAN_", not a key built at run time).
SETTING_LITERAL = re.compile(r"""["'](SOUP_[A-Z0-9_]*[A-Z0-9])["']""")
STAT_LITERAL = re.compile(r"""["'](soup/[a-z0-9_]+)["']""")
#: Names as prose writes them (in backticks, tables, command lines).
SETTING_WORD = re.compile(r"\bSOUP_[A-Z0-9_]*[A-Z0-9]\b")
STAT_WORD = re.compile(r"\bsoup/[a-z0-9_]*[a-z0-9]\b")
#: Names the pages misspell on purpose, to show the warning a typo gets.
MISSPELT_ON_PURPOSE = {"SOUP_HTML_FEILDS", "SOUP_CLEAN_POLCY"}


def _tables() -> ModuleType:
    """docs/_ext/soup_tables.py, the module the Sphinx extension writes with."""
    spec = importlib.util.spec_from_file_location(
        "soup_tables", DOCS / "_ext" / "soup_tables.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("soup_tables", module)
    spec.loader.exec_module(module)
    return module


TABLES = _tables()


def _in_code(pattern: re.Pattern[str]) -> set[str]:
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        found.update(pattern.findall(path.read_text("utf-8")))
    return found


def _first_column(markdown: str) -> list[str]:
    """The names in a generated table's first column (``| `NAME` | ...``)."""
    rows = [line for line in markdown.splitlines() if line.startswith("| `")]
    return [re.match(r"\| `([^`]+)`", row).group(1) for row in rows]  # type: ignore[union-attr]


def test_the_settings_table_lists_every_setting_of_the_code() -> None:
    in_code = _in_code(SETTING_LITERAL)
    assert len(in_code) >= 10, in_code  # the grep finds the settings at all
    in_docs = _first_column(TABLES.settings_markdown())
    assert len(in_docs) == len(set(in_docs)), "a setting is listed twice"
    assert not in_code - set(in_docs), "in the code, not in the settings reference"
    assert not set(in_docs) - in_code, "in the settings reference, not in the code"


def test_the_stats_table_lists_every_stat_of_the_code() -> None:
    in_code = _in_code(STAT_LITERAL)
    assert len(in_code) >= 5, in_code
    in_docs = _first_column(TABLES.stats_markdown())
    assert len(in_docs) == len(set(in_docs)), "a stat is listed twice"
    assert not in_code - set(in_docs), "in the code, not in the stats reference"
    assert not set(in_docs) - in_code, "in the stats reference, not in the code"


def test_the_committed_tables_are_current() -> None:
    """``python docs/_ext/soup_tables.py`` would change nothing."""
    for name, (page, write) in TABLES.TABLES.items():
        text = (DOCS / page).read_text("utf-8")
        assert f"<!-- soup-tables:{name} " in text, page
        assert write() in text, (
            f"docs/{page}: the {name} table is out of date; "
            "run python docs/_ext/soup_tables.py and commit"
        )
    assert TABLES.regenerate() == {}


def test_regenerating_a_stale_table_rewrites_it_in_place(tmp_path: Path) -> None:
    for page in {page for page, _ in TABLES.TABLES.values()}:
        text = (DOCS / page).read_text("utf-8")
        (tmp_path / page).write_text(text.replace("| `", "| `OLD", 1), "utf-8")
    changed = TABLES.regenerate(tmp_path)
    assert sorted(changed) == sorted({page for page, _ in TABLES.TABLES.values()})
    for page, (stale, current) in changed.items():
        assert "| `OLD" in stale
        assert current == (DOCS / page).read_text("utf-8")


@pytest.mark.parametrize(
    "page",
    [REPO / "README.md", *sorted(DOCS.glob("*.md"))],
    ids=lambda page: page.name,
)
def test_pages_name_only_settings_and_stats_that_exist(page: Path) -> None:
    text = page.read_text("utf-8")
    settings = set(_first_column(TABLES.settings_markdown()))
    stats = set(_first_column(TABLES.stats_markdown()))
    assert not set(SETTING_WORD.findall(text)) - settings - MISSPELT_ON_PURPOSE
    assert not set(STAT_WORD.findall(text)) - stats


def test_the_presets_table_has_a_column_per_preset_and_a_row_per_field() -> None:
    table = TABLES.policies_markdown()
    header = table.splitlines()[0]
    for name in scrapy_soup.POLICIES:
        assert f'`"{name}"`' in header
    rows = table.splitlines()[2:]
    fields = list(CleanPolicy.__dataclass_fields__)
    assert len(rows) == len(fields)
    for field, row in zip(fields, rows, strict=True):
        assert f"`{field}`" in row.split(" | ")[0]
        assert row.count(" | ") == len(scrapy_soup.POLICIES)


def test_the_presets_table_says_what_each_preset_keeps() -> None:
    rows = {
        re.search(r"\(`(\w+)`\)", row).group(1): row.split(" | ")[1:]  # type: ignore[union-attr]
        for row in TABLES.policies_markdown().splitlines()[2:]
    }
    presets = list(scrapy_soup.POLICIES)
    first = presets[0]

    def cell(field: str, preset: str) -> str:
        text = rows[field][presets.index(preset)].strip(" |")
        # A preset that agrees with the first says so instead of the list.
        return cell(field, first) if text == f'as `"{first}"`' else text

    assert cell("allowed_tags", "strict") == "`a`, `br`, `p`"
    assert cell("drop_attributes", "epub") == "every tag: `align`"
    for name, policy in scrapy_soup.POLICIES.items():
        for scheme in policy.url_schemes:
            assert f"`{scheme}`" in cell("url_schemes", name)
        for tag in policy.remove_tags:
            assert f"`{tag}`" in cell("remove_tags", name)
        for tag in policy.allowed_tags or ():
            assert f"`{tag}`" in cell("allowed_tags", name)
        assert cell("keep_comments", name) == ("yes" if policy.keep_comments else "no")


def test_the_api_page_documents_the_public_names() -> None:
    """Every name of ``__all__`` is on the API page, by hand or by the catch-all."""
    page = (DOCS / "api.md").read_text("utf-8")
    by_hand = set(
        re.findall(r"^\.\. (?:auto\w+|py:\w+):: scrapy_soup\.(\w+)", page, re.M)
    )
    assert by_hand <= set(scrapy_soup.__all__), by_hand - set(scrapy_soup.__all__)
    # The rest is documented by ``soup-api-others`` at the end of the page.
    assert re.search(r"```\{soup-api-others\}\n[^`]+\n```\s*$", page)
    # And the table at the top lists each name.
    assert set(_first_column(TABLES.api_markdown())) == set(scrapy_soup.__all__)


def _readme_pages() -> list[Path]:
    """README.md and every Markdown page of the repository it links."""
    readme = REPO / "README.md"
    targets = re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", readme.read_text("utf-8"))
    pages = sorted({(REPO / t).resolve() for t in targets})
    assert len(pages) >= 15, pages  # the README's documentation list
    return [readme, *pages]


@pytest.mark.parametrize("page", _readme_pages(), ids=lambda page: page.name)
def test_pages_the_readme_links_read_on_github(page: Path) -> None:
    """As GitHub shows them (CommonMark + tables): no role, no empty table or box."""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(page.read_text("utf-8"))
    tables = re.findall(r"<table>.*?</table>", html, re.S)
    for table in tables:
        assert re.search(r"<tbody>\s*<tr>", table), f"an empty table: {table[:200]}"
    assert not re.search(r"<pre><code[^>]*></code></pre>", html), "an empty code box"
    # Roles ({doc}`x`, {setting}`X`) print as text around code: look outside code.
    prose = re.sub(r"<(pre|code)\b.*?</\1>", "", html, flags=re.S)
    assert not re.findall(r"\{[a-z][a-z-]*\}", prose)
    # Links between pages are plain relative links to files that exist.
    for target in re.findall(r'href="([^":#]+)(?:#[^"]*)?"', html):
        assert (page.parent / target).exists(), target
