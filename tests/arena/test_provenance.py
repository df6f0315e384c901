"""Every run records its provenance; ``adjacency report`` prints it and exports it, and a
database stored before records were kept still reads."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from adjacency import __version__
from adjacency.arena.store import Store
from adjacency.cli import main
from adjacency.system import provenance


def play(db: Path) -> None:
    argv = ["match", "greedy", "random", "--games", "2", "--rounds", "3", "--size", "5x5"]
    argv += ["--time", "1", "--seed", "7", "--concurrency", "1", "--db", str(db), "--quiet"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(argv) == 0


def report(db: Path, *extra: str) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["report", str(db), *extra]) == 0
    return printed.getvalue()


def test_a_match_records_and_the_report_prints_its_provenance(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    play(db)
    with Store(db) as store:
        record = store.run().provenance
    assert record is not None
    assert record["version"] == __version__ and record["package"] == "adjacency-game"
    assert record["seeds"] == 7 and record["settings"]["players"] == ["greedy", "random"]
    assert record["settings"]["rows"] == 5 and record["settings"]["rounds"] == [3]
    assert set(record["libraries"]) == {"numpy", "numba"} and all(record["libraries"].values())
    assert record["machine"]["cores"] >= 1 and record["machine"]["cpu"]
    assert record["source"] == provenance.source_hash()
    top = Path(provenance.__file__).resolve().parents[3]
    if (top / ".git").exists():  # a checkout (or worktree): its commit
        head = subprocess.run(
            ["git", "-C", str(top), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        assert record["commit"] == head
    exported = tmp_path / "r.json"
    text = report(db, "--json", str(exported), "--out", str(tmp_path / "rep"))
    assert "Provenance" in text and f"adjacency-game {__version__}" in text
    assert "numba " in text and " cores" in text and "seeds: 7" in text
    data = json.loads(exported.read_text())
    assert data["provenance"]["runs"]["1"] == record
    assert data["provenance"]["export"]["source"] == record["source"]
    markdown = (tmp_path / "rep" / "report.md").read_text()
    assert "## Provenance" in markdown and record["machine"]["cpu"] in markdown


def test_a_database_from_before_provenance_still_reads(tmp_path: Path) -> None:
    """A file at schema version 1 (no ``runs.provenance``) is upgraded when opened; its run
    reads with no record, and the report says so instead of failing."""
    db = tmp_path / "old.db"
    play(db)
    with sqlite3.connect(db) as raw:
        raw.execute("ALTER TABLE runs DROP COLUMN provenance")
        raw.execute("PRAGMA user_version = 1")
    with Store(db) as store:
        assert store.run().provenance is None
    text = report(db, "--no-report")
    assert "not recorded" in text


def test_outside_a_checkout_there_is_no_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(provenance, "_ROOT", tmp_path)
    assert provenance._git() == (None, None)
    lines = provenance.describe({"version": "1", "commit": None, "source": "abc"})
    assert "not from a git checkout" in lines[0] and "source abc" in lines[0]


def test_a_reconstructed_record_says_what_is_unknown_and_where_it_was_committed() -> None:
    from adjacency.solving.store import SolutionsStore, shipped_table

    with shipped_table() as path, SolutionsStore(path, create=False) as store:
        described = [provenance.describe(row.provenance) for row in store.results()]
    lines = next(d for d in described if d[-1].startswith("reconstructed from"))
    assert "commit unknown" in lines[0] and "local changes" not in lines[0]
    assert "machine: unknown, unknown cores" in lines[2]
    assert "tt_mb=unknown" in lines[3] and "threads=unknown" in lines[3]
    assert lines[-1].startswith("reconstructed from the row's own columns and git history: ")


def test_a_run_records_the_hash_of_the_file_a_py_player_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = (
        "from adjacency.bots import Bot\n\n\n"
        "class First(Bot):\n"
        "    def _choose(self, position, search):\n"
        "        return sorted(position.legal_moves())[{}]\n"
    )
    monkeypatch.chdir(tmp_path)
    records = []
    for index, pick in enumerate((0, -1)):
        (tmp_path / "mine.py").write_text(bot.format(pick))
        argv = ["match", "py:mine.py:First", "random", "--games", "2", "--rounds", "2"]
        argv += ["--size", "4x4", "--time", "1", "--concurrency", "1", "--quiet"]
        with contextlib.redirect_stdout(io.StringIO()):
            assert main([*argv, "--db", f"m{index}.db"]) == 0
        with Store(tmp_path / f"m{index}.db") as store:
            run = store.run().provenance
        assert run is not None
        records.append(run["settings"]["player_files"])
    assert set(records[0]) == {"py:mine.py:First"}  # the built-in bot names no file
    first, second = (r["py:mine.py:First"]["mine.py"] for r in records)
    assert len(first) == 16 and first != second  # the same spec, another file: told apart
