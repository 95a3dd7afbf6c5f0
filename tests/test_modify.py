"""Tree editing: the article's examples, bs4's errors, string objects, the lxml view."""

from __future__ import annotations

import copy
from typing import Any

import bs4
import pytest
from conftest import needs_soupsieve_4
from lxml import etree

from scrapy_soup import Comment, NavigableString, Soup, Tag

ARTICLE = (
    '<html><body><b class="boldest">foo</b> bar <b class="bolder">baz</b></body></html>'
)


def both(markup: str = ARTICLE) -> tuple[Soup, bs4.BeautifulSoup]:
    return Soup(markup), bs4.BeautifulSoup(markup, "lxml")


# -- the article, verbatim ------------------------------------------------------


def test_article_set_class() -> None:
    for soup in both():
        soup.b["class"] = "waylessbold"
        assert str(soup.body) == (
            '<body><b class="waylessbold">foo</b> bar <b class="bolder">baz</b></body>'
        )


def test_article_new_tag_insert_before() -> None:
    markup = ARTICLE.replace("boldest", "justbold").replace("bolder", "justbold")
    outputs = []
    for soup in both(markup):
        itag = soup.new_tag("i")
        itag.string = "italicized"
        soup.b.insert_before(itag)
        outputs.append(str(soup.body))
    assert (
        outputs[0]
        == outputs[1]
        == (
            '<body><i>italicized</i><b class="justbold">foo</b> bar '
            '<b class="justbold">baz</b></body>'
        )
    )


def test_article_img_attrs_and_deleting() -> None:
    markup = '<p><img src="a.png" alt="x" class="c"></p>'
    outputs = []
    for soup in both(markup):
        img = soup.img
        idict = {"height": 22, "width": 42, "src": img["src"]}
        img.attrs = idict
        img["title"] = "t"
        del img["width"]
        del img["nothing"]  # bs4: not an error
        outputs.append(str(soup.p))
    assert outputs[0] == outputs[1] == '<p><img height="22" src="a.png" title="t"/></p>'


def test_multi_valued_list_writes_through() -> None:
    soup, theirs = both('<p class="a b">x</p>')
    for s in (soup, theirs):
        s.p["class"].append("c")
    assert str(soup.p) == str(theirs.p) == '<p class="a b c">x</p>'
    assert soup._root.xpath("//p/@class") == ["a b c"]


# -- return values and object identity ---------------------------------------------


def test_return_values_as_bs4() -> None:
    soup = Soup("<div><p>a</p></div>")
    tag = soup.new_tag("b")
    assert soup.div.append(tag) is tag
    assert soup.div.insert(0, "x", "y") == ["x", "y"]
    assert isinstance(soup.div.insert(0, "z")[0], NavigableString)
    p = soup.p
    assert p.extract() is p and p.parent is None
    assert soup.b.replace_with(p) is tag and tag.parent is None
    new = soup.new_tag("section")
    assert p.wrap(new) is new and p.parent is new
    assert new.unwrap() is new and p.parent is soup.div


def test_string_objects_follow_their_slot() -> None:
    soup = Soup("<p>lead<b>x</b>tail</p>")
    lead = soup.p.contents[0]
    # insert(0, tag) moves the <p>'s text behind the new tag: same object.
    soup.p.insert(0, soup.new_tag("i"))
    assert soup.p.contents[1] is lead and lead.parent is soup.p
    assert lead.previous_sibling is soup.i
    lead.replace_with("LEAD")
    assert str(soup.p) == "<p><i></i>LEAD<b>x</b>tail</p>"
    tail = soup.b.next_sibling
    assert tail.extract() is tail and tail.parent is None
    assert str(soup.p) == "<p><i></i>LEAD<b>x</b></p>"


def test_strings_an_edit_brings_together_stay_apart() -> None:
    soup, theirs = both("<p>a<b>x</b>c</p>")
    for s in (soup, theirs):
        s.b.extract()
    assert str(soup.p) == str(theirs.p) == "<p>ac</p>"
    assert soup.p.contents == theirs.p.contents == ["a", "c"]
    a, c = soup.p.contents
    assert a.next_sibling is c and c.previous_sibling is a
    assert a.parent is soup.p and c.parent is soup.p
    # lxml holds them joined: the tree parsel sees has one text.
    assert soup.p._el.text == "ac"
    for s in (soup, theirs):
        s.p.smooth()
    assert soup.p.contents == theirs.p.contents == ["ac"]
    assert a.parent is None and c.parent is None


