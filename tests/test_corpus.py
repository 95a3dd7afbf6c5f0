"""The test corpus is whole: every page listed, unchanged, with its source and license.

The parity tests compare scrapy_soup with bs4 on these pages; a page that
went missing or was re-encoded on the way (a checkout that converts line
endings, an editor that strips a byte-order mark) would change what they
test without failing them.
"""

from __future__ import annotations

import hashlib

from conftest import CORPUS, REPO_CORPUS, corpus_manifest, corpus_page, corpus_pages

COLUMNS = ["file", "bytes", "source", "license", "kind", "sha256"]
LICENSES = {"Apache-2.0", "MIT"}


def test_manifest_columns_and_values() -> None:
    rows = corpus_manifest()
    for row in rows:
        assert list(row) == COLUMNS
        assert row["license"] in LICENSES, row
        assert row["kind"] in ("real", "fixture"), row
        repo, _, path = row["source"].partition(":")
        assert repo in ("mozilla/readability", "AndyTheFactory/newspaper4k"), row
        assert path.endswith(".html"), row
    assert len({row["file"] for row in rows}) == len(rows)


def test_every_page_is_the_listed_bytes() -> None:
    for row in corpus_manifest():
        data = (CORPUS / row["file"]).read_bytes()
        assert len(data) == int(row["bytes"]), row["file"]
        assert hashlib.sha256(data).hexdigest() == row["sha256"], row["file"]
        data.decode("utf-8")  # every page is UTF-8 (see the README)


def test_every_file_is_listed() -> None:
    listed = set(corpus_pages())
    assert set((CORPUS / "pages").glob("*")) == listed


def test_the_repository_corpus_keeps_its_coverage() -> None:
    # The counts and the pages the tests and benchmarks name live here only.
    real = corpus_pages("real")
    fixtures = corpus_pages("fixture")
    assert len(real) >= 30
    assert len(fixtures) >= 30
    sizes = sorted(p.stat().st_size for p in real)
    assert sizes[-1] > 1_000_000  # a large page for the scaling paths
    assert sizes[0] < 20_000
    for name in (
        "001.html",
        "base-url.html",
        "base-url-base-element.html",
        "base-url-base-element-relative.html",
        "wikipedia.html",
        "wikipedia-2.html",
        "svg-parsing.html",
        "qq.html",
        "daringfireball-1.html",
        "table-style-attributes.html",
        "ol.html",
    ):
        assert corpus_page(name).is_file()


def test_the_readme_gives_every_real_page_and_both_sources() -> None:
    readme = (REPO_CORPUS / "README.md").read_text("utf-8")
    for row in corpus_manifest():
        if row["kind"] == "real" and CORPUS == REPO_CORPUS:
            name = row["file"].removeprefix("pages/").removesuffix(".html")
            assert f"| `{name}` |" in readme, name
    assert "ab4027a8b37669745016869a37a504727992b2ba" in readme
    assert "540bff3e8344cb8291c4829fafd98860f30d9692" in readme
    assert (REPO_CORPUS / ".gitattributes").read_text("utf-8").strip() == (
        "pages/*.html -text"
    )
