"""Tree editing (placeholder until the modify module lands)."""

from __future__ import annotations


class ModifyMixin:
    """Editing methods shared by tags and strings (stand-in)."""

    __slots__ = ()
