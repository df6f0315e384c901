"""The shared SQLite helper (:mod:`adjacency.storage`): the connection each store asks for,
migrations that add columns once, transactions that commit or change nothing, an
idempotent close, and a :class:`StoreError` (never a bare ``sqlite3.Error``) for a file
that cannot be a database."""

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
from adjacency.core.errors import AdjacencyRuntimeError, StoreError
from adjacency.league import store as league_store
from adjacency.solving import store as solving_store
from adjacency.storage import (
    MEMORY,
    SQLiteStore,
    StoreConfig,
    add_columns,
    check_version,
    columns,
    open_store,
    transaction,
)
from adjacency.tuning import store as tuning_store
from adjacency.web import store as web_store

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
"""
AUTO = StoreConfig("test")
DEFERRED = StoreConfig("test", timeout=5.0, autocommit=False, synchronous=None)


def pragma(db: sqlite3.Connection, name: str) -> Any:
    return db.execute(f"PRAGMA {name}").fetchone()[0]


def names(path: Path) -> list[str]:
    """The stored item names, read by a second, plain connection."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [row[0] for row in db.execute("SELECT name FROM items ORDER BY id")]


@pytest.mark.parametrize("config", [AUTO, DEFERRED], ids=["autocommit", "deferred"])
def test_the_connection_has_wal_and_the_configured_settings(
    tmp_path: Path, config: StoreConfig
) -> None:
    db = open_store(tmp_path / "s.db", config, SCHEMA)
    assert pragma(db, "journal_mode") == "wal"
    assert pragma(db, "synchronous") == (1 if config.synchronous == "NORMAL" else 2)
    assert pragma(db, "busy_timeout") == int(config.timeout * 1000)
    assert pragma(db, "foreign_keys") == int(config.foreign_keys)
    assert db.isolation_level == (None if config.autocommit else "DEFERRED")
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


# Each store's connection as it was before the shared helper (read from the code of
# that time): (synchronous, foreign keys, busy timeout ms, isolation level, threads).
SETTINGS_BEFORE = {
    "arena": (1, 1, 30000, None, False),
    "tuning": (1, 0, 30000, None, False),
    "league": (1, 1, 30000, None, True),
    "solutions": (2, 0, 30000, "DEFERRED", False),
    "web": (1, 0, 5000, "DEFERRED", True),
}


@pytest.mark.parametrize("name", sorted(SETTINGS_BEFORE))
def test_each_store_keeps_its_connection_settings(tmp_path: Path, name: str) -> None:
    db, opened = _store_connection(name, tmp_path / f"{name}.db")
    with opened:
        synchronous, foreign_keys, timeout, isolation, threads = SETTINGS_BEFORE[name]
        assert pragma(db, "journal_mode") == "wal"
        assert pragma(db, "synchronous") == synchronous
        assert pragma(db, "foreign_keys") == foreign_keys
        assert pragma(db, "busy_timeout") == timeout
        # The old deferred stores passed "" (the same as "DEFERRED").
        assert db.isolation_level == isolation
        assert _threads_allowed(db) == threads


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
        db = open_store(path, AUTO, SCHEMA, LATER)
        assert columns(db, "items") == ["id", "name", "size", "note", "owner"]
        stored = db.execute("SELECT name, size, note, owner FROM items ORDER BY id").fetchall()
        assert stored == [(r, *DEFAULTS) for r in rows]
        db.close()
    path.unlink()


def test_a_table_lacking_a_schema_column_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "foreign.db"
    with contextlib.closing(sqlite3.connect(path)) as other:
        other.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)")
    with pytest.raises(StoreError, match=r"table 'items' lacks the columns name"):
        open_store(path, AUTO, SCHEMA, require_columns=True)


def test_foreign_tables_are_refused_before_anything_changes(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with contextlib.closing(sqlite3.connect(path)) as other:
        other.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY)")
        other.commit()
    before = path.read_bytes()
    config = StoreConfig("test", own_tables=frozenset({"meta", "items"}))
    with pytest.raises(
        StoreError, match=r"cannot use .*other\.db.* holds other tables \(accounts\)"
    ):
        open_store(path, config, SCHEMA)
    assert path.read_bytes() == before  # not switched to WAL, no tables added
    assert not Path(str(path) + "-wal").exists()


@pytest.mark.parametrize("config", [AUTO, DEFERRED], ids=["autocommit", "deferred"])
def test_a_transaction_commits_or_changes_nothing(tmp_path: Path, config: StoreConfig) -> None:
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


def test_check_version_writes_a_missing_row_and_refuses_another(tmp_path: Path) -> None:
    path = tmp_path / "v.db"
    db = open_store(path, AUTO, SCHEMA)
    check_version(db, path, AUTO, "meta", "2", write=False)
    assert db.execute("SELECT * FROM meta").fetchall() == []
    check_version(db, path, AUTO, "meta", "2", write=True)
    check_version(db, path, AUTO, "meta", "2", write=True)
    assert db.execute("SELECT * FROM meta").fetchall() == [("schema", "2")]
    with pytest.raises(StoreError, match=r"another version: schema 2, this version reads 3"):
        check_version(db, path, AUTO, "meta", "3", write=True)
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
def test_a_path_that_cannot_be_a_database_is_a_store_error(tmp_path: Path, bad: str) -> None:
    path = BAD_PATHS[bad](tmp_path)
    with pytest.raises(StoreError, match=r"cannot use .* as a test database: ") as caught:
        open_store(path, AUTO, SCHEMA)
    assert not isinstance(caught.value, sqlite3.Error)
    assert isinstance(caught.value, AdjacencyRuntimeError)


@pytest.mark.parametrize("name", sorted(SETTINGS_BEFORE))
@pytest.mark.parametrize("bad", sorted(set(BAD_PATHS) - {"in a missing folder"}))
def test_every_store_refuses_a_bad_path_with_a_store_error(
    tmp_path: Path, name: str, bad: str
) -> None:
    """(A missing folder is created by the web store, so it is left out here.)"""
    path = BAD_PATHS[bad](tmp_path)
    with pytest.raises(StoreError, match=r"cannot use .* as a \w+ database"):
        _store_connection(name, path)


def test_old_error_names_are_the_one_store_error() -> None:
    assert arena_store.StoreError is StoreError
    assert solving_store.SolutionsStoreError is StoreError
