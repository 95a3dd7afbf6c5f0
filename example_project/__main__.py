"""``python -m example_project``: serve the bundled site, crawl it, write a feed.

Runs one spider of the bookshop project (``bookstore`` by default, the main
job) against the bundled website, served on 127.0.0.1 on a free port in a
thread of this process, writes the items as JSON Lines (``items.jsonl``) and
prints a summary: items by type, pages, and the ``soup/*`` stats. Options
mirror ``scrapy crawl``'s: ``-a start_url=https://...`` crawls a real site
instead, ``-s NAME=VALUE`` sets a setting, ``-o FILE`` names the feed.
The exit status is 0 when the crawl finished with no error logged.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from example_project import PROJECT_DIR


def _pairs(values: Sequence[str], option: str) -> dict[str, str]:
    pairs = {}
    for value in values:
        name, sep, setting = value.partition("=")
        if not sep or not name:
            raise SystemExit(f"{option} takes NAME=VALUE, not {value!r}")
        pairs[name] = setting
    return pairs


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m example_project",
        description="Crawl the bundled bookstore site (or a real one) with "
        "scrapy_soup and write a JSON Lines feed.",
    )
    parser.add_argument(
        "spider",
        nargs="?",
        default="bookstore",
        help="spider to run: bookstore (default, the whole site) or chapters "
        "(blog posts as EPUB chapters)",
    )
    parser.add_argument(
        "-a",
        dest="spider_args",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="spider argument, e.g. -a start_url=https://example.com/ -a max_pages=20",
    )
    parser.add_argument(
        "-s",
        dest="settings",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="Scrapy setting, e.g. -s SOUP_CLEAN_POLICY=strict",
    )
    parser.add_argument(
        "-o",
        "--output",
        default="items.jsonl",
        help="feed file, overwritten (default: items.jsonl)",
    )
    parser.add_argument(
        "-L",
        "--loglevel",
        default="WARNING",
        help="Scrapy log level (default: WARNING; INFO or DEBUG show the crawl)",
    )
    return parser.parse_args(argv)


def _types_in(feed: Path) -> Counter[str]:
    types: Counter[str] = Counter()
    try:
        with feed.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    types[str(json.loads(line).get("type", "item"))] += 1
    except (OSError, ValueError):
        pass
    return types


def summary(
    spider: str, stats: dict[str, Any], feed: Path, seconds: float
) -> list[str]:
    """The lines printed at the end: items, pages, and the soup/* stats."""
    items = stats.get("item_scraped_count", 0)
    pages = stats.get("response_received_count", 0)
    types = ", ".join(f"{n} {kind}" for kind, n in sorted(_types_in(feed).items()))
    lines = [
        f"{spider}: {items} items ({types or 'none'}) from {pages} pages "
        f"in {seconds:.1f} s -> {feed}",
    ]
    soup_stats = {k: v for k, v in sorted(stats.items()) if k.startswith("soup/")}
    if soup_stats:
        lines.append("  " + ", ".join(f"{k} {v}" for k, v in soup_stats.items()))
    problems = {
        k: v
        for k, v in stats.items()
        if k in ("log_count/ERROR", "spider_exceptions", "item_dropped_count")
        or k.startswith("downloader/response_status_count/4")
        or k.startswith("downloader/response_status_count/5")
    }
    finish = stats.get("finish_reason", "?")
    lines.append(
        f"  finish_reason {finish}"
        + "".join(f", {k} {v}" for k, v in sorted(problems.items()))
    )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    spider_args = _pairs(args.spider_args, "-a")
    overrides = _pairs(args.settings, "-s")

    # The Scrapy project is the ``bookshop`` package next to scrapy.cfg, as
    # ``scrapy crawl`` run in that directory would import it.
    sys.path.insert(0, str(PROJECT_DIR))
    from bookshop.localsite import serve_site
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings

    settings = Settings()
    settings.setmodule("bookshop.settings", priority="project")
    feed = Path(args.output)
    settings.set(
        "FEEDS",
        {str(feed): {"format": "jsonlines", "overwrite": True, "encoding": "utf-8"}},
        priority="cmdline",
    )
    settings.set("LOG_LEVEL", args.loglevel.upper(), priority="cmdline")
    for name, value in overrides.items():
        settings.set(name, value, priority="cmdline")

    site = None
    if "start_url" not in spider_args:
        site = serve_site()
        spider_args["start_url"] = site.url
        print(f"Serving the bundled site ({PROJECT_DIR / 'site'}) at {site.url}")
    print(f"Crawling {spider_args['start_url']} with the {args.spider!r} spider ...")

    started = time.monotonic()
    process = CrawlerProcess(settings)
    try:
        crawler = process.create_crawler(args.spider)
    except KeyError:
        raise SystemExit(f"no spider named {args.spider!r}") from None
    process.crawl(crawler, **spider_args)
    try:
        process.start()
    finally:
        if site is not None:
            site.stop()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    for line in summary(args.spider, stats, feed, time.monotonic() - started):
        print(line)
    ok = stats.get("finish_reason") == "finished" and not stats.get("log_count/ERROR")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
