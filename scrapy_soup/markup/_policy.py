"""`CleanPolicy`: what `scrapy_soup.clean` keeps, unwraps and removes.

A policy is an allowlist: tags not allowed are unwrapped (their text and
children kept), except the ones removed with their content (code and
embedded documents); attributes not allowed are removed; URL attributes
keep only allowed schemes.  Some things no policy can allow: event-handler
attributes (``on*``), and attribute names a browser would read differently.

`_cleaner` compiles a policy for `scrapy_soup.clean`'s tree walk: the
decision for each tag and attribute name, cached, and the checks of the
values that matter (URLs, CSS).
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from lxml import etree

from .._tree._attrs import NOT_XML
from .._tree._write import needs_settling
from ._characters import has_forbidden
from ._markup import namespaced_names
from ._url import _INVISIBLE, hidden_scheme, url_scheme

__all__ = [
    "EPUB_POLICY",
    "POLICIES",
    "SAFE_ATTRIBUTES",
    "SAFE_TAGS",
    "STRICT_POLICY",
    "AttributeMap",
    "CleanPolicy",
    "get_policy",
]


class AttributeMap(Mapping[str, frozenset[str]]):
    """A read-only, hashable mapping of tag name (or ``"*"``) to attribute names.

    Built from any mapping of names to iterables (or to one comma/space
    separated string), or from an iterable of names meaning ``{"*": names}``.
    Names are lowercased, as the HTML parser lowercases them.
    """

    __slots__ = ("_data", "_hash")

    def __init__(
        self, value: Mapping[str, Iterable[str] | str] | Iterable[str] | str = ()
    ) -> None:
        if isinstance(value, str):
            value = (
                json.loads(value) if value.lstrip().startswith("{") else {"*": value}
            )
        if isinstance(value, Mapping):
            items = {str(k).lower(): _name_set(v) for k, v in value.items()}
        else:
            items = {"*": _name_set(value)}
        self._data: dict[str, frozenset[str]] = {k: v for k, v in items.items() if v}
        self._hash = hash(frozenset(self._data.items()))

    def __getitem__(self, key: str) -> frozenset[str]:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._data == {k: frozenset(v) for k, v in other.items()}
        return NotImplemented

    def __repr__(self) -> str:
        inner = ", ".join(
            f"{k!r}: {sorted(v)!r}" for k, v in sorted(self._data.items())
        )
        return f"AttributeMap({{{inner}}})"


def _name_set(value: Iterable[str] | str | None) -> frozenset[str]:
    """Lowercased names from an iterable or one comma/space separated string."""
    if value is None:
        return frozenset()
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    return frozenset(str(v).strip().lower() for v in value if str(v).strip())


def _bool(value: Any) -> bool:
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off", ""):
            return False
        raise ValueError(f"not a boolean: {value!r}")
    return bool(value)


#: Content tags kept by the default policy: text structure, links, images,
#: media, tables.  Nothing whose content a browser parses differently from
#: lxml (raw text, RCDATA, foreign content: ``textarea``, ``title``,
#: ``noscript``, ``xmp``, ``svg``, ``math`` …): those are unwrapped or
#: removed, so the output re-parses to the tree that was checked.
SAFE_TAGS: frozenset[str] = frozenset(
    {
        "a", "abbr", "acronym", "address", "area", "article", "aside", "audio",
        "b", "bdi", "bdo", "big", "blockquote", "br", "caption", "center",
        "cite", "code", "col", "colgroup", "data", "dd", "del", "details",
        "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "footer", "h1",
        "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "i", "img",
        "ins", "kbd", "li", "main", "map", "mark", "nav", "ol", "p", "picture",
        "pre", "q", "rp", "rt", "rtc", "ruby", "s", "samp", "section", "small",
        "source", "span", "strike", "strong", "sub", "summary", "sup", "table",
        "tbody", "td", "tfoot", "th", "thead", "time", "tr", "track", "tt",
        "u", "ul", "var", "video", "wbr",
    }
)  # fmt: skip

#: Elements whose content the HTML parser reads as raw text, which bs4's
#: serializer (and so ``str()`` and `clean`) writes escaped: every
#: ``clean()`` of ``<xmp>a&lt;b</xmp>`` added an ``amp;``.  (The HTML
#: Standard's serializer writes it raw, and so would break no round trip,
#: but it is not the one of bs4 that the soup and `clean` follow.)  No
#: policy keeps them as they are, so that `clean` stays idempotent:
#:
#: - ``<xmp>`` and ``<plaintext>`` (obsolete; shown as text) are unwrapped:
#:   their text stays, as text.  ``<plaintext>`` has no end tag a parser
#:   reads: all that follows it is its text.
#: - ``<iframe>``, ``<noembed>`` and ``<noframes>`` are kept empty when the
#:   policy allows them: a browser never shows what they hold (it loads
#:   the frame, the plugin, the frames instead).
#:
#: ``<script>`` and ``<style>`` are written raw by bs4 too (and their
#: content is checked or removed); ``<textarea>`` and ``<title>`` (RCDATA)
#: read references back as written; ``<noscript>``'s content is markup to
#: libxml2 (a browser without scripting reads it so too).
RAW_TEXT_TAGS: frozenset[str] = frozenset({"xmp", "plaintext"})
EMPTIED_TAGS: frozenset[str] = frozenset({"iframe", "noembed", "noframes"})

#: Removed with everything inside: code, styles, embedded documents and
#: plugins, and head-only elements that change how a page behaves.
REMOVE_TAGS: frozenset[str] = frozenset(
    {
        "applet", "base", "basefont", "bgsound", "embed", "frame", "frameset",
        "iframe", "link", "meta", "noembed", "noframes", "object", "param",
        "script", "style", "template",
    }
)  # fmt: skip

#: Attributes kept by the default policy, per tag; ``"*"`` is every tag.
SAFE_ATTRIBUTES: Mapping[str, frozenset[str]] = AttributeMap(
    {
        "*": ["title", "lang", "dir"],
        "a": ["href", "hreflang"],
        "area": ["href", "alt", "shape", "coords"],
        "audio": ["src", "controls", "loop", "muted", "preload"],
        "blockquote": ["cite"],
        "col": ["span"],
        "colgroup": ["span"],
        "data": ["value"],
        "del": ["cite", "datetime"],
        "details": ["open"],
        "img": ["src", "srcset", "sizes", "alt", "width", "height"],
        "ins": ["cite", "datetime"],
        "li": ["value"],
        "map": ["name"],
        "ol": ["start", "reversed", "type"],
        "q": ["cite"],
        "source": ["src", "srcset", "sizes", "type", "media"],
        "td": ["colspan", "rowspan", "headers"],
        "th": ["colspan", "rowspan", "headers", "scope"],
        "time": ["datetime"],
        "track": ["src", "kind", "srclang", "label", "default"],
        "video": [
            "src",
            "poster",
            "controls",
            "width",
            "height",
            "loop",
            "muted",
            "preload",
        ],
    }
)

_FIELD_KINDS = {
    "allowed_tags": "tags",
    "remove_tags": "set",
    "allowed_attributes": "map",
    "reset_attributes": "map",
    "drop_attributes": "map",
    "url_schemes": "set",
    "allow_relative_urls": "bool",
    "data_image_urls": "bool",
    "keep_comments": "bool",
}


@dataclass(frozen=True)
class CleanPolicy:
    """What `scrapy_soup.clean` keeps; ``CleanPolicy()`` is the safe default.

    - *allowed_tags*: tags kept (``None`` or ``"*"``: every tag not in
      *remove_tags*).  Other tags are unwrapped: the tag goes, its text and
      children stay.
    - *remove_tags*: tags removed with their content, unless also named in
      *allowed_tags*.
    - *allowed_attributes*: ``{"*": [...], "a": ["href"], ...}``; a tag
      keeps the attributes named for ``"*"`` and for itself.  ``"*"`` in a
      list allows every attribute except ``style`` and ``srcdoc``, which
      must be named.
    - *reset_attributes*: ``{"img": ["src", "alt"]}``: these tags keep only
      the attributes named here, whatever *allowed_attributes* says.
    - *drop_attributes*: removed even where allowed (``["align"]`` is
      ``{"*": ["align"]}``).
    - *url_schemes*: schemes kept in URL attributes (``href``, ``src``,
      ``srcset``, ``action``, ``xlink:href``, CSS ``url()``, …);
      *allow_relative_urls* keeps URLs with no scheme; *data_image_urls*
      keeps ``data:image/png|gif|jpeg|webp|avif|bmp`` in ``<img src>`` and
      image ``srcset``.
    - *keep_comments*: comments are dropped unless this is true (and then
      those a browser could end early are still dropped).

    Always removed, whatever the policy: ``on*`` event handler attributes
    and, for a ``"*"`` wildcard, attribute names that are not plain ASCII
    names.  Always unwrapped: ``<xmp>`` and ``<plaintext>``, and tags whose
    names hold characters HTML forbids.  ``<iframe>``, ``<noembed>`` and
    ``<noframes>``, when allowed, are kept empty (see `RAW_TEXT_TAGS`).  Sets and mappings may be given as lists, dicts or comma/space
    separated strings; they are normalized (lowercase, frozen).
    """

    allowed_tags: frozenset[str] | None = SAFE_TAGS
    remove_tags: frozenset[str] = REMOVE_TAGS
    allowed_attributes: Mapping[str, frozenset[str]] = SAFE_ATTRIBUTES
    reset_attributes: Mapping[str, frozenset[str]] = field(default_factory=AttributeMap)
    drop_attributes: Mapping[str, frozenset[str]] = field(default_factory=AttributeMap)
    url_schemes: frozenset[str] = frozenset({"http", "https", "mailto", "tel", "ftp"})
    allow_relative_urls: bool = True
    data_image_urls: bool = True
    keep_comments: bool = False

    def __post_init__(self) -> None:
        # Frozen: normalize through object.__setattr__ so that lists, dicts
        # and strings from settings become lowercase frozensets.
        set_ = object.__setattr__
        if self.allowed_tags is not None:
            tags = _name_set(self.allowed_tags)
            # "*" is every tag, as in `from_dict` and attribute lists.
            set_(self, "allowed_tags", None if "*" in tags else tags)
        set_(self, "remove_tags", _name_set(self.remove_tags))
        set_(self, "url_schemes", _name_set(self.url_schemes))
        for name in ("allowed_attributes", "reset_attributes", "drop_attributes"):
            value = getattr(self, name)
            if not isinstance(value, AttributeMap):
                set_(self, name, AttributeMap(value))

    def replace(self, **changes: Any) -> CleanPolicy:
        """A copy with *changes* applied (`dataclasses.replace`)."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_dict(
        cls, options: Mapping[str, Any], *, base: CleanPolicy | str | None = None
    ) -> CleanPolicy:
        """Build a policy from a settings-like mapping.

        Keys are field names, in any case, with or without a ``SOUP_CLEAN_``
        prefix (so Scrapy settings can be passed as they are); a
        ``"preset"``/``"policy"`` key (or *base*) names the policy the
        others change (``"safe"``, ``"strict"``, ``"epub"``).  Values may be
        strings (comma/space separated lists, JSON objects, ``"true"``),
        lists or dicts.  ``None`` values are ignored.  Unknown keys raise
        ValueError, so a typo in a setting name is not silently ignored.

        >>> CleanPolicy.from_dict({"SOUP_CLEAN_DROP_ATTRIBUTES": "align",
        ...                        "preset": "epub"}) == EPUB_POLICY
        True
        """
        changes: dict[str, Any] = {}
        for raw_key, value in options.items():
            key = str(raw_key).lower()
            key = key.removeprefix("soup_clean_")
            if value is None:
                continue
            if key in ("preset", "policy"):
                base = value
                continue
            kind = _FIELD_KINDS.get(key)
            if kind is None:
                known = ", ".join(sorted([*_FIELD_KINDS, "preset"]))
                raise ValueError(
                    f"unknown clean policy option {raw_key!r}; known: {known}"
                )
            if kind == "bool":
                changes[key] = _bool(value)
            elif kind == "map":
                changes[key] = AttributeMap(value)
            elif kind == "tags" and (value == "*" or value == ["*"]):
                changes[key] = None
            else:
                changes[key] = _name_set(value)
        return get_policy(base).replace(**changes)


