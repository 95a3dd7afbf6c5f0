"""URL helpers shared by `scrapy_soup.markup.links` and `scrapy_soup.markup.clean`.

Everything here works on attribute values as an HTML parser has already
decoded them (entities resolved), and follows what browsers do with them:

- the WHATWG URL Standard, "basic URL parser": leading and trailing C0
  controls and spaces are stripped, ASCII tab and newline are removed
  anywhere, a scheme is an ASCII letter followed by letters, digits,
  ``+``, ``-`` or ``.`` and a colon, and for special schemes a backslash
  in the path is a slash (https://url.spec.whatwg.org/#concept-basic-url-parser);
- the WHATWG HTML Standard, "parse a srcset attribute"
  (https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute)
  and the "shared declarative refresh steps" for ``<meta http-equiv=refresh>``
  (https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps).

Parsers return *spans* (start, end) into the original value, so callers
rewrite only the URLs and keep every other character as it was.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from w3lib.url import safe_url_string

__all__ = [
    "Base",
    "can_be_base",
    "css_url_spans",
    "hidden_scheme",
    "ping_spans",
    "preprocess_url",
    "refresh_url_span",
    "srcset_url_spans",
    "url_scheme",
]

# WHATWG URL: "remove any leading and trailing C0 control or space".
_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
# WHATWG URL: "remove all ASCII tab or newline from input".
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")
# WHATWG URL, scheme start state / scheme state.
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# WHATWG Infra: ASCII whitespace.
_ASCII_WS = "\t\n\x0c\r "
# Characters that need no percent-encoding anywhere in a URL (RFC 3986
# unreserved + most reserved).  A resolved URL made only of these is what
# `w3lib.url.safe_url_string` would return unchanged, so the common case
# skips that (comparatively slow) call.  ``'`` and ``[]`` are left out:
# safe_url_string encodes them in queries and paths.
_URL_SAFE = re.compile(r"[A-Za-z0-9\-._~:/?#@!$&()*+,;=%]*\Z")
# WHATWG URL: schemes whose paths treat ``\`` as ``/``.
_SPECIAL_SCHEMES = frozenset({"http", "https", "ftp", "ws", "wss", "file"})


def preprocess_url(value: str) -> str:
    """Return *value* as a browser's URL parser first sees it.

    Strips leading/trailing C0 controls and spaces and removes every ASCII
    tab and newline, so ``" jav\\tascript:"`` becomes ``"javascript:"``.
    """
    value = value.strip(_C0_OR_SPACE)
    if "\t" in value or "\n" in value or "\r" in value:
        value = _TAB_OR_NEWLINE.sub("", value)
    return value


def url_scheme(value: str) -> str | None:
    """Return the lowercased scheme a browser finds in *value*, or None if relative.

    >>> url_scheme(" JaVa\\nScRipt:alert(1)")
    'javascript'
    >>> url_scheme("/path:with/colon") is None
    True
    """
    match = _SCHEME.match(preprocess_url(value))
    return match.group(1).lower() if match else None


#: Characters a user agent might skip or strip somewhere between the markup
#: and the URL parser: every character of the Unicode categories Cc
#: (controls), Cf (format: soft hyphen, zero-width and bidi characters,
#: the byte order mark, tag characters…), Zs, Zl and Zp (spaces, line and
#: paragraph separators), plus the Hangul fillers and the variation
#: selectors, which render as nothing (generated from Unicode 14's tables).
_INVISIBLE = re.compile(
    "[\\x00-\\x20\\x7f-\\xa0\\xad\\u034f\\u0600-\\u0605\\u061c\\u06dd\\u070f"
    "\\u0890-\\u0891\\u08e2\\u115f-\\u1160\\u1680\\u17b4-\\u17b5\\u180b-\\u180f"
    "\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\u3164\\ufe00-\\ufe0f"
    "\\ufeff\\uffa0\\ufff9-\\ufffb\\U000110bd\\U000110cd\\U00013430-\\U00013438"
    "\\U0001bca0-\\U0001bca3\\U0001d173-\\U0001d17a\\U000e0000-\\U000e0fff]+"
)


def hidden_scheme(value: str) -> str | None:
    """The scheme *value* would have with every invisible character removed.

    A sanitizer should not bet on a browser reading ``"\ufeffjavascript:"``
    or ``"java\x1bscript:"`` as relative (they do today): `scrapy_soup.clean`
    judges this scheme too.

    >>> hidden_scheme("\ufeffjava\u200bscript:alert(1)")
    'javascript'
    >>> hidden_scheme("/a b:c") is None
    True
    """
    match = _SCHEME.match(_INVISIBLE.sub("", value))
    return match.group(1).lower() if match else None


def _query_or_fragment_start(ref: str) -> int:
    """Where the query or fragment of *ref* starts (its length if neither)."""
    query = ref.find("?")
    fragment = ref.find("#")
    if query == -1:
        return len(ref) if fragment == -1 else fragment
    return query if fragment == -1 or query < fragment else fragment


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4 (the WHATWG path state gives the same result)."""
    # Paths here start with "/": a dot segment is always after a slash
    # ("a.png" has a dot but no dot segment).
    if "/." not in path:
        return path
    segments = path.split("/")[1:]
    out: list[str] = []
    last = len(segments) - 1
    for i, seg in enumerate(segments):
        if seg == ".":
            if i == last:
                out.append("")
        elif seg == "..":
            if out:
                out.pop()
            if i == last:
                out.append("")
        else:
            out.append(seg)
    return "/" + "/".join(out)


