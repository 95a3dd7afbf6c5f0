"""The typed public API: mypy checks tests/typing/ (right and wrong uses)."""

from __future__ import annotations

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for both runs: the second reuses the first's analysis."""
    return tmp_path_factory.mktemp("mypy_cache")


def run_mypy(path: Path, cache: Path) -> tuple[str, int]:
    """mypy with the project's settings (strict, with warn_unused_ignores) on
    one path; errors in the modules it imports are `python -m mypy`'s."""
    stdout, stderr, status = mypy_api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(cache),
            "--follow-imports",
            "silent",
            str(path),
        ]
    )
    return stdout + stderr, status


def test_typing_uses_check_clean(mypy_cache: Path) -> None:
    # A wrong use that stops being an error fails too (its ignore is unused).
    output, status = run_mypy(ROOT / "tests" / "typing", mypy_cache)
    assert status == 0, output
    files = len(list((ROOT / "tests" / "typing").glob("*.py")))
    assert f"Success: no issues found in {files} source file" in output


def test_typing_uses_catch_an_untyped_api(tmp_path: Path, mypy_cache: Path) -> None:
    # The check has teeth: the same uses against an API whose find() and
    # dot access give Any fail (assert_type and the now-unused ignores).
    source = (ROOT / "tests" / "typing" / "soup_api.py").read_text(encoding="utf-8")
    untyped = tmp_path / "untyped_api.py"
    untyped.write_text(
        source.replace(
            "soup = Soup(\"<p class='a'>x</p><a href='/b'>b</a>\")",
            "from typing import Any\n\nsoup: Any = None",
        ),
        encoding="utf-8",
    )
    output, status = run_mypy(untyped, mypy_cache)
    assert status == 1
    assert 'Expression is of type "Any", not "Tag | None"' in output
    assert 'Unused "type: ignore" comment' in output