#: Text and links only: ``<a href>``, paragraphs and line breaks.
STRICT_POLICY = CleanPolicy(
    allowed_tags=frozenset({"a", "p", "br"}),
    allowed_attributes=AttributeMap({"a": ["href"]}),
    url_schemes=frozenset({"http", "https", "mailto"}),
    data_image_urls=False,
)

#: The EPUB case: keep the safe tags and any attribute, but drop ``align``
#: everywhere and reset ``<img>`` to ``src``, ``alt``, ``width``, ``height``.
EPUB_POLICY = CleanPolicy(
    allowed_attributes=AttributeMap({"*": ["*"]}),
    reset_attributes=AttributeMap({"img": ["src", "alt", "width", "height"]}),
    drop_attributes=AttributeMap(["align"]),
)

#: Named presets, for settings: ``"safe"`` (the default), ``"strict"``, ``"epub"``.
POLICIES: Mapping[str, CleanPolicy] = {
    "safe": CleanPolicy(),
    "strict": STRICT_POLICY,
    "epub": EPUB_POLICY,
}


def get_policy(policy: CleanPolicy | str | None) -> CleanPolicy:
    """The policy itself, a preset by name, or the default for None."""
    if policy is None:
        return POLICIES["safe"]
    if isinstance(policy, CleanPolicy):
        return policy
    try:
        return POLICIES[str(policy).strip().lower()]
    except KeyError:
        raise ValueError(
            f"unknown clean policy {policy!r}; presets: {', '.join(sorted(POLICIES))}"
        ) from None


