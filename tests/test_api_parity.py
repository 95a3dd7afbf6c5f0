"""Parity with bs4 on API details: XML output, ``parse_only``, warnings, messages.

bs4 (lxml builders, and ``html.parser`` for the fragment mode) is the oracle:
each case runs the same input through both and compares.
"""

from __future__ import annotations

import copy
import re
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bs4
import cssselect
import pytest
import soupsieve
from conftest import corpus_pages, read_page

import scrapy_soup
from scrapy_soup import Soup

PAGES = corpus_pages("real")
FEEDS = sorted((Path(__file__).parent / "data" / "xml").glob("*.xml"))
MODES = ["lxml", "html.parser", "xml"]
_BOOLEAN = re.compile(r' ([a-z-]+)="\1"')


def _unbool(text: str) -> str:
    """``x="x"`` as ``x=""`` (see test_tree_parity: lxml's valueless booleans)."""
    return _BOOLEAN.sub(r' \1=""', text)


# -- XML output ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("is_xml", [True, False])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", None, "idna", "latin1"])
def test_setting_is_xml_changes_declaration_not_tags(
    mode: str, is_xml: bool, encoding: str | None
) -> None:
    markup = "<tag></tag><br/><p>a</p><x:y/>"
    ours, theirs = Soup(markup, mode), bs4.BeautifulSoup(markup, mode)
    ours.is_xml = theirs.is_xml = is_xml
    assert ours.decode(eventual_encoding=encoding) == theirs.decode(
        eventual_encoding=encoding
    )


@pytest.mark.parametrize("path", FEEDS, ids=lambda p: p.name)
@pytest.mark.parametrize("declared", ["euc-jp", "windows-1251", "utf-16"])
def test_xml_text_ignores_declared_encoding(path: Path, declared: str) -> None:
    # Text is decoded already: bs4 reads it as it is, whatever it declares.
    text = (
        path.read_bytes().decode("utf-8")
        + "<!-- \N{LATIN SMALL LETTER E WITH ACUTE} -->"
    )
    text = re.sub(r'encoding="[^"]*"', f'encoding="{declared}"', text, count=1)
    assert f'encoding="{declared}"' in text
    ours, theirs = Soup(text, "xml"), bs4.BeautifulSoup(text, "xml")
    assert ours.get_text() == theirs.get_text()
    assert [str(s) for s in ours.find_all(string=True)] == [
        str(s) for s in theirs.find_all(string=True)
    ]
    assert ours.original_encoding == theirs.original_encoding


@pytest.mark.parametrize(
    "markup",
    [
        '<?xml version="1.0" encoding="utf8"?>\n<?PITarget PIContent?>',
        b'<?xml version="1.0" encoding="utf8"?>\n<?PITarget PIContent?>',
        "<!-- c --><?a b?>",
        '\N{BYTE ORDER MARK}<?xml version="1.0"?><root>Sacr\xe9 bleu!</root>',
        "<!DOCTYPE foo><!--x-->",
    ],
)
def test_xml_without_root_or_with_bom(markup: str | bytes) -> None:
    ours, theirs = Soup(markup, "xml"), bs4.BeautifulSoup(markup, "xml")
    assert ours.encode("utf8") == theirs.encode("utf8")
    assert [type(c).__name__ for c in ours.contents] == [
        type(c).__name__ for c in theirs.contents
    ]


# -- parse_only ---------------------------------------------------------------------


def _short(s: str | None) -> bool:
    return s is not None and len(s) < 10


