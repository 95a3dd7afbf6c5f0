"""CI's promises about versions: the Pythons ``.ci/run`` tests are exactly the
ones pyproject.toml's classifiers list, from the lowest ``requires-python``
allows. (Read as text: ``tomllib`` is not in Python 3.10.)
"""

from __future__ import annotations

import re
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent
#: The variables of .ci/run that name the Pythons it runs.
CI_VARIABLES = ("MAIN_PYTHON", "FLOORS_PYTHON_VERSION", "NEWER_PYTHONS")


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


def test_classifiers_list_the_pythons_ci_runs() -> None:
    pyproject = (REPO_DIR / "pyproject.toml").read_text(encoding="utf-8")
    listed = re.findall(r'"Programming Language :: Python :: (3\.\d+)"', pyproject)
    ci = ci_pythons()
    assert sorted(listed, key=version_key) == sorted(
        {v for versions in ci.values() for v in versions}, key=version_key
    )
    # The floors job runs on the lowest Python the package installs on.
    (floors_python,) = ci["FLOORS_PYTHON_VERSION"]
    assert f'requires-python = ">={floors_python}"' in pyproject
    assert min(listed, key=version_key) == floors_python
