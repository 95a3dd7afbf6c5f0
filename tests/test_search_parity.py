"""Search parity with bs4 (lxml builder) over every page of the corpus.

Each page is given to both as the same decoded text.  A table of queries
(every filter form, every find_* method from several anchors, CSS
selectors) runs on both soups; results are compared as positions in the
document (tags by their index in document order, strings by class, value
and parent), so "same elements, same order, same strings".
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bs4
import cssselect
import pytest
from conftest import corpus_pages, corpus_params, needs_soupsieve_4, read_page
from lxml import etree

import scrapy_soup as el
from scrapy_soup import SelectorError
from scrapy_soup._tree._soup import Soup
from scrapy_soup._tree._strainer import SoupStrainer

PAGES = corpus_pages()


class Ctx:
    """Per-page values (classes, ids, texts, anchors) picked the same way on both sides."""

    def __init__(
        self, soup: Any, values: dict[str, Any], anchors: dict[str, Any], strainer: type
    ) -> None:
        self.soup = soup
        self.v = values
        self.a = anchors
        self.strainer = strainer


def _page_values(bs: bs4.BeautifulSoup) -> dict[str, Any]:
    """Filter values that exist in the page, chosen from bs4's tree (plain str data)."""
    classes: Counter[str] = Counter()
    whole: Counter[str] = Counter()
    ids: list[str] = []
    data_attrs: Counter[str] = Counter()
    for tag in bs.find_all(True):
        cls = tag.get("class")
        if isinstance(cls, list):
            # Values usable as CSS identifiers too (soupsieve rejects the others).
            classes.update(c for c in cls if IDENT.match(c))
            if len(cls) > 1:
                whole[" ".join(cls)] += 1
        if isinstance(tag.get("id"), str) and IDENT.match(tag["id"]):
            ids.append(tag["id"])
        data_attrs.update(k for k in tag.attrs if k.startswith("data-"))
    texts = [
        s
        for s in bs.find_all(string=True)
        if type(s) is bs4.NavigableString and s.strip()
    ]
    common = [c for c, _ in classes.most_common(3)] + [
        "none-such",
        "none-such",
        "none-such",
    ]
    return {
        "cls": common[0],
        "cls2": common[1],
        "cls3": common[2],
        "whole": whole.most_common(1)[0][0] if whole else "x y",
        "id": ids[len(ids) // 2] if ids else "none-such",
        "data": data_attrs.most_common(1)[0][0] if data_attrs else "data-none",
        "text": str(texts[len(texts) // 2]) if texts else "none-such",
        "word": re.escape(str(texts[0]).split()[0]) if texts else "none",
    }


IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")

# -- queries --------------------------------------------------------------------------

Q = Callable[[Ctx], Any]
R = re.compile

DOC_QUERIES: list[tuple[str, Q]] = [
    ("name", lambda c: c.soup.find_all("a")),
    ("name-list", lambda c: c.soup.find_all(["h1", "h2", "h3"])),
    ("name-set", lambda c: c.soup.find_all({"p", "li"})),
    ("name-tuple-mixed", lambda c: c.soup.find_all(("div", R("^h[1-6]$")))),
    ("name-regex", lambda c: c.soup.find_all(R("^h[1-6]$"))),
    ("name-regex-search", lambda c: c.soup.find_all(R("able"))),
    (
        "name-regex-lookahead",
        lambda c: c.soup.find_all(R("^(?!div|span|a$)"), limit=40),
    ),
    ("name-regex-flags", lambda c: c.soup.find_all(R("^D[IT]V?$", re.I))),
    ("name-true", lambda c: c.soup.find_all(True)),
    ("name-none", lambda c: c.soup.find_all()),
    ("call", lambda c: c.soup("p")),
    (
        "name-callable",
        lambda c: c.soup.find_all(lambda t: t.name == "a" and t.has_attr("title")),
    ),
    (
        "name-callable-string",
        lambda c: c.soup.find_all(lambda t: t.string is not None, limit=50),
    ),
    ("name-empty-list", lambda c: c.soup.find_all([])),
    ("name-empty-str", lambda c: c.soup.find_all("")),
    ("name-colon", lambda c: c.soup.find_all(["o:p", "fb:like", "svg", "path"])),
    ("name-strainer", lambda c: c.soup.find_all(c.strainer("a", href=True))),
    ("href-true", lambda c: c.soup.find_all("a", href=True)),
    ("href-regex", lambda c: c.soup.find_all("a", href=R(r"^/"))),
    ("href-regex-abs", lambda c: c.soup.find_all("a", href=R(r"^https?://"))),
    ("href-none", lambda c: c.soup.find_all("a", href=None)),
    ("href-false", lambda c: c.soup.find_all("a", href=False)),
    ("href-list", lambda c: c.soup.find_all("a", attrs={"href": ["#", "/", ""]})),
    ("href-empty", lambda c: c.soup.find_all("a", href="")),
    (
        "href-callable",
        lambda c: c.soup.find_all(href=lambda v: v is not None and "#" in v),
    ),
    ("class-true", lambda c: c.soup.find_all(class_=True)),
    ("class-str", lambda c: c.soup.find_all(class_=c.v["cls"])),
    ("class-str2", lambda c: c.soup.find_all("div", class_=c.v["cls2"])),
    ("class-whole", lambda c: c.soup.find_all(class_=c.v["whole"])),
    ("class-whole-attrs", lambda c: c.soup.find_all(attrs={"class": c.v["whole"]})),
    (
        "class-reversed",
        lambda c: c.soup.find_all(class_=" ".join(reversed(c.v["whole"].split()))),
    ),
    ("class-regex", lambda c: c.soup.find_all(class_=R("nav|menu|head"))),
    ("class-regex-anchor", lambda c: c.soup.find_all(class_=R(r"^\w+-\w+$"))),
    ("class-list", lambda c: c.soup.find_all(class_=[c.v["cls2"], c.v["cls3"]])),
    (
        "class-callable",
        lambda c: c.soup.find_all(class_=lambda v: v is not None and len(v) > 12),
    ),
    ("class-none", lambda c: c.soup.find_all("li", class_=None)),
    ("class-empty", lambda c: c.soup.find_all(class_="")),
    ("class-empty-list", lambda c: c.soup.find_all(class_=[])),
    ("attrs-as-class", lambda c: c.soup.find_all("div", c.v["cls"])),
    ("id-true", lambda c: c.soup.find_all(id=True)),
    ("id-str", lambda c: c.soup.find_all(id=c.v["id"])),
    ("id-regex", lambda c: c.soup.find_all(id=R("^[a-z]"))),
    ("data-attr", lambda c: c.soup.find_all(attrs={c.v["data"]: True})),
    ("data-attr-regex", lambda c: c.soup.find_all(attrs={c.v["data"]: R(".")})),
    ("img-alt", lambda c: c.soup.find_all("img", alt=True)),
    ("img-alt-empty", lambda c: c.soup.find_all("img", alt="")),
    (
        "meta-name-regex-i",
        lambda c: c.soup.find_all("meta", attrs={"name": R("DESC", re.I)}),
    ),
    ("meta-property", lambda c: c.soup.find_all("meta", property=True)),
    ("rel-nofollow", lambda c: c.soup.find_all(rel="nofollow")),
    ("rel-link", lambda c: c.soup.find_all("link", rel=["stylesheet", "icon"])),
    ("rel-true", lambda c: c.soup.find_all(rel=True)),
    ("aria", lambda c: c.soup.find_all(attrs={"aria-hidden": "true"})),
    ("input-type", lambda c: c.soup.find_all("input", type="hidden")),
    ("width-int", lambda c: c.soup.find_all(width=1)),
    ("two-attrs", lambda c: c.soup.find_all("a", href=True, title=True)),
    ("script-src", lambda c: c.soup.find_all("script", src=True)),
    ("style-attr", lambda c: c.soup.find_all(style=R("display:\\s*none"))),
    ("xml-lang", lambda c: c.soup.find_all(attrs={"xml:lang": True})),
    ("string-true", lambda c: c.soup.find_all(string=True)),
    ("string-regex", lambda c: c.soup.find_all(string=R(r"\w{10,}"))),
    ("string-regex-word", lambda c: c.soup.find_all(string=R(c.v["word"]))),
    ("string-newline", lambda c: c.soup.find_all(string="\n")),
    ("string-space", lambda c: c.soup.find_all(string=" ")),
    ("string-ws-regex", lambda c: c.soup.find_all(string=R(r"^\s+$"), limit=30)),
    ("string-ws-regex2", lambda c: c.soup.find_all(string=R(r"\s\s"))),
    ("string-text", lambda c: c.soup.find_all(string=c.v["text"])),
    ("string-list", lambda c: c.soup.find_all(string=["Home", "About", c.v["text"]])),
    ("string-callable", lambda c: c.soup.find_all(string=lambda s: len(s) > 100)),
    ("string-limit", lambda c: c.soup.find_all(string=True, limit=7)),
    ("string-find", lambda c: c.soup.find(string=R("[A-Z]"))),
    ("string-norecurse", lambda c: c.soup.find_all(string=True, recursive=False)),
    ("a-string", lambda c: c.soup.find_all("a", string=R(r"\w"))),
    ("title-string", lambda c: c.soup.find_all("title", string=True)),
    (
        "tags-string-limit",
        lambda c: c.soup.find_all(["a", "span"], string=True, limit=5),
    ),
    ("script-string", lambda c: c.soup.find_all("script", string=R("function"))),
    ("limit-3", lambda c: c.soup.find_all("p", limit=3)),
    ("limit-1", lambda c: c.soup.find_all("div", limit=1)),
    ("limit-0-plain", lambda c: c.soup.find_all("span", limit=0)),
    ("limit-0-attrs", lambda c: c.soup.find_all("a", href=True, limit=0)),
    ("norecurse", lambda c: c.soup.find_all(recursive=False)),
    ("norecurse-name", lambda c: c.soup.find_all("html", recursive=False)),
    (
        "body-norecurse",
        lambda c: c.soup.body.find_all(True, recursive=False) if c.soup.body else None,
    ),
    ("html-norecurse", lambda c: c.soup.html.find_all("body", recursive=False)),
    ("find", lambda c: c.soup.find("p")),
    ("find-missing", lambda c: c.soup.find("nonexistent-tag")),
    ("find-attrs", lambda c: c.soup.find("div", class_=c.v["cls"])),
    ("find-norecurse", lambda c: c.soup.find("head", recursive=False)),
    (
        "dot",
        lambda c: [
            c.soup.body,
            c.soup.title,
            c.soup.a,
            c.soup.head.meta if c.soup.head else None,
        ],
    ),
    (
        "dot-chain",
        lambda c: c.soup.body.div.a if c.soup.body and c.soup.body.div else None,
    ),
]


def _anchor_queries() -> list[tuple[str, Q]]:
    """The same calls from each anchor (tags near the start, middle, end; strings)."""
    per_anchor: list[tuple[str, Callable[[Any, Ctx], Any]]] = [
        ("find_next", lambda a, c: a.find_next("p")),
        ("find_next-str", lambda a, c: a.find_next(string=R(r"\w"))),
        ("find_all_next", lambda a, c: a.find_all_next("a", limit=25)),
        ("find_all_next-true", lambda a, c: a.find_all_next(True, limit=30)),
        (
            "find_all_next-class",
            lambda a, c: a.find_all_next(class_=c.v["cls"], limit=20),
        ),
        ("find_all_next-str", lambda a, c: a.find_all_next(string=True, limit=15)),
        ("find_previous", lambda a, c: a.find_previous("div")),
        ("find_previous-str", lambda a, c: a.find_previous(string=True)),
        (
            "find_all_previous",
            lambda a, c: a.find_all_previous(["a", "p", "div"], limit=25),
        ),
        (
            "find_all_previous-attr",
            lambda a, c: a.find_all_previous(class_=True, limit=10),
        ),
        (
            "find_all_previous-regex",
            lambda a, c: a.find_all_previous(R("^(h|l|m)"), limit=10),
        ),
        ("find_parent", lambda a, c: a.find_parent("div")),
        ("find_parents", lambda a, c: a.find_parents()),
        ("find_parents-limit", lambda a, c: a.find_parents(True, limit=2)),
        ("find_parents-class", lambda a, c: a.find_parents(class_=True)),
        (
            "find_parents-callable",
            lambda a, c: a.find_parents(lambda t: len(t.attrs) > 0),
        ),
        ("find_next_sibling", lambda a, c: a.find_next_sibling(True)),
        ("find_next_siblings", lambda a, c: a.find_next_siblings()),
        ("find_next_siblings-str", lambda a, c: a.find_next_siblings(string=True)),
        ("find_previous_sibling", lambda a, c: a.find_previous_sibling(True)),
        ("find_previous_siblings", lambda a, c: a.find_previous_siblings(limit=5)),
        (
            "find_previous_sibling-str",
            lambda a, c: a.find_previous_sibling(string=True),
        ),
        ("find_all", lambda a, c: a.find_all("a") if a.name else None),
        ("find_all-str", lambda a, c: a.find_all(string=True) if a.name else None),
        (
            "find_all-norecurse",
            lambda a, c: a.find_all(True, recursive=False) if a.name else None,
        ),
        ("select-desc", lambda a, c: a.select("div a") if a.name else None),
        ("select-star", lambda a, c: a.select("*", limit=20) if a.name else None),
        ("select-child", lambda a, c: a.select(":scope > *") if a.name else None),
        (
            "closest",
            lambda a, c: a.css.closest("div, section, body") if a.name else None,
        ),
        ("closest-one", lambda a, c: a.css.closest("div") if a.name else None),
        ("closest-child", lambda a, c: a.css.closest("ul > li") if a.name else None),
        ("select-one", lambda a, c: a.select_one("li > a[href]") if a.name else None),
        ("match", lambda a, c: a.css.match("div, p, a, li") if a.name else None),
        ("filter", lambda a, c: a.css.filter("*") if a.name else None),
    ]
    out: list[tuple[str, Q]] = []
    for anchor in ANCHORS:
        for name, fn in per_anchor:
            out.append(
                (f"{anchor}:{name}", lambda c, fn=fn, anchor=anchor: fn(c.a[anchor], c))
            )
    return out


ANCHORS = ["tag-early", "tag-mid", "tag-late", "text-mid", "ws-mid", "comment"]

CSS_SELECTORS = [
    "p",
    "div p",
    "article p",
    "div > p",
    "body > *",
    "h1 + p",
    "h2 ~ p",
    "li ~ li",
    "ul li a",
    "div div a",
    "div ~ div > a:first-child",
    "div.{cls} > a[href]",
    ".{cls} p",
    "ul > li + li",
    "li > a[href^='/']",
    "td > a:first-child",
    "header ~ div p",
    "h2 + p ~ p",
    "div.{cls}",
    ".{cls}",
    ".{cls}.{cls2}",
    "#{id}",
    "[id]",
    "a[href]",
    'a[href^="http"]',
    'a[href$=".html"]',
    'a[href*="wiki"]',
    '[class~="{cls}"]',
    '[class="{whole}"]',
    '[class^="{cls}"]',
    "[class$=s]",
    "[class*=a]",
    '[lang|="en"]',
    '[type="text"]',
    '[rel="nofollow"]',
    '[href!="#"]',
    'img[alt=""]',
    "img:not([alt])",
    "[{data}]",
    "p:empty",
    ":empty",
    "li:first-child",
    "li:last-child",
    "li:only-child",
    "p:first-of-type",
    "*:first-of-type",
    "p:last-of-type",
    "span:only-of-type",
    "li:nth-child(2n+1)",
    "li:nth-child(odd)",
    "tr:nth-of-type(even)",
    "li:nth-last-child(2)",
    "td:nth-last-of-type(1)",
    "div:nth-child(-n+2)",
    ":nth-child(3)",
    "*:nth-of-type(2)",
    ":not(div)",
    "div:not(.{cls})",
    "a:not([href^=http]):not([href^='/'])",
    "div:has(> p)",
    "div:has(img)",
    "li:has(+ li)",
    "section:has(h2, h3)",
    ":is(h1, h2, h3)",
    ":where(ul, ol) > li",
    "html > body",
    ":root",
    ":root > head",
    "a:link",
    "a:any-link",
    "input[type=checkbox][checked]",
    "option[selected]",
    "meta[property^=og]",
    "meta[name=description]",
    "script[src]",
    "body *:not(script):not(style)",
    "div:-soup-contains('the')",
    "p:-soup-contains-own('a')",
    "h1, h2, h3",
    "p, div",
    "a, a[href], a[title]",
]


def _css_queries() -> list[tuple[str, Q]]:
    return [
        (f"css:{sel}", lambda c, sel=sel: c.soup.select(sel.format(**c.v)))
        for sel in CSS_SELECTORS
    ] + [
        ("css-one", lambda c: c.soup.select_one("div p")),
        ("css-one-child", lambda c: c.soup.select_one("ul > li:first-child + li")),
        ("css-one-group", lambda c: c.soup.select_one("h2, h1")),
        ("css-limit", lambda c: c.soup.select("a", limit=3)),
        ("css-iselect", lambda c: list(c.soup.css.iselect("li", limit=4))),
        ("css-filter-doc", lambda c: c.soup.css.filter("html")),
        ("css-match-doc", lambda c: c.soup.css.match("*")),
    ]


QUERIES = DOC_QUERIES + _anchor_queries() + _css_queries()


def _cssselect_parses_has_lists() -> bool:
    try:
        cssselect.parse("a:has(b, > c d)")
    except cssselect.SelectorError:
        return False
    return True


#: cssselect before 1.6 (the newest on Python 3.10) parses one compound
#: selector in :has(); there scrapy_soup raises SelectorError for the rest
#: (README, "Differences from Beautiful Soup").
HAS_LISTS = _cssselect_parses_has_lists()
NEEDS_HAS_LISTS = {"css:section:has(h2, h3)"}


def test_has_lists_follow_cssselect() -> None:
    soup = Soup("<section><h3>x</h3></section><section><p>y</p></section>")
    if HAS_LISTS:
        assert soup.select("section:has(h2, h3)") == soup.find_all("section")[:1]
    else:
        with pytest.raises(SelectorError, match="cssselect"):
            soup.select("section:has(h2, h3)")
    assert soup.select("section:has(h3)") == soup.find_all("section")[:1]
    assert soup.select("section:has(> p)") == soup.find_all("section")[1:]


def test_query_table_size() -> None:
    """The acceptance floor: >= 150 queries, >= 60 CSS selectors, every find_* method."""
    assert len(QUERIES) >= 150
    assert len(CSS_SELECTORS) >= 60
    names = " ".join(name for name, _ in QUERIES)
    for method in (
        "find_next", "find_all_next", "find_previous", "find_all_previous", "find_parent",
        "find_parents", "find_next_sibling", "find_next_siblings", "find_previous_sibling",
        "find_previous_siblings", "find_all", "closest", "match", "filter",
    ):  # fmt: skip
        assert method in names


# -- comparing results -----------------------------------------------------------------


class Positions:
    """Maps tags to their index in document order (the document itself is "DOC")."""

    def __init__(
        self, items: list[Any], key: Callable[[Any], Any], is_doc: Callable[[Any], bool]
    ):
        self.index = {key(item): i for i, item in enumerate(items)}
        self.key = key
        self.is_doc = is_doc

    def of(self, tag: Any) -> Any:
        if tag is None:
            return None
        if self.is_doc(tag):
            return "DOC"
        return self.index.get(self.key(tag), ("detached", tag.name))


def _norm(result: Any, pos: Positions, tag_cls: type, str_cls: type) -> Any:
    if result is None or isinstance(result, bool):
        return result
    if isinstance(result, tag_cls):
        return ("T", pos.of(result))
    if isinstance(result, str_cls):
        return (type(result).__name__, str(result), pos.of(result.parent))
    if isinstance(result, list):
        return [_norm(r, pos, tag_cls, str_cls) for r in result]
    raise TypeError(f"unexpected result {result!r}")


def _anchors(
    descendants: list[Any], tags: list[Any], str_cls: type, comment_cls: type
) -> dict[str, Any]:
    n = len(tags)
    strings = [
        i
        for i, d in enumerate(descendants)
        if type(d) is str_cls or type(d).__name__ == "NavigableString"
    ]
    texts = [i for i in strings if str(descendants[i]).strip()]
    blanks = [i for i in strings if not str(descendants[i]).strip()]
    comments = [i for i, d in enumerate(descendants) if isinstance(d, comment_cls)]
    pick = lambda idx: descendants[idx[len(idx) // 2]] if idx else tags[0]  # noqa: E731
    return {
        "tag-early": tags[min(5, n - 1)],
        "tag-mid": tags[n // 2],
        "tag-late": tags[max(n - 3, 0)],
        "text-mid": pick(texts),
        "ws-mid": pick(blanks),
        "comment": pick(comments),
    }


def _positions_bs4(bs: bs4.BeautifulSoup) -> tuple[Positions, list[Any]]:
    tags = bs.find_all(True)
    return Positions(tags, id, lambda t: isinstance(t, bs4.BeautifulSoup)), tags


def _positions_ours(soup: Soup) -> tuple[Positions, list[Any]]:
    from scrapy_soup._tree._identity import wrap

    root = soup._root
    elements = list(root.iter(etree.Element)) if root is not None else []
    tags = [wrap(e, soup._doc) for e in elements]
    return Positions(tags, lambda t: t._el, lambda t: isinstance(t, Soup)), tags


def _run(query: Q, ctx: Ctx) -> tuple[str, Any]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return "ok", query(ctx)
    except (
        Exception
    ):  # both must fail alike (exception classes differ: cssselect, soupsieve)
        return "error", None


# Pages over 300 KB run in the slow pass (-m slow): most of the time goes to
# bs4's side (soupsieve), about 35 s for the pages below, 25 s above.
@needs_soupsieve_4
@pytest.mark.parametrize("page", corpus_params(PAGES), ids=lambda p: p.name)
def test_search_parity(page: Path) -> None:
    text = read_page(page)
    bs = bs4.BeautifulSoup(text, "lxml")
    ours = Soup(text, "lxml")
    bs_pos, bs_tags = _positions_bs4(bs)
    our_pos, our_tags = _positions_ours(ours)
    assert [t.name for t in our_tags] == [t.name for t in bs_tags]
    values = _page_values(bs)
    bs_desc = list(bs.html.descendants)
    our_desc = list(ours.html.descendants)
    assert len(bs_desc) == len(our_desc)
    bs_anchors = _anchors(bs_desc, bs_tags, bs4.NavigableString, bs4.Comment)
    bs_ctx = Ctx(bs, values, bs_anchors, bs4.SoupStrainer)
    our_anchors = _anchors(our_desc, our_tags, el.NavigableString, el.Comment)
    our_ctx = Ctx(ours, values, our_anchors, SoupStrainer)
    for key in ANCHORS:
        assert type(our_anchors[key]).__name__ == type(bs_anchors[key]).__name__
        if our_anchors[key].name is None:
            assert str(our_anchors[key]) == str(bs_anchors[key])
        else:
            assert our_pos.of(our_anchors[key]) == bs_pos.of(bs_anchors[key])
    failures = []
    for name, query in QUERIES:
        bs_status, bs_result = _run(query, bs_ctx)
        our_status, our_result = _run(query, our_ctx)
        want = (
            bs_status,
            _norm(bs_result, bs_pos, bs4.Tag, bs4.NavigableString)
            if bs_status == "ok"
            else bs_result,
        )
        got = (
            our_status,
            _norm(our_result, our_pos, el.Tag, el.NavigableString)
            if our_status == "ok"
            else our_result,
        )
        if name in NEEDS_HAS_LISTS and not HAS_LISTS:
            want = ("error", None)
        if want != got:
            failures.append((name, str(want)[:300], str(got)[:300]))
    names = [f[0] for f in failures]
    assert not failures, (
        f"{len(failures)} of {len(QUERIES)} queries differ: {names} {failures[:3]}"
    )
