"""The shared SQLite helper (:mod:`adjacency.storage`): one connection configuration,
numbered migration steps that each run once (in one transaction with the new version),
transactions that commit or change nothing, an idempotent close, a
:class:`WrongDatabaseError` for a file that is not the store's (left untouched) and a
:class:`StoreError` (never a bare ``sqlite3.Error``) for a path that cannot be a
database."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjacency.arena import store as arena_store
from adjacency.core.errors import AdjacencyError, AdjacencyRuntimeError, StoreError
from adjacency.league import league_file as league_store
from adjacency.solving import store as solving_store
from adjacency.storage import (
    APPLICATION_IDS,
    MEMORY,
    Schema,
    SQLiteStore,
    Step,
    StoreConfig,
    WrongDatabaseError,
    add_columns,
    columns,
    open_store,
    statements,
    transaction,
)
from adjacency.tuning import store as tuning_store
from adjacency.web import store as web_store

TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
"""
SCHEMA = Schema((Step("meta and items", TABLES),))
TEST_ID = 0x54657374  # "Test"
AUTO = StoreConfig("test", application_id=TEST_ID)


def pragma(db: sqlite3.Connection, name: str) -> Any:
    return db.execute(f"PRAGMA {name}").fetchone()[0]


def names(path: Path) -> list[str]:
    """The stored item names, read by a second, plain connection."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [row[0] for row in db.execute("SELECT name FROM items ORDER BY id")]


def test_the_connection_has_the_shared_configuration(tmp_path: Path) -> None:
    db = open_store(tmp_path / "s.db", AUTO, SCHEMA)
    assert pragma(db, "journal_mode") == "wal"
    assert pragma(db, "synchronous") == 1  # NORMAL
    assert pragma(db, "busy_timeout") == 30000
    assert pragma(db, "foreign_keys") == 1
    assert db.isolation_level is None  # autocommit: transaction() opens BEGIN IMMEDIATE
    assert (pragma(db, "application_id"), pragma(db, "user_version")) == (TEST_ID, 1)
    assert columns(db, "items") == ["id", "name"]
    db.close()


def test_an_in_memory_database_needs_no_log() -> None:
    db = open_store(MEMORY, AUTO, SCHEMA)
    assert pragma(db, "journal_mode") == "memory"
    db.execute("INSERT INTO items (name) VALUES ('a')")
    assert db.execute("SELECT name FROM items").fetchall() == [("a",)]
    db.close()


def _threads_allowed(db: sqlite3.Connection) -> bool:
    outcome: list[bool] = []

    def use() -> None:
        try:
            db.execute("SELECT 1").fetchone()
            outcome.append(True)
        except (sqlite3.ProgrammingError, StoreError) as exc:  # the arena's are StoreErrors
            assert "same thread" in str(exc)
            outcome.append(False)

    thread = threading.Thread(target=use)
    thread.start()
    thread.join()
    return outcome == [True]


def _store_connection(name: str, path: Path) -> tuple[sqlite3.Connection, SQLiteStore]:
    opened: SQLiteStore
    if name == "arena":
        opened = arena_store.Store(path)
    elif name == "tuning":
        opened = tuning_store.TuneStore(path)
    elif name == "league":
        opened = league_store.LeagueStore(path)
    elif name == "solutions":
        opened = solving_store.SolutionsStore(path)
    else:
        opened = web_store.GameStore(path)
    return opened.db, opened


# Each store's connection: (synchronous, busy timeout ms, threads). The shared
# configuration (NORMAL, 30 s, one thread), except where a store's config says why.
SETTINGS = {
    "arena": (1, 30000, False),
    "tuning": (1, 30000, False),
    "league": (1, 30000, True),  # one connection shared by the server's threads
    "solutions": (2, 30000, False),  # FULL: an entry can cost hours
    "web": (1, 5000, True),  # a request holding the store's lock waits 5 s at most
}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_every_store_has_the_shared_connection_settings(tmp_path: Path, name: str) -> None:
    db, opened = _store_connection(name, tmp_path / f"{name}.db")
    with opened:
        synchronous, timeout, threads = SETTINGS[name]
        assert pragma(db, "journal_mode") == "wal"
        assert pragma(db, "foreign_keys") == 1
        assert db.isolation_level is None
        assert pragma(db, "synchronous") == synchronous
        assert pragma(db, "busy_timeout") == timeout
        assert _threads_allowed(db) == threads
        assert pragma(db, "user_version") >= 1
        assert pragma(db, "application_id") in APPLICATION_IDS.values()


OLD_ITEMS = "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)"
LATER = (
    ("items", "size", "INTEGER NOT NULL DEFAULT 0"),
    ("items", "note", "TEXT NOT NULL DEFAULT ''"),
    ("items", "owner", "TEXT"),
)
DEFAULTS = (0, "", None)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    released=st.integers(0, len(LATER)),
    rows=st.lists(st.text(min_size=1, max_size=8), max_size=6, unique=True),
)
def test_migration_adds_missing_columns_once_and_keeps_the_rows(
    tmp_path: Path, released: int, rows: list[str]
) -> None:
    """A database of any earlier release (the first table plus the columns added up to
    it) gets the later columns, with their defaults in old rows; opening it again
    changes nothing."""
    path = tmp_path / f"old-{released}-{len(rows)}-{abs(hash(tuple(rows)))}.db"
    with contextlib.closing(sqlite3.connect(path)) as old:
        old.execute(OLD_ITEMS)
        add_columns(old, LATER[:released])
        old.executemany("INSERT INTO items (name) VALUES (?)", [(r,) for r in rows])
        old.commit()
    for _ in range(2):  # the second open is the idempotence check
        db = open_store(path, AUTO, Schema((Step("items", TABLES, LATER),)))
        assert columns(db, "items") == ["id", "name", "size", "note", "owner"]
        stored = db.execute("SELECT name, size, note, owner FROM items ORDER BY id").fetchall()
        assert stored == [(r, *DEFAULTS) for r in rows]
        db.close()
    path.unlink()


def test_a_table_lacking_a_schema_column_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "foreign.db"
    with contextlib.closing(sqlite3.connect(path)) as other:
        other.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)")
        other.commit()
    before = path.read_bytes()
    with pytest.raises(WrongDatabaseError, match=r"table 'items' lacks the columns name"):
        open_store(path, AUTO, SCHEMA)
    assert path.read_bytes() == before


def test_foreign_tables_are_refused_before_anything_changes(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with contextlib.closing(sqlite3.connect(path)) as other:
        other.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY)")
        other.commit()
    before = path.read_bytes()
    with pytest.raises(
        WrongDatabaseError,
        match=r"cannot use .*other\.db.* holds tables that no test database has \(accounts\)",
    ):
        open_store(path, AUTO, SCHEMA)
    assert path.read_bytes() == before  # not switched to WAL, no tables added
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def _set_header(path: Path, app_id: int, version: int) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA application_id={app_id}")
        db.execute(f"PRAGMA user_version={version}")


@pytest.mark.parametrize(
    ("app_id", "version", "reason"),
    [
        (TEST_ID, 2, r"written by a newer version of adjacency \(schema version 2; this "
         r"version reads up to 1\)"),
        (APPLICATION_IDS["league"], 2, "it is an adjacency league database"),
        (12345, 0, r"another program's database \(application id 12345, version 0\)"),
        (0, 7, r"another program's database \(application id 0, version 7\)"),
    ],
)  # fmt: skip
def test_a_file_of_another_kind_or_a_newer_version_is_refused_untouched(
    tmp_path: Path, app_id: int, version: int, reason: str
) -> None:
    path = tmp_path / "x.db"
    _set_header(path, app_id, version)
    before = path.read_bytes()
    with pytest.raises(WrongDatabaseError, match=reason) as caught:
        open_store(path, AUTO, SCHEMA)
    assert isinstance(caught.value, AdjacencyError)  # bad input: exit status 2
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.db"]


def _steps(log: list[str], fail_at: int | None = None) -> Schema:
    def run(number: int) -> Step:
        def record(db: sqlite3.Connection) -> None:
            log.append(f"step {number}")
            if number == fail_at:
                raise RuntimeError(f"step {number} fails")

        return Step(f"step {number}", f"INSERT INTO meta VALUES ('step {number}', 'x')", run=record)

    return Schema((Step("tables", TABLES, run=lambda db: log.append("step 1")), run(2), run(3)))


def _meta_keys(path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [key for (key,) in db.execute("SELECT key FROM meta ORDER BY key")]


def test_numbered_steps_run_once_each_in_order(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    log: list[str] = []
    first = Schema(_steps(log).steps[:2])
    open_store(path, AUTO, first).close()
    assert log == ["step 1", "step 2"] and pragma_of(path, "user_version") == 2
    open_store(path, AUTO, first).close()  # at its version: nothing runs
    assert log == ["step 1", "step 2"]
    open_store(path, AUTO, _steps(log)).close()  # a later version adds only its step
    assert log == ["step 1", "step 2", "step 3"] and pragma_of(path, "user_version") == 3
    assert _meta_keys(path) == ["step 2", "step 3"]


def test_a_failed_step_leaves_the_file_at_its_version(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    log: list[str] = []
    open_store(path, AUTO, Schema(_steps(log).steps[:1])).close()
    with pytest.raises(RuntimeError, match="step 3 fails"):
        open_store(path, AUTO, _steps(log, fail_at=3))
    assert log == ["step 1", "step 2", "step 3"]
    assert pragma_of(path, "user_version") == 1 and _meta_keys(path) == []  # step 2 undone


def pragma_of(path: Path, name: str) -> Any:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return pragma(db, name)


def test_statements_keep_a_trigger_whole() -> None:
    script = """
    CREATE TABLE t (x);
    CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN
        UPDATE t SET x = x + 1; DELETE FROM t WHERE x > 9;
    END;
    CREATE INDEX t_x ON t(x)
    """
    found = statements(script)
    assert len(found) == 3 and found[1].startswith("CREATE TRIGGER") and found[1].endswith("END;")


def test_a_transaction_commits_or_changes_nothing(tmp_path: Path) -> None:
    config = AUTO
    path = tmp_path / "t.db"
    db = open_store(path, config, SCHEMA)
    with transaction(db, path, config) as tx:
        tx.execute("INSERT INTO items (name) VALUES ('kept')")
    assert names(path) == ["kept"]

    with pytest.raises(KeyError), transaction(db, path, config) as tx:
        tx.execute("INSERT INTO items (name) VALUES ('lost')")
        raise KeyError("the caller's own failure goes on unchanged")
    assert names(path) == ["kept"] and not db.in_transaction

    unique = r"test database .*t\.db.*UNIQUE constraint failed"
    with pytest.raises(StoreError, match=unique), transaction(db, path, config) as tx:
        tx.execute("INSERT INTO items (name) VALUES ('lost too')")
        tx.execute("INSERT INTO items (name) VALUES ('kept')")
    assert names(path) == ["kept"] and not db.in_transaction

    with transaction(db, path, config) as tx:  # the connection is still usable
        tx.execute("INSERT INTO items (name) VALUES ('after')")
    assert names(path) == ["kept", "after"]
    db.close()


class InterruptedAfter:
    """A connection whose ``statement`` runs and then a Ctrl-C lands, before the next
    bytecode of the caller: what a SIGINT between two statements does."""

    def __init__(self, db: sqlite3.Connection, statement: str) -> None:
        self.db, self.statement = db, statement

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        cursor = self.db.execute(sql, *args)
        if sql == self.statement:
            raise KeyboardInterrupt
        return cursor


@pytest.mark.parametrize("statement", ["BEGIN IMMEDIATE", "INSERT INTO items (name) VALUES ('x')"])
def test_a_ctrl_c_anywhere_in_a_transaction_leaves_none_open(
    tmp_path: Path, statement: str
) -> None:
    """The run that records an interrupted experiment opens a transaction right after
    the interrupt: whether the Ctrl-C lands just after ``BEGIN`` or in the block, the
    interrupted one is rolled back, its writes gone, and the next one begins."""
    path = tmp_path / "i.db"
    db = open_store(path, AUTO, SCHEMA)
    interrupted: Any = InterruptedAfter(db, statement)
    with pytest.raises(KeyboardInterrupt), transaction(interrupted, path, AUTO) as tx:
        tx.execute("INSERT INTO items (name) VALUES ('x')")
    assert not db.in_transaction and names(path) == []
    with transaction(db, path, AUTO) as tx:
        tx.execute("INSERT INTO items (name) VALUES ('after')")
    assert names(path) == ["after"]
    db.close()


def test_a_refused_write_is_a_store_error_and_leaves_no_transaction(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    db = open_store(path, AUTO, SCHEMA)
    db.execute("PRAGMA query_only = ON")  # what a read-only file does to writes
    readonly = "attempt to write a readonly database"
    with pytest.raises(StoreError, match=readonly), transaction(db, path, AUTO) as tx:
        tx.execute("INSERT INTO items (name) VALUES ('x')")
    assert not db.in_transaction
    db.close()


def test_the_lock_is_held_for_the_whole_transaction(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    db = open_store(path, AUTO, SCHEMA)
    lock = threading.Lock()
    with transaction(db, path, AUTO, lock):
        assert lock.locked()
    assert not lock.locked()
    with pytest.raises(ValueError), transaction(db, path, AUTO, lock):
        raise ValueError
    assert not lock.locked()
    db.close()


class _Items(SQLiteStore):
    def __init__(self, path: Path) -> None:
        self.db = open_store(path, AUTO, SCHEMA)


def test_close_is_idempotent_and_the_context_manager_closes(tmp_path: Path) -> None:
    store = _Items(tmp_path / "c.db")
    store.close()
    store.close()
    with _Items(tmp_path / "c.db") as items:
        items.db.execute("SELECT 1")
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        items.db.execute("SELECT 1")


def _not_a_database(tmp_path: Path) -> Path:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    return junk


def _directory(tmp_path: Path) -> Path:
    folder = tmp_path / "folder.db"
    folder.mkdir()
    return folder


def _below_a_file(tmp_path: Path) -> Path:
    plain = tmp_path / "plain.txt"
    plain.write_text("a file, not a folder")
    return plain / "x.db"


def _missing_folder(tmp_path: Path) -> Path:
    return tmp_path / "no" / "such" / "folder" / "x.db"


BAD_PATHS: dict[str, Callable[[Path], Path]] = {
    "not a database": _not_a_database,
    "a directory": _directory,
    "below a file": _below_a_file,
    "in a missing folder": _missing_folder,
}


@pytest.mark.parametrize("bad", sorted(BAD_PATHS))
def test_a_path_that_cannot_be_a_database_is_refused(tmp_path: Path, bad: str) -> None:
    """A file that is not SQLite is bad input (:class:`WrongDatabaseError`, left as it
    was); a path that cannot hold a database is a run-time failure (:class:`StoreError`)."""
    path = BAD_PATHS[bad](tmp_path)
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(
        (StoreError, WrongDatabaseError), match=r"cannot use .* as a test database: "
    ) as caught:
        open_store(path, AUTO, SCHEMA)
    assert not isinstance(caught.value, sqlite3.Error)
    if bad == "not a database":
        assert isinstance(caught.value, AdjacencyError)
        assert "it is not a SQLite database" in str(caught.value)
        assert path.read_bytes() == before
    else:
        assert isinstance(caught.value, AdjacencyRuntimeError)


@pytest.mark.parametrize("name", sorted(SETTINGS))
@pytest.mark.parametrize("bad", sorted(set(BAD_PATHS) - {"in a missing folder"}))
def test_every_store_refuses_a_bad_path(tmp_path: Path, name: str, bad: str) -> None:
    """(A missing folder is created by the web store, so it is left out here.)"""
    path = BAD_PATHS[bad](tmp_path)
    kind = WrongDatabaseError if bad == "not a database" else StoreError
    with pytest.raises(kind, match=r"cannot use .* as a \w+ database"):
        _store_connection(name, path)


def test_old_error_names_are_the_one_store_error() -> None:
    assert arena_store.StoreError is StoreError
    assert solving_store.SolutionsStoreError is StoreError


def test_connections_opening_a_new_file_at_once_run_each_step_once(tmp_path: Path) -> None:
    """Each connection checks the version again under the write lock, so a step that
    cannot run twice (a second insert of the same key fails) runs once, and every
    connection opens: none reads the id and the version from two sides of another's
    upgrade, and none is refused while another switches the new file to its log mode.
    Ten new files, as one alone often opens without meeting the race."""
    schema = Schema(
        (Step("tables", TABLES), Step("a row", "INSERT INTO meta VALUES ('once', 'x')"))
    )
    for attempt in range(10):
        path = tmp_path / f"race-{attempt}.db"
        assert _open_at_once(path, schema, 6) == []
        assert _meta_keys(path) == ["once"] and pragma_of(path, "user_version") == 2


def _open_at_once(path: Path, schema: Schema, count: int) -> list[BaseException]:
    """What ``count`` threads opening ``path`` at the same moment raised."""
    failures: list[BaseException] = []
    start = threading.Barrier(count)

    def open_once() -> None:
        start.wait()
        try:
            open_store(path, AUTO, schema).close()
        except BaseException as exc:  # returned
            failures.append(exc)

    threads = [threading.Thread(target=open_once) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures
