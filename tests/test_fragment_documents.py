"""The fragment mode keeps the ``<html>``, ``<head>`` and ``<body>`` written.

bs4's ``html.parser`` builder (the model of ``"fragment"``/``"html.parser"``)
keeps exactly the document tags the markup writes, where it writes them, and
adds none.  bs4 is the oracle: the same markup through both, compared as
output and as a tree.  Where html.parser and libxml2 build different trees
from broken markup, today's tree is pinned (README, "Differences from
Beautiful Soup").
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import bs4
import pytest
from conftest import corpus_pages, corpus_params, read_page
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_soup import Soup
from scrapy_soup._tree._fragment_scan import mark_document_tags, unmark_document_tags

PAGES = corpus_pages()
_SPACES = re.compile(r"\s+")


def _bs4(markup: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bs4's XMLParsedAsHTML and such
        return bs4.BeautifulSoup(markup, "html.parser")


def _bs4_output(markup: str) -> str:
    """bs4's output, less its ``Doctype`` (the fragment mode drops it: README)."""
    soup = _bs4(markup)
    for doctype in soup.find_all(string=lambda s: isinstance(s, bs4.Doctype)):
        doctype.extract()
    return str(soup)


def _shape(soup: Any) -> list[tuple[str, str | None, str]]:
    """Every node as (class, parent's name, text or name): the tree's shape."""
    return [
        (
            "Tag" if node.name else type(node).__name__,
            node.parent.name,
            node.name or str(node),
        )
        for node in soup.descendants
    ]


