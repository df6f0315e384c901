"""The five stores as the storage tests open them, and a dump of a file read without any
store code: shared by ``tests/storage/``; and the games an arena run has stored so far,
read while it runs (``tests/workers/``)."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adjacency.arena.store import Store
from adjacency.league.league_file import LeagueStore
from adjacency.league.store.schema import STORE_SCHEMA
from adjacency.solving.store import SolutionsStore
from adjacency.storage import SQLiteStore
from adjacency.tuning.store import TuneStore
from adjacency.web.store import GameStore

DATA = Path(__file__).parent / "data" / "stores"
"""The fixture files: ``DATA`` (written before the shared SQLite helper) and
``DATA / "cb03095"`` (written by main at cb03095, before numbered schema versions)."""

OPENERS: dict[str, Callable[[Path], SQLiteStore]] = {
    "arena.db": Store,
    "tuning.db": TuneStore,
    "league.db": LeagueStore,
    "solutions.db": SolutionsStore,
    "web.sqlite3": GameStore,
}
"""Each store's constructor, by the name of its fixture file."""


def dump(path: Path) -> dict[str, list[list[Any]]]:
    """Every row of every table, read with plain :mod:`sqlite3` (no store code), in
    storage order (primary-key order for a table without rowids). A read-write
    connection that only reads: it changes no byte, and as the last one to close it
    removes the ``-wal`` and ``-shm`` files that reading a WAL file makes (a read-only
    one would leave them)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        tables = [
            name
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if not name.startswith("sqlite_")
        ]
        return {
            table: [list(row) for row in db.execute(f"SELECT * FROM {table}")]
            for table in sorted(tables)
        }


def beside(path: Path) -> list[str]:
    """The names of the files in ``path``'s folder (a refused file leaves no log there)."""
    return sorted(p.name for p in path.parent.iterdir())


def header(path: Path) -> tuple[int, int]:
    """The file's ``(application_id, user_version)``, read with plain :mod:`sqlite3`."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        return int(app_id), int(db.execute("PRAGMA user_version").fetchone()[0])


def stored_games(db: Path) -> int:
    """Games stored in the arena database ``db`` so far (0 before its tables exist), read
    beside the run that writes them."""
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def undo_league_steps(db: Path, columns: Any) -> int:
    """Make the league file ``db`` as it was before the schema step that added
    ``columns``: that step's and every later step's columns dropped and the version set
    back; returns that step's number (the version the file now says)."""
    first = next(n for n, step in enumerate(STORE_SCHEMA.steps) if step.columns == columns)
    with sqlite3.connect(db) as raw:
        for step in STORE_SCHEMA.steps[first:]:
            for table, column, _ in step.columns:
                indexes = raw.execute(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                    "AND sql IS NOT NULL",
                    (table,),
                ).fetchall()
                for name, sql in indexes:  # an index a step made on the column goes with it
                    if re.search(rf"\b{column}\b", sql):
                        raw.execute(f'DROP INDEX "{name}"')
                raw.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        raw.execute(f"PRAGMA user_version = {first}")
    raw.close()
    return first
