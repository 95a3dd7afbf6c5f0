"""`to_text`: the ``innerText`` of cleaned HTML, beside Zyte's html-text.

The rules are checked case by case; on the corpus pages, html-text run on
the very tree `to_text` reads gives the same characters (whitespace aside):
the two differ only in where they break lines and put spaces, as the
module's docstring lists.
"""

from __future__ import annotations

import json
from pathlib import Path

import html_text
import pytest
from conftest import corpus_pages, corpus_params, read_page
from hypothesis import given
from hypothesis import strategies as st

from scrapy_soup import CleanPolicy, Soup, clean, to_markdown, to_text
from scrapy_soup.markup._characters import has_forbidden
from scrapy_soup.markup._convert import WHITESPACE, collapse, working_copy
from scrapy_soup.markup.text import text_of_element


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("<p>a</p><p>b</p>", "a\n\nb"),
        ("<div>a</div><div>b</div>", "a\nb"),
        ("<h1>T</h1><p>x</p>", "T\n\nx"),
        ("<ul><li>a</li><li>b <b>c</b></li></ul>", "a\nb c"),
        ("a<br>b<br><br>c", "a\nb\n\nc"),
        ("x <br> y", "x\ny"),
        ("<span>a</span><span>b</span>", "ab"),  # as a browser: no space
        ("a  \n\t b", "a b"),
        ("<p> a <b> b </b> c </p>", "a b c"),
        ("<pre>  x\n    y </pre>", "  x\n    y "),
        ("<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>", "1\t2\n3"),
        ("<script>x()</script><style>p{}</style><template>t</template>ok", "ok"),
        ("<p>a<!-- c -->b</p>", "ab"),
        ("AT&amp;T &lt;p&gt;", "AT&T <p>"),
        ("<p>\u00a0a\u00a0</p>", "\u00a0a\u00a0"),
        ("", ""),
    ],
)
def test_text_of(html: str, text: str) -> None:
    assert to_text(html) == text


@pytest.mark.parametrize(
    ("html", "text"),
    [
        # A closed <details> shows its first <summary> only, as in a browser.
        (
            "<details><summary>Q</summary><p>answer</p>more</details>after",
            "Q\nafter",
        ),
        ("<details open><summary>Q</summary><p>answer</p></details>", "Q\n\nanswer"),
        ("<details>only body</details>x", "x"),
        (
            "<details><p>x</p><summary>one</summary><summary>two</summary></details>",
            "one",
        ),
        # HTML 4 wrote <tfoot> before the body; a browser shows it last.
        (
            "<table><thead><tr><th>h</th></tr></thead><tfoot><tr><td>f</td></tr>"
            "</tfoot><tbody><tr><td>b</td></tr></tbody></table>",
            "h\nb\nf",
        ),
        ("<table><tfoot><tr><td>f</td></tr></tfoot></table>", "f"),
    ],
)
def test_what_a_browser_does_not_show_or_shows_elsewhere(html: str, text: str) -> None:
    assert to_text(html) == text


def test_a_document_gives_its_body() -> None:
    html = "<html><head><title>T</title><style>x</style></head><body><p>b</p></body></html>"
    assert to_text(html) == "b"
    assert to_text(Soup(html)) == "b"


def test_a_policy_that_keeps_scripts_still_gives_no_text_of_them() -> None:
    keep_all = CleanPolicy(allowed_tags=None, remove_tags=frozenset())
    html = "<p>a</p><script>s()</script><template>t</template><video>v</video>"
    assert "<script>" in clean(html, keep_all)
    assert to_text(html, keep_all) == "a"
    assert to_markdown(html, policy=keep_all) == "a"


@pytest.mark.parametrize("path", corpus_params(corpus_pages()), ids=lambda p: p.name)
def test_the_same_characters_as_html_text_on_the_same_tree(path: Path) -> None:
    soup = Soup(read_page(path))
    part = soup.find("article") or soup.body
    assert part is not None
    tree = working_copy(part, None, None)
    ours = text_of_element(tree)
    theirs = html_text.etree_to_text(tree)
    assert "".join(ours.split()) == "".join(theirs.split())
    assert ours == to_text(part)


@pytest.mark.parametrize(
    ("dirty", "clean_"),
    [
        ("<p>a \x1d b</p>", "<p>a  b</p>"),
        ("<pre>a\x0c\x1db</pre>", "<pre>a b</pre>"),
        ("<p>x\ufdd0 y</p><p>\ufffe</p>", "<p>x y</p><p></p>"),
        (
            "<table><tr><td>\x1d</td><td>x</td></tr></table>",
            "<table><tr><td></td><td>x</td></tr></table>",
        ),
    ],
)
def test_text_reads_as_if_the_forbidden_characters_were_never_there(
    dirty: str, clean_: str
) -> None:
    """The text is checked, not the tree: one that holds them is read from a tree without them."""
    assert to_text(dirty) == to_text(clean_)
    assert to_text(Soup(dirty, "html")) == to_text(Soup(clean_, "html"))
    assert not has_forbidden(to_text(dirty))


# -- read without cleaning a copy ----------------------------------------------
# to_text reads the tree as the policy would clean it (elements removed
# skipped, elements unwrapped read as their content, `hidden`/`open` as kept)
# instead of cleaning a copy first. The oracle is the copy cleaned as before.
def _vectors() -> list[str]:
    data = Path(__file__).parent / "data" / "clean"
    suites = json.loads((data / "sanitizer_suites.json").read_text("utf-8"))["suites"]
    found = [v for suite in suites.values() for v in suite["vectors"]]
    found += json.loads((data / "xss_vectors.json").read_text("utf-8"))["vectors"]
    return found