STRAINERS: dict[str, Callable[[Any], Any]] = {
    "links": lambda m: m.SoupStrainer("a", href=True),
    "names": lambda m: m.SoupStrainer(["title", "h1", "h2", "img"]),
    "class": lambda m: m.SoupStrainer(class_=True),
    "short strings": lambda m: m.SoupStrainer(string=_short),
}


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
@pytest.mark.parametrize("strainer", list(STRAINERS), ids=str)
def test_parse_only_on_pages(path: Path, strainer: str) -> None:
    text = read_page(path)
    make = STRAINERS[strainer]
    ours = Soup(text, "lxml", parse_only=make(scrapy_soup))
    theirs = bs4.BeautifulSoup(text, "lxml", parse_only=make(bs4))
    assert _unbool(ours.decode()) == _unbool(theirs.decode())
    assert len(ours.find_all(True)) == len(theirs.find_all(True))


@pytest.mark.parametrize("mode", MODES)
def test_parse_only_small(mode: str) -> None:
    markup = "A <b>bold</b> <meta/> <i>statement</i><a><b>one<c>two</c></b></a>"
    ours = Soup(markup, mode, parse_only=scrapy_soup.SoupStrainer("b"))
    theirs = bs4.BeautifulSoup(markup, mode, parse_only=bs4.SoupStrainer("b"))
    assert [t.name for t in ours.contents] == [t.name for t in theirs.contents]
    assert ours.get_text() == theirs.get_text()


def test_parse_only_that_excludes_everything_warns() -> None:
    markup = "<a><b>one</b></a>"
    with warnings.catch_warnings(record=True) as ours_w:
        warnings.simplefilter("always")
        ours = Soup(markup, parse_only=scrapy_soup.SoupStrainer("b", string="one"))
    with warnings.catch_warnings(record=True) as theirs_w:
        warnings.simplefilter("always")
        theirs = bs4.BeautifulSoup(
            markup, "lxml", parse_only=bs4.SoupStrainer("b", string="one")
        )
    assert ours.decode() == theirs.decode() == ""
    assert [w.category for w in ours_w] == [w.category for w in theirs_w]
    assert (
        str(ours_w[0].message).split(":")[0] == str(theirs_w[0].message).split(":")[0]
    )


# -- warnings and messages ----------------------------------------------------------

FIND_METHODS = [
    "find",
    "find_all",
    "find_parent",
    "find_parents",
    "find_next",
    "find_all_next",
    "find_previous",
    "find_all_previous",
    "find_next_sibling",
    "find_next_siblings",
    "find_previous_sibling",
    "find_previous_siblings",
    "__call__",
]


def _warnings_of(call: Callable[[], object]) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return caught


@pytest.mark.parametrize("method", FIND_METHODS)
@pytest.mark.parametrize("kwargs", [{"text": "markup"}, {"_class": "u"}], ids=str)
def test_find_warnings_point_at_the_caller(method: str, kwargs: dict[str, str]) -> None:
    markup = "<a>some</a><b>markup</b>"
    ours_b = Soup(markup).b
    theirs_b = bs4.BeautifulSoup(markup, "lxml").b
    ours = _warnings_of(lambda: getattr(ours_b, method)(**kwargs))
    theirs = _warnings_of(lambda: getattr(theirs_b, method)(**kwargs))
    # The message names the package to import the warning class from.
    assert [(w.category.__name__, str(w.message)) for w in ours] == [
        (w.category.__name__, str(w.message).replace("from bs4 ", "from scrapy_soup "))
        for w in theirs
    ]
    assert [w.filename for w in ours] == [__file__] * len(theirs)


def _search_results(module: Any, soup: Any) -> list[Any]:
    """The deprecated search methods' results, then the warnings they gave."""
    strainer = module.SoupStrainer(name="a")
    out: list[Any] = []
    caught = _warnings_of(
        lambda: out.extend(
            [
                strainer.search(soup.a),
                strainer.search(soup.b),
                strainer.search_tag("b", {}),
                strainer.search_tag("a", None),
            ]
        )
    )
    found = [x.name if hasattr(x, "name") else x for x in out]
    return found + [(w.category.__name__, str(w.message), w.filename) for w in caught]


