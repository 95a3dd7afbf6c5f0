"""Sphinx configuration of the scrapy_soup documentation.

Built in CI with warnings as errors:

    python -m pip install -e ".[docs]"
    python -m sphinx -W --keep-going -b html docs docs/_build/html

The pages are MyST Markdown; the settings, stats and cleaning-preset tables
are generated from the code by the extension in ``_ext/`` so they cannot
drift from it.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
# The package from this checkout (the one the docs describe), then _ext/.
sys.path[:0] = [str(DOCS.parent), str(DOCS / "_ext")]

import scrapy_soup  # noqa: E402

project = "scrapy_soup"
author = "scrapy_soup developers"
copyright = "scrapy_soup developers, BSD-3-Clause"
release = scrapy_soup.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "soup_docs",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist"]
# Headings get anchors, so [text](page.md#a-heading) links resolve.
myst_heading_anchors = 3

# A {setting}`...` or {stat}`...` link to a name the generated tables do not
# have is an error (-W). Python types in signatures may name classes of other
# packages (lxml, parsel, Scrapy), which have no pages here: not checked.
nitpicky = True
nitpick_ignore_regex = [("py:.*", ".*")]

# Typed signatures, from the annotations (the package is mypy-strict).
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_member_order = "bysource"
autodoc_default_options = {"show-inheritance": True}
autodoc_preserve_defaults = True

html_theme = "furo"
html_title = f"scrapy_soup {release}"
html_show_sourcelink = False
