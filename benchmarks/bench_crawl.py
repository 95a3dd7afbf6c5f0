"""Workload 7, a Scrapy crawl of N pages served on 127.0.0.1: pages/s and peak RSS.

A stdlib threaded HTTP server (its own process) serves the real corpus
pages in a cycle at ``/page/<i>``.  Each crawl runs in its own process (so
peak RSS is its own) with the same spider callback written three ways:
``response.soup`` (``scrapy_soup.Addon``), parsel selectors
(``response.xpath``/``css``), and ``BeautifulSoup(response.text, "lxml")``;
plus the parsel spider with the add-on enabled and ``.soup`` never touched
(issue 6: the middleware's cost).  The callback is ``bench_extract``'s.

Issue 6's overhead (``--overhead K``): one pages/s figure per spider is too
noisy on a shared machine to see 3%, so the parsel spider runs K times with
and K times without the add-on, interleaved (ABBA), and the medians are
compared, in pages/s and in CPU time per page (the crawl process's own,
which other processes' load moves much less). In the add-on runs, every
hook the add-on puts on the path of a response or an item is also timed
directly, as a fraction of the run's CPU time per page.

    python benchmarks/bench_crawl.py [--pages 2000] [--concurrency 16]
    python benchmarks/bench_crawl.py --overhead 5 --pages 1000
"""

from __future__ import annotations

import argparse
import functools
import json
import resource
import statistics
import subprocess
import sys
import threading
import time
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
    from _corpus import corpus_server, real_pages

    server = corpus_server([text.encode("utf-8") for _name, text in real_pages()])
    print(server.server_address[1], flush=True)
    server.serve_forever()


def instrument_addon() -> dict[str, float]:
    """Time every per-response and per-item hook of the add-on, in this process.

    Returns the dict the wrappers add CPU seconds to, by hook. The spider
    middleware's generator layer (one per callback) is not a method that can
    be timed alone; the A/B CPU figure includes it.
    """
    from scrapy_soup._scrapy import _origins, middlewares, pipelines

    spent: dict[str, float] = {}
    # What one timed interval around nothing measures (the clock is a system
    # call, ~1.5 us here): taken off every call, so the hooks are not blamed
    # for the instrument's cost.
    empty = []
    for _ in range(2000):
        start = time.thread_time()
        empty.append(time.thread_time() - start)
    clock_cost = statistics.median(empty)

    def timed(cls: type, name: str, label: str) -> None:
        original = getattr(cls, name)

        # functools.wraps keeps the signature Scrapy inspects (spider argument).
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            # CPU time of this thread (Scrapy runs callbacks and components in
            # the reactor's): wall time would count the moments the machine
            # gives the CPU to another process.
            start = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                elapsed = time.thread_time() - start - clock_cost
                spent[label] = spent.get(label, 0.0) + max(elapsed, 0.0)

        setattr(cls, name, wrapper)

    timed(
        middlewares.SoupDownloaderMiddleware,
        "process_response",
        "downloader middleware",
    )
    timed(middlewares.SoupSpiderMiddleware, "get_processed_item", "spider middleware")
    timed(pipelines.AbsoluteLinksPipeline, "process_item", "pipelines")
    timed(pipelines.CleanHtmlPipeline, "process_item", "pipelines")
    timed(_origins.ItemOrigins, "_on_item_done", "item origins released")
    return spent


def crawl(kind: str, port: int, pages: int, concurrency: int) -> dict[str, Any]:
    """Run one crawl in this process; return pages, seconds, pages/s, peak RSS.

    Also the crawl's CPU time per page (from the first request to the spider's
    close) and, with the add-on, the time spent in its hooks per page.
    """
    import bs4
    import scrapy
    from bench_extract import extract_parsel, extract_soup
    from scrapy.crawler import CrawlerProcess

    spent = instrument_addon() if kind in ("soup", "parsel-addon") else {}
    cpu: dict[str, float] = {}

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self) -> Any:
            cpu["start"] = time.process_time()
            for i in range(pages):
                yield scrapy.Request(f"http://127.0.0.1:{port}/page/{i}")

        def closed(self, reason: str) -> None:
            cpu["end"] = time.process_time()

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
    cpu_s = cpu.get("end", 0.0) - cpu.get("start", 0.0)
    return {
        "pages": received,
        "items": int(stats.get("item_scraped_count", 0)),
        "seconds": seconds,
        "pages_per_s": received / seconds if seconds else 0.0,
        # ru_maxrss is in KiB on Linux.
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "cpu_ms_per_page": cpu_s / received * 1e3 if received else 0.0,
        "addon_ms_per_page": sum(spent.values()) / received * 1e3 if received else 0.0,
        "addon_hooks_ms_per_page": {
            k: v / received * 1e3 for k, v in spent.items() if received
        },
    }


