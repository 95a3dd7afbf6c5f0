"""Workload 7, a Scrapy crawl of N pages served on 127.0.0.1: pages/s and peak RSS.

A stdlib threaded HTTP server (its own process) serves the real corpus
pages in a cycle at ``/page/<i>``.  Each crawl runs in its own process (so
peak RSS is its own) with the same spider callback written three ways:
``response.soup`` (``scrapy_soup.Addon``), parsel selectors
(``response.xpath``/``css``), and ``BeautifulSoup(response.text, "lxml")``;
plus the parsel spider with the add-on enabled and ``.soup`` never touched
(the middleware's cost).  The callback is ``bench_extract``'s.

Issue 6's overhead (``--overhead K``): one pages/s figure per spider is too
noisy on a shared machine to see 3%, so the parsel spider runs in K pairs of
crawls, without and with the add-on, back to back (which one goes first
alternates: ABBA), each in its own process. Each crawl is measured over its
steady part (the first tenth of the pages left out): CPU time per page of the
crawl process (``getrusage``: user + system, every thread), wall-clock pages/s
and the cyclic GC's time. The report gives, per pair, with / without, and
their median, quartiles and range, with a 90% bootstrap interval of the
median. One more add-on crawl times every hook the add-on puts on the path of
a response or an item, as a fraction of its CPU time per page.
``--instructions`` counts, instead of timing, what a page costs without and
with the add-on (valgrind's cachegrind; other processes' load does not move
a count). ``--crawl KIND --profile FILE`` profiles one crawl (cProfile, same
window).

    python benchmarks/bench_crawl.py [--pages 2000] [--concurrency 16]
    python benchmarks/bench_crawl.py --overhead 12 --pages 600
    python benchmarks/bench_crawl.py --instructions --pages 400
    python benchmarks/bench_crawl.py --crawl parsel-addon --pages 600 --profile with.prof
    python benchmarks/bench_crawl.py --crawl soup-html --pages 600
    python benchmarks/bench_crawl.py --convert
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import json
import random
import re
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
    "scrapy_soup + HTML field": "response.soup, the item also holds the page's "
    "main content as a Tag (made absolute and clean by the add-on's pipelines)",
}
KINDS = {
    "scrapy_soup": "soup",
    "parsel": "parsel",
    "bs4 (lxml)": "bs4",
    "parsel + Addon": "parsel-addon",
    "scrapy_soup + HTML field": "soup-html",
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


def gc_meter() -> dict[str, float]:
    """Count the cyclic garbage collector's runs per generation, and their CPU time.

    Returns the dict the ``gc.callbacks`` hook adds to: ``gen0``..``gen2``
    (collections), ``seconds`` (thread CPU time inside them), ``collected``.
    """
    totals: dict[str, float] = {"seconds": 0.0, "collected": 0}
    for generation in range(3):
        totals[f"gen{generation}"] = 0
        totals[f"gen{generation}_seconds"] = 0.0
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.thread_time())
        elif started:
            elapsed = time.thread_time() - started.pop()
            generation = info["generation"]
            totals["seconds"] += elapsed
            totals[f"gen{generation}"] += 1
            totals[f"gen{generation}_seconds"] += elapsed
            totals["collected"] += info["collected"]

    gc.callbacks.append(callback)
    return totals


def crawl(
    kind: str,
    port: int,
    pages: int,
    concurrency: int,
    profile: str | None = None,
    hooks: bool = True,
) -> dict[str, Any]:
    """Run one crawl in this process; return pages, seconds, pages/s, peak RSS.

    Also, over the steady part of the crawl (from the callback of the page
    after the first tenth to the last callback: start-up and lazy imports
    left out), the CPU time per page (user + system time of the whole
    process, from ``getrusage``), the wall-clock pages/s, and the cyclic GC's
    collections and CPU time; with the add-on and ``hooks``, the time spent in
    its hooks per page. ``profile``: write a cProfile of the reactor thread
    over that window to that file.
    """
    import bs4
    import scrapy
    from bench_extract import extract_parsel, extract_soup
    from scrapy.crawler import CrawlerProcess

    addon = kind in ("soup", "parsel-addon", "soup-html")
    spent = instrument_addon() if addon and hooks else {}
    collections = gc_meter()
    profiler = cProfile.Profile() if profile else None
    warmup = max(1, pages // 10)
    marks: dict[str, dict[str, Any]] = {}
    seen = [0]

    def mark(name: str) -> None:
        if name == "start":
            # Counting objects takes a while: outside the window.
            objects = len(gc.get_objects())
        usage = resource.getrusage(resource.RUSAGE_SELF)
        marks[name] = {
            "cpu": usage.ru_utime + usage.ru_stime,
            "sys": usage.ru_stime,
            "faults": usage.ru_minflt + usage.ru_majflt,
            "wall": time.perf_counter(),
            "gc": dict(collections),
            "hooks": sum(spent.values()),
            "hooks_by": dict(spent),
        }
        if name == "start":
            marks[name]["objects"] = objects
            if profiler is not None:
                profiler.enable()
        else:
            if profiler is not None:
                profiler.disable()
            marks[name]["objects"] = len(gc.get_objects())

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self) -> Any:
            for i in range(pages):
                yield scrapy.Request(f"http://127.0.0.1:{port}/page/{i}")

        def closed(self, reason: str) -> None:
            if "start" in marks and "end" not in marks:
                mark("end")  # some pages failed: the window ends here

        def parse(self, response: Any) -> Any:
            seen[0] += 1
            if seen[0] == warmup + 1:
                mark("start")
            if kind == "soup":
                yield extract_soup(response.soup)
            elif kind == "soup-html":
                soup = response.soup
                item = extract_soup(soup)
                # One HTML field, as a spider that keeps an article's body
                # writes it: the Tag itself, put straight into the item.
                item["content"] = soup.find("article") or soup.find("main") or soup.body
                yield item
            elif kind == "bs4":
                yield extract_soup(bs4.BeautifulSoup(response.text, "lxml"))
            else:
                yield extract_parsel(response.selector)
            if seen[0] == pages:
                mark("end")

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
    if addon:
        settings["ADDONS"] = {"scrapy_soup.Addon": 0}
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)
    process.crawl(crawler)
    process.start()
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    stats = crawler.stats.get_stats() if crawler.stats else {}
    seconds = float(stats.get("elapsed_time_seconds", 0.0))
    received = int(stats.get("response_received_count", 0))
    first, last = marks.get("start"), marks.get("end")
    if first is None or last is None:
        raise RuntimeError(f"only {seen[0]} of {pages} pages reached the callback")
    # Callbacks in the window: the one that opened it ran its extraction
    # after the mark, the last one before its mark.
    window = seen[0] - warmup
    wall = last["wall"] - first["wall"]

    def per_page_ms(key: str, sub: str | None = None) -> float:
        a, b = (
            (first[key], last[key])
            if sub is None
            else (first[key][sub], last[key][sub])
        )
        return float(b - a) / window * 1e3

    return {
        "pages": received,
        "items": int(stats.get("item_scraped_count", 0)),
        "seconds": seconds,
        "pages_per_s": received / seconds if seconds else 0.0,
        # ru_maxrss is in KiB on Linux.
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "window_pages": window,
        "window_pages_per_s": window / wall if wall else 0.0,
        "cpu_ms_per_page": per_page_ms("cpu"),
        # The kernel's share (page faults of new memory, sockets) and the
        # page faults themselves, per page.
        "sys_ms_per_page": per_page_ms("sys"),
        "faults_per_page": per_page_ms("faults") / 1e3,
        "gc_ms_per_page": per_page_ms("gc", "seconds"),
        "gc_ms_per_page_by_generation": [
            per_page_ms("gc", f"gen{g}_seconds") for g in range(3)
        ],
        "gc_collections": [
            int(last["gc"][f"gen{g}"] - first["gc"][f"gen{g}"]) for g in range(3)
        ],
        "gc_collected_per_page": (last["gc"]["collected"] - first["gc"]["collected"])
        / window,
        # Objects the cyclic GC tracks: what each full collection walks.
        "gc_objects": [first["objects"], last["objects"]],
        "addon_ms_per_page": per_page_ms("hooks"),
        "addon_hooks_ms_per_page": {
            k: (v - first["hooks_by"].get(k, 0.0)) / window * 1e3
            for k, v in last["hooks_by"].items()
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


def _crawl_command(
    kind: str, port: int, pages: int, concurrency: int, hooks: bool
) -> list[str]:
    """The command line of one crawl process (``--crawl``)."""
    return [
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
        *([] if hooks else ["--no-hooks"]),
    ]


def _crawl_subprocess(
    kind: str, port: int, pages: int, concurrency: int, hooks: bool = True
) -> dict[str, Any]:
    out = subprocess.run(
        _crawl_command(kind, port, pages, concurrency, hooks),
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise RuntimeError(f"crawl {kind} failed:\n{out.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (linear interpolation)."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _spread(values: list[float]) -> dict[str, float]:
    """Median, quartiles and extremes of ``values``."""
    return {
        "median": statistics.median(values),
        "q1": _quantile(values, 0.25),
        "q3": _quantile(values, 0.75),
        "min": min(values),
        "max": max(values),
    }


def _median_interval(
    values: list[float], level: float = 0.9, resamples: int = 4000
) -> tuple[float, float]:
    """A bootstrap interval for the median of ``values`` (fixed seed)."""
    rng = random.Random(6)
    medians = sorted(
        statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples)
    )
    tail = (1 - level) / 2
    return _quantile(medians, tail), _quantile(medians, 1 - tail)


def measure_overhead(
    runs: int, pages: int, concurrency: int, progress: Any = None
) -> dict[str, Any]:
    """The parsel spider without and with the add-on: ``runs`` pairs, ABBA.

    Each crawl runs in its own process against one server; the two crawls of
    a pair run back to back (which goes first alternates), so a change of the
    machine's load between pairs moves both. The figures are per pair
    (with / without: CPU per page of the crawl process, wall-clock pages/s)
    and their median, quartiles and a 90% bootstrap interval of the median;
    "within 3%" holds when that interval's bad end is within 3%. The A/B
    runs do not time the hooks (the timing costs a little); one more add-on
    run does, for the hooks' share of a page.
    """
    server, port = _start_server()
    try:
        runs_by_kind: dict[str, list[dict[str, Any]]] = {
            "parsel": [],
            "parsel-addon": [],
        }
        for i in range(runs):
            order = ["parsel", "parsel-addon"]
            if i % 2:
                order.reverse()
            for kind in order:
                r = _crawl_subprocess(kind, port, pages, concurrency, hooks=False)
                runs_by_kind[kind].append(r)
                if progress is not None:
                    progress(
                        f"  {kind:13} run {i + 1}: {r['window_pages_per_s']:6.1f} "
                        f"pages/s, CPU {r['cpu_ms_per_page']:6.2f} ms/page "
                        f"(GC {r['gc_ms_per_page']:5.2f})"
                    )
        timed = _crawl_subprocess("parsel-addon", port, pages, concurrency)
        if progress is not None:
            progress(
                f"  add-on hooks timed: {timed['addon_ms_per_page']:.3f} ms/page "
                f"of {timed['cpu_ms_per_page']:.2f}"
            )
    finally:
        server.terminate()
        server.wait()

    without, with_ = runs_by_kind["parsel"], runs_by_kind["parsel-addon"]

    def ratios(key: str) -> list[float]:
        return [b[key] / a[key] for a, b in zip(without, with_, strict=True)]

    cpu_ratios, pps_ratios = ratios("cpu_ms_per_page"), ratios("window_pages_per_s")
    gc_without = [r["gc_ms_per_page"] for r in without]
    gc_with = [r["gc_ms_per_page"] for r in with_]
    cpu_interval = _median_interval(cpu_ratios)
    pps_interval = _median_interval(pps_ratios)
    addon_ms = timed["addon_ms_per_page"]
    return {
        "runs": runs_by_kind,
        "timed_run": timed,
        "pages": pages,
        "pairs": runs,
        "cpu_ms_per_page": {
            "without": _spread([r["cpu_ms_per_page"] for r in without]),
            "with": _spread([r["cpu_ms_per_page"] for r in with_]),
        },
        "pages_per_s": {
            "without": _spread([r["window_pages_per_s"] for r in without]),
            "with": _spread([r["window_pages_per_s"] for r in with_]),
        },
        "gc_ms_per_page": {"without": _spread(gc_without), "with": _spread(gc_with)},
        "cpu_ratios": cpu_ratios,
        "cpu_ratio": statistics.median(cpu_ratios),
        "cpu_ratio_spread": _spread(cpu_ratios),
        "cpu_ratio_interval": cpu_interval,
        "pages_per_s_ratios": pps_ratios,
        "pages_per_s_ratio": statistics.median(pps_ratios),
        "pages_per_s_ratio_spread": _spread(pps_ratios),
        "pages_per_s_ratio_interval": pps_interval,
        "within_3_percent": cpu_interval[1] <= 1.03 and pps_interval[0] >= 1 / 1.03,
        "addon_ms_per_page": addon_ms,
        "addon_fraction": addon_ms / timed["cpu_ms_per_page"],
        "hooks_ms_per_page": timed["addon_hooks_ms_per_page"],
    }


def overhead_report(o: dict[str, Any]) -> str:
    """:func:`measure_overhead`'s figures in a few lines."""

    def spread(d: dict[str, float], fmt: str) -> str:
        return (
            f"median {d['median']:{fmt}} (quartiles {d['q1']:{fmt}}-{d['q3']:{fmt}}, "
            f"range {d['min']:{fmt}}-{d['max']:{fmt}})"
        )

    cpu, pps, gcs = o["cpu_ms_per_page"], o["pages_per_s"], o["gc_ms_per_page"]
    lo, hi = o["cpu_ratio_interval"]
    plo, phi = o["pages_per_s_ratio_interval"]
    lines = [
        f"add-on overhead, parsel spider, {o['pairs']} interleaved pairs of "
        f"{o['pages']}-page crawls (steady part: the first tenth left out):",
        f"  CPU ms/page without: {spread(cpu['without'], '.2f')}",
        f"  CPU ms/page with:    {spread(cpu['with'], '.2f')}",
        f"  CPU with/without per pair: {spread(o['cpu_ratio_spread'], '.1%')}; "
        f"90% interval of the median {lo:.1%}-{hi:.1%}",
        f"  pages/s without: {spread(pps['without'], '.1f')}",
        f"  pages/s with:    {spread(pps['with'], '.1f')}",
        f"  pages/s with/without per pair: {spread(o['pages_per_s_ratio_spread'], '.1%')}; "
        f"90% interval of the median {plo:.1%}-{phi:.1%}",
        f"  GC ms/page without {gcs['without']['median']:.2f}, "
        f"with {gcs['with']['median']:.2f} (medians)",
        f"  within 3%: {'yes' if o['within_3_percent'] else 'not shown'}",
        f"  add-on hooks (one more timed run) {o['addon_ms_per_page']:.3f} ms/page = "
        f"{o['addon_fraction']:.2%} of its CPU per page",
    ]
    for hook, ms in sorted(o["hooks_ms_per_page"].items()):
        lines.append(f"    {hook:24} {ms * 1e3:7.1f} us/page")
    return "\n".join(lines)