def test_inserted_string_is_bound_when_alone() -> None:
    soup = Soup("<p><b>x</b></p>")
    s = NavigableString("after")
    soup.b.insert_after(s)
    assert s.parent is soup.p and s.previous_sibling is soup.b
    s.replace_with("changed")
    assert str(soup.p) == "<p><b>x</b>changed</p>"


# -- errors as bs4 ------------------------------------------------------------------


def _error(fn: Any) -> type[BaseException] | None:
    try:
        fn()
    except Exception as exc:
        return type(exc)
    return None


@pytest.mark.parametrize(
    "case",
    [
        lambda s: s.b.append(s.b),
        lambda s: s.b.insert(0, None),
        lambda s: s.new_tag("x").insert_before("a"),
        lambda s: s.new_tag("x").insert_after("a"),
        lambda s: s.b.insert_before(s.b),
        lambda s: s.b.insert_after(s.b),
        lambda s: s.new_tag("x").replace_with("a"),
        lambda s: s.new_tag("x").unwrap(),
        lambda s: s.replace_with("a"),
        lambda s: s.b.replace_with(s.body),
        lambda s: s.b.string.insert(0, "x"),
        lambda s: s.b.string.append("x"),
    ],
)
def test_errors_as_bs4(case: Any) -> None:
    ours, theirs = both()
    expected = _error(lambda: case(theirs))
    assert expected is not None
    assert _error(lambda: case(ours)) is expected


def test_clear_errors_for_impossible_edits() -> None:
    soup = Soup("<div><p><b>x</b></p></div>")
    with pytest.raises(ValueError, match="descendants"):
        soup.b.append(soup.div)
    with pytest.raises(TypeError):
        soup.b.append(42)
    with pytest.raises(ValueError, match="top level"):
        soup.append(soup.new_tag("p"))
    with pytest.raises(ValueError, match="top level"):
        soup.html.extract()
    dead = soup.b
    dead.decompose()
    assert dead.decomposed and not soup.p.decomposed
    with pytest.raises(ValueError, match="decomposed"):
        soup.p.append(dead)
    assert str(soup.div) == "<div><p></p></div>"


def test_decompose_marks_descendants() -> None:
    soup = Soup("<div><p><i>x</i>y</p></div>")
    p, i, x = soup.p, soup.i, soup.i.string
    p.decompose()
    assert p.decomposed and i.decomposed and x.decomposed
    assert str(soup.div) == "<div></div>"


# -- documents, copies, the view ------------------------------------------------------------


def test_moving_between_documents_moves() -> None:
    a = Soup("<div><p>one</p></div>")
    b = Soup("<section>s</section>")
    p = a.p
    b.section.append(p)
    assert a.p is None and str(a.div) == "<div></div>"
    assert str(b.section) == "<section>s<p>one</p></section>"
    assert p._doc is b._doc and p.parent is b.section
    assert b._root.xpath("//section/p/text()") == ["one"]


def test_fragment_soup_inserted_gives_its_contents() -> None:
    soup, theirs = both("<p>a</p>")
    soup.p.append(Soup("<i>x</i>y", "fragment"))
    theirs.p.append(bs4.BeautifulSoup("<i>x</i>y", "html.parser"))
    assert str(soup.p) == str(theirs.p) == "<p>a<i>x</i>y</p>"


def test_fragment_soup_top_level_edits() -> None:
    soup = Soup("a<b>b</b>c", "fragment")
    theirs = bs4.BeautifulSoup("a<b>b</b>c", "html.parser")
    for s in (soup, theirs):
        s.insert(0, s.new_tag("hr"))
        s.append("z")
        s.b.unwrap()
    assert str(soup) == str(theirs) == "<hr/>abcz"


