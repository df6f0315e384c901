"""The SQLite plumbing shared by the project's five stores: open, check, migrate, transact, close.

The arena's results (:mod:`adjacency.arena.store`), tuning checkpoints
(:mod:`adjacency.tuning.store`), the league (:mod:`adjacency.league.league_file`), the
solved-game table (:mod:`adjacency.solving.store`) and the web server's games
(:mod:`adjacency.web.store`) each keep one SQLite file. They share one way of using it:

- **One connection configuration** (:class:`StoreConfig`): write-ahead logging (a
  committed row survives a crash; readers and one writer share the file),
  ``synchronous=NORMAL``, foreign keys enforced, a 30 s busy timeout, and SQLite's
  autocommit with :func:`transaction` opening ``BEGIN IMMEDIATE`` (the write lock is
  taken at once, so two writers never deadlock). A store departs from it only where its
  config says why (the solved-game table syncs every commit; the web server waits 5 s).
- **One migration scheme** (:class:`Schema`): a store's tables are a list of numbered
  steps (:class:`Step`); ``PRAGMA user_version`` is the number of steps a file has had,
  and ``PRAGMA application_id`` says which store's file it is
  (:data:`APPLICATION_IDS`). :func:`open_store` applies the missing steps in one
  transaction with the new version, so a crash during an upgrade leaves the file as it
  was. Step 1 of every store is its layout as the code before numbered versions left it
  (``CREATE TABLE IF NOT EXISTS`` and the columns added since, :func:`add_columns`), so
  it also upgrades any file written before: its version is 0 and its tables are there.
- **A file is checked before anything is written to it**: :func:`open_store` reads the
  file's header and tables first and refuses, with
  :class:`WrongDatabaseError` (bad input: CLI exit status 2) and the file byte for byte
  unchanged, a file that is not SQLite, another store's file (another application id,
  or, for a file from before numbered versions, tables or columns that are not this
  store's), another program's, or one of a newer version than the code reads. Only then
  is the file switched to WAL and upgraded;
- :func:`transaction` is one transaction: committed when its block ends, rolled back
  when the block raises, so a failed operation changes nothing;
- :class:`SQLiteStore` gives a store ``close()`` (idempotent) and the context manager.

Every other SQLite failure leaves here as :class:`~adjacency.core.errors.StoreError` (a
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
import functools
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core.errors import AdjacencyError, StoreError
from .system.closing import Closing

MEMORY = ":memory:"
"""The path of a throwaway in-memory database (no file, so no log and no pragmas)."""

Migration = tuple[str, str, str]
"""A column added after a table's first release: ``(table, column, declaration)``."""


def _tag(text: str) -> int:
    return int.from_bytes(text.encode("ascii"), "big")


APPLICATION_IDS: dict[str, int] = {
    "results": _tag("AdjA"),
    "tuning": _tag("AdjT"),
    "league": _tag("AdjL"),
    "solutions": _tag("AdjS"),
    "games": _tag("AdjW"),
}
"""``PRAGMA application_id`` of each store's files, by the store's kind (its
:attr:`StoreConfig.kind`): four ASCII letters, ``Adj`` and the store's initial (``W``:
the web server's games). SQLite keeps it in the file's header, so a file given to the
wrong store is named for what it is without reading a table."""


class WrongDatabaseError(AdjacencyError):
    """A file given as a store's database that is not one: not SQLite, another store's
    or another program's file, or one written by a newer version. Bad input (CLI exit
    status 2): the file is left byte for byte as it was."""


