"""``clean()`` drops the characters HTML and XML 1.0 forbid in text, and counts them.

A real page's ``\\x1d`` survived cleaning and made Scrapy's XML feed not
well-formed (issue 30). The crawl test sends a real corpus page with such
characters written into its text through the add-on's pipelines into XML,
JSON Lines and CSV feeds, and reads the XML feed back with lxml's strict
parser.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest
import scrapy
from conftest import corpus_page
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from scrapy_helpers import ADDON_SETTINGS, Page, PageServer, run_crawl
from test_fuzz_clean import assert_safe_output

from scrapy_soup import CleanPolicy, Soup, absolutize_links, clean
from scrapy_soup.markup._characters import drop_forbidden, has_forbidden
from scrapy_soup.markup.clean import clean_element

#: Every character dropped (form feed: made a space), one of each kind.
FORBIDDEN = [
    *map(chr, range(0x00, 0x09)),
    "\x0b",
    "\x0c",
    *map(chr, range(0x0E, 0x20)),
    *map(chr, range(0x7F, 0xA0)),
    *map(chr, range(0xFDD0, 0xFDF0)),
    *(chr(plane << 16 | low) for plane in range(17) for low in (0xFFFE, 0xFFFF)),
]
#: Characters next to them that stay: whitespace, U+FFFD, the last
#: characters before each noncharacter, a CJK ideograph of plane 2, emoji.
KEPT = "\t\n \xa0\ufffd\ufdcf\ufdf0\ufffd\U0001fffd\U0002000b\U0001f600\U0010fffd"
#: A character XML 1.0 refuses (what lxml's strict parser stops at).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
PRESETS = [None, "safe", "strict", "epub", CleanPolicy(allowed_tags="*")]


def _xml_text_ok(text: str) -> bool:
    """Whether *text* is XML text a strict parser reads back as itself."""
    root = etree.fromstring(
        b"<r>" + text.replace("&", "&amp;").replace("<", "&lt;").encode() + b"</r>"
    )
    return root.text == (text or None)


def test_the_forbidden_characters_and_only_them() -> None:
    for char in FORBIDDEN:
        assert has_forbidden(f"a{char}b"), hex(ord(char))
        assert drop_forbidden(f"a{char}b") == ("a b" if char == "\x0c" else "ab", 1)
    assert not has_forbidden(KEPT)
    assert drop_forbidden(KEPT) == (KEPT, 0)
    # Plane 2-16 text around a noncharacter: only the noncharacter goes.
    assert drop_forbidden("\U0002000b\U0002fffe\U0002fffd") == (
        "\U0002000b\U0002fffd",
        1,
    )


def test_the_quick_check_agrees_with_the_drop_on_every_code_point() -> None:
    """`has_forbidden` (UTF-8 bytes, memchr) against `drop_forbidden` (a search of the text).

    Every code point, lone surrogates included, in blocks of 256 (a block
    with one to drop is checked a character at a time), after an ASCII
    letter and after a character of each internal width of ``str``.
    """
    checked = 0
    for start in range(0, 0x110000, 256):
        block = "".join(map(chr, range(start, start + 256)))
        singles = drop_forbidden(block)[1] > 0
        assert has_forbidden(block) is singles, hex(start)
        if not singles:
            continue
        for char in block:
            for text in (
                f"a{char}",
                f"\xe9{char}",
                f"\u4e00{char}",
                f"\U0001f600{char}",
            ):
                assert has_forbidden(text) is (drop_forbidden(text)[1] > 0), hex(
                    ord(char)
                )
                checked += 1
    assert checked > 4 * 2048  # the surrogates' blocks at least


# Ids that do not print a frozenset: its order differs between processes,
# and pytest-xdist's workers must collect the same ids.
@pytest.mark.parametrize(
    "policy", PRESETS, ids=["None", "safe", "strict", "epub", "all"]
)
def test_text_and_attribute_values_lose_them(policy: Any) -> None:
    written = "".join(c for c in FORBIDDEN if c != "\x00")
    # (&#0; is U+FFFD, &#x80;-&#x9f; are windows-1252's, as in a browser.)
    references = "".join(
        f"&#x{ord(c):x};"
        for c in FORBIDDEN
        if not (c == "\x00" or 0x80 <= ord(c) < 0xA0)
    )
    markup = (
        f'<p title="t{written}{KEPT}">a{written}b{references}c{KEPT}</p>'
        f"<p>\x1d<b>bold\x1d</b>tail\x1d</p>"
    )
    out = clean(markup, policy)
    assert not has_forbidden(out)
    assert _xml_text_ok(out)
    assert clean(out, policy) == out
    soup = Soup(out, "fragment")
    first = soup.find("p")
    assert first is not None
    # The text kept, each form feed made a space.
    assert first.get_text() == "a" + " " + "b" + " " + "c" + KEPT
    if policy not in ("strict",):
        assert first["title"] == "t " + KEPT
    assert soup.find_all("p")[1].get_text() == "boldtail"


def test_a_control_character_cannot_hide_a_script_url() -> None:
    # Dropping characters changes values after they were checked: the tree
    # is checked again (a browser reads "java\x01script:" as a relative URL).
    for value in [
        "java\x01script:alert(1)",
        "java&#1;script:alert(1)",
        "\x85javascript:x",
    ]:
        out = clean(f'<a href="{value}">x</a><img src="{value}">', "safe")
        assert out == "<a>x</a><img/>", value
        el = etree.fromstring(
            f'<div><a href="{value.replace("&", "&amp;")}">x</a></div>',
            etree.HTMLParser(),
        )
        clean_element(el)
        assert "javascript" not in etree.tostring(el, encoding="unicode")


@pytest.mark.parametrize(
    "char", ["\x01", "\x1d", "\x7f", "\x85", "\ufdd0", "\U0010ffff"]
)
def test_links_made_absolute_in_the_same_pass_lose_them_first(char: str) -> None:
    # absolutize_links() percent-encodes what is left in a URL: the one-pass
    # clean(base_url=...) drops them first, as clean() then absolutize_links().
    base = "https://example.com/dir/page.html"
    markup = f'<a href="a{char}b">x</a><img srcset="i{char}.png 1x"><p>t{char}</p>'
    once = clean(markup, base_url=base)
    assert once == absolutize_links(clean(markup), base)
    assert once == (
        '<a href="https://example.com/dir/ab">x</a>'
        '<img srcset="https://example.com/dir/i.png 1x"/><p>t</p>'
    )
    # A percent-encoded control character written in the page stays.
    for written in ('<a href="a%01b">x</a>', '<a href="?text=a%0Ab%0D%09">x</a>'):
        assert clean(written, base_url=base) == absolutize_links(clean(written), base)
    # Tab, line feed and carriage return are allowed: no second pass for them.
    from scrapy_soup.markup._characters import ENCODED_FORBIDDEN

    assert ENCODED_FORBIDDEN.search("%09%0a%0D%20%7e%C2%A0%EF%BF%BD") is None
    for char in FORBIDDEN:
        encoded = "".join(f"%{b:02X}" for b in char.encode("utf-8", "surrogatepass"))
        assert ENCODED_FORBIDDEN.search(encoded), char


def test_tag_names_with_them_are_unwrapped() -> None:
    wildcard = CleanPolicy(allowed_tags="*")
    assert clean("<p\x7f>x</p><b\x1d>y</b>", wildcard) == "xy"


def test_clean_element_counts_them() -> None:
    el = etree.fromstring(
        "<div><p title='a\x1db\x0c'>x&#29;y\x85</p><!-- c --></div>",
        etree.HTMLParser(),
    )
    body = el.find("body")
    assert body is not None
    stats = clean_element(body)
    assert stats.characters_removed == 4
    assert stats.comments_removed == 1
    p = body.find("div/p")
    assert p is not None
    assert (p.text, p.get("title")) == ("xy", "ab ")
    # Nothing left: nothing counted.
    assert clean_element(body).characters_removed == 0


def test_a_soup_cleaned_in_place_prints_none() -> None:
    soup = Soup("<p title='a\x1db'>x&#29;y\ufdd0</p>", "fragment")
    clean(soup)
    assert str(soup) == '<p title="ab">xy</p>'


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([*FORBIDDEN, "<p>", "</p>", "<a href='", "'>", "&#29;"]),
            st.text(max_size=5),
        ),
        max_size=20,
    ).map("".join),
    st.sampled_from(PRESETS),
)
def test_any_output_is_xml_text_and_idempotent(text: str, policy: Any) -> None:
    out = clean(text, policy)
    assert not has_forbidden(out)
    assert _xml_text_ok(out)
    assert clean(out, policy) == out
    assert_safe_output(out)


# -- a real crawl into XML, JSON Lines and CSV feeds ----------------------------------
#: Written into the page's text and an attribute: the issue's \x1d, and
#: one character of each kind (some as references).
INSERTED = "GS\x1d&#29; VT\x0b FF\x0c C1\x85 NC\ufdd0&#xfffe; end"


class CharactersSpider(scrapy.Spider):
    """One item per page: the page's body as a Tag, and as a str field."""

    name = "characters"

    def parse(self, response: Any) -> Any:
        yield {
            "page": response.url,
            "body": response.soup.body,
            "html": response.css("body").get(),
            # An HTML field holding no markup is not parsed (that would
            # write "AT&T" as "AT&amp;T"), but it loses the characters too.
            "note": "GS\x1d AT&T\x0cend",
        }


