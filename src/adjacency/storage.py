"""The SQLite plumbing shared by the project's five stores: open, migrate, transact, close.

The arena's results (:mod:`adjacency.arena.store`), tuning checkpoints
(:mod:`adjacency.tuning.store`), the league (:mod:`adjacency.league.store`), the
solved-game table (:mod:`adjacency.solving.store`) and the web server's games
(:mod:`adjacency.web.store`) each keep one SQLite file. They share one way of using it:

- :func:`open_store` connects with the store's :class:`StoreConfig` (busy timeout,
  threads, autocommit or Python's deferred transactions), refuses a file that holds
  another program's tables *before* changing anything (when the store names its own
  tables), turns on write-ahead logging (a committed row survives a crash; readers
  and one writer share the file) and the store's pragmas, creates the schema, adds
  the columns of later versions (:func:`add_columns`, idempotent) and, if asked,
  checks that no column the schema names is missing (:func:`check_columns`);
- :func:`check_version` compares a stored schema version with the code's;
- :func:`transaction` is one transaction: committed when its block ends, rolled back
  when the block raises, so a failed operation changes nothing;
- :class:`SQLiteStore` gives a store ``close()`` (idempotent) and the context manager.

Every SQLite failure leaves here as :class:`~adjacency.core.errors.StoreError` (a
run-time failure: CLI exit status 3, HTTP 503) with the file's name and SQLite's
reason, never as a bare :class:`sqlite3.Error`.

Why a top-level module beside :mod:`adjacency.workers` and :mod:`adjacency.plotting`
(``.importlinter``): the five stores live in four front ends (arena, solving, web,
and the league and tuning above them), so the helper must sit below all of them; it
raises the core's :class:`~adjacency.core.errors.StoreError`, so it cannot go into
:mod:`adjacency.system`, which lies below the core and imports only the standard
library. Like the workers and plotting, it is a generic service that knows no game code.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from .core.errors import StoreError

MEMORY = ":memory:"
"""The path of a throwaway in-memory database (no file, so no log and no pragmas)."""

Migration = tuple[str, str, str]
"""A column added after a table's first release: ``(table, column, declaration)``."""


@dataclass(frozen=True)
class StoreConfig:
    """How one store uses its SQLite file (each store keeps the settings it always had)."""

    kind: str
    """What the file is, for messages: ``results`` in "cannot use 'x.db' as a results
    database"."""
    timeout: float = 30.0
    """Seconds a statement waits for another process's lock before it fails."""
    autocommit: bool = True
    """``True``: SQLite's autocommit (``isolation_level=None``); :func:`transaction` then
    opens ``BEGIN IMMEDIATE``. ``False``: Python's default deferred transactions, which
    :func:`transaction` commits or rolls back."""
    check_same_thread: bool = True
    """``False`` for a connection shared by a server's threads (behind the store's lock)."""
    synchronous: str | None = "NORMAL"
    """``PRAGMA synchronous`` (``NORMAL``: with WAL, durable at the next checkpoint and
    safe from corruption); ``None`` keeps SQLite's default (``FULL``)."""
    foreign_keys: bool = False
    """``PRAGMA foreign_keys=ON``: ``REFERENCES`` clauses are enforced."""
    own_tables: frozenset[str] | None = None
    """The store's tables: a file holding any other table is refused untouched (not even
    switched to WAL). ``None``: no such check."""
    integrity_hint: str = ""
    """Appended to the message of a constraint failure (what probably caused it)."""

    def error(self, path: str | Path, exc: BaseException) -> StoreError:
        """The :class:`StoreError` for a failed operation on an open database."""
        hint = self.integrity_hint if isinstance(exc, sqlite3.IntegrityError) else ""
        return StoreError(f"{self.kind} database {str(path)!r}: {exc}{hint}")

    def unusable(self, path: str | Path, reason: object) -> StoreError:
        """The :class:`StoreError` for a file that cannot be opened as this store."""
        return StoreError(f"cannot use {str(path)!r} as a {self.kind} database: {reason}")


def open_store(
    path: str | Path,
    config: StoreConfig,
    schema: str,
    migrations: Iterable[Migration] = (),
    *,
    require_columns: bool = False,
    factory: type[sqlite3.Connection] = sqlite3.Connection,
) -> sqlite3.Connection:
    """Connect to ``path`` (created if missing) as ``config`` says and make it hold
    ``schema`` (``CREATE ... IF NOT EXISTS`` statements) and the ``migrations``' columns;
    with ``require_columns``, refuse a table that lacks a column of ``schema`` (a table
    of the same name from another program). ``factory`` is the connection class.

    Raises :class:`StoreError` ("cannot use ... as a ... database") for a file that is not
    SQLite, a directory, a path that cannot be created or written, another program's
    tables; the connection is closed then."""
    try:
        db = sqlite3.connect(
            path,
            timeout=config.timeout,
            isolation_level=None if config.autocommit else "DEFERRED",
            check_same_thread=config.check_same_thread,
            factory=factory,
        )
    except sqlite3.Error as exc:
        raise config.unusable(path, exc) from None
    try:
        _refuse_foreign_tables(db, config)
        if str(path) != MEMORY:
            db.execute("PRAGMA journal_mode=WAL")
            if config.synchronous is not None:
                db.execute(f"PRAGMA synchronous={config.synchronous}")
        if config.foreign_keys:
            db.execute("PRAGMA foreign_keys=ON")
        db.executescript(schema)
        add_columns(db, migrations)
        if require_columns:
            check_columns(db, schema)
    except (sqlite3.Error, StoreError) as exc:
        db.close()
        raise config.unusable(path, exc) from None
    return db


