"""A pytest plugin: each test is marked with what it needs beyond Python (loaded by
tests/conftest.py), so ``make test-core`` can leave those tests out.

``make test`` runs every test (CI provisions Chromium, a JDK, Node, Ray, Caddy and
systemd, bubblewrap, OpenJFX and Xvfb, and builds the documentation site). For a quick
loop, ``make test-core``
deselects the tests marked here: deselected, not skipped, so the skip guard
(:mod:`skip_guard`) still holds for the whole suite.

The marks are derived from what a test uses, never written by hand test by test:

- the fixtures it requests, directly or through other fixtures (:data:`FIXTURES`);
- its module: one that imports the Chromium launcher or its constants from
  :mod:`browser_helpers`, or one under a folder of :data:`FOLDERS`.

A test that starts a program itself, where no fixture says so (``node``, its own Ray
cluster), carries the registered marker by hand (``pytestmark = pytest.mark.node``, or
``@pytest.mark.node`` on the tests of a module that need it);
tests/test_needs.py checks that every module running ``node`` has it.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

import browser_helpers

MARKERS = ("browser", "ray", "jvm", "node", "deploy", "site", "sandbox", "javafx")
"""Every marker this plugin applies (registered, with what each stands for, in
pyproject.toml's ``[tool.pytest.ini_options]``)."""

FIXTURES = {
    "browser": "browser",
    "java_build": "jvm",
    "ray_cluster": "ray",
    "_ray_nodes": "ray",
    "site": "site",
    "sandbox_box": "sandbox",
    "fx_tools": "javafx",
}
"""A fixture a test requests (directly or through another fixture) -> the marker."""

FOLDERS = {"deploy": "deploy", "sandbox": "sandbox", "hosting": "sandbox"}
"""A folder of tests/ -> the marker of every test under it."""

TESTS = Path(__file__).resolve().parent

BROWSER_NAMES = ("chromium", "CHROMIUM", "MISSING", "UNDER_TEST", "axe_violations")
"""The names of :mod:`browser_helpers` whose import makes a module a browser module."""


def module_needs(module: ModuleType | None, path: Path) -> set[str]:
    """The markers of every test of ``module`` (at ``path``)."""
    needs: set[str] = set()
    relative = path.resolve().relative_to(TESTS) if path.resolve().is_relative_to(TESTS) else path
    needs.update(marker for folder, marker in FOLDERS.items() if folder in relative.parts[:-1])
    if module is None:
        return needs
    if any(vars(module).get(name) is getattr(browser_helpers, name) for name in BROWSER_NAMES):
        needs.add("browser")
    return needs


def item_needs(item: pytest.Item) -> set[str]:
    """The markers ``item`` gets: from its fixtures and from its module."""
    fixtures = getattr(item, "fixturenames", ())
    needs = {marker for name, marker in FIXTURES.items() if name in fixtures}
    module = getattr(item, "module", None)
    return needs | module_needs(module, item.path)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for marker in sorted(item_needs(item)):
            item.add_marker(marker)
