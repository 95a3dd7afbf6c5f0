"""The item -> page map the spider middleware fills and the pipelines read."""

from __future__ import annotations

import dataclasses
import gc
from typing import Any

import attrs
import pytest
import scrapy
from scrapy import signals
from scrapy_helpers import make_crawler

from scrapy_soup._scrapy._origins import ItemOrigins, Origin

ORIGIN = Origin("http://example.com/a/page.html", "http://example.com/base/")


class _Item(scrapy.Item):
    body = scrapy.Field()


@dataclasses.dataclass
class _Dataclass:
    body: str = ""


@attrs.define
class _Attrs:
    body: str = ""


ITEM_FACTORIES: list[Any] = [
    dict,
    lambda: _Item(body="x"),
    _Dataclass,
    _Attrs,
]


@pytest.mark.parametrize(
    "make", ITEM_FACTORIES, ids=["dict", "Item", "dataclass", "attrs"]
)
def test_record_get_release(make: Any) -> None:
    origins = ItemOrigins()
    item = make()
    origins.record(item, ORIGIN)
    assert origins.get(item) is ORIGIN
    assert len(origins) == 1
    # An equal but different object is a different item.
    assert origins.get(make()) is None
    origins.release(item)
    assert origins.get(item) is None
    assert len(origins) == 0


@pytest.mark.parametrize("make", ITEM_FACTORIES[1:], ids=["Item", "dataclass", "attrs"])
def test_weakly_referenced_items_leave_with_the_item(make: Any) -> None:
    origins = ItemOrigins()
    item = make()
    origins.record(item, ORIGIN)
    del item
    gc.collect()
    assert len(origins) == 0


def test_dict_items_are_held_until_released() -> None:
    # A dict cannot be weakly referenced: the map holds it, so that its id()
    # cannot be reused by another dict while the entry exists.
    origins = ItemOrigins()
    origins.record({"a": 1}, ORIGIN)
    gc.collect()
    assert len(origins) == 1
    origins.clear()
    assert len(origins) == 0


def test_id_reuse_does_not_hand_out_a_stale_origin() -> None:
    origins = ItemOrigins()
    for _ in range(200):
        item = _Dataclass()
        origins.record(item, ORIGIN)
        del item
    gc.collect()
    fresh = _Dataclass()
    assert origins.get(fresh) is None
    assert len(origins) == 0


def test_signals_release_items() -> None:
    crawler = make_crawler()
    origins = ItemOrigins.of(crawler)
    assert ItemOrigins.of(crawler) is origins
    scraped, dropped, errored = {"s": 1}, {"d": 1}, {"e": 1}
    for item in (scraped, dropped, errored):
        origins.record(item, ORIGIN)
    crawler.signals.send_catch_log(
        signals.item_scraped, item=scraped, response=None, spider=None
    )
    crawler.signals.send_catch_log(
        signals.item_dropped, item=dropped, response=None, exception=None, spider=None
    )
    assert len(origins) == 1
    crawler.signals.send_catch_log(
        signals.item_error, item=errored, response=None, failure=None, spider=None
    )
    assert len(origins) == 0
    origins.record({"late": 1}, ORIGIN)
    crawler.signals.send_catch_log(
        signals.spider_closed, spider=None, reason="finished"
    )
    assert len(origins) == 0


def test_each_crawler_has_its_own_map() -> None:
    a, b = make_crawler(), make_crawler()
    assert ItemOrigins.of(a) is not ItemOrigins.of(b)


def test_a_base_url_function_is_called_once_on_first_read() -> None:
    calls: list[int] = []

    def find_base() -> str:
        calls.append(1)
        return "http://example.com/base/"

    origin = Origin("http://example.com/a/page.html", find_base)
    assert calls == []
    assert origin.base_url == "http://example.com/base/"
    assert origin.base_url == "http://example.com/base/"
    assert calls == [1]
    assert origin == ORIGIN


def test_a_failing_base_url_function_gives_the_page_url(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken() -> str:
        raise RuntimeError("no tree")

    origin = Origin("http://example.com/a/page.html", broken)
    assert origin.base_url == "http://example.com/a/page.html"
    assert "Could not read the base URL" in caplog.text
