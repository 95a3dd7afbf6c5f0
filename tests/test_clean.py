"""Tests for scrapy_soup.markup.clean: the policy engine and its safety."""

from __future__ import annotations

import html as htmllib
import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Comment
from clean_oracle import find_active, html5lib_trees
from conftest import corpus_pages, corpus_params
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree, html

from scrapy_soup import absolutize_links
from scrapy_soup.markup._policy import _cleaner
from scrapy_soup.markup.clean import (
    EPUB_POLICY,
    POLICIES,
    SAFE_TAGS,
    STRICT_POLICY,
    AttributeMap,
    CleanPolicy,
    CleanStats,
    clean,
    clean_element,
    get_policy,
)

DATA = Path(__file__).parent / "data" / "clean"
VECTORS: list[str] = json.loads((DATA / "xss_vectors.json").read_text("utf-8"))[
    "vectors"
]


PAGES = corpus_pages()


# -- the safety oracle ------------------------------------------------------------
#: Elements that run code, load documents or change how the page behaves, and
#: elements whose content browsers parse differently from lxml (mXSS).
DANGEROUS_TAGS = frozenset(
    {
        "script", "iframe", "frame", "frameset", "object", "embed", "applet",
        "base", "meta", "link", "style", "template", "svg", "math", "noscript",
        "xmp", "noembed", "noframes", "plaintext", "textarea", "title",
        "isindex", "bgsound", "form", "button", "input", "select", "keygen",
    }
)  # fmt: skip
URL_ATTRS = frozenset(
    {
        "href", "src", "srcset", "action", "formaction", "poster", "cite",
        "data", "background", "longdesc", "usemap", "manifest", "codebase",
        "lowsrc", "dynsrc", "classid", "ping", "imagesrcset", "values", "to",
        "from", "by", "content", "archive", "profile", "icon",
    }
)  # fmt: skip
BAD_SCHEMES = ("javascript", "vbscript", "livescript", "data", "feed")
_C0_SPACE = "".join(map(chr, range(0x21)))


def _browser_url(value: str) -> str:
    """What a browser's URL parser starts from, lowercased."""
    return re.sub("[\t\n\r]", "", value.strip(_C0_SPACE)).lower()


def _bad_url(value: str, tag: str, attr: str, strict: bool) -> bool:
    # strict: decode once more, as a serializer that left "&" raw would let a
    # browser (clean() guards against that too).
    for candidate in {value, htmllib.unescape(value) if strict else value}:
        parts = [candidate]
        if attr.endswith("srcset"):
            # A candidate's URL is its first token (ASCII whitespace ends it).
            parts = [(p.split(None, 1) or [""])[0] for p in candidate.split(",")]
        for part in parts:
            url = _browser_url(part)
            if attr == "content":
                url = re.sub(r"^[\d.\s;,]*(url\s*=\s*)?['\"]?", "", url)
            for scheme in BAD_SCHEMES:
                if url.startswith(scheme + ":"):
                    image = re.match(
                        r"data:image/(png|gif|jpe?g|webp|avif|bmp)[;,]", url
                    )
                    if not (
                        image and (tag, attr) in {("img", "src"), ("img", "srcset")}
                    ):
                        return True
    return False


def _problems(tag: str, attrs: dict[str, Any], strict: bool) -> list[str]:
    found = []
    local = tag.lower().rsplit(":", 1)[-1]
    if local in DANGEROUS_TAGS:
        found.append(f"element {tag}")
    for name, raw in attrs.items():
        value = " ".join(raw) if isinstance(raw, list) else str(raw)
        lname = name.lower().rsplit(":", 1)[-1]
        if lname.startswith("on"):
            found.append(f"event handler {name}")
        if lname in ("srcdoc", "style"):
            found.append(f"attribute {name}")
        if lname in URL_ATTRS and _bad_url(value, local, lname, strict):
            found.append(f"{name}={value!r}")
    return found


def assert_safe(output: str, strict: bool = True) -> None:
    """Re-parse *output* with html5lib, lxml and bs4 and find nothing that can run script."""
    problems: list[str] = []
    root = html.document_fromstring(f"<html><body>{output}</body></html>")
    for el in root.iter():
        if isinstance(el.tag, str):
            if el.tag not in ("html", "body", "head"):
                problems += _problems(el.tag, dict(el.attrib), strict)
        else:
            problems.append(f"comment or PI {el!r}")
    # As a browser parses it (html5lib), with scripting off and on: a
    # <noscript>'s content is markup to one, raw text to the other.
    for label, tree in html5lib_trees(output):
        for node in tree.iter():
            tag: object = node.tag
            if isinstance(tag, str):
                local = tag.rsplit("}", 1)[-1]
                if local not in ("html", "head", "body"):
                    problems += _problems(local, dict(node.attrib), strict)
            elif tag is ElementTree.Comment:
                problems.append(f"comment ({label})")
    for builder in ("html.parser", "lxml"):
        soup = BeautifulSoup(output, builder)
        for tag in soup.find_all(True):
            if tag.name not in ("html", "body", "head"):
                problems += _problems(tag.name, tag.attrs, strict)
        if soup.find(string=lambda s: isinstance(s, Comment)):
            problems.append(f"comment ({builder})")
    assert not problems, (output, problems)


