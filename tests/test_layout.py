"""The package's shape: modules a reader can hold, imports in one direction.

Every module of ``scrapy_soup`` is at most 800 lines, and no chain of
imports leads from a module back to itself: counting the imports inside
functions, not counting those under ``if TYPE_CHECKING:`` (annotations
only, never run).  The node classes reach the modules below them through
the registry in ``_tree/_classes.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scrapy_soup"
MAX_LINES = 800


def modules_of(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``package``."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            name = getattr(node.test, "id", None) or getattr(node.test, "attr", None)
            if name == "TYPE_CHECKING":
                for statement in node.body:
                    skipped.update(id(n) for n in ast.walk(statement))
    return skipped


def import_graph(package: Path) -> dict[str, set[str]]:
    """For each module, the package modules it imports when it runs (functions included)."""
    modules = modules_of(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package_name = name if path.name == "__init__.py" else name.rpartition(".")[0]
        skipped = _type_checking_nodes(tree)
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level:
                    base = package_name.split(".")
                    base = base[: len(base) - node.level + 1]
                    module = ".".join([*base, *([module] if module else [])])
                submodules = {f"{module}.{alias.name}" for alias in node.names}
                found |= submodules & modules.keys() or {module} & modules.keys()
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names} & modules.keys()
        found.discard(name)
        graph[name] = found
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (as a path back to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> list[str] | None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                cycle = visit(target, [*path, target])
                if cycle:
                    return cycle
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            cycle = visit(name, [name])
            if cycle:
                return cycle
    return None


MODULES = modules_of(PACKAGE)


def test_the_package_is_found() -> None:
    assert "scrapy_soup._tree._soup" in MODULES
    assert len(MODULES) > 30


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_is_at_most_800_lines(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines"


def test_imports_have_no_cycle() -> None:
    graph = import_graph(PACKAGE)
    assert "scrapy_soup._tree._tag" in graph["scrapy_soup._tree._document"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_check_sees_function_level_imports_only(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from .high import g\n")
    (package / "high.py").write_text("from . import low\n\ndef g():\n    pass\n")
    assert find_cycle(import_graph(package)) == ["pkg.high", "pkg.low", "pkg.high"]
    (package / "low.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high import g\n"
    )
    assert find_cycle(import_graph(package)) is None


def test_docs_list_every_tree_module_in_import_order() -> None:
    import re

    readme = (PACKAGE.parent / "docs" / "development.md").read_text(encoding="utf-8")
    start = readme.index("  _tree/ ")
    block = readme[start : readme.index("  markup/ ", start)]
    order = [
        f"scrapy_soup._tree.{name}"
        for name in re.findall(r"^    (_\w+)\.py", block, re.M)
    ]
    listed = {name: index for index, name in enumerate(order)}
    in_tree = {name for name in MODULES if name.startswith("scrapy_soup._tree.")}
    assert set(listed) == in_tree
    graph = import_graph(PACKAGE)
    for name in order:
        later = [
            target for target in graph[name] if listed.get(target, -1) > listed[name]
        ]
        assert not later, f"{name} imports {later}, listed after it"