def _refuse_foreign_tables(db: sqlite3.Connection, config: StoreConfig) -> None:
    if config.own_tables is None:
        return
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    foreign = sorted(tables - config.own_tables)
    if foreign:
        raise StoreError(
            f"it holds other tables ({', '.join(foreign[:5])}): another program's database?"
        )


def columns(db: sqlite3.Connection, table: str) -> list[str]:
    """The column names of ``table`` in ``db`` (empty if there is no such table)."""
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def add_columns(db: sqlite3.Connection, migrations: Iterable[Migration]) -> None:
    """Add each migration's column to its table unless it is there already (so calling it
    again changes nothing). Old rows get the declaration's default."""
    for table, column, declaration in migrations:
        if not re.fullmatch(r"\w+", table) or not re.fullmatch(r"\w+", column):
            raise ValueError(f"not a plain table and column name: {table!r}, {column!r}")
        if column not in columns(db, table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


def check_columns(db: sqlite3.Connection, schema: str) -> None:
    """Raise :class:`StoreError` if a table of ``schema`` lacks one of its columns in ``db``
    (read from ``schema`` built in a throwaway in-memory database)."""
    with contextlib.closing(sqlite3.connect(MEMORY)) as memory:
        memory.executescript(schema)
        tables = [
            name
            for (name,) in memory.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if not name.startswith("sqlite_")
        ]
        expected = {table: columns(memory, table) for table in tables}
    for table, wanted in expected.items():
        present = set(columns(db, table))
        missing = [column for column in wanted if column not in present]
        if missing:
            raise StoreError(
                f"its table {table!r} lacks the columns {', '.join(missing)} "
                "(a database of another program?)"
            )


def check_version(
    db: sqlite3.Connection,
    path: str | Path,
    config: StoreConfig,
    table: str,
    version: str,
    *,
    write: bool,
) -> None:
    """Compare the ``schema`` row of ``table`` (a key-value table) with ``version``:
    another value raises :class:`StoreError`; a missing row is written (``write``, in its
    own transaction) or left for the store to write later."""
    try:
        row = db.execute(f"SELECT value FROM {table} WHERE key = 'schema'").fetchone()
    except sqlite3.Error as exc:
        raise config.unusable(path, exc) from None
    if row is None:
        if write:
            with transaction(db, path, config):
                db.execute(f"INSERT INTO {table} VALUES ('schema', ?)", (version,))
    elif row[0] != version:
        raise StoreError(
            f"{str(path)!r} is a {config.kind} database of another version: "
            f"schema {row[0]}, this version reads {version}"
        )


@contextlib.contextmanager
def transaction(
    db: sqlite3.Connection,
    path: str | Path,
    config: StoreConfig,
    lock: AbstractContextManager[Any] | None = None,
) -> Iterator[sqlite3.Connection]:
    """One transaction on ``db`` (holding ``lock``, if given, throughout): ``BEGIN
    IMMEDIATE`` on an autocommit connection (the write lock is taken at once, so two
    writers never deadlock), ``COMMIT`` when the block ends, ``ROLLBACK`` when it raises
    (the block's exception goes on; a SQLite failure in it, or in the commit, becomes
    :class:`StoreError`). The connection is yielded for the block's statements."""
    with lock if lock is not None else contextlib.nullcontext():
        autocommit = db.isolation_level is None
        if autocommit:
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise config.error(path, exc) from None
        try:
            yield db
        except sqlite3.Error as exc:
            _rollback(db)
            raise config.error(path, exc) from None
        except BaseException:
            _rollback(db)
            raise
        try:
            if autocommit:
                db.execute("COMMIT")
            else:
                db.commit()
        except (sqlite3.Error, StoreError) as exc:  # a full disk: leave no transaction open
            _rollback(db)
            if isinstance(exc, StoreError):
                raise
            raise config.error(path, exc) from None


def _rollback(db: sqlite3.Connection) -> None:
    """Roll back whatever is open; SQLite may have rolled back already (then it fails)."""
    with contextlib.suppress(sqlite3.Error, StoreError):
        if db.isolation_level is None:
            if db.in_transaction:
                db.execute("ROLLBACK")
        else:
            db.rollback()


class SQLiteStore:
    """What every store does with its connection ``db``: ``close()`` (idempotent; under
    the store's ``_lock`` when it has one) and the context manager that closes it."""

    db: sqlite3.Connection
    _lock: AbstractContextManager[Any] = contextlib.nullcontext()

    def close(self) -> None:
        """Close the database connection (again: nothing happens)."""
        with self._lock:
            self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
