"""The soup tree: bs4's API over lxml, checked against bs4 itself."""

from __future__ import annotations

import copy
import io
import pickle

import bs4
import parsel
import pytest
from lxml import etree

import scrapy_soup
from scrapy_soup import (
    BeautifulSoup,
    Comment,
    Doctype,
    FeatureNotFound,
    NavigableString,
    Script,
    Soup,
    Tag,
)

ARTICLE = "<p>foo bar</p><p>baz<p>yet another graf</p>"
BOLD = '<b class="boldest">foo</b> bar <b class="bolder">baz</b>'


def both(markup: str, features: str = "lxml") -> tuple[Soup, bs4.BeautifulSoup]:
    """The same markup parsed by scrapy_soup and by bs4 (the oracle)."""
    return Soup(markup, features), bs4.BeautifulSoup(markup, features)


# -- the article's examples ------------------------------------------------------


def test_article_head_body_contents(capsys: pytest.CaptureFixture[str]) -> None:
    soup = BeautifulSoup(ARTICLE)
    print(soup.head)
    print(soup.body.contents)
    assert capsys.readouterr().out == (
        "None\n[<p>foo bar</p>, <p>baz</p>, <p>yet another graf</p>]\n"
    )


def test_article_class_is_a_list() -> None:
    soup = Soup(BOLD)
    assert soup.b["class"] == ["boldest"]


def test_article_set_and_delete_attributes() -> None:
    ours, theirs = Soup(BOLD), bs4.BeautifulSoup(BOLD, "lxml")
    for soup in (ours, theirs):
        soup.b["class"] = "waylessbold"
        soup.b["id"] = "first"
        del soup.b["id"]
        del soup.b["nonexistent"]
    assert str(ours.body) == str(theirs.body)
    assert str(ours.body) == (
        '<body><b class="waylessbold">foo</b> bar <b class="bolder">baz</b></body>'
    )


def test_article_img_attrs_replaced() -> None:
    markup = '<img src="a.png" alt="x" style="float: left">'
    ours, theirs = both(markup)
    for soup in (ours, theirs):
        img = soup.img
        img.attrs = {"height": 22, "width": 42, "src": img["src"]}
    assert (
        str(ours.img) == str(theirs.img) == '<img height="22" src="a.png" width="42"/>'
    )


def test_article_children_names_strings_give_none() -> None:
    ours, theirs = both(BOLD)
    assert [c.name for c in ours.body.children] == [
        c.name for c in theirs.body.children
    ]
    assert [c.name for c in ours.body.children] == ["b", None, "b"]


# -- parsing and features ----------------------------------------------------------


@pytest.mark.parametrize(
    ("features", "mode"),
    [
        (None, "html"),
        ("lxml", "html"),
        ("html", "html"),
        ("html.parser", "fragment"),
        ("fragment", "fragment"),
        ("xml", "xml"),
        ("lxml-xml", "xml"),
        (["lxml"], "html"),
    ],
)
def test_features(features: str | None, mode: str) -> None:
    assert Soup("<a>x</a>", features)._mode == mode


def test_unknown_feature_raises_like_bs4() -> None:
    with pytest.raises(bs4.FeatureNotFound) as theirs:
        bs4.BeautifulSoup("<a/>", "no-such-parser")
    with pytest.raises(FeatureNotFound) as ours:
        Soup("<a/>", "no-such-parser")
    assert isinstance(ours.value, ValueError) and isinstance(theirs.value, ValueError)
    assert "no-such-parser" in str(ours.value)


def test_fragment_mode_adds_no_html_body() -> None:
    soup = Soup("<p>a</p> <b>b</b>", "html.parser")
    assert str(soup) == "<p>a</p> <b>b</b>"
    assert soup.html is None and soup.body is None
    assert [c.name for c in soup.contents] == ["p", None, "b"]
    assert soup.p.parent is soup


def test_bytes_detect_meta_charset() -> None:
    data = '<meta charset="windows-1252"><p>caf\xe9</p>'.encode("cp1252")
    soup = Soup(data)
    assert soup.p.string == "caf\xe9"
    assert soup.original_encoding == "cp1252"


