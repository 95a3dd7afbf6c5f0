"""`to_markdown`: GitHub-flavoured Markdown of cleaned HTML, checked by rendering it back.

No golden files: on every corpus page's article (or body), the Markdown is
rendered by markdown-it-py (CommonMark + tables) and the result compared
with the cleaned HTML it came from: the same words in the same order (both
read by `to_text`), the same absolute link and image targets, the same
number of headings, list items, table cells and code blocks, and no raw
HTML. The sanitizer's vectors go through it with a renderer that lets raw
HTML and every URL through, and nothing active comes out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import mistune
import pytest
from conftest import corpus_pages, corpus_params, read_page
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from markdown_it import MarkdownIt

from scrapy_soup import CleanPolicy, Soup, clean, to_markdown, to_text
from scrapy_soup.markup._convert import SKIPPED_TAGS
from scrapy_soup.markup.markdown import markdown_of_element

BASE = "https://example.com/dir/page.html"
DATA = Path(__file__).parent / "data" / "clean"
#: CommonMark with GFM tables, as the issue's acceptance check renders it.
RENDERER = MarkdownIt("commonmark", {"html": True}).enable("table")
#: mistune 3 with GFM tables and strikethrough, raw HTML let through.
MISTUNE = mistune.create_markdown(escape=False, plugins=["table", "strikethrough"])
#: Elements that make a table a layout table (its cells written as blocks).
LAYOUT = ["table", "ul", "ol", "li", "dl", "pre", "blockquote", "hr"] + [
    f"h{n}" for n in range(1, 7)
]
#: Elements that make a ``<pre>`` a container of blocks, not a code block.
NOT_IN_CODE = ["table", "dl", "ul", "ol", "menu", "dir"] + [
    f"h{n}" for n in range(1, 7)
]


def _in_code(node: Any) -> bool:
    """Whether ``node`` is inside a ``<pre>`` written as a code block."""
    return any(not pre.find(NOT_IN_CODE) for pre in node.find_parents("pre"))


def _url(url: str) -> str:
    # Browsers strip the whitespace around a URL and the tabs and newlines
    # in it (WHATWG URL parser); renderers percent-encode.
    return RENDERER.normalizeLink(re.sub("[\t\n\r]", "", url.strip(" \t\n\r\f")))


def structure(html: str) -> dict[str, Any]:
    """What the Markdown must keep of a fragment: targets and counts."""
    soup = Soup(html, "html.parser")
    # What a browser never shows (audio and video fallback, hidden), which
    # neither Markdown nor to_text keeps, and which the policy may keep.
    for never_shown in soup.find_all(SKIPPED_TAGS) + soup.find_all(hidden=True):
        never_shown.decompose()
    # A table's <tfoot> is shown after its body, wherever it is written.
    for foot in soup.find_all("tfoot"):
        if foot.parent is not None and foot.parent.name == "table":
            foot.parent.append(foot.extract())
    data_tables = [t for t in soup.find_all("table") if not t.find(LAYOUT)]
    return {
        # A link inside <pre> is code text in Markdown (a fenced block).
        "links": [
            _url(a["href"]) for a in soup.find_all("a", href=True) if not _in_code(a)
        ],
        "images": [_url(i["src"]) for i in soup.find_all("img", src=True)],
        "headings": len(soup.find_all(re.compile(r"^h[1-6]$"))),
        "list items": len(soup.find_all("li")),
        # GFM fills ragged rows with empty cells: the cells holding something.
        "table cells": sum(
            1
            for t in data_tables
            for c in t.find_all(["td", "th"])
            if c.get_text().strip() or c.find("img")
        ),
        "code blocks": sum(not pre.find(NOT_IN_CODE) for pre in soup.find_all("pre")),
    }


def words(html: str) -> list[str]:
    """The words the Markdown must keep: `to_text`'s, with every ``<details>``
    open (a closed one's body is content, which Markdown keeps)."""
    soup = Soup(html, "html.parser")
    for details in soup.find_all("details"):
        details["open"] = ""
    return to_text(str(soup)).split()


def raw_html_tokens(markdown: str) -> list[str]:
    """The raw HTML a CommonMark parser finds in ``markdown`` (none allowed)."""
    found = []
    for token in RENDERER.parse(markdown):
        if token.type == "html_block":
            found.append(token.content)
        for child in token.children or ():
            if child.type == "html_inline":
                found.append(child.content)
    return found


def page_part(path: Path) -> Any:
    soup = Soup(read_page(path), base_url=BASE)
    part = soup.find("article") or soup.body
    assert part is not None, path.name
    return part


@pytest.mark.parametrize("path", corpus_params(corpus_pages()), ids=lambda p: p.name)
def test_markdown_renders_back_to_the_cleaned_html(path: Path) -> None:
    part = page_part(path)
    cleaned = clean(str(part), base_url=BASE)
    markdown = to_markdown(part)  # the soup's base URL by default
    assert markdown == to_markdown(part, BASE)
    assert raw_html_tokens(markdown) == []
    rendered = RENDERER.render(markdown)
    assert to_text(rendered).split() == words(cleaned)
    assert structure(rendered) == structure(cleaned)


#: Classes of input that broke on real pages, each as small as it gets.
BROKE_ON_REAL_PAGES = {
    "cells outside a row": "<table><tbody><td>x</td><td>y</td></tbody></table>",
    "header cells outside a row": (
        "<table><thead><th>Name</th><th>Preis</th><th>Link</th></thead>"
        "<tbody><tr><td>a</td><td>1</td><td>b</td></tr></tbody></table>"
    ),
    "a pipe in code in a cell": (
        "<table><tr><th>h</th><th>k</th></tr>"
        "<tr><td><code>a|b</code></td><td>c</td></tr></table>"
    ),
    "pipes in code in a header cell": (
        "<table><tr><th><code>x||y</code></th><th>k</th></tr>"
        "<tr><td>1</td><td>c</td></tr></table>"
    ),
    "an empty first nested item": (
        "<ul><li>Multimedia<ul><li></li><li>Story</li></ul></li><li>News</li></ul>"
    ),
    "an empty first nested numbered item": (
        "<ol><li>Multimedia<ol><li></li><li>Story</li></ol></li><li>News</li></ol>"
    ),
    "items in a div in a list": "<ul><div><li>a</li><li>b</li></div><li>c</li></ul>",
    "items in a link in a list": '<ul><a href="/x"><li>a</li></a><li>b</li></ul>',
    "items in a cell": "<table><tr><td><li>a</li><li>b</li></td></tr></table>",
    "a list in a heading": "<h2><ul><li>a</li><li>b</li></ul></h2><p>c</p>",
    "items in a div": "<div><li>a</li> <li>b</li>after</div>",
    "a link around an image and a headline": (
        '<a href="/c"><img src="i.png" alt="i"><h3>Headline</h3><p>text</p></a>'
    ),
    "a link around paragraphs": '<a href="/c"><p>one</p><p>two [1]</p></a><p>x</p>',
    "a link holding text, then an empty block": (
        '<p><a href="#">EMBED</a><a href="/v">More Videos <div></div></a>next</p>'
    ),
    "a link holding text, then blocks": (
        '<a href="/p">Privacy</a><a href="/c">Contact<div><b>Name:</b> X</div></a>'
    ),
    "a span holding a link and an empty block": (
        '<ul><li><span>1</span><span><a href="/a">Story</a><div><div> </div></div>'
        "</span></li></ul>"
    ),
    "an empty heading in a link": '<a href="#"><h1> </h1></a><p>x</p>',
    "an empty pre in a span": "<p>a<span><pre></pre><div></div></span>b</p>",
    "a link in a link": (
        '<p><a href="/a">[News] Title <small>(<a href="/b">Author</a>)</small>'
        " more</a></p>"
    ),
    "bold in bold": "<h4><b><b>Label | 10/2021</b></b><strong>Title</strong></h4>",
    "a heading in a heading": "<h1><h2>Title</h2></h1><h2><h2>Sub</h2></h2>",
    "a rule in a list": "<ul><li>a</li><li><hr></li><li>b</li></ul>",
    "a results list laid out in a pre": (
        "<pre> <h3>Girls A</h3>\n <table>\n  <tr><td>1.</td><td>DJK Ellwangen</td>"
        "<td>53,09</td></tr>\n  <tr><td>2.</td><td>LG Staufeneck</td><td>53,84</td>"
        '</tr></table>\n <a href="/all">all results</a></pre><pre>code <a href="/x">'
        "kept</a></pre>"
    ),
    "a footer before the body": (
        "<table><thead><tr><th>h</th></tr></thead><tfoot><tr><td>foot</td></tr>"
        "</tfoot><tbody><tr><td>body</td></tr></tbody></table>"
    ),
}


@pytest.mark.parametrize(
    "html", BROKE_ON_REAL_PAGES.values(), ids=list(BROKE_ON_REAL_PAGES)
)
def test_what_broke_on_real_pages_renders_back(html: str) -> None:
    cleaned = clean(html, base_url=BASE)
    markdown = to_markdown(html, BASE)
    assert raw_html_tokens(markdown) == []
    for renderer in (RENDERER, MISTUNE):
        rendered = (
            renderer.render(markdown) if renderer is RENDERER else renderer(markdown)
        )
        if renderer is RENDERER:
            # mistune keeps the backslash of ``\|`` in a cell's code span.
            assert to_text(rendered).split() == words(cleaned), markdown
        assert structure(rendered) == structure(cleaned), markdown


def test_a_url_keeps_what_looks_like_an_entity_and_loses_tabs_and_newlines() -> None:
    # Browsers drop tabs and newlines inside a URL (WHATWG URL parser).
    # (mistune 3 writes the ``&`` of an href unescaped: not checked there.)
    html = '<a href="/x?a=1\t\t&amp;amp;b=2&#10;">x</a> <a href="/y?q=&amp;lt;">y</a>'
    markdown = to_markdown(html, BASE)
    assert "\t" not in markdown
    assert structure(RENDERER.render(markdown)) == structure(clean(html, base_url=BASE))


@pytest.mark.parametrize(
    ("html", "markdown"),
    [
        ("<ol reversed><li>a<li>b<li>c</ol>", "3. a\n2. b\n1. c"),
        ("<ol reversed start=10><li>a<li>b</ol>", "10. a\n9. b"),
        ("<ol><li value=5>a<li>b<li value=10>c</ol>", "5. a\n6. b\n10. c"),
        ("<ol start=3><li value=x>a<li>b</ol>", "3. a\n4. b"),
        (
            '<a href="/c"><img src="i.png" alt="i"><h3>Headline</h3><p>text</p></a>',
            "### [![i](https://example.com/dir/i.png) Headline]"
            "(https://example.com/c)\n\ntext",
        ),
        (
            '<a href="/c"><p>one</p><p>two [1]</p></a>',
            "[one\\\ntwo \\[1\\]](https://example.com/c)",
        ),
        (
            "<table><tfoot><tr><td>f</td></tr></tfoot><tr><td>b</td></tr></table>",
            "| b |\n| --- |\n| f |",
        ),
        ("<h2><ul><li>a</li></ul></h2>", "##\n\n- a"),
        ("<ul><li>a<ul><li></li><li>b</li></ul></li></ul>", "- a\n\n  -\n  - b"),
    ],
)
def test_order_numbering_and_links_around_blocks(html: str, markdown: str) -> None:
    assert to_markdown(html, BASE) == markdown


@pytest.mark.parametrize(
    ("text", "markdown"),
    [
        # Nothing CommonMark would read as syntax: written as it is.
        ("2.3 GB/s", "2.3 GB/s"),
        ("apache_builds", "apache_builds"),
        ("19.6.2007 and 2 * 3 = 6, a ~ b, C:\\Users, 1 < 2, x 1]", None),
        ("#hashtag", None),
        ("-5 °C", None),
        ("2007 was", None),
        # What it would read as syntax: escaped.
        ("2007. A year", "2007\\. A year"),
        ("# not a heading", "\\# not a heading"),
        ("- not an item", "\\- not an item"),
        ("---", "\\---"),
        ("_a_ *b* __init__", "\\_a\\_ \\*b\\* \\_\\_init\\_\\_"),
        ("a<b>", "a\\<b>"),
        ("[x]: /url", "\\[x]: /url"),
        ("x\\*", "x\\\\\\*"),
        ("|-|", "\\|-|"),
    ],
)
def test_only_what_would_be_syntax_is_escaped(text: str, markdown: str | None) -> None:
    from html import escape

    written = to_markdown(f"<p>{escape(text)}</p>")
    assert written == (text if markdown is None else markdown)
    assert to_text(RENDERER.render(written)) == text


def test_every_page_has_something_to_check() -> None:
    # The check above has teeth: the pages hold what it counts.
    totals: dict[str, int] = {}
    for path in corpus_pages("real"):
        for key, value in structure(clean(str(page_part(path)))).items():
            totals[key] = totals.get(key, 0) + (
                len(value) if isinstance(value, list) else value
            )
    assert all(count > 10 for count in totals.values()), totals


# -- what each construct becomes --------------------------------------------
@pytest.mark.parametrize(
    ("html", "markdown"),
    [
        ("<h3>T <em>x</em></h3>", "### T *x*"),
        ("<h2></h2>", "##"),
        ("<h1>C#</h1>", "# C#"),  # a closing sequence needs a space before it
        ("<h3>#</h3>", "### \\#"),
        ("<h2>Go to #</h2>", "## Go to \\#"),
        ("<p>a <em> b </em>c</p>", "a *b* c"),
        ("<p><b>Note:</b>text</p>", "Note:text"),  # ** would show
        ("<p><b>Note:</b> text</p>", "**Note:** text"),
        ("<p>x<b>.</b></p>", "x."),
        ("<p><em>a</em><em>b</em></p>", "*ab*"),
        ("<p><strong><em>both</em></strong></p>", "***both***"),
        # Adjacent asterisks are one delimiter run: its flanking is decided
        # by what is outside it (a symbol before ``***`` would not close).
        ("<p><i>\u2302</i><b>Home</b></p>", "\u2302**Home**"),
        ("<p><i>a</i><b>b</b></p>", "*a***b**"),
        ('<p>go<a href="/x"> here </a>now</p>', "go [here](https://example.com/x) now"),
        ('<p><a href="/x"></a></p>', "[](https://example.com/x)"),
        ('<p><a href="/a b(1)">x</a></p>', "[x](https://example.com/a%20b\\(1\\))"),
        (
            '<img src="i.png" alt="A [b]">',
            "![A \\[b\\]](https://example.com/dir/i.png)",
        ),
        (
            '<a href="/u"><img src="i.png" alt=""></a>',
            "[![](https://example.com/dir/i.png)](https://example.com/u)",
        ),
        ("<p>x<br>y<br></p>", "x\\\ny"),
        ("<p>a<br><br>b</p>", "a\\\n\\\nb"),
        ("<p>use <code>a`b</code></p>", "use ``a`b``"),
        ("<p><code>`x</code></p>", "`` `x ``"),
        ("<hr>", "---"),
        ("<ul><li>a<li>b</ul>", "- a\n- b"),
        ('<ol start="7"><li>a<li>b</ol>', "7. a\n8. b"),
        ("<ul><li>a<ul><li>b</ul></ul>", "- a\n  - b"),
        ("<ol><li>a<ol start=3><li>b</ol></ol>", "1. a\n\n   3. b"),
        ("<ul><li><p>a</p><p>b</p><li>c</ul>", "- a\n\n  b\n\n- c"),
        ("<ul><li>a</ul><ul><li>b</ul>", "- a\n\n* b"),
        ("<ol><li>a</ol><ol><li>b</ol>", "1. a\n\n1) b"),
        ("<ul>x<li>a</ul>", "x\n\n- a"),
        ("<ul><li></ul>", "-"),
        ("<blockquote><p>a</p><p>b</p></blockquote>", "> a\n>\n> b"),
        (
            '<pre><code class="language-python">if x:\n    y()</code></pre>',
            "```python\nif x:\n    y()\n```",
        ),
        ('<pre class="lang-js">a```b</pre>', "````js\na```b\n````"),
        ("<pre>a<br>b</pre>", "```\na\nb\n```"),
        (
            "<table><tr><th>a|b</th><th>c</th></tr><tr><td>1</td></tr></table>",
            "| a\\|b | c |\n| --- | --- |\n| 1 |",
        ),
        ("<table><tr><td><ul><li>x</ul></td><td>y</td></tr></table>", "- x\n\ny"),
        (
            '<a href="/b"><h2>Title</h2><p>text</p></a>',
            "## [Title](https://example.com/b)\n\ntext",
        ),
        (
            "<p>1. not a list</p><p># nor a heading</p>",
            "1\\. not a list\n\n\\# nor a heading",
        ),
        (
            "<p>- no\u00a0</p><p>+ no</p><p>== no</p>",
            "\\- no\u00a0\n\n\\+ no\n\n== no",
        ),
        (
            "<p>*a* _b_ `c` &lt;not&gt; a|b ~~d~~ \\</p>",
            "\\*a\\* \\_b\\_ \\`c\\` \\<not> a|b \\~\\~d\\~\\~ \\\\",
        ),
        ("<p>AT&amp;T &amp;amp; &amp;#60;</p>", "AT&T \\&amp; \\&#60;"),
        ("<p>Wow!<a href='/x'>x</a></p>", "Wow\\![x](https://example.com/x)"),
        ("<p>[x](javascript:alert(1))</p>", "\\[x](javascript:alert(1))"),
        (
            "<div>a<script>b()</script><style>c{}</style><template>d</template></div>",
            "a",
        ),
        ("<video>fallback</video>", ""),
        ("", ""),
    ],
)
def test_markdown_of(html: str, markdown: str) -> None:
    assert to_markdown(html, BASE) == markdown
    assert raw_html_tokens(markdown) == []


def test_the_code_language_is_read_before_cleaning_drops_the_class() -> None:
    html = '<pre><code class="hljs language-rust">fn x() {}</code></pre>'
    assert "class" not in clean(html)
    assert to_markdown(html).startswith("```rust\n")
    # markdown_of_element of a tree cleaned already has no class to read.
    cleaned = etree.fromstring(f"<div>{clean(html)}</div>")
    assert markdown_of_element(cleaned).startswith("```\n")


def test_the_input_is_never_changed() -> None:
    soup = Soup(
        '<div><a href="/x" onclick="y()">a</a><script>s()</script></div>',
        base_url="https://example.com/",
    )
    before = str(soup)
    assert to_markdown(soup.div) == "[a](https://example.com/x)"
    assert to_text(soup.div) == "a"
    assert str(soup) == before
    # A whole document: its body (the head is not content).
    assert to_markdown(soup) == "[a](https://example.com/x)"
    assert to_markdown(etree.fromstring("<p>e <b>x</b></p>")) == "e **x**"


def test_another_policy_cleans_first() -> None:
    html = '<p>a <img src="i.png" alt="i"> <a href="/x">b</a></p>'
    assert to_markdown(html, BASE, "strict") == "a [b](https://example.com/x)"
    assert to_text(html, "strict") == "a b"


def test_a_deep_tree_is_converted_without_recursion_errors() -> None:
    # Deeper than Python's default recursion limit, 1,000 (libxml2 stops at
    # 2,048 levels for a string; a soup rebuilds deeper trees, as in bs4).
    for depth in (1500, 5000):
        for wrapper in ("blockquote", "div", "em", "a", "ul", "li"):
            html = f"<{wrapper}>" * depth + "deep" + f"</{wrapper}>" * depth
            source = html if depth < 2000 else Soup(html)
            assert "deep" in to_markdown(source)
            assert to_text(source) == "deep"


# -- safety ----------------------------------------------------------------------
def _vectors() -> list[str]:
    suites = json.loads((DATA / "sanitizer_suites.json").read_text("utf-8"))["suites"]
    found = [v for suite in suites.values() for v in suite["vectors"]]
    found += json.loads((DATA / "xss_vectors.json").read_text("utf-8"))["vectors"]
    return found


VECTORS = _vectors()
#: A renderer that lets everything through: raw HTML and any link.
PERMISSIVE = MarkdownIt("commonmark", {"html": True}).enable("table")
PERMISSIVE.validateLink = lambda url: True
_SCRIPT_URL = re.compile(r"^(javascript:|vbscript:|data:text/html)", re.I)


def active_parts(html: str) -> list[str]:
    """Scripts, event handlers and script URLs in rendered HTML."""
    found = []
    root = etree.fromstring(f"<div>{html}</div>", etree.HTMLParser())
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag in ("script", "iframe", "object", "embed", "style"):
            found.append(el.tag)
        for name, value in el.attrib.items():
            if name.lower().startswith("on"):
                found.append(name)
            cleaned = re.sub(r"[\x00-\x20]", "", value)
            if _SCRIPT_URL.match(cleaned):
                found.append(value)
    return found


def test_there_are_vectors() -> None:
    assert len(VECTORS) > 500


@pytest.mark.parametrize("base_url", [None, BASE])
def test_sanitizer_vectors_give_inert_markdown(base_url: str | None) -> None:
    problems = []
    for vector in VECTORS:
        markdown = to_markdown(vector, base_url)
        found = raw_html_tokens(markdown)
        for rendered in (PERMISSIVE.render(markdown), MISTUNE(markdown)):
            assert isinstance(rendered, str)
            found += active_parts(rendered)
        if found:
            problems.append((vector, markdown, found))
    assert problems == []


def test_sanitizer_vectors_are_cleaned_before_they_are_text() -> None:
    # to_text() reads the tree clean() leaves: never text of a script,
    # a style or anything else the sanitizer removes.
    different = [v for v in VECTORS if to_text(v) != to_text(clean(v), None)]
    assert different == []


@pytest.mark.parametrize(
    ("dirty", "clean_"),
    [
        ("<p>a \x1d b</p>", "<p>a  b</p>"),
        (
            '<p><a href="java\x01script:alert(1)">x</a>\ufdd0</p>',
            '<p><a href="javascript:alert(1)">x</a></p>',
        ),
        ('<a href="/a\x01b">x</a>', '<a href="/ab">x</a>'),
    ],
)
def test_markdown_reads_as_if_the_forbidden_characters_were_never_there(
    dirty: str, clean_: str
) -> None:
    """The Markdown is checked, not the tree (as to_text does)."""
    assert to_markdown(dirty, BASE) == to_markdown(clean_, BASE)
    assert to_markdown(dirty) == to_markdown(clean_)


def _fully_cleaned_markdown(
    html: Any, base_url: str | None, policy: CleanPolicy | str | None = None
) -> str:
    """to_markdown with every attribute cleaned, not only those it reads."""
    from scrapy_soup.markup._convert import working_copy
    from scrapy_soup.markup.markdown import code_languages

    languages: dict[Any, str] = {}
    el = working_copy(
        html, policy, base_url, lambda copy: languages.update(code_languages(copy))
    )
    return markdown_of_element(el, languages)


#: Policies that decide the attributes the converter reads otherwise than
#: the default: presets, one dropping them, one refusing relative and
#: non-https URLs.
READ_POLICIES: list[CleanPolicy | str | None] = [
    None,
    "strict",
    "epub",
    CleanPolicy(
        drop_attributes={
            "*": frozenset({"hidden", "alt", "start", "reversed", "value"})
        }
    ),
    CleanPolicy(
        allowed_attributes={
            "*": frozenset({"hidden"}),
            "a": frozenset({"href"}),
            "img": frozenset({"src"}),
            "ol": frozenset({"start"}),
        },
        url_schemes=frozenset({"https"}),
        allow_relative_urls=False,
    ),
]


@pytest.mark.parametrize(
    "policy",
    READ_POLICIES,
    ids=["safe", "strict", "epub", "dropping-them", "https-absolute-only"],
)
def test_cleaning_only_the_attributes_read_changes_nothing_on_the_vectors(
    policy: CleanPolicy | str | None,
) -> None:
    # to_markdown decides the attributes it reads as it reads them (the
    # rest of the sanitizer's work is for HTML output): the same output as a full cleaning, on every vector,
    # with links made absolute and by every policy.
    vectors = [*VECTORS, *READ_CASES]
    for base_url in (None, BASE):
        different = [
            v
            for v in vectors
            if to_markdown(v, base_url, policy)
            != _fully_cleaned_markdown(v, base_url, policy)
        ]
        assert different == []


def test_cleaning_only_the_attributes_read_changes_no_text_on_the_vectors() -> None:
    from scrapy_soup.markup._convert import working_copy
    from scrapy_soup.markup.text import text_of_element

    different = [
        v for v in VECTORS if to_text(v) != text_of_element(working_copy(v, None, None))
    ]
    assert different == []


@pytest.mark.parametrize("path", corpus_params(corpus_pages()), ids=lambda p: p.name)
def test_cleaning_only_the_attributes_read_changes_nothing_on_the_pages(
    path: Path,
) -> None:
    part = page_part(path)
    for policy in READ_POLICIES:
        for base_url in (None, BASE):
            assert to_markdown(part, base_url, policy) == _fully_cleaned_markdown(
                part, base_url, policy
            )


#: What the attributes the converter reads can hold: script URLs, a
#: ``<base>`` (kept by no preset, checked as a link all the same), hidden
#: blocks, numbering, and a tree too deep to convert (read cleaned in full).
READ_CASES = [
    '<a href="javascript:alert(1)">x</a><img src="data:text/html,x" alt="a">'
    '<img src="data:image/png;base64,AA" alt="ok">',
    '<ol start="5" reversed><li value="9">a<li>b</ol><ol start="x"><li>c</ol>',
    "<p hidden>h</p><ul hidden><li>x</ul><font hidden>f</font><b hidden>b</b>",
    '<a href="">self</a><a href=" ">space</a><a href="#top">top</a>'
    '<a href="//cdn.example/x">cdn</a><img src="">',
    '<a href="http://plain.example/">http</a><a href="rel/x">rel</a>'
    '<a href="mailto:x@example.com">mail</a><a href="ftp://f.example/">ftp</a>',
    '<base href="javascript:x"><a href="rel/x">r</a>',
    '<base href="/dir/"><a href="rel/x">r</a><img src="i.png" alt="i">',
    "<div>" * 130 + '<a href="/x" hidden>deep</a>' + "</div>" * 130,
]


@pytest.mark.parametrize(
    "html",
    [
        "<div><ul><li>a</li></ul></div><div><ul><li>b</li></ul></div>",
        "<section><ol><li>a</li></ol></section><div><ol><li>b</li></ol></div>",
        "<ul><li>a</li></ul><div><div><ul><li>b</li></ul></div></div>",
    ],
)
def test_lists_in_blocks_next_to_each_other_stay_two_lists(html: str) -> None:
    # A block's paragraphs and blocks are written in its parent's flow, so
    # a list right after another (in the Markdown) takes the other marker,
    # in a <div> as anywhere: the same marker would make them one list.
    rendered = RENDERER.render(to_markdown(html))
    tag = "ol" if "<ol>" in html else "ul"
    assert rendered.count(f"<{tag}") == html.count(f"<{tag}>")
    assert to_text(rendered).split() == to_text(html).split()


def _tokens_as_collapsed(text: str) -> list[object]:
    """What `Inline.raw` adds, as the whitespace collapsed by the regex
    (HTML's ASCII whitespace) gives it: a space token at each end that had
    whitespace, the escaped words between."""
    from scrapy_soup.markup._inline import escape_text

    collapsed = re.sub(r"[ \t\n\r\f]+", " ", text)
    core = collapsed.strip(" ")
    if not core:
        return [" "] if collapsed else []
    return [
        *([" "] if collapsed[0] == " " else []),
        escape_text(core),
        *([" "] if collapsed[-1] == " " else []),
    ]


@given(st.text(alphabet=" \t\n\r\f\x0b\xa0\u2003a_*[&<#.é\ud800", max_size=12))
def test_inline_raw_collapses_as_the_regex(text: str) -> None:
    # raw() skips collapse() where no run needs it, and whitespace-only
    # text becomes one space token: the same tokens as collapsing first.
    from scrapy_soup.markup._inline import Inline

    inline = Inline()
    inline.raw(text)
    assert inline.tokens == _tokens_as_collapsed(text)
    assert inline.content == any(t != " " for t in inline.tokens)
