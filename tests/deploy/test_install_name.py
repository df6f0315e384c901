"""The distribution name: one, unique, and the one every install command gives.

The package index's ``adjacency`` is an unrelated project, so this project installs as
:data:`adjacency.DISTRIBUTION` (pyproject.toml's ``[project] name``; the import name and
the command stay ``adjacency``). Every ``pip install`` of the project written in the
README, the docs, the examples, the tools or the code's messages must name it, extras
included; tests/integrations/test_wheel.py installs the built wheel by that name.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from adjacency import DISTRIBUTION

REPO = Path(__file__).resolve().parents[2]
INSTALL = re.compile(r"pip install\s+(?:(?:-c\s+\S+|--?[\w-]+)\s+)*['\"]?(adjacency[\w.-]*)")
"""A ``pip install`` of a name that starts with ``adjacency`` (options, and a constraints
file's path, skipped)."""


def written() -> list[Path]:
    files = [REPO / "README.md"]
    for folder, patterns in (
        ("docs", ("*.md",)),
        ("src", ("*.py",)),
        ("examples", ("*.md", "*.py", "*.ipynb")),
        ("tools", ("*",)),
        ("deploy", ("*",)),
    ):
        for pattern in patterns:
            files += [p for p in (REPO / folder).rglob(pattern) if p.is_file()]
    return files


def test_the_distribution_name_is_pyprojects() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION == "adjacency-game"
    assert project["scripts"]["adjacency"] == "adjacency.cli:main"


def test_every_install_command_names_the_distribution() -> None:
    found: dict[str, list[str]] = {}
    for path in written():
        text = path.read_text(errors="replace")
        for match in INSTALL.finditer(text):
            found.setdefault(match.group(1), []).append(str(path.relative_to(REPO)))
    assert DISTRIBUTION in found  # the docs do say how to install it
    wrong = {name: paths for name, paths in found.items() if name != DISTRIBUTION}
    assert not wrong, f"install commands naming another distribution: {wrong}"
