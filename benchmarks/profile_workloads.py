"""cProfile of scrapy_soup alone on the workloads with speed targets, over the real pages.

``extract``: workload 2 including the parse; ``navigation``: workload 3's
five steps on built trees; ``search``: workload 9's 14 compiled calls on
built trees.  Parses for the last two happen before the profiler starts.
The cyclic GC is off while profiling: cProfile charges a collection to
whatever allocation triggers it.  Prints the top functions by own time
with their share of the profiled total.

    python benchmarks/profile_workloads.py extract [--top 10] [--quick] [--repeat 3]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import bench_extract
import bench_navigation
import bench_search
from _corpus import real_pages
from _harness import pick_pages

import scrapy_soup
from scrapy_soup import Soup


def _navigation(soup: Any) -> None:
    bench_navigation.walk_descendants(soup)
    bench_navigation.sibling_chains(soup, scrapy_soup.Tag)
    bench_navigation.texts(soup)
    bench_navigation.all_tags(soup)
    bench_navigation.all_strings(soup)


def jobs(workload: str, texts: list[str]) -> list[Callable[[], Any]]:
    """One zero-argument call per page: what the profiler times."""
    if workload == "extract":
        return [lambda t=t: bench_extract.extract_soup(Soup(t)) for t in texts]
    soups = [Soup(t) for t in texts]
    if workload == "navigation":
        return [lambda s=s: _navigation(s) for s in soups]
    values = [
        bench_search.page_values(bench_search.bs4.BeautifulSoup(t, "lxml"))
        for t in texts
    ]
    return [
        lambda s=s, v=v: bench_search.run_mix(s, *v)
        for s, v in zip(soups, values, strict=True)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("workload", choices=["extract", "navigation", "search"])
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="calls per page")
    parser.add_argument("--quick", action="store_true", help="a quarter of the pages")
    parser.add_argument("--out", type=Path, help="also write the raw profile here")
    args = parser.parse_args()
    texts = [text for _, text in pick_pages(real_pages(), args.quick)]
    calls = jobs(args.workload, texts)
    for call in calls:  # warm: imports, compiled XPaths, kept wrappers
        call()
    gc.collect()
    gc.disable()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(args.repeat):
        for call in calls:
            call()
    profiler.disable()
    gc.enable()
    stats = pstats.Stats(profiler)
    if args.out:
        stats.dump_stats(args.out)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)  # type: ignore[attr-defined]
    print(
        f"{args.workload}: {len(texts)} pages x {args.repeat}, {total:.3f} s profiled"
    )
    print(f"{'own s':>8} {'share':>6} {'calls':>9} {'cum s':>8}  function")
    for (file, line, name), (_, ncalls, own, cum, _) in rows[: args.top]:
        where = f"{Path(file).parent.name}/{Path(file).name}:{line}" if line else file
        print(f"{own:8.3f} {own / total:6.1%} {ncalls:9d} {cum:8.3f}  {name} ({where})")


if __name__ == "__main__":
    main()
