"""Sphinx configuration of the scrapy_soup documentation.

Built in CI with warnings as errors:

    python -m pip install -e ".[docs]"
    python -m sphinx -W --keep-going -b html docs docs/_build/html

The pages are plain Markdown that reads the same on GitHub (links are
``[text](page.md)``, not roles); MyST builds the site from the same files.
The settings, stats, preset and API tables are committed in the pages and
regenerated from the code by ``python docs/_ext/soup_tables.py`` (a test
checks they are current); ``_ext/soup_docs.py`` adds the autodoc catch-all.

Intersphinx links the types of other packages (Scrapy, parsel, lxml,
Beautiful Soup) to their documentation when their inventories can be
fetched; offline (a machine that reaches only PyPI) the build goes on
without them rather than failing on ``-W``.
"""

from __future__ import annotations

import os
import socket
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
    "sphinx.ext.intersphinx",
    "sphinx_copybutton",
    "soup_docs",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist"]
# Headings get anchors, so [text](page.md#a-heading) links resolve.
myst_heading_anchors = 3

#: The documentation of the packages scrapy_soup's types and pages name.
INTERSPHINX = {
    "python": "https://docs.python.org/3/",
    "scrapy": "https://docs.scrapy.org/en/latest/",
    "parsel": "https://parsel.readthedocs.io/en/latest/",
    "lxml": "https://lxml.de/apidoc/",
    "bs4": "https://www.crummy.com/software/BeautifulSoup/bs4/doc/",
}


def _online(url: str) -> bool:
    """Whether *url*'s host answers on 443 within two seconds."""
    host = url.split("/")[2]
    try:
        socket.create_connection((host, 443), timeout=2).close()
    except OSError:
        return False
    return True


# An inventory that cannot be fetched is a warning, which -W makes an error:
# offline, intersphinx gets no mapping (SOUP_DOCS_INTERSPHINX=0 forces that).
if os.environ.get("SOUP_DOCS_INTERSPHINX") != "0" and _online(INTERSPHINX["scrapy"]):
    intersphinx_mapping = {name: (url, None) for name, url in INTERSPHINX.items()}
else:
    intersphinx_mapping = {}
    print("conf.py: offline, intersphinx links left out", file=sys.stderr)
intersphinx_timeout = 10

# The copy button copies commands and code without prompts or output:
# ">>> ", "... " and "$ " are dropped, and lines without one are left out.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

# Python types in signatures may name classes of other packages (lxml,
# parsel, Scrapy), which intersphinx links when online: not checked.
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