def test_bytes_bom_wins_and_from_encoding() -> None:
    assert Soup("\ufeff<p>\u0151</p>".encode("utf-8")).p.string == "\u0151"
    latin = "<p>\xe9</p>".encode("latin-1")
    assert Soup(latin, from_encoding="latin-1").p.string == "\xe9"


def test_file_object() -> None:
    assert Soup(io.StringIO("<p>x</p>")).p.string == "x"
    assert Soup(io.BytesIO(b"<p>y</p>")).p.string == "y"


def test_wraps_parsel_selector_without_reparsing() -> None:
    text = "<!DOCTYPE html><html><body><p class='a'>x</p></body></html>\n"
    selector = parsel.Selector(text=text)
    soup = Soup(selector)
    assert soup.p._el is selector.css("p")[0].root
    assert str(soup) == str(bs4.BeautifulSoup(text, "lxml"))
    soup.p["class"] = "changed"
    assert selector.css("p.changed")  # one tree: the selector sees the edit


def test_wraps_lxml_element_and_tree() -> None:
    root = etree.fromstring("<html><body><i>x</i></body></html>", etree.HTMLParser())
    assert Soup(root).i.string == "x"
    assert Soup(root.getroottree()).i.string == "x"


def test_bad_markup_type() -> None:
    with pytest.raises(TypeError):
        Soup(42)


def test_empty_documents() -> None:
    for features in ("lxml", "html.parser", "xml"):
        ours, theirs = Soup("", features), bs4.BeautifulSoup("", features)
        assert str(ours) == str(theirs)
        assert ours.contents == [] == theirs.contents


# -- the tree model --------------------------------------------------------------------


def test_identity_same_element_same_tag() -> None:
    soup = Soup(BOLD)
    assert soup.b is soup.b
    assert soup.b.next_sibling is soup.b.next_sibling
    assert soup.body.contents[0] is soup.b


def test_strings_know_their_place() -> None:
    soup = Soup("<p>a<b>b</b>c</p>")
    a, b, c = soup.p.contents
    assert isinstance(a, NavigableString) and a == "a" and a.parent is soup.p
    assert a.next_sibling is b and b.next_sibling == "c" and c.previous_sibling is b
    assert c.parent is soup.p and c.name is None
    assert a.next_element is b and b.next_element == "b"
    assert soup.b.string.parent is soup.b


def test_script_and_comment_classes() -> None:
    ours, theirs = both("<p>x<!-- c --></p><script>var a;</script>")
    assert [type(d).__name__ for d in ours.descendants] == [
        type(d).__name__ for d in theirs.descendants
    ]
    assert isinstance(ours.script.string, Script)
    assert isinstance(ours.p.contents[1], Comment)


def test_doctype_is_kept_only_when_present() -> None:
    assert isinstance(Soup("<!DOCTYPE html><p>x</p>").contents[0], Doctype)
    assert not isinstance(Soup("<p>x</p>").contents[0], Doctype)
    assert str(Soup("<p>x</p>")) == str(bs4.BeautifulSoup("<p>x</p>", "lxml"))


def test_multi_valued_attribute_lists_write_through() -> None:
    soup = Soup('<a rel="nofollow  ugc" class="x" href="/"><img rel="a b"></a>')
    assert soup.a["rel"] == ["nofollow", "ugc"]
    assert soup.img["rel"] == "a b"  # rel is a list on <a>, not on <img>
    soup.a["class"].append("y")
    assert soup.a._el.get("class") == "x y"
    classes = soup.a["class"]
    classes.remove("x")
    assert str(soup.a).startswith('<a class="y"')


@pytest.mark.parametrize("features", ["lxml", "xml"])
def test_attribute_values_converted_like_bs4(features: str) -> None:
    ours, theirs = both("<input/>", features)
    for soup in (ours, theirs):
        soup.input["size"] = 10
        soup.input["checked"] = True
        soup.input["disabled"] = None
        soup.input["x"] = ["a", "b"]
    assert str(ours.input) == str(theirs.input)


