"""Where the fast writer was: it is the tree's one writer now, `scrapy_soup._tree._write`.

Kept (a re-export, no code) while branches written against the old place
are merged; import from ``scrapy_soup._tree._write``.
"""

from __future__ import annotations

from .._tree._write import contents_html

__all__ = ["contents_html"]
