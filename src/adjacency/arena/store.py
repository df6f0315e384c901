"""Results storage in SQLite: runs, their planned schedules, and finished games.

Durability contract: the database is in WAL mode, and every finished game is
written in its own transaction (``INSERT`` + ``COMMIT``) as soon as the runner
receives it. A process killed at any moment (even SIGKILL) therefore loses only
the games in flight: a committed game survives, and an uncommitted one leaves no
trace. ``games`` has the primary key ``(run_id, idx)``, so a game can never be
stored twice; :meth:`Store.pending` is the planned games minus the stored ones,
which is what ``--resume`` plays. Several runs (and several processes, thanks
to WAL and a busy timeout) may share one database file.

Tables::

    runs(id, created, mode, players JSON, settings JSON, command, status, planned, label,
         provenance JSON)
    plan(run_id, idx, task JSON)                      -- the schedule, written once
    games(run_id, idx, pairing, pair, a, b, x, o, rounds, a_is_x, result,
          termination, detail, x_score, o_score, plies, move_times JSON,
          record TEXT, seconds, worker, finished, node, host, pid)

``node`` is the Ray node id that played a game (``local`` outside Ray), ``host``
its machine and ``pid`` its process. ``label`` names what a run is beyond its mode
(``experiments`` stores its preset, so ``--resume`` names the right one); empty for
the others and for old runs. ``provenance`` is the record of the code, libraries and
machine that created the run (:mod:`adjacency.system.provenance`); empty for runs stored
before it was kept.

Schema versions (``PRAGMA user_version``, :data:`STORE_SCHEMA`; the scheme of
:mod:`adjacency.storage`):

1. the three tables; a file written before numbered versions gets the columns added
   since its release (:data:`MIGRATIONS`: ``node``, ``host``, ``pid``, ``label``), with
   empty values for old games and runs;
2. ``runs.provenance``, empty for the runs already there.

A file that is not a results database (a league's, say) is refused before anything is
written to it (:class:`~adjacency.storage.WrongDatabaseError`).
"""

from __future__ import annotations