def _page_with_characters() -> bytes:
    text = corpus_page("daringfireball-1.html").read_bytes().decode("utf-8")
    first = text.index("<p>")
    marked = (
        text[: first + 3]
        + INSERTED
        + text[first + 3 :].replace("<p>", f'<p title="{INSERTED}">', 1)
    )
    assert marked.count("\x1d") == 2
    return marked.encode("utf-8")


def test_a_crawl_exports_well_formed_xml_json_lines_and_csv(tmp_path: Path) -> None:
    feeds = {
        str(tmp_path / "items.jsonlines"): {"format": "jsonlines", "encoding": "utf-8"},
        str(tmp_path / "items.xml"): {"format": "xml", "encoding": "utf-8"},
        str(tmp_path / "items.csv"): {"format": "csv", "encoding": "utf-8"},
    }
    with PageServer({"/page.html": Page(_page_with_characters())}) as server:
        result = run_crawl(
            tmp_path,
            "test_clean_characters:CharactersSpider",
            {**ADDON_SETTINGS, "SOUP_HTML_FIELDS": ["html", "note"], "FEEDS": feeds},
            start_urls=[server.base + "/page.html"],
        )
    stats = result.stats
    assert stats["item_scraped_count"] == 1
    # Both fields, each with the characters written twice (text, title),
    # and the two of the note.
    assert stats["soup/characters_removed"] >= 18
    # The XML feed parses with lxml's strict parser (no recover).
    root = etree.parse(str(tmp_path / "items.xml"), etree.XMLParser()).getroot()
    items = root.findall("item")
    assert len(items) == 1
    for name in ("body", "html"):
        value = items[0].findtext(name)
        assert value is not None and "GS VT FF  C1 NC end" in value
        assert not has_forbidden(value)
    lines = (tmp_path / "items.jsonlines").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    item = json.loads(lines[0])
    assert item["body"] == items[0].findtext("body")
    assert item["html"] == items[0].findtext("html")
    assert item["note"] == items[0].findtext("note") == "GS AT&T end"
    with open(tmp_path / "items.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1
    assert rows[0]["body"] == item["body"]
    assert not NOT_XML.search((tmp_path / "items.csv").read_text(encoding="utf-8"))
