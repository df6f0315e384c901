"""Each exception to the linter's rules (ruff's ``per-file-ignores`` in pyproject.toml)
names one file that exists, by its exact path: a pattern (``**/intake.py``) would exempt
any future file of that name from the rule, and a line left behind by a move or a
deletion would exempt whatever file later takes the path."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_lint_exception_names_one_existing_file_exactly() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    ignores: dict[str, list[str]] = config["tool"]["ruff"]["lint"]["per-file-ignores"]
    patterns = [path for path in ignores if any(mark in path for mark in "*?[]{}")]
    assert not patterns, f"exceptions by pattern, not by path: {patterns}"
    missing = [path for path in ignores if not (REPO / path).is_file()]
    assert not missing, f"exceptions naming no file: {missing}"
