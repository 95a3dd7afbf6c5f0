"""The Sphinx directive that completes the API reference from the code.

``soup-api-others``: autodoc for every name of ``scrapy_soup.__all__`` that
the page has not documented above it, so a new public name is in the API
reference from the day it is exported.

The settings, stats, presets and API-summary tables are not built here: they
are committed Markdown in the pages (``soup_tables.py`` regenerates them), so
the pages read the same on GitHub.
"""

from __future__ import annotations

from typing import cast

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.domains.python import PythonDomain
from sphinx.util.docutils import SphinxDirective

import scrapy_soup


def _parsed(directive: SphinxDirective, markdown: str) -> list[nodes.Node]:
    container = nodes.container()
    lines = StringList(markdown.splitlines(), source=directive.get_source_info()[0])
    directive.state.nested_parse(lines, directive.content_offset, container)
    return list(container.children)


class ApiOthers(SphinxDirective):
    """Autodoc each public name not yet documented on the page.

    Its content is what GitHub shows in its place; the site replaces it.
    """

    has_content = True

    def run(self) -> list[nodes.Node]:
        documented = cast(PythonDomain, self.env.get_domain("py")).objects
        lines: list[str] = []
        for name in sorted(scrapy_soup.__all__, key=str.lower):
            if f"scrapy_soup.{name}" in documented:
                continue
            value = getattr(scrapy_soup, name)
            if isinstance(value, type):
                lines.append(f".. autoclass:: scrapy_soup.{name}\n   :members:\n")
            elif callable(value):
                lines.append(f".. autofunction:: scrapy_soup.{name}\n")
            else:  # a constant: its type's docstring would say nothing of it
                lines.append(f".. py:data:: scrapy_soup.{name}\n")
        if not lines:
            return _parsed(self, "None: every public name is in a section above.")
        # autodoc writes reStructuredText: MyST hands it on in an eval-rst block.
        return _parsed(self, "```{eval-rst}\n" + "\n".join(lines) + "```\n")


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("soup-api-others", ApiOthers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