def test_strainer_search_is_deprecated_like_bs4() -> None:
    markup = "<a></a><b></b>"
    ours = _search_results(scrapy_soup, Soup(markup))
    theirs = _search_results(bs4, bs4.BeautifulSoup(markup, "lxml"))
    assert ours == theirs
    assert ours[4][2] == __file__


@pytest.mark.parametrize("markup", [1, False, lambda: None, object()], ids=repr)
def test_invalid_markup_type_message(markup: Any) -> None:
    with pytest.raises(TypeError) as theirs:
        bs4.BeautifulSoup(markup, "lxml")
    with pytest.raises(TypeError) as ours:
        Soup(markup)
    assert str(theirs.value) in str(ours.value)


# -- values -------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, b"x\xc3\xa9", 5, "y", "", 2.5], ids=repr)
def test_setting_string_converts_like_bs4(value: Any) -> None:
    def outcome(soup: Any) -> tuple[str, ...]:
        try:
            soup.a.string = value
        except TypeError as exc:
            return ("TypeError", str(exc), str(soup.a))
        return ("ok", str(soup.a.string), type(soup.a.string).__name__, str(soup.a))

    ours = outcome(Soup("<a>q<b>r</b></a>"))
    theirs = outcome(bs4.BeautifulSoup("<a>q<b>r</b></a>", "lxml"))
    if value == "":  # an empty string is not kept as a child (README)
        assert ours[3] == theirs[3]
    else:
        assert ours == theirs


# -- encodings ----------------------------------------------------------------------

SAMPLES = {
    "utf-8": "Räksmörgås".encode(),
    "declared latin-1": b'<meta charset="iso-8859-1"><p>caf\xe9 ol\xe9</p>',
    "bom": "\ufeff<p>Räksmörgås</p>".encode(),
}
EXCLUDES = [["utf-8"], ["utf-8", "windows-1252"], ["UTF8"], ["ascii"]]


@pytest.mark.parametrize("sample", list(SAMPLES))
@pytest.mark.parametrize("exclude", EXCLUDES, ids=str)
@pytest.mark.parametrize("mode", ["lxml", "html.parser"])
def test_exclude_encodings(sample: str, exclude: list[str], mode: str) -> None:
    data = SAMPLES[sample]
    ours = Soup(data, mode, exclude_encodings=exclude)
    try:
        theirs = bs4.BeautifulSoup(data, mode, exclude_encodings=exclude)
    except bs4.ParserRejectedMarkup:
        # Nothing left to try: bs4 gives up, any bytes parse here (UTF-8,
        # replacement characters), with no original encoding.
        assert ours.original_encoding is None
        assert (
            ours.get_text()
            == Soup(data.decode("utf-8-sig", "replace"), mode).get_text()
        )
        return
    if sample == "declared latin-1":
        # The declaration as w3lib reads it (WHATWG: iso-8859-1 is cp1252).
        assert (ours.original_encoding, theirs.original_encoding) == (
            "cp1252",
            "iso-8859-1",
        )
    else:
        assert ours.original_encoding == theirs.original_encoding
    assert ours.get_text() == theirs.get_text()


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_exclude_encodings_on_pages(path: Path) -> None:
    data = read_page(path).encode("utf-8")
    theirs = bs4.BeautifulSoup(data, "lxml", exclude_encodings=["ascii"])
    if theirs.original_encoding != "utf-8":
        # The page declares another encoding: bs4 and w3lib name it apart.
        theirs = bs4.BeautifulSoup(data, "lxml", from_encoding="utf-8")
        ours = Soup(data, "lxml", from_encoding="utf-8", exclude_encodings=["ascii"])
    else:
        ours = Soup(data, "lxml", exclude_encodings=["ascii"])
    assert ours.original_encoding == theirs.original_encoding
    assert ours.get_text() == theirs.get_text()
    # Excluding what the page is in: bs4 goes on to Windows-1252, as here.
    ours = Soup(data, "lxml", exclude_encodings=["utf-8"], from_encoding=None)
    assert ours.original_encoding in ("windows-1252", "cp1252", "gb18030", "gbk")


