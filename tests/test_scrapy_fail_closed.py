"""The pipelines fail closed: an HTML value that cannot be processed is never
exported as it came.

Each code path of the pipelines is made to fail (an injected exception, or a
value that is not text) on a crawler configured by the real add-on; the item
then holds the value's text escaped (bs4 reads it back as the same text, with
no element in it), or is dropped with ``SOUP_DROP_FAILED_ITEMS``; the failure
is counted in ``soup/fields_failed`` and logged once per field. The crawls in
test_scrapy_items.py run one such failure end to end.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from bs4 import BeautifulSoup
from scrapy.exceptions import DropItem
from scrapy_helpers import ADDON_SETTINGS, make_crawler

from scrapy_soup import Soup
from scrapy_soup._scrapy import _item_path
from scrapy_soup._scrapy._origins import ItemOrigins, Origin
from scrapy_soup._scrapy._plain import convert_item
from scrapy_soup._scrapy.pipelines import AbsoluteLinksPipeline, CleanHtmlPipeline

HOSTILE = "<p>HOSTILE<img src=y onerror=alert(1)><script>alert(1)</script></p>"
PAGE = "http://example.com/dir/page.html"


def _crawler(**settings: Any) -> Any:
    return make_crawler(
        settings={**ADDON_SETTINGS, "SOUP_HTML_FIELDS": ["html"], **settings}
    )


_built: dict[int, tuple[Any, Any]] = {}


def _run(crawler: Any, item: Any, origin: bool = True) -> Any:
    """The item through both pipelines (built once per crawler), in order."""
    if id(crawler) not in _built:
        _built[id(crawler)] = (
            AbsoluteLinksPipeline.from_crawler(crawler),
            CleanHtmlPipeline.from_crawler(crawler),
        )
    links, clean = _built[id(crawler)]
    if origin:
        ItemOrigins.of(crawler).record(item, Origin(PAGE, PAGE))
    return clean.process_item(links.process_item(item))


def expected(html: str) -> str:
    """What the pipelines make of ``html``: the pure functions, in order."""
    from scrapy_soup.markup.clean import clean
    from scrapy_soup.markup.links import absolutize_links

    return clean(absolutize_links(html, PAGE))


def _text_of(html: str) -> str:
    soup = BeautifulSoup(html, "html.parser")
    assert soup.find() is None, f"markup left in {html!r}"
    return soup.get_text()


def _raise(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("injected failure")


def _failing_on_hostile(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if "HOSTILE" in str(args[0]):
            raise RuntimeError("injected failure")
        return original(*args, **kwargs)

    return wrapper


#: Each step of the pipelines that can fail, by the name it has in _item_path.
STEPS = ["fragment_of_markup", "absolutize", "clean", "clean_markup"]


@pytest.mark.parametrize("step", STEPS)
def test_a_failing_step_exports_the_text_escaped(
    step: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(
        _item_path, step, _failing_on_hostile(getattr(_item_path, step))
    )
    crawler = _crawler()
    items = [{"html": HOSTILE, "other": "<b>kept</b>"} for _ in range(3)]
    with caplog.at_level(logging.DEBUG, logger="scrapy_soup"):
        for item in items:
            _run(crawler, item)
    for item in items:
        assert _text_of(item["html"]) == HOSTILE
        assert item["other"] == "<b>kept</b>"  # not an HTML field
    assert crawler.stats.get_value("soup/fields_failed") == 3
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    assert (
        "could not process field html (RuntimeError: injected failure)" in (warnings[0])
    )
    assert "exported instead: its text, escaped" in warnings[0]


def test_only_the_failing_value_of_a_list_is_escaped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        _item_path, "clean", _failing_on_hostile(_item_path.__dict__["clean"])
    )
    crawler = _crawler()
    item: dict[str, Any] = {"html": ["<p onclick=x()>fine</p>", HOSTILE, None, 3]}
    _run(crawler, item)
    assert item["html"][0] == "<p>fine</p>"
    assert _text_of(item["html"][1]) == HOSTILE
    assert item["html"][2:] == [None, 3]
    assert crawler.stats.get_value("soup/fields_failed") == 1


class NotText:
    def __str__(self) -> str:
        return HOSTILE


@pytest.mark.parametrize(
    "value",
    [NotText(), [NotText(), "<p>ok</p>"], {"nested": [NotText()]}],
    ids=["object", "in-list", "in-dict"],
)
def test_a_value_that_is_not_text_is_exported_as_escaped_text(value: Any) -> None:
    crawler = _crawler()
    item = {"html": value}
    _run(crawler, item)
    out = item["html"]
    if isinstance(value, list):
        assert out[1] == "<p>ok</p>"
        out = out[0]
    elif isinstance(value, dict):
        out = out["nested"][0]
    assert _text_of(out) == HOSTILE
    assert crawler.stats.get_value("soup/fields_failed") == 1


def test_dicts_and_bytes_in_an_html_field_are_cleaned() -> None:
    crawler = _crawler()
    item = {
        "html": {
            "en": HOSTILE,
            "raw": '<meta charset="latin-1"><p>caf\xe9</p>'.encode("latin-1"),
        }
    }
    _run(crawler, item)
    assert item["html"]["en"] == expected(HOSTILE)
    assert "<script" not in item["html"]["en"]
    assert item["html"]["raw"] == expected('<meta charset="latin-1"><p>caf\xe9</p>')
    assert crawler.stats.get_value("soup/fields_failed") is None


def test_undecodable_bytes_fail_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_item_path, "decode_html", _raise)
    crawler = _crawler()
    item: dict[str, Any] = {"html": HOSTILE.encode()}
    _run(crawler, item)
    assert _text_of(item["html"]) == HOSTILE
    assert crawler.stats.get_value("soup/fields_failed") == 1


def test_a_soup_tag_handed_between_the_pipelines_fails_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The spider middleware's path: the Tag becomes a str, its tree is
    # handed to the pipelines beside the item; cleaning that tree fails.
    monkeypatch.setattr(
        _item_path, "clean", _failing_on_hostile(_item_path.__dict__["clean"])
    )
    crawler = _crawler()
    soup = Soup(f"<div>{HOSTILE}</div>")
    item: dict[str, Any] = {"tag": soup.p, "tags": [soup.p]}
    converted = convert_item(item, ())
    assert converted is not None
    ItemOrigins.of(crawler).record(item, Origin(PAGE, PAGE), converted.markup)
    html = item["tag"]
    _run(crawler, item, origin=False)
    assert _text_of(item["tag"]) == html
    assert _text_of(item["tags"][0]) == html
    assert crawler.stats.get_value("soup/fields_failed") == 2


def test_a_tag_put_in_by_another_pipeline_is_converted_and_cleaned() -> None:
    crawler = _crawler()
    item: dict[str, Any] = {"later": Soup(HOSTILE, "fragment").p}
    _run(crawler, item)
    assert item["later"] == expected(HOSTILE)
    assert type(item["later"]) is str


@pytest.mark.parametrize("step", ["absolutize", "clean"])
def test_drop_failed_items(step: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        _item_path, step, _failing_on_hostile(getattr(_item_path, step))
    )
    crawler = _crawler(SOUP_DROP_FAILED_ITEMS=True)
    with pytest.raises(DropItem):
        _run(crawler, {"html": HOSTILE})
    assert crawler.stats.get_value("soup/fields_failed") == 1
    # Items that did not fail go on.
    assert _run(crawler, {"html": "<p>fine</p>"}) == {"html": "<p>fine</p>"}


@pytest.mark.parametrize("step", ["absolutize", "clean"])
def test_a_tag_the_spider_middleware_failed_on_drops_its_item(
    step: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spider middleware does the pipelines' work on a Tag's copy; when
    that fails, the Tag leaves as its escaped text and, with
    SOUP_DROP_FAILED_ITEMS, the first pipeline drops the item."""
    from scrapy.http import HtmlResponse

    from scrapy_soup._scrapy.middlewares import SoupSpiderMiddleware

    page = HtmlResponse(PAGE, body=b"<html><body><p>page</p></body></html>")
    monkeypatch.setattr(
        _item_path, step, _failing_on_hostile(getattr(_item_path, step))
    )
    crawler = _crawler(SOUP_DROP_FAILED_ITEMS=True)
    middleware = SoupSpiderMiddleware.from_crawler(crawler)
    item: dict[str, Any] = {"html": Soup(HOSTILE, "fragment").p}
    middleware.get_processed_item(item, page)
    assert type(item["html"]) is str and "<script>" not in item["html"]
    assert ItemOrigins.of(crawler).failed(item)
    with pytest.raises(DropItem):
        _run(crawler, item, origin=False)
    fine: dict[str, Any] = {"html": Soup("<p>fine</p>", "fragment").p}
    middleware.get_processed_item(fine, page)
    assert not ItemOrigins.of(crawler).failed(fine)
    assert _run(crawler, fine, origin=False) == {"html": "<p>fine</p>"}
