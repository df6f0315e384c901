"""Every module of the ``adjacency`` package, found by walking it (not from a list of paths).

Shared by the tests that check a property of the whole package (the error taxonomy,
docstring references): a module added, moved or renamed is checked without editing
them. ``adjacency.__main__`` is left out (importing it runs the command line).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

import adjacency

SKIPPED = frozenset({"adjacency.__main__"})
"""Modules that must not be imported by a test."""


@cache
def module_names() -> tuple[str, ...]:
    """The dotted names of the package and all its modules and subpackages, sorted."""
    found = {
        info.name
        for info in pkgutil.walk_packages(adjacency.__path__, prefix="adjacency.")
        if info.name not in SKIPPED
    }
    return ("adjacency", *sorted(found))


def load(name: str) -> ModuleType:
    """Import module ``name`` (every extra is installed where the tests run: CI's
    ``make test`` installs them all, so a failing import is a failure, not a skip)."""
    return importlib.import_module(name)
