"""The html5 mode: its parse and a spider's work against bs4's html5lib, side by side.

Every case runs on the same decoded text of each real corpus page, page
after page, all cases in one process (the ratios hold on a busy machine):

- parse: ``Soup(text, "html5lib")`` against ``BeautifulSoup(text,
  "html5lib")``, and its cost as a ratio of libxml2's (``Soup(text)``, the
  default mode, and ``lxml.html`` alone);
- parse + extract: the parse, then workload 2's extraction
  (`bench_extract.py`: title, links, paragraphs' text, meta, images,
  list items, a regex filter), the same code on both;
- with ``--candidates``: the tree builders considered for the mode, each
  tree compared with bs4's html5lib tree (elements, attributes and text,
  in order) and timed.

    python benchmarks/bench_html5.py [--rounds 3] [--quick] [--candidates | --candidates-only]
"""

from __future__ import annotations

import argparse
import gc
import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bs4
import lxml.html

sys.path.insert(0, str(Path(__file__).parent))
from _corpus import real_pages
from bench_extract import extract_soup

from scrapy_soup import Soup
from scrapy_soup._tree._html5 import parse_html5

#: Workload 2's extraction (`bench_extract.py`): what a spider reads, the
#: same code for bs4 and the soup.
_extract = extract_soup


CASES: dict[str, dict[str, Callable[[str], Any]]] = {
    "parse": {
        "bs4 html5lib": lambda t: bs4.BeautifulSoup(t, "html5lib"),
        "soup html5": lambda t: Soup(t, "html5lib"),
        "soup default (libxml2)": lambda t: Soup(t),
        "lxml.html alone (libxml2)": lambda t: lxml.html.document_fromstring(t),
        "html5 tree alone (turbohtml)": parse_html5,
    },
    "parse + extract": {
        "bs4 html5lib": lambda t: _extract(bs4.BeautifulSoup(t, "html5lib")),
        "soup html5": lambda t: _extract(Soup(t, "html5lib")),
        "soup default (libxml2)": lambda t: _extract(Soup(t)),
    },
}


def timed(
    pages: list[str], cases: dict[str, Callable[[str], Any]], rounds: int
) -> dict[str, float]:
    totals: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        sums = dict.fromkeys(cases, 0.0)
        for text in pages:
            for name, fn in cases.items():
                start = time.perf_counter()
                kept = fn(text)
                sums[name] += time.perf_counter() - start
                del kept
            gc.collect()
        for name, value in sums.items():
            totals[name].append(value)
    return {name: statistics.median(values) for name, values in totals.items()}


# -- the candidates ---------------------------------------------------------------
_C0 = re.compile("[\x00-\x08\x0b\x0e-\x1f]")
_LISTS = {"class", "rel", "rev", "headers", "accesskey", "accept-charset", "dropzone"}


class _Events:
    """A tree as a list: each element's name and sorted attributes, its
    contents, then ``"/"``; neighbouring strings joined (comments left out)."""

    def __init__(self) -> None:
        self.out: list[Any] = []
        self.text: list[str] = []

    def start(self, name: str, attrs: Any) -> None:
        self.flush()
        self.out.append((name, sorted(attrs)))

    def end(self) -> None:
        self.flush()
        self.out.append("/")

    def flush(self) -> None:
        if self.text:
            self.out.append("".join(self.text))
            self.text.clear()


def _events_bs4(soup: bs4.BeautifulSoup) -> list[Any]:
    events = _Events()

    def walk(tag: Any) -> None:
        for node in tag.contents:
            if isinstance(node, bs4.Tag):
                events.start(
                    node.name,
                    (
                        (k, " ".join(v) if isinstance(v, list) else v)
                        for k, v in node.attrs.items()
                    ),
                )
                walk(node)
                events.end()
            elif type(node) is bs4.NavigableString:
                events.text.append(str(node))

    walk(soup.find("html"))
    return events.out


def _events_lxml(root: Any) -> list[Any]:
    events = _Events()

    def walk(el: Any) -> None:
        if el.text and isinstance(el.tag, str):
            events.text.append(el.text)
        for child in el:
            if isinstance(child.tag, str):
                events.start(
                    child.tag.rsplit("}", 1)[-1],
                    (
                        (
                            k.rsplit("}", 1)[-1],
                            " ".join(v.split()) if k in _LISTS else v,
                        )
                        for k, v in child.attrib.items()
                    ),
                )
                walk(child)
                events.end()
            if child.tail:
                events.text.append(child.tail)

    walk(root)
    return events.out