# -- the policy compiled for the tree walk -------------------------------------
#: `_Cleaner.tag_actions` for nodes that are not elements.
_NOT_ELEMENT = 3

# Attribute decisions.
_KEEP, _DROP, _URL, _URL_LIST, _SRCSET, _STYLE, _REFRESH, _ANIMATE, _NO_SCRIPT = range(
    9
)

#: Attributes holding one URL, checked whenever a policy keeps them: the
#: HTML Standard's attributes index (action, cite, data, formaction, href,
#: itemid, manifest, poster, src), its obsolete features (background,
#: classid, codebase, longdesc, lowsrc, profile, usemap, datasrc), old
#: Internet Explorer (dynsrc, folder, vrml), Netscape plugins (pluginspage,
#: pluginurl), XML (xml:base) and SVG 1 (xlink:href).
_URL_ATTRS = frozenset(
    {
        "href", "src", "action", "formaction", "poster", "cite", "data",
        "background", "longdesc", "usemap", "manifest", "codebase",
        "xlink:href", "lowsrc", "dynsrc", "classid", "profile", "itemid",
        "icon", "folder", "xml:base", "datasrc", "vrml", "pluginspage",
        "pluginurl",
    }
)  # fmt: skip
#: Attributes holding space-separated URLs.
_URL_LIST_ATTRS = frozenset({"ping", "archive", "itemtype", "attributionsrc"})
#: Schemes that run script or show a document the page controls.
SCRIPT_SCHEMES = frozenset(
    {"javascript", "vbscript", "livescript", "mocha", "data", "feed", "jar"}
)
#: The attribute names most frequent in scraped pages (the corpus: ``class``
#: alone is a third of all attributes).  ``http-equiv`` is not one: a
#: refresh check reads it.
_COMMON_ATTRIBUTES = (
    "class", "id", "style", "rel", "type", "content", "name", "role", "target",
    "onclick", "value", "property", "itemprop", "tabindex", "aria-label",
    "aria-hidden", "data-testid", "data-id",
)  # fmt: skip
#: A ``"*"`` wildcard never allows these: they must be named.
_NEEDS_NAMING = frozenset({"style", "srcdoc"})
#: Attribute names `etree.strip_attributes` takes as they are.
_STRIPPABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")
#: Attribute names a browser reads the same way lxml does (a wildcard keeps
#: nothing else): ASCII letters, digits, ``-_.:``, starting with a letter.
_PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_.:\-]*\Z")
#: Where ``data:image/…`` URLs may stay when the policy allows them.
_DATA_IMAGE_PLACES = frozenset(
    {("img", "src"), ("img", "srcset"), ("source", "srcset")}
)
_DATA_IMAGE = re.compile(
    r"data:image/(?:png|gif|jpe?g|webp|avif|bmp)[;,]", re.IGNORECASE
)
#: A scheme as the first characters of a value (WHATWG URL, scheme state).
_SCHEME_AT_START = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_XML_NS = "http://www.w3.org/XML/1998/namespace"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"

