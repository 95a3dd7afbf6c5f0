"""The strings the converters tell apart from text by their class.

A module of their own, never compiled: the compiled build (mypyc, see
docs/performance.md) makes the classes of the modules it compiles native
ones, which cannot derive from ``str``; these stay Python classes there.
"""

from __future__ import annotations

__all__ = ["Atom", "Forced"]


class Atom(str):
    """Markdown written as it is (a code span, an image): `_inline.Inline`'s."""

    __slots__ = ()


class Forced(str):
    """Text written as it is (a ``<br>``'s newline, a cell's tab, ``<pre>``
    text), the spaces around it dropped: `text.to_text`'s."""

    __slots__ = ()