def candidates() -> dict[str, Callable[[str], Any]]:
    """Each tree builder that can give an lxml tree, where installed."""
    found: dict[str, Callable[[str], Any]] = {"turbohtml (the mode)": parse_html5}
    try:
        import html5lib

        found["html5lib, lxml tree builder"] = lambda t: html5lib.parse(
            t, treebuilder="lxml", namespaceHTMLElements=False
        ).getroot()
    except ImportError:
        pass
    try:
        import turbohtml.etree as te

        found["turbohtml to_lxml_html, as it is"] = lambda t: te.to_lxml_html(
            te.document_fromstring(_C0.sub("", t))
        )
    except ImportError:
        pass
    try:
        import html5_parser

        found["html5-parser"] = lambda t: html5_parser.parse(t)
    except ImportError:
        pass
    except RuntimeError as exc:  # built against another libxml2 than lxml's
        print(f"(html5-parser does not load here: {str(exc)[:120]}...)\n")
    return found


def compare_candidates(pages: list[str]) -> None:
    oracle = []
    start = time.perf_counter()
    for text in pages:
        oracle.append(_events_bs4(bs4.BeautifulSoup(text, "html5lib")))
    bs4_time = time.perf_counter() - start
    builders = candidates()
    print("| builder | trees equal to bs4 html5lib's | time | vs bs4 html5lib |")
    print("|---|---|---|---|")
    print(f"| bs4 html5lib (the oracle) | - | {bs4_time:.2f} s | 1.0x |")
    for name, build in builders.items():
        equal = spent = 0.0
        failure = ""
        for text, expected in zip(pages, oracle, strict=True):
            start = time.perf_counter()
            try:
                root = build(text)
            except Exception as exc:
                failure = f"{type(exc).__name__}: {str(exc)[:60]}"
                continue
            spent += time.perf_counter() - start
            equal += _events_lxml(root) == expected
        note = f" (fails: {failure})" if failure else ""
        print(
            f"| {name} | {int(equal)}/{len(pages)}{note} | {spent:.2f} s "
            f"| {bs4_time / spent if spent else 0:.1f}x |"
        )
    print(
        "\nNot candidates: selectolax (lexbor) and markupever build their own "
        "trees, which reach lxml only through a serialization libxml2 reads "
        "its own way. Comments are not compared here (tests/test_html5.py "
        "compares str() too)."
    )


def run(rounds: int, quick: bool = False) -> dict[str, Any]:
    """Every case of `CASES`, side by side: ``{workload: {case: seconds}}``,
    and the ratios the project's targets read (`ratios`)."""
    pages = [text for _, text in real_pages()]
    if quick:
        pages = pages[::4]
    times: dict[str, dict[str, float]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # html5lib's DataLossWarning
        for workload, cases in CASES.items():
            times[workload] = timed(pages, cases, rounds)
    return {
        "pages": len(pages),
        "characters": sum(map(len, pages)),
        "rounds": rounds,
        "times": times,
        **ratios(times),
    }


def ratios(times: dict[str, dict[str, float]]) -> dict[str, float]:
    """bs4 html5lib's time over the html5 mode's (parse; parse + extract),
    and the html5 parse's cost as a ratio of libxml2's (the soups', and
    the trees' alone)."""
    parse, extract = times["parse"], times["parse + extract"]
    return {
        "parse_vs_bs4": parse["bs4 html5lib"] / parse["soup html5"],
        "extract_vs_bs4": extract["bs4 html5lib"] / extract["soup html5"],
        "soup_vs_libxml2": parse["soup html5"] / parse["soup default (libxml2)"],
        "tree_vs_libxml2": parse["html5 tree alone (turbohtml)"]
        / parse["lxml.html alone (libxml2)"],
    }


def report(result: dict[str, Any]) -> str:
    """The tables of `run`'s figures, in Markdown."""
    lines = [
        f"{result['pages']} real pages, {result['characters'] / 1e6:.1f} M "
        f"characters, median of {result['rounds']} rounds",
        "",
    ]
    for workload, found in result["times"].items():
        ours = found["soup html5"]
        lines += [f"### {workload}", "", "| case | time | / soup html5 |"]
        lines.append("|---|---:|---:|")
        for name, spent in found.items():
            lines.append(f"| {name} | {spent * 1000:.0f} ms | {spent / ours:.2f} |")
        lines.append("")
    lines.append(
        f"The html5 mode is {result['parse_vs_bs4']:.1f}x faster than bs4 "
        f"html5lib to parse, {result['extract_vs_bs4']:.1f}x for parse + "
        f"extract; its parse costs {result['soup_vs_libxml2']:.2f}x the "
        f"default mode's (the trees alone: turbohtml's "
        f"{result['tree_vs_libxml2']:.2f}x lxml.html's)."
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--candidates", action="store_true")
    parser.add_argument("--candidates-only", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
    if not args.candidates_only:
        print(report(run(args.rounds, args.quick)))
    if args.candidates or args.candidates_only:
        pages = [text for _, text in real_pages()]
        if args.quick:
            pages = pages[::4]
        print("\n### the candidates\n")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # html5lib's DataLossWarning
            compare_candidates(pages)


if __name__ == "__main__":
    main()
