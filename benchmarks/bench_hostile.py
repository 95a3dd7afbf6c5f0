"""Hostile sizes, side by side with bs4, parsel and lxml's bare parse.

Each case is one document built to hit a quadratic path, timed end to end as
a spider would use it:

- ``select("p, a")`` over 80,000 matches (tree already parsed): libxml2's
  union of node-sets merged the groups with a duplicate check per node;
- an XML document using one 100-character internal entity 10,000 times,
  parsed and its text read: libxml2's amplification limit stopped the parse
  (text cut short), and the kept references were written back one by one;
- 50,000 attributes on one tag, parsed and printed (``str()``): lxml reads
  each attribute value by looking its name up; libxml2's own tree building
  is quadratic here too, the floor no view over lxml can go below;
- HTML nested 20,000 deep with text after it, parsed and its text read:
  libxml2 stops building at 2,048 levels, the soup rebuilds from the
  parser's events as bs4 does.

The target: each within 3x bs4's time, allowing libxml2's own parse cost
where it is the floor ("ours - floor" column).  Times are the minimum of
``--rounds`` runs (noise on a shared machine only adds time).

    python benchmarks/bench_hostile.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import argparse
import gc
import time
import warnings
from collections.abc import Callable
from typing import Any


def best(fn: Callable[[], Any], rounds: int) -> float:
    """The minimum wall time of ``rounds`` calls, with the collector off."""
    times = []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return min(times)


def _documents(quick: bool) -> dict[str, Any]:
    scale = 4 if quick else 1
    group = "<div>" + "<p>x<a href=#>y</a></p>" * (40_000 // scale) + "</div>"
    value = ("entity text " * 10)[:100]
    uses = 10_000 // scale
    entity = (
        f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "{value}">]><r>'
        + "<x>&e;</x>" * uses
        + "</r>"
    )
    written = '<?xml version="1.0"?><r>' + f"<x>{value}</x>" * uses + "</r>"
    count = 50_000 // (2 if quick else 1)
    attributes = "<p " + " ".join(f'a{i}="v{i}"' for i in range(count)) + ">text</p>"
    levels = 20_000 // scale
    deep = "<div>" * levels + "deep" + "</div>" * levels + "<p>after</p>"
    return {
        "group": group,
        "entity": entity,
        "written": written,
        "attributes": attributes,
        "deep": deep,
        "sizes": (80_000 // scale, uses, count, levels),
    }


def run(rounds: int, quick: bool = False) -> list[dict[str, Any]]:
    """Time every case; one row per case."""
    import bs4
    from lxml import etree
    from parsel import Selector

    from scrapy_soup import Soup

    docs = _documents(quick)
    matches, uses, count, levels = docs["sizes"]
    rows: list[dict[str, Any]] = []

    # 1. selector group: the trees are built first, only select() is timed.
    ours_tree = Soup(docs["group"])
    bs4_tree = bs4.BeautifulSoup(docs["group"], "lxml")
    selector = Selector(text=docs["group"])
    steps = [etree.XPath(f"descendant-or-self::{n}") for n in ("p", "a")]
    union = etree.XPath("descendant-or-self::p | descendant-or-self::a")
    root = selector.root
    rows.append(
        {
            "case": f'select("p, a"), {matches:,} matches, tree built',
            "ours": best(lambda: ours_tree.select("p, a"), rounds),
            "bs4": best(lambda: bs4_tree.select("p, a"), rounds),
            "parsel": best(lambda: selector.css("p, a"), rounds),
            "floor": best(lambda: [step(root) for step in steps], rounds),
            "floor_is": "lxml XPath of each selector alone, not merged",
            "same": len(ours_tree.select("p, a")) == len(bs4_tree.select("p, a")),
            "note": "the XPath union the soup ran before (and parsel runs): "
            f"{best(lambda: union(root), 1):.3f} s",
        }
    )

    # 2. one internal entity, used many times: parse + get_text().
    parser = etree.XMLParser(resolve_entities=False, huge_tree=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours_text = Soup(docs["entity"], "xml").get_text()
    bs4_text = bs4.BeautifulSoup(docs["written"], "xml").get_text()
    rows.append(
        {
            "case": f"XML, one 100-char entity used {uses:,} times: parse + get_text()",
            "ours": best(lambda: Soup(docs["entity"], "xml").get_text(), rounds),
            "bs4": best(
                lambda: bs4.BeautifulSoup(docs["written"], "xml").get_text(), rounds
            ),
            "parsel": None,
            "floor": best(
                lambda: etree.fromstring(docs["written"].encode(), parser), rounds
            ),
            "floor_is": "lxml parse of the text written out",
            "same": ours_text == bs4_text,
            "note": "bs4 4.15 + lxml 6 keep nothing of a document with an internal "
            "subset: its time is for the same text written out",
        }
    )

    # 3. many attributes on one tag: parse + str().
    html_parser = etree.HTMLParser(huge_tree=True, recover=True)
    attr_rounds = max(1, rounds // 2)
    rows.append(
        {
            "case": f"{count:,} attributes on one tag: parse + str()",
            "ours": best(lambda: str(Soup(docs["attributes"])), attr_rounds),
            "bs4": best(
                lambda: str(bs4.BeautifulSoup(docs["attributes"], "lxml")),
                attr_rounds,
            ),
            "parsel": best(
                lambda: Selector(text=docs["attributes"]).get(), attr_rounds
            ),
            "floor": best(
                lambda: etree.fromstring(docs["attributes"], html_parser),
                attr_rounds,
            ),
            "floor_is": "lxml's parse (libxml2's tree building is quadratic here)",
            "same": str(Soup(docs["attributes"]))
            == str(bs4.BeautifulSoup(docs["attributes"], "lxml")),
        }
    )

    # 4. deeper than libxml2 builds: parse + get_text().
    deep_parser = etree.HTMLParser(huge_tree=True, recover=True)
    rows.append(
        {
            "case": f"HTML nested {levels:,} deep: parse + get_text()",
            "ours": best(lambda: Soup(docs["deep"]).get_text(), rounds),
            "bs4": best(
                lambda: bs4.BeautifulSoup(docs["deep"], "lxml").get_text(), rounds
            ),
            "parsel": best(
                lambda: Selector(text=docs["deep"]).xpath("string()"), rounds
            ),
            "floor": best(lambda: etree.fromstring(docs["deep"], deep_parser), rounds),
            "floor_is": "lxml's parse (which keeps 2,048 levels, no text)",
            "same": Soup(docs["deep"]).get_text()
            == bs4.BeautifulSoup(docs["deep"], "lxml").get_text(),
        }
    )
    return rows


def report(rows: list[dict[str, Any]]) -> str:
    """A Markdown table: seconds, ratios to bs4, and whether the output matched."""
    lines = [
        "| case | scrapy_soup | bs4 (lxml) | parsel | floor | ours / bs4 "
        "| (ours - floor) / bs4 | same output as bs4 |",
        "|---|---:|---:|---:|---:|---:|---:|:-:|",
    ]
    for row in rows:
        parsel = f"{row['parsel']:.3f} s" if row["parsel"] is not None else "-"
        extra = max(row["ours"] - row["floor"], 0.0)
        lines.append(
            f"| {row['case']} | {row['ours']:.3f} s | {row['bs4']:.3f} s | {parsel} "
            f"| {row['floor']:.3f} s | {row['ours'] / row['bs4']:.2f}x "
            f"| {extra / row['bs4']:.2f}x | {'yes' if row['same'] else '**no**'} |"
        )
    lines.append("")
    lines += [f"- floor of '{row['case']}': {row['floor_is']}" for row in rows]
    lines += [f"- {row['note']}" for row in rows if row.get("note")]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="smaller documents")
    args = parser.parse_args()
    print(report(run(args.rounds, args.quick)))


if __name__ == "__main__":
    main()
