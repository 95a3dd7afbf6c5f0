"""Workload 7, a Scrapy crawl of N pages served on 127.0.0.1: pages/s and peak RSS.

A stdlib threaded HTTP server (its own process) serves the real corpus
pages in a cycle at ``/page/<i>``.  Each crawl runs in its own process (so
peak RSS is its own) with the same spider callback written three ways:
``response.soup`` (``scrapy_soup.Addon``), parsel selectors
(``response.xpath``/``css``), and ``BeautifulSoup(response.text, "lxml")``;
plus the parsel spider with the add-on enabled and ``.soup`` never touched
(issue 6: the middleware's cost).  The callback is ``bench_extract``'s.

    python benchmarks/bench_crawl.py [--pages 2000] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import http.server
import json
import resource
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

HERE = Path(__file__).parent
SPIDERS = {
    "scrapy_soup": "response.soup",
    "parsel": "parsel selectors",
    "bs4 (lxml)": 'BeautifulSoup(response.text, "lxml")',
    "parsel + Addon": "parsel selectors, add-on on, .soup untouched",
}
KINDS = {
    "scrapy_soup": "soup",
    "parsel": "parsel",
    "bs4 (lxml)": "bs4",
    "parsel + Addon": "parsel-addon",
}


def serve() -> None:
    """Serve the corpus pages forever; print the port on stdout first."""
    from _corpus import real_pages

    bodies = [text.encode("utf-8") for _name, text in real_pages()]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes: without TCP_NODELAY,
        # Nagle + delayed ACK stall every response ~40 ms.
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            try:
                index = int(self.path.rsplit("/", 1)[1])
            except ValueError:
                index = 0
            body = bodies[index % len(bodies)]
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


def crawl(kind: str, port: int, pages: int, concurrency: int) -> dict[str, float]:
    """Run one crawl in this process; return pages, seconds, pages/s, peak RSS."""
    import bs4
    import scrapy
    from bench_extract import extract_parsel, extract_soup
    from scrapy.crawler import CrawlerProcess

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self) -> Any:
            for i in range(pages):
                yield scrapy.Request(f"http://127.0.0.1:{port}/page/{i}")

        def parse(self, response: Any) -> Any:
            if kind == "soup":
                yield extract_soup(response.soup)
            elif kind == "bs4":
                yield extract_soup(bs4.BeautifulSoup(response.text, "lxml"))
            else:
                yield extract_parsel(response.selector)

    settings: dict[str, Any] = {
        "LOG_LEVEL": "ERROR",
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "COOKIES_ENABLED": False,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
    }
    if kind in ("soup", "parsel-addon"):
        settings["ADDONS"] = {"scrapy_soup.Addon": 0}
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)
    process.crawl(crawler)
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    seconds = float(stats.get("elapsed_time_seconds", 0.0))
    received = int(stats.get("response_received_count", 0))
    return {
        "pages": received,
        "items": int(stats.get("item_scraped_count", 0)),
        "seconds": seconds,
        "pages_per_s": received / seconds if seconds else 0.0,
        # ru_maxrss is in KiB on Linux.
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def run_all(
    pages: int,
    concurrency: int,
    progress: Any = None,
    pages_for: dict[str, int] | None = None,
) -> dict[str, dict[str, float]]:
    """Start the server, run each crawl in a subprocess, stop the server.

    ``pages_for`` gives some spiders another page count (the bs4 one is ten
    times slower; its pages/s is steady after a few hundred pages).
    """
    server = subprocess.Popen(
        [sys.executable, str(HERE / "bench_crawl.py"), "--serve"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        results = {}
        for label, kind in KINDS.items():
            count = (pages_for or {}).get(label, pages)
            if progress is not None:
                progress(f"  crawl: {label}, {count} pages")
            out = subprocess.run(
                [
                    sys.executable,
                    str(HERE / "bench_crawl.py"),
                    "--crawl",
                    kind,
                    "--port",
                    str(port),
                    "--pages",
                    str(count),
                    "--concurrency",
                    str(concurrency),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            results[label] = json.loads(out.stdout.strip().splitlines()[-1])
        return results
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--crawl", choices=sorted(KINDS.values()), help="one crawl")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    if args.serve:
        serve()
    elif args.crawl:
        print(json.dumps(crawl(args.crawl, args.port, args.pages, args.concurrency)))
    else:
        threading.current_thread().name = "bench_crawl"
        for label, r in run_all(args.pages, args.concurrency, print).items():
            print(
                f"{label:16} {r['pages']:6.0f} pages {r['seconds']:7.1f} s "
                f"{r['pages_per_s']:7.1f} pages/s  peak RSS {r['peak_rss_mb']:6.0f} MB"
            )


if __name__ == "__main__":
    main()