# CSS: comments, escapes (CSS Syntax 3, "consume an escaped code point").
_CSS_COMMENT = re.compile(r"/\*.*?(?:\*/|\Z)", re.DOTALL)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})[ \t\n\r\x0c]?|\\(.)", re.DOTALL)
_CSS_SPACE = re.compile(r"[\x00-\x20]+")
_CSS_URL_ANY = re.compile(r"url\(([^)]*)")
_CSS_DANGER = (
    "expression(", "javascript:", "vbscript:", "livescript:", "-moz-binding",
    "behavior:", "behaviour:", "@import", "</style", "<!--", "-->",
)  # fmt: skip


def _css_unescape(match: re.Match[str]) -> str:
    if match.group(1) is not None:
        code = int(match.group(1), 16)
        return (
            chr(code)
            if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF
            else "\ufffd"
        )
    return match.group(2)


def _local_tag(tag: str) -> str:
    """Lowercase local name: ``{ns}svg`` -> ``svg``, ``svg:script`` -> ``script``."""
    if tag[:1] == "{":
        tag = tag[tag.index("}") + 1 :]
    return tag[tag.rfind(":") + 1 :].lower()


def _attr_key(name: str) -> str:
    """Lowercase attribute name, with the xlink/xml namespaces as prefixes."""
    if name[:1] == "{":
        ns, _, local = name[1:].partition("}")
        prefix = "xlink:" if ns == _XLINK_NS else "xml:" if ns == _XML_NS else ""
        return (prefix + local).lower()
    return name.lower()