CASES = [
    "<html></html>",
    "<html><title>x</title></html>",
    "<head></head><p>x</p>",
    "<body>text<div>x</div></body>",
    "<html><head><title>t</title></head><body><p>y</p></body></html>",
    "<html>\n<head>\n<meta charset='utf-8'>\n<title>x</title>\n</head>\n"
    "<body>\n<p>y</p>\n</body>\n</html>\n<!--c-->\n",
    "\n<html>\n<head>\n<script>foo</script>\n</head>\n<body>\n <script>bar</script>\n"
    " <a></a>\n</body>\n<script>baz</script>\n</html>",
    '<html lang=en><body class="x y" onload=f()><p>a</html><p>after',
    "<head><link rel=x><style>a</style></head><p>x",
    "<p>a<body>b</body>c",
    "<html><html>x</html></html>",
    "<body><body>x</body></body>",
    "<BODY Class=x>y</BODY>z",
    "<table><tr><td>x</td></tr></table></body>",
    # Stray end tags are ignored (libxml2 dropped what followed its own).
    "<p>a</body>b",
    "<p>a</p></body></html>\n<p>b</p>",
    "x</html>y<b>z</b>",
    "<div>a</html>b</div>c",
    "<div>a</head>b</div>",
    # Where libxml2 reads text, the tags are text.
    "<!-- <body> --><script>'<body>'</script><body>x</body>",
    "<!--[if IE]><html class='ie'><![endif]--><html><body>x</body></html>\n",
    "<style>a</html></style><html>y",
    # html.parser leaves an element open at a stray end tag; libxml2 leaves
    # open one it ranks above an end tag it does not know.
    "<body><div></body><html>",
    "<body><div>a</body>b<p>c</p></div>d",
    "<html><body><table><tr><td>x</body>\n</html>\n",
    "<body><body><div>a</body>b</body>c",
    "<body><div><body>x</div></body>y",
    '<html><body title="</body>">x</body><p>y',
    '<a title="<body>">x</a>',
    '<a title="</body>">x</a>y',
    "<htmlx>a</htmlx><bodyguard>b</bodyguard><tbody>",
    "",
    "plain text",
    # What the scan steps over (_fragment_scan._DOCUMENT_TAG_SCAN): runs of "<",
    # runs of dashes ending a comment, raw text up to its end tag in any
    # case, quoted attribute values, tags of the raw-text elements' first
    # letters that are not raw-text elements, any case.
    "<<body>x</body>y",
    "a<<</body>b<html>",
    "<!-- a ---><body>x</body>",
    "<!-- a -- b --><BODY>x</BODY>",
    "<script>a<<</script><body>x</body>",
    "<SCRIPT>'</scripts>'</Script ><body>x</body>",
    "<textarea></textarea ><html>x",
    "<head><title>t</TITLE></head><p>x",
    "<html\n lang='a>b'><body>x</body></html>",
    '<body data-x="<body>">x</body>y',
    "<body>x</body y>z",
    "<p>a</p><Html><HEAD></head><bOdY>b</BODY></html>",
    "<s><i><n><x><p><t>a</t></p></x></n></i></s><body>b</body>",
    # A tag named as the fragment parse names them while libxml2 reads.
    "<scrapy-soup-written-body>x</scrapy-soup-written-body><body>y</body>",
    # Quotes in attribute names (HTML reads them as part of the name).
    '<html "="" id=""><p id="">x<html></html></p></html>y',
    '<body a\'b="c" d=e>x</body>z<body>',
    # A control character after an end tag (lxml would not set that text).
    "<head></html>\x1f",
    # An end tag inside a start tag, which libxml2 reads as attribute names
    # (the renamed name was left in the tree).
    "<p a=x </body>y",
    "<br a=x </body>y",
    "<div><img src=x </html>z</div>",
    # A comment or raw-text element's start in an attribute is no markup:
    # the document tags after it are tags (what follows them was lost).
    '<body><div title="<!--"></div><p>x</p></body><p>after</p>',
    '<body><a title="<script>">x</a></body><p>after</p>',
    "<body><i title='<style>'>y</i></body>z",
    '<p data-x="<iframe src=x>">q</p></body>z',
    "<body><p a=x<!-- >y</p></body>z",
    "<body><p a<!--b>y</p></body>z",
    "<body><a<!--b>y</a></body>z",
    '<body><div title="a>b<!--">q</div></body>z',
    '<body><scripts a="<!--">q</scripts></body>z',
    '<body>x<!-- <p title="-->"> --></body>y',
    # ... also where the value holds a tag before a ">" (an embed code).
    '<body><div title="<i>a>b<!--"></div><p>x</p></body><p>after</p>',
    '<div title="<i>a>b<!--"></div></body><p>after</p><!-- -->',
    '<body><div data-e="<p class=q>a</p><script>x"></div><p>x</p></body><p>b</p>',
    "<body><a title='<b>c</b> d>e<style>'>y</a></body>z",
    # A real comment or script holding a document tag: text.
    '<body><script>w("<body>")</script><p>x</p></body><p>after</p>',
    "<body><!-- <html></body> --><p>x</p></body>y",
]
#: Text lxml would not set (a control character libxml2 keeps) where an end
#: tag closes elements it did not close itself: parsed as if no document
#: tag were written.
AS_BEFORE = ["<body><div>a</body>\x1fb"]


@pytest.mark.parametrize("markup", CASES)
def test_same_as_html_parser(markup: str) -> None:
    soup, oracle = Soup(markup, "html.parser"), _bs4(markup)
    oracle.smooth()  # lxml keeps neighbouring strings as one (README)
    assert str(soup) == _bs4_output(markup)
    assert _shape(soup) == _shape(oracle)
    for name in ("html", "head", "body"):
        assert (getattr(soup, name) is None) == (getattr(oracle, name) is None)
        assert len(soup.find_all(name)) == len(oracle.find_all(name))


@pytest.mark.parametrize("markup", AS_BEFORE)
def test_text_lxml_refuses_to_move(markup: str) -> None:
    soup = Soup(markup, "html.parser")
    assert soup.find(["html", "head", "body"]) is None
    assert "\x1f" in soup.get_text()


def test_the_issue_examples() -> None:
    assert Soup("<html></html>", "html.parser").html is not None
    body = Soup("<body>text<div>x</div></body>", "html.parser").body
    assert body is not None and len(body.find_all()) == 1
    soup = Soup("<html><title>x</title></html>", "html.parser")
    assert soup.head is None and soup.title.parent is soup.html
    bare = Soup("<p>x</p>", "fragment")
    assert (bare.html, bare.head, bare.body) == (None, None, None)


