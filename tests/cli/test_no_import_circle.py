"""The command line's modules import each other one way: no circle, counting the imports
inside functions (a subcommand's handler imports what it runs when it runs).

A circle (``league_commands`` registering ``event_commands``, which took the ``--pace``
type from ``league_commands``) means neither module can be read, tested or moved alone;
options two subcommands share are declared as data in a module of their own
(``cli/league_options.py``, :class:`adjacency.cli.arguments.Option`).
"""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "src" / "adjacency" / "cli"


def imports(path: Path) -> set[str]:
    """The cli modules that ``path`` imports anywhere in its body (``from .x import``,
    ``from . import x, y``)."""
    names = {p.stem for p in CLI.glob("*.py")}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module is None:
                found.update(alias.name for alias in node.names if alias.name in names)
            elif node.module.split(".")[0] in names:
                found.add(node.module.split(".")[0])
    return found - {path.stem}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle of ``graph`` (module -> modules it imports), each as a path."""
    found = []
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            module, path = stack.pop()
            for target in sorted(graph.get(module, ())):
                if target == start:
                    found.append([*path, start])
                elif target not in path and target > start:  # each circle once
                    stack.append((target, [*path, target]))
    return found


def test_the_command_lines_modules_import_each_other_one_way() -> None:
    graph = {path.stem: imports(path) for path in CLI.glob("*.py")}
    assert "event_commands" in graph["league_commands"]  # the graph is read
    assert not circles(graph)


def test_a_circle_is_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []
