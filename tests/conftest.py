"""Shared fixtures: the repository's own corpus of real pages.

Every test finds pages here, through ``corpus_pages()`` / ``corpus_page()``,
and nowhere else. The default is ``tests/data/corpus`` (a chosen subset of
the project's page corpus, carried by the repository: see its README for the
sources, licenses and why each page is there), so a fresh clone runs every
parity test. ``SCRAPY_SOUP_CORPUS`` may point at another folder with the same
``MANIFEST.tsv`` layout (a bigger corpus for a longer run); no test needs it.

A missing or empty corpus raises: a parity test with no pages fails, it never
skips or collects nothing.
"""

from __future__ import annotations

import ast
import csv
import functools
import os
from pathlib import Path
from typing import Any

import pytest
import soupsieve
from hypothesis import settings

# Every hypothesis test of the normal run draws the same examples on every
# run: CI fails on a change, never at random.  Long runs ask for fresh ones
# (tests/fuzzing.py's long profile, SCRAPY_SOUP_EDIT_EXAMPLES).
settings.register_profile("repeatable", derandomize=True)
settings.load_profile("repeatable")

#: Files mypy checks and nothing runs (tests/test_typing.py checks them).
collect_ignore = ["typing"]

#: The corpus in the repository.
REPO_CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
#: The corpus the tests read.
CORPUS = Path(os.environ.get("SCRAPY_SOUP_CORPUS") or REPO_CORPUS)


class CorpusMissing(RuntimeError):
    """The corpus folder, its manifest or a page the tests name is not there."""


#: The CSS parity tests' oracle is bs4's CSS engine, soupsieve 4. On Python
#: 3.10 pip finds soupsieve 2 at most (soupsieve 4 needs 3.11.5), which
#: matches inside ``<template>`` and differs from soupsieve 4 on several
#: selectors (docs/migrating.md, ``:has()`` on Python 3.10): there those
#: tests have no oracle to compare with, and say so.
needs_soupsieve_4 = pytest.mark.skipif(
    int(soupsieve.__version__.split(".")[0]) < 4,
    reason="the CSS oracle is soupsieve 4 (Python >= 3.11.5); "
    f"soupsieve {soupsieve.__version__} matches inside <template>",
)


def corpus_manifest() -> list[dict[str, str]]:
    """The rows of the corpus manifest (file, bytes, source, license, kind, sha256)."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        raise CorpusMissing(
            f"no corpus manifest at {manifest}: the tests carry their pages in "
            f"{REPO_CORPUS}; SCRAPY_SOUP_CORPUS, when set, must name a folder "
            "with the same MANIFEST.tsv layout"
        )
    with manifest.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows:
        raise CorpusMissing(f"{manifest} lists no pages")
    return rows


def corpus_pages(kind: str | None = None) -> list[Path]:
    """The corpus pages listed in its manifest (optionally only one ``kind``).

    Never empty: raises `CorpusMissing` instead, so that a parametrized test
    fails at collection rather than collecting nothing.
    """
    pages = [
        CORPUS / r["file"]
        for r in corpus_manifest()
        if kind is None or r["kind"] == kind
    ]
    if not pages:
        raise CorpusMissing(f"the corpus at {CORPUS} has no pages of kind {kind!r}")
    return pages


def corpus_page(name: str) -> Path:
    """One page by file name (``"base-url.html"``); raises if the corpus lacks it."""
    for path in corpus_pages():
        if path.name == name:
            return path
    raise CorpusMissing(f"the corpus at {CORPUS} has no page {name!r}")


#: Pages larger than this run in the slow pass (``pytest -m slow``) only: the
#: default run keeps the other 65 of the 73 pages (and every fixture).
LARGE_PAGE = 300_000


def corpus_params(pages: list[Path]) -> list[Any]:
    """``pages`` for ``parametrize``: those over `LARGE_PAGE` bytes marked slow."""
    return [
        pytest.param(p, marks=pytest.mark.slow) if p.stat().st_size > LARGE_PAGE else p
        for p in pages
    ]


def read_page(path: Path) -> str:
    """A page's text: every corpus file is UTF-8 (see the corpus README)."""
    return path.read_bytes().decode("utf-8")


# --- The ``scrapy`` marker -------------------------------------------------
#
# The Scrapy-release and extras sessions of noxfile.py run ``-m scrapy``: the
# tests that touch Scrapy (the Scrapy layer, the crawls, the doc spiders).
# No list is kept by hand: a test module is marked when it imports Scrapy, a
# Scrapy plugin, ``scrapy_soup._scrapy``, one of scrapy_soup's Scrapy names
# (``Addon``, ``SoupHtmlResponse``, ...) or a helper module of tests/ that
# does, or runs ``scrapy``/the example project in a subprocess; a doctest
# (README, docs pages, docstrings) when its examples do. tests/test_ci.py
# checks the rule on the modules it must catch and must not.

#: Top-level modules that are Scrapy or run on it.
SCRAPY_MODULES = frozenset(
    {"scrapy", "scrapy_redis", "scrapy_splash", "scrapy_zyte_api", "twisted"}
)
TESTS_DIR = Path(__file__).resolve().parent


def _scrapy_names() -> frozenset[str]:
    """scrapy_soup's public names that import Scrapy (its lazy ones)."""
    import scrapy_soup

    return frozenset(getattr(scrapy_soup, "_SCRAPY_NAMES", {}))


def _imports_scrapy(node: ast.AST, names: frozenset[str]) -> bool:
    if isinstance(node, ast.Import):
        modules = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        if node.module == "scrapy_soup":
            return any(alias.name in names for alias in node.names)
        modules = [node.module]
    else:
        return False
    for module in modules:
        top = module.split(".")[0]
        if top in SCRAPY_MODULES or module.startswith("scrapy_soup._scrapy"):
            return True
        if top == "example_project":
            return True
        helper = TESTS_DIR / f"{top}.py"
        if top != "conftest" and helper.is_file() and module_touches_scrapy(helper):
            return True
    return False


def source_touches_scrapy(source: str) -> bool:
    """Whether Python source imports or runs Scrapy (see the comment above)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    names = _scrapy_names()
    for node in ast.walk(tree):
        if _imports_scrapy(node, names):
            return True
        # scrapy_soup.Addon, scrapy_soup.soup_of, ...
        if (
            isinstance(node, ast.Attribute)
            and node.attr in names
            and isinstance(node.value, ast.Name)
            and node.value.id == "scrapy_soup"
        ):
            return True
        # [sys.executable, "-m", "scrapy", ...], ["scrapy", "crawl", ...]
        if isinstance(node, (ast.List, ast.Tuple)):
            words = [
                e.value if isinstance(e, ast.Constant) else None for e in node.elts
            ]
            runs = [w for i, w in enumerate(words) if i == 0 or words[i - 1] == "-m"]
            if {"scrapy", "example_project"} & set(runs):
                return True
    return False


@functools.cache
def module_touches_scrapy(path: Path) -> bool:
    """Whether a Python file of the repository imports or runs Scrapy."""
    return source_touches_scrapy(path.read_text("utf-8"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        dtest = getattr(item, "dtest", None)  # a doctest's examples
        if dtest is not None:
            touches = any(source_touches_scrapy(e.source) for e in dtest.examples)
        else:
            touches = module_touches_scrapy(Path(item.path))
        if touches:
            item.add_marker(pytest.mark.scrapy)