class Base:
    """A base URL, split once, that resolves relative references quickly.

    Resolution follows RFC 3986 section 5.2 (which the WHATWG URL parser
    agrees with for hierarchical URLs); `urllib.parse.urljoin` is avoided on
    purpose: it re-parses the base for every link and keeps the base's query
    for a bare ``"?"`` reference, which browsers do not.
    """

    __slots__ = (
        "_dir",
        "_encoding",
        "_memo",
        "_path_and_query_base",
        "_prefix",
        "_special",
        "scheme",
        "url",
    )

    def __init__(self, url: str, encoding: str | None = None) -> None:
        """Split *url*; raise ValueError unless it is absolute and hierarchical.

        *encoding* is the page's: the query of a resolved URL is
        percent-encoded in it, as browsers, ``response.follow()`` and
        ``safe_url_string(encoding=...)`` do (the path is UTF-8 always).
        """
        self._encoding = encoding or "utf-8"
        url = preprocess_url(url)
        scheme_match = _SCHEME.match(url)
        if not scheme_match:
            raise ValueError(f"not an absolute URL: {url!r}")
        # safe_url_string lowercases the scheme and host, IDNA-encodes the
        # host and percent-encodes the rest the WHATWG way.
        url = safe_url_string(url)
        parts = urlsplit(url)
        if not url[len(parts.scheme) + 1 :].startswith("//"):
            # An opaque URL (mailto:, data:, about:blank) cannot be a base.
            raise ValueError(f"not a hierarchical URL: {url!r}")
        self.url = url
        self.scheme = parts.scheme
        self._special = parts.scheme in _SPECIAL_SCHEMES
        self._prefix = f"{parts.scheme}://{parts.netloc}"
        path = parts.path or "/"
        self._path_and_query_base = self._prefix + path
        self._dir = path[: path.rfind("/") + 1]
        #: value -> resolved: a page repeats its links (menus, footers).
        self._memo: dict[str, str | None] = {}

    def resolve_empty(self) -> str:
        """What an empty reference (``href=""``) resolves to: this URL, without
        its fragment (WHATWG URL, relative state; lxml's
        ``make_links_absolute`` gives the page URL too)."""
        return self.url.split("#", 1)[0]

    def resolve(self, value: str) -> str | None:
        """Return the absolute URL for a relative *value*, or None to leave it alone.

        None for: empty values, fragment-only references (``#x``), values
        that already have a scheme (absolute, ``mailto:``, ``data:``,
        ``javascript:`` …), and values that cannot be parsed.  Never raises.
        """
        memo = self._memo
        if value in memo:
            return memo[value]
        if len(memo) > 4096:
            memo.clear()
        resolved = memo[value] = self._resolve(value)
        return resolved

    def _resolve(self, value: str) -> str | None:
        ref = value.strip(_C0_OR_SPACE)
        if "\t" in ref or "\n" in ref or "\r" in ref:
            ref = _TAB_OR_NEWLINE.sub("", ref)
        # Most references have no colon: no scheme to look for.
        if not ref or ref[0] == "#" or (":" in ref and _SCHEME.match(ref)):
            return None
        if self._special and "\\" in ref:
            cut = _query_or_fragment_start(ref)
            ref = ref[:cut].replace("\\", "/") + ref[cut:]
        if ref[:2] == "//":
            # Network-path reference: only the scheme comes from the base.
            return self._safe(f"{self.scheme}:{ref}", force=True)
        cut = _query_or_fragment_start(ref)
        path, rest = ref[:cut], ref[cut:]
        if not path:
            resolved = self._path_and_query_base + rest
        elif path[0] == "/":
            resolved = self._prefix + _remove_dot_segments(path) + rest
        else:
            resolved = self._prefix + _remove_dot_segments(self._dir + path) + rest
        return self._safe(resolved)

    def _safe(self, url: str, force: bool = False) -> str | None:
        # A second "#" is percent-encoded by safe_url_string: take that path.
        if not force and _URL_SAFE.match(url) and url.count("#") < 2:
            return url
        try:
            # Typed here: the compiled build reads w3lib as untyped (Any).
            safe: str = safe_url_string(url, self._encoding)
        except (ValueError, UnicodeError):
            # Invalid IPv6 hosts, bad ports, IDNA failures: leave the value.
            return None
        return safe


