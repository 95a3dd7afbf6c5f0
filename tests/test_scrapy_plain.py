"""convert_item(): every soup object in an item becomes plain data.

Expected values come from bs4: the same markup parsed with its lxml builder,
asked the same question. The crawls in test_scrapy_items.py run the same
conversion through SoupSpiderMiddleware.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections import namedtuple
from typing import Any

import attrs
import pydantic
import pytest
import scrapy
from bs4 import BeautifulSoup

from scrapy_soup import Soup
from scrapy_soup._scrapy._plain import (
    FieldFailures,
    convert_item,
    escape_text,
    format_path,
    html_field_names,
)

MARKUP = (
    '<div id="d" class="a b"><p class="x">One &amp; <b>two</b></p>'
    "<p>three &lt;i&gt;</p><!-- c<b> --><pre>  keep  <i>x</i> </pre></div>"
)


def ours() -> Any:
    return Soup(MARKUP, "lxml")


def theirs() -> Any:
    return BeautifulSoup(MARKUP, "lxml")


def _pick(soup: Any) -> dict[str, Any]:
    from bs4 import Comment as Bs4Comment

    from scrapy_soup import Comment

    div = soup.find("div")
    return {
        "tag": div.p,
        "soup": soup,
        "string": div.p.contents[0],
        "comment": div.find(string=lambda s: isinstance(s, (Comment, Bs4Comment))),
        "attrs": div.attrs,
        "classes": div["class"],
        "results": div.find_all("p"),
        "pre": div.pre,
    }


def _bs4_plain(value: Any) -> Any:
    """What bs4 says a value stands for, as plain data."""
    from bs4.element import NavigableString, ResultSet, Tag

    if isinstance(value, Tag):
        return str(value)
    if isinstance(value, NavigableString):
        return str.__str__(value)
    if isinstance(value, ResultSet):
        return [_bs4_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _bs4_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_bs4_plain(v) for v in value]
    return value


@pytest.mark.parametrize(
    "name", ["tag", "soup", "string", "comment", "attrs", "classes", "results", "pre"]
)
def test_each_soup_type_top_level_and_nested(name: str) -> None:
    expected = _bs4_plain(_pick(theirs())[name])
    value = _pick(ours())[name]
    item = {
        "v": value,
        "in_dict": {"deep": {"v": value}},
        "in_list": [1, [value]],
        "in_tuple": (value,),
    }
    converted = convert_item(item, ())
    assert converted is not None
    assert converted.failed == []
    assert item == {
        "v": expected,
        "in_dict": {"deep": {"v": expected}},
        "in_list": [1, [expected]],
        "in_tuple": (expected,),
    }
    json.dumps(item)
    # Exactly the plain types: no subclass of str, list or dict is left.
    assert type(item["v"]) is type(expected)
    if name in ("tag", "soup", "pre"):
        assert {format_path(p) for p in converted.markup} == {
            "v",
            "in_dict.deep.v",
            "in_list[1][0]",
            "in_tuple[0]",
        }
    elif name == "results":
        assert format_path(min(converted.markup)) == "in_dict.deep.v[0]"
        assert len(converted.markup) == 4 * 2
    else:
        assert converted.markup == {}


def test_strings_in_an_html_field_are_escaped_text() -> None:
    picked = _pick(ours())
    item = {"html": picked["string"], "other": picked["string"]}
    item["comment"] = picked["comment"]
    convert_item(item, ("html", "comment"))
    bs4_picked = _pick(theirs())
    # As bs4 writes the string in a document: the same characters.
    assert item["html"] == bs4_picked["string"].output_ready()
    assert item["other"] == str(bs4_picked["string"])
    # A comment is text too: no markup, reads back as the comment's text.
    assert BeautifulSoup(item["comment"], "html.parser").find() is None
    assert BeautifulSoup(item["comment"], "html.parser").get_text() == str(
        bs4_picked["comment"]
    )


def test_items_without_soup_objects_are_left_alone() -> None:
    links = [f"/page/{i}" for i in range(1000)]
    meta = {"a": "b", "n": [1, 2.0, None, True]}
    item = {"title": "t", "links": links, "meta": meta, "raw": b"<p>"}
    assert convert_item(item, ("raw",)) is None
    assert item["links"] is links
    assert item["meta"] is meta


class Inner(scrapy.Item):
    html = scrapy.Field()


@dataclasses.dataclass
class DataItem:
    tag: Any = None
    inner: Any = None


@dataclasses.dataclass(frozen=True)
class FrozenItem:
    tag: Any = None


@attrs.define
class AttrsItem:
    tag: Any = None


@attrs.frozen
class FrozenAttrsItem:
    tag: Any = None


class PydanticItem(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
    tag: Any = None


class FrozenPydanticItem(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(arbitrary_types_allowed=True, frozen=True)
    tag: Any = None


class ScrapyItem(scrapy.Item):
    tag = scrapy.Field()


@pytest.mark.parametrize(
    "cls",
    [
        DataItem,
        FrozenItem,
        AttrsItem,
        FrozenAttrsItem,
        PydanticItem,
        FrozenPydanticItem,
        ScrapyItem,
    ],
)
def test_item_types_keep_their_type(cls: Any) -> None:
    item = cls(tag=ours().p)
    convert_item(item, ())
    assert type(item) is cls
    value = item["tag"] if cls is ScrapyItem else item.tag
    assert value == str(theirs().p)
    assert type(value) is str


def test_nested_items_are_converted_in_place() -> None:
    inner = Inner(html=ours().p)
    item = DataItem(tag=[ours().b], inner={"x": [inner]})
    converted = convert_item(item, ())
    assert converted is not None
    assert item.inner["x"][0] is inner
    assert inner["html"] == str(theirs().p)
    assert item.tag == [str(theirs().b)]
    assert {format_path(p) for p in converted.markup} == {"tag[0]", "inner.x[0].html"}


def test_namedtuples_sets_and_soup_dict_keys() -> None:
    pair = namedtuple("pair", "a b")
    soup = ours()
    item = {
        "pair": pair(soup.b, 1),
        "set": {soup.b.string, "x"},
        "keys": {soup.b.string: soup.b},
    }
    converted = convert_item(item, ())
    assert converted is not None
    assert item["pair"] == pair(str(theirs().b), 1)
    assert type(item["pair"]) is pair
    assert item["set"] == {"two", "x"}
    assert item["keys"] == {"two": "<b>two</b>"}
    assert all(type(k) is str for k in item["keys"])


def test_a_value_that_cannot_be_converted_becomes_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scrapy_soup._scrapy import _plain

    def broken(tag: Any) -> Any:
        raise RuntimeError("injected")

    monkeypatch.setattr(_plain, "_tag_markup", broken)
    soup = ours()
    item = {"ok": soup.b.string, "bad": [soup.b, "kept"], "deep": {"x": soup.p}}
    converted = convert_item(item, ())
    assert converted is not None
    assert item == {"ok": "two", "bad": [None, "kept"], "deep": {"x": None}}
    assert [format_path(p) for p, _ in converted.failed] == ["bad[0]", "deep.x"]


def test_a_self_referencing_value_fails_instead_of_recursing() -> None:
    loop: list[Any] = [ours().b]
    loop.append(loop)
    item = {"loop": loop, "fine": ours().b}
    converted = convert_item(item, ())
    assert converted is not None
    assert item["fine"] == "<b>two</b>"
    assert converted.failed
    json.dumps(item)


def test_failures_are_counted_each_time_and_logged_once_per_field(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Stats:
        def __init__(self) -> None:
            self.values: dict[str, int] = {}

        def inc_value(self, key: str, count: int = 1) -> None:
            self.values[key] = self.values.get(key, 0) + count

    stats = Stats()
    failures = FieldFailures(stats, "Test")
    with caplog.at_level(logging.DEBUG, logger="scrapy_soup"):
        for i in range(3):
            failures.report(("sections", i, "html"), ValueError("bad"), "None")
        failures.report(("other",), ValueError("bad"), "None")
    assert stats.values == {"soup/fields_failed": 4}
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert [r.getMessage().split(" (")[0] for r in warnings] == [
        "Test could not process field sections[0].html",
        "Test could not process field other",
    ]
    assert "exported instead: None" in warnings[0].getMessage()


def test_html_field_names_from_metadata_of_each_item_type() -> None:
    @dataclasses.dataclass
    class D:
        body: str = dataclasses.field(default="", metadata={"html": True})
        title: str = ""

    class P(pydantic.BaseModel):
        body: str = pydantic.Field(default="", json_schema_extra={"html": True})
        title: str = ""

    class S(scrapy.Item):
        body = scrapy.Field(html=True)
        title = scrapy.Field()

    for item in (D(), P(), S()):
        assert html_field_names(item, ("extra",), {}) == ("extra", "body")
    assert html_field_names({}, ("extra",), {}) == ("extra",)


def test_escape_text_is_bs4s_minimal_formatter() -> None:
    text = "a & b < c > d \" ' &amp;"
    soup: Any = BeautifulSoup("<p></p>", "lxml")
    soup.p.string = text
    assert escape_text(text) == soup.p.decode_contents()


def _edit(soup: Any, edit: str) -> Any:
    """The same edit through bs4's API, on our soup or bs4's: the div edited."""
    module = __import__("bs4" if isinstance(soup, BeautifulSoup) else "scrapy_soup")
    div = soup.find("div")
    if edit == "cdata":
        div.p.insert(0, module.CData("a<b"))
    elif edit == "doctype":
        div.p.insert(1, module.Doctype("html"))
    elif edit == "script":
        div.b.string.replace_with(module.Script("if (a < b) x()"))
    else:
        div.p.hidden = True
    return div


@pytest.mark.parametrize("edit", ["cdata", "doctype", "script", "hidden"])
def test_a_tag_with_what_only_the_soup_writes_is_its_str(edit: str) -> None:
    # The lxml copy the items are written from has none of it: an inserted
    # CData was written as escaped text, a hidden tag as a tag.
    markup = "<div><p>x</p><b>y</b></div>"
    expected = str(_edit(BeautifulSoup(markup, "lxml"), edit))
    item = {"v": _edit(Soup(markup, "lxml"), edit)}
    convert_item(item, ())
    assert item == {"v": expected}


@pytest.mark.parametrize("edit", ["cdata", "doctype", "script", "hidden"])
def test_fragment_html_of_an_edited_fragment_is_its_str(edit: str) -> None:
    from scrapy_soup._scrapy._bridge import fragment_html

    markup = "<div><p>x</p><b>y</b></div>"
    theirs = BeautifulSoup(markup, "html.parser")
    _edit(theirs, edit)
    soup = Soup(markup, "fragment")
    _edit(soup, edit)
    assert fragment_html(soup) == str(soup) == str(theirs)
