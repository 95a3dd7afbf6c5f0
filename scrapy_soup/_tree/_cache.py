"""The one bounded cache of compiled XPaths (and of the plans that hold them).

Searches, CSS selectors, selector-group unions and text scans each compile
XPaths from what they are asked; compiling costs more than a search of a
small tree, so each compiled form is kept, but only so many: a spider that
searches for ever new values must not grow.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["LRU"]


class LRU:
    """A small bounded mapping that forgets the least recently used entry."""

    __slots__ = ("data", "maxsize")

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.data: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        """The value kept for *key*, or None."""
        try:
            value = self.data[key]
        except KeyError:
            return None
        self.data.move_to_end(key)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        """Keep *value* for *key*, forgetting the oldest entry past ``maxsize``."""
        self.data[key] = value
        if len(self.data) > self.maxsize:
            self.data.popitem(last=False)

    def get_or_make(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value kept for *key*, made by ``make()`` and kept if there is none."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found
