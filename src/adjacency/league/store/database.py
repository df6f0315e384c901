"""The league's database file: one connection, its lock, reads and transactions
(:class:`LeagueDb`).

:class:`LeagueDb` is the only object that holds the SQLite connection of a league file.
It opens the file through :func:`adjacency.storage.open_store` (the shared configuration
:data:`~.schema.CONFIG`, the numbered steps :data:`~.schema.STORE_SCHEMA`: a file written
by an earlier version is checked, then upgraded, before anything else reads it), and
gives the repositories that read and write the league's tables (:mod:`.league_meta`,
:mod:`.members`, :mod:`.game_rows`, :mod:`.rating_rows`, :mod:`.events.event_store`) three
public ways in:

* :meth:`LeagueDb.query`: one statement's rows, under the lock (:meth:`LeagueDb.row`:
  the one row looked up, or a :class:`~.records.LeagueError`; :meth:`LeagueDb.query_in`:
  the rows for a list of keys);
* :meth:`LeagueDb.transaction`: one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``,
  rolled back when its block raises), under the lock;
* :meth:`LeagueDb.reading`: the connection under the lock, for several reads that must
  see one state (no transaction opened).

The lock is reentrant and shared by all of them, so one connection serves a server's
threads (the event loop and the readers' pool) one statement at a time.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ...storage import SQLiteStore, open_store, transaction
from .records import LeagueError
from .schema import CONFIG, STORE_SCHEMA


class LeagueDb(SQLiteStore):
    """A league file's connection and lock (thread-safe: every use holds the lock)."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        """Open (or with ``create``, create) a league database, upgraded to this version
        (:data:`~.schema.STORE_SCHEMA`). A file that is not a league database (another
        store's, another program's, not SQLite) is refused with
        :class:`~adjacency.storage.WrongDatabaseError` and left byte for byte as it was; a
        missing file without ``create`` is a :class:`~.records.LeagueError`."""
        self.path = Path(path)
        self.lock = threading.RLock()
        """The lock every use of the connection holds (reentrant)."""
        if not create and not self.path.exists():
            raise LeagueError(
                f"no league database at {str(self.path)!r}: create it with "
                "`adjacency league create --db FILE`"
            )
        self.db = open_store(self.path, CONFIG, STORE_SCHEMA)

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of one statement, read under the lock; a SQLite failure is
        :class:`~adjacency.core.errors.StoreError` naming the file."""
        with self.lock:
            try:
                return self.db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise CONFIG.error(self.path, exc) from None

    def row(self, sql: str, args: tuple[Any, ...], missing: str) -> tuple[Any, ...]:
        """The first row of one statement (:meth:`query`); a statement that finds none is
        :class:`~.records.LeagueError` with the message ``missing`` (what was not found)."""
        rows = self.query(sql, args)
        if not rows:
            raise LeagueError(missing)
        return rows[0]

    def query_in(self, sql: str, keys: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of one statement whose one ``IN ({marks})`` is filled with a
        placeholder for each of ``keys`` (bound to them); no keys: no rows, and no
        statement run (``IN ()`` is not SQL)."""
        if not keys:
            return []
        marks = ", ".join("?" for _ in keys)
        return self.query(sql.format(marks=marks), tuple(keys))

    def transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One transaction under the lock (:func:`adjacency.storage.transaction`):
        committed when the block ends, rolled back when it raises."""
        return transaction(self.db, self.path, CONFIG, self.lock)

    def version(self) -> tuple[int, int]:
        """A stamp that changes whenever the file changes: rows this connection wrote
        (``total_changes``) and commits of other connections (``PRAGMA data_version``: a
        ``league`` command run beside the server). Equal stamps: nothing was written
        between them, so what was read from the file then still holds."""
        with self.lock:
            try:
                (data_version,) = self.db.execute("PRAGMA data_version").fetchone()
            except sqlite3.Error as exc:
                raise CONFIG.error(self.path, exc) from None
            return self.db.total_changes, int(data_version)

    def close(self) -> None:
        """Close the connection, under the lock (again: nothing happens)."""
        with self.lock:
            self.db.close()

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, held under the lock for the block (several reads that see
        one state; no transaction is opened)."""
        with self.lock:
            yield self.db
