"""CI's promises: the Pythons ``.ci/run`` tests are exactly the ones
pyproject.toml's classifiers list, from the lowest ``requires-python``
allows; it calls every session of noxfile.py or one that runs the same; the
``scrapy`` marker is set by a rule. (Read as text: ``tomllib`` is not in
Python 3.10.)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent
#: The variables of .ci/run that name the Pythons it runs.
CI_VARIABLES = ("MAIN_PYTHON", "COVERAGE_PYTHON", "NEWER_PYTHONS")
#: The sessions .ci/run does not call, each the same as a run it makes: the
#: README's command (3.11, the test extra with every optional extra's
#: packages, the newest Scrapy), the coverage
#: session (the suite on 3.12) and floors-3.10 (Scrapy 2.13.4).
SAME_AS_ANOTHER_RUN = {
    "tests-3.11": "the README's command",
    "extras(on)": "the README's command",
    "extras(off)": "tests-3.10",
    "scrapy(2.19)": "the README's command",
    "tests-3.12": "coverage",
    "scrapy(2.13)": "floors-3.10",
}
#: Sessions CI does not call: the Scrapy minors between every second one,
#: run by name (``nox -s "scrapy(2.16)"``).
BY_NAME_ONLY = {"scrapy(2.14)", "scrapy(2.16)", "scrapy(2.18)"}


def ci_pythons() -> dict[str, list[str]]:
    """``.ci/run``'s Python versions, by variable."""
    script = (REPO_DIR / ".ci" / "run").read_text(encoding="utf-8")
    found = {
        name: value.split()
        for name, value in re.findall(
            r'^([A-Z_]+)="?([0-9][0-9. ]*?)"?\s*(?:#.*)?$', script, re.M
        )
        if name in CI_VARIABLES
    }
    assert set(found) == set(CI_VARIABLES), found
    return found


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def nox_sessions() -> dict[str, dict[str, object]]:
    """Every session of noxfile.py, as ``nox -l --json`` lists them."""
    proc = subprocess.run(
        [sys.executable, "-m", "nox", "-l", "--json", "-k", "not no_such_session"],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    return {s["session"]: s for s in json.loads(proc.stdout)}


def test_classifiers_list_the_pythons_ci_runs() -> None:
    pyproject = (REPO_DIR / "pyproject.toml").read_text(encoding="utf-8")
    listed = re.findall(r'"Programming Language :: Python :: (3\.\d+)"', pyproject)
    ci = ci_pythons()
    assert sorted(listed, key=version_key) == sorted(
        {v for versions in ci.values() for v in versions}, key=version_key
    )
    # The floors session runs on the lowest Python the package installs on.
    lowest = min(listed, key=version_key)
    assert f'requires-python = ">={lowest}"' in pyproject
    sessions = nox_sessions()
    assert f"floors-{lowest}" in sessions
    assert {f"tests-{v}" for v in listed} <= set(sessions)


def test_ci_calls_every_session_once_or_says_which_run_is_the_same() -> None:
    """``nox -l`` lists CI's units; .ci/run calls each, or one that runs the same."""
    sessions = nox_sessions()
    script = (REPO_DIR / ".ci" / "run").read_text(encoding="utf-8")
    block = re.search(r"^SESSIONS=\((.*?)^\)", script, re.M | re.S)
    assert block is not None
    called = re.findall(r'"([^"]+)"|(\S+)', re.sub(r"#.*", "", block.group(1)))
    called_names = [a or b for a, b in called]
    assert len(called_names) == len(set(called_names)), "a session called twice"
    assert set(called_names) <= set(sessions), set(called_names) - set(sessions)
    assert set(called_names) | set(SAME_AS_ANOTHER_RUN) | BY_NAME_ONLY == set(sessions)
    assert not set(called_names) & set(SAME_AS_ANOTHER_RUN)
    for other in SAME_AS_ANOTHER_RUN.values():
        assert other == "the README's command" or other in called_names
    # The range of Scrapy releases, floor to newest, at least every second minor.
    releases = [name[7:-1] for name in sessions if name.startswith("scrapy(")]
    assert {"2.13", "2.15", "2.17", "2.19"} <= set(releases)
    # And the README's command, verbatim.
    readme = (REPO_DIR / "README.md").read_text(encoding="utf-8")
    command = 'python -m pip install -e ".[test]" && python -m pytest'
    assert command in readme
    assert f"\n{command}\n" in script


def test_the_scrapy_marker_finds_the_modules_that_touch_scrapy() -> None:
    """``-m scrapy`` (the Scrapy-release sessions) is chosen by a rule, not a list.

    Every ``test_scrapy_*`` module, the crawls of the example project, the
    distributed crawl and the doc spiders are marked, a new module of the
    Scrapy layer included; the tree's own tests are not.
    """
    from conftest import module_touches_scrapy, source_touches_scrapy

    tests = REPO_DIR / "tests"
    scrapy_layer = sorted(tests.glob("test_scrapy_*.py"))
    assert len(scrapy_layer) >= 10
    for path in [
        *scrapy_layer,
        tests / "test_example_project.py",
        tests / "test_distributed.py",
        tests / "test_doc_spiders.py",
    ]:
        assert module_touches_scrapy(path), path.name
    for name in ("test_tree_parity.py", "test_css.py", "test_layout.py"):
        assert not module_touches_scrapy(tests / name), name
    # What a new module could do to touch Scrapy, each caught:
    for source in (
        "import scrapy",
        "from scrapy.http import HtmlResponse",
        "from scrapy_soup import Soup, SoupHtmlResponse",
        "import scrapy_soup\nscrapy_soup.Addon",
        "from scrapy_soup._scrapy._config import Config",
        "from scrapy_helpers import run_crawl",
        "import twisted.internet",
        "subprocess.run([sys.executable, '-m', 'scrapy', 'crawl', 'x'])",
        "subprocess.run(['scrapy', 'crawl', 'books'])",
    ):
        assert source_touches_scrapy(source), source
    for source in (
        "from scrapy_soup import Soup",
        "import scrapy_soup\nscrapy_soup.Soup",
        "DISTRIBUTIONS = {'scrapy': 'scrapy'}",
        "from local_server import LocalServer",
    ):
        assert not source_touches_scrapy(source), source


def test_every_scrapy_module_is_marked_when_collected() -> None:
    """The hook marks the collected items: a Scrapy module's tests, a doc spider."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-mscrapy",  # one word: "-m", "scrapy" would mark this module
            "-p",
            "no:randomly",
            "tests/test_scrapy_addon.py",
            "tests/test_ci.py",
            "docs/testing.md",
        ],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ids = [line for line in proc.stdout.splitlines() if "::" in line]
    assert any(i.startswith("tests/test_scrapy_addon.py::") for i in ids), ids
    assert any(i.startswith("docs/testing.md::") for i in ids), ids
    assert not [i for i in ids if i.startswith("tests/test_ci.py::")], ids


def test_the_test_extra_holds_every_optional_extra() -> None:
    """``extras(on)`` is the README's run only while the test extra installs
    every optional runtime extra's packages too."""
    sys.path.insert(0, str(REPO_DIR))
    try:
        import noxfile
    finally:
        sys.path.remove(str(REPO_DIR))
    test_extra = noxfile.PYPROJECT["project"]["optional-dependencies"]["test"]
    assert noxfile.OPTIONAL_EXTRAS, "no optional extra: extras(on) skips itself"
    for extra in noxfile.OPTIONAL_EXTRAS:
        for requirement in noxfile.PYPROJECT["project"]["optional-dependencies"][extra]:
            assert requirement in test_extra, (extra, requirement)
    assert noxfile._extra_distributions() == ["turbohtml"]


def test_no_optional_extra_installs_on_the_lowest_python() -> None:
    """``extras(off)`` is inside ``tests-3.10`` (the whole suite) only while
    no optional extra's package installs on the lowest Python; where one
    does, .ci/run must call ``extras(off)`` again."""
    sys.path.insert(0, str(REPO_DIR))
    try:
        import noxfile
    finally:
        sys.path.remove(str(REPO_DIR))
    lowest = noxfile.PYTHONS[0]
    assert lowest == "3.10", "the marker below names the Python after 3.10"
    for extra in noxfile.OPTIONAL_EXTRAS:
        for requirement in noxfile.PYPROJECT["project"]["optional-dependencies"][extra]:
            assert requirement.endswith("; python_version >= '3.11'"), (
                extra,
                requirement,
            )
