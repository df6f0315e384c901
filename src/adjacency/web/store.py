"""SQLite storage of games, written as they progress so a restart loses nothing.

One row per game: the core's JSON record (``game_to_dict``) plus the web
layer's own data (who plays each side, time per move, evaluations, playback
state) as JSON. Writes are serialised by a lock; the connection is shared by
the server's threads (SQLite in its default serialised threading mode).

Schema versions (``PRAGMA user_version``, :data:`STORE_SCHEMA`; the scheme of
:mod:`adjacency.storage`):

1. the ``games`` table (the files before numbered versions had it, and no version).
2. the puzzle page's tables (:data:`.puzzle_records.PUZZLE_TABLES`): players' and puzzles'
   ratings and each player's attempts.
3. each game's detail code: a record stored before the codes gets its ``detail_code``
   and ``detail_params`` from its ``termination_detail``, read once by the sentences of
   that time (:func:`~adjacency.serving.legacy_details.explain`); a record whose detail
   reads as no code (an engine's words, no detail) is left as it was.
4. the server's secrets (``secrets``: the key that signs the browsers' client cookies,
   :mod:`.cookies`, made when first asked for) and the puzzles whose solution was shown
   at an address (:data:`.puzzle_records.REVEALS`).
5. the opening explorer's index (:data:`.explorer_index.EXPLORER_TABLES`), the finished games
   already stored counted into it.
6. each player's puzzle rating over time (:data:`.puzzle_records.RATING_HISTORY`), a player
   rated before it given its rating then as its one point.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.position import Position
from ..serving.legacy_details import explain
from ..storage import MEMORY, Schema, SQLiteStore, Step, StoreConfig, open_store, transaction
from . import explorer_index as explorer
from .explorer_index import EXPLORER_TABLES, LeagueFeed, MoveStats
from .puzzle_records import (
    PUZZLE_TABLES,
    RATING_HISTORY,
    REVEALS,
    PuzzleRecords,
    backfill_rating_history,
)

CONFIG = StoreConfig("games", timeout=5.0, check_same_thread=False)
"""The shared configuration of :mod:`adjacency.storage` (write-ahead log, synced at
checkpoints: a commit survives the server's own crash or kill, it is in the log the OS
holds, and costs no fsync per move; an in-memory store has neither), with one connection
shared by the server's threads (behind the store's lock) and a 5 s busy timeout: a
request waits at most that long for another process's lock while it holds the store's,
then fails (503) instead of stalling every other request for half a minute."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    record TEXT NOT NULL,
    meta TEXT NOT NULL
)
"""


SECRETS = """
CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL)
"""
"""The server's own secrets by name (``cookies``: the key of :mod:`.cookies`), random
bytes made the first time one is asked for (:meth:`GameStore.secret`)."""

SECRET_BYTES = 32
"""Random bytes of a secret (256 bits)."""


def _read_details(db: sqlite3.Connection) -> None:
    """Give each record stored before the codes its detail's code and params (step 3)."""
    coded = []
    for game_id, text in db.execute("SELECT id, record FROM games").fetchall():
        try:
            record = json.loads(text)
        except (ValueError, TypeError, RecursionError):
            continue  # a damaged row stays as it is (it shows as damaged)
        if not isinstance(record, dict) or "detail_code" in record:
            continue
        detail = explain(str(record.get("termination_detail") or ""))
        if detail.code is not None:
            record |= detail.fields()
            coded.append((json.dumps(record), game_id))
    db.executemany("UPDATE games SET record = ? WHERE id = ?", coded)


STORE_SCHEMA = Schema(
    (
        Step("games", _SCHEMA),
        Step("puzzle ratings", PUZZLE_TABLES),
        Step("each game's detail code", run=_read_details),
        Step("the server's secrets; puzzles shown per address", SECRETS + ";" + REVEALS),
        Step("the opening explorer's index", EXPLORER_TABLES, run=explorer.index_stored),
        Step(
            "each player's puzzle rating over time",
            RATING_HISTORY,
            run=backfill_rating_history,
        ),
    )
)
"""The numbered steps of a games database (the module's docstring lists them)."""


