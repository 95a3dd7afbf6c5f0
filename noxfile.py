"""The units of CI, each runnable by name: ``nox -s lint``, ``nox -s "scrapy-2.17"``.

``nox -l`` lists them. ``.ci/run`` installs nox and calls them (after the
README's own test command, run verbatim), printing the time of each.

- ``tests-3.X``: the whole default suite (the README's command) on each
  Python the classifiers list; ``.ci/run`` runs the README's command on its
  own Python instead of that Python's session (the same thing twice).
- ``floors``: exactly the lowest versions pyproject.toml declares
  (``.ci/floor_pins.py``), on the lowest Python; the tests that touch Scrapy
  and the parity, CSS, search and clean/links modules, long ones too.
- ``scrapy-2.X``: the tests that touch Scrapy (``-m scrapy``, set by
  tests/conftest.py) on each Scrapy minor release from the floor to the
  newest, with the newest of everything else.
- ``extras-on``/``extras-off``: the same tests with every optional runtime
  extra of pyproject.toml installed (the test extra holds their packages, so
  the README's install is "on", which ``.ci/run`` runs already), and with
  none of them (their packages uninstalled again).
- ``coverage``: the default suite under coverage.py with branches, failing
  under ``fail_under`` (pyproject.toml).
- ``lint``, ``typing``, ``docs``, ``dist``, ``slow``.

Tests run on both cores (pytest-xdist, ``-n 2``) where they are independent,
and ``.ci/run`` runs two sessions at a time, longest first.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import nox

if sys.version_info >= (3, 11):
    import tomllib
else:  # nox itself may run on Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))

#: The Pythons the classifiers list (tests/test_ci.py checks the two agree).
PYTHONS = [
    c.rsplit(" :: ", 1)[1]
    for c in PYPROJECT["project"]["classifiers"]
    if c.startswith("Programming Language :: Python :: 3.")
]
#: The Python of the single-Python sessions (lint, typing, docs, ...).
MAIN_PYTHON = "3.11"
#: Each Scrapy minor release from the floor to the newest; a new minor is
#: added here when it is released (``pip index versions scrapy``).
SCRAPY_RELEASES = ["2.13", "2.14", "2.15", "2.16", "2.17", "2.18", "2.19"]
#: Extras for development, not features a user turns on.
DEVELOPMENT_EXTRAS = {"test", "docs", "bench"}
#: The optional runtime extras (html5 parsing, ...), however many exist.
OPTIONAL_EXTRAS = sorted(
    set(PYPROJECT["project"].get("optional-dependencies", {})) - DEVELOPMENT_EXTRAS
)
#: Both cores; ``PYTEST_WORKERS=0`` runs in one process.
WORKERS = ["-n", os.environ.get("PYTEST_WORKERS", "2")]
#: What the Scrapy-release and extras sessions run: the tests marked
#: ``scrapy`` and those of an optional extra (marked with its name).
#: (A -m given replaces the default run's -m "not slow": said again here.)
SCRAPY_TESTS = ["-m", f"({' or '.join(['scrapy', *OPTIONAL_EXTRAS])}) and not slow"]

# uv where installed (.ci/run installs it: its installs are much faster than
# pip's), else the standard library's venv and pip.
nox.options.default_venv_backend = "uv|venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = False
#: ``nox`` alone: what a developer runs before pushing.
nox.options.sessions = [f"tests-{MAIN_PYTHON}", "lint", "typing"]


def _pytest(session: nox.Session, *args: str) -> None:
    session.run("python", "-m", "pytest", *WORKERS, *args, *session.posargs)


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The whole default suite, as the README runs it, on one Python."""
    session.install("-e", ".[test]", "pytest-xdist")
    _pytest(session)


@nox.session(python=MAIN_PYTHON)
def slow(session: nox.Session) -> None:
    """The long tests the default run leaves out (fuzzing, huge documents)."""
    session.install("-e", ".[test]", "pytest-xdist")
    _pytest(session, "-m", "slow")


#: The floors job's modules besides the Scrapy-marked tests: the parity and
#: clean/links tests, whose results depend on lxml, cssselect and w3lib, all
#: of their tests (-m "", the long ones too), by Python. The CSS parity tests
#: run on 3.11: their oracle, soupsieve 4, needs Python 3.11.5 (soupsieve 2,
#: the newest on 3.10, matches inside ``<template>``).
FLOORS_MODULES = {
    PYTHONS[0]: [
        "tests/test_corpus.py",
        "tests/test_tree_parity.py",
        "tests/test_tree.py",
        "tests/test_clean.py",
        "tests/test_links.py",
        "tests/test_package.py",
        "tests/test_search_parity.py::test_has_lists_follow_cssselect",
    ],
    MAIN_PYTHON: [
        "tests/test_search_parity.py",
        "tests/test_css.py",
        "tests/test_search.py",
        "tests/test_fragment_output.py",
    ],
}


