"""The sanitizer's test oracle: parse an output as a browser and as lxml would, look for script.

`assert_inert` parses the output with html5lib (the WHATWG parsing
algorithm, with scripting on and off: a ``<noscript>``'s content is raw
text to a browser running script and markup to one that is not), with
lxml (libxml2, what Scrapy parses with) and with the standard library's
``html.parser`` (through bs4), and fails if any of those trees holds an
element that runs code or loads a document, an event handler, a script,
data or other active URL in any attribute a user agent loads (the WHATWG
list and the legacy ones), CSS that runs script, or a comment (IE
conditional comments).  URLs are judged strictly: after removing every
control, format, space and filler character (by Unicode category, not the
library's table), and once more after decoding entities.
"""

from __future__ import annotations

import html as htmllib
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import html5lib
from bs4 import BeautifulSoup, Comment
from lxml import etree
from lxml import html as lxml_html

#: Elements that run code, load documents, change how the page behaves, or
#: whose content browsers parse differently from lxml (mXSS).
DANGEROUS_TAGS = frozenset(
    {
        "script", "iframe", "frame", "frameset", "object", "embed", "applet",
        "base", "meta", "link", "style", "template", "svg", "math", "noscript",
        "xmp", "noembed", "noframes", "plaintext", "textarea", "title",
        "isindex", "bgsound", "form", "button", "input", "select", "keygen",
        "portal", "fencedframe", "listing",
    }
)  # fmt: skip
#: Attributes a user agent loads or follows as URLs: WHATWG, legacy, IE, SVG
#: (local names: "base" is xml:base, "href" xlink:href).
URL_ATTRS = frozenset(
    {
        "href", "src", "srcset", "action", "formaction", "poster", "cite",
        "data", "background", "longdesc", "usemap", "manifest", "codebase",
        "lowsrc", "dynsrc", "classid", "ping", "imagesrcset", "values", "to",
        "from", "by", "content", "archive", "profile", "icon", "folder",
        "datasrc", "base", "itemtype", "itemid", "vrml", "pluginspage",
        "pluginurl", "attributionsrc",
    }
)  # fmt: skip
BAD_SCHEMES = frozenset({"javascript", "vbscript", "livescript", "mocha", "data"})
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5")
_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):")
_CSS_BAD = ("expression(", "javascript:", "vbscript:", "-moz-binding", "behavior:")


def _invisible(char: str) -> bool:
    if char in _FILLERS:
        return True
    if "\u180b" <= char <= "\u180f" or "\ufe00" <= char <= "\ufe0f":
        return True
    if "\U000e0100" <= char <= "\U000e01ef":
        return True
    return unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp")


def squeeze(value: str) -> str:
    """*value* without any character a user agent might skip, lowercased."""
    return "".join(c for c in value if not _invisible(c)).lower()


def bad_url(value: str, tag: str, attr: str) -> bool:
    """Whether *value* could be read as a script, data or other active URL."""
    for candidate in {value, htmllib.unescape(value)}:
        parts = [candidate]
        if attr.endswith("srcset"):
            parts = [(p.split(None, 1) or [""])[0] for p in candidate.split(",")]
        elif attr in ("ping", "archive", "itemtype", "attributionsrc"):
            parts = candidate.split()
        for part in parts:
            url = squeeze(part)
            if attr == "content":
                url = re.sub(r"^[\d.;,]*(url=)?['\"]?", "", url)
            match = _SCHEME.match(url)
            if match is None or match.group(1) not in BAD_SCHEMES:
                continue
            image = re.match(r"data:image/(png|gif|jpe?g|webp|avif|bmp)[;,]", url)
            if not (image and (tag, attr) in {("img", "src"), ("img", "srcset")}):
                return True
    return False


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def problems_of(tag: str, attrs: dict[str, str]) -> list[str]:
    """What is active about one element with these attributes."""
    found = []
    local = _local(tag)
    if local in DANGEROUS_TAGS:
        found.append(f"element {tag}")
    for name, value in attrs.items():
        key = _local(name)
        if key.startswith("on") or squeeze(name).rsplit(":", 1)[-1].startswith("on"):
            found.append(f"event handler {name!r}")
        if key == "srcdoc":
            found.append(f"attribute {name!r}")
        if key == "style" and any(bad in squeeze(value) for bad in _CSS_BAD):
            found.append(f"style {value!r}")
        if key in URL_ATTRS and bad_url(value, local, key):
            found.append(f"{name}={value!r}")
    return found


def is_document(output: str) -> bool:
    """Whether *output* is a whole document (a doctype or ``<html>`` first)."""
    return re.match(r"\s*<(?:!doctype|html)", output, re.IGNORECASE) is not None


def html5lib_trees(output: str) -> Iterator[tuple[str, ET.Element]]:
    """*output* as a browser parses it, with scripting off and on (label, tree)."""
    document = is_document(output)
    parser = html5lib.HTMLParser(namespaceHTMLElements=False)
    for scripting in (False, True):
        label = f"html5lib scripting={'on' if scripting else 'off'}"
        if document:
            yield label, parser.parse(output, scripting=scripting)
        else:
            yield label, parser.parseFragment(output, "div", scripting=scripting)


def find_active(output: str) -> list[str]:
    """Everything active in *output*, as each parser reads it."""
    document = is_document(output)
    problems: list[str] = []
    for label, tree in html5lib_trees(output):
        for el in tree.iter():
            tag: object = el.tag
            if tag is ET.Comment:
                problems.append(f"{label}: comment {el.text!r}")
            elif isinstance(el.tag, str):
                problems += (
                    f"{label}: {p}" for p in problems_of(el.tag, dict(el.attrib))
                )
    markup = output if document else f"<html><body>{output}</body></html>"
    if markup.strip():
        root = lxml_html.document_fromstring(markup)
        for node in root.getroottree().getroot().iter():
            if isinstance(node.tag, str):
                if node.tag not in ("html", "head", "body"):
                    problems += (
                        f"lxml: {p}" for p in problems_of(node.tag, dict(node.items()))
                    )
            else:
                problems.append(f"lxml: comment or PI {node!r}")
        for node in (
            *root.itersiblings(preceding=True),
            *root.itersiblings(),
        ):
            if isinstance(node, (etree._Comment, etree._ProcessingInstruction)):
                problems.append(f"lxml: top-level {node!r}")
    soup = BeautifulSoup(output, "html.parser")
    for tag in soup.find_all(True):
        if tag.name not in ("html", "head", "body"):
            attrs = {
                k: " ".join(v) if isinstance(v, list) else str(v)
                for k, v in tag.attrs.items()
            }
            problems += (f"html.parser: {p}" for p in problems_of(tag.name, attrs))
    if soup.find(string=lambda s: isinstance(s, Comment)):
        problems.append("html.parser: comment")
    return problems


def assert_inert(output: str) -> None:
    """Fail if any parser finds active content in *output*."""
    problems = find_active(output)
    assert not problems, (output, problems)
