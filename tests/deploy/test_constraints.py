"""deploy/constraints.txt pins what a league server installs, within pyproject's bounds.

The socket guard subclasses uvicorn's private protocol classes, so a uvicorn newer than
the suite ran on may break the deployed server: pyproject.toml bounds uvicorn above, and
the constraints file (written by ``make constraints``, tools/write_constraints.py, from
the tested environment) pins every runtime package. Every ``pip install`` of the
deployment guide installs with it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from deploy_helpers import DEPLOY, REPO

CONSTRAINTS = DEPLOY / "constraints.txt"
PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][0-9A-Za-z.+!-]*)")


def pins(text: str) -> dict[str, str]:
    """``name==version`` lines by canonical name; comments and blank lines skipped, any
    other line a failure."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.fullmatch(line)
        assert match, f"not a name==version line: {line!r}"
        name = canonicalize_name(match.group(1))
        assert name not in found, f"{name} pinned twice"
        found[name] = match.group(2)
    return found


def requirements() -> list[Requirement]:
    """pyproject.toml's runtime dependencies."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in project["dependencies"]]


def assert_within_bounds(pinned: dict[str, str]) -> None:
    for requirement in requirements():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} (a runtime dependency) is not pinned"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"{name}=={pinned[name]} is outside pyproject's {requirement.specifier}"
        )


def test_every_runtime_dependency_is_pinned_within_pyprojects_bounds() -> None:
    assert_within_bounds(pins(CONSTRAINTS.read_text()))


def test_uvicorn_is_bounded_above() -> None:
    """A uvicorn the suite never ran on is not admitted (its private classes change)."""
    (uvicorn,) = [r for r in requirements() if canonicalize_name(r.name) == "uvicorn"]
    assert any(spec.operator in ("<", "<=", "==", "~=") for spec in uvicorn.specifier)
    assert not uvicorn.specifier.contains("1.0")


def test_the_tool_writes_the_tested_set_within_the_bounds(tmp_path: Path) -> None:
    """``make constraints`` run here: what it pins is installed here and within bounds."""
    output = tmp_path / "constraints.txt"
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "write_constraints.py"), str(output)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    written = pins(output.read_text())
    assert_within_bounds(written)
    assert len(written) > len(requirements())  # their own requirements too
    assert "make constraints" in output.read_text()


def test_every_install_in_the_deployment_guide_and_files_uses_the_constraints() -> None:
    installs = re.findall(r"pip install[^\n`]*", (REPO / "docs" / "deploy.md").read_text())
    assert len(installs) >= 4
    for path in DEPLOY.iterdir():  # the shipped units, Caddyfiles and constraints
        installs += re.findall(r"pip install[^\n`]*", path.read_text())
    for install in installs:
        assert re.search(r"-c \S*constraints\.txt ", install), install
