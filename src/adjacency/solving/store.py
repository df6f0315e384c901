"""The solved-game table in SQLite: one row per entry, written as soon as it is known.

Durability contract (as :mod:`adjacency.arena.store`): WAL mode, one transaction
per entry, so a run killed at any moment loses only the entries in flight and
``adjacency solutions run`` started again computes only what is missing.

Table::

    entries(rows, cols, rounds, first, symmetry, status, value, pv, optimal,
            move_values JSON, nodes, seconds, budget, solves, root_moves, source,
            book JSON, engine, finished, provenance JSON)
    PRIMARY KEY (rows, cols, rounds, first, symmetry)

    root_moves(rows, cols, rounds, first, symmetry, move, value, best, nodes,
               seconds, engine, finished)
    PRIMARY KEY (rows, cols, rounds, first, symmetry, move)

``root_moves`` are the checkpoints of entries in progress: each first move's value
as soon as it is proven, so that an entry longer than one sitting (8x8 at 8
rounds) resumes at its next first move. ``symmetry`` is part of the key, so a
run with ``--no-symmetry`` (the plain solve, for comparisons) can share the
database. ``engine`` is the package
version that computed the row, ``provenance`` the full record of the code, libraries and
machine that stored it (:mod:`adjacency.system.provenance`; empty in rows from before).

Schema versions (``PRAGMA user_version``, :data:`STORE_SCHEMA`; the scheme of
:mod:`adjacency.storage`):

1. the three tables and ``solutions_meta``'s ``schema`` row ``1`` (the version mark of
   the files before numbered versions, still written so that code of that time opens
   this version's files); such a file with another ``schema`` row is refused;
2. ``entries.provenance``, empty for the entries already there.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import InvalidSettingsError, StoreError
from ..engine.book import BookLine
from ..storage import Schema, SQLiteStore, Step, StoreConfig, open_store, transaction
from ..system.provenance import provenance
from .entries import Entry, EntryResult, RootMove

SCHEMA_VERSION = 1
"""The version row of ``solutions_meta`` (``schema``) in files before numbered versions."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS solutions_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    rows INTEGER NOT NULL,
    cols INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    first TEXT NOT NULL,
    symmetry INTEGER NOT NULL,
    status TEXT NOT NULL,
    value INTEGER,
    pv TEXT NOT NULL,
    optimal TEXT NOT NULL,
    move_values TEXT NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    budget REAL NOT NULL,
    solves INTEGER NOT NULL,
    root_moves INTEGER NOT NULL,
    source TEXT NOT NULL,
    book TEXT NOT NULL,
    engine TEXT NOT NULL,
    finished TEXT NOT NULL,
    PRIMARY KEY (rows, cols, rounds, first, symmetry)
);
CREATE TABLE IF NOT EXISTS root_moves (
    rows INTEGER NOT NULL,
    cols INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    first TEXT NOT NULL,
    symmetry INTEGER NOT NULL,
    move TEXT NOT NULL,
    value INTEGER NOT NULL,
    best TEXT NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    engine TEXT NOT NULL,
    finished TEXT NOT NULL,
    PRIMARY KEY (rows, cols, rounds, first, symmetry, move)
);
"""


def _other_version(db: sqlite3.Connection) -> str | None:
    """Why a file from before numbered versions is refused: its ``schema`` row names
    another version (read only)."""
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    if "solutions_meta" not in tables:
        return None
    row = db.execute("SELECT value FROM solutions_meta WHERE key = 'schema'").fetchone()
    if row is None or row[0] == str(SCHEMA_VERSION):
        return None
    return (
        f"it is a solutions database of another version: schema {row[0]}, "
        f"this version reads {SCHEMA_VERSION}"
    )


STORE_SCHEMA = Schema(
    (
        Step(
            "entries, root_moves and solutions_meta",
            SCHEMA + f"INSERT OR IGNORE INTO solutions_meta VALUES ('schema', '{SCHEMA_VERSION}');",
        ),
        Step(
            "the provenance of each entry",
            columns=(("entries", "provenance", "TEXT NOT NULL DEFAULT ''"),),
        ),
    ),
    legacy=_other_version,
)
"""The numbered steps of a solutions database (the module's docstring lists them)."""

CONFIG = StoreConfig("solutions", synchronous="FULL")
"""The shared configuration of :mod:`adjacency.storage`, except ``synchronous=FULL``: an
entry can cost hours of solving, so each commit is on disk before the next starts, even
across a power cut (as the store always had)."""

SolutionsStoreError = StoreError
"""The name this store's failures had before every store shared the core's
:class:`~adjacency.core.errors.StoreError` (the same class): the database cannot be used
(not SQLite, not a solutions database of this version, read-only, disk full). A database
path that does not exist is bad input instead
(:class:`~adjacency.core.errors.InvalidSettingsError`)."""


SHIPPED_TABLE = "data/solutions.db"
"""The project's solved-game table, shipped in the package (``adjacency/solving/``) so that
``adjacency solutions show`` works wherever the package is installed; in a checkout it is
``src/adjacency/solving/data/solutions.db``, which ``solutions run --db`` extends."""


@contextlib.contextmanager
def shipped_table() -> Iterator[Path]:
    """A private copy of the shipped table (:data:`SHIPPED_TABLE`), removed afterwards.

    Why a copy: opening a store switches it to write-ahead logging and may upgrade it,
    which writes beside the file, and an installed package's folder may be read-only;
    the copy (about 1 MB) keeps the shipped file byte for byte as installed."""
    source = resources.files(__package__).joinpath(SHIPPED_TABLE)
    with tempfile.TemporaryDirectory(prefix="adjacency-solutions-") as folder:
        target = Path(folder) / "solutions.db"
        with resources.as_file(source) as path:
            shutil.copyfile(path, target)
        yield target


class SolutionsStore(SQLiteStore):
    """Read and write the entries of one database file."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise InvalidSettingsError(f"no solutions database at {str(self.path)!r}")
        self.db = open_store(self.path, CONFIG, STORE_SCHEMA)

    def put(self, result: EntryResult, settings: dict[str, Any] | None = None) -> None:
        """Store (or replace) one entry's result in its own transaction; its provenance
        records ``settings`` (the run's: the table's size, the threads) beside the row's."""
        e = result.entry
        row = (
            e.rows,
            e.cols,
            e.rounds,
            e.first,
            int(result.symmetry),
            result.status,
            result.value,
            " ".join(result.pv),
            " ".join(result.optimal),
            json.dumps(result.move_values),
            result.nodes,
            result.seconds,
            result.budget,
            result.solves,
            result.root_moves,
            result.source,
            json.dumps([[b.fen, b.value, list(b.moves), b.complete] for b in result.book]),
            __version__,
            _now(),
            json.dumps(
                provenance(
                    {
                        "budget": result.budget,
                        "symmetry": result.symmetry,
                        "source": result.source,
                        **(settings or {}),
                    }
                )
            ),
        )
        self._replace("entries", row)

    def _replace(self, table: str, row: tuple[Any, ...]) -> None:
        """Insert (or replace) one row of ``table`` in its own transaction."""
        with transaction(self.db, self.path, CONFIG) as db:
            db.execute(f"INSERT OR REPLACE INTO {table} VALUES ({', '.join('?' * len(row))})", row)

    def put_move(self, entry: Entry, symmetry: bool, move: RootMove) -> None:
        """Keep one proven first move of ``entry`` (a checkpoint) in its own transaction."""
        row = (
            entry.rows,
            entry.cols,
            entry.rounds,
            entry.first,
            int(symmetry),
            move.move,
            move.value,
            move.best,
            move.nodes,
            move.seconds,
            __version__,
            _now(),
        )
        self._replace("root_moves", row)

    def moves(self, entry: Entry, symmetry: bool = True) -> dict[str, RootMove]:
        """The first moves of ``entry`` proven so far, by move name."""
        rows = self.db.execute(
            "SELECT move, value, best, nodes, seconds FROM root_moves "
            "WHERE rows=? AND cols=? AND rounds=? AND first=? AND symmetry=?",
            (entry.rows, entry.cols, entry.rounds, entry.first, int(symmetry)),
        ).fetchall()
        return {row[0]: RootMove(*row) for row in rows}

    def in_progress(self, symmetry: bool = True) -> dict[Entry, dict[str, RootMove]]:
        """Entries with first moves kept but no solved result yet (a long entry between
        sittings), each with its kept moves."""
        rows = self.db.execute(
            "SELECT rows, cols, rounds, first, move, value, best, nodes, seconds FROM root_moves "
            "WHERE symmetry = ? ORDER BY rows, cols, rounds, first, move",
            (int(symmetry),),
        ).fetchall()
        found: dict[Entry, dict[str, RootMove]] = {}
        for rows_, cols, rounds, first, *move in rows:
            entry = Entry(rows_, cols, rounds, first)
            found.setdefault(entry, {})[move[0]] = RootMove(*move)
        return {
            entry: moves
            for entry, moves in found.items()
            if (known := self.get(entry, symmetry)) is None or known.status != "solved"
        }

    def get(self, entry: Entry, symmetry: bool = True) -> EntryResult | None:
        """The stored result of ``entry`` solved with symmetry on (or off), or ``None``."""
        row = self.db.execute(
            "SELECT * FROM entries WHERE rows=? AND cols=? AND rounds=? AND first=? AND symmetry=?",
            (entry.rows, entry.cols, entry.rounds, entry.first, int(symmetry)),
        ).fetchone()
        return None if row is None else _result(row)

    def results(self, symmetry: bool | None = True) -> list[EntryResult]:
        """Every stored entry (of one symmetry setting, or both with ``None``), sorted."""
        query = "SELECT * FROM entries"
        params: tuple[Any, ...] = ()
        if symmetry is not None:
            query += " WHERE symmetry = ?"
            params = (int(symmetry),)
        rows = self.db.execute(query + " ORDER BY rows, cols, first, rounds", params).fetchall()
        return [_result(row) for row in rows]


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _result(row: tuple[Any, ...]) -> EntryResult:
    (rows, cols, rounds, first, symmetry, status, value, pv, optimal, move_values, nodes,
     seconds, budget, solves, root_moves, source, book, _engine, _finished,
     origin) = row  # fmt: skip
    return EntryResult(
        Entry(rows, cols, rounds, first),
        status,
        bool(symmetry),
        budget,
        value=value,
        pv=tuple(pv.split()),
        optimal=tuple(optimal.split()),
        move_values=json.loads(move_values),
        nodes=nodes,
        seconds=seconds,
        solves=solves,
        root_moves=root_moves,
        source=source,
        book=tuple(BookLine(f, v, tuple(m), c) for f, v, m, c in json.loads(book)),
        provenance=json.loads(origin) if origin else None,
    )
