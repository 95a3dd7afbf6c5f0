"""Print pip pins for the lowest versions pyproject.toml declares (one a line).

Every runtime dependency ``name>=X`` becomes ``name==X`` (``==5.0`` is 5.0.0),
so the floors venv tests exactly what the package promises to work with.
The extra pins are what those old releases need beside them: Scrapy 2.13.4
declares ``Twisted>=21.7.0,<=25.5.0``; the 2.13 series was released against
Twisted 24.11 (May 2025), the lowest the floors venv takes. (Scrapy 2.13.0
to 2.13.3 declare no upper bound, so plain pip pairs them with a Twisted
they cannot import with: hence the 2.13.4 floor.) Raising a floor means
updating the matching extra pin here.

``floor_pins.py --check FILE`` checks instead that the installed versions are
exactly the pins FILE lists (the floors session runs it in its venv).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

EXTRA_PINS = {"scrapy": ["Twisted==24.11.0"]}


def check(pins_file: str) -> int:
    """Whether what pip installed is the floors themselves (0) or not (1)."""
    from importlib.metadata import version

    for line in Path(pins_file).read_text("utf-8").split():
        name, _, wanted = line.partition("==")
        got = version(name)
        # 5.0 pinned is 5.0.0 installed.
        padded = wanted + ".0" * (got.count(".") - wanted.count("."))
        if got != padded:
            print(f"floors: {name} {got} installed, {wanted} pinned", file=sys.stderr)
            return 1
        print(f"floors: {name} {got}")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--check"]:
        return check(sys.argv[2])
    import tomllib  # Python 3.11+: run by the host Python, not the 3.10 venv

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text("utf-8"))["project"]
    pins: list[str] = []
    for requirement in project["dependencies"]:
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*>=\s*([0-9][0-9.]*)", requirement)
        if match is None:
            print(
                f"floor_pins: cannot read a floor from {requirement!r}", file=sys.stderr
            )
            return 1
        name, floor = match.groups()
        pins.append(f"{name}=={floor}")
        pins.extend(EXTRA_PINS.get(name.lower(), []))
    print("\n".join(pins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