#: A policy that unwraps and removes what the walk looks at: blocks, table
#: parts, <details>, <summary>; keeps `hidden` and `open`.
ODD_POLICY = CleanPolicy(
    allowed_tags=frozenset({"p", "b", "td", "th", "table", "details", "li", "ul"}),
    remove_tags=frozenset({"script", "style", "summary", "tbody"}),
    allowed_attributes={"*": ["hidden"], "details": ["open"]},
)
POLICIES = [None, "strict", "epub", ODD_POLICY]
POLICY_IDS = ["safe", "strict", "epub", "odd"]


def _cleaned_copy_text(html: object, policy: object) -> str:
    from scrapy_soup.markup.text import _READ

    return text_of_element(
        working_copy(html, policy, None, characters=False, read=_READ)  # type: ignore[arg-type]
    )


def _read_text(html: object, policy: object) -> str | None:
    from scrapy_soup.markup._policy import _cleaner, get_policy
    from scrapy_soup.markup.text import _read_as_cleaned

    return _read_as_cleaned(html, _cleaner(get_policy(policy)))  # type: ignore[arg-type]


@pytest.mark.filterwarnings("ignore::scrapy_soup.XMLParsedAsHTMLWarning")
@pytest.mark.parametrize("policy", POLICIES, ids=POLICY_IDS)
def test_reading_as_cleaned_is_the_text_of_a_cleaned_copy_on_the_vectors(
    policy: object,
) -> None:
    vectors = _vectors()
    read = 0
    for vector in vectors:
        for html in (vector, Soup(vector, "fragment")):
            got = _read_text(html, policy)
            if got is not None:
                read += 1
                assert got == _cleaned_copy_text(html, policy), vector
    # Nearly all read without a copy (the rest: see `_Reading`).
    assert read > 1.9 * len(vectors)


@pytest.mark.parametrize(
    "html",
    [
        "<table><tr><td>a</td><td>b</td><script>x</script></tr></table>",
        "<table><tr><td>a</td><!-- c --><td>b</td></tr></table>",
        "<table><tr><td>a</td><font><td>b</td></font></tr></table>",
        "<table><tfoot><tr><td>f</td></tr></tfoot><tbody><tr><td>b</td></tr></tbody></table>",
        "<table><tfoot><tr><td>f</td></tr></tfoot><script></script></table>",
        "<details><font><summary>S</summary></font>body</details>after",
        "<details open><summary>S</summary><font>body</font></details>",
        "<details><summary>S</summary><script>x</script>body</details>",
        "<p hidden>gone</p><div><span hidden>x</span>y</div>",
        "<center>a</center><section>b<dir><li>c</li></dir></section>",
        "a<!-- c -->b<?pi x?>c<textarea>t</textarea><title>T</title>",
        "<html><head><title>T</title></head><body><p>x</p></body></html>",
        "<pre>a <font>b\n  c</font>\n</pre>",
    ],
)
@pytest.mark.parametrize("policy", POLICIES, ids=POLICY_IDS)
def test_reading_as_cleaned_where_the_cleaning_changes_the_text(
    html: str, policy: object
) -> None:
    want = _cleaned_copy_text(html, policy)
    assert to_text(html, policy) == want  # type: ignore[arg-type]
    got = _read_text(html, policy)
    assert got is None or got == want


def test_reading_as_cleaned_falls_back_where_only_a_cleaned_copy_can_tell() -> None:
    # An element unwrapped between a table's rows, or in a closed <details>:
    # the cleaned tree's shape decides, a copy is cleaned.
    assert _read_text("<table><font><tr><td>a</td></tr></font></table>", None) is None
    assert _read_text("<details><font>x</font></details>", None) is None
    # Policies keeping comments or <style> read a cleaned copy too.
    assert _read_text("<p>a</p>", CleanPolicy(keep_comments=True)) is None
    assert to_text("<p>a<!--c-->b</p>", CleanPolicy(keep_comments=True)) == "ab"


@pytest.mark.parametrize("path", corpus_params(corpus_pages()), ids=lambda p: p.name)
def test_reading_as_cleaned_is_the_text_of_a_cleaned_copy_on_the_pages(
    path: Path,
) -> None:
    page = read_page(path)
    for html in (page, Soup(page)):
        got = _read_text(html, None)
        assert got is not None
        assert got == _cleaned_copy_text(html, None)


@given(
    st.text(alphabet=st.sampled_from(" \t\n\r\f\v\xa0\u2003\x1c\x85\x00aé中"))
    | st.text()
)
def test_collapse_is_the_whitespace_regex(text: str) -> None:
    # What the walks collapse text with: the same as the regex, HTML's
    # whitespace only (not U+00A0, \v, \x1c or other Unicode spaces).
    assert collapse(text) == WHITESPACE.sub(" ", text)


@pytest.mark.parametrize(
    ("text", "collapsed"),
    [
        ("", ""),
        (" \n\t", " "),
        ("a\n  b", "a b"),
        ("\ta\fb\r", " a b "),
        ("a\vb  c", "a\vb c"),
        ("\xa0a\u2003 b", "\xa0a\u2003 b"),
        ("é\n中", "é 中"),
        ("a\ud800 \n b", "a\ud800 b"),  # a lone surrogate: the regex's way
    ],
)
def test_collapse(text: str, collapsed: str) -> None:
    assert collapse(text) == collapsed
