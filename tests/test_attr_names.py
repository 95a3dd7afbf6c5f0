"""Any attribute name the HTML parser produces: read, compared, copied, removed, cleaned.

Template leftovers (``{{lazy}}``, Angular's ``(click)``/``[x]``/``*ngIf``,
Vue's ``@click``/``:href``), quotes, non-ASCII and control characters all
end up as attribute names.  lxml reads a name starting with ``{`` as a
namespace (``{}src`` as ``src``!): the soup must not, and `clean` must
never let such a name (or any name outside its policy) through.
"""

from __future__ import annotations

import copy
import re

import pytest
from bs4 import BeautifulSoup
from clean_oracle import assert_inert
from fuzzing import fuzz
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from scrapy_soup import Soup, absolutize_links
from scrapy_soup.markup.clean import POLICIES, CleanPolicy, clean

NAMES = [
    "{{lazy}}", "{}src", "{a}b", "{http://www.w3.org/1999/xlink}href", "{",
    "}", "a}b", "{{ x", "}}", "x:y", '"q"', "'a'", "é", "ä:ö", "a\x01b",
    "[x]", "@click", ":href", "v-on:click", "#ref", "(click)", "*ngif",
    "\u200b", "a\\b",
]  # fmt: skip
#: Names lxml would read as ``{namespace}local``: bs4's lxml builder does
#: (``{{lazy}}`` becomes ``}``, ``{}src`` becomes ``src``); its html.parser
#: builder, browsers and the soup keep the name as written.
CLARK = re.compile(r"\{[^}]*\}.")


def _markup(name: str) -> str:
    return f'<p {name}="v" id="i" class="c">t</p>'


def _bs4_attrs(markup: str, name: str) -> dict[str, object]:
    builder = "html.parser" if CLARK.match(name) else "lxml"
    tag = BeautifulSoup(markup, builder).p
    assert tag is not None
    return dict(tag.attrs)


@pytest.mark.parametrize("name", NAMES)
def test_attrs_read_as_bs4_reads_them(name: str) -> None:
    tag = Soup(_markup(name)).p
    assert tag is not None
    assert dict(tag.attrs) == _bs4_attrs(_markup(name), name)


def test_bs4s_lxml_builder_reads_braces_as_a_namespace() -> None:
    # Why the names above are compared with html.parser: the lxml builder
    # loses them, and would read `{}src` as a `src` a browser never sees.
    tag = BeautifulSoup('<img {}src="javascript:x" {{lazy}}>', "lxml").img
    assert tag is not None
    assert dict(tag.attrs) == {"src": "javascript:x", "}": ""}
    ours = Soup('<img {}src="javascript:x" {{lazy}}>').img
    assert ours is not None
    assert dict(ours.attrs) == {"{}src": "javascript:x", "{{lazy}}": ""}
    assert ours.get("src") is None


@pytest.mark.parametrize("name", NAMES)
def test_get_contains_and_has_attr(name: str) -> None:
    tag = Soup(_markup(name)).p
    assert tag is not None
    for key, value in _bs4_attrs(_markup(name), name).items():
        assert tag.get(key) == value
        assert tag[key] == value
        assert tag.attrs[key] == value
        assert key in tag.attrs
        assert tag.has_attr(key)
    assert tag.get("missing") is None
    assert not tag.has_attr("{missing}")


@pytest.mark.parametrize("name", NAMES)
def test_equality_and_copies(name: str) -> None:
    a, b = Soup(_markup(name)).p, Soup(_markup(name)).p
    assert a is not None and b is not None
    assert a == b
    copied = copy.copy(a)
    assert copied == a
    assert dict(copied.attrs) == dict(a.attrs)
    other = Soup(_markup(name).replace('"v"', '"w"')).p
    assert other is not None
    assert a != other


@pytest.mark.parametrize("name", NAMES)
def test_del_removes_that_attribute_only(name: str) -> None:
    tag = Soup(_markup(name)).p
    assert tag is not None
    before = dict(tag.attrs)
    del tag[name]
    after = dict(tag.attrs)
    expected = {k: v for k, v in before.items() if k != name}
    assert after == expected
    del tag[name]  # bs4: deleting a missing attribute is not an error
    with pytest.raises(KeyError):
        del tag.attrs[name]
    # The other attributes can still go, and the printout has none left.
    for key in list(after):
        del tag[key]
    assert str(tag) == "<p>t</p>"


def test_setting_a_brace_name_sets_that_name() -> None:
    tag = Soup("<p>t</p>").p
    assert tag is not None
    tag["{x}y"] = "1"
    tag.attrs["{{z}}"] = "2"
    assert dict(tag.attrs) == {"{x}y": "1", "{{z}}": "2"}
    soup = BeautifulSoup("<p>t</p>", "html.parser")
    assert soup.p is not None
    soup.p["{x}y"] = "1"
    soup.p["{{z}}"] = "2"
    assert str(tag) == str(soup.p)


def test_namespaced_attributes_set_through_lxml_stay_readable() -> None:
    soup = Soup("<svg><a>x</a></svg>")
    a = soup.find("a")
    assert a is not None
    a._el.set("{http://www.w3.org/1999/xlink}href", "#x")
    assert a.get("{http://www.w3.org/1999/xlink}href") == "#x"
    del a["{http://www.w3.org/1999/xlink}href"]
    assert dict(a.attrs) == {}


# -- clean ------------------------------------------------------------------------
def _allowed(policy: CleanPolicy, tag: str) -> frozenset[str]:
    if tag in policy.reset_attributes:
        return policy.reset_attributes[tag]
    return policy.allowed_attributes.get("*", frozenset()) | (
        policy.allowed_attributes.get(tag, frozenset())
    )


