"""Every Sphinx cross-reference in the package's docstrings names something that exists.

A docstring that says :func:`something` promises a reader (and Sphinx) that it exists;
after a rename or a move it silently points nowhere. This test reads every module's
source (:mod:`package_modules` walks the package), takes every docstring: of the
module, of each class, function and method, and the attribute docstrings (a string
right after an assignment, as Sphinx's autodoc reads them), and resolves each
``:func:``, ``:class:``, ``:meth:``, ``:mod:``, ``:data:``, ``:attr:``, ``:exc:``,
``:obj:`` and ``:const:`` reference as Sphinx would:

- ``~`` and ``!`` only change how the reference is shown; a title form
  ``text <target>`` names ``target``; a trailing ``()`` is dropped;
- a name starting with ``.`` is relative: tried in the enclosing class, the module,
  then each package above it (``:mod:`.bits``` in ``adjacency.engine.kernels.layout`` is
  ``adjacency.engine.kernels.bits``);
- any other name is tried in the enclosing classes, the module's namespace, its
  package's, the builtins, and last as an absolute dotted name (``adjacency.x.Y``,
  ``signal.set_wakeup_fd``).

A ``:mod:`` reference must name a module. An attribute resolves when it is a class
attribute, an annotation or dataclass field, or assigned as ``self.name`` in the
class's source. The test is parametrized per module, so a failure names the module
and lists every unresolved reference in it with its line.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import re
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import pytest

from package_modules import load, module_names

ROLE = re.compile(r":(?:py:)?(func|class|meth|mod|data|attr|exc|obj|const):`([^`]+)`")
"""A Sphinx Python-domain role and its target text."""

MISSING = object()


@dataclass(frozen=True)
class Reference:
    """One reference found in a docstring: where, which role, the target text."""

    line: int
    role: str
    text: str
    scope: tuple[str, ...]
    """The names of the classes (and functions) the docstring is inside, outermost first."""

    def __str__(self) -> str:
        where = ".".join(self.scope)
        return f"line {self.line}{f' (in {where})' if where else ''}: :{self.role}:`{self.text}`"


def docstrings(tree: ast.Module) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every docstring-like string of a module: (line, text, enclosing definitions)."""
    found: list[tuple[int, str, tuple[str, ...]]] = []

    def visit(body: list[ast.stmt], scope: tuple[str, ...]) -> None:
        for statement in body:
            if (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                found.append((statement.lineno, statement.value.value, scope))
            elif isinstance(statement, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                visit(statement.body, (*scope, statement.name))
            elif isinstance(statement, ast.If | ast.Try | ast.With | ast.For | ast.While):
                for part in ("body", "orelse", "finalbody"):
                    visit(getattr(statement, part, []), scope)
                for handler in getattr(statement, "handlers", []):
                    visit(handler.body, scope)

    visit(tree.body, ())
    return found


def references(module: ModuleType) -> list[Reference]:
    """Every cross-reference in the docstrings of ``module``'s source."""
    source = inspect.getsource(module)
    found = []
    for line, text, scope in docstrings(ast.parse(source)):
        for match in ROLE.finditer(text):
            line_in = line + text[: match.start()].count("\n")
            found.append(Reference(line_in, match.group(1), match.group(2), scope))
    return found


@cache
def self_attributes(cls: type) -> frozenset[str]:
    """Names a class's own source assigns as ``self.name`` (instance attributes)."""
    try:
        tree = ast.parse(inspect.getsource(cls).strip())
    except (OSError, TypeError, SyntaxError, IndentationError):
        return frozenset()
    names = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and isinstance(node.ctx, ast.Store)
        ):
            names.add(node.attr)
    return frozenset(names)


def member(owner: Any, name: str) -> Any:
    """``owner.name`` as documentation sees it, or :data:`MISSING`."""
    if isinstance(owner, ModuleType):
        value = getattr(owner, name, MISSING)
        if value is MISSING:
            try:
                return importlib.import_module(f"{owner.__name__}.{name}")
            except ImportError:
                return MISSING
        return value
    value = inspect.getattr_static(owner, name, MISSING)
    if value is not MISSING or not isinstance(owner, type):
        return value
    for klass in owner.__mro__:
        if name in getattr(klass, "__annotations__", {}) or name in self_attributes(klass):
            return True  # an instance attribute: documented, no class-level value
    return MISSING


def lookup(start: Any, dotted: str) -> Any:
    """Follow ``dotted`` from ``start`` (a module, class or the builtins), or :data:`MISSING`."""
    current = start
    for part in dotted.split("."):
        current = member(current, part)
        if current is MISSING:
            return MISSING
    return current


def absolute(dotted: str) -> Any:
    """An absolute dotted name: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        except Exception:  # a module that fails on import for another reason
            return MISSING
        rest = ".".join(parts[cut:])
        return lookup(module, rest) if rest else module
    return MISSING


def packages_above(module: ModuleType) -> list[ModuleType]:
    """The packages that contain ``module``, innermost first (not ``module`` itself)."""
    parts = module.__name__.split(".")
    return [importlib.import_module(".".join(parts[:cut])) for cut in range(len(parts) - 1, 0, -1)]


def resolve(module: ModuleType, reference: Reference) -> Any:
    """What ``reference`` names, or :data:`MISSING`."""
    target = reference.text
    if target.endswith(">") and "<" in target:
        target = target[target.rindex("<") + 1 : -1]
    target = target.lstrip("~!").removesuffix("()")
    relative = target.startswith(".")
    target = target.lstrip(".")
    if reference.role == "mod":  # modules only: the module's own submodules, its siblings, ...
        for start in (module, *packages_above(module)):
            found = absolute(f"{start.__name__}.{target}")
            if isinstance(found, ModuleType):
                return found
        return MISSING if relative else absolute(target)
    classes: list[Any] = []
    owner: Any = module
    for name in reference.scope:  # the enclosing definitions, outermost first
        owner = member(owner, name) if owner is not MISSING else MISSING
        if isinstance(owner, type):
            classes.append(owner)
    starts: list[Any] = [*reversed(classes), module, *packages_above(module)]
    if not relative:
        starts.append(builtins)
    for start in starts:
        found = lookup(start, target)
        if found is not MISSING:
            return found
    return MISSING if relative else absolute(target)


def unresolved(module: ModuleType) -> list[str]:
    """The references of ``module`` that name nothing (or a non-module for ``:mod:``)."""
    bad = []
    for reference in references(module):
        found = resolve(module, reference)
        if found is MISSING:
            bad.append(f"{reference}: names nothing")
        elif reference.role == "mod" and not isinstance(found, ModuleType):
            bad.append(f"{reference}: not a module")
    return bad


def test_the_resolver_tells_real_names_from_stale_ones() -> None:
    """The checker itself: real references of several forms resolve, made-up ones do not."""
    layout = load("adjacency.engine.kernels.layout")
    driver = load("adjacency.engine.searcher")

    def check(module: ModuleType, role: str, text: str, scope: tuple[str, ...] = ()) -> bool:
        return resolve(module, Reference(1, role, text, scope)) is not MISSING

    assert check(layout, "mod", ".bits")
    assert check(layout, "class", "~adjacency.engine.searcher.Engine")
    assert check(driver, "meth", "stop", ("Engine", "search"))
    assert check(driver, "attr", "Engine.learned")  # assigned as self.learned
    assert check(driver, "func", "signal.set_wakeup_fd")
    assert check(driver, "exc", "ValueError")
    assert check(driver, "data", "TERMS")
    assert check(driver, "func", "interruptible")  # imported into the module
    assert not check(layout, "func", "_after")
    assert not check(driver, "meth", "Engine.from_position")
    assert not check(driver, "mod", "adjacency.engine.nowhere")
    assert not check(layout, "mod", ".nowhere")
    assert not check(driver, "meth", "stop")  # no class around it: not Engine.stop
    assert unresolved(load("adjacency.core.errors")) == []


@pytest.mark.parametrize("name", module_names())
def test_docstring_references_resolve(name: str) -> None:
    bad = unresolved(load(name))
    assert not bad, f"{name}: {len(bad)} unresolved reference(s):\n" + "\n".join(bad)
