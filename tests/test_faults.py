"""Faults: one failing item or response never stops the crawl or loses others.

A real crawl (a subprocess running this file, as ``scrapy_helpers`` does)
against a local server, with the add-on and, around scrapy_soup's components,
user components that fail on some items and responses:

- a pipeline before ours raises on every 5th item, another drops every 7th;
- a downloader middleware raises for one page, a spider callback for another;
- some items carry hostile HTML (huge, control characters, bad base URLs).

Every other item must be exported exactly once, cleaned and absolute, the
crawl must finish normally, and the spider middleware's per-item records must
all be released (dropped and failed items included).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import scrapy
from scrapy.exceptions import DropItem
from scrapy_helpers import (
    ADDON_SETTINGS,
    BASE_SETTINGS,
    Page,
    PageServer,
    subprocess_env,
)

PAGES = 40
HOSTILE = {
    3: "<p>" + "\x00\x01\x7f\ud800" * 50 + '<a href="http://[::1">x</a></p>',
    # (A <base href> with a bad port would make Scrapy's own
    # MetaRefreshMiddleware fail the response: not tested here.)
    4: '<a href="http://a:99999/">x</a><img srcset="http://[x]/ 1x">' + "<b>" * 5000,
    6: "<a href='javascript:alert(1)' onclick='x()'>" + "y" * 2_000_000 + "</a>",
}


def _page(n: int) -> bytes:
    article = HOSTILE.get(n, f'<p>page {n} <a href="/p/{n}">link</a></p>')
    return (
        f"<html><head><title>{n}</title></head><body>"
        f'<article data-n="{n}">{article}<script>bad()</script></article>'
        "</body></html>"
    ).encode("utf-8", "surrogatepass")


class FaultSpider(scrapy.Spider):
    """One item per page; the callback itself fails on page 9."""

    name = "faults"

    async def start(self) -> Any:
        for n in range(PAGES):
            yield scrapy.Request(f"{self.base}/p/{n}", cb_kwargs={"n": n})

    def parse(self, response: Any, n: int) -> Any:
        if n == 9:
            raise RuntimeError("callback failure on page 9")
        article = response.soup.find("article")
        yield {"n": n, "html": str(article), "tag": article}


class FailingPipeline:
    """A user pipeline that raises on every 5th item."""

    def process_item(self, item: dict[str, Any], spider: Any = None) -> dict[str, Any]:
        if item["n"] % 5 == 0:
            raise ValueError(f"pipeline failure on item {item['n']}")
        return item


class DroppingPipeline:
    """A user pipeline that drops every 7th item."""

    def process_item(self, item: dict[str, Any], spider: Any = None) -> dict[str, Any]:
        if item["n"] % 7 == 0:
            raise DropItem(f"dropped item {item['n']}")
        return item


class FailingDownloaderMiddleware:
    """Raises in process_response for page 11 (its request gets no callback)."""

    def process_response(self, request: Any, response: Any, spider: Any = None) -> Any:
        if request.url.endswith("/p/11"):
            raise RuntimeError("middleware failure on page 11")
        return response


def _expected() -> set[int]:
    return {n for n in range(PAGES) if n not in (9, 11) and n % 5 != 0 and n % 7 != 0}


def test_failures_on_some_items_lose_no_other_item(tmp_path: Path) -> None:
    pages = {f"/p/{n}": Page(_page(n)) for n in range(PAGES)}
    with PageServer(pages) as server:
        result = _crawl(tmp_path, server.base)
    stats = result["stats"]
    assert stats["finish_reason"] == "finished"
    exported = [item["n"] for item in result["items"]]
    assert sorted(exported) == sorted(_expected())  # each once, none lost
    assert stats.get("item_dropped_count") == len(
        [n for n in range(PAGES) if n not in (9, 11) and n % 7 == 0 and n % 5 != 0]
    )
    assert stats.get("spider_exceptions/RuntimeError") == 1
    # The spider middleware released every record: scraped, dropped, failed.
    assert result["origins_left"] == 0
    for item in result["items"]:
        for field in ("html", "tag"):
            value = item[field]
            assert isinstance(value, str)
            assert "<script" not in value and "onclick" not in value
            assert "javascript:" not in value
        if item["n"] not in HOSTILE:
            assert f'href="{result["base"]}/p/{item["n"]}"' in item["html"]


def _crawl(tmp_path: Path, base: str) -> dict[str, Any]:
    items_file = tmp_path / "items.jsonl"
    config = {
        "base": base,
        "items": str(items_file),
        "report": str(tmp_path / "report.json"),
        "settings": {
            **BASE_SETTINGS,
            **ADDON_SETTINGS,
            "LOG_FILE": str(tmp_path / "crawl.log"),
            "FEEDS": {str(items_file): {"format": "jsonlines"}},
            "SOUP_HTML_FIELDS": ["html"],
            "ITEM_PIPELINES": {
                f"{__name__}.FailingPipeline": 100,
                f"{__name__}.DroppingPipeline": 200,
            },
            "DOWNLOADER_MIDDLEWARES": {
                f"{__name__}.FailingDownloaderMiddleware": 500,
            },
        },
    }
    config_file = tmp_path / "config.json"
    config_file.write_text(json.dumps(config), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, __file__, str(config_file)],
        env=subprocess_env(),
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    report = json.loads(Path(config["report"]).read_text(encoding="utf-8"))
    report["items"] = [
        json.loads(line)
        for line in items_file.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    report["base"] = base
    return report


def _main(config_path: str) -> None:
    from scrapy.crawler import CrawlerProcess

    from scrapy_soup._scrapy._origins import ItemOrigins

    config = json.loads(Path(config_path).read_text(encoding="utf-8"))
    settings = config["settings"]
    # Run as a script, this module is __main__: name the components by it.
    for key in ("ITEM_PIPELINES", "DOWNLOADER_MIDDLEWARES"):
        settings[key] = {
            k.replace("__main__", "test_faults"): v for k, v in settings[key].items()
        }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(FaultSpider)
    process.crawl(crawler, base=config["base"])
    process.start()
    report = {
        "stats": crawler.stats.get_stats() if crawler.stats else {},
        "origins_left": len(ItemOrigins.of(crawler)),
    }
    Path(config["report"]).write_text(json.dumps(report, default=str), "utf-8")


if __name__ == "__main__":
    _main(sys.argv[1])
