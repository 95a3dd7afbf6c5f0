"""Sphinx directives that write the docs' reference tables from the code.

- ``soup-settings``: every ``SOUP_*`` setting, from
  ``scrapy_soup._scrapy._settings.SETTINGS`` (name, type, default, doc);
- ``soup-stats``: every ``soup/...`` stat, from ``scrapy_soup._scrapy._stats.STATS``;
- ``soup-policies``: what each cleaning preset of ``scrapy_soup.POLICIES`` keeps;
- ``soup-api-others``: autodoc for every name of ``scrapy_soup.__all__`` that
  the page has not documented above it, so a new public name is in the API
  reference from the day it is exported.

The tables are MyST Markdown written by ``soup_tables`` (which the tests read
too) and parsed where the directive stands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import soup_tables
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


def _table_directive(write: Callable[[], str]) -> type[SphinxDirective]:
    class TableDirective(SphinxDirective):
        has_content = False

        def run(self) -> list[nodes.Node]:
            return _parsed(self, write())

    return TableDirective


class ApiOthers(SphinxDirective):
    """Autodoc each public name not yet documented on the page."""

    has_content = False

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
    app.add_directive("soup-settings", _table_directive(soup_tables.settings_markdown))
    app.add_directive("soup-stats", _table_directive(soup_tables.stats_markdown))
    app.add_directive("soup-policies", _table_directive(soup_tables.policies_markdown))
    app.add_directive("soup-api-others", ApiOthers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
