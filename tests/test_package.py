"""The package as people adopt it: version, metadata, help(), declared imports."""

from __future__ import annotations

import ast
import importlib.metadata
import pydoc
import re
import subprocess
import sys
from pathlib import Path

import pytest

import scrapy_soup

PACKAGE_DIR = Path(scrapy_soup.__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent
#: Import names of the distributions the package may import at run time.
DISTRIBUTION_OF = {
    "lxml": "lxml",
    "cssselect": "cssselect",
    "w3lib": "w3lib",
    "parsel": "parsel",
    "scrapy": "scrapy",
    "itemadapter": "itemadapter",
}


#: Modules imported only when a feature asks for them (tried once, in one
#: place), and the extra that installs each: module -> (distribution, extra).
OPTIONAL_DISTRIBUTION_OF = {"turbohtml": ("turbohtml", "html5")}


def _requirements(extra: str | None = None) -> dict[str, str]:
    """Declared requirements of the installed distribution: name -> spec.

    The runtime ones, or those of ``extra``.
    """
    out = {}
    for req in importlib.metadata.requires("scrapy-soup") or []:
        found = re.search(r"extra == [\"']([^\"']+)", req)
        if (found[1] if found else None) != extra:
            continue
        name = re.match(r"[A-Za-z0-9_.\-]+", req)
        assert name is not None
        out[name.group(0).lower()] = req
    return out


def test_version_is_the_distributions() -> None:
    assert scrapy_soup.__version__ == importlib.metadata.version("scrapy-soup")
    assert re.fullmatch(
        r"\d+\.\d+\.\d+(\.dev\d+|a\d+|b\d+|rc\d+)?", scrapy_soup.__version__
    )


def test_metadata_for_adopters() -> None:
    meta = importlib.metadata.metadata("scrapy-soup")
    classifiers = meta.get_all("Classifier") or []
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    # The Python versions: the ones .ci/run tests (tests/test_ci.py).
    assert any(re.search(r":: 3\.\d+$", c) for c in classifiers)
    assert meta["Requires-Python"] == ">=3.10"
    # No project URL is declared until one exists: no public repository,
    # tracker or hosted docs yet (pyproject says so), and a guess misleads.
    pyproject = (REPO_DIR / "pyproject.toml").read_text("utf-8")
    assert not re.search(r"^\[project\.urls\]", pyproject, re.M)
    assert (meta.get("License-Expression") or meta.get("License")) == "BSD-3-Clause"
    assert "BSD 3-Clause License" in (REPO_DIR / "LICENSE").read_text("utf-8")


def _runtime_imports(tree: ast.AST) -> set[str]:
    """Top-level names of the modules imported outside ``if TYPE_CHECKING:``."""
    out: set[str] = set()
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                out |= _runtime_imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
        else:
            out |= _runtime_imports(node)
    return out


def test_every_third_party_import_is_declared() -> None:
    imported: set[str] = set()
    for path in PACKAGE_DIR.rglob("*.py"):
        imported |= _runtime_imports(ast.parse(path.read_text("utf-8")))
    third_party = {
        name
        for name in imported
        if name not in sys.stdlib_module_names
        and name != "scrapy_soup"
        and name not in OPTIONAL_DISTRIBUTION_OF
    }
    assert third_party <= set(DISTRIBUTION_OF), third_party - set(DISTRIBUTION_OF)
    declared = _requirements()
    for name in third_party:
        assert DISTRIBUTION_OF[name] in declared, name
    for name, (distribution, extra) in OPTIONAL_DISTRIBUTION_OF.items():
        assert name in imported, name  # (or the entry is stale)
        assert distribution in _requirements(extra), (name, extra)


def test_dir_is_all_plus_dunders_without_importing_scrapy() -> None:
    code = (
        "import sys, scrapy_soup\n"
        "names = dir(scrapy_soup)\n"
        "public = [n for n in names if not (n[:2] == n[-2:] == '__')]\n"
        "assert public == sorted(scrapy_soup.__all__), "
        "set(public) ^ set(scrapy_soup.__all__)\n"
        "assert len(set(scrapy_soup.__all__)) == len(scrapy_soup.__all__)\n"
        "assert '__version__' in names and '__all__' in names\n"
        "assert 'scrapy' not in sys.modules\n"
        "print('ok')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_help_starts_with_what_it_is_and_how_to_enable_it() -> None:
    text = pydoc.render_doc(scrapy_soup, renderer=pydoc.plaintext)
    head = text[: text.index("PACKAGE CONTENTS")]
    assert "Beautiful Soup" in head
    assert 'ADDONS = {"scrapy_soup.Addon": 0}' in head
    assert "PEP 562" in head
    # The lazily imported Scrapy components are documented with the rest.
    for name in ("Addon", "CleanHtmlPipeline", "SoupDownloaderMiddleware"):
        assert re.search(rf"^ {{4}}class {name}\b", text, re.M), name


#: Top-level folders of the repository that are not the package.
NOT_THE_PACKAGE = ("tests", "benchmarks", "docs", "example_project")

_IMPORTS_ONLY_THE_PACKAGE = (
    "import importlib.util, sys, scrapy_soup\n"
    "found = [n for n in sys.argv[1:] if importlib.util.find_spec(n) is not None]\n"
    "assert not found, found\n"
    "print(scrapy_soup.__name__)\n"
)


def _isolated_env() -> dict[str, str]:
    import os

    return {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")
    }


def _check_imports_only_the_package(python: Path, cwd: Path) -> None:
    """Outside the checkout, *python* imports scrapy_soup and nothing else of it."""
    proc = subprocess.run(
        [python, "-c", _IMPORTS_ONLY_THE_PACKAGE, *NOT_THE_PACKAGE],
        cwd=cwd,
        env=_isolated_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "scrapy_soup"


def test_the_install_exposes_only_the_package(tmp_path: Path) -> None:
    """``pip install -e .`` does not put the repository root on ``sys.path``.

    Outside the checkout, ``import scrapy_soup`` works and ``tests``,
    ``benchmarks``, ``docs`` and ``example_project`` do not import (hatch's
    ``dev-mode-exact``, pyproject.toml).
    """
    _check_imports_only_the_package(Path(sys.executable), tmp_path)


@pytest.mark.slow
@pytest.mark.network
def test_the_wheel_installs_only_the_package(tmp_path: Path) -> None:
    """The built wheel in a fresh venv: ``import scrapy_soup``, nothing else of the repo."""
    import venv

    # The fresh venv's own pip builds the wheel too: the venv running the
    # tests may have none (nox's uv backend).
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    dist = tmp_path / "dist"
    pip = [python, "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "-w", str(dist), str(REPO_DIR)],
        check=True,
        env=_isolated_env(),
    )
    (wheel,) = dist.glob("scrapy_soup-*.whl")
    subprocess.run([*pip, "install", str(wheel)], check=True, env=_isolated_env())
    _check_imports_only_the_package(python, tmp_path)
