"""Shared fixtures: the read-only corpus of real pages (../shared/corpus)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

CORPUS = Path(
    os.environ.get(
        "SCRAPY_SOUP_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
)


def corpus_pages(kind: str | None = None) -> list[Path]:
    """The corpus pages listed in its manifest (optionally only one ``kind``)."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [CORPUS / r["file"] for r in rows if kind is None or r["kind"] == kind]


def read_page(path: Path) -> str:
    """A page's text: every corpus file is UTF-8 (see the corpus README)."""
    return path.read_bytes().decode("utf-8")


@pytest.fixture(scope="session")
def corpus() -> list[Path]:
    pages = corpus_pages()
    if not pages:
        pytest.fail(f"corpus not found at {CORPUS}; set SCRAPY_SOUP_CORPUS")
    return pages