@pytest.mark.parametrize("path", PAGES[:10], ids=lambda p: p.name)
def test_copy_keeps_original_encoding(path: Path) -> None:
    data = read_page(path).encode("utf-8")
    ours, theirs = Soup(data, "lxml"), bs4.BeautifulSoup(data, "lxml")
    ours_copy, theirs_copy = copy.copy(ours), copy.copy(theirs)
    assert ours_copy.original_encoding == ours.original_encoding
    assert theirs_copy.original_encoding == theirs.original_encoding
    assert _unbool(str(ours_copy)) == _unbool(str(theirs_copy))


# -- CSS, line numbers --------------------------------------------------------------

SELECTORS = ["div", "a[href]", "p > a", "h1, h2", "li:nth-child(2)"]


@pytest.mark.parametrize("path", PAGES[:12], ids=lambda p: p.name)
def test_precompiled_selectors_and_iselect(path: Path) -> None:
    text = read_page(path)
    ours, theirs = Soup(text), bs4.BeautifulSoup(text, "lxml")
    for selector in SELECTORS:
        ours_sel, theirs_sel = ours.css.compile(selector), theirs.css.compile(selector)
        assert [_unbool(str(t)) for t in ours.select(ours_sel)] == [
            _unbool(str(t)) for t in theirs.select(theirs_sel)
        ]
        first, theirs_first = ours.select_one(ours_sel), theirs.select_one(theirs_sel)
        assert (first is None) == (theirs_first is None)
        generated = ours.css.iselect(selector)
        assert isinstance(generated, types.GeneratorType)
        assert [t.name for t in generated] == [
            t.name for t in theirs.css.iselect(selector)
        ]


def test_copy_keeps_a_sourceline_set_by_hand() -> None:
    ours = Soup("<p>a</p>").p
    theirs = bs4.BeautifulSoup("<p>a</p>", "lxml").p
    ours.sourceline = theirs.sourceline = 10
    assert copy.copy(ours).sourceline == copy.copy(theirs).sourceline == 10


def test_setting_attrs_to_none_empties_them() -> None:
    markup = '<p id="x" class="a b">t</p>'
    ours, theirs = Soup(markup).p, bs4.BeautifulSoup(markup, "lxml").p
    ours.attrs = theirs.attrs = None
    assert str(ours) == str(theirs)
    assert scrapy_soup.Formatter().attributes(ours) == []


@pytest.mark.parametrize(
    "selector", ["h1 >", ",x, y", "tag%t", "p[", "a:nth-of-type(a)", "a:bogus"]
)
def test_bad_selectors_raise_like_soupsieve(selector: str) -> None:
    with pytest.raises(soupsieve.SelectorSyntaxError):
        bs4.BeautifulSoup("<p>a</p>", "lxml").select(selector)
    # A selector that does not parse is a SelectorSyntaxError here too; one
    # that parses but that cssselect cannot translate is a SelectorError.
    # Both are cssselect SelectorErrors (what parsel users catch).
    expected: type[Exception] = scrapy_soup.SelectorError
    try:
        cssselect.parse(selector)
    except cssselect.SelectorSyntaxError:
        expected = scrapy_soup.SelectorSyntaxError
    with pytest.raises(expected) as caught:
        Soup("<p>a</p>").select(selector)
    assert isinstance(caught.value, cssselect.SelectorError)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "name",
    [
        "UnusualUsageWarning",
        "MarkupResemblesLocatorWarning",
        "XMLParsedAsHTMLWarning",
        "AttributeResemblesVariableWarning",
    ],
)
def test_warning_classes_are_bs4s(name: str) -> None:
    ours, theirs = getattr(scrapy_soup, name), getattr(bs4, name)
    assert [c.__name__ for c in ours.__mro__] == [c.__name__ for c in theirs.__mro__]