@dataclass(frozen=True)
class StoreConfig:
    """How one store uses its SQLite file: the shared configuration (the module's
    docstring) and, where a store departs from it, the reason in the store's config."""

    kind: str
    """What the file is, for messages (``results`` in "cannot use 'x.db' as a results
    database") and its :data:`APPLICATION_IDS` entry."""
    timeout: float = 30.0
    """Seconds a statement waits for another process's lock before it fails."""
    check_same_thread: bool = True
    """``False`` for a connection shared by a server's threads (behind the store's lock)."""
    synchronous: str = "NORMAL"
    """``PRAGMA synchronous``: ``NORMAL`` (with WAL, durable at the next checkpoint and
    safe from corruption) or ``FULL`` (durable at each commit, even across a power cut)."""
    integrity_hint: str = ""
    """Appended to the message of a constraint failure (what probably caused it)."""
    application_id: int | None = None
    """``PRAGMA application_id`` of the store's files: :data:`APPLICATION_IDS` of
    :attr:`kind` when ``None``."""

    @property
    def app_id(self) -> int:
        """The store's application id (:attr:`application_id` or the kind's)."""
        if self.application_id is not None:
            return self.application_id
        return APPLICATION_IDS[self.kind]

    def error(self, path: str | Path, exc: BaseException) -> StoreError:
        """The :class:`StoreError` for a failed operation on an open database."""
        hint = self.integrity_hint if isinstance(exc, sqlite3.IntegrityError) else ""
        return StoreError(f"{self.kind} database {str(path)!r}: {exc}{hint}")

    def unusable(self, path: str | Path, reason: object) -> StoreError:
        """The :class:`StoreError` for a file that cannot be opened as this store."""
        return StoreError(f"cannot use {str(path)!r} as a {self.kind} database: {reason}")

    def wrong(self, path: str | Path, reason: object) -> WrongDatabaseError:
        """The :class:`WrongDatabaseError` for a file that is not this store's."""
        return WrongDatabaseError(f"cannot use {str(path)!r} as a {self.kind} database: {reason}")


@dataclass(frozen=True)
class Step:
    """One numbered migration step of a store's file: statements, columns added to
    existing tables, and code, applied in that order inside the upgrade's transaction."""

    does: str
    """What the step changes, in a few words (the store's docstring lists its steps)."""
    sql: str = ""
    """SQL statements separated by ``;`` (triggers included), run one by one."""
    columns: tuple[Migration, ...] = ()
    """Columns added unless there already (:func:`add_columns`)."""
    run: Callable[[sqlite3.Connection], None] | None = None
    """Code run last on the connection (a rebuild of derived rows, say)."""


@dataclass(frozen=True)
class Schema:
    """A store's tables as numbered steps: a file at version ``n`` has had ``steps[:n]``.

    ``steps[0]`` is the layout the code before numbered versions wrote, made idempotent
    (``CREATE ... IF NOT EXISTS`` and :attr:`Step.columns`), so it upgrades such a file
    (version 0 with tables) as well as creating a new one. A later step runs exactly
    once per file and need not be idempotent. Never change a released step: add one."""

    steps: tuple[Step, ...]
    legacy: Callable[[sqlite3.Connection], str | None] | None = None
    """For a file from before numbered versions whose tables are this store's: why it
    still cannot be upgraded (a version row of its own saying another version), or
    ``None``. It only reads."""
    strays: tuple[str, ...] = ()
    """Tables that another store of the code before numbered versions created in this
    store's files before refusing them (the results tables ``plan`` and ``runs`` that
    ``adjacency report`` or ``match --db`` left in a league file): a file of version 0
    holding them empty beside tables of this store is this store's still, and the
    upgrade drops them, in this order, before step 1. A stray table with rows, or in a
    file without this store's tables, is another program's: refused."""

    @property
    def version(self) -> int:
        """The version this code writes: the number of steps."""
        return len(self.steps)

    @functools.cached_property
    def first_tables(self) -> dict[str, frozenset[str]]:
        """Each table the steps create, with the columns every file from before numbered
        versions has in it: for a table of step 1, its columns less the ones step 1 adds;
        for a later one, none. What a file of version 0 must match to be this store's."""
        first = self.steps[0]
        added: dict[str, set[str]] = {}
        for table, column, _ in first.columns:
            added.setdefault(table, set()).add(column)
        with contextlib.closing(sqlite3.connect(MEMORY)) as memory:
            memory.executescript(first.sql)
            known = {
                table: frozenset(columns(memory, table)) - added.get(table, set())
                for table in _tables(memory)
            }
            for step in self.steps[1:]:
                memory.executescript(step.sql)
            return {table: known.get(table, frozenset()) for table in _tables(memory)}