def _start_server() -> tuple[subprocess.Popen[str], int]:
    server = subprocess.Popen(
        [sys.executable, str(HERE / "bench_crawl.py"), "--serve"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    return server, int(server.stdout.readline())


def _crawl_subprocess(
    kind: str, port: int, pages: int, concurrency: int
) -> dict[str, Any]:
    out = subprocess.run(
        [
            sys.executable,
            str(HERE / "bench_crawl.py"),
            "--crawl",
            kind,
            "--port",
            str(port),
            "--pages",
            str(pages),
            "--concurrency",
            str(concurrency),
        ],
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise RuntimeError(f"crawl {kind} failed:\n{out.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def measure_overhead(
    runs: int, pages: int, concurrency: int, progress: Any = None
) -> dict[str, Any]:
    """The parsel spider with and without the add-on, ``runs`` times each, ABBA.

    Returns every run and the medians: pages/s, CPU ms per page, and the
    add-on's own hooks in ms per page (timed inside the add-on runs).
    """
    server, port = _start_server()
    try:
        runs_by_kind: dict[str, list[dict[str, Any]]] = {
            "parsel": [],
            "parsel-addon": [],
        }
        for i in range(runs):
            # ABBA: neither kind always runs first (warm caches, drifting load).
            order = ["parsel", "parsel-addon"]
            if i % 2:
                order.reverse()
            for kind in order:
                r = _crawl_subprocess(kind, port, pages, concurrency)
                runs_by_kind[kind].append(r)
                if progress is not None:
                    progress(
                        f"  {kind:13} run {i + 1}: {r['pages_per_s']:6.1f} pages/s, "
                        f"CPU {r['cpu_ms_per_page']:6.2f} ms/page, "
                        f"add-on {r['addon_ms_per_page']:.3f} ms/page"
                    )
    finally:
        server.terminate()
        server.wait()

    def median(kind: str, key: str) -> float:
        return statistics.median(r[key] for r in runs_by_kind[kind])

    without_pps, with_pps = (
        median("parsel", "pages_per_s"),
        median("parsel-addon", "pages_per_s"),
    )
    without_cpu, with_cpu = (
        median("parsel", "cpu_ms_per_page"),
        median("parsel-addon", "cpu_ms_per_page"),
    )
    addon_ms = median("parsel-addon", "addon_ms_per_page")
    hooks = sorted(
        {h for r in runs_by_kind["parsel-addon"] for h in r["addon_hooks_ms_per_page"]}
    )
    return {
        "runs": runs_by_kind,
        "pages": pages,
        "pages_per_s": {"without": without_pps, "with": with_pps},
        "pages_per_s_ratio": with_pps / without_pps,
        "cpu_ms_per_page": {"without": without_cpu, "with": with_cpu},
        "cpu_ratio": with_cpu / without_cpu,
        "addon_ms_per_page": addon_ms,
        "addon_fraction": addon_ms / with_cpu,
        "hooks_ms_per_page": {
            h: statistics.median(
                r["addon_hooks_ms_per_page"].get(h, 0.0)
                for r in runs_by_kind["parsel-addon"]
            )
            for h in hooks
        },
    }


def overhead_report(o: dict[str, Any]) -> str:
    """The medians of :func:`measure_overhead` in a few lines."""
    pps, cpu = o["pages_per_s"], o["cpu_ms_per_page"]
    n = len(o["runs"]["parsel"])
    lines = [
        f"add-on overhead, parsel spider, {o['pages']} pages, median of {n} runs each:",
        f"  pages/s      without {pps['without']:7.1f}  with {pps['with']:7.1f}  "
        f"with/without {o['pages_per_s_ratio']:.1%}",
        f"  CPU ms/page  without {cpu['without']:7.2f}  with {cpu['with']:7.2f}  "
        f"with/without {o['cpu_ratio']:.1%}",
        f"  add-on hooks {o['addon_ms_per_page']:.3f} ms/page = "
        f"{o['addon_fraction']:.2%} of the CPU per page",
    ]
    for hook, ms in o["hooks_ms_per_page"].items():
        lines.append(f"    {hook:24} {ms * 1e3:7.1f} us/page")
    return "\n".join(lines)


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
    server, port = _start_server()
    try:
        results = {}
        for label, kind in KINDS.items():
            count = (pages_for or {}).get(label, pages)
            if progress is not None:
                progress(f"  crawl: {label}, {count} pages")
            results[label] = _crawl_subprocess(kind, port, count, concurrency)
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
    parser.add_argument(
        "--overhead",
        type=int,
        metavar="K",
        help="issue 6: K interleaved runs each of the parsel spider with/without the add-on",
    )
    args = parser.parse_args()
    if args.serve:
        serve()
    elif args.crawl:
        print(json.dumps(crawl(args.crawl, args.port, args.pages, args.concurrency)))
    elif args.overhead:
        o = measure_overhead(args.overhead, args.pages, args.concurrency, print)
        print(overhead_report(o))
    else:
        threading.current_thread().name = "bench_crawl"
        for label, r in run_all(args.pages, args.concurrency, print).items():
            print(
                f"{label:16} {r['pages']:6.0f} pages {r['seconds']:7.1f} s "
                f"{r['pages_per_s']:7.1f} pages/s  peak RSS {r['peak_rss_mb']:6.0f} MB"
            )


if __name__ == "__main__":
    main()
