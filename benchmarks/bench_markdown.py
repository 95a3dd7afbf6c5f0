"""HTML to Markdown and to text: quality and speed, side by side in one run.

Every corpus page's ``<article>`` (else its ``<body>``), cleaned with the
default policy and its links made absolute (what an HTML field holds after
the pipelines), goes through:

- ``scrapy_soup.to_markdown`` (our converter over the lxml tree);
- markdownify with its defaults over ``BeautifulSoup(html, "lxml")``
  (``MarkdownConverter().convert_soup``), the Python reference;
- html-to-markdown (Rust) with its defaults;
- turbohtml (C) ``parse_fragment(html).to_markdown()`` with its defaults.

Quality: the tests' acceptance checks (tests/test_markdown.py), per page:
the Markdown rendered back by markdown-it-py (CommonMark + tables) gives the
same words in the same order as `to_text` of the cleaned HTML, the same
link and image targets, the same number of headings, list items, table
cells (those holding something) and code blocks, and no raw HTML.

Speed, on the real pages (median of the rounds' totals; parse included:
each converter starts from the HTML string):

- Markdown: ours vs markdownify vs html-to-markdown vs turbohtml;
- ours split in two: the cleaning alone (parse, clean, links absolute), as
  ``to_markdown`` does it (``elements_copy``: the elements only, the
  attributes it reads decided as it reads them) and in full
  (``working_copy``), and the conversion alone on a tree cleaned in full
  (``markdown_of_element``), as the pipelines call it;
- text: ``to_text`` vs html-text's ``extract_text`` (each cleaning first),
  and the walks alone on the same cleaned trees (``text_of_element`` vs
  ``etree_to_text``);
- the pipelines (absolutize + clean) with one field exported as Markdown
  vs the same field exported as HTML.

    python benchmarks/bench_markdown.py [--rounds 5] [--quick]

It measures the scrapy_soup it imports, and says which build that is: pure
Python (``pip install -e .``), or the compiled build
(``HATCH_BUILD_HOOKS_ENABLE=1 pip install .``, docs/performance.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _corpus import CORPUS, real_pages
from _harness import Case, measure

from scrapy_soup import Soup, clean, to_markdown, to_text
from scrapy_soup.markup._convert import elements_copy, working_copy
from scrapy_soup.markup.markdown import markdown_of_element
from scrapy_soup.markup.text import text_of_element

BASE = "https://example.com/section/page.html"


def all_pages() -> list[tuple[str, str]]:
    import csv

    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [
        (r["file"], (CORPUS / r["file"]).read_bytes().decode("utf-8")) for r in rows
    ]


def page_part(text: str) -> str:
    soup = Soup(text)
    part = soup.find("article") or soup.body
    return str(part) if part is not None else ""


def build() -> str:
    """Which build of scrapy_soup runs: the compiled one (its modules that
    are extensions), or pure Python."""
    import scrapy_soup.markup

    folder = Path(str(scrapy_soup.markup.__file__)).parent
    compiled = sorted(
        path.name.partition(".")[0]
        for path in folder.iterdir()
        if path.suffix in (".so", ".pyd")
    )
    if not compiled:
        return "pure Python"
    return f"compiled by mypyc (scrapy_soup.markup: {', '.join(compiled)})"


# -- the converters ------------------------------------------------------------
def ours(html: str) -> str:
    return to_markdown(html)


def markdownify_lxml(html: str) -> str:
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    return str(MarkdownConverter().convert_soup(BeautifulSoup(html, "lxml")))


def html_to_markdown(html: str) -> str:
    import html_to_markdown as h2m

    return str(h2m.convert(html).content)


def turbohtml_markdown(html: str) -> str:
    import turbohtml

    return str(turbohtml.parse_fragment(html).to_markdown())


CONVERTERS: dict[str, Callable[[str], str]] = {
    "scrapy_soup.to_markdown": ours,
    "markdownify (bs4 lxml)": markdownify_lxml,
    "html-to-markdown": html_to_markdown,
    "turbohtml": turbohtml_markdown,
}


# -- quality -----------------------------------------------------------------
def quality(pages: list[tuple[str, str]]) -> dict[str, dict[str, int]]:
    from test_markdown import RENDERER, raw_html_tokens, structure, words

    checks = ["words", "links+images", "counts", "no raw HTML", "all"]
    results = {name: dict.fromkeys(checks, 0) for name in CONVERTERS}
    for _, text in pages:
        cleaned = clean(page_part(text), base_url=BASE)
        want_words = words(cleaned)
        want = structure(cleaned)
        for name, convert in CONVERTERS.items():
            try:
                markdown = convert(cleaned)
            except Exception:
                continue
            rendered = RENDERER.render(markdown)
            got = structure(rendered)
            ok = {
                "words": to_text(rendered).split() == want_words,
                "links+images": got["links"] == want["links"]
                and got["images"] == want["images"],
                "counts": all(
                    got[k] == want[k] for k in want if k not in ("links", "images")
                ),
                "no raw HTML": not raw_html_tokens(markdown),
            }
            ok["all"] = all(ok.values())
            for key, passed in ok.items():
                results[name][key] += passed
    return results


# -- speed ---------------------------------------------------------------------
def _timed(fn: Callable[[str], Any]) -> Callable[[str], Callable[[], Any]]:
    return lambda text: lambda: fn(text)


def _tree_case(walk: Callable[[Any], Any]) -> Callable[[str], Callable[[], Any]]:
    # The same cleaned tree for both walks (made untimed).
    def prepare(text: str) -> Callable[[], Any]:
        tree = working_copy(text, None, None)
        return lambda: walk(tree)

    return prepare


def _html_text_full(html: str) -> str:
    import html_text

    return str(html_text.extract_text(html))


def _html_text_walk(tree: Any) -> str:
    import html_text

    return str(html_text.etree_to_text(tree))


def _pipeline(setting: str) -> Callable[[str], Callable[[], Any]]:
    """The add-on's pipelines (links, then cleaning) on a dict item whose
    ``body`` field is named by ``setting`` (``SOUP_HTML_FIELDS`` or
    ``SOUP_MARKDOWN_FIELDS``), as a crawl runs them."""
    from scrapy_helpers import ADDON_SETTINGS, make_crawler

    crawler = make_crawler(
        settings={**ADDON_SETTINGS, setting: ["body"], "SOUP_URL_FIELD": "url"}
    )
    from scrapy_soup import AbsoluteLinksPipeline, CleanHtmlPipeline

    stages = [AbsoluteLinksPipeline(crawler), CleanHtmlPipeline(crawler)]

    def prepare(html: str) -> Callable[[], Any]:
        def run() -> Any:
            item: Any = {"url": BASE, "body": html}
            for stage in stages:
                item = stage.process_item(item)
            return item

        return run

    return prepare


def speed_cases() -> list[Case]:
    return [
        Case("Markdown of a page's article", "scrapy_soup.to_markdown", _timed(ours)),
        Case(
            "Markdown of a page's article",
            "markdownify (bs4 lxml)",
            _timed(markdownify_lxml),
        ),
        Case(
            "Markdown of a page's article", "html-to-markdown", _timed(html_to_markdown)
        ),
        Case("Markdown of a page's article", "turbohtml", _timed(turbohtml_markdown)),
        Case(
            "Markdown, split",
            "cleaning as to_markdown does",
            _timed(lambda text: elements_copy(text, None, BASE)),
        ),
        Case(
            "Markdown, split",
            "cleaning in full (an HTML field's)",
            _timed(lambda text: working_copy(text, None, BASE)),
        ),
        Case(
            "Markdown, split",
            "conversion alone (markdown_of_element)",
            _tree_case(markdown_of_element),
        ),
        Case(
            "Markdown, split",
            "clean(html, base_url=...) (str to str)",
            _timed(lambda text: clean(text, base_url=BASE)),
        ),
        Case("text of a page's article", "scrapy_soup.to_text", _timed(to_text)),
        Case(
            "text of a page's article",
            "html-text extract_text",
            _timed(_html_text_full),
        ),
        Case(
            "text walk, same cleaned tree",
            "scrapy_soup text_of_element",
            _tree_case(text_of_element),
        ),
        Case(
            "text walk, same cleaned tree",
            "html-text etree_to_text",
            _tree_case(_html_text_walk),
        ),
        Case(
            "pipelines, one field",
            "exported as Markdown",
            _pipeline("SOUP_MARKDOWN_FIELDS"),
        ),
        Case("pipelines, one field", "exported as HTML", _pipeline("SOUP_HTML_FIELDS")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="10 pages, 2 rounds")
    args = parser.parse_args()
    pages = all_pages()
    real = [(name, page_part(text)) for name, text in real_pages()]
    rounds = args.rounds
    if args.quick:
        pages, real, rounds = pages[:10], real[:10], 2

    print(f"scrapy_soup {build()}\n")
    print(f"Quality on {len(pages)} corpus pages (article, else body), cleaned first:")
    results = quality(pages)
    checks = list(next(iter(results.values())))
    print(f"{'converter':28}" + "".join(f"{c:>14}" for c in checks))
    for name, counts in results.items():
        cells = "".join(
            f"{counts[c]:>7}/{len(pages)} {100 * counts[c] // len(pages):>3}%"[-14:]
            for c in checks
        )
        print(f"{name:28}{cells}")

    print(
        f"\nSpeed on {len(real)} real pages' articles, {rounds} rounds (median total):"
    )
    rows = measure(speed_cases(), real, rounds)
    by_workload: dict[str, list[Any]] = {}
    for row in rows:
        by_workload.setdefault(row.workload, []).append(row)
    for workload, group in by_workload.items():
        first = group[0]
        print(f"  {workload}")
        for row in group:
            ratio = row.value / first.value
            print(
                f"    {row.impl:30} {row.value * 1000:9.1f} ms  {ratio:6.2f}x of the first"
            )


if __name__ == "__main__":
    main()
