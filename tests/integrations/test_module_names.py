"""Module names say what a module is without its folder: the names used by more than one
module of ``src/adjacency`` (``store.py`` in five rooms, ``events.py`` in two...) are
capped at today's count, so a new module cannot add one and a rename lowers the cap.

A repeated name makes a reader (and a traceback, a search result, an editor's tab) ask
which one; the glossary then has to explain it. Packages' ``__init__.py`` and
``__main__.py`` are what Python names them and are not counted.
"""

from __future__ import annotations

from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "adjacency"
CAP = 18
"""Names used by more than one module today; lower it when a rename removes one."""


def repeated_names(root: Path) -> dict[str, list[str]]:
    """Each module file name used more than once under ``root`` -> where (folders)."""
    where: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if path.name not in ("__init__.py", "__main__.py"):
            where.setdefault(path.name, []).append(str(path.parent.relative_to(root)))
    return {name: folders for name, folders in where.items() if len(folders) > 1}


def test_repeated_module_names_stay_under_the_cap() -> None:
    repeated = repeated_names(SOURCE)
    shown = "\n".join(f"{name}: {', '.join(folders)}" for name, folders in sorted(repeated.items()))
    assert len(repeated) <= CAP, f"{len(repeated)} names repeated (cap {CAP}):\n{shown}"


def test_the_count_finds_repeats_and_only_them(tmp_path: Path) -> None:
    for module in ("a/store.py", "b/store.py", "a/__init__.py", "b/__init__.py", "c/one.py"):
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text("")
    assert repeated_names(tmp_path) == {"store.py": ["a", "b"]}