_ELEMENT_PROBLEM = re.compile(r"element (?:\{[^}]*\})?([^\s{}]+)\Z")


def assert_no_script(output: str, policy: Any = None) -> None:
    """`clean_oracle.find_active` finds nothing but elements *policy* keeps.

    For policies that keep every tag (``"*"``), or name one the presets
    never keep: such an element is what the user asked for; an event
    handler, a script URL, CSS that runs script or an element the policy
    does not keep is never.
    """
    compiled = _cleaner(get_policy(policy))
    problems = []
    for problem in find_active(output):
        found = _ELEMENT_PROBLEM.search(problem)
        if found is None or compiled.tag_action(found.group(1)) > 0:
            problems.append(problem)
    assert not problems, (output, problems)


@pytest.mark.parametrize("vector", VECTORS)
def test_xss_vectors_are_neutralised(vector: str) -> None:
    out = clean(vector)
    assert_safe(out)
    assert clean(out) == out


# Every javascript: spelling a browser accepts, in every URL attribute the
# default policy keeps, and in CSS for a policy that allows style.
JS_SPELLINGS = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "\x01javascript:alert(1)",
    "\x1fjavascript:alert(1)",
    "jav\tascript:alert(1)",
    "jav\nascript:alert(1)",
    "jav\rascript:alert(1)",
    "jav&#x09;ascript:alert(1)",
    "jav&#10;ascript:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript:alert(1)",
    "&#0000106avascript:alert(1)",
    "javascript&colon;alert(1)",
    "javascript&#58;alert(1)",
    "java&Tab;script:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "&#x26;#106;avascript:alert(1)",
]
CONTEXTS = [
    '<a href="{}">x</a>',
    '<img src="{}">',
    '<img srcset="a.png 1x, {} 2x">',
    '<area href="{}">',
    '<video poster="{}" src="{}"></video>',
    '<audio src="{}"></audio>',
    '<source src="{}" srcset="{}">',
    '<track src="{}">',
    '<blockquote cite="{}">x</blockquote>',
    '<q cite="{}">x</q>',
    '<del cite="{}">x</del>',
]


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("spelling", JS_SPELLINGS)
def test_javascript_spellings_in_every_url_attribute(
    context: str, spelling: str
) -> None:
    vector = context.replace("{}", spelling.replace('"', "&quot;"))
    out = clean(vector)
    assert_safe(out)
    assert clean(out) == out


@pytest.mark.parametrize("spelling", JS_SPELLINGS)
def test_javascript_in_css_when_style_is_allowed(spelling: str) -> None:
    policy = CleanPolicy(allowed_attributes={"*": ["style"]})
    out = clean(f"<p style=\"background:url('{spelling}')\">x</p>", policy)
    assert "style" not in out
    out = clean(
        f"<style>p{{background:url({spelling})}}</style>",
        policy.replace(allowed_tags=["style"]),
    )
    assert out == ""


def test_the_oracle_agrees_nh3_is_safe() -> None:
    """nh3 (ammonia) output passes the oracle: the oracle is not too strict.

    ammonia does not filter the scheme of ``cite`` (no browser follows it);
    we do, and the oracle checks it.
    """
    nh3 = pytest.importorskip("nh3")
    for vector in VECTORS:
        output = nh3.clean(vector)
        if "cite=" not in output:
            assert_safe(output, strict=False)


def test_the_oracle_catches_unsafe_output() -> None:
    for unsafe in [
        "<img src=x onerror=alert(1)>",
        '<a href="jav&#x09;ascript:x">x</a>',
        "<svg><a>x</a></svg>",
        '<p style="x">x</p>',
        "<!-- c -->",
        '<a href="javascript&amp;colon;x">x</a>',
    ]:
        with pytest.raises(AssertionError):
            assert_safe(unsafe)


# -- what the default policy keeps ------------------------------------------------
def test_keeps_safe_content() -> None:
    fragment = (
        '<h2 title="t">Head</h2><p lang="en">Text <a href="/rel?a=1&amp;b=2" hreflang="en">link</a>'
        ' <a href="https://example.com/">abs</a> <a href="mailto:a@example.com">mail</a></p>'
        '<img src="a.png" srcset="a.png 1x, b.png 2x" alt="A" width="10" height="20">'
        '<table><tbody><tr><td colspan="2">cell</td></tr></tbody></table>'
        '<img src="data:image/png;base64,iVBORw0KGgo=">'
    )
    assert _same_html(clean(fragment), fragment)


