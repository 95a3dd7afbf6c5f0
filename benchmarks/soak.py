"""Soak benchmark: a long crawl must not grow, fail or lose items.

Crawls ``--pages`` (default 20,000) pages, cycled from the corpus's real
pages, from a local HTTP server, with the add-on (both middlewares and both
pipelines). Each callback uses ``response.soup`` as a spider does (find_all,
select, get_text, a Tag and a string HTML field in the item). The resident
set size is read after the first 2,000 pages and at the end (after a
``gc.collect()`` each time); they must differ by < 10%. Every item must be
exported exactly once and no error logged.

    python benchmarks/soak.py [--pages 20000] [--concurrency 16]

Not a test (it runs for minutes): see benchmarks/SOAK.md for a measured run.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psutil
import scrapy
from _corpus import corpus_server, real_pages
from scrapy import signals
from scrapy.crawler import CrawlerProcess

WARMUP = 2_000


def rss_mb() -> float:
    """This process's resident set size in MiB, after a full collection."""
    gc.collect()
    return psutil.Process().memory_info().rss / 2**20


def serve(bodies: list[bytes]) -> ThreadingHTTPServer:
    """A local server: ``/page/<n>`` is corpus page ``n % len(bodies)``."""
    httpd = corpus_server(bodies)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


class SoakSpider(scrapy.Spider):
    """One item per page, built from ``response.soup``."""

    name = "soak"
    pages = 0
    base = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen = 0
        self.rss: dict[str, float] = {}
        self.started = time.perf_counter()

    async def start(self) -> Any:
        self.rss["start"] = rss_mb()
        for n in range(self.pages):
            yield scrapy.Request(f"{self.base}/page/{n}", cb_kwargs={"n": n})

    def parse(self, response: Any, n: int) -> Any:
        soup = response.soup
        links = soup.find_all("a", href=True)
        paragraphs = soup.select("p")
        title = soup.find("title")
        first = paragraphs[0] if paragraphs else soup.find("body")
        self.seen += 1
        if self.seen == WARMUP:
            self.rss["warm"] = rss_mb()
            self.rss["warm_time"] = time.perf_counter() - self.started
        yield {
            "n": n,
            "title": title.get_text(strip=True) if title is not None else None,
            "links": len(links),
            "text_len": len(soup.get_text()),
            "html": str(first) if first is not None else "",
            "tag": first,
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20_000)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()

    bodies = [text.encode("utf-8") for _, text in real_pages()]
    httpd = serve(bodies)
    host, port = httpd.server_address[:2]
    out = Path(tempfile.mkdtemp(prefix="soak-"))
    feed = out / "items.jsonl"
    process = CrawlerProcess(
        {
            "ADDONS": {"scrapy_soup.Addon": 0},
            "SOUP_HTML_FIELDS": ["html"],
            "FEEDS": {str(feed): {"format": "jsonlines", "encoding": "utf-8"}},
            "LOG_LEVEL": "INFO",
            "LOG_FILE": str(out / "crawl.log"),
            "TELNETCONSOLE_ENABLED": False,
            "ROBOTSTXT_OBEY": False,
            "COOKIES_ENABLED": False,
            "RETRY_ENABLED": False,
            "CONCURRENT_REQUESTS": args.concurrency,
            "CONCURRENT_REQUESTS_PER_DOMAIN": args.concurrency,
            "LOGSTATS_INTERVAL": 30,
        }
    )
    crawler = process.create_crawler(SoakSpider)
    end: dict[str, float] = {}

    def closed(spider: SoakSpider) -> None:
        end["rss"] = rss_mb()
        end["time"] = time.perf_counter() - spider.started

    crawler.signals.connect(closed, signals.spider_closed)
    process.crawl(crawler, pages=args.pages, base=f"http://{host!s}:{port}")
    process.start()
    httpd.shutdown()

    from scrapy_soup._scrapy._origins import ItemOrigins

    spider: Any = crawler.spider
    stats = crawler.stats.get_stats() if crawler.stats else {}
    ns = [json.loads(line)["n"] for line in feed.open(encoding="utf-8")]
    warm, final = spider.rss["warm"], end["rss"]
    growth = (final - warm) / warm
    report = {
        "pages": args.pages,
        "corpus_pages": len(bodies),
        "concurrency": args.concurrency,
        "seconds": round(end["time"], 1),
        "pages_per_second": round(args.pages / end["time"], 1),
        "rss_start_mb": round(spider.rss["start"], 1),
        "rss_after_2000_mb": round(warm, 1),
        "rss_end_mb": round(final, 1),
        "rss_growth_percent": round(100 * growth, 2),
        "items_exported": len(ns),
        "items_unique": len(set(ns)),
        "errors": stats.get("log_count/ERROR", 0),
        "finish_reason": stats.get("finish_reason"),
        "soup_stats": {k: v for k, v in stats.items() if k.startswith("soup/")},
        "origins_left": len(ItemOrigins.of(crawler)),
    }
    print(json.dumps(report, indent=2, default=str))
    ok = (
        abs(growth) < 0.10
        and report["errors"] == 0
        and report["finish_reason"] == "finished"
        and sorted(ns) == list(range(args.pages))
        and report["origins_left"] == 0
    )
    print("SOAK", "PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