def assert_names_within(output: str, policy: CleanPolicy) -> None:
    """Every attribute of *output*, as lxml and html.parser read it, is one the policy keeps."""
    trees = [
        (tag.name, list(tag.attrs))
        for tag in BeautifulSoup(output, "html.parser").find_all(True)
    ]
    root = etree.fromstring(f"<html><body>{output}</body></html>", etree.HTMLParser())
    trees += [
        (str(node.tag), list(node.keys()))
        for node in root.iter()
        if isinstance(node.tag, str) and node.tag not in ("html", "body")
    ]
    for tag, names in trees:
        allowed = _allowed(policy, tag)
        for name in names:
            plain = re.fullmatch(r"[a-z_][a-z0-9_.:\-]*", name) is not None
            assert name in allowed or ("*" in allowed and plain), (output, tag, name)
            assert not name.startswith("on"), output


@pytest.mark.parametrize("preset", sorted(POLICIES))
@pytest.mark.parametrize("name", NAMES)
def test_clean_drops_names_outside_the_policy(name: str, preset: str) -> None:
    policy = POLICIES[preset]
    for markup in (
        f'<img src="a.png" {name}="javascript:alert(1)" alt="x">',
        f'<a href="b.html" {name}>b</a>',
        f"<p {name}=1 onclick=alert(1)>t<script>alert(2)</script></p>",
    ):
        out = clean(markup, preset)
        assert_inert(out)
        assert_names_within(out, policy)
        assert clean(out, preset) == out
        # In place, on a soup: the same.
        soup = Soup(markup, "fragment")
        clean(soup, preset)
        assert str(soup) == out


def test_the_issues_examples() -> None:
    assert clean('<img src="a.png" {{lazy}}>') == '<img src="a.png"/>'
    for preset in POLICIES:
        assert clean('<img {}src="javascript:alert(1)">', preset) in ("<img/>", "")
        assert clean('<img src="a.png" {{lazy}}>', preset) in ('<img src="a.png"/>', "")
    tag = Soup('<p><img src="a.png" {{lazy}}></p>').p
    assert tag is not None
    assert str(clean(tag)) == '<p><img src="a.png"/></p>'


def test_a_policy_cannot_keep_a_name_lxml_reads_as_a_namespace() -> None:
    policy = CleanPolicy(allowed_attributes={"*": ["{{lazy}}", "{}src", "a\x01b"]})
    out = clean("<p {{lazy}}=1 {}src=2 a\x01b=3 title=t>x</p>", policy)
    assert out == "<p>x</p>"


@pytest.mark.parametrize("name", NAMES)
def test_absolutize_links_leaves_odd_names_alone(name: str) -> None:
    markup = f'<a href="b.html" {name}="c.html">b</a>'
    out = absolutize_links(markup, "https://example.com/")
    tag = BeautifulSoup(out, "html.parser").a
    assert tag is not None
    assert tag["href"] == "https://example.com/b.html"
    expected = _bs4_attrs(f'<p {name}="c.html">x</p>', name)
    assert {k: v for k, v in tag.attrs.items() if k != "href"} == expected


# -- generated names ----------------------------------------------------------------
#: Characters the HTML tokenizer keeps in an attribute name (it ends names at
#: whitespace, "/", ">" and "="; NUL becomes U+FFFD).
NAME_CHARS = st.characters(
    blacklist_characters="\t\n\x0c\r />=\x00", blacklist_categories=("Cs",)
)
ATTRIBUTE_NAMES = st.one_of(
    st.sampled_from([n for n in NAMES if n[0] not in "\"'"]),
    st.builds(
        "{}{}{}".format,
        st.sampled_from(["{", "{}", "{{", "", "on", "x:", "xlink:", "{a}"]),
        st.sampled_from(["src", "href", "onclick", "style", "folder", "", "}"]),
        st.text(NAME_CHARS, max_size=3),
    ).filter(lambda n: n != "" and n[0] not in "\"'<"),
    st.text(NAME_CHARS, min_size=1, max_size=12).filter(lambda n: n[0] not in "\"'<"),
)
VALUES = st.one_of(
    st.sampled_from(
        ["javascript:alert(1)", "\ufeffjavascript:alert(1)", "a.png", "x", ""]
    ),
    st.text(max_size=20),
)


@st.composite
def hostile_markup(draw: st.DrawFn) -> str:
    """Nested elements with generated attribute names and values."""
    depth = draw(st.integers(1, 3))
    out = draw(st.text(max_size=5))
    for _ in range(depth):
        tag = draw(st.sampled_from(["p", "a", "img", "div", "span", "table", "svg"]))
        attrs = draw(st.lists(st.tuples(ATTRIBUTE_NAMES, VALUES), max_size=4))
        written = " ".join(
            f'{n}="{v.replace("&", "&amp;").replace(chr(34), "&quot;")}"'
            for n, v in attrs
        )
        out = f"<{tag} {written}>{draw(st.text(max_size=5))}{out}</{tag}>"
    return out


@fuzz(examples=150)
@given(hostile_markup(), st.sampled_from(sorted(POLICIES)))
def test_generated_names_are_cleaned(markup: str, preset: str) -> None:
    out = clean(markup, preset)
    assert_inert(out)
    assert_names_within(out, POLICIES[preset])
    assert clean(out, preset) == out


@fuzz(examples=150)
@given(hostile_markup())
def test_generated_names_can_be_read_copied_and_removed(markup: str) -> None:
    soup = Soup(markup)
    for tag in soup.find_all(True):
        names = list(tag.attrs)
        values = dict(tag.attrs)
        assert copy.copy(tag) == tag
        for name in names:
            assert tag.get(name) == values[name]
            assert name in tag.attrs
        for name in names:
            del tag[name]
            assert name not in tag.attrs
        assert dict(tag.attrs) == {}
