"""Main-content extraction: quality and speed against trafilatura, side by side in one run.

On trafilatura's evaluation set (843 real pages, each with snippets its
main content must and must not hold: a folder with its ``evaldata.json``
and ``pages/``, given as ``--data``; it is not in this repository), every extractor's text is scored with trafilatura's metric
(precision, recall, F over all snippets; per-page worst cases) and timed,
page by page in turn, best of ``--rounds``:

- ours: ``main_content(soup)`` then ``to_text`` of it (which cleans a
  copy first), on the soup of an already-parsed page (a spider's
  ``response.soup``), and including our parse (``Soup(html)``); and
  ``main_content(soup)`` alone, its strings joined;
- trafilatura ``extract`` (default and ``fast=True``) on an lxml tree
  parsed beforehand (trafilatura accepts one: the parse already paid), and
  including its parse (``extract(html)``);
- turbohtml's ``article()`` (C), readability-lxml, when installed.

    python benchmarks/main_content.py [--data DIR] [--rounds 3] [--limit N] [--show 10]
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import re
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scrapy_soup import Soup, XMLParsedAsHTMLWarning, main_content, to_text

WS = re.compile(r"\s+")


def norm(text: str) -> str:
    return WS.sub(" ", text).strip()


def ours(soup: Soup) -> str:
    content = main_content(soup)
    return "" if content is None else to_text(content)


def ours_unconverted(soup: Soup) -> str:
    """The fragment alone, its strings joined (no cleaning, no to_text)."""
    content = main_content(soup)
    return "" if content is None else content.get_text(" ")


def extractors() -> dict[
    str, tuple[Callable[[bytes, str], Any], Callable[[Any, str], str]]
]:
    """name -> (prepare(html, url): what the parse gives, extract(prepared, url) -> text)."""
    found: dict[str, tuple[Callable[[bytes, str], Any], Callable[[Any, str], str]]] = {
        "scrapy_soup, on the parsed soup": (lambda h, u: Soup(h), lambda s, u: ours(s)),
        "scrapy_soup without to_text, parsed soup": (
            lambda h, u: Soup(h),
            lambda s, u: ours_unconverted(s),
        ),
        "scrapy_soup, parse included": (lambda h, u: h, lambda h, u: ours(Soup(h))),
    }
    try:
        import trafilatura
        from trafilatura.utils import load_html
    except ImportError:
        print("(trafilatura not installed)")
    else:
        # extract() may change the tree it is given: it gets a fresh copy
        # (the copy made in prepare, outside the timing).
        found["trafilatura, on a parsed tree"] = (
            lambda h, u: load_html(h),
            lambda t, u: trafilatura.extract(t, url=u) or "",
        )
        found["trafilatura fast, on a parsed tree"] = (
            lambda h, u: load_html(h),
            lambda t, u: trafilatura.extract(t, url=u, fast=True) or "",
        )
        found["trafilatura, parse included"] = (
            lambda h, u: h,
            lambda h, u: trafilatura.extract(h, url=u) or "",
        )
    try:
        import turbohtml

        found["turbohtml article(), parse included"] = (
            lambda h, u: h.decode("utf-8", "replace"),
            lambda h, u: _turbo_text(turbohtml, h),
        )
    except ImportError:
        print("(turbohtml not installed)")
    return found


def _turbo_text(turbohtml: Any, html: str) -> str:
    text: str = turbohtml.parse(html).article().text
    return text


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--data",
        type=Path,
        required=True,
        help="trafilatura's evaluation set: evaldata.json and pages/",
    )
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--show", type=int, default=5)
    a = p.parse_args()
    warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
    data = json.loads((a.data / "evaldata.json").read_text(encoding="utf-8"))
    items = sorted(data.items())[: a.limit or None]
    pages = [
        (url, gzip.decompress((a.data / "pages" / v["file"]).read_bytes()), v)
        for url, v in items
    ]
    ex = extractors()
    best = dict.fromkeys(ex, float("inf"))
    outputs: dict[str, dict[str, str]] = {name: {} for name in ex}
    for _ in range(a.rounds):
        spent = dict.fromkeys(ex, 0.0)
        for url, html, _v in pages:
            for name, (prepare, extract) in ex.items():
                prepared = prepare(html, url)
                if name.startswith("trafilatura") and not isinstance(prepared, bytes):
                    prepared = copy.deepcopy(prepared)
                t = time.perf_counter()
                try:
                    text = extract(prepared, url)
                except Exception as e:
                    text = ""
                    print(f"{name}: {url}: {type(e).__name__}: {e}"[:200])
                spent[name] += time.perf_counter() - t
                outputs[name][url] = norm(text)
        for name in ex:
            best[name] = min(best[name], spent[name])
    print(f"{len(pages)} pages, best of {a.rounds} rounds")
    print(f"{'extractor':<40}{'precision':>10}{'recall':>8}{'F':>7}{'ms/page':>9}")
    worst: dict[str, list[tuple[int, str]]] = {}
    for name in ex:
        tp = fn = fp = 0
        per_page = []
        for url, _html, v in pages:
            out = outputs[name][url]
            found = [norm(s) in out for s in v["with"]]
            wrong = sum(norm(s) in out for s in v["without"])
            tp += sum(found)
            fn += len(found) - sum(found)
            fp += wrong
            per_page.append((len(found) - sum(found) + wrong, url))
        precision = tp / max(tp + fp, 1)
        recall = tp / max(tp + fn, 1)
        f = 2 * precision * recall / max(precision + recall, 1e-9)
        ms = 1000 * best[name] / len(pages)
        print(f"{name:<40}{precision:10.3f}{recall:8.3f}{f:7.3f}{ms:9.2f}")
        worst[name] = sorted(per_page, reverse=True)[: a.show]
    ms = {name: best[name] for name in ex}
    pairs = [
        ("scrapy_soup, on the parsed soup", "trafilatura, on a parsed tree"),
        ("scrapy_soup, on the parsed soup", "trafilatura fast, on a parsed tree"),
        ("scrapy_soup without to_text, parsed soup", "trafilatura, on a parsed tree"),
        ("scrapy_soup, parse included", "trafilatura, parse included"),
    ]
    for ours_name, theirs in pairs:
        if theirs in ms:
            print(f"{theirs} / {ours_name}: {ms[theirs] / ms[ours_name]:.1f}x")
    for name in ("scrapy_soup, on the parsed soup",):
        print(f"worst pages of {name} (snippets wrong):")
        for bad, url in worst[name]:
            print(f"    {bad}  {url}")


if __name__ == "__main__":
    main()
