"""Issue 6: the cost of the first ``response.soup`` after ``response.css()`` has run.

For each real corpus page, as a crawl sees it: a ``SoupHtmlResponse`` built by
the downloader middleware's own wrapping, then

- ``parse``: ``response.css("title")`` on a fresh response, i.e. parsel
  decoding the body, parsing it with lxml and running one query (what the
  spider pays before it ever touches the soup);
- ``first soup``: the first ``response.soup`` on that same response (the
  soup wrapper over the tree parsel built; the ``<base href>`` look-up and
  the document level -- doctype, what surrounds the root -- are done when
  first needed, and are not part of it).

Each is timed on ``--rounds`` fresh responses per page and the minimum kept
(the noise on a shared machine only ever adds time). The target: the first
``.soup`` costs < 5% of the page's parse time; the median and the maximum of
the per-page ratio are reported, with the page of the maximum.

    python benchmarks/bench_first_soup.py [--rounds 7] [--quick]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _corpus import real_pages

URL = "http://127.0.0.1/page.html"


def fresh_response(body: bytes) -> Any:
    """A response as the middleware hands it to a callback (nothing parsed yet)."""
    from scrapy.http import HtmlResponse, Request

    from scrapy_soup._scrapy.responses import hand_on

    plain = HtmlResponse(
        URL,
        body=body,
        headers={"Content-Type": "text/html; charset=utf-8"},
        request=Request(URL),
    )
    return hand_on(plain, None, sniff_html=False)


def time_page(body: bytes, rounds: int) -> tuple[float, float]:
    """Minimum (parse + css, first .soup) seconds over ``rounds`` fresh responses."""
    parse_times, soup_times = [], []
    for _ in range(rounds):
        response = fresh_response(body)
        gc.disable()
        try:
            start = time.perf_counter()
            response.css("title")
            middle = time.perf_counter()
            response.soup  # noqa: B018
            end = time.perf_counter()
        finally:
            gc.enable()
        parse_times.append(middle - start)
        soup_times.append(end - middle)
    return min(parse_times), min(soup_times)


def run(rounds: int, quick: bool = False) -> dict[str, Any]:
    """Time every page; return the per-page ratios and their median and max."""
    # Warm-up: imports (the tree package loads on the first .soup) and caches.
    time_page(b"<html><head><title>t</title></head><body><p>x</p></body></html>", 3)
    pages = real_pages()
    if quick:
        pages = pages[::4]
    rows = []
    for name, text in pages:
        parse, soup = time_page(text.encode("utf-8"), rounds)
        rows.append((name, parse, soup, soup / parse))
    ratios = [r[3] for r in rows]
    worst = max(rows, key=lambda r: r[3])
    return {
        "pages": len(rows),
        "median_ratio": statistics.median(ratios),
        "max_ratio": worst[3],
        "max_page": worst[0],
        "max_page_parse_ms": worst[1] * 1e3,
        "max_page_soup_ms": worst[2] * 1e3,
        "total_parse_s": sum(r[1] for r in rows),
        "total_soup_s": sum(r[2] for r in rows),
        "median_soup_us": statistics.median(r[2] for r in rows) * 1e6,
    }


def report(result: dict[str, Any]) -> str:
    return (
        f"first .soup after .css(), {result['pages']} pages: "
        f"median {result['median_ratio']:.2%} of the parse, "
        f"max {result['max_ratio']:.2%} ({result['max_page']}: "
        f"{result['max_page_soup_ms']:.3f} ms of {result['max_page_parse_ms']:.2f} ms); "
        f"median {result['median_soup_us']:.0f} us; all pages "
        f"{result['total_soup_s'] * 1e3:.1f} ms vs {result['total_parse_s']:.2f} s parse"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="a quarter of the pages")
    args = parser.parse_args()
    print(report(run(args.rounds, args.quick)))


if __name__ == "__main__":
    main()