def test_copy_is_detached_and_deep() -> None:
    soup = Soup("<div><p class='a'>x<b>y</b></p>tail</div>")
    clone = copy.copy(soup.p)
    assert clone is not soup.p and clone == soup.p
    assert clone.parent is None and clone.next_sibling is None
    clone.b.string = "changed"
    assert str(soup.p) == '<p class="a">x<b>y</b></p>'
    assert str(clone) == '<p class="a">x<b>changed</b></p>'
    assert str(copy.deepcopy(soup.p)) == str(soup.p)
    soup.div.append(clone)
    assert str(soup.div) == (
        '<div><p class="a">x<b>y</b></p>tail<p class="a">x<b>changed</b></p></div>'
    )


def test_xpath_sees_the_edit() -> None:
    soup = Soup("<ul><li>1</li><li>2</li></ul>")
    soup.li.decompose()
    li = soup.new_tag("li", attrs={"class": "new"}, string="3")
    soup.ul.append(li)
    root = soup._root
    assert root.xpath("//li/text()") == ["2", "3"]
    assert root.xpath("//li[@class='new']")[0] is li._el


def test_new_tag_arguments_as_bs4() -> None:
    ours, theirs = both("<p></p>")
    outputs = []
    for s in (ours, theirs):
        t = s.new_tag("a", attrs={"href": "/x"}, string="link", id="i")
        s.p.append(t)
        outputs.append(str(s.p))
    assert outputs[0] == outputs[1]
    assert isinstance(ours.new_tag("x"), Tag)
    with pytest.raises(AttributeError):
        ours.p.new_tag("x")


def test_new_string_subclasses() -> None:
    ours, theirs = both("<p>x</p>")
    for s, ns in ((ours, Comment), (theirs, bs4.Comment)):
        s.p.append(s.new_string("note", ns))
        s.p.insert(0, s.new_string("lead"))
    assert str(ours.p) == str(theirs.p) == "<p>leadx<!--note--></p>"
    assert isinstance(ours.p.contents[-1], Comment)


def test_string_setter_as_bs4() -> None:
    ours, theirs = both("<div><p>a<b>b</b>c</p></div>")
    for s in (ours, theirs):
        s.p.string = "<new>"
    assert str(ours.div) == str(theirs.div) == "<div><p>&lt;new&gt;</p></div>"
    ours.p.string = Comment("c")
    assert str(ours.p) == "<p><!--c--></p>"


def test_control_characters_are_dropped() -> None:
    soup = Soup("<p></p>")
    soup.p.append("a\x00b\x01c\x0cd")
    soup.p.insert_before("\x1f")
    assert str(soup.p) == "<p>a\ufffdbcd</p>"
    soup.p["title"] = "t\x00\x01"
    soup.p["class"] = ["a"]
    soup.p["class"].append("\x02b")
    assert soup._root.xpath("//p/@title") == ["t\ufffd"]
    assert soup.p["class"] == ["a", "b"]


def test_navigation_after_edits_matches_bs4() -> None:
    ours, theirs = both("<div>a<p>b</p>c<span>d</span></div>")
    for s in (ours, theirs):
        s.span.insert_before(s.new_tag("hr"))
        s.p.wrap(s.new_tag("section"))
    for name in ("hr", "section", "p", "span"):
        a, b = ours.find(name), theirs.find(name)
        for attr in ("next_element", "previous_element", "next_sibling"):
            x, y = getattr(a, attr), getattr(b, attr)
            assert str(x) == str(y), (name, attr)
        assert a.parent.name == b.parent.name


def test_smooth_joins_appended_strings_as_bs4() -> None:
    soup, theirs = both("<p>a</p>")
    for s in (soup, theirs):
        s.p.append("b")
        s.p.append("c")
    assert soup.p.contents == theirs.p.contents == ["a", "b", "c"]
    for s in (soup, theirs):
        s.p.smooth()
    assert soup.p.contents == theirs.p.contents == ["abc"]


def test_huge_insert() -> None:
    soup = Soup("<ul></ul>")
    items = [soup.new_tag("li", string=str(i)) for i in range(20_000)]
    soup.ul.extend(items)
    assert len(soup.ul.contents) == 20_000
    assert etree.tostring(soup._root).count(b"<li>") == 20_000