def test_get_and_friends() -> None:
    soup = Soup('<a href="/x" class="a b">t</a>')
    assert soup.a.get("href") == "/x"
    assert soup.a.get("nope", "d") == "d"
    assert soup.a.get_attribute_list("href") == ["/x"]
    assert soup.a.get_attribute_list("class") == ["a", "b"]
    assert soup.a.has_attr("href") and not soup.a.has_attr("id")
    assert dict(soup.a.attrs) == {"href": "/x", "class": ["a", "b"]}
    with pytest.raises(KeyError):
        soup.a["missing"]


def test_len_iter_contains_index() -> None:
    ours, theirs = both("<p>a<b>b</b>c<i>d</i></p>")
    assert len(ours.p) == len(theirs.p) == 4
    assert [str(x) for x in ours.p] == [str(x) for x in theirs.p]
    assert ours.b in ours.p
    assert ours.p.index(ours.i) == theirs.p.index(theirs.i) == 3
    with pytest.raises(ValueError):
        ours.p.index(ours.p)


def test_string_property() -> None:
    ours, theirs = both("<div><p><b>one</b></p><i>x</i>y</div>")
    assert ours.p.string == theirs.p.string == "one"
    assert ours.div.string is None and theirs.div.string is None


def test_strings_and_stripped_strings() -> None:
    markup = "<div> a <p>\n b </p><script>s</script><!--c--></div>"
    ours, theirs = both(markup)
    assert list(ours.div.strings) == list(theirs.div.strings)
    assert list(ours.div.stripped_strings) == list(theirs.div.stripped_strings)
    assert ours.script.get_text() == theirs.script.get_text() == "s"
    assert ours.get_text("|", strip=True) == theirs.get_text("|", strip=True)
    types = (NavigableString, Comment)
    assert ours.div.get_text(types=types) == theirs.div.get_text(
        types=(bs4.NavigableString, bs4.Comment)
    )


# Big enough (> 48 nodes) for get_text() to take the whole-subtree path.
_FILLER = "".join(f"<span>w{i}</span>\n  " for i in range(30))


@pytest.mark.parametrize(
    "inner",
    [
        "<p> a </p>\n  <p>b</p>",
        "<pre>\n  <b>x</b>\n  \n</pre>\n  <p>c</p>",
        "<textarea>  \n </textarea> <i> </i>",
        "<template><p>t</p> \n </template><p>d</p>",
        "<ruby>k<rp>(</rp><rt>r</rt><rp>)</rp></ruby>",
        "<script>s</script> <style>y</style>\n",
        "<pre> <template> </template> </pre> \t ",
    ],
)
def test_get_text_of_large_subtrees(inner: str) -> None:
    markup = f"<html><body><div>{_FILLER}{inner}\n  {_FILLER}</div></body></html>"
    ours, theirs = both(markup)
    for a, b in ((ours, theirs), (ours.div, theirs.div)):
        assert a.get_text() == b.get_text()
        assert a.get_text("|", strip=True) == b.get_text("|", strip=True)


def test_get_text_after_an_element_goes_into_a_script() -> None:
    markup = f"<html><body><div>{_FILLER}<script>s</script>\n \n{_FILLER}</div></body></html>"
    ours, theirs = both(markup)
    ours.script.append(ours.new_tag("b"))
    theirs.script.append(theirs.new_tag("b"))
    # A string keeps the class it was created with, as in bs4: one set in
    # a <script> by an edit is a NavigableString there, in get_text() ...
    ours.script.b.string = "inside"
    theirs.script.b.string = "inside"
    assert "inside" in ours.get_text()
    assert ours.get_text() == theirs.get_text()
    # ... and one created as script text is not.
    ours.script.b.string = scrapy_soup.Script("inside")
    theirs.script.b.string = bs4.element.Script("inside")
    assert "inside" not in ours.get_text()
    assert ours.get_text() == theirs.get_text()
    assert ours.div.get_text("|", strip=True) == theirs.div.get_text("|", strip=True)


