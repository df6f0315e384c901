"""Write deploy/constraints.txt: the runtime set this checkout is tested with, pinned.

``make constraints`` runs it with the project's virtual environment, after ``make test``
passed there: it reads the installed ``adjacency-game`` distribution's requirements
(the runtime ones, no extras), follows them through the installed packages, and writes
one ``name==version`` line for every package of that closure. The deployment guide
(docs/deploy.md) installs with ``pip install -c deploy/constraints.txt``, so a league
server gets the versions the suite ran on, never a newer uvicorn whose private classes
the socket guard's adapter was not tested on. ``tests/integrations/test_constraints.py``
checks that the file stays within pyproject.toml's bounds and covers the closure.

Usage: ``python tools/write_constraints.py [OUTPUT]`` (default deploy/constraints.txt).
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

DISTRIBUTION = "adjacency-game"
REPO = Path(__file__).resolve().parent.parent
HEADER = """\
# The runtime packages adjacency-game is tested with, pinned (written by
# `make constraints` from the tested virtual environment: do not edit by hand).
# Install with: pip install -c constraints.txt adjacency-game
"""


def runtime_requirements(distribution: str) -> list[Requirement]:
    """The requirements of ``distribution`` that apply here without any extra."""
    found = []
    for text in metadata.requires(distribution) or []:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            found.append(requirement)
    return found


def closure(distribution: str) -> dict[str, str]:
    """Every installed package ``distribution`` needs at run time, by canonical name ->
    installed version (``distribution`` itself left out)."""
    pinned: dict[str, str] = {}
    todo = [distribution]
    while todo:
        for requirement in runtime_requirements(todo.pop()):
            name = canonicalize_name(requirement.name)
            if name in pinned:
                continue
            pinned[name] = metadata.version(name)
            todo.append(name)
    return pinned


def render(pinned: dict[str, str]) -> str:
    """The constraints file's text: the header, then ``name==version`` lines, sorted."""
    return HEADER + "".join(f"{name}=={version}\n" for name, version in sorted(pinned.items()))


def main(argv: list[str]) -> int:
    output = Path(argv[0]) if argv else REPO / "deploy" / "constraints.txt"
    output.write_text(render(closure(DISTRIBUTION)))
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
