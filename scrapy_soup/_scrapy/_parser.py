"""``SOUP_PARSER`` and ``meta["soup_parser"]``: which parser builds a response's tree.

libxml2's (Scrapy's and parsel's) by default; ``"html5"`` builds the tree
as browsers do (`scrapy_soup._tree._html5`), and that tree is then the
response's one: its ``.selector`` (so ``.css()`` and ``.xpath()``) and its
``.soup`` read it.  It is parsed once, when first used; a response whose
callback never selects anything is never parsed.

The choice is kept per response, weakly, beside it (no attribute of
Scrapy's is set); the selector holds the tree and never the response.
"""

from __future__ import annotations

import contextlib
import weakref
from typing import TYPE_CHECKING, Any

from scrapy.http import HtmlResponse

if TYPE_CHECKING:
    from scrapy.http import Response
    from scrapy.selector import Selector

__all__ = [
    "PARSER_META_KEY",
    "built_html5_selector",
    "choose_parser",
    "html5_selector",
    "parser_name",
]

#: Request meta key: this request's response parsed by this parser.
PARSER_META_KEY = "soup_parser"

#: The names a user may give, to the two parsers.
_NAMES = {
    "lxml": "lxml",
    "libxml2": "lxml",
    "html": "lxml",
    "html5": "html5",
    "html5lib": "html5",
}

#: Responses to parse as HTML5 -> their selector, once made (None before).
_html5: weakref.WeakKeyDictionary[Any, Selector | None] = weakref.WeakKeyDictionary()


def parser_name(value: object) -> str:
    """``"lxml"`` or ``"html5"`` for a value of the setting or the meta key.

    Raises ValueError for any other value, and for ``"html5"`` where its
    extra is not installed (naming what to install).
    """
    name = _NAMES.get(value.strip().lower()) if isinstance(value, str) else None
    if name is None:
        raise ValueError(f"{value!r} is not a parser: use 'lxml' or 'html5'")
    if name == "html5":
        from scrapy_soup._tree._html5 import INSTALL_HINT, available

        if not available():
            raise ValueError(INSTALL_HINT)
    return name


def choose_parser(response: Response, meta: dict[str, Any], default: str) -> None:
    """Record the parser of ``response`` (the middleware's): the request's, or ``default``.

    Only an HTML response can be parsed as HTML5; XML and other text
    stay libxml2's.
    """
    given = meta.get(PARSER_META_KEY)
    name = default if given is None else parser_name(given)
    if name == "html5" and isinstance(response, HtmlResponse):
        # (TypeError: not weakly referable, a class of another plugin's.)
        with contextlib.suppress(TypeError):
            _html5.setdefault(response, None)


def html5_selector(response: Any) -> Selector | None:
    """The selector over ``response``'s HTML5 tree, parsed now if not yet.

    None when the response is not parsed as HTML5.
    """
    try:
        if response not in _html5:
            return None
    except TypeError:
        return None
    selector = _html5[response]
    if selector is None:
        from scrapy.selector import Selector
        from scrapy.utils.response import get_base_url

        from scrapy_soup._tree import _html5 as tree

        selector = Selector(
            root=tree.parse_html5(response.text),
            type="html",
            base_url=get_base_url(response),
        )
        _html5[response] = selector
    return selector


def built_html5_selector(response: Any) -> Selector | None:
    """`html5_selector` if the response was parsed already; never parses."""
    try:
        return _html5.get(response)
    except TypeError:
        return None