def _same_html(a: str, b: str) -> bool:
    """Same tags, attributes and text once parsed by bs4 (serializations differ)."""

    def shape(markup: str) -> list[object]:
        soup = BeautifulSoup(markup, "html.parser")
        return [
            (node.name, dict(node.attrs)) if node.name else str(node)
            for node in soup.descendants
        ]

    return shape(a) == shape(b)


def test_text_stays_escaped() -> None:
    text = "&lt;script&gt;alert(1)&lt;/script&gt; 1 &lt; 2 &amp; 3"
    assert clean(text) == text
    assert clean(f"<p>{text}</p>{text}") == f"<p>{text}</p>{text}"


def test_unwraps_unknown_and_removes_code() -> None:
    out = clean(
        "<div class=c id=i><font color=red>red</font> <custom-el>custom</custom-el>"
        "<script>var x;</script>after<style>p{}</style><iframe src=x>f</iframe>"
        "<object data=x><param name=a value=b>fallback</object>end</div>"
    )
    assert out == "<div>red customafterend</div>"


def test_text_of_allowed_content_is_preserved() -> None:
    fragment = (
        "<section><h1>Title</h1><p>One <span>two</span> <font>three</font> "
        "<u>four</u><svg><text>five</text></svg><form>six <input> seven</form></p>"
        "<noscript><img src=lazy.png>eight</noscript></section>"
    )
    before = BeautifulSoup(fragment, "html.parser").get_text()
    assert BeautifulSoup(clean(fragment), "html.parser").get_text() == before


# -- policies ----------------------------------------------------------------------
def test_epub_policy_drops_align_and_resets_img() -> None:
    out = clean(
        '<p align="center" class="x"><img src="a.png" alt="A" class="wide" align="left" '
        'width="5" height="6" style="border:0" data-x="y" onload="x()"></p>',
        EPUB_POLICY,
    )
    assert out == '<p class="x"><img alt="A" height="6" src="a.png" width="5"/></p>'
    assert clean("<p align=left>x</p>", "epub") == "<p>x</p>"


def test_strict_policy_is_text_and_links() -> None:
    out = clean(
        '<div><h1>T</h1><p>a <b>b</b> <a href="/x" title="t">c</a><br>'
        '<img src="i.png" alt="i"></p></div>',
        "strict",
    )
    assert out == '<p>a b <a href="/x">c</a><br/></p>'.replace("<p>", "T<p>")


def test_wildcard_never_allows_style_srcdoc_or_handlers() -> None:
    policy = CleanPolicy(allowed_tags=None, allowed_attributes={"*": ["*"]})
    out = clean(
        '<div data-x="1" style="color:red" onclick="x" srcdoc="<b>" aria-label="l">'
        "<iframe srcdoc=x></iframe><custom a=b>c</custom></div>",
        policy,
    )
    assert out == '<div aria-label="l" data-x="1"><custom a="b">c</custom></div>'


def test_explicit_style_is_kept_when_harmless() -> None:
    policy = CleanPolicy(allowed_attributes={"*": ["style"]})
    assert clean('<p style="color: red; background: url(a.png)">x</p>', policy) == (
        '<p style="color: red; background: url(a.png)">x</p>'
    )
    for bad in [
        "width: expression(alert(1))",
        "width: expr/**/ession(alert(1))",
        r"width: \65 xpression(alert(1))",
        "behavior: url(x.htc)",
        "-moz-binding: url(x.xml#x)",
        "background: url(javascript:alert(1))",
        r"background: url(java\73 cript:alert(1))",
        "background: url(data:text/html,x)",
    ]:
        assert clean(f'<p style="{bad}">x</p>', policy) == "<p>x</p>", bad


def test_url_schemes_and_relative_urls() -> None:
    frag = '<a href="ftp://f/x">1</a><a href="/rel">2</a><a href="gopher://g/">3</a>'
    assert clean(frag) == '<a href="ftp://f/x">1</a><a href="/rel">2</a><a>3</a>'
    policy = CleanPolicy(url_schemes=["https"], allow_relative_urls=False)
    assert clean(frag + '<a href="HTTPS://x/">4</a>', policy) == (
        '<a>1</a><a>2</a><a>3</a><a href="HTTPS://x/">4</a>'
    )
    no_data = CleanPolicy(data_image_urls=False)
    assert clean('<img src="data:image/png;base64,AA">', no_data) == "<img/>"


