"""The source's docstring examples run: every module of the package whose source holds an
example (``>>>``) is imported and its examples are run by :mod:`doctest`, so an example
that no longer says what its function does fails here (the clock's ``charge`` is
guarded by its own). The modules are found by walking the package
(:func:`package_modules.module_names`), none left out but ``adjacency.__main__``
(importing it runs the command line; it holds no example): a module with an example
that needs an extra imports it, as CI installs every extra. Only the modules with an example
are imported, so the others' import cost is not paid here."""

from __future__ import annotations

import doctest
import importlib.util
from pathlib import Path

import pytest

from package_modules import load, module_names


def _source(name: str) -> str:
    """Module ``name``'s source text, read without importing it."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    return Path(spec.origin).read_text(encoding="utf-8")


EXAMPLES = tuple(name for name in module_names() if ">>> " in _source(name))
"""The modules whose docstrings hold an example."""


def test_examples_are_found() -> None:
    assert "adjacency.hosting.move_clock" in EXAMPLES  # the walk reaches the examples


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_modules_examples_say_what_it_does(name: str) -> None:
    module = load(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures: list[str] = []
    tests = finder.find(module, name)
    assert any(test.examples for test in tests), f"{name} holds '>>> ' but no example runs"
    for test in tests:
        runner.run(test, out=failures.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, "".join(failures)