@nox.session(python=list(FLOORS_MODULES))
def floors(session: nox.Session) -> None:
    """The lowest versions pyproject.toml declares (the range's other end).

    Pins from ``.ci/floor_pins.py`` applied as constraints, so the test extra
    cannot pull a newer one in; the oracle (bs4, soupsieve) is the newest pip
    finds. On the lowest Python, the Scrapy-marked tests too.
    """
    constraints = Path(session.create_tmp()) / "floors.txt"
    # The host Python reads pyproject.toml (tomllib: 3.11+).
    pins = session.run(sys.executable, ".ci/floor_pins.py", silent=True, external=True)
    assert isinstance(pins, str)
    constraints.write_text(pins, "utf-8")
    session.install("-c", str(constraints), "-e", ".[test]", "pytest-xdist")
    session.run("python", ".ci/floor_pins.py", "--check", str(constraints))
    modules = FLOORS_MODULES[str(session.python)]
    _pytest(session, "-m", "", *modules)
    if session.python == PYTHONS[0]:
        ignore = sorted({f"--ignore={m.partition('::')[0]}" for m in modules})
        _pytest(session, "-m", "scrapy and not slow", *ignore)


@nox.session(python=MAIN_PYTHON, name="scrapy")
@nox.parametrize("release", SCRAPY_RELEASES, ids=SCRAPY_RELEASES)
def scrapy_release(session: nox.Session, release: str) -> None:
    """The tests that touch Scrapy, on one Scrapy minor release (its newest patch)."""
    floor = _scrapy_floor()
    spec = (
        f"scrapy>={floor},=={release}.*"
        if floor.startswith(release)
        else f"scrapy=={release}.*"
    )
    session.install("-e", ".[test]", "pytest-xdist", spec)
    session.run("python", "-c", "import scrapy; print('Scrapy', scrapy.__version__)")
    _pytest(session, *SCRAPY_TESTS)


def _scrapy_floor() -> str:
    for requirement in PYPROJECT["project"]["dependencies"]:
        name, _, floor = requirement.partition(">=")
        if name.strip().lower() == "scrapy":
            return floor.strip()
    raise LookupError("pyproject.toml declares no scrapy>=")


#: Prints which distributions each optional extra requires are installed.
_PRINT_EXTRAS = """
import sys
from importlib.metadata import PackageNotFoundError, requires, version

for req in requires("scrapy-soup") or []:
    extra = req.partition("extra == ")[2].strip("'\\" ")
    if extra in sys.argv[1:]:
        name = req.split(";")[0].split("[")[0].split(">")[0].split("=")[0].strip()
        try:
            print(f"{extra}: {name} {version(name)}")
        except PackageNotFoundError:
            print(f"{extra}: {name} not installed")
"""


@nox.session(python=MAIN_PYTHON)
@nox.parametrize("extras", ["on", "off"], ids=["on", "off"])
def extras(session: nox.Session, extras: str) -> None:
    """The Scrapy and extra-marked tests with every optional extra, or none.

    A test that needs an extra is marked with the extra's name (an extra
    ``html5``: ``@pytest.mark.html5``); without the extras those are left out.
    """
    if extras == "on":
        if not OPTIONAL_EXTRAS:
            session.skip("pyproject.toml declares no optional runtime extra")
        session.install(
            "-e", f".[{','.join(['test', *OPTIONAL_EXTRAS])}]", "pytest-xdist"
        )
        selection = SCRAPY_TESTS
    else:
        # The test extra holds every optional extra's packages (so that the
        # README's command runs their tests): take them out again.
        session.install("-e", ".[test]", "pytest-xdist")
        _uninstall(session, _extra_distributions())
        without = "".join(f" and not {extra}" for extra in OPTIONAL_EXTRAS)
        selection = ["-m", f"scrapy and not slow{without}"]
    session.run("python", "-c", _PRINT_EXTRAS, *OPTIONAL_EXTRAS)
    _pytest(session, *selection)


def _extra_distributions() -> list[str]:
    """The distributions the optional runtime extras require, by name."""
    extras = PYPROJECT["project"].get("optional-dependencies", {})
    names = set()
    for extra in OPTIONAL_EXTRAS:
        for requirement in extras[extra]:
            name = re.split(r"[\s\[;<>=!~]", requirement, maxsplit=1)[0]
            names.add(name)
    return sorted(names)


