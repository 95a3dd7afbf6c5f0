"""Right and wrong uses of the typed API, checked by mypy and never run.

Each ``assert_type`` is the type a caller gets, as bs4 4.13+ gives it. Each
wrong use carries the error mypy must report: with ``warn_unused_ignores``
(part of ``strict``), an ignore with nothing to ignore fails the check, so
an API that goes back to ``Any`` fails. ``tests/test_typing.py`` runs mypy
on this folder; ``python -m mypy`` covers it too.
"""

from __future__ import annotations

import re

from typing_extensions import assert_type

import scrapy_soup
from scrapy_soup import (
    AttributeValueList,
    BeautifulSoup,
    Comment,
    NavigableString,
    PageElement,
    ResultSet,
    Soup,
    SoupStrainer,
    Tag,
)

soup = Soup("<p class='a'>x</p><a href='/b'>b</a>")
assert_type(soup, Soup)
assert_type(BeautifulSoup("<p>", "lxml"), Soup)

# -- finding tags ---------------------------------------------------------------
assert_type(soup.find("p"), Tag | None)
assert_type(soup.p, Tag | None)
assert_type(soup.find_all("p"), ResultSet[Tag])
assert_type(soup.find_all("p")[0], Tag)
assert_type(soup("p"), ResultSet[Tag])
assert_type(soup.find_all(["h1", "h2"]), ResultSet[Tag])
assert_type(soup.find_all(re.compile("^h[1-6]$")), ResultSet[Tag])
assert_type(soup.find_all(True), ResultSet[Tag])
assert_type(soup.find_all(lambda tag: tag.name == "p"), ResultSet[Tag])
assert_type(soup.find_all("a", href=True), ResultSet[Tag])
assert_type(soup.find_all("p", class_=lambda v: v is not None), ResultSet[Tag])
assert_type(soup.find_all(attrs={"data-x": True}), ResultSet[Tag])
assert_type(soup.find_all("p", "a"), ResultSet[Tag])  # bs4's class shortcut
assert_type(soup.find_all("a", string="b"), ResultSet[Tag])
assert_type(soup.find_all(SoupStrainer("a")), ResultSet[Tag])
assert_type(soup.find_all("p", limit=2, recursive=False), ResultSet[Tag])
assert_type(soup.find(id="x"), Tag | None)
assert_type(soup.select_one("p"), Tag | None)
assert_type(soup.select("p > a"), ResultSet[Tag])
assert_type(soup.css.select("p"), ResultSet[Tag])
assert_type(soup.css.closest("p"), Tag | None)

# -- finding strings: a filter on the string alone finds NavigableStrings -------
assert_type(soup.find(string="x"), NavigableString | None)
assert_type(soup.find_all(string=re.compile("x")), ResultSet[NavigableString])
assert_type(soup.find_all(string=["x", "y"]), ResultSet[NavigableString])

# -- the other find_* methods -----------------------------------------------------
p = soup.new_tag("p")
assert_type(p, Tag)
assert_type(p.find_parent("div"), Tag | None)
assert_type(p.find_parents("div"), ResultSet[Tag])
assert_type(p.find_next("a"), Tag | None)
assert_type(p.find_next(string="x"), NavigableString | None)
assert_type(p.find_all_next("a"), ResultSet[Tag])
assert_type(p.find_next_sibling("p"), Tag | None)
assert_type(p.find_next_siblings("p"), ResultSet[Tag])
assert_type(p.find_previous("h1"), Tag | None)
assert_type(p.find_all_previous(string="x"), ResultSet[NavigableString])
assert_type(p.find_previous_sibling("p"), Tag | None)
assert_type(p.find_previous_siblings("p"), ResultSet[Tag])
assert_type(soup.find_next("p"), Tag | None)
assert_type(soup.find_all_next("p"), ResultSet[Tag])

# -- attributes -------------------------------------------------------------------
assert_type(p["class"], str | AttributeValueList)
assert_type(p.get("href"), str | AttributeValueList | None)
assert_type(p.get("href", ""), str | AttributeValueList)
assert_type(p.get("href", 0), str | AttributeValueList | int)
assert_type(p.get_attribute_list("class"), list[str])
assert_type(p.attrs["id"], str | AttributeValueList)
assert_type(p.attrs.copy(), dict[str, str | AttributeValueList])
assert_type(p.has_attr("id"), bool)
p["width"] = 22  # any value is stored as its str(), as bs4 prints it
p.attrs = {"height": 22, "class": ["a", "b"]}
href = p.get("href")
if isinstance(href, str):
    assert_type(href, str)

# -- navigation, text and output ------------------------------------------------
assert_type(p.name, str)
assert_type(p.parent, Tag | None)
assert_type(p.next_sibling, PageElement | None)
assert_type(p.contents, list[PageElement])
assert_type(p.string, NavigableString | None)
assert_type(p.get_text(" ", strip=True), str)
assert_type(p.get_text(types=(NavigableString, Comment)), str)
assert_type(p.text, str)
assert_type(str(p), str)
assert_type(p.decode(), str)
assert_type(p.encode(), bytes)
assert_type(p.prettify(), str)
assert_type(p.prettify("utf-8"), bytes)
assert_type(p.prettify(formatter="html5"), str)

# -- editing ----------------------------------------------------------------------
assert_type(p.extract(), Tag)
assert_type(p.replace_with("text"), Tag)
assert_type(p.wrap(soup.new_tag("div")), Tag)
assert_type(p.append("text"), PageElement)
assert_type(p.insert_before(soup.new_tag("hr")), list[PageElement])
assert_type(soup.new_string("x"), NavigableString)

# -- wrong uses: each line must be an error ---------------------------------------
wrong_int: int = soup.find("p")  # type: ignore[assignment]
wrong_str: str = soup.p  # type: ignore[assignment]
wrong_name = soup.find("p").name  # type: ignore[union-attr]
soup.p.get_text()  # type: ignore[union-attr]
p["class"].append("b")  # type: ignore[union-attr]
wrong_href: str = p.get("href")  # type: ignore[assignment]
wrong_list: list[str] = p["class"]  # type: ignore[assignment]
soup.find_all("p").get_text()  # type: ignore[misc]  # a ResultSet is a list
soup.find_all("p", 5)  # type: ignore[call-overload]
soup.find("p", limit=1)  # type: ignore[call-overload]
soup.select_one("p", {"x": 1})  # type: ignore[dict-item]
wrong_bytes: bytes = p.prettify()  # type: ignore[assignment]
p.append(None)  # type: ignore[arg-type]
p.wrap("div")  # type: ignore[arg-type]
Soup(42)  # type: ignore[arg-type]
SoupStrainer(5)  # type: ignore[arg-type]
p.get_text(types=str)  # type: ignore[arg-type]
wrong_name = scrapy_soup.Nonexistent  # type: ignore[attr-defined]