import datetime
import json
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import StoreError
from ..storage import Schema, SQLiteStore, Step, StoreConfig, open_store, transaction
from .games import GameResult
from .schedule import GameTask, RunSettings

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    mode TEXT NOT NULL,
    players TEXT NOT NULL,
    settings TEXT NOT NULL,
    command TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'running',
    planned INTEGER NOT NULL,
    label TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS plan (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    task TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    pairing INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    a TEXT NOT NULL,
    b TEXT NOT NULL,
    x TEXT NOT NULL,
    o TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    a_is_x INTEGER NOT NULL,
    result TEXT,
    termination TEXT NOT NULL,
    detail TEXT NOT NULL,
    x_score INTEGER NOT NULL,
    o_score INTEGER NOT NULL,
    plies INTEGER NOT NULL,
    move_times TEXT NOT NULL,
    record TEXT NOT NULL,
    seconds REAL NOT NULL,
    worker TEXT NOT NULL,
    finished TEXT NOT NULL,
    node TEXT NOT NULL DEFAULT '',
    host TEXT NOT NULL DEFAULT '',
    pid INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, idx)
);
"""

MIGRATIONS: tuple[tuple[str, str, str], ...] = (
    ("games", "node", "TEXT NOT NULL DEFAULT ''"),
    ("games", "host", "TEXT NOT NULL DEFAULT ''"),
    ("games", "pid", "INTEGER NOT NULL DEFAULT 0"),
    ("runs", "label", "TEXT NOT NULL DEFAULT ''"),
)
"""Columns added after the first release: (table, column, declaration), added by step 1
to a file written before them."""

STORE_SCHEMA = Schema(
    (
        Step("runs, plan and games", SCHEMA, MIGRATIONS),
        Step(
            "the provenance of each run",
            columns=(("runs", "provenance", "TEXT NOT NULL DEFAULT ''"),),
        ),
    )
)
"""The numbered steps of a results database (the module's docstring lists them)."""

GAME_COLUMNS = (
    "run_id", "idx", "pairing", "pair", "a", "b", "x", "o", "rounds", "a_is_x", "result",
    "termination", "detail", "x_score", "o_score", "plies", "move_times", "record", "seconds",
    "worker", "finished", "node", "host", "pid",
)  # fmt: skip

STATUSES = ("running", "finished", "stopped", "sprt")


CONFIG = StoreConfig(
    "results", integrity_hint=" (is another process playing or resuming the same run?)"
)
"""The shared configuration of :mod:`adjacency.storage` (several processes share one
file: WAL and the 30 s busy timeout)."""

__all__ = ["CONFIG", "GameRow", "Run", "Store", "StoreError"]
""":class:`StoreError` is the core's (:mod:`adjacency.core.errors`), imported here too."""


class _Connection(sqlite3.Connection):
    """A connection whose SQLite failures are :class:`StoreError` (no traceback for a
    read-only file, a full disk, a foreign schema or a concurrent resume)."""

    def __init__(self, database: str | Path, *args: Any, **kwargs: Any) -> None:
        super().__init__(database, *args, **kwargs)
        self.store_path = Path(database)

    def execute(self, *args: Any) -> sqlite3.Cursor:
        try:
            return super().execute(*args)
        except sqlite3.Error as exc:
            raise CONFIG.error(self.store_path, exc) from None

    def executemany(self, *args: Any) -> sqlite3.Cursor:
        try:
            return super().executemany(*args)
        except sqlite3.Error as exc:
            raise CONFIG.error(self.store_path, exc) from None


@dataclass(frozen=True)
class Run:
    """One run's row: how it was started and how far it got."""

    id: int
    created: str
    mode: str
    players: list[str]
    settings: RunSettings
    command: str
    status: str
    planned: int
    label: str = ""
    """What the run is beyond its mode, e.g. an experiments preset (``reduced``)."""
    provenance: dict[str, Any] | None = None
    """The code, libraries and machine that created the run
    (:func:`adjacency.system.provenance.provenance`); ``None`` for an older run."""


@dataclass(frozen=True)
class GameRow:
    """A stored game, as the statistics and reports read it."""

    run_id: int
    idx: int
    pairing: int
    pair: int
    a: str
    b: str
    x: str
    o: str
    rounds: int
    a_is_x: bool
    result: str | None
    termination: str
    detail: str
    x_score: int
    o_score: int
    plies: int
    move_times: list[float]
    record: str
    seconds: float
    node: str = ""
    host: str = ""
    pid: int = 0

    @property
    def a_points(self) -> float:
        """Points of the pairing's first player ``a``: 1, 0.5 or 0 (a game without a result
        counts as a draw)."""
        if self.result in ("draw", None):
            return 0.5
        return 1.0 if self.result == ("x" if self.a_is_x else "o") else 0.0

    @property
    def a_margin(self) -> int:
        """Final margin from ``a``'s point of view (pieces of ``a`` minus ``b``)."""
        diff = self.x_score - self.o_score
        return diff if self.a_is_x else -diff

    @property
    def loser(self) -> str | None:
        """The spec of the side that lost (``None`` for a draw)."""
        if self.result in ("draw", None):
            return None
        return self.o if self.result == "x" else self.x


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class Store(SQLiteStore):
    """A results database (one SQLite file). Use as a context manager or call close()."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = open_store(self.path, CONFIG, STORE_SCHEMA, factory=_Connection)

    # ------------------------------------------------------------------ writing

    def create_run(
        self,
        mode: str,
        players: list[str],
        settings: RunSettings,
        tasks: list[GameTask],
        command: str,
        label: str = "",
        provenance: dict[str, Any] | None = None,
    ) -> int:
        """Store a new run and its whole schedule in one transaction; return its id.
        ``provenance``: the record stored with it (empty when ``None``)."""
        with self._transaction():
            cursor = self.db.execute(
                "INSERT INTO runs (created, mode, players, settings, command, planned, label, "
                "provenance) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    _now(),
                    mode,
                    json.dumps(players),
                    json.dumps(settings.to_dict()),
                    command,
                    len(tasks),
                    label,
                    json.dumps(provenance) if provenance else "",
                ),
            )
            run_id = int(cursor.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO plan (run_id, idx, task) VALUES (?, ?, ?)",
                [(run_id, t.index, json.dumps(t.to_dict())) for t in tasks],
            )
        return run_id

    def record(self, run_id: int, result: GameResult) -> None:
        """Commit one finished game (its own transaction)."""
        task = result.task
        with self._transaction():
            self.db.execute(
                f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})",
                (
                    run_id, task.index, task.pairing, task.pair, task.a, task.b, task.x, task.o,
                    task.rounds, int(task.a_is_x), result.result, result.termination,
                    result.detail, result.x_score, result.o_score, result.plies,
                    json.dumps(list(result.move_times)), result.record, result.seconds,
                    result.worker, _now(), result.node, result.host, result.pid,
                ),
            )  # fmt: skip

    def set_status(self, run_id: int, status: str) -> None:
        """Set run ``run_id``'s status, one of :data:`STATUSES` (else ``ValueError``)."""
        if status not in STATUSES:
            raise ValueError(f"status {status!r} is not one of {STATUSES}")
        with self._transaction():
            self.db.execute("UPDATE runs SET status = ? WHERE id = ?", (status, run_id))

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return transaction(self.db, self.path, CONFIG)

    # ------------------------------------------------------------------ reading

    def runs(self) -> list[Run]:
        """Every stored run, oldest first."""
        rows = self.db.execute(
            "SELECT id, created, mode, players, settings, command, status, planned, label, "
            "provenance FROM runs ORDER BY id"
        ).fetchall()
        return [_run(row) for row in rows]

    def run(self, run_id: int | None = None) -> Run:
        """The run ``run_id``, or the latest run when ``None``."""
        runs = self.runs()
        if not runs:
            raise StoreError(f"{str(self.path)!r} holds no runs")
        if run_id is None:
            return runs[-1]
        for run in runs:
            if run.id == run_id:
                return run
        known = ", ".join(str(r.id) for r in runs)
        raise StoreError(f"{str(self.path)!r} has no run {run_id}; runs: {known}")

    def resumable(self) -> Run:
        """The latest run that has not finished its schedule."""
        for run in reversed(self.runs()):
            if run.status in ("running", "stopped"):
                return run
        raise StoreError(f"{str(self.path)!r} has no unfinished run to resume")

    def tasks(self, run_id: int) -> list[GameTask]:
        """The planned games of run ``run_id``, in schedule order."""
        rows = self.db.execute(
            "SELECT task FROM plan WHERE run_id = ? ORDER BY idx", (run_id,)
        ).fetchall()
        return [GameTask.from_dict(json.loads(text)) for (text,) in rows]

    def pending(self, run_id: int) -> list[GameTask]:
        """Planned games of ``run_id`` that are not stored yet, in schedule order."""
        rows = self.db.execute(
            "SELECT task FROM plan WHERE run_id = ? AND idx NOT IN "
            "(SELECT idx FROM games WHERE run_id = ?) ORDER BY idx",
            (run_id, run_id),
        ).fetchall()
        return [GameTask.from_dict(json.loads(text)) for (text,) in rows]

    def count(self, run_id: int) -> int:
        """How many games of run ``run_id`` are stored."""
        (n,) = self.db.execute("SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)).fetchone()
        return int(n)

    def games(self, run_id: int | None = None, stored_order: bool = False) -> list[GameRow]:
        """Stored games of one run (or of every run), in schedule order, or with
        ``stored_order`` in the order they ended (were stored): the order a sequential
        test saw them in."""
        query = (
            "SELECT run_id, idx, pairing, pair, a, b, x, o, rounds, a_is_x, result, termination, "
            "detail, x_score, o_score, plies, move_times, record, seconds, node, host, pid "
            "FROM games"
        )
        params: tuple[Any, ...] = ()
        if run_id is not None:
            query += " WHERE run_id = ?"
            params = (run_id,)
        order = " ORDER BY rowid" if stored_order else " ORDER BY run_id, idx"
        rows = self.db.execute(query + order, params).fetchall()
        return list(_game_rows(rows))


def _run(row: tuple[Any, ...]) -> Run:
    rid, created, mode, players, settings, command, status, planned, label, origin = row
    return Run(
        rid, created, mode, json.loads(players), RunSettings.from_dict(json.loads(settings)),
        command, status, planned, label, json.loads(origin) if origin else None,
    )  # fmt: skip


def _game_rows(rows: list[tuple[Any, ...]]) -> Iterator[GameRow]:
    for row in rows:
        values = list(row)
        values[9] = bool(values[9])
        values[16] = json.loads(values[16])
        yield GameRow(*values)