def can_be_base(url: str) -> bool:
    """Whether *url* can be a base URL: absolute and hierarchical.

    A page at ``data:`` or ``about:blank`` cannot resolve relative links
    (WHATWG URL: a relative reference against an opaque URL fails).
    """
    try:
        Base(url)
    except ValueError:
        return False
    return True


def ping_spans(value: str) -> list[tuple[int, int]]:
    """Spans of the URLs in a space-separated list (``ping``, ``archive``)."""
    return [m.span() for m in re.finditer(r"[^\t\n\x0c\r ]+", value)]


def srcset_url_spans(value: str) -> list[tuple[int, int]]:
    """Spans of the URLs in a ``srcset`` value, per the HTML "parse a srcset attribute".

    URLs may contain commas (``a,b.jpg 1x``); only trailing commas end a
    URL.  Descriptors and separators are not part of any span, so the
    caller keeps them as they were.  Candidates the algorithm would later
    drop for invalid descriptors still give their URL (we rewrite, we do
    not validate).

    >>> v = "a,b.jpg 1x, c.jpg 2x,d.jpg"
    >>> [v[s:e] for s, e in srcset_url_spans(v)]
    ['a,b.jpg', 'c.jpg', 'd.jpg']
    """
    spans: list[tuple[int, int]] = []
    n = len(value)
    pos = 0
    while True:
        # Splitting loop: skip whitespace and commas.
        pos = _SRCSET_SPLIT.match(value, pos).end()  # type: ignore[union-attr]
        if pos >= n:
            return spans
        start = pos
        pos = end = _SRCSET_URL.match(value, pos).end()  # type: ignore[union-attr]
        if value[end - 1] == ",":
            # "If url ends with U+002C (,)": remove trailing commas; no
            # descriptors follow.
            while end > start and value[end - 1] == ",":
                end -= 1
            if end > start:
                spans.append((start, end))
            continue
        spans.append((start, end))
        # Descriptor tokenizer: skip to the comma that ends this candidate,
        # honouring parentheses ("in parens" state).
        pos = _SRCSET_DESCRIPTORS.match(value, pos).end()  # type: ignore[union-attr]


