"""One error taxonomy (docs/errors.md): every exception class the package defines is bad
input (:class:`AdjacencyError`) or a run-time failure (:class:`AdjacencyRuntimeError`),
or is listed below with the reason it is neither; and docs/errors.md names every public one.

The classes are found by importing every module of the package (:mod:`package_modules`),
so an error type added or moved anywhere is checked without editing this test.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from adjacency.core.errors import AdjacencyError, AdjacencyRuntimeError
from package_modules import load, module_names

ERRORS_DOC = Path(__file__).parents[2] / "docs" / "errors.md"
HOOKS = Path(__file__).parents[2] / "tools" / "docsite" / "hooks.py"


@cache
def hooks() -> ModuleType:
    """The site's hooks (``tools/docsite/hooks.py``), which draw the page's hierarchy."""
    spec = importlib.util.spec_from_file_location("docsite_hooks_errors", HOOKS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def errors_page() -> str:
    """docs/errors.md as the site shows it: its ``<!-- errors -->`` line drawn."""
    text = ERRORS_DOC.read_text(encoding="utf-8")
    assert "<!-- errors -->" in text, "docs/errors.md lost the generated hierarchy's line"
    return text.replace("<!-- errors -->", hooks().error_tree())


OUTSIDE_TAXONOMY = {
    "WebError": "the web layer's errors carry their own HTTP status (403, 404, 409, 429)",
    "Forbidden": "a WebError (403)",
    "GameNotFound": "a WebError (404)",
    "PuzzleNotFound": "a WebError (404): no puzzle of that id in the served set",
    "NotNow": "a WebError (409)",
    "TooLarge": "a WebError (413)",
    "TooMany": "a WebError (429)",
    "UnknownToken": "a WebError (401): the league refuses a missing, unknown or revoked secret",
    "BeingPrepared": "a WebError (503): a version's code view is being made; ask again soon",
    "MockScriptError": "an AssertionError: a test did not follow a mock engine's script",
    "_Stop": "private: the minimax bot's deadline, caught inside its search",
    "_Overtime": "private BaseException: a bot's hard deadline, caught by the referee",
    "_Cancelled": "private: a cut split point unwinds a solver thread, caught in splitting",
    "_Stopped": "private: a stopped solve unwinds every solver thread, caught in splitting",
    "_TreeFull": "private: the lab's node cap unwinds a traced search, caught in lab/tree.py",
}
"""Exception classes outside the two families, by name, and why (docs/errors.md says so too)."""


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined (not imported) in a module of the package, by
    qualified name ``module.Class``."""
    found: dict[str, type[BaseException]] = {}
    for name in module_names():
        module = load(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
            ):
                found[f"{module.__name__}.{value.__qualname__}"] = value
    return found


def test_the_walk_finds_the_known_error_types() -> None:
    """The walk itself works: it finds the roots and error types of several layers."""
    names = {cls.__name__ for cls in exception_classes().values()}
    assert {"AdjacencyError", "AdjacencyRuntimeError", "BookError", "BotFailure"} <= names
    assert {"EngineTimeout", "StoreError", "WorkerError", "WebError"} <= names


def test_every_error_is_bad_input_or_a_runtime_failure() -> None:
    outside = {}
    for qualified, cls in exception_classes().items():
        if not issubclass(cls, AdjacencyError | AdjacencyRuntimeError):
            outside[cls.__name__] = qualified
    unexplained = sorted(q for name, q in outside.items() if name not in OUTSIDE_TAXONOMY)
    assert not unexplained, (
        "exception classes in neither AdjacencyError nor AdjacencyRuntimeError: "
        f"{unexplained} (derive them from one, or list them in OUTSIDE_TAXONOMY with a reason)"
    )
    stale = sorted(set(OUTSIDE_TAXONOMY) - set(outside))
    assert not stale, f"OUTSIDE_TAXONOMY names classes that are gone or now in a family: {stale}"


def test_no_error_is_both_bad_input_and_a_runtime_failure() -> None:
    both = [
        qualified
        for qualified, cls in exception_classes().items()
        if issubclass(cls, AdjacencyError) and issubclass(cls, AdjacencyRuntimeError)
    ]
    assert not both


@pytest.mark.parametrize("family", [AdjacencyError, AdjacencyRuntimeError])
def test_errors_doc_puts_each_error_in_its_family(family: type[Exception]) -> None:
    """The hierarchy drawn on the errors page places each class under the root it derives
    from, and under its nearest public parent (the drawing's indentation)."""
    assert "<!-- errors -->" in ERRORS_DOC.read_text(encoding="utf-8")
    drawing = hooks().error_tree()
    bad_input, runtime = drawing.split("\nRuntimeError\n")
    section = bad_input if family is AdjacencyError else runtime
    other = runtime if family is AdjacencyError else bad_input
    for cls in exception_classes().values():
        if issubclass(cls, family) and not cls.__name__.startswith("_"):
            named = re.compile(rf"\b{re.escape(cls.__name__)}\b")
            assert named.search(section), f"{cls.__name__} is not drawn under {family.__name__}"
            assert not named.search(other), f"{cls.__name__} is drawn under the other family"


def test_errors_doc_names_every_public_error_type() -> None:
    """Private classes (a leading underscore) never leave their module and are left out."""
    text = errors_page()
    missing = sorted(
        qualified
        for qualified, cls in exception_classes().items()
        if not cls.__name__.startswith("_")
        and not re.search(rf"\b{re.escape(cls.__name__)}\b", text)
    )
    assert not missing, f"docs/errors.md does not name: {missing}"


def test_the_drawing_nests_each_class_under_its_nearest_public_parent() -> None:
    """Indentation is the hierarchy: a class's line sits four columns right of its parent's
    (a private class between them, the core's ``_Refusal``, is skipped), and names the
    room that defines it."""
    drawing = hooks().error_tree()
    column: dict[str, int] = {}
    for line in drawing.splitlines():
        found = re.match(r"^([│ ]*(?:[├└]── )?)([A-Z]\w+)\s+([a-z_]+): ", line)
        if found and len(found.group(1) + found.group(2)) < hooks().DESCRIPTION_COLUMN:
            column[found.group(2)] = len(found.group(1))
            room = found.group(3)
            cls = next(c for c in exception_classes().values() if c.__name__ == found.group(2))
            assert cls.__module__.split(".")[1] == room, (cls, room)
    for cls in exception_classes().values():
        if cls.__name__.startswith("_") or not issubclass(
            cls, AdjacencyError | AdjacencyRuntimeError
        ):
            continue
        if cls in (AdjacencyError, AdjacencyRuntimeError):
            continue
        parent = next(
            base
            for base in cls.__mro__[1:]
            if not base.__name__.startswith("_")
            and issubclass(base, AdjacencyError | AdjacencyRuntimeError)
        )
        assert column[cls.__name__] == column[parent.__name__] + 4, cls
