"""Give every row of the shipped solved table a provenance record, unknown fields marked so.

The rows stored before records were kept have an empty ``provenance``. What is known of
each: the package version that computed it and when it was stored (the row's own
``engine`` and ``finished`` columns), its settings that the row keeps (``budget``,
``symmetry``, ``source``), and, from git history, the commit that first committed the
row as it is now (each version of the table file in the history is read, and a row is
matched by its key and its ``finished`` time). Unknown, and written ``"unknown"``,
never guessed: the commit of the code that computed it, whether that checkout was
clean, its source hash, Python, the libraries' versions, the machine, and the
transposition table's size and thread count it ran with.

Usage: ``python tools/backfill_table_provenance.py [DATABASE]`` (default: the shipped
``src/adjacency/solving/data/solutions.db``), from the checkout; rows that already have a
record are left as they are, so running it twice changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
from adjacency.solving.store import SolutionsStore  # noqa: E402
from adjacency.system.provenance import UNKNOWN  # noqa: E402

SHIPPED = REPO / "src" / "adjacency" / "solving" / "data" / "solutions.db"
HISTORY = (
    "docs/solutions/solutions.db",
    "benchmarks/results/solutions.db",
    "src/adjacency/solving/data/solutions.db",
)
"""The paths the table had in the history, oldest first."""
Key = tuple[Any, ...]


def git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=True).stdout


def first_commits() -> dict[Key, tuple[str, str]]:
    """(rows, cols, rounds, first, symmetry, finished) -> (commit, its date) of the first
    commit holding that row."""
    versions = []
    for path in HISTORY:
        for line in git("log", "--format=%aI %H", "--", path).decode().splitlines():
            date, commit = line.split()
            versions.append((date, commit, path))
    found: dict[Key, tuple[str, str]] = {}
    for date, commit, path in sorted(versions):
        blob = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{commit}:{path}"], capture_output=True, check=False
        ).stdout
        if not blob:  # the commit that moved the file away
            continue
        with tempfile.NamedTemporaryFile(suffix=".db") as copy:
            copy.write(blob)
            copy.flush()
            db = sqlite3.connect(copy.name)
            keys = db.execute(
                "SELECT rows, cols, rounds, first, symmetry, finished FROM entries"
            ).fetchall()
            db.close()
        for key in keys:
            found.setdefault(tuple(key), (commit, date))
    return found


def record(row: sqlite3.Row, history: dict[Key, tuple[str, str]]) -> dict[str, Any]:
    """The provenance record of one row stored before records were kept."""
    key = (row["rows"], row["cols"], row["rounds"], row["first"], row["symmetry"], row["finished"])
    commit, date = history.get(key, (UNKNOWN, UNKNOWN))
    return {
        "package": "adjacency-game",
        "version": row["engine"],
        "commit": UNKNOWN,
        "dirty": UNKNOWN,
        "source": UNKNOWN,
        "python": UNKNOWN,
        "libraries": {"numpy": UNKNOWN, "numba": UNKNOWN},
        "machine": {"cpu": UNKNOWN, "cores": UNKNOWN, "system": UNKNOWN, "arch": UNKNOWN},
        "settings": {
            "budget": row["budget"],
            "symmetry": bool(row["symmetry"]),
            "source": row["source"],
            "tt_mb": UNKNOWN,
            "threads": UNKNOWN,
        },
        "seeds": None,
        "created": row["finished"],
        "reconstructed": {
            "from": "the row's own columns and git history",
            "committed_in": commit,
            "committed": date,
        },
    }


def backfill(path: Path) -> int:
    """Fill every empty record of the table at ``path`` (opened, and so upgraded, by the
    store first); returns the rows filled."""
    SolutionsStore(path, create=False).close()  # the schema's upgrade adds the column
    history = first_commits()
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    rows = db.execute("SELECT * FROM entries WHERE provenance = ''").fetchall()
    with db:
        for row in rows:
            db.execute(
                "UPDATE entries SET provenance = ? WHERE rows = ? AND cols = ? AND rounds = ? "
                "AND first = ? AND symmetry = ?",
                (
                    json.dumps(record(row, history)),
                    row["rows"], row["cols"], row["rounds"], row["first"], row["symmetry"],
                ),
            )  # fmt: skip
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return len(rows)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SHIPPED
    print(f"{backfill(target)} rows given a provenance record in {target}")