def open_store(
    path: str | Path,
    config: StoreConfig,
    schema: Schema,
    *,
    factory: type[sqlite3.Connection] = sqlite3.Connection,
) -> sqlite3.Connection:
    """Connect to ``path`` (created if missing) with the shared configuration, check that
    the file is this store's, then bring it to ``schema``'s version. ``factory`` is the
    connection class.

    The check only reads: a file that is not this store's raises
    :class:`WrongDatabaseError` with the file byte for byte unchanged (no log left
    beside it). A directory, a path that cannot be created or written, or a failed
    upgrade raises :class:`StoreError`. The connection is closed on either."""
    try:
        db = sqlite3.connect(
            path,
            timeout=config.timeout,
            isolation_level=None,
            check_same_thread=config.check_same_thread,
            factory=factory,
        )
    except sqlite3.Error as exc:
        raise config.unusable(path, exc) from None
    try:
        version = check_file(db, path, config, schema)
        try:
            if str(path) != MEMORY:
                _write_ahead(db, config.timeout)
                _read(db, f"PRAGMA synchronous={config.synchronous}")
            _read(db, "PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            raise config.unusable(path, exc) from None
        if version < schema.version:
            _upgrade(db, path, config, schema)
    except BaseException:
        db.close()
        raise
    return db


def _write_ahead(db: sqlite3.Connection, timeout: float) -> None:
    """Put the file in write-ahead-log mode, waiting up to ``timeout`` seconds for other
    connections. Leaving rollback mode takes the file's exclusive lock, and SQLite
    answers "database is locked" at once, without its busy handler, when another
    connection opening the same new file holds it, so the switch is retried here."""
    deadline = time.monotonic() + timeout
    pause = 0.001
    while True:
        try:
            _read(db, "PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY
            if not busy or time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)


def check_file(
    db: sqlite3.Connection, path: str | Path, config: StoreConfig, schema: Schema
) -> int:
    """The version of the file open on ``db`` if it can be ``config``'s store (0: a new
    file, or one from before numbered versions); otherwise :class:`WrongDatabaseError`
    saying what it is. Only reads, all in one read transaction (the caller's, or its own):
    read one by one, the id and the version could come from either side of another
    connection's upgrade (id 0 from before it, version 2 from after it)."""
    own = not db.in_transaction
    try:
        if own:
            _read(db, "BEGIN")
        try:
            return _check_file(db, path, config, schema)
        finally:
            if own and db.in_transaction:
                _read(db, "COMMIT")
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB:
            raise config.wrong(path, "it is not a SQLite database") from None
        raise config.unusable(path, exc) from None


def _check_file(
    db: sqlite3.Connection, path: str | Path, config: StoreConfig, schema: Schema
) -> int:
    """:func:`check_file` inside its read transaction."""
    app_id = int(_read(db, "PRAGMA application_id")[0][0])
    version = int(_read(db, "PRAGMA user_version")[0][0])
    tables = _tables(db)
    if app_id == config.app_id:
        if version > schema.version:
            raise config.wrong(
                path,
                f"it was written by a newer version of adjacency (schema version {version}; "
                f"this version reads up to {schema.version})",
            )
        return version
    kinds = {number: kind for kind, number in APPLICATION_IDS.items()}
    if app_id in kinds:
        raise config.wrong(path, f"it is an adjacency {kinds[app_id]} database")
    if app_id != 0 or version != 0:
        raise config.wrong(
            path,
            f"it is another program's database (application id {app_id}, version {version})",
        )
    if tables:
        reason = _not_first_layout(db, tables, config, schema)
        if reason is not None:
            raise config.wrong(path, reason)
    return 0


def _not_first_layout(
    db: sqlite3.Connection, tables: list[str], config: StoreConfig, schema: Schema
) -> str | None:
    """Why a file from before numbered versions is not this store's, or ``None``."""
    first = schema.first_tables
    ours = any(table in first for table in tables)
    other = [
        table
        for table in tables
        if table not in first and not (ours and table in schema.strays and _empty(db, table))
    ]
    if other:
        named = ", ".join(other[:5]) + (", ..." if len(other) > 5 else "")
        return (
            f"it holds tables that no {config.kind} database has ({named}): "
            "another store's or another program's database?"
        )
    for table in (table for table in tables if table in first):
        missing = sorted(first[table] - set(columns(db, table)))
        if missing:
            return (
                f"its table {table!r} lacks the columns {', '.join(missing)}: "
                "another store's or another program's database?"
            )
    return None if schema.legacy is None else schema.legacy(db)


def _upgrade(db: sqlite3.Connection, path: str | Path, config: StoreConfig, schema: Schema) -> None:
    """Apply the steps the file lacks and write the new version, in one transaction
    (checked again under the write lock: another process may have upgraded it)."""
    with transaction(db, path, config):
        version = check_file(db, path, config, schema)
        if version == 0:  # checked: any stray table is empty
            for table in schema.strays:
                db.execute(f'DROP TABLE IF EXISTS "{table}"')
        for step in schema.steps[version:]:
            for statement in statements(step.sql):
                db.execute(statement)
            add_columns(db, step.columns)
            if step.run is not None:
                step.run(db)
        db.execute(f"PRAGMA application_id={config.app_id}")
        db.execute(f"PRAGMA user_version={schema.version}")


def statements(script: str) -> list[str]:
    """The statements of an SQL script (``;``-separated, triggers' bodies kept whole), so
    they run one by one inside a transaction (:meth:`sqlite3.Connection.executescript`
    would commit it first)."""
    found: list[str] = []
    current = ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \t\n;"):
                found.append(current.strip())
            current = ""
    return found


def _read(db: sqlite3.Connection, sql: str) -> list[Any]:
    """``sql``'s rows through the plain connection class (a store's own class may turn
    failures into :class:`StoreError`, hiding SQLite's error code)."""
    return sqlite3.Connection.execute(db, sql).fetchall()


def _empty(db: sqlite3.Connection, table: str) -> bool:
    return not _read(db, f'SELECT 1 FROM "{table}" LIMIT 1')


def _tables(db: sqlite3.Connection) -> list[str]:
    return [
        name
        for (name,) in _read(db, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        if not name.startswith("sqlite_")
    ]


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


@contextlib.contextmanager
def transaction(
    db: sqlite3.Connection,
    path: str | Path,
    config: StoreConfig,
    lock: AbstractContextManager[Any] | None = None,
) -> Iterator[sqlite3.Connection]:
    """One transaction on ``db`` (an autocommit connection of :func:`open_store`; holding
    ``lock``, if given, throughout): ``BEGIN IMMEDIATE`` (the write lock is taken at once,
    so two writers never deadlock), ``COMMIT`` when the block ends, ``ROLLBACK`` when it
    raises (the block's exception goes on; a SQLite failure in it, or in the commit,
    becomes :class:`StoreError`). The connection is yielded for the block's statements.

    Whatever ends it, no transaction of its own stays open: a Ctrl-C (``KeyboardInterrupt``
    lands between any two bytecodes, also between ``BEGIN`` and the block or during the
    commit) rolls it back too, so the caller's next transaction, such as the one that
    records the interrupted run, can begin."""
    with lock if lock is not None else contextlib.nullcontext():
        was_open = db.in_transaction
        try:
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")  # a full disk fails here: rolled back below
            except sqlite3.Error as exc:
                raise config.error(path, exc) from None
        finally:
            if not was_open:
                _rollback(db)


def _rollback(db: sqlite3.Connection) -> None:
    """Roll back whatever is open; SQLite may have rolled back already (then it fails)."""
    with contextlib.suppress(sqlite3.Error, StoreError):
        if db.in_transaction:
            db.execute("ROLLBACK")


class SQLiteStore(Closing):
    """What every store does with its connection ``db``: ``close()`` (idempotent; under
    the store's ``_lock`` when it has one) and the context manager that closes it."""

    db: sqlite3.Connection
    _lock: AbstractContextManager[Any] = contextlib.nullcontext()

    def close(self) -> None:
        """Close the database connection (again: nothing happens)."""
        with self._lock:
            self.db.close()