def test_document_tags_are_tags_like_any_other() -> None:
    markup = '<html lang="en"><head><title>t</title></head><body><p>a</p></body></html>'
    soup = Soup(markup, "fragment")
    assert soup.contents == [soup.html]
    assert soup.html["lang"] == "en"
    assert soup.body.parent is soup.html
    assert soup.head.next_sibling is soup.body
    assert [t.name for t in soup.select("html > body > p")] == ["p"]
    assert soup.p.find_parent("body") is soup.body
    soup.head.decompose()
    assert str(soup) == '<html lang="en"><body><p>a</p></body></html>'
    soup.body.unwrap()
    assert str(soup) == '<html lang="en"><p>a</p></html>'


def test_parse_only_and_copies_keep_them() -> None:
    markup = "<html><body><p>a</p></body></html>"
    soup = Soup(markup, "html.parser")
    assert str(soup.__copy__()) == markup
    assert str(Soup(str(soup.body), "html.parser")) == "<body><p>a</p></body>"


_TEXT = st.sampled_from(
    ["x", " ", "\n", "<!-- c -->", "<br>", "<script>s</script>", "<title>t</title>"]
)
_NAMES = st.sampled_from(["html", "head", "body", "div", "span"])


@st.composite
def _element(draw: st.DrawFn, depth: int = 0) -> str:
    """An element with its children; a document tag's end tag sometimes left out."""
    name = draw(_NAMES)
    attrs = draw(st.sampled_from(["", " class='a b'", " lang=x"]))
    children = draw(
        st.lists(_TEXT | _element(depth + 1), max_size=3) if depth < 3 else st.just([])
    )
    # (A <div> left open in a <span> is one of libxml2's different trees.)
    ends = [f"</{name}>", ""] if name in ("html", "head", "body") else [f"</{name}>"]
    end = draw(st.sampled_from(ends))
    return f"<{name}{attrs}>{''.join(children)}{end}"


@settings(max_examples=300, deadline=None)
@given(st.lists(_TEXT | _element(), max_size=4))
def test_same_as_html_parser_generated(pieces: list[str]) -> None:
    markup = "".join(pieces)
    # Strings an ignored end tag split are one here, and one whitespace
    # string is read collapsed (README, "Adjacent strings").
    ours, theirs = str(Soup(markup, "html.parser")), _bs4_output(markup)
    assert _SPACES.sub(" ", ours) == _SPACES.sub(" ", theirs)


#: Pages where html.parser and libxml2 build different trees from the same
#: markup, both before and after this feature: a script whose text holds
#: ``<!--`` (html.parser ends it at the comment's ``</script>``), and an
#: ``<a>`` inside an ``<a>`` (libxml2 closes the first).
STRUCTURAL = {"comment-inside-script-parsing.html", "heise.html"}


@pytest.mark.parametrize("path", corpus_params(PAGES), ids=lambda p: p.name)
def test_corpus_pages_as_html_parser(path: Path) -> None:
    text = read_page(path)
    same = str(Soup(text, "html.parser")) == _bs4_output(text)
    assert same is (path.name not in STRUCTURAL)


def test_markup_without_document_tags_is_not_copied() -> None:
    data = b"<p>x</p><tbody><bodyguard>"
    assert mark_document_tags(data) == (data, 0, 0)
    assert mark_document_tags(b"<!-- <body> -->")[1:] == (0, 0)


@pytest.mark.parametrize(
    ("markup", "renamed"),
    [
        (b"<" * 5000 + b"<body>", (1, 0)),
        (b"<!--" + b"-" * 5000 + b"><body>", (1, 0)),
        (b"<!-->" + b"<body>", (1, 0)),
        (b"<!-- --!><body>-->", (0, 0)),
        (b"<script>" + b"<" * 5000 + b"</script><body>", (1, 0)),
        (b"<plaintext><body>", (0, 0)),
        (b"<!x <body>><?y <body>?></body>", (0, 1)),
        (b'<body a="x>"></body', (1, 0)),
        # A value holding a tag and ">" before "<!--" or "<script>": text.
        (b'<a title="<i>a>b<!--">x</a></body>', (0, 1)),
        (b'<a title="<i>a>b<script>">x</a><!-- <body> --></body>', (0, 1)),
        (b'<a title="<i>a>b<!--</body>">q</a>' * 2000 + b"</body>", (0, 1)),
    ],
)
def test_the_scan_reads_markup_as_it_is_written(
    markup: bytes, renamed: tuple[int, int]
) -> None:
    # The document tags found past long runs, each read once: a comment
    # ends at the first "-->" (not at "--!>", as the scan has always read
    # it), a declaration at the next ">", <plaintext> at the end.
    assert mark_document_tags(markup)[1:] == renamed