def _uninstall(session: nox.Session, names: list[str]) -> None:
    if not names:
        return
    if session.venv_backend == "uv":
        python = Path(session.bin) / "python"
        session.run("uv", "pip", "uninstall", "--python", str(python), *names)
    else:
        session.run("python", "-m", "pip", "uninstall", "-y", *names)


#: The Python of the coverage session (the whole suite, measured).
COVERAGE_PYTHON = "3.12"


@nox.session(python=COVERAGE_PYTHON)
def coverage(session: nox.Session) -> None:
    """The default suite under coverage.py (branches); fails under the floor.

    The floor is ``fail_under`` in pyproject.toml; the xdist workers and the
    crawls' processes are measured too (``patch = ["subprocess", "fork",
    "_exit"]``: the crawls are forked, tests/scrapy_helpers.py).
    """
    session.install("-e", ".[test]")
    session.run("python", "-m", "coverage", "erase")
    session.run(
        "python", "-m", "coverage", "run", "-m", "pytest", *WORKERS, *session.posargs
    )
    session.run("python", "-m", "coverage", "combine", "-q")
    session.run("python", "-m", "coverage", "report")


@nox.session(python=MAIN_PYTHON)
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff>=0.5")
    paths = [
        "scrapy_soup",
        "tests",
        "benchmarks",
        "example_project",
        "docs/conf.py",
        "docs/_ext",
        "noxfile.py",
        ".ci",
    ]
    session.run("ruff", "check", *paths)
    session.run("ruff", "format", "--check", *paths)


@nox.session(python=MAIN_PYTHON)
def typing(session: nox.Session) -> None:
    """mypy --strict on the package and tests/typing (pyproject.toml)."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "mypy")


@nox.session(python=MAIN_PYTHON)
def docs(session: nox.Session) -> None:
    """The Sphinx site, warnings as errors; the committed tables current."""
    session.install("-e", ".[docs]")
    session.run("python", "docs/_ext/soup_tables.py", "--check")
    build = REPO / "docs" / "_build"
    session.run(
        "python",
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-q",
        "-E",
        "-b",
        "html",
        "docs",
        str(build / "html"),
    )


#: The modules the compiled build compiles (pyproject.toml's mypyc hook).
COMPILED_MODULES = [
    path.removesuffix(".py").replace("/", ".")
    for path in PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"][
        "mypyc"
    ]["include"]
]
#: Their tests: the converters', main content's (which reads through
#: `to_text`) and the sanitizer's (which checks attributes and URLs with
#: `_attributes` and `_url`), in this process (a crawl's process imports
#: the repository's source first: tests/scrapy_helpers.py).
COMPILED_TESTS = [
    "tests/test_markdown.py",
    "tests/test_text.py",
    "tests/test_main_content.py",
    "tests/test_clean.py",
    "tests/test_clean_vectors.py",
    "tests/test_clean_characters.py",
    "tests/test_links.py",
]
#: Fails unless each compiled module was imported from an extension.
_CHECK_COMPILED = """
import importlib, sys
for name in sys.argv[1:]:
    path = importlib.import_module(name).__file__
    assert path.endswith((".so", ".pyd")), f"{name} is not compiled: {path}"
    print("compiled:", path)
"""


@nox.session(python=MAIN_PYTHON)
def compiled(session: nox.Session) -> None:
    """The compiled build: a wheel built by mypyc from the sdist, as a release
    would build it, installed, and its modules' tests run against it."""
    out = Path(session.create_tmp()) / "compiled"
    shutil.rmtree(out, ignore_errors=True)
    session.install("build")
    session.run(
        "python", "-m", "build", "--outdir", str(out),
        env={"HATCH_BUILD_HOOKS_ENABLE": "1"},
    )  # fmt: skip
    (wheel,) = out.glob("*.whl")
    session.install(f"{wheel}[test]", "pytest-xdist")
    session.install("--force-reinstall", "--no-deps", str(wheel))
    # From the build's folder: the repository's source is not importable
    # there (only tests/, the conftest's folder, is put on sys.path).
    session.chdir(out)
    session.run("python", "-c", _CHECK_COMPILED, *COMPILED_MODULES)
    tests = [str(REPO / test) for test in COMPILED_TESTS]
    _pytest(
        session, "-c", str(REPO / "pyproject.toml"), "--rootdir", str(REPO),
        "-m", "not slow and not scrapy", *tests,
    )  # fmt: skip


@nox.session(python=MAIN_PYTHON)
def dist(session: nox.Session) -> None:
    """The sdist and the wheel, built as a release would, and what they hold."""
    session.install("build")
    session.run("bash", ".ci/dist", external=True)
