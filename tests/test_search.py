"""Unit tests for the find_* family, SoupStrainer, ResultSet and the XPath compiler.

Every behaviour is checked against bs4 (the oracle) on small documents.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import bs4
import pytest

from scrapy_soup._tree import _xpath
from scrapy_soup._tree._soup import Soup
from scrapy_soup._tree._strainer import ResultSet, SoupStrainer

DOC = """<!DOCTYPE html><!--top--><html><head><title>T</title></head><body>
<p class="a  b" id="x">hi <b class="boldest">bold</b> tail</p>
<p class="a&#xa0;c">two</p>
<p class="b&#12288;d">three</p>
<a href="/x" rel="nofollow me">l</a><a href="http://e.com/">m</a><a>n</a>
<img rel="x y" src="i.png"><pre>  </pre>
<ul><li>1</li><li class="">2</li><li class="  ">3</li></ul><!--end-->
<o:p>w</o:p><div data-x="1"><span>s</span></div></body></html>
"""


def both(markup: str = DOC) -> tuple[Any, Any]:
    return Soup(markup, "lxml"), bs4.BeautifulSoup(markup, "lxml")


def shape(result: Any) -> Any:
    """A comparable description: class and text for strings; name, attrs, place for tags."""
    if isinstance(result, list):
        return [shape(r) for r in result]
    if result is None:
        return None
    if result.name is None:
        return (type(result).__name__, str(result))
    return (
        result.name,
        _attrs(result),
        [p.name for p in result.parents],
        _index(result),
    )


def _attrs(tag: Any) -> dict[str, Any]:
    return {
        k: (" ".join(v) if isinstance(v, list) else v) for k, v in tag.attrs.items()
    }


def _index(tag: Any) -> int:
    """Position among the siblings that are tags."""
    return sum(1 for s in tag.previous_siblings if s.name is not None)


QUERIES = [
    lambda s: s.find_all("p"),
    lambda s: s.find_all(class_="a"),
    lambda s: s.find_all(class_="c"),
    lambda s: s.find_all(class_="d"),
    lambda s: s.find_all(class_="a b"),
    lambda s: s.find_all(class_="a  b"),
    lambda s: s.find_all(class_=""),
    lambda s: s.find_all(class_=" "),
    lambda s: s.find_all(class_=True),
    lambda s: s.find_all(class_=re.compile("^b")),
    lambda s: s.find_all(rel="me"),
    lambda s: s.find_all(rel="x"),
    lambda s: s.find_all(rel="x y"),
    lambda s: s.find_all("a", href=re.compile(r"^/")),
    lambda s: s.find_all("a", href=None),
    lambda s: s.find_all(href=True, limit=0),
    lambda s: s.find_all("p", limit=0),
    lambda s: s.find_all("o:p"),
    lambda s: s.find_all(attrs={"data-x": True}),
    # From a tag that matches itself: its descendants only.
    lambda s: s.div.find_all(attrs={"data-x": True}),
    lambda s: s.p.find_all(class_="a"),
    lambda s: s.p.find_all(class_="boldest"),
    lambda s: s.body.find_all(class_="b"),
    # A limit on named tags with attributes: the walk stops at the limit.
    lambda s: s.find("p", class_="b"),
    lambda s: s.find("p", class_="a b"),
    lambda s: s.find_all("p", class_="a", limit=1),
    lambda s: s.find("a", href=True),
    lambda s: s.find("a", href="http://e.com/"),
    lambda s: s.find(["a", "img"], rel="x"),
    lambda s: s.find(["a", "img"], rel="me nofollow"),
    lambda s: s.find("a", attrs={"rel": ["me", "x"]}),
    lambda s: s.find("a", href=None),
    lambda s: s.find("li", class_=""),
    lambda s: s.find("p", id="x", class_="b"),
    lambda s: s.body.find("div", attrs={"data-x": "1"}),
    lambda s: s.div.find("div", attrs={"data-x": True}),
    lambda s: s.find_all(string="  "),
    lambda s: s.find_all(string=" "),
    lambda s: s.find_all(string="\n"),
    lambda s: s.find_all(string=re.compile(r"^\s+$")),
    lambda s: s.find_all(string=True),
    lambda s: s.find_all(string="top"),
    lambda s: s.find_all("p", string="two"),
    lambda s: s.find_all(lambda t: t.name == "li" and t.get("class") == []),
    lambda s: s.find_all(True, recursive=False),
    lambda s: s.body.find_all(True, recursive=False),
    lambda s: s.b.find_parents(),
    lambda s: s.b.find_all_previous(limit=3),
    lambda s: s.b.find_all_next("a"),
    lambda s: s.b.string.find_next("a"),
    lambda s: s.b.string.find_previous(string=True),
    lambda s: s.b.next_sibling.find_previous_sibling(),
    lambda s: s.li.find_next_siblings("li"),
    lambda s: s.find_all("li")[-1].find_previous_siblings(),
    lambda s: s.find(string="end").find_all_previous("li"),
    lambda s: s.find(string="end").find_next(True),
    lambda s: s.find(string="top").find_next("title"),
    lambda s: s.b.find_parent("body"),
    lambda s: s.find_all(["b", re.compile("^sp")]),
    lambda s: s.find_all([]),
    lambda s: [s.b, s.body.ul.li, s.head.title, s.nonexistent],
]


@pytest.mark.parametrize("index", range(len(QUERIES)))
def test_matches_bs4(index: int) -> None:
    ours, theirs = both()
    assert shape(QUERIES[index](ours)) == shape(QUERIES[index](theirs))


@pytest.mark.parametrize(
    "search",
    [
        lambda s: s.find_all(class_="\ud800"),
        lambda s: s.find_all("p", class_="\ud800"),
        lambda s: s.find(class_="\ud800"),
        lambda s: s.find("p", class_="\ud800"),
        lambda s: s.find_all(id="\ud800"),
        lambda s: s.find(attrs={"title": "\ud800"}),
        lambda s: s.find("\ud800"),
        lambda s: s.find(string="\ud800"),
        lambda s: s.find_all(["b", "\ud800"]),
        lambda s: s.find_all(string=["y", "\ud800"]),
        lambda s: s.find_all(class_=["a", "\ud800"]),
    ],
)
def test_values_libxml2_cannot_take(search: Any) -> None:
    """A lone surrogate: no tag or string holds it (libxml2 would refuse it
    in an XPath, and raised UnicodeEncodeError): bs4's answer, nothing."""
    ours, theirs = both()
    assert [str(x) for x in search(ours) or []] == [
        str(x) for x in search(theirs) or []
    ]