class _Cleaner:
    """A policy compiled for the tree walk: decision caches per tag."""

    def __init__(self, policy: CleanPolicy) -> None:
        self.policy = policy
        allowed = policy.allowed_tags
        remove = policy.remove_tags - (allowed or frozenset())
        self.remove = remove
        #: raw lxml tag -> 0 keep, 1 unwrap, 2 remove, 3 a comment (or
        #: processing instruction, entity: their tag is a function), -1 keep
        #: (see `tag_action`).
        self.tag_actions: dict[Any, int] = dict.fromkeys(
            (etree.Comment, etree.ProcessingInstruction, etree.Entity), _NOT_ELEMENT
        )
        #: raw lxml tag -> raw attribute name -> decision.
        self.decisions_by_tag: dict[Any, dict[Any, int]] = {}
        #: (raw lxml tag, *attribute names in order) -> `_Plan`.
        self.plans: dict[tuple[Any, ...], _Plan] = {}
        #: raw attribute name -> removed from every tag (`dropped_everywhere`).
        self.everywhere: dict[Any, bool] = {}
        self.style_allowed = "style" not in remove and (
            allowed is None or "style" in allowed
        )
        #: What this policy removes with its content, for `etree.strip_elements`.
        self.preremove: tuple[Any, ...] = tuple(
            name for name in sorted(remove) if _SIMPLE_TAG.match(name)
        )
        if not policy.keep_comments:
            self.preremove += (etree.Comment, etree.ProcessingInstruction, etree.Entity)
        #: The string path may remove elements in C first (`_clean_string`):
        #: its trees can be plain.
        self.strip_first = not policy.keep_comments and all(
            self.tag_action(tag) > 0 for tag in _SPECIAL
        )
        #: Common names this policy removes from every tag (see `_clean_tree`).
        self.prestrip = tuple(
            name for name in _COMMON_ATTRIBUTES if self.dropped_everywhere(name)
        )
        #: The `EMPTIED_TAGS` this policy keeps, emptied after the walk.
        self.emptied = tuple(
            sorted(tag for tag in EMPTIED_TAGS if self.tag_action(tag) <= 0)
        )

    def tag_action(self, tag: str) -> int:
        """0 keep, 1 unwrap, 2 remove with content; -1 keep, a tree no longer plain.

        A plain tree is one `contents_html_from_xml` can write: tag names
        it can read in the XML text, none written specially by bs4.  Nodes
        that are not elements (their tag is not a str) get 3.
        """
        if not isinstance(tag, str):
            return _NOT_ELEMENT
        local = _local_tag(tag)
        allowed = self.policy.allowed_tags
        if local in self.remove:
            return 2
        if (allowed is None or local in allowed) and not (
            local in RAW_TEXT_TAGS or has_forbidden(tag)
        ):
            return 0 if _SIMPLE_TAG.match(tag) and tag not in _SPECIAL else -1
        return 1

    def decide(self, tag: str, key: str) -> int:
        """The decision for attribute *key* on *tag* (both lowercase, local)."""
        policy = self.policy
        local = key[key.rfind(":") + 1 :]
        if local.startswith("on") or key.startswith("on"):
            # Event handlers: never, whatever the policy says.
            return _DROP
        if tag in policy.reset_attributes:
            allowed = policy.reset_attributes[tag]
        else:
            allowed = policy.allowed_attributes.get(
                "*", frozenset()
            ) | policy.allowed_attributes.get(tag, frozenset())
        dropped = policy.drop_attributes.get(
            "*", frozenset()
        ) | policy.drop_attributes.get(tag, frozenset())
        if key in dropped:
            return _DROP
        if key not in allowed and (
            "*" not in allowed or key in _NEEDS_NAMING or not _PLAIN_NAME.match(key)
        ):
            return _DROP
        if key in _URL_ATTRS or local == "href":
            return _URL
        if key in ("srcset", "imagesrcset"):
            return _SRCSET
        if key in _URL_LIST_ATTRS:
            return _URL_LIST
        if key == "style":
            return _STYLE
        if key == "content":
            return _REFRESH
        if key == "attributename":
            return _ANIMATE
        if key not in allowed:
            # Kept by a wildcard: a name no list here knows may still be
            # one some user agent loads; a script URL in it goes.
            return _NO_SCRIPT
        return _KEEP

    def plan(self, tag: str, names: tuple[Any, ...]) -> _Plan:
        """What to do with an element of *tag* whose attributes are *names*.

        Elements repeat the same tag and attribute names (``<div class id>``)
        all over a page: deciding once per combination leaves only the value
        checks (URLs, CSS) per element.
        """
        decisions = self.decisions_by_tag.get(tag)
        if decisions is None:
            decisions = self.decisions_by_tag[tag] = {}
        local = _local_tag(tag)
        drops: list[Any] = []
        stripped: list[Any] = []
        checks: list[tuple[Any, int, str, str]] = []
        kept: list[Any] = []
        # Names lxml reads as a namespace ("{{lazy}}", "{}src": the HTML
        # parser keeps them as names) or refuses (control characters):
        # `_attributes.clean_attributes` reads such elements' items one by one.
        odd = any(name[:1] == "{" or NOT_XML.search(name) for name in names)
        for name in names:
            decision = decisions.get(name)
            if decision is None:
                decision = decisions[name] = self.decide(local, _attr_key(name))
            if decision == _DROP:
                if self.dropped_everywhere(name):
                    stripped.append(name)
                else:
                    drops.append(name)
                continue
            kept.append(name)
            if decision != _KEEP:
                checks.append((name, decision, local, _attr_key(name)))
        # A refresh check reads http-equiv, which an earlier removal in
        # attribute order may have taken: keep that order (slow path).
        ordered = odd or any(check[1] == _REFRESH for check in checks)
        # What the string output needs (see `_clean_tree`); the attributes
        # kept are a subsequence of *kept* whatever the values' checks say.
        plain = not odd and all(_SIMPLE_ATTRIBUTE.match(name) for name in kept)
        return _Plan(
            tuple(drops),
            tuple(checks),
            len(drops) == len(names),
            ordered,
            tuple(stripped),
            len(drops) + len(stripped),
            plain,
            plain and needs_settling(tag, kept),
        )

    def dropped_everywhere(self, name: str) -> bool:
        """Whether attribute *name* goes on every tag, so C can strip it in one pass.

        Only plain names (``etree.strip_attributes`` takes them as they are).
        """
        found = self.everywhere.get(name)
        if found is None:
            key = _attr_key(name)
            policy = self.policy
            allowed_somewhere = any(
                key in names
                or (
                    "*" in names and key not in _NEEDS_NAMING and _PLAIN_NAME.match(key)
                )
                for names in (
                    *policy.allowed_attributes.values(),
                    *policy.reset_attributes.values(),
                )
            )
            local = key[key.rfind(":") + 1 :]
            found = self.everywhere[name] = _STRIPPABLE.match(name) is not None and (
                local.startswith("on")
                or key.startswith("on")
                or key in policy.drop_attributes.get("*", frozenset())
                or not allowed_somewhere
            )
        return found

    # -- value checks ---------------------------------------------------
    def url_ok(self, value: str, tag: str, key: str) -> bool:
        """Whether a browser would see an allowed scheme (or a relative URL)."""
        if ":" not in value and "&" not in value:
            # No scheme whatever the browser strips, and no entity that
            # could decode to a colon: a relative URL.
            return self.policy.allow_relative_urls
        first = value[0]
        if first in "/?#.":
            # A scheme starts with a letter, and nothing before this one is
            # stripped or decoded: relative, however the rest is read.
            return self.policy.allow_relative_urls
        match = _SCHEME_AT_START.match(value)
        if match is not None:
            # The scheme is written out whole, before any "&": decoding
            # character references (below) leaves it as it is, and the
            # browser strips nothing before a letter.
            return self._scheme_ok(match.group(1).lower(), value, tag, key)
        if not self._url_ok(value, tag, key):
            return False
        # Defence in depth: a serializer that does not escape "&" in URL
        # attributes would let a browser decode "javascript&colon;" again.
        return "&" not in value or self._url_ok(html.unescape(value), tag, key)

    def _url_ok(self, value: str, tag: str, key: str) -> bool:
        scheme = url_scheme(value)
        if scheme is None:
            # Relative to a browser today; judged as the scheme it would
            # have without the invisible characters ("\ufeffjavascript:").
            hidden = hidden_scheme(value)
            if hidden is not None:
                return hidden in self.policy.url_schemes
        return self._scheme_ok(scheme, value, tag, key)

    def script_free(self, value: str) -> bool:
        """Whether a value not known to be a URL cannot be read as a script URL."""
        if ":" not in value and "&" not in value:
            return True
        for candidate in (value, html.unescape(value)):
            scheme = hidden_scheme(candidate)
            if scheme in SCRIPT_SCHEMES and scheme not in self.policy.url_schemes:
                return False
        return True

    def _scheme_ok(self, scheme: str | None, value: str, tag: str, key: str) -> bool:
        policy = self.policy
        if scheme is None:
            return policy.allow_relative_urls
        if scheme in policy.url_schemes:
            return True
        return (
            scheme == "data"
            and policy.data_image_urls
            and (tag, key) in _DATA_IMAGE_PLACES
            and _DATA_IMAGE.match(value.strip(" \t\n\r\x0c\x00")) is not None
        )

    def spans_ok(
        self, value: str, spans: list[tuple[int, int]], tag: str, key: str
    ) -> bool:
        return all(self.url_ok(value[s:e], tag, key) for s, e in spans)

    def candidates_ok(self, value: str, tag: str, key: str) -> bool:
        """Whether no comma-separated piece of a srcset hides a scheme the policy refuses.

        The srcset parser ends a URL at whitespace: ``jav\tascript:x 1x``
        is the URL ``jav`` to a browser.  A sanitizer does not bet on that.
        """
        if ":" not in value:
            return True
        for piece in value.split(","):
            scheme = url_scheme(piece) or hidden_scheme(piece)
            if scheme is None or scheme in self.policy.url_schemes:
                continue
            squeezed = _INVISIBLE.sub("", piece) + ","
            if not self._scheme_ok(scheme, squeezed, tag, key):
                return False
        return True

    def css_ok(self, css: str, tag: str) -> bool:
        """Whether CSS is free of script: no expression(), no script URLs, no bindings."""
        text = html.unescape(css) if "&" in css else css
        text = _CSS_COMMENT.sub("", text)
        if "\\" in text:
            text = _CSS_ESCAPE.sub(_css_unescape, text)
        squeezed = _CSS_SPACE.sub("", text).lower()
        if any(bad in squeezed for bad in _CSS_DANGER):
            return False
        # Every url(...), quoted or not, must hold an allowed URL; data:
        # is judged as for <img src> (an image context either way).
        return all(
            self.url_ok(m.group(1).strip("'\""), "img", "src")
            for m in _CSS_URL_ANY.finditer(squeezed)
        )