def test_comments() -> None:
    assert clean("a<!-- c -->b") == "ab"
    keep = CleanPolicy(keep_comments=True)
    assert clean("a<!-- c -->b", keep) == "a<!-- c -->b"
    # Comments a browser could end early, or IE conditionals, still go.
    for bad in ["<!--[if IE]>x<![endif]-->", "<!-- a -- b -->", "<!--<!-- nested -->"]:
        assert "<!--" not in clean(f"x{bad}y", keep), bad


def test_removed_and_allowed_together_means_allowed() -> None:
    policy = CleanPolicy(allowed_tags=SAFE_TAGS | {"style"})
    assert (
        clean("<style>p { color: red }</style>", policy)
        == "<style>p { color: red }</style>"
    )
    assert clean("<style>p { x: expression(1) }</style>", policy) == ""


def test_meta_refresh_and_base_when_allowed() -> None:
    policy = CleanPolicy(
        allowed_tags=["meta", "base"],
        remove_tags=[],
        allowed_attributes={"meta": ["http-equiv", "content"], "base": ["href"]},
    )
    out = clean(
        '<meta http-equiv="refresh" content="0; url=javascript:alert(1)">'
        '<meta http-equiv="refresh" content="5; url=/next">'
        '<base href="javascript:alert(1)">',
        policy,
    )
    assert out == (
        '<meta http-equiv="refresh"/><meta content="5; url=/next" http-equiv="refresh"/><base/>'
    )


def test_svg_animation_cannot_target_href() -> None:
    policy = CleanPolicy(allowed_tags=None, allowed_attributes={"*": ["*"]})
    out = clean(
        '<svg><a><animate attributeName="href" values="javascript:alert(1)"/></a></svg>',
        policy,
    )
    assert "attributename" not in out.lower()


def test_policy_from_settings_dict() -> None:
    policy = CleanPolicy.from_dict(
        {
            "SOUP_CLEAN_ALLOWED_ATTRIBUTES": {"*": ["class"], "a": "href, title"},
            "SOUP_CLEAN_ALLOWED_TAGS": "a p",
            "soup_clean_keep_comments": "true",
            "url_schemes": ["HTTPS"],
            "SOUP_CLEAN_DROP_ATTRIBUTES": None,
        }
    )
    assert policy.allowed_tags == frozenset({"a", "p"})
    assert policy.allowed_attributes == {"*": {"class"}, "a": {"href", "title"}}
    assert policy.keep_comments is True
    assert policy.url_schemes == frozenset({"https"})
    assert CleanPolicy.from_dict({"preset": "strict"}) == STRICT_POLICY
    assert CleanPolicy.from_dict({}, base="epub") == EPUB_POLICY
    assert CleanPolicy.from_dict({"allowed_tags": "*"}).allowed_tags is None
    json_map = CleanPolicy.from_dict({"reset_attributes": '{"img": ["src"]}'})
    assert json_map.reset_attributes == {"img": {"src"}}
    with pytest.raises(ValueError, match="SOUP_CLEAN_ALOWED_TAGS"):
        CleanPolicy.from_dict({"SOUP_CLEAN_ALOWED_TAGS": "a"})
    with pytest.raises(ValueError):
        CleanPolicy.from_dict({"keep_comments": "maybe"})


def test_policies_are_frozen_hashable_and_named() -> None:
    assert get_policy(None) == CleanPolicy() == POLICIES["safe"]
    assert get_policy("EPUB") is EPUB_POLICY
    assert hash(CleanPolicy()) == hash(CleanPolicy())
    assert CleanPolicy(allowed_tags=["A", "b"]).allowed_tags == frozenset({"a", "b"})
    assert repr(AttributeMap({"a": "href"})) == "AttributeMap({'a': ['href']})"
    with pytest.raises(ValueError, match="presets"):
        get_policy("lenient")
    with pytest.raises(AttributeError):
        CleanPolicy().keep_comments = True  # type: ignore[misc]


# -- counts, kinds ----------------------------------------------------------------
def test_clean_element_counts() -> None:
    el = html.fragment_fromstring(
        '<p onclick="x" class="c">a<script>s</script><object><param name=a></object>'
        "<font><b>b</b></font><!-- c --></p>",
        create_parent="div",
    )
    stats = clean_element(el)
    assert stats == CleanStats(
        elements_removed=3, tags_unwrapped=1, attributes_removed=2, comments_removed=1
    )
    assert clean_element(el) == CleanStats()
    total = CleanStats()
    total += stats
    assert total.attributes_removed == 2


def test_same_kind_back_and_in_place() -> None:
    el = html.fragment_fromstring('<p><b onclick="x">b</b></p>')
    assert clean(el) is el
    assert etree.tostring(el, encoding="unicode") == "<p><b>b</b></p>"
    tree = etree.ElementTree(html.fragment_fromstring("<p><script>x</script>y</p>"))
    assert clean(tree) is tree
    with pytest.raises(TypeError):
        clean(b"<p>")  # type: ignore[type-var]