def test_attribute_on_any_tag_many_results() -> None:
    """Thousands of tags with the attribute or the class: every one, in order
    (the attribute walk must not dedup its results, a quadratic step)."""
    row = '<div data-x="{0}" class="c x{0}"><a class="c" data-x="{0}">{0}</a></div>'
    markup = (
        "<html><body>" + "".join(row.format(i) for i in range(3000)) + "</body></html>"
    )
    ours, theirs = both(markup)
    for query in (
        lambda s: s.find_all(attrs={"data-x": True}),
        lambda s: s.find_all(class_="c"),
        lambda s: s.body.find_all(class_="x7"),
    ):
        assert [str(t) for t in query(ours)] == [str(t) for t in query(theirs)]


@pytest.mark.parametrize(
    "value", ["a", "b", "y", "a b", "x y", "a\u2003b", "ab", "a\xa0"]
)
def test_class_split_on_all_of_pythons_whitespace(value: str) -> None:
    # XPath's normalize-space() splits on 4 characters, bs4 on every
    # str.isspace() one: the compiled token test must fall back to bs4's.
    markup = "".join(
        f'<p class="{c}">{i}</p>'
        for i, c in enumerate(
            ["a\u2003b", "x&#12;y", "a&#xa0; b", "ab  a", "a\u3000b\u00a0", " y\tx "]
        )
    )
    ours, theirs = both(markup)
    assert shape(ours.find_all(class_=value)) == shape(theirs.find_all(class_=value))
    assert shape(ours.find_all("p", class_=[value, "zz"])) == shape(
        theirs.find_all("p", class_=[value, "zz"])
    )


@pytest.mark.parametrize("features", ["lxml", "xml"])
@pytest.mark.parametrize(
    "search",
    [
        lambda s: s.find_all("a", href=re.compile(r"^https?://")),
        lambda s: s.find_all("a", href=re.compile(r"^https?://"), limit=2),
        lambda s: s.find("a", href=re.compile("x")),
        lambda s: s.find_all(href=re.compile("/"), title=re.compile("T")),
        lambda s: s.find_all("a", rel=re.compile("^no")),  # multi-valued in HTML
        lambda s: s.find_all("a", rel=re.compile("^nofollow ext")),
        lambda s: s.find_all(href=re.compile("^$")),
    ],
)
def test_regex_attribute_filters(features: str, search: Any) -> None:
    # A single-valued attribute with one regex is tested on lxml's raw value;
    # multi-valued ones (rel) keep bs4's token-then-joined rule.
    markup = (
        '<r><a href="http://x/1" rel="nofollow ext">1</a><a href="/2" title="T">2</a>'
        '<a href="https://x/3">3</a><a>4</a><a href="">5</a>'
        '<b href="http://y" rel="no">6</b><a href="http://z" rel="ext nofollow">7</a></r>'
    )
    ours = Soup(markup, features)
    theirs = bs4.BeautifulSoup(markup, features)
    assert [str(t) for t in _listed(search(ours))] == [
        str(t) for t in _listed(search(theirs))
    ]


def _listed(result: Any) -> list[Any]:
    return (
        [] if result is None else list(result) if isinstance(result, list) else [result]
    )