class _Plan(NamedTuple):
    """The attribute work for one (tag, attribute names) combination."""

    #: Names removed whatever their value.
    drops: tuple[Any, ...]
    #: (name, decision, local tag, attribute key) of the values to check.
    checks: tuple[tuple[Any, int, str, str], ...]
    #: Every attribute goes.
    drop_all: bool
    #: Check and remove one by one in attribute order (see `_Cleaner.plan`).
    ordered: bool
    #: Names no tag keeps: stripped from the whole tree at the end, in C.
    stripped: tuple[Any, ...]
    #: Attributes removed whatever the values: drops and stripped.
    removed: int
    #: The attributes kept have names `contents_html_from_xml` can read.
    plain: bool
    #: The attributes kept must be sorted or respaced (`settle_attributes`).
    settle: bool


#: Tag and attribute names `contents_html_from_xml` reads in the XML text,
#: and the tags whose text or attributes bs4 writes its own way.
_SIMPLE_TAG = re.compile(r"[A-Za-z_][A-Za-z0-9_.:\-]*\Z")
_SIMPLE_ATTRIBUTE = _SIMPLE_TAG
_SPECIAL = frozenset({"script", "style", "meta"})


def odd_attribute_names(node: Any, names: list[Any]) -> set[Any]:
    """The names among *names* a policy can never keep, whatever it allows.

    Names lxml would read as a namespace though the HTML parser made them
    plain names (``{{lazy}}``, ``{}src``: lxml reads the latter as ``src``),
    names lxml refuses to address (control characters), and names held
    twice (a plain ``{a}b`` next to a namespaced one).
    """
    odd = {name for name in names if NOT_XML.search(name)}
    if any(name[:1] == "{" for name in names):
        namespaced = namespaced_names(node)
        odd.update(name for name in names if name[:1] == "{" and name not in namespaced)
        if len(set(names)) != len(names):
            counts = Counter(names)
            odd.update(name for name, count in counts.items() if count > 1)
    return odd


_CLEANERS: dict[CleanPolicy, _Cleaner] = {}


def _cleaner(policy: CleanPolicy) -> _Cleaner:
    """The compiled form of *policy* (policies are frozen and hashable)."""
    found = _CLEANERS.get(policy)
    if found is None:
        if len(_CLEANERS) > 64:
            _CLEANERS.clear()
        found = _CLEANERS[policy] = _Cleaner(policy)
    return found