def test_a_tag_renamed_where_libxml2_reads_text_falls_back() -> None:
    marked, starts, ends = mark_document_tags(b'<a title="</body>">x</a>')
    assert (starts, ends) == (0, 1)
    soup = Soup(marked.decode(), "fragment")
    assert not unmark_document_tags(soup._el, starts, ends)
    # The soup parses the markup again as it is: the attribute is kept.
    assert Soup('<a title="</body>">x</a>', "fragment").a["title"] == "</body>"


def test_a_renamed_end_tag_read_as_attribute_names_is_never_output() -> None:
    # libxml2 reads "</body" in the <p> start tag as attribute names; the
    # mark after it is an element all the same. The markup is parsed again
    # as written (html.parser also keeps the <body> around it: not here).
    soup = Soup("<body><p a=x </body>y</p></body>", "fragment")
    assert "scrapy-soup-written" not in str(soup)
    assert str(soup.p) == str(_bs4("<body><p a=x </body>y</p></body>").p)


def test_libxml2_trees_pinned() -> None:
    # html.parser reads <body> inside <title> or <textarea> as a tag,
    # libxml2 as text; and a PI as a comment ending at the first ">".
    assert str(Soup("<title><body></title>x", "fragment")) == (
        "<title>&lt;body&gt;</title>x"
    )
    assert str(Soup("<textarea><body></textarea><html>y</html>", "fragment")) == (
        "<textarea>&lt;body&gt;</textarea><html>y</html>"
    )
    assert str(Soup("<?php echo '<body>' ?><body>x</body>", "fragment")) == (
        "<!--?php echo '<body-->' ?&gt;<body>x</body>"
    )
    # A document tag renamed inside another tag's attribute value: the
    # fragment is parsed as before, without its document tags.
    soup = Soup('<html><body>x<a title="</body>">y</a></body></html>', "fragment")
    assert str(soup) == 'x<a title="&lt;/body&gt;">y</a>'


# -- Python 3.10's scan ---------------------------------------------------------
# The one-pass scan needs possessive quantifiers (Python 3.11); 3.10 steps
# from tag to tag in Python (`_mark_by_steps`).  Both must mark the same.
_PIECES = [
    "<html>", "</html>", "<head>", "</head >", "<body class='x>y'>", "</BODY>",
    "<!--", "-->", "--!>", "<script>", "</script>", "<title>", "</title>", "<!x>",
    "<?p?>", "<p>", "text", " ", "<", ">", "'", '"', "<plaintext>", "<textarea>",
    "</textarea>", "<htmlx>", "</b", "<xmp>", "</xmp>", "<<", "---",
    '<div title="', "<a x=", "<i ", "=", "<?", "<!", "<i>a>b",
]  # fmt: skip


def _both_scans(data: bytes) -> tuple[Any, Any]:
    from scrapy_soup._tree import _fragment_scan

    steps = _fragment_scan._mark_by_steps(data, _fragment_scan.FRAGMENT_START)
    if _fragment_scan._DOCUMENT_TAG_SCAN is None:  # Python 3.10: the steps are the scan
        assert _fragment_scan._mark(data, _fragment_scan.FRAGMENT_START) == steps
        return steps, steps
    return _fragment_scan._mark(data, _fragment_scan.FRAGMENT_START), steps


@pytest.mark.parametrize("path", corpus_params(PAGES), ids=lambda p: p.name)
def test_the_310_scan_marks_corpus_pages_as_the_one_pass_scan(path: Path) -> None:
    one_pass, steps = _both_scans(path.read_bytes())
    assert one_pass == steps


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_the_310_scan_marks_markup_as_the_one_pass_scan(pieces: list[str]) -> None:
    one_pass, steps = _both_scans("".join(pieces).encode())
    assert one_pass == steps