@pytest.mark.parametrize("edit", ["rename", "wrap"])
def test_small_get_text_sees_a_container_put_around_by_an_edit(edit: str) -> None:
    # The soup remembers, per parent, whether a <pre> or a string container
    # is above it (`_text.parent_context`); an edit that renames a tag or
    # puts one in makes it forget.
    soup = Soup("<div><ul><li><b>a</b> \n <i>b</i></li></ul></div>")
    li = soup.li
    assert li.get_text() == "a\nb"
    if edit == "rename":
        soup.ul.name = "pre"
        assert li.get_text() == "a \n b"
    else:
        soup.ul.wrap(soup.new_tag("template"))
        assert li.get_text() == ""


def test_parents_and_siblings_match_bs4() -> None:
    markup = "<div><p>a</p>b<p>c<i>d</i></p><!--e--></div>"
    ours, theirs = both(markup)
    assert [p.name for p in ours.i.parents] == [p.name for p in theirs.i.parents]
    assert [str(s) for s in ours.p.next_siblings] == [
        str(s) for s in theirs.p.next_siblings
    ]
    last, their_last = ours.div.contents[-1], theirs.div.contents[-1]
    assert [str(s) for s in last.previous_siblings] == [
        str(s) for s in their_last.previous_siblings
    ]
    assert [str(x) for x in ours.i.next_elements] == [
        str(x) for x in theirs.i.next_elements
    ]
    assert [str(x) for x in ours.i.previous_elements] == [
        str(x) for x in theirs.i.previous_elements
    ]


def test_equality_is_structural_like_bs4() -> None:
    soup = Soup("<p><b>x</b></p><p><b>x</b></p><p><b>y</b></p>")
    first, second, third = soup.find_all("p")
    assert first == second and first is not second
    assert first != third
    assert first.b == Soup("<b>x</b>").b


def test_copy_and_pickle() -> None:
    soup = Soup("<p class='a'>x<b>y</b></p>")
    clone = pickle.loads(pickle.dumps(soup))
    assert str(clone) == str(soup)
    copied = copy.copy(soup)
    assert str(copied) == str(soup) and copied is not soup


def test_navigable_string_name_is_none_and_not_settable() -> None:
    s = Soup("<p>x</p>").p.string
    assert s.name is None
    with pytest.raises(AttributeError):
        s.name = "b"  # type: ignore[misc]
    with pytest.raises(TypeError):
        s["href"]


def test_dot_access_and_deprecated_tag_suffix() -> None:
    soup = Soup(BOLD)
    assert soup.body.b is soup.b
    assert soup.nosuchtag is None
    with pytest.warns(DeprecationWarning):
        assert soup.bTag is soup.b


def test_exports_are_sorted_and_importable() -> None:
    assert len(set(scrapy_soup.__all__)) == len(scrapy_soup.__all__)
    for name in scrapy_soup.__all__:
        assert getattr(scrapy_soup, name) is not None
    assert scrapy_soup.BeautifulSoup is Soup
    assert issubclass(Soup, Tag)


# -- output ------------------------------------------------------------------------------

OUTPUT_CASES = [
    BOLD,
    ARTICLE,
    "<p>a &amp; b &lt; c &gt; d \u00e9 \u2014 &nbsp;</p>",
    "<p title='say \"hi\"'>q</p><p title=\"it's\">r</p><p title='both \" and &#39;'>s</p>",
    "<pre>\n  keep   this\n</pre><textarea>  and  this </textarea><div>  \n  </div>",
    "<script>if (a < b && c > d) {}</script><style>a > b {}</style>",
    "<br><hr><img src=x><input value=1><p></p><col>",
    '<meta charset="iso-8859-1"><meta http-equiv="Content-Type" content="text/html; charset=gb2312">',
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"><html><body>x</body></html>',
    "<table><tr><td headers='a  b'>1</td></tr></table><!-- end -->",
    "<div><p>deep<b>er<i>est</i></b></p>\n\n<p>next</p></div>",
    "<p class=''>empty class</p><p class='  '>blank</p><option selected=>s</option>",
]


