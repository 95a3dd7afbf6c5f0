"""metadata(): each source kind on the corpus pages, read with bs4 as the oracle.

For every corpus page that states a field in a source, the field is
returned; where a source of higher rank (JSON-LD over OpenGraph over
``<meta>``) states it too, the test checks the value is one the page states.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from bs4 import BeautifulSoup
from conftest import corpus_pages, read_page

from scrapy_soup import Metadata, Soup, metadata
from scrapy_soup.markup.metadata import iso_date

BASE = "https://example.com/dir/page.html"
WS = re.compile(r"\s+")


def _norm(text: str) -> str:
    return WS.sub(" ", text).strip()


def _pages() -> list[tuple[Path, BeautifulSoup, Metadata]]:
    found = []
    for path in corpus_pages():
        text = read_page(path)
        found.append(
            (path, BeautifulSoup(text, "lxml"), metadata(Soup(text, base_url=BASE)))
        )
    return found


PAGES = _pages()


def _meta(oracle: BeautifulSoup, *keys: str) -> list[str]:
    """The values of the ``<meta>`` named ``keys``, the first key's first."""
    values: dict[str, list[str]] = {key: [] for key in keys}
    for tag in oracle.find_all("meta"):
        key = (tag.get("property") or tag.get("name") or "").strip().lower()
        if key in values and _norm(tag.get("content") or ""):
            values[key].append(_norm(tag["content"]))
    return [value for key in keys for value in values[key]]


def _json_ld(oracle: BeautifulSoup) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for script in oracle.find_all("script", type="application/ld+json"):
        try:
            data = json.loads(script.string or "")
        except ValueError:
            continue
        stack = [data]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                items.append(node)
                stack.extend(node.get("@graph") or [])
    return items


def _checked(kind: str, pages: list[Any]) -> None:
    # A kind no page states would pass vacuously: fail instead.
    assert pages, f"no corpus page states {kind}"


def test_json_ld_headline_and_dates() -> None:
    checked = []
    for path, oracle, meta in PAGES:
        items = _json_ld(oracle)
        headlines = {
            _norm(i["headline"]) for i in items if isinstance(i.get("headline"), str)
        }
        dates = {
            iso_date(i["datePublished"])
            for i in items
            if isinstance(i.get("datePublished"), str)
        }
        if headlines:
            assert meta.title in headlines, path.name
            checked.append(path)
        if dates:
            assert meta.published in dates, path.name
            checked.append(path)
    _checked("a JSON-LD headline or date", checked)


def test_opengraph_title_description_image() -> None:
    checked = []
    for path, oracle, meta in PAGES:
        if any(isinstance(i.get("headline"), str) for i in _json_ld(oracle)):
            continue  # JSON-LD ranks first
        titles = _meta(oracle, "og:title")
        if titles:
            assert meta.title == titles[0], path.name
            checked.append(path)
        images = _meta(oracle, "og:image")
        if images and not any(i.get("image") for i in _json_ld(oracle)):
            assert meta.image == urljoin(BASE, images[0]), path.name
    _checked("og:title", checked)


def test_meta_author_and_description() -> None:
    checked = []
    for path, oracle, meta in PAGES:
        authors = _meta(oracle, "author")
        if authors and not authors[0].startswith("http"):
            stated = {
                _norm(a) for a in re.split(r";|\band\b|&", authors[0]) if a.strip()
            }
            stated |= set(_meta(oracle, "article:author", "dc.creator"))
            for item in _json_ld(oracle):
                author = item.get("author")
                for a in author if isinstance(author, list) else [author]:
                    name = a.get("name") if isinstance(a, dict) else a
                    if isinstance(name, str):
                        stated.add(_norm(name))
            assert meta.authors and set(meta.authors) <= stated, path.name
            checked.append(path)
        descriptions = _meta(
            oracle, "og:description", "twitter:description", "description"
        )
        if descriptions and not any(i.get("description") for i in _json_ld(oracle)):
            assert meta.description == descriptions[0], path.name
    _checked('<meta name="author">', checked)


def test_html_lang() -> None:
    checked = []
    for path, oracle, meta in PAGES:
        lang = oracle.html.get("lang") if oracle.html else None
        if lang and lang.strip():
            assert meta.language == lang.strip(), path.name
            checked.append(path)
    _checked("<html lang>", checked)


def test_canonical_link() -> None:
    checked = []
    for path, oracle, meta in PAGES:
        link = oracle.find("link", rel="canonical", href=True)
        if link:
            assert meta.canonical_url == urljoin(BASE, link["href"].strip()), path.name
            checked.append(path)
    _checked("<link rel=canonical>", checked)


def test_dates_are_iso_8601() -> None:
    checked = []
    for path, _oracle, meta in PAGES:
        for value in (meta.published, meta.modified):
            if value and re.match(r"\d{4}-\d\d-\d\d", value):
                parsed = (
                    date.fromisoformat(value)
                    if len(value) == 10
                    else datetime.fromisoformat(value)
                )
                assert parsed.isoformat() == value, path.name
                checked.append(path)
    _checked("a date", checked)


@pytest.mark.parametrize(
    ("stated", "iso"),
    [
        ("2021-03-04T10:00:00Z", "2021-03-04T10:00:00+00:00"),
        ("2021-03-04 10:00:00+01:00", "2021-03-04T10:00:00+01:00"),
        ("Thu, 04 Mar 2021 10:00:00 GMT", "2021-03-04T10:00:00+00:00"),
        ("04.03.2021", "2021-03-04"),
        ("2021/3/4", "2021-03-04"),
        ("20210304", "2021-03-04"),
        ("yesterday", "yesterday"),
        ("31.02.2021", "31.02.2021"),
    ],
)
def test_iso_date(stated: str, iso: str) -> None:
    assert iso_date(stated) == iso


def test_plain_data_and_hostile_input() -> None:
    meta = metadata(
        '<script type="application/ld+json">' + "[" * 100_000 + "</script>"
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "H",'
        ' "author": [{"name": "A"}, "B"], "keywords": "x, y"}</script>'
    )
    assert meta.to_dict() == {
        **Metadata().to_dict(),
        "title": "H",
        "authors": ["A", "B"],
        "tags": ["x", "y"],
    }
    assert json.loads(json.dumps(meta.to_dict())) == meta.to_dict()
    assert metadata(b"\x00\xff") == Metadata()