def test_article_examples() -> None:
    """The LWN article's examples, verbatim."""
    markup = '<p><b class="x">one</b><a href="/a">a</a><a href="http://x/b">b</a></p>'
    soup = Soup(markup, "lxml")
    for b in soup.find_all("b"):
        b["class"] = "justbold"
    for a in soup.find_all("a", href=re.compile(r"^/")):
        a["href"] = "http://lwn.net%s" % a["href"]  # noqa: UP031 (the article's code)
    assert str(soup.b) == '<b class="justbold">one</b>'
    assert soup.find_all("a", href=True)[0]["href"] == "http://lwn.net/a"
    assert len(soup.find_all("a", limit=1)) == 1
    assert soup.body.find_all(True, recursive=False)[0].name == "p"


def test_result_set() -> None:
    soup = Soup(DOC, "lxml")
    found = soup.find_all("p")
    assert isinstance(found, ResultSet) and isinstance(found.source, SoupStrainer)
    with pytest.raises(AttributeError, match="find_all\\(\\) when you meant"):
        found.foo  # noqa: B018
    assert soup("p") == found
    assert soup.b is soup.find("b")


def test_strainer_as_name_and_aliases() -> None:
    ours, theirs = both()
    assert shape(ours.find_all(SoupStrainer("a", href=True))) == shape(
        theirs.find_all(bs4.SoupStrainer("a", href=True))
    )
    with pytest.warns(DeprecationWarning, match="findAll"):
        assert shape(ours.findAll("li")) == shape(theirs.find_all("li"))
    with pytest.warns(DeprecationWarning, match="'text' argument"):
        assert ours.find_all(text="two") == ["two"]


def test_bad_input() -> None:
    soup = Soup(DOC, "lxml")
    with pytest.raises(TypeError, match="limit"):
        soup.find_all("p", limit="2")
    assert soup.find_all(width=100) == []
    assert soup.find_all(attrs={"\x00bad": "x"}) == []
    assert soup.find_all(id="\x0c\x00") == []
    with pytest.raises(TypeError):
        soup.find_all(re.compile(b"p"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert soup.find_all(["p", ["q"]]) == soup.find_all("p")


def test_xpath_cache_is_bounded() -> None:
    soup = Soup(DOC, "lxml")
    for i in range(_xpath._XPATHS.maxsize + 10):
        soup.find_all(f"x{i}")
    assert len(_xpath._XPATHS.data) <= _xpath._XPATHS.maxsize


def test_literal_quoting() -> None:
    ours, theirs = both('<p title="a\'b&quot;c">x</p><p title="plain">y</p>')
    assert shape(ours.find_all(title="a'b\"c")) == shape(
        theirs.find_all(title="a'b\"c")
    )
    assert _xpath.literal("a\x00") is None


def test_a_search_repeated_with_other_arguments_or_trees() -> None:
    # Strainers and plans are cached by the call's plain arguments
    # (`_search._call_key`): a repeat with a limit, on an XML soup, with a
    # list changed since, or with a value of another type finds its own.
    html = Soup("<p class='a b'>1</p><p class=b x=1>2</p><P x=True>3</P>")
    xml = Soup("<r><p class='a b'>1</p><P>3</P></r>", "xml")
    names = ["p"]
    for _ in range(2):
        assert [t.text for t in html.find_all("p")] == ["1", "2", "3"]
        assert [t.text for t in xml.find_all("p")] == ["1"]
        assert [t.text for t in html.find_all("p", limit=1)] == ["1"]
        assert [t.text for t in html.find_all(names)] == ["1", "2", "3"]
        assert [t.text for t in html.find_all(class_=["a"])] == ["1"]
        assert [t.text for t in html.find_all(x=True)] == ["2", "3"]
        assert [t.text for t in html.find_all(x="True")] == ["3"]
        assert [t.text for t in html.find_all(x=re.compile("1"))] == ["2"]
        assert [t.text for t in html.find_all(attrs={"x": re.compile("T")})] == ["3"]
        names.append("r")
        names.remove("p")
        assert html.find_all(names) == []
        names[:] = ["p"]


@pytest.mark.parametrize(
    ("pattern", "prefix"),
    [
        ("^https?://", "http"),
        (r"\Ahttps://", "https://"),
        ("^a+b", "a"),
        ("^ab*", "a"),
        (r"^a\.b\d", "a.b"),
        ("^a{2}", ""),
        ("^(ab)", ""),
        ("https", ""),
        ("^a|b", ""),
    ],
)
def test_anchored_prefix(pattern: str, prefix: str) -> None:
    assert _xpath.anchored_prefix(re.compile(pattern)) == prefix
    assert _xpath.anchored_prefix(re.compile(pattern, re.I | re.M)) == ""


def test_a_regex_with_a_literal_prefix_finds_what_bs4_finds() -> None:
    markup = (
        '<a href="http://a">1</a><a href="https://b">2</a><a href="/c">3</a>'
        '<a href="httpx">4</a><a class="http x">5</a><a href="\nhttp://d">6</a>'
    )
    ours, theirs = both(markup)
    for kwargs in [
        {"href": re.compile("^https?://")},
        {"href": re.compile("^http")},
        {"href": [re.compile("^https://"), re.compile("^/")]},
        {"href": re.compile("^http", re.M)},
        {"class_": re.compile("^http")},
    ]:
        assert shape(ours.find_all("a", **kwargs)) == shape(
            theirs.find_all("a", **kwargs)
        )