def _instructions(kind: str, port: int, pages: int, concurrency: int) -> int:
    """Instructions executed by one whole crawl process, counted by valgrind."""
    out = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            *_crawl_command(kind, port, pages, concurrency, hooks=False),
        ],
        capture_output=True,
        text=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if out.returncode or found is None:
        raise RuntimeError(f"valgrind crawl {kind} failed:\n{out.stderr[-3000:]}")
    return int(found.group(1).replace(",", ""))


def measure_instructions(
    pages: int, concurrency: int, progress: Any = None
) -> dict[str, Any]:
    """Instructions per page without and with the add-on: a count, not a time.

    Other processes' load moves time, not the number of instructions a crawl
    executes. Each configuration crawls ``pages // 4`` and ``pages`` pages
    under valgrind (cachegrind, ~20x slower; the four crawls run two at a
    time); the difference of the two counts, divided by the difference of the
    page counts, leaves out start-up and shutdown. Instructions are not time
    (cache misses are not counted), so this says how much work the add-on
    adds, and the timed pairs say what that work costs.
    """
    from concurrent.futures import ThreadPoolExecutor

    small = max(1, pages // 4)
    server, port = _start_server()
    try:
        jobs = [(k, n) for k in ("parsel", "parsel-addon") for n in (small, pages)]
        with ThreadPoolExecutor(2) as pool:
            counts = dict(
                zip(
                    jobs,
                    pool.map(
                        lambda j: _instructions(j[0], port, j[1], concurrency), jobs
                    ),
                    strict=True,
                )
            )
    finally:
        server.terminate()
        server.wait()
    per_page = {
        kind: (counts[kind, pages] - counts[kind, small]) / (pages - small)
        for kind in ("parsel", "parsel-addon")
    }
    result = {
        "pages": (small, pages),
        "counts": {f"{k} {n}": v for (k, n), v in counts.items()},
        "per_page": per_page,
        "ratio": per_page["parsel-addon"] / per_page["parsel"],
    }
    if progress is not None:
        progress(
            f"instructions per page (valgrind, {pages} - {small} pages): without "
            f"{per_page['parsel'] / 1e6:.1f} M, with {per_page['parsel-addon'] / 1e6:.1f} M, "
            f"with/without {result['ratio']:.2%}"
        )
    return result


def measure_conversion(repeat: int = 5) -> dict[str, float]:
    """Microseconds per item of ``convert_item`` (the spider middleware's
    conversion to plain data), on items built from every corpus page.

    - ``plain``: the extraction's item, no soup object (the fast path: looked
      at, nothing copied);
    - ``small soup objects``: the same item plus ``tag.attrs``, a class list,
      a string and a ``ResultSet`` of the page's first ten links;
    - ``one Tag``: the extraction's item plus the page's main content as a
      Tag (copied and serialized: what the middleware does when no
      scrapy_soup pipeline is enabled; with them, the copy is processed
      instead and serialized once, see the crawl figures).
    """
    from _corpus import real_pages
    from bench_extract import extract_soup

    from scrapy_soup import Soup
    from scrapy_soup._scrapy._plain import convert_item

    soups = [Soup(text) for _name, text in real_pages()]
    bases = [extract_soup(soup) for soup in soups]

    def small(soup: Any, base: dict[str, Any]) -> dict[str, Any]:
        a = soup.find("a", href=True) or soup.body or soup
        return {
            **base,
            "attrs": a.attrs,
            "classes": (soup.find(class_=True) or a).get("class"),
            "string": soup.title.string if soup.title else None,
            "links": soup.find_all("a", limit=10),
        }

    def one_tag(soup: Any, base: dict[str, Any]) -> dict[str, Any]:
        content = soup.find("article") or soup.find("main") or soup.body
        return {**base, "content": content}

    def plain(soup: Any, base: dict[str, Any]) -> dict[str, Any]:
        return dict(base)

    out: dict[str, float] = {}
    for label, build in (
        ("plain", plain),
        ("small soup objects", small),
        ("one Tag", one_tag),
    ):
        best = float("inf")
        for _ in range(repeat):
            items = [build(soup, base) for soup, base in zip(soups, bases, strict=True)]
            start = time.perf_counter()
            for item in items:
                convert_item(item, ())
            best = min(best, time.perf_counter() - start)
        out[label] = best / len(items) * 1e6
    return out


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
        help="K interleaved runs each of the parsel spider with/without the add-on",
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="with --crawl: cProfile the crawl into FILE"
    )
    parser.add_argument(
        "--json", metavar="FILE", help="with --overhead: every run's figures, as JSON"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="instructions per page with/without the add-on (valgrind)",
    )
    parser.add_argument(
        "--convert",
        action="store_true",
        help="microseconds per item of the spider middleware's conversion",
    )
    parser.add_argument(
        "--no-hooks",
        action="store_true",
        help="with --crawl: do not time the add-on's hooks one by one",
    )
    args = parser.parse_args()
    if args.serve:
        serve()
    elif args.crawl:
        if not args.port:
            # A crawl on its own (profiling): start the corpus server here.
            server, args.port = _start_server()
        else:
            server = None
        try:
            result = crawl(
                args.crawl,
                args.port,
                args.pages,
                args.concurrency,
                profile=args.profile,
                hooks=not args.no_hooks,
            )
        finally:
            if server is not None:
                server.terminate()
                server.wait()
        print(json.dumps(result))
    elif args.convert:
        for label, us in measure_conversion().items():
            print(f"convert_item, {label:20} {us:9.1f} us/item")
    elif args.instructions:
        result = measure_instructions(args.pages, args.concurrency, print)
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")
    elif args.overhead:
        o = measure_overhead(args.overhead, args.pages, args.concurrency, print)
        print(overhead_report(o))
        if args.json:
            Path(args.json).write_text(json.dumps(o, indent=1), encoding="utf-8")
    else:
        threading.current_thread().name = "bench_crawl"
        for label, r in run_all(args.pages, args.concurrency, print).items():
            print(
                f"{label:16} {r['pages']:6.0f} pages {r['seconds']:7.1f} s "
                f"{r['pages_per_s']:7.1f} pages/s  peak RSS {r['peak_rss_mb']:6.0f} MB"
            )


if __name__ == "__main__":
    main()
