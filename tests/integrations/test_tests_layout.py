"""The tests mirror the package: each folder of tests/ with test modules is a room of
``src/adjacency`` (a package or a module), or one of the folders for what crosses rooms
(README.md, "Testing")."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
PACKAGE = TESTS.parent / "src" / "adjacency"

CROSSING = {
    "hardening": "attacks walked across every interface",
    "integrations": "the product as a whole",
    "docs": "the guides",
    "deploy": "the deployment",
    "examples": "the examples and starter kits beside the package",
    "jax_env": "the JAX environment (room jax: a folder named jax would shadow the library)",
}
"""The folders that hold tests of no single room, with what each holds."""


def rooms() -> set[str]:
    """The rooms of the package: its subpackages and its top-level modules."""
    found = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    found |= {path.stem for path in PACKAGE.glob("*.py") if not path.stem.startswith("_")}
    return found


def test_every_folder_of_tests_is_a_room_or_a_crossing_folder() -> None:
    folders = {path.parent for path in TESTS.rglob("test_*.py")} - {TESTS}
    top = {folder.relative_to(TESTS).parts[0] for folder in folders}
    strays = sorted(top - rooms() - set(CROSSING))
    assert not strays, f"tests/ folders that mirror no room of src/adjacency: {strays}"


def test_the_rule_sees_a_stray_folder(tmp_path: Path) -> None:
    assert "engine" in rooms() and "storage" in rooms() and "cli" in rooms()
    assert "lab_notes" not in rooms() | set(CROSSING)