@pytest.mark.parametrize("markup", OUTPUT_CASES)
@pytest.mark.parametrize("formatter", ["minimal", "html", "html5", None])
def test_output_matches_bs4(markup: str, formatter: str | None) -> None:
    ours, theirs = both(markup)
    assert ours.decode(formatter=formatter) == theirs.decode(formatter=formatter)
    assert ours.prettify(formatter=formatter) == theirs.prettify(formatter=formatter)
    mine, their = ours.body or ours.html, theirs.body or theirs.html
    assert mine.decode_contents(formatter=formatter) == their.decode_contents(
        formatter=formatter
    )
    assert ours.encode("latin-1") == theirs.encode("latin-1")
    assert ours.prettify("utf-8") == theirs.prettify("utf-8")
    assert repr(mine) == repr(their)


def test_custom_formatter_objects() -> None:
    class Reversed(scrapy_soup.HTMLFormatter):
        def attributes(self, tag):  # type: ignore[no-untyped-def]
            return sorted(tag.attrs.items(), reverse=True)

    class TheirsReversed(bs4.formatter.HTMLFormatter):
        def attributes(self, tag):  # type: ignore[no-untyped-def]
            return sorted(tag.attrs.items(), reverse=True)

    markup = '<a id="1" href="/x" class="c d">t</a>'
    ours, theirs = both(markup)
    assert ours.a.decode(formatter=Reversed()) == theirs.a.decode(
        formatter=TheirsReversed()
    )
    indented_ours = ours.prettify(formatter=scrapy_soup.HTMLFormatter(indent=4))
    assert indented_ours == theirs.prettify(
        formatter=bs4.formatter.HTMLFormatter(indent=4)
    )
    assert ours.decode(formatter=str.upper) == theirs.decode(formatter=str.upper)


def test_empty_attributes_are_booleans() -> None:
    ours, theirs = both('<input disabled="" value="">')
    mine = scrapy_soup.HTMLFormatter(empty_attributes_are_booleans=True)
    theirs_fmt = bs4.formatter.HTMLFormatter(empty_attributes_are_booleans=True)
    assert ours.input.decode(formatter=mine) == theirs.input.decode(
        formatter=theirs_fmt
    )


def test_tags_pickle_as_detached_copies() -> None:
    soup = Soup("<div><p class='a b'>x<b>y</b></p></div>", base_url="https://e.com/a/")
    clone = pickle.loads(pickle.dumps(soup.p))
    assert clone._doc.base_url == "https://e.com/a/"
    assert str(clone) == str(soup.p) and clone is not soup.p
    assert clone["class"] == ["a", "b"]
    assert clone.parent is not None and clone.parent.name == "[document]"
    string = pickle.loads(pickle.dumps(soup.b.string))
    assert type(string) is NavigableString and string == "y"


@pytest.mark.parametrize(
    "text",
    [
        "x</html >y</Html>z",
        "</html>a</htmlx>",
        "</HTML>b</html>",
        "no end at all",
        "</html\n>",
        "</HTML >q</html5>",
        "<p>" + "x" * 70_000 + "</html>",
    ],
)
def test_last_html_end_finds_what_the_regex_finds(text: str) -> None:
    from scrapy_soup._tree._parse import _HTML_END, last_html_end

    for window in (0, 3):
        expected = None
        for expected in _HTML_END.finditer(text, window):  # noqa: B007
            pass
        found = last_html_end(text, window)
        assert (found and found.span()) == (expected and expected.span())


def test_reset_lets_go_of_the_old_trees_wrappers() -> None:
    soup = Soup("<p>a<b>c</b></p>")
    old = [n for n in soup.descendants if isinstance(n, Tag)]
    soup.reset()
    assert str(soup) == str(bs4.BeautifulSoup("", "lxml"))
    assert soup._doc._kept == {}
    list(soup.descendants)
    kept = soup._doc._kept.values()
    assert not any(k is tag for k in kept for tag in old)
