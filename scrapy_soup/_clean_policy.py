"""`CleanPolicy`: what `scrapy_soup.clean` keeps, unwraps and removes.

A policy is an allowlist: tags not allowed are unwrapped (their text and
children kept), except the ones removed with their content (code and
embedded documents); attributes not allowed are removed; URL attributes
keep only allowed schemes.  Some things no policy can allow: event-handler
attributes (``on*``), and attribute names a browser would read differently.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

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

    - *allowed_tags*: tags kept (``None``: every tag not in *remove_tags*).
      Other tags are unwrapped: the tag goes, its text and children stay.
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
    names.  Sets and mappings may be given as lists, dicts or comma/space
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
            set_(self, "allowed_tags", _name_set(self.allowed_tags))
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
