"""Every spider example of the README and docs/ keeps every item on the corpus pages.

The examples are read from the Markdown itself: each ```python code block
(doctest blocks too) that defines a ``scrapy.Spider`` subclass, or callbacks
``def parse...(self, response)`` on their own (then put in a spider class).
Each example crawls every corpus page, served locally, through the add-on,
once per callback it defines. The requests the callbacks make are counted
and dropped (they would leave the corpus), so each callback runs on real
pages and nothing else. A callback must run to its end on every page (no
exception: an exception loses the items it had not yielded yet), and a
callback that yields an item unconditionally (``yield {...}`` in its body,
outside any loop or ``if``) yields it on every page: items == pages.
"""

from __future__ import annotations

import ast
import doctest
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import corpus_pages
from scrapy_helpers import ADDON_SETTINGS, REPO_DIR, PageServer, run_crawl

DOCS = [REPO_DIR / "README.md", *sorted((REPO_DIR / "docs").glob("*.md"))]

_FENCE = re.compile(r"^```(?:python|py|pycon)\s*\n(.*?)^```", re.M | re.S)


@dataclass
class Example:
    """One spider example: where it is, its module source, its callbacks."""

    where: str
    source: str
    spider: str
    #: Callback name -> items it yields unconditionally on each page.
    callbacks: dict[str, int]


def _code_of(block: str) -> str:
    if ">>>" not in block:
        return block
    examples = doctest.DocTestParser().get_examples(block)
    return "".join(example.source for example in examples)


def _is_spider_class(node: ast.stmt) -> bool:
    return isinstance(node, ast.ClassDef) and any(
        ast.unparse(base).split(".")[-1].endswith("Spider") for base in node.bases
    )


def _is_callback(node: ast.stmt) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    names = [arg.arg for arg in node.args.args]
    return node.name.startswith("parse") and names[:2] == ["self", "response"]


def _items_per_page(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """``yield {...}`` statements in the body itself (not in a loop, an if...)."""
    return sum(
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Yield)
        and isinstance(statement.value.value, ast.Dict)
        for statement in function.body
    )


def _example(where: str, code: str) -> Example | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    classes = [n for n in tree.body if _is_spider_class(n)]
    bare = [n for n in tree.body if _is_callback(n)]
    if classes:
        spider = classes[-1]
        assert isinstance(spider, ast.ClassDef)
        others = [
            n
            for n in tree.body
            if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        ]
        source = "\n".join(ast.unparse(n) for n in [*imports, *others])
        methods = [n for n in spider.body if _is_callback(n)]
        name = spider.name
    elif bare:
        body = textwrap.indent("\n".join(ast.unparse(n) for n in bare), "    ")
        source = "\n".join(
            [
                *(ast.unparse(n) for n in imports),
                "import scrapy",
                "class DocSpider(scrapy.Spider):",
                "    name = 'doc'",
                body,
            ]
        )
        methods = bare
        name = "DocSpider"
    else:
        return None
    callbacks = {
        m.name: _items_per_page(m)
        for m in methods
        if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    return Example(where, source, name, callbacks)


def spider_examples() -> list[Example]:
    """Every spider example of the README and docs/*.md."""
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            example = _example(f"{doc.name}:{line}", _code_of(match.group(1)))
            if example is not None:
                found.append(example)
    return found


# Wraps each callback of the example: its requests are counted and dropped,
# its items counted and passed on, and a callback that ran to its end counted.
HARNESS = """

import inspect as _inspect

import scrapy as _scrapy


def _counted(spider, name, value):
    stats = spider.crawler.stats
    if isinstance(value, _scrapy.Request):
        stats.inc_value("doc/requests")
        if not value.url.startswith(("http://", "https://")):
            stats.inc_value("doc/requests_not_http")
        return False
    stats.inc_value(f"doc/items/{name}")
    return True


def _wrapped(name, callback):
    if _inspect.isasyncgenfunction(callback):

        async def run(self, response, **kwargs):
            async for value in callback(self, response, **kwargs):
                if _counted(self, name, value):
                    yield value
            self.crawler.stats.inc_value(f"doc/done/{name}")

    else:

        def run(self, response, **kwargs):
            for value in callback(self, response, **kwargs) or ():
                if _counted(self, name, value):
                    yield value
            self.crawler.stats.inc_value(f"doc/done/{name}")

    return run


class Harness({spider}):
    name = "doc_harness"

    def __init__(self, page_urls="", callbacks="", **kwargs):
        super().__init__(**kwargs)
        self.page_urls = page_urls.split()
        self.callback_names = callbacks.split()

    async def start(self):
        for name in self.callback_names:
            for url in self.page_urls:
                yield _scrapy.Request(
                    url, callback=getattr(self, name), dont_filter=True
                )


for _name in {callbacks!r}:
    setattr(Harness, _name, _wrapped(_name, getattr({spider}, _name)))
"""

EXAMPLES = spider_examples()


def test_the_docs_have_spider_examples() -> None:
    # The README's quick start at least: a test that finds none fails.
    assert any(e.where.startswith("README.md") for e in EXAMPLES), EXAMPLES
    assert len(EXAMPLES) >= 3, [e.where for e in EXAMPLES]


@pytest.fixture(scope="module")
def corpus_server() -> PageServer:
    with PageServer({}) as server:
        yield server


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.where)
def test_a_doc_spider_keeps_every_item_on_the_corpus(
    example: Example,
    corpus_server: PageServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = tmp_path / "modules" / "doc_example.py"
    module.parent.mkdir()
    module.write_text(
        example.source
        + HARNESS.replace("{spider}", example.spider).replace(
            "{callbacks!r}", repr(list(example.callbacks))
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("PYTHONPATH", str(module.parent))
    pages = [corpus_server.url(f"/corpus/{p.name}") for p in corpus_pages()]
    result = run_crawl(
        tmp_path / "crawl",
        "doc_example:Harness",
        ADDON_SETTINGS,
        page_urls=" ".join(pages),
        callbacks=" ".join(example.callbacks),
    )
    stats = result.stats
    assert not stats.get("spider_exceptions/count"), result.log[-3000:]
    for name, per_page in example.callbacks.items():
        assert stats.get(f"doc/done/{name}") == len(pages), (example.where, name)
        if per_page:
            assert stats.get(f"doc/items/{name}") == per_page * len(pages), name
    assert stats.get("item_scraped_count", 0) == len(result.items)
    # The links followed were all web links (mailto:, javascript: skipped).
    assert not stats.get("doc/requests_not_http"), example.where
