"""Sphinx directives that write the docs' reference tables from the code.

- ``soup-settings``: every ``SOUP_*`` setting, from
  ``scrapy_soup._scrapy._settings.SETTINGS`` (name, type, default, doc), each
  row a target of the ``setting`` role (``{setting}`SOUP_HTML_FIELDS```);
- ``soup-stats``: every ``soup/...`` stat, from ``scrapy_soup._scrapy._stats.STATS``,
  each row a target of the ``stat`` role;
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
from sphinx.domains.std import StandardDomain
from sphinx.util.docutils import SphinxDirective

import scrapy_soup


def _parsed(directive: SphinxDirective, markdown: str) -> list[nodes.Node]:
    container = nodes.container()
    lines = StringList(markdown.splitlines(), source=directive.get_source_info()[0])
    directive.state.nested_parse(lines, directive.content_offset, container)
    return list(container.children)


def _table_directive(
    write: Callable[[], str], objtype: str | None = None
) -> type[SphinxDirective]:
    class TableDirective(SphinxDirective):
        has_content = False

        def run(self) -> list[nodes.Node]:
            parsed = _parsed(self, write())
            if objtype is not None:
                self._mark_rows(parsed, objtype)
            return parsed

        def _mark_rows(self, parsed: list[nodes.Node], objtype: str) -> None:
            """Each row a link target: ``{setting}`SOUP_HTML_FIELDS``` finds it."""
            std = cast(StandardDomain, self.env.get_domain("std"))
            for node in parsed:
                for row in node.findall(nodes.row):
                    if isinstance(row.parent, nodes.thead):
                        continue
                    name = row[0].astext().strip()
                    node_id = nodes.make_id(f"{objtype}-{name}")
                    row["ids"].append(node_id)
                    std.note_object(objtype, name, node_id, location=row)

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
    # Scrapy's own docs name these roles so: {setting}`SOUP_HTML_FIELDS`, {stat}`...`.
    app.add_object_type("setting", "setting", "pair: %s; setting")
    app.add_object_type("stat", "stat", "pair: %s; stat")
    app.add_directive(
        "soup-settings", _table_directive(soup_tables.settings_markdown, "setting")
    )
    app.add_directive(
        "soup-stats", _table_directive(soup_tables.stats_markdown, "stat")
    )
    app.add_directive("soup-policies", _table_directive(soup_tables.policies_markdown))
    app.add_directive("soup-api-others", ApiOthers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