def default_path() -> Path:
    """``$XDG_DATA_HOME/adjacency/games.sqlite3`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "adjacency" / "games.sqlite3"


@dataclass(frozen=True)
class StoredGame:
    """One row. A row whose JSON does not parse has empty ``record`` and ``meta`` and
    says why in ``damaged``, so one bad row never hides the others."""

    id: str
    created: float
    updated: float
    record: dict[str, Any]
    meta: dict[str, Any]
    damaged: str | None = None
    meta_text: str = ""
    """The web data as stored (kept for a damaged row, so its owner can still be told)."""

    def owned_by(self, client: str) -> bool:
        """Whether ``client`` (a client key) created this game, read from the parsed web
        data or, in a damaged row, from its stored text; a row naming no owner has none."""
        if self.damaged is None:
            owner = (
                self.meta.get("seats", {}).get("owner")
                if isinstance(self.meta.get("seats"), dict)
                else None
            )
            return isinstance(owner, str) and owner == client
        return f'"owner": "{client}"' in self.meta_text


class GameStore(SQLiteStore):
    """Games by id. ``path`` may be ``":memory:"`` for a throwaway store."""

    def __init__(self, path: str | Path, league: str | Path | None = None) -> None:
        if str(path) != MEMORY:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CONFIG.unusable(path, exc) from None
        self.path = str(path)
        self._lock = threading.Lock()
        self.db = open_store(self.path, CONFIG, STORE_SCHEMA)
        self.puzzles = PuzzleRecords(self._transaction)
        """The puzzle page's ratings and attempts (:mod:`.puzzle_records`)."""
        self.league = None if league is None else LeagueFeed(league)
        """A league's file the opening explorer also reads (:class:`.explorer_index.LeagueFeed`)."""

    def _transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return transaction(self.db, self.path, CONFIG, self._lock)

    def secret(self, name: str) -> bytes:
        """The server's secret ``name`` (:data:`SECRETS`): made and stored the first time,
        the same afterwards, across restarts (so the cookies it signed stay valid)."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)",
                (name, secrets.token_bytes(SECRET_BYTES)),
            )
            return bytes(
                db.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()[0]
            )

    def save(
        self, game_id: str, created: float, record: dict[str, Any], meta: dict[str, Any]
    ) -> None:
        """Insert or replace a game."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, created, updated, record, meta) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET updated=excluded.updated, "
                "record=excluded.record, meta=excluded.meta",
                (game_id, created, time.time(), json.dumps(record), json.dumps(meta)),
            )
            if record.get("result") is not None:  # finished: counted once in the explorer
                explorer.add_record(db, explorer.SERVER, game_id, record)

    def explore(self, position: Position) -> list[MoveStats]:
        """The opening explorer's moves from ``position`` (:func:`.explorer_index.moves_from`),
        after one bounded step of reading the league's file when one is given."""
        if self.league is not None:  # parsed outside the lock: saves are not held up
            with self._lock:
                after, pending = self.league.where(self.db)
            found = self.league.read(after, pending)
            with self._transaction() as db:
                self.league.write(db, found)
        with self._lock:
            return explorer.moves_from(self.db, position)

    def load(self, game_id: str) -> StoredGame | None:
        """The stored game ``game_id``, or ``None``."""
        with self._lock:
            row = self.db.execute(
                "SELECT id, created, updated, record, meta FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return None if row is None else _stored(row)

    def all(self, limit: int = 200, mentioning: str | None = None) -> list[StoredGame]:
        """The most recently changed games first; with ``mentioning``, only rows whose
        web data contains that text (a client key) or that have no seats yet (older games).
        Damaged rows are always included (they show as damaged)."""
        query = "SELECT id, created, updated, record, meta FROM games "
        args: tuple[object, ...] = (limit,)
        if mentioning is not None:
            query += "WHERE instr(meta, ?) > 0 OR instr(meta, '\"seats\"') = 0 "
            args = (mentioning, limit)
        with self._lock:
            rows = self.db.execute(query + "ORDER BY updated DESC LIMIT ?", args).fetchall()
        return [_stored(row) for row in rows]

    def close(self) -> None:
        """Close the store (and the league's file the explorer reads)."""
        if self.league is not None:
            self.league.close()
        super().close()

    def delete(self, game_id: str) -> bool:
        """Delete game ``game_id``; whether it was stored."""
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        return cursor.rowcount > 0


def _stored(row: tuple[str, float, float, str, str]) -> StoredGame:
    try:
        record, meta = json.loads(row[3]), json.loads(row[4])
        if not isinstance(record, dict) or not isinstance(meta, dict):
            raise ValueError("the record or its data is not a JSON object")
    except (ValueError, TypeError, RecursionError) as exc:
        reason = f"{type(exc).__name__}: {str(exc)[:80]}"
        return StoredGame(row[0], row[1], row[2], {}, {}, reason, str(row[4]))
    return StoredGame(row[0], row[1], row[2], record, meta)