# The srcset tokenizer's states as regexes (they always match, maybe empty).
_SRCSET_SPLIT = re.compile(r"[\t\n\x0c\r ,]*")
_SRCSET_URL = re.compile(r"[^\t\n\x0c\r ]*")
# Up to and including the comma that ends a candidate; "(" to ")" (or to
# the end) is one token, commas inside it included.
_SRCSET_DESCRIPTORS = re.compile(r"(?:[^,(]|\([^)]*\)?)*,?")


def refresh_url_span(content: str) -> tuple[int, int] | None:
    """Span of the URL in a ``<meta http-equiv=refresh>`` content, or None.

    Follows the HTML "shared declarative refresh steps": a time, then
    ``;``/``,``, then optionally ``url=`` (any case, spaces around ``=``)
    and an optional quote.

    >>> c = "5; URL='/next'"
    >>> s, e = refresh_url_span(c)
    >>> c[s:e]
    '/next'
    """
    n = len(content)
    pos = 0
    while pos < n and content[pos] in _ASCII_WS:
        pos += 1
    digits_start = pos
    while pos < n and content[pos].isascii() and content[pos].isdigit():
        pos += 1
    if pos == digits_start and (pos >= n or content[pos] != "."):
        return None
    while pos < n and (
        content[pos] == "." or (content[pos].isascii() and content[pos].isdigit())
    ):
        pos += 1
    if pos < n:
        if content[pos] not in ";," and content[pos] not in _ASCII_WS:
            return None
        while pos < n and content[pos] in _ASCII_WS:
            pos += 1
        if pos < n and content[pos] in ";,":
            pos += 1
        while pos < n and content[pos] in _ASCII_WS:
            pos += 1
    if pos >= n:
        return None
    url_start = pos
    # "url" (any case), spaces, "=", spaces; any miss parses from url_start.
    probe = pos
    if content[probe : probe + 3].lower() == "url":
        probe += 3
        while probe < n and content[probe] in _ASCII_WS:
            probe += 1
        if probe < n and content[probe] == "=":
            probe += 1
            while probe < n and content[probe] in _ASCII_WS:
                probe += 1
            url_start = probe
    quote = ""
    if url_start < n and content[url_start] in "'\"":
        quote = content[url_start]
        url_start += 1
    url_end = n
    if quote:
        at = content.find(quote, url_start)
        if at != -1:
            url_end = at
    # Trailing spaces are stripped by the URL parser; keep them outside.
    while url_end > url_start and content[url_end - 1] in _C0_OR_SPACE:
        url_end -= 1
    if url_end <= url_start:
        return None
    return url_start, url_end


# CSS Syntax Level 3, "consume a url token" and quoted strings given to
# url(): group 1 is the URL of a quoted url("..."), group 2 of an unquoted
# one.  Values containing backslash escapes are not matched (left alone).
_CSS_URL = re.compile(
    r"""url\(\s*(?:(["'])([^"'\\\n]*)\1|([^\s"'()\\]+))\s*\)""", re.IGNORECASE
)
_CSS_HAS_URL = re.compile(r"url\(|@import", re.IGNORECASE)
# @import "foo.css"; (a bare string, no url()).
_CSS_IMPORT = re.compile(r"""@import\s*(["'])([^"'\\\n]*)\1""", re.IGNORECASE)


def css_url_spans(css: str) -> list[tuple[int, int, str]]:
    """Spans of the URLs in CSS text, with their quote (``""`` if unquoted).

    >>> css = "background: url( 'a.png' ) , url(b.png); @import \\"c.css\\";"
    >>> [(css[s:e], q) for s, e, q in css_url_spans(css)]
    [('a.png', "'"), ('b.png', ''), ('c.css', '"')]
    """
    if not _CSS_HAS_URL.search(css):
        return []
    spans: list[tuple[int, int, str]] = []
    for m in _CSS_URL.finditer(css):
        if m.group(3) is not None:
            spans.append((m.start(3), m.end(3), ""))
        else:
            spans.append((m.start(2), m.end(2), m.group(1)))
    for m in _CSS_IMPORT.finditer(css):
        spans.append((m.start(2), m.end(2), m.group(1)))
    spans.sort()
    return spans
