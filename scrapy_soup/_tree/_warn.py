"""Warnings that point at the user's line, however deep the library call was."""

from __future__ import annotations

import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def user_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside scrapy_soup, for `warn_user`.

    bs4 points its warnings at the line that called it; the same public
    method reaches a warning through different depths here (``find`` goes
    through ``find_all``), so a fixed ``stacklevel`` would point inside the
    package.  (Python 3.12's ``skip_file_prefixes`` does this; 3.10 lacks it.)
    """
    frame = sys._getframe(2)
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def warn_user(message: str | Warning, category: type[Warning] | None = None) -> None:
    """``warnings.warn`` pointing at the first frame outside scrapy_soup."""
    warnings.warn(message, category, stacklevel=user_stacklevel())
