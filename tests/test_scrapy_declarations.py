"""The SOUP_* settings and soup/... stats are declared once, and completely."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import scrapy_soup
from scrapy_soup._scrapy import _stats
from scrapy_soup._scrapy._settings import (
    CLEAN_PREFIX,
    KINDS,
    SETTINGS,
    SETTINGS_BY_NAME,
    Setting,
)
from scrapy_soup._scrapy._stats import STATS, STATS_BY_NAME, Stat
from scrapy_soup.markup.clean import CleanPolicy

PACKAGE_DIR = Path(scrapy_soup.__file__).parent


def _package_sources() -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in PACKAGE_DIR.rglob("*.py")}


def test_every_clean_policy_field_is_a_setting() -> None:
    fields = {f.name for f in dataclasses.fields(CleanPolicy)}
    assert fields, "CleanPolicy has no fields"
    declared = {
        s.name.removeprefix(CLEAN_PREFIX).lower()
        for s in SETTINGS
        if s.name.startswith(CLEAN_PREFIX) and s.name != "SOUP_CLEAN_POLICY"
    }
    assert declared == fields


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_each_setting_is_well_formed(setting: Setting) -> None:
    assert re.fullmatch(r"SOUP_[A-Z_]+", setting.name)
    assert setting.kind in KINDS
    assert setting.doc and "\n" not in setting.doc
    assert SETTINGS_BY_NAME[setting.name] is setting


@pytest.mark.parametrize("stat", STATS, ids=lambda s: s.name)
def test_each_stat_is_well_formed(stat: Stat) -> None:
    assert re.fullmatch(r"soup/[a-z_]+", stat.name)
    assert stat.doc and "\n" not in stat.doc
    assert STATS_BY_NAME[stat.name] is stat


def test_names_are_unique() -> None:
    assert len(SETTINGS_BY_NAME) == len(SETTINGS)
    assert len(STATS_BY_NAME) == len(STATS)


def test_every_stat_has_its_constant() -> None:
    constants = {
        value
        for name, value in vars(_stats).items()
        if name.isupper() and isinstance(value, str)
    }
    assert constants == set(STATS_BY_NAME)


def test_no_stat_key_is_written_outside_the_declaration() -> None:
    """Every soup/... key in the code comes from _stats (no literal elsewhere)."""
    literal = re.compile(r"""["']soup/[a-z_]+["']""")
    found = {
        str(path.relative_to(PACKAGE_DIR)): literal.findall(text)
        for path, text in _package_sources().items()
        if path.name != "_stats.py"
    }
    assert {k: v for k, v in found.items() if v} == {}
    # The check reads real sources: the declaration itself has the literals.
    assert literal.findall((PACKAGE_DIR / "_scrapy" / "_stats.py").read_text())


def test_every_soup_setting_named_in_the_code_is_declared() -> None:
    """A SOUP_* name in any module (docstrings too) is a declared setting."""
    name = re.compile(r"\bSOUP_[A-Z_]*[A-Z]\b")
    seen: set[str] = set()
    for text in _package_sources().values():
        seen.update(name.findall(text))
    assert "SOUP_HTML_FIELDS" in seen
    assert seen - set(SETTINGS_BY_NAME) == set()