def test_deprecated_aliases_warn() -> None:
    soup = Soup("<p><b>x</b><i>y</i></p>")
    with pytest.warns(DeprecationWarning):
        soup.b.replaceWith("z")
    with pytest.warns(DeprecationWarning):
        soup.i.replaceWithChildren()
    assert str(soup.p) == "<p>zy</p>"
    with pytest.warns(UserWarning):
        soup.p.extend("s")


def test_children_are_listed_when_read() -> None:
    """The README's difference: edits during ``.children`` do not skip children.

    bs4's generator reads its live list by position; through a list copy
    both agree.
    """
    markup = "<p><b>1</b>x<i>2</i><u>3</u><s>4</s></p>"
    ours, theirs = both(markup)
    for child in ours.p.children:
        child.extract()
    for child in theirs.p.children:
        child.extract()
    assert str(ours.p) == "<p></p>"
    assert str(theirs.p) != "<p></p>"  # bs4 skipped every other child
    ours, theirs = both(markup)
    for soup in (ours, theirs):
        for child in list(soup.p.children):
            if child.name != "i":
                child.extract()
    assert str(ours.p) == str(theirs.p) == "<p><i>2</i></p>"


def test_decompose_of_the_soup_empties_it_as_bs4_does() -> None:
    markup = "<p>a<b>x</b>c</p>"
    ours, theirs = Soup(markup), bs4.BeautifulSoup(markup, "lxml")
    ours.decompose()
    theirs.decompose()
    assert ours.contents == theirs.contents == []
    assert ours.decomposed is theirs.decomposed is True


def test_decompose_of_the_soup_frees_its_wrappers_without_the_collector() -> None:
    import gc
    import weakref

    soup = Soup("<div><p>a<b>x</b>c</p></div>")
    soup.find_all(True)  # the soup keeps a wrapper for every tag
    paragraph = weakref.ref(soup.p)
    held = soup.b
    gc.disable()
    try:
        soup.decompose()
        assert paragraph() is None
    finally:
        gc.enable()
    assert held.name == "b" and held.get_text() == "x"


def test_decomposed_is_a_state_of_the_object() -> None:
    soup = Soup("<p>a<b>x</b><i>y</i>c</p>")
    b, i = soup.b, soup.i
    b.decompose()
    assert b.decomposed and not i.decomposed
    assert not soup.new_tag("b").decomposed
    with pytest.raises(ValueError, match="decomposed"):
        i.insert_before(b)


@needs_soupsieve_4
def test_template_check_belongs_to_each_soup() -> None:
    first, second = Soup("<div><p>1</p></div>"), Soup("<div><p>2</p></div>")
    assert [p.text for p in first.select("div p")] == ["1"]
    assert [p.text for p in second.select("div p")] == ["2"]
    template = first.new_tag("template")
    first.div.p.wrap(template)
    # Inside a <template>, soupsieve (and bs4) sees no match for "div p".
    assert first.select("div p") == bs4.BeautifulSoup(str(first), "lxml").select(
        "div p"
    )
    assert first.select("div p") == []
    assert [p.text for p in second.select("div p")] == ["2"]


# Full documents: the walks up reach <html>, which lxml cannot let go.
@pytest.mark.parametrize(
    ("method", "features"),
    [
        *[(m, "html.parser") for m in ("previous_elements", "parents")],
        *[
            (m, f)
            for m in ("next_elements", "next_siblings", "previous_siblings")
            for f in ("lxml", "html.parser")
        ],
    ],
)
def test_extracting_what_an_iterator_gives_as_bs4(method: str, features: str) -> None:
    markup = (
        "<div><em>child1</em><p id='start'><a>Second <em>child</em></a></p>"
        "<p>child3</p></div>"
    )
    ours = Soup(markup, features)
    theirs = bs4.BeautifulSoup(markup, features)
    for soup in (ours, theirs):
        for node in getattr(soup.p, method):
            node.extract()
    assert ours.decode() == theirs.decode()


def test_len_counts_the_strings_an_edit_keeps_apart() -> None:
    soup, theirs = both("<p>x<b>b</b></p>")
    for s in (soup, theirs):
        s.p.append("z")
        s.p.b.insert_before("y")
    assert len(soup.p) == len(theirs.p) == len(theirs.p.contents)
