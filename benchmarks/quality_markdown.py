"""Markdown quality on a folder of real pages: the tests' checks, page by page.

The same checks as ``tests/test_markdown.py`` (rendered back by markdown-it-py,
CommonMark + tables): the words of the cleaned HTML in the same order, the
same link and image targets, the same number of headings, list items, table
cells and code blocks, and no raw HTML. Each page's ``<body>`` is cleaned
(links made absolute) and converted by ``to_markdown``; with ``--others``,
turbohtml, html-to-markdown and markdownify (over ``BeautifulSoup(html,
"lxml")``) convert the same cleaned HTML beside it.

The pages are not in the repository: point it at a folder of ``.html`` or
``.html.gz`` files, such as the 843 pages of trafilatura's evaluation set
(the repository's own corpus is the default)::

    python benchmarks/quality_markdown.py --pages PATH/TO/PAGES [--others]

It prints the pages passing each check, and the failing pages by check
(``--show N`` of each), so that a rare structure shows up with its page.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).parent))
from _corpus import CORPUS

from scrapy_soup import Soup, clean, to_markdown

BASE = "https://example.com/section/page.html"
CHECKS = ("words", "links", "counts", "no raw HTML")


def read_pages(folder: Path) -> list[tuple[str, str]]:
    """(name, text) of every ``.html``/``.html.gz`` page in ``folder``."""
    pages = []
    for path in sorted(folder.iterdir()):
        if path.name.endswith(".gz"):
            data = gzip.decompress(path.read_bytes())
        elif path.suffix in (".html", ".htm"):
            data = path.read_bytes()
        else:
            continue
        pages.append((path.name, data.decode("utf-8", "replace")))
    return pages


def body_of(text: str) -> str:
    soup = Soup(text)
    part = soup.body or soup.find("article")
    return str(part) if part is not None else ""


def converters(others: bool) -> dict[str, Callable[[str], str]]:
    found: dict[str, Callable[[str], str]] = {"scrapy_soup.to_markdown": to_markdown}
    if not others:
        return found
    try:
        import turbohtml

        found["turbohtml"] = lambda html: str(
            turbohtml.parse_fragment(html).to_markdown()
        )
    except ImportError:
        pass
    try:
        import html_to_markdown

        found["html-to-markdown"] = lambda html: str(
            html_to_markdown.convert(html).content
        )
    except ImportError:
        pass
    try:
        from bs4 import BeautifulSoup
        from markdownify import MarkdownConverter

        found["markdownify (bs4 lxml)"] = lambda html: str(
            MarkdownConverter().convert_soup(BeautifulSoup(html, "lxml"))
        )
    except ImportError:
        pass
    return found


def check(
    markdown: str, want_words: list[str], want: dict[str, object]
) -> dict[str, bool]:
    """The tests' checks of one page's Markdown against its cleaned HTML."""
    from test_markdown import RENDERER, raw_html_tokens, structure

    from scrapy_soup import to_text

    rendered = RENDERER.render(markdown)
    got = structure(rendered)
    return {
        "words": to_text(rendered).split() == want_words,
        "links": got["links"] == want["links"] and got["images"] == want["images"],
        "counts": all(got[k] == want[k] for k in want if k not in ("links", "images")),
        "no raw HTML": not raw_html_tokens(markdown),
    }


def main() -> None:
    from test_markdown import structure, words

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=Path, default=CORPUS / "pages")
    parser.add_argument("--others", action="store_true")
    parser.add_argument("--show", type=int, default=5)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    pages = read_pages(args.pages)
    if args.limit:
        pages = pages[: args.limit]
    if not pages:
        raise SystemExit(f"no pages in {args.pages}")
    convert = converters(args.others)
    passed = {name: dict.fromkeys((*CHECKS, "all"), 0) for name in convert}
    failed: dict[str, list[str]] = {c: [] for c in CHECKS}
    for name, text in pages:
        cleaned = clean(body_of(text), base_url=BASE)
        want_words, want = words(cleaned), structure(cleaned)
        for impl, fn in convert.items():
            try:
                ok = check(fn(cleaned), want_words, want)
            except Exception as exc:  # a converter that fails fails every check
                print(f"{impl} failed on {name}: {type(exc).__name__}: {exc}")
                ok = dict.fromkeys(CHECKS, False)
            ok["all"] = all(ok.values())
            for key, value in ok.items():
                passed[impl][key] += value
            if impl == "scrapy_soup.to_markdown":
                for key in CHECKS:
                    if not ok[key]:
                        failed[key].append(name)
    total = len(pages)
    print(f"Markdown quality on {total} pages of {args.pages} (body, cleaned first):")
    print(f"{'converter':26}" + "".join(f"{c:>16}" for c in (*CHECKS, "all")))
    for impl, counts in passed.items():
        cells = "".join(
            f"{counts[c]:>6}/{total} {100 * counts[c] / total:5.1f}%"[-16:].rjust(16)
            for c in (*CHECKS, "all")
        )
        print(f"{impl:26}{cells}")
    for key, names in failed.items():
        if names:
            shown = ", ".join(names[: args.show])
            print(f"to_markdown fails {key} on {len(names)}: {shown}")


if __name__ == "__main__":
    main()