def test_root_element_itself_is_kept() -> None:
    root = html.fragment_fromstring('<script type="x">alert(1)</script>')
    clean(root)
    assert (
        etree.tostring(root, encoding="unicode", method="html") == "<script></script>"
    )
    unknown = html.fragment_fromstring(
        '<custom onclick="x" title="t">a<i>b</i></custom>'
    )
    clean(unknown)
    assert (
        etree.tostring(unknown, encoding="unicode")
        == '<custom title="t">a<i>b</i></custom>'
    )


def test_xml_tree_with_namespaces() -> None:
    root = etree.fromstring(
        '<div xmlns="http://www.w3.org/1999/xhtml" xmlns:svg="http://www.w3.org/2000/svg"'
        ' xmlns:xlink="http://www.w3.org/1999/xlink"><P ONCLICK="x">p</P>'
        '<svg:svg><svg:script>x</svg:script><svg:a xlink:href="javascript:x">l</svg:a></svg:svg>'
        '<a href="/ok" xml:lang="en">ok</a></div>'
    )
    clean_element(root)
    out = etree.tostring(root, encoding="unicode")
    assert "script" not in out and "ONCLICK" not in out and "javascript" not in out
    assert 'href="/ok"' in out


# -- properties --------------------------------------------------------------------
_TAGS = ["p", "a", "b", "div", "span", "table", "tr", "td", "li", "ul", "script", "style",
         "svg", "math", "font", "x-y", "form", "select", "option", "textarea", "iframe",
         "noscript", "h1", "pre", "template", "title", "img", "br", "object",
         "xmp", "plaintext", "noembed", "noframes"]  # fmt: skip
_ATTRS = ["href", "src", "onclick", "style", "class", "srcset", "title", "xlink:href",
          "srcdoc", "formaction", "align"]  # fmt: skip
_VALUES = ["x", "javascript:alert(1)", "jav&#x09;ascript:x", "/a b", "#f", "a.png 1x, b 2x",
           "expression(1)", '"', "'", "<", "&amp;", "data:image/png;base64,AA"]  # fmt: skip


@st.composite
def _markup(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            tag = draw(st.sampled_from(_TAGS))
            attrs = draw(
                st.lists(
                    st.tuples(st.sampled_from(_ATTRS), st.sampled_from(_VALUES)),
                    max_size=3,
                )
            )
            attr_text = "".join(f' {n}="{v}"' for n, v in attrs)
            parts.append(f"<{tag}{attr_text}>")
        elif kind == 1:
            parts.append(f"</{draw(st.sampled_from(_TAGS))}>")
        elif kind == 2:
            parts.append(draw(st.text(max_size=8)))
        elif kind == 3:
            parts.append(
                draw(
                    st.sampled_from(
                        [
                            *"<>\n\x1d\x0c\x85",
                            "<!-- c -->",
                            "<!--x",
                            "&amp;",
                            "&lt;",
                            "&amp;lt;",
                            "&#29;",
                        ]
                    )
                )
            )
        else:
            parts.append(draw(st.sampled_from(["a", " ", "text "])))
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(_markup())
def test_idempotent(markup: str) -> None:
    once = clean(markup)
    assert clean(once) == once


@settings(max_examples=150, deadline=None)
@given(_markup(), st.sampled_from(["safe", "strict", "epub"]))
def test_idempotent_and_safe_for_every_preset(markup: str, preset: str) -> None:
    once = clean(markup, preset)
    assert clean(once, preset) == once
    assert_safe(once)


#: Policies keeping every tag (``"*"``): the elements whose content the HTML
#: parser reads as raw text or RCDATA are kept (or kept empty) too.
WILDCARD_POLICIES = {
    "*": CleanPolicy(allowed_tags="*"),
    "* and nothing removed": CleanPolicy(allowed_tags="*", remove_tags=()),
    "* and every attribute": CleanPolicy(
        allowed_tags="*", remove_tags=(), allowed_attributes={"*": ["*"]}
    ),
}
#: Elements a browser parses other than as markup (raw text, RCDATA, or
#: markup only without scripting), and contents that change meaning if
#: read again differently.
RAW_TEXT_FAMILY = ["xmp", "plaintext", "noembed", "noframes", "iframe", "noscript",
                   "textarea", "title", "style", "script"]  # fmt: skip
RAW_TEXT_CONTENTS = ["a&lt;b", "a&amp;lt;b", "<b>x</b>", "&lt;/xmp&gt;x", "a\x1db",
                     "</p><img src=x onerror=alert(1)>", "&lt;script&gt;alert(1)"]  # fmt: skip


@pytest.mark.parametrize("tag", RAW_TEXT_FAMILY)
@pytest.mark.parametrize(
    "policy",
    [None, "safe", "strict", "epub", *WILDCARD_POLICIES],
    ids=str,
)
def test_raw_text_elements_are_idempotent(tag: str, policy: str | None) -> None:
    chosen: Any = WILDCARD_POLICIES.get(policy or "", policy)
    # Also the tag named, with the policies that remove it otherwise.
    named = CleanPolicy(allowed_tags=[*SAFE_TAGS, tag], remove_tags=())
    for used in (chosen, named):
        for content in RAW_TEXT_CONTENTS:
            for markup in (f"<{tag}>{content}</{tag}>after", f"<p><{tag}>{content}"):
                once = clean(markup, used)
                assert clean(once, used) == once, (markup, once)
                # Nothing that runs script (the elements kept are the policy's).
                assert_no_script(once, used)


@settings(max_examples=200, deadline=None)
@given(_markup(), st.sampled_from(sorted(WILDCARD_POLICIES)))
def test_idempotent_for_every_tag_allowed(markup: str, name: str) -> None:
    once = clean(markup, WILDCARD_POLICIES[name])
    assert clean(once, WILDCARD_POLICIES[name]) == once
    assert_no_script(once, WILDCARD_POLICIES[name])


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_never_raises_on_any_string(text: str) -> None:
    out = clean(text)
    assert isinstance(out, str)
    assert clean(out) == out


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40), st.sampled_from([*_ATTRS, "style", "content"]))
def test_never_raises_on_any_attribute_value(value: str, name: str) -> None:
    value = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]", "", value)
    el = etree.Element("div")
    child = etree.SubElement(el, "meta" if name == "content" else "a")
    if name == "xlink:href":
        name = "{http://www.w3.org/1999/xlink}href"
    child.set(name, value)
    child.set("http-equiv", "refresh")
    for policy in (
        None,
        CleanPolicy(allowed_tags=None, allowed_attributes={"*": ["*", "style"]}),
    ):
        clean_element(el, policy)


