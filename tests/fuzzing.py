"""Fuzzing support: markup strategies, the short/long profiles and a runner.

Every fuzz target is an ordinary hypothesis test in ``tests/test_fuzz_*.py``
decorated with :func:`fuzz`. In the normal test run each target draws a few
hundred examples (the short profile). The long profile is a time budget, not
an example count:

- ``SCRAPY_SOUP_FUZZ_SECONDS=600 python -m pytest tests/test_fuzz_parse.py``
  runs each target of the module for 600 s (hypothesis, fresh seeds in
  batches until the time is up);
- ``python tests/fuzzing.py test_fuzz_parse::test_parse_never_raises 600``
  runs one target for 600 s under atheris (coverage-guided, libFuzzer) through
  hypothesis' ``fuzz_one_input`` when atheris is installed, else as above.

The short run is derandomized (the same examples every run, no example
database), so it fails a change, never a later run of unchanged code. Long
runs draw fresh examples; their failures are shrunk and stored in hypothesis'
example database (``.hypothesis/``), and each becomes a plain regression test
in ``test_fuzz_regressions.py`` (or a saved input in ``tests/regressions/``).
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Seconds each target runs for in the long profile (0: the short profile).
LONG_SECONDS = float(os.environ.get("SCRAPY_SOUP_FUZZ_SECONDS", "0") or 0)

_HEALTH = [
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    HealthCheck.filter_too_much,
]

# The "fuzz" profile, for ``--hypothesis-profile=fuzz`` once a conftest
# imports this module: many examples, no deadline.
settings.register_profile(
    "fuzz", max_examples=50_000, deadline=None, suppress_health_check=_HEALTH
)


def _long_profile() -> bool:
    return LONG_SECONDS > 0 or settings._current_profile == "fuzz"


_XML_AS_HTML_EXPECTED = pytest.mark.filterwarnings(
    "ignore::scrapy_soup.XMLParsedAsHTMLWarning"
)


def fuzz(examples: int) -> Callable[[Any], Any]:
    """Make a ``@given`` test a fuzz target: ``examples`` examples, or run for a time.

    Apply it above ``@given``. In the long profile the returned test calls the
    hypothesis test in batches with fresh random seeds until
    ``SCRAPY_SOUP_FUZZ_SECONDS`` have passed; it is a test without arguments,
    so fuzz targets take no fixtures.
    """

    def decorate(test: Any) -> Any:
        # Generated markup may start with an XML declaration (SNIPPETS): the
        # warning bs4 gives for it when parsed as HTML is expected here.
        return _XML_AS_HTML_EXPECTED(_decorate(test))

    def _decorate(test: Any) -> Any:
        if not _long_profile():
            # The short run (every pytest, CI) is derandomized: the same
            # examples every time, so a finding fails a change, not a later run.
            return settings(
                max_examples=examples,
                deadline=None,
                suppress_health_check=_HEALTH,
                derandomize=True,
                database=None,
            )(test)
        batch = settings(
            max_examples=2_000,
            deadline=None,
            suppress_health_check=_HEALTH,
            derandomize=False,  # (conftest's profile repeats the examples)
        )(test)
        seconds = LONG_SECONDS or 600.0

        def run_for_a_time() -> None:
            end = time.monotonic() + seconds
            runs = 0
            while time.monotonic() < end:
                batch()
                runs += 1
            print(f"\n{test.__name__}: {runs} batches in {seconds:.0f} s")

        run_for_a_time.__name__ = test.__name__
        run_for_a_time.__qualname__ = test.__qualname__
        run_for_a_time.__doc__ = test.__doc__
        run_for_a_time.hypothesis = batch.hypothesis  # type: ignore[attr-defined]
        return run_for_a_time

    return decorate


# -- markup strategies -----------------------------------------------------------
TAGS = [
    "html", "head", "body", "title", "p", "div", "span", "a", "b", "i", "em",
    "ul", "ol", "li", "table", "tbody", "tr", "td", "th", "br", "hr", "img",
    "input", "meta", "link", "base", "script", "style", "pre", "textarea",
    "template", "svg", "math", "select", "option", "form", "iframe", "noscript",
    "h1", "h2", "section", "article", "x-custom", "svg:rect", "Foo",
]  # fmt: skip
ATTRS = [
    "id", "class", "href", "src", "srcset", "rel", "style", "title", "data-x",
    "onclick", "xmlns", "xmlns:x", "x:y", "lang", "headers", "accept-charset",
    "action", "name", "value", "ping", "content", "http-equiv", "CLASS", "a-b",
]  # fmt: skip
VALUES = [
    "", "x", "a b", " a  b ", "/rel/path", "../up?q=1#f", "#frag",
    "//host/p", "http://example.com/x", "javascript:alert(1)",
    " JaVa&#x09;Script:x", "data:text/html,<b>", "mailto:a@b", "http://[::1",
    "http://a:99999/", "img.png 1x, b,c.png 2x", "url(/x.png)",
    "5; url=/next", "\x00\x01", "\ud800", "é ü 漢", "&amp;&lt;", '"', "'",
    "<>", "\t\n\r\x0c", "x" * 300,
]  # fmt: skip
SNIPPETS = [
    "<!-- c -->", "<!--", "-->", "<!---->", "<![CDATA[x]]>", "<![CDATA[",
    "<!DOCTYPE html>", "<!doctype x SYSTEM 'y'>", "<?pi x?>", "<?xml version='1.0'?>",
    "&amp;", "&lt;", "&nbsp;", "&#0;", "&#x110000;", "&#xD800;", "&bogus;", "&",
    "<", ">", "</", "<>", "</>", "<a", "<a href='x", "\x00", "\r\n", "\x0c",
    " ", "\n", "\ufeff", "\ud800", "\udfff", "\x7f", "\x85", "\u2028", "\ufffe",
    "<script>", "</script>", "<style>", "<plaintext>", "<xmp>", "</p>", "<p>",
    "</html>", "<body>", "<head>", "<td>", "<tr>",
]  # fmt: skip


@st.composite
def markup(draw: st.DrawFn, max_parts: int = 24) -> str:
    """HTML-ish text: tags with attributes, end tags, odd snippets, text."""
    parts: list[str] = []
    for _ in range(draw(st.integers(0, max_parts))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            tag = draw(st.sampled_from(TAGS))
            attrs = draw(
                st.lists(
                    st.tuples(st.sampled_from(ATTRS), st.sampled_from(VALUES)),
                    max_size=3,
                )
            )
            quote = draw(st.sampled_from(['"', "'", ""]))
            text = "".join(
                f" {n}={quote}{v}{quote}" if quote or v else f" {n}" for n, v in attrs
            )
            slash = draw(st.sampled_from(["", "", "/"]))
            parts.append(f"<{tag}{text}{slash}>")
        elif kind == 1:
            parts.append(f"</{draw(st.sampled_from(TAGS))}>")
        elif kind == 2:
            parts.append(draw(st.sampled_from(SNIPPETS)))
        elif kind == 3:
            parts.append(draw(st.text(max_size=10)))
        else:
            parts.append(draw(st.sampled_from(["a", "text ", " ", "\n", "x y"])))
    return "".join(parts)


#: Bytes: encoded markup in several encodings, BOMs, raw random bytes.
ENCODINGS = [
    "utf-8",
    "utf-16",
    "utf-16-le",
    "cp1252",
    "latin-1",
    "shift_jis",
    "gb18030",
]


@st.composite
def markup_bytes(draw: st.DrawFn) -> bytes:
    """Bytes a server might send: encoded markup, BOMs, meta charsets, garbage."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.binary(max_size=300))
    text = draw(markup())
    encoding = draw(st.sampled_from(ENCODINGS))
    if kind == 2:
        declared = draw(st.sampled_from([*ENCODINGS, "bogus", "utf-7", ""]))
        text = f'<meta charset="{declared}">' + text
    data = text.encode(encoding, "replace")
    if kind == 3:
        # Mixed encodings and a random cut.
        other = draw(markup()).encode(draw(st.sampled_from(ENCODINGS)), "replace")
        data = data + other
        data = data[: draw(st.integers(0, len(data)))]
    prefix = draw(
        st.sampled_from([b"", b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])
    )
    return prefix + data


# -- the runner ------------------------------------------------------------------
def _target(spec: str) -> Any:
    module_name, _, name = spec.partition("::")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    module = importlib.import_module(module_name.removesuffix(".py"))
    return getattr(module, name)


def main(argv: list[str]) -> int:
    """``fuzzing.py module::test seconds``: run one target for a time."""
    spec, seconds = argv[1], float(argv[2])
    try:
        import atheris
    except ImportError:
        atheris = None
    if atheris is None:
        os.environ["SCRAPY_SOUP_FUZZ_SECONDS"] = str(seconds)
        global LONG_SECONDS
        LONG_SECONDS = seconds
        _target(spec)()
        return 0
    with atheris.instrument_imports(include=["scrapy_soup"]):
        import scrapy_soup  # noqa: F401
    test = _target(spec)
    for corpus in argv[3:]:
        if not corpus.startswith("-"):
            os.makedirs(corpus, exist_ok=True)
    atheris.Setup(
        [argv[0], f"-max_total_time={int(seconds)}", "-rss_limit_mb=2048", *argv[3:]],
        test.hypothesis.fuzz_one_input,
    )
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
