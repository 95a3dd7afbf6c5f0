"""The sanitizer against the public sanitizer test suites, legacy URL attributes,
hidden schemes, whole documents, and failures (it fails closed).

Every output goes through `clean_oracle.assert_inert`: html5lib (scripting on
and off), lxml and ``html.parser`` re-parse it and find nothing active.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from clean_oracle import assert_inert, find_active
from lxml import etree

from scrapy_soup import Soup, absolutize_links
from scrapy_soup.markup._markup import is_document
from scrapy_soup.markup.clean import (
    POLICIES,
    AttributeMap,
    CleanError,
    CleanPolicy,
    clean,
)

DATA = Path(__file__).parent / "data" / "clean"
PRESETS = sorted(POLICIES)
BASE = "https://example.com/dir/page.html"


def _suites() -> dict[str, list[str]]:
    found = json.loads((DATA / "sanitizer_suites.json").read_text("utf-8"))
    suites = {name: suite["vectors"] for name, suite in found["suites"].items()}
    suites["xss_vectors.json"] = json.loads(
        (DATA / "xss_vectors.json").read_text("utf-8")
    )["vectors"]
    return suites


SUITES = _suites()


# -- the oracle itself ---------------------------------------------------------
@pytest.mark.parametrize(
    "unsafe",
    [
        "<img src=x onerror=alert(1)>",
        '<a href="\ufeffjavascript:alert(1)">x</a>',
        '<a href="java\x1bscript:alert(1)">x</a>',
        '<a href="jav&#x200b;ascript:alert(1)">x</a>',
        '<a folder="javascript:alert(1)">x</a>',
        '<p xml:base="javascript:alert(1)">x</p>',
        '<span datasrc="javascript:alert(1)">x</span>',
        '<td background="vbscript:msgbox(1)">x</td>',
        # Markup to lxml and to html5lib without scripting, an image with a
        # handler to a browser running script.
        '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
        "<!--[if IE]><script>alert(1)</script><![endif]-->",
        '<p style="width: expression(alert(1))">x</p>',
        '<svg><a xlink:href="javascript:alert(1)">x</a></svg>',
    ],
)
def test_the_oracle_catches_active_content(unsafe: str) -> None:
    assert find_active(unsafe)


def test_the_oracle_passes_inert_markup() -> None:
    assert_inert('<p title="javascript: a title">x <a href="/a:b">y</a></p>')
    assert_inert('<img src="data:image/png;base64,AAAA" alt="x"/>')


def test_the_vectors_are_there() -> None:
    # The suites as README.md describes them: none silently empty.
    assert {name: len(v) > 100 for name, v in SUITES.items()} == dict.fromkeys(
        SUITES, True
    )


# -- every vector, every preset ------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("suite", sorted(SUITES))
def test_every_vector_is_neutralised(suite: str, preset: str) -> None:
    failures: list[Any] = []
    for vector in SUITES[suite]:
        out = clean(vector, preset)
        problems = find_active(out)
        if problems:
            failures.append((vector, out, problems))
        elif clean(out, preset) != out:
            failures.append((vector, out, "not idempotent"))
    assert not failures, failures[:5]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("suite", sorted(SUITES))
def test_every_vector_is_neutralised_with_links_made_absolute(
    suite: str, preset: str
) -> None:
    failures: list[Any] = []
    for vector in SUITES[suite]:
        out = clean(vector, preset, base_url=BASE)
        problems = find_active(out)
        if problems or out != absolutize_links(clean(vector, preset), BASE):
            failures.append((vector, out, problems))
    assert not failures, failures[:5]


@pytest.mark.parametrize("preset", PRESETS)
def test_vectors_cleaned_in_a_soup_print_inert(preset: str) -> None:
    failures: list[Any] = []
    for vector in SUITES["xss_vectors.json"] + SUITES["bleach"]:
        soup = Soup(vector, "fragment")
        clean(soup, preset)
        problems = find_active(str(soup))
        if problems:
            failures.append((vector, str(soup), problems))
    assert not failures, failures[:5]


# -- URL attributes, legacy ones included, and hidden schemes -------------------
#: Attributes a user agent loads or follows: WHATWG, obsolete, old IE, SVG 1.
LEGACY_URL_ATTRIBUTES = [
    "href", "src", "action", "formaction", "poster", "cite", "data",
    "background", "longdesc", "usemap", "manifest", "codebase", "classid",
    "archive", "profile", "icon", "lowsrc", "dynsrc", "datasrc", "folder",
    "xml:base", "xlink:href", "ping", "srcset", "imagesrcset", "itemtype",
    "vrml", "pluginspage", "pluginurl", "attributionsrc",
]  # fmt: skip
#: Script URLs a browser runs, and ones it reads as relative today (schemes
#: hidden behind invisible or control characters) that a sanitizer must not
#: bet on.
SCRIPT_URLS = [
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "jav&#x09;ascript:alert(1)",
    "java&Tab;script:alert(1)",
    "&#106;avascript:alert(1)",
    "javascript&colon;alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "\ufeffjavascript:alert(1)",
    "&#xfeff;javascript:alert(1)",
    "java\x1bscript:alert(1)",
    "java&#x1b;script:alert(1)",
    "jav\u200bascript:alert(1)",
    "java\u00adscript:alert(1)",
    "javascript\u2028:alert(1)",
    "\u202ejavascript:alert(1)",
    "java\u3000script:alert(1)",
    "java\U000e0041script:alert(1)",
    "java script:alert(1)",
    "\x85javascript:alert(1)",
]
_TAGS_FOR = {"data": "object", "srcset": "img", "imagesrcset": "link"}


def _policies_keeping(attribute: str) -> dict[str, CleanPolicy | str]:
    """The presets, and a policy that names *attribute* on every tag."""
    policies: dict[str, CleanPolicy | str] = {p: p for p in PRESETS}
    policies["named"] = CleanPolicy(
        allowed_tags=None, allowed_attributes=AttributeMap({"*": [attribute]})
    )
    return policies


@pytest.mark.parametrize("attribute", LEGACY_URL_ATTRIBUTES)
def test_script_urls_go_from_every_url_attribute(attribute: str) -> None:
    failures: list[Any] = []
    for name, policy in _policies_keeping(attribute).items():
        for tag in ("a", "img", "p", _TAGS_FOR.get(attribute, "td")):
            for url in SCRIPT_URLS:
                value = url.replace('"', "&quot;")
                markup = f'<{tag} {attribute}="{value}" title="t">x</{tag}>'
                out = clean(markup, policy)
                if find_active(out) or "alert" in out or "msgbox" in out:
                    failures.append((name, markup, out))
    assert not failures, failures[:5]


@pytest.mark.parametrize("attribute", LEGACY_URL_ATTRIBUTES)
def test_safe_urls_stay_where_the_policy_keeps_the_attribute(attribute: str) -> None:
    # The check judges the URL: it does not drop every value.
    policy = _policies_keeping(attribute)["named"]
    markup = f'<p {attribute}="https://example.com/a.png">x</p>'
    kept = BeautifulSoup(clean(markup, policy), "html.parser").p
    assert kept is not None
    assert kept.get(attribute) == "https://example.com/a.png"


@pytest.mark.parametrize("url", SCRIPT_URLS)
def test_hidden_schemes_in_epub_legacy_attributes(url: str) -> None:
    # The case: the epub preset (any attribute) kept these.
    value = url.replace('"', "&quot;")
    for attribute in ("folder", "xml:base", "datasrc", "href", "src"):
        out = clean(f'<a {attribute}="{value}">x</a>', "epub")
        assert_inert(out)
        assert attribute not in out


def test_unknown_attributes_kept_by_a_wildcard_lose_script_urls() -> None:
    out = clean('<p data-href="javascript:alert(1)" data-x="a:b">x</p>', "epub")
    assert out == '<p data-x="a:b">x</p>'


def test_relative_urls_with_invisible_characters_and_allowed_schemes_stay() -> None:
    for url in ("\ufeffhttps://example.com/", "a\u200bb.html", "/x:y"):
        out = clean(f'<a href="{url}">x</a>')
        assert BeautifulSoup(out, "html.parser").a.get("href") == url  # type: ignore[union-attr]


# -- whole documents ------------------------------------------------------------
DOCUMENT = (
    "<!DOCTYPE html>\n<!--[if IE]><script>alert(1)</script><![endif]-->"
    "<?php echo 1 ?>"
    '<html lang="en" manifest="{manifest}" onload="alert(1)">'
    "<head><title>T</title><script>alert(2)</script>"
    '<meta charset="utf-8"><link rel="stylesheet" href="s.css">'
    '<!--[if lt IE 9]><script src="x.js"></script><![endif]--></head>'
    '<body class="c" dir="ltr" onload="alert(3)">'
    '<p>Hi <a href="b.html" onclick="alert(4)">b</a></p></body></html>'
    "<!-- after -->\n"
)


def _structure(output: str) -> list[tuple[str, dict[str, Any]]]:
    """html, head and body as bs4 (lxml builder) reads *output*, with attributes."""
    soup = BeautifulSoup(output, "lxml")
    return [
        (tag.name, dict(tag.attrs)) for tag in soup.find_all(["html", "head", "body"])
    ]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("manifest", ["app.appcache", "javascript:alert(5)"])
def test_a_whole_document_string_stays_whole(preset: str, manifest: str) -> None:
    document = DOCUMENT.format(manifest=manifest)
    out = clean(document, preset)
    assert_inert(out)
    assert clean(out, preset) == out
    assert out.startswith("<!DOCTYPE html>\n<html")
    structure = _structure(out)
    assert [name for name, _ in structure] == ["html", "head", "body"]
    html_attrs, _, body_attrs = (attrs for _, attrs in structure)
    # Kept as the policy keeps any element's attributes (lang, dir: "*" in
    # safe and epub; strict keeps none), judged as URLs (manifest: epub).
    expected_html = {} if preset == "strict" else {"lang": "en"}
    if preset == "epub" and not manifest.startswith("javascript"):
        expected_html["manifest"] = manifest
    assert html_attrs == expected_html
    expected_body: dict[str, Any] = {} if preset == "strict" else {"dir": "ltr"}
    if preset == "epub":
        expected_body["class"] = ["c"]
    assert body_attrs == expected_body
    # With base_url, in one pass, as in two calls.
    absolute = clean(document, preset, base_url=BASE)
    assert absolute == absolutize_links(out, BASE)
    assert 'href="https://example.com/dir/b.html"' in absolute


def test_absolutize_links_keeps_a_whole_document_whole() -> None:
    document = DOCUMENT.format(manifest="app.appcache")
    out = absolutize_links(document, BASE)
    # The same document as bs4 writes it, links made absolute.
    expected = BeautifulSoup(document, "lxml")
    for tag, attribute in (("html", "manifest"), ("a", "href"), ("link", "href")):
        node = expected.find(tag)
        assert node is not None
        node[attribute] = "https://example.com/dir/" + str(node[attribute])
    assert out == str(expected)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_document_soup_loses_its_top_level_comments(preset: str) -> None:
    soup = Soup(DOCUMENT.format(manifest="javascript:alert(5)"))
    assert clean(soup, preset) is soup
    out = str(soup)
    assert_inert(out)
    assert "<!--" not in out and "<?" not in out
    # The soup's children are what it prints: the doctype and <html> (and
    # the whitespace bs4 keeps after </html>).
    children = [c for c in soup.contents if not (isinstance(c, str) and c.isspace())]
    assert [type(c).__name__ for c in children] == ["Doctype", "Tag"]
    # The string path gives the same document.
    document = clean(DOCUMENT.format(manifest="javascript:alert(5)"), preset)
    assert document == out.rstrip("\n")


def test_a_document_root_element_loses_its_top_level_comments() -> None:
    tree = etree.fromstring(
        DOCUMENT.format(manifest="a").encode(), etree.HTMLParser()
    ).getroottree()
    clean(tree)
    root = tree.getroot()
    assert [*root.itersiblings(preceding=True), *root.itersiblings()] == []
    assert [child.tag for child in root] == ["head", "body"]


def test_an_xml_soup_loses_its_top_level_processing_instructions() -> None:
    soup = Soup(
        '<?xml version="1.0"?><?xml-stylesheet href="javascript:alert(1)"?>'
        "<!--c--><root><p>x</p></root><!--d-->",
        "xml",
    )
    clean(soup)
    assert [str(c) for c in soup.contents] == ["<root><p>x</p></root>"]
    assert "stylesheet" not in str(soup)


def test_comments_kept_by_a_policy_stay_at_the_top_level_when_harmless() -> None:
    policy = CleanPolicy(keep_comments=True)
    soup = Soup("<!-- license --><!--[if IE]>x<![endif]--><html><body>x</body></html>")
    clean(soup, policy)
    assert [str(c) for c in soup.contents[:-1]] == [" license "]


HOSTILE_PREFIXES = {
    "spaces": " " * 100_000,
    "comments": "<!---->" * 20_000,
    "instructions": "<?a>" * 20_000,
    "marks": "\ufeff\n" * 50_000,
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_PREFIXES))
def test_hostile_prefixes_are_no_document(kind: str) -> None:
    # A regex with nested repetition here once backtracked exponentially.
    prefix = HOSTILE_PREFIXES[kind]
    assert not is_document(prefix + "x")
    assert is_document(prefix[:7000] + "<!DOCTYPE html>")


def test_a_doctype_that_would_end_early_loses_its_identifiers() -> None:
    out = clean('<!DOCTYPE html SYSTEM "a<b"><html><body><p>x</p></body></html>')
    assert out == "<!DOCTYPE html>\n<html><body><p>x</p></body></html>"


# -- fail closed ----------------------------------------------------------------
def _broken(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("injected")


@pytest.mark.parametrize(
    "markup", ["<p onclick=x()>x<script>y</script></p>", DOCUMENT.format(manifest="")]
)
def test_clean_raises_instead_of_returning_markup_it_could_not_clean(
    markup: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = importlib.import_module("scrapy_soup.markup.clean")
    monkeypatch.setattr(module, "_clean_tree", _broken)
    for make in (str, lambda m: Soup(m), lambda m: Soup(m, "fragment")):
        with pytest.raises(CleanError, match="could not clean") as info:
            clean(make(markup))
        assert isinstance(info.value.__cause__, RuntimeError)


def test_clean_raises_when_the_rewrite_of_links_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = importlib.import_module("scrapy_soup.markup.clean")
    monkeypatch.setattr(module, "absolutize_nodes", _broken)
    monkeypatch.setattr(module, "absolutize_element", _broken)
    with pytest.raises(CleanError):
        clean("<a href=x onclick=y>x</a>", base_url=BASE)
    with pytest.raises(CleanError):
        clean(Soup("<a href=x onclick=y>x</a>", "fragment"), base_url=BASE)


def test_absolutize_links_raises_instead_of_returning_markup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = importlib.import_module("scrapy_soup.markup.links")
    monkeypatch.setattr(module, "absolutize_element", _broken)
    for markup in ("<a href=x>x</a>", Soup("<a href=x>x</a>", "fragment")):
        with pytest.raises(CleanError, match="could not process"):
            absolutize_links(markup, BASE)


def test_misuse_raises_the_usual_errors() -> None:
    with pytest.raises(TypeError):
        clean(42)
    with pytest.raises(ValueError, match="unknown clean policy"):
        clean("<p>x</p>", "nope")
    with pytest.raises(ValueError):
        clean("<p>x</p>", base_url="not absolute")
    with pytest.raises(ValueError):
        absolutize_links("<p>x</p>", "not absolute")


# -- policies that keep raw-text elements: mutation XSS -------------------------
def _keeping_style() -> dict[str, CleanPolicy]:
    safe = POLICIES["safe"]
    return {
        # The safe preset with style taken out of remove_tags
        # (SOUP_CLEAN_REMOVE_TAGS reaches it), and every tag allowed.
        "safe, style kept": safe.replace(
            remove_tags=safe.remove_tags - {"style"},
            allowed_tags=safe.allowed_tags | {"style", "svg", "math", "noscript"},
        ),
        'safe, style kept, allowed_tags="*"': safe.replace(
            remove_tags=safe.remove_tags - {"style", "noembed", "noframes", "iframe"},
            allowed_tags=None,
        ),
    }


MUTATION_VECTORS = [
    "<svg><style><img src=x onerror=alert(1)></style></svg>",
    "<math><style><img src=x onerror=alert(1)></style></math>",
    "<noscript><style><img src=x onerror=alert(1)></style></noscript>",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>',
    "<svg><p><style><img src=x onerror=alert(1)></style></p></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<svg></p><style><a id='</style><img src=1 onerror=alert(1)>'>",
    "<math><mi><style><a href=javascript:alert(1)>x</a></style></mi></math>",
    "<svg><noembed><img src=x onerror=alert(1)></noembed></svg>",
    "<svg><xmp><img src=x onerror=alert(1)></xmp></svg>",
    "<svg><iframe><img src=x onerror=alert(1)></iframe></svg>",
]


@pytest.mark.parametrize("name", list(_keeping_style()))
def test_no_policy_keeping_style_opens_a_mutation_xss_path(name: str) -> None:
    policy = _keeping_style()[name]
    failures: list[Any] = []
    vectors = [v for suite in SUITES.values() for v in suite] + MUTATION_VECTORS
    for vector in vectors:
        out = clean(vector, policy)
        # As a browser parses it: no <script>, no on* handler, no javascript:
        # URL (the policy keeps <svg>, <style>... on purpose).
        problems = [
            p
            for p in find_active(out)
            if p.startswith("html5lib")
            and (
                re.search(r"element (\{[^}]*\})?script$", p)
                or "event handler" in p
                or "javascript" in p.lower()
            )
        ]
        if problems:
            failures.append((vector, out, problems))
        elif clean(out, policy) != out:
            failures.append((vector, out, "not idempotent"))
    assert not failures, (len(failures), failures[:5])


def test_style_kept_outside_foreign_content_stays() -> None:
    policy = _keeping_style()["safe, style kept"]
    out = clean("<style>p { color: red }</style><p>x</p>", policy)
    assert out == "<style>p { color: red }</style><p>x</p>"