# -- real pages --------------------------------------------------------------------
@pytest.mark.parametrize("path", corpus_params(PAGES), ids=lambda p: p.name)
def test_corpus_pages(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    root = html.document_fromstring(text)
    body = root.find("body")
    assert body is not None
    original = BeautifulSoup(text, "lxml")
    clean_element(body)
    assert not body.xpath("descendant-or-self::*/@*[starts-with(name(), 'on')]")
    assert not body.xpath("descendant::script | descendant::iframe | descendant::style")
    # Text outside removed elements is all kept (bs4 as the oracle).
    oracle = original.body
    assert oracle is not None
    for tag in oracle.find_all(sorted(CleanPolicy().remove_tags)):
        tag.decompose()
    for comment in oracle.find_all(string=lambda s: isinstance(s, Comment)):
        comment.extract()
    squeeze = lambda s: re.sub(r"\s+", "", s)  # noqa: E731
    assert squeeze(body.text_content()) == squeeze(oracle.get_text())
    for preset in ("strict", "epub"):
        assert isinstance(clean(etree.tostring(body, encoding="unicode"), preset), str)


# -- the one-parse string path -----------------------------------------------------
# `clean` of a string parses once, serializes once and checks the output by
# parsing it again; `_clean_string_rounds` is the reference it must agree with
# (clean, serialize, re-parse and clean again until nothing changes).
def _rounds(
    text: str, policy: CleanPolicy | str | None, base_url: str | None, extra: Any
) -> str:
    from scrapy_soup.markup._policy import _cleaner, get_policy
    from scrapy_soup.markup.clean import _clean_string_rounds

    return _clean_string_rounds(
        text, _cleaner(get_policy(policy)), base_url, tuple(extra)
    )


def _reference(text: str, policy: str | None, base_url: str | None = None) -> str:
    return _rounds(text, policy, base_url, ())


@settings(max_examples=300, deadline=None)
@given(_markup(), st.sampled_from([None, "strict", "epub"]))
def test_one_parse_path_agrees_with_the_rounds(markup: str, preset: str | None) -> None:
    assert clean(markup, preset) == _reference(markup, preset)
    base = "https://example.com/dir/page.html"
    with_links = clean(markup, preset, base_url=base)
    assert with_links == _reference(markup, preset, base)
    assert with_links == absolutize_links(clean(markup, preset), base)


def _assert_url_check_is_the_full_check(value: str) -> None:
    """`url_ok`'s shortcuts give what the full check gives, for every preset and place."""
    from scrapy_soup.markup._policy import _cleaner
    from scrapy_soup.markup._url import hidden_scheme, url_scheme

    decoded = htmllib.unescape(value)
    for preset in ("safe", "strict", "epub"):
        compiled = _cleaner(get_policy(preset))
        for place in (("a", "href"), ("img", "src")):
            # The full check: the scheme of the value, and of the value decoded.
            full = compiled._url_ok(value, *place) and (
                "&" not in value or compiled._url_ok(decoded, *place)
            )
            if url_scheme(value) is None and hidden_scheme(value) is None:
                # Relative however it is read.
                assert compiled._url_ok(value, *place) == (
                    compiled.policy.allow_relative_urls
                )
            assert compiled.url_ok(value, *place) == full, (value, preset, place)


@pytest.mark.parametrize(
    "value",
    ["x&amp;y:z", "javascript&colon;alert(1)", "/a&colon;b", "https://a/?a=1&b=2",
     " javascript:x", "\x01javascript:x", "data:image/png;base64,AA&amp;",
     "jav&#x61;script:x", "&#106;avascript:x", ".&colon;x", "?a&b:c", "#&#58;",
     "data&colon;image/png;,", "mailto:a@b&amp;c", "a:b", "a&b"],
)  # fmt: skip
def test_url_check_shortcuts_agree_with_the_full_check(value: str) -> None:
    _assert_url_check_is_the_full_check(value)


_URL_PIECES = st.sampled_from(
    ["javascript", "java", "script", ":", "&colon;", "&#58;", "&#x3a", "&amp;",
     "&", "data", "image/png;", "/", "?", "#", ".", " ", "\t", "\x01", "https",
     "x", "a=1", "mailto"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_URL_PIECES, st.text(max_size=3)), max_size=8))
