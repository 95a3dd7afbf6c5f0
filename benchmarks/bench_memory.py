"""Workload 8, memory: peak RSS and RSS per page held, 100 parsed pages.

Each implementation runs in its own process: read 100 real corpus pages
(cycled), measure RSS, parse them all and keep the 100 documents in a list,
collect garbage, measure again.  RSS per page held = the growth / 100.

    python benchmarks/bench_memory.py [--pages 100]
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

HERE = Path(__file__).parent
#: The row of the view over parsel's tree (workload 2's extraction run on it).
VIEW = "parsel + scrapy_soup view (extraction run)"
KINDS = {
    "scrapy_soup": "soup",
    "bs4 (lxml)": "bs4",
    "parsel": "parsel",
    "lxml.html": "lxml",
    # The plugin's own case: response.soup is a view over the tree parsel
    # already holds; what it adds to a page is this row minus parsel's.
    VIEW: "view",
}


def _rss_mb() -> float:
    # Current RSS from /proc (Linux); psutil is not needed for this.
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def hold(kind: str, count: int) -> dict[str, float]:
    """Parse ``count`` pages with one implementation, keep them, report RSS."""
    from _corpus import real_pages

    corpus = [text for _name, text in real_pages()]
    texts = [corpus[i % len(corpus)] for i in range(count)]
    parse: Any
    if kind == "soup":
        from scrapy_soup import Soup as parse
    elif kind == "bs4":
        import bs4

        def parse(text: str) -> Any:
            return bs4.BeautifulSoup(text, "lxml")
    elif kind == "parsel":
        import parsel

        def parse(text: str) -> Any:
            return parsel.Selector(text=text)
    elif kind == "view":
        import parsel
        from bench_extract import extract_soup

        from scrapy_soup import Soup

        def parse(text: str) -> Any:
            # What a callback holds: the selector, its soup, the wrappers
            # and strings an extraction made (the soup keeps them).
            soup = Soup(parsel.Selector(text=text))
            extract_soup(soup)
            return soup
    else:
        import lxml.html

        parse = lxml.html.fromstring
    parse(texts[0])  # imports and caches warmed before the baseline
    gc.collect()
    before = _rss_mb()
    held = [parse(text) for text in texts]
    gc.collect()
    after = _rss_mb()
    assert len(held) == count
    return {
        "pages": count,
        "text_mb": sum(len(t.encode()) for t in texts) / 2**20,
        "rss_before_mb": before,
        "rss_after_mb": after,
        "per_page_mb": (after - before) / count,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def run_all(count: int) -> dict[str, dict[str, float]]:
    """One subprocess per implementation."""
    results = {}
    for label, kind in KINDS.items():
        out = subprocess.run(
            [
                sys.executable,
                str(HERE / "bench_memory.py"),
                "--one",
                kind,
                "--pages",
                str(count),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        results[label] = json.loads(out.stdout.strip().splitlines()[-1])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--one", choices=sorted(KINDS.values()), help="one process")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(hold(args.one, args.pages)))
        return
    for label, r in run_all(args.pages).items():
        print(
            f"{label:12} {r['per_page_mb']:7.2f} MB per page held, "
            f"peak RSS {r['peak_rss_mb']:6.0f} MB ({r['text_mb']:.0f} MB of text)"
        )


if __name__ == "__main__":
    main()
