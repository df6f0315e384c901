"""Checkpoints of SPSA tuning runs in SQLite (the same durability rules as the arena store).

One row per run (the bot, the parameters, the schedule and the game settings,
stored once) and one row per finished batch, written in its own transaction
after the batch's last game: a run killed at any moment restarts from its last
committed batch (``adjacency tune --resume``).

Tables::

    tune_runs(id, created, bot, params JSON, schedule JSON, settings JSON,
              batch_pairs, command, status, out, plot)

``out`` and ``plot`` are the run's output files as absolute paths (``plot``
NULL: next to ``out``, see :func:`plot_path`), so that a resumed run, from any
working directory, writes the files of the run it continues. Runs stored before
these columns existed have NULL there (the resume then uses its ``--out``).
    tune_batches(run_id, batch, k, pairs, wins, draws, losses, theta JSON, finished)

Schema versions (``PRAGMA user_version``, :data:`STORE_SCHEMA`; the scheme of
:mod:`adjacency.storage`):

1. the two tables; a file written before numbered versions gets ``out`` and ``plot``
   (:data:`MIGRATIONS`).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..arena.schedule import RunSettings
from ..core.errors import StoreError
from ..storage import Schema, SQLiteStore, Step, StoreConfig, open_store, transaction
from .spsa import BatchOutcome, Param, Schedule

SCHEMA = """
CREATE TABLE IF NOT EXISTS tune_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    bot TEXT NOT NULL,
    params TEXT NOT NULL,
    schedule TEXT NOT NULL,
    settings TEXT NOT NULL,
    batch_pairs INTEGER NOT NULL,
    command TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'running',
    out TEXT,
    plot TEXT
);
CREATE TABLE IF NOT EXISTS tune_batches (
    run_id INTEGER NOT NULL REFERENCES tune_runs(id),
    batch INTEGER NOT NULL,
    k INTEGER NOT NULL,
    pairs INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    theta TEXT NOT NULL,
    finished TEXT NOT NULL,
    PRIMARY KEY (run_id, batch)
);
"""

MIGRATIONS = (("tune_runs", "out", "TEXT"), ("tune_runs", "plot", "TEXT"))
"""Columns added since the first schema: (table, column, declaration), added by step 1
to a file written before them."""

STORE_SCHEMA = Schema((Step("tune_runs and tune_batches", SCHEMA, MIGRATIONS),))
"""The numbered steps of a tuning database (the module's docstring lists them)."""

CONFIG = StoreConfig("tuning")
"""The shared configuration of :mod:`adjacency.storage`."""

RUN_COLUMNS = "id, bot, params, schedule, settings, batch_pairs, command, status, out, plot"


def plot_path(out: Path) -> Path:
    """The plot written next to the values file when no plot file is named: ``X-plot.png``."""
    return out.with_name(out.stem + "-plot.png")


@dataclass(frozen=True)
class TuneRun:
    """A tuning run as stored, with its progress."""

    id: int
    bot: str
    params: list[Param]
    schedule: Schedule
    settings: RunSettings
    batch_pairs: int
    command: str
    status: str
    batches: list[BatchOutcome]
    out: Path | None = None
    """The tuned-values file (absolute), or None for a run stored before it was kept."""
    plot: Path | None = None
    """The plot file (absolute), or None: :func:`plot_path` of ``out``."""

    @property
    def pairs_done(self) -> int:
        """Game pairs played in the stored batches."""
        return sum(b.pairs for b in self.batches)

    @property
    def theta(self) -> tuple[float, ...]:
        """The current values: the last batch's, or the start."""
        if self.batches:
            return self.batches[-1].theta
        return tuple(p.start for p in self.params)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class TuneStore(SQLiteStore):
    """A tuning database (one SQLite file, WAL). Use as a context manager."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = open_store(self.path, CONFIG, STORE_SCHEMA)

    def create(
        self,
        bot: str,
        params: list[Param],
        schedule: Schedule,
        settings: RunSettings,
        batch_pairs: int,
        command: str,
        out: Path | None = None,
        plot: Path | None = None,
    ) -> int:
        """Store a new run; ``out`` and ``plot`` are kept as absolute paths."""
        cursor = self.db.execute(
            "INSERT INTO tune_runs (created, bot, params, schedule, settings, batch_pairs, "
            "command, out, plot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                _now(),
                bot,
                json.dumps([p.to_dict() for p in params]),
                json.dumps(schedule.to_dict()),
                json.dumps(settings.to_dict()),
                batch_pairs,
                command,
                _absolute(out),
                _absolute(plot),
            ),
        )
        return int(cursor.lastrowid or 0)

    def set_files(self, run_id: int, out: Path | None, plot: Path | None) -> None:
        """Replace the run's output files (a resume that names others); None keeps one."""
        for column, path in (("out", out), ("plot", plot)):
            if path is not None:
                self.db.execute(
                    f"UPDATE tune_runs SET {column} = ? WHERE id = ?", (_absolute(path), run_id)
                )

    def checkpoint(self, run_id: int, outcome: BatchOutcome) -> None:
        """Commit one finished batch (its own transaction)."""
        with transaction(self.db, self.path, CONFIG) as db:
            db.execute(
                "INSERT INTO tune_batches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id, outcome.batch, outcome.k, outcome.pairs, outcome.wins,
                    outcome.draws, outcome.losses, json.dumps(list(outcome.theta)), _now(),
                ),
            )  # fmt: skip

    def set_status(self, run_id: int, status: str) -> None:
        """Set run ``run_id``'s status (stored as given)."""
        self.db.execute("UPDATE tune_runs SET status = ? WHERE id = ?", (status, run_id))

    def run(self, run_id: int | None = None) -> TuneRun:
        """The run ``run_id`` (default: the latest)."""
        query = f"SELECT {RUN_COLUMNS} FROM tune_runs"
        if run_id is None:
            row = self.db.execute(query + " ORDER BY id DESC LIMIT 1").fetchone()
        else:
            row = self.db.execute(query + " WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            which = "no tuning run" if run_id is None else f"no tuning run {run_id}"
            raise StoreError(f"{str(self.path)!r} has {which}")
        return self._run(row)

    def resumable(self) -> TuneRun:
        """The latest run that has not finished."""
        row = self.db.execute(
            f"SELECT {RUN_COLUMNS} FROM tune_runs "
            "WHERE status IN ('running', 'stopped') ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            raise StoreError(f"{str(self.path)!r} has no unfinished tuning run to resume")
        return self._run(row)

    def _run(self, row: tuple[Any, ...]) -> TuneRun:
        rid, bot, params, schedule, settings, batch_pairs, command, status, out, plot = row
        rows = self.db.execute(
            "SELECT batch, k, pairs, wins, draws, losses, theta FROM tune_batches "
            "WHERE run_id = ? ORDER BY batch",
            (rid,),
        ).fetchall()
        outcomes = [
            BatchOutcome(b, k, n, w, d, lo, tuple(json.loads(theta)))
            for b, k, n, w, d, lo, theta in rows
        ]
        return TuneRun(
            rid,
            bot,
            [Param(**p) for p in json.loads(params)],
            Schedule(**json.loads(schedule)),
            RunSettings.from_dict(json.loads(settings)),
            batch_pairs,
            command,
            status,
            outcomes,
            Path(out) if out else None,
            Path(plot) if plot else None,
        )


def _absolute(path: Path | None) -> str | None:
    return None if path is None else str(Path(path).resolve())