def test_url_check_shortcuts_agree_on_generated_values(pieces: list[str]) -> None:
    _assert_url_check_is_the_full_check("".join(pieces))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_one_parse_path_agrees_on_any_string(text: str) -> None:
    assert clean(text) == _reference(text, None)


def test_base_url_cleans_then_absolutizes() -> None:
    base = "https://example.com/a/"
    assert (
        clean('<a href="b.html" onclick="x()">b</a><a href="javascript:x">c</a>',
              base_url=base)
        == '<a href="https://example.com/a/b.html">b</a><a>c</a>'
    )  # fmt: skip
    # Relative URLs are judged before they are made absolute.
    no_relative = CleanPolicy(allow_relative_urls=False)
    assert clean('<a href="b.html">b</a>', no_relative, base_url=base) == "<a>b</a>"
    assert (
        clean(
            '<img data-src="x.png" src="y.png">',
            CleanPolicy(allowed_attributes={"img": ["src", "data-src"]}),
            base_url=base,
            extra_attrs=["data-src"],
        )
        == '<img data-src="https://example.com/a/x.png" src="https://example.com/a/y.png"/>'
    )
    el = html.fragment_fromstring('<p><a href="b.html" onclick="x">b</a></p>')
    assert clean(el, base_url=base) is el
    assert etree.tostring(el, encoding="unicode") == (
        '<p><a href="https://example.com/a/b.html">b</a></p>'
    )


def test_trees_the_parser_rebuilds_take_the_slow_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    module = sys.modules["scrapy_soup.markup.clean"]
    rounds = module._clean_string_rounds
    slow: list[str] = []

    def spy(text: str, *args: Any) -> str:
        slow.append(text)
        return rounds(text, *args)

    monkeypatch.setattr(module, "_clean_string_rounds", spy)
    # A <p> or <li> left around a block by unwrapping is closed early when
    # parsed again: the check sees the trees differ and the rounds settle it.
    for markup in (
        "<p><x-y><div>a</div></x-y>b</p>",
        "<ul><li>a<x-y><li>b</li></x-y></li></ul>",
    ):
        once = clean(markup)
        assert slow and slow[-1] == markup
        assert once == _reference(markup, None)
        assert clean(once) == once


def spy_xml_path(
    monkeypatch: pytest.MonkeyPatch, module_name: str = "scrapy_soup.markup.clean"
) -> list[bool]:
    """Record, for each string the module writes, whether lxml's serializer wrote it."""
    import sys

    module = sys.modules[module_name]
    real = module.contents_html_from_xml
    calls: list[bool] = []

    def spy(el: etree._Element) -> Any:
        written = real(el)
        calls.append(written is not None)
        return written

    monkeypatch.setattr(module, "contents_html_from_xml", spy)
    return calls


