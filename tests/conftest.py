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

import csv
import os
from pathlib import Path
from typing import Any

import pytest
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