def test_plain_trees_are_written_by_lxml(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = spy_xml_path(monkeypatch)
    base = "https://example.com/a/"
    assert clean("<p class=x onclick=y>a <b>b</b><img alt=a src=b.png></p>") == (
        '<p>a <b>b</b><img alt="a" src="b.png"/></p>'
    )
    assert clean("<td headers=' a  b ' title=t>x</td>", base_url=base) == (
        '<td headers="a b" title="t">x</td>'
    )
    assert calls == [True, True]
    # Not plain: a comment kept, a <style> kept, a control character, a
    # multi-valued attribute given as a link attribute.
    calls.clear()
    assert clean("<p><!-- c -->x</p>", CleanPolicy(keep_comments=True)) == (
        "<p><!-- c -->x</p>"
    )
    styled = CleanPolicy(allowed_tags=SAFE_TAGS | {"style"})
    assert clean("<style>a > b {}</style>", styled) == "<style>a > b {}</style>"
    assert calls == []
    assert clean("<p>a&#13;b</p>") == _reference("<p>a&#13;b</p>", None)
    # Declined, after removing in C first and again without.
    assert calls == [False, False]
    calls.clear()
    rel = CleanPolicy(allowed_attributes={"a": ["rel"]})
    text = "<a rel=' x  y '>z</a>"
    assert clean(text, rel, base_url=base, extra_attrs=["rel"]) == (
        _rounds(text, rel, base, ["rel"])
    )
    assert calls == []


@pytest.mark.parametrize(
    "policy",
    [
        None,
        CleanPolicy(allowed_attributes={"p": ["class"], "*": ["id"]}),
        CleanPolicy(
            allowed_tags=SAFE_TAGS | {"meta"},
            remove_tags=frozenset(),
            allowed_attributes={"meta": ["content"]},
            url_schemes=frozenset({"mailto"}),
        ),
        CleanPolicy(allowed_attributes={"*": ["*"]}),
    ],
)
def test_common_attributes_stripped_first_change_nothing(
    policy: CleanPolicy | None,
) -> None:
    # The string path strips the common names a policy drops everywhere
    # before its walk; the rounds (the reference) never do.
    text = (
        '<p class="a" id="i" style="color:red" onclick="x()"><b class="b" role=r>x'
        '</b></p><meta content="0;url=javascript:alert(1)" http-equiv="refresh">'
        '<meta http-equiv="refresh" content="0;url=javascript:alert(1)" name=n>'
        '<meta http-equiv="refresh" content="0;url=https://e.com/">'
        '<a href="b.html" rel="nofollow" target="_blank" content="javascript:x">y</a>'
    )
    for base in (None, "https://example.com/a/"):
        assert clean(text, policy, base_url=base) == _rounds(text, policy, base, ())


@pytest.mark.parametrize(
    "text",
    [
        "a\x01<script>x</script>b",
        "<p>\x02<!--c-->x</p>",
        "a\ufffe<style>s</style>b\uffff",
        "<p>a\x0c<iframe></iframe></p>",
        "<p>\x03 <b>kept apart</b></p>",
        # A form feed is whitespace: the output's string collapses to " ".
        '<form ping="\t\n\r\x0c"><![CDATA[x]]>\x0c',
        "<p><!--c-->\x0c<b>b</b></p>",
    ],
)
def test_removed_elements_next_to_refused_characters(text: str) -> None:
    # The string path removes elements in C first; the reference joins the
    # tail to the text before through lxml's API, which drops characters it
    # refuses.  The string path must notice and give the reference's text.
    for base in (None, "https://example.com/a/"):
        assert clean(text, base_url=base) == _rounds(text, None, base, ())


_NEIGHBOURS = st.sampled_from(
    ["<!--c-->", "<script>s</script>", "<style>x</style>", "<iframe></iframe>",
     "\x01", "\x0c", "\ufffe", " ", "\n", "\t", "a", "<p>", "</p>", "<b>", "</b>",
     "<form>", "</form>", "<x-y>", "</x-y>", "<pre>", "</pre>", "<?php x ?>",
     "<![CDATA[x]]>", "&#13;", "<a href='b'>", "</a>", "<td>", "<br>"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_NEIGHBOURS, max_size=14),
    st.sampled_from([None, "strict", "epub"]),
    st.sampled_from([None, "https://example.com/a/"]),
)
def test_removed_elements_next_to_refused_characters_generated(
    pieces: list[str], preset: str | None, base: str | None
) -> None:
    text = "".join(pieces)
    assert clean(text, preset, base_url=base) == _rounds(text, preset, base, ())


@pytest.mark.parametrize("path", PAGES[::3], ids=lambda p: p.name)
def test_corpus_one_parse_path(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = spy_xml_path(monkeypatch)
    text = path.read_bytes().decode("utf-8")
    base = f"https://corpus.example/pages/{path.name}"
    for preset in (None, "epub"):
        assert clean(text, preset, base_url=base) == _reference(text, preset, base)
    # The corpus pages take the XML path (then the test above checks it).
    assert calls == [True, True]
