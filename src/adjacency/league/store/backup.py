"""A league's backup while it is served, and its restore (``adjacency league backup``,
``adjacency league restore``; docs/deploy.md).

:func:`backup` copies the league with SQLite's online backup API
(:meth:`sqlite3.Connection.backup`) in one step: the copy is one consistent snapshot of
the file as it stood when the copy began (every game finished by then, with its
ratings: they are written in one transaction), and in write-ahead-log mode the server
goes on writing meanwhile (a reader never blocks the writer). The copy is written to a
temporary file beside ``out``, switched out of WAL mode (one self-contained file to
carry away), checked with ``PRAGMA integrity_check`` and only then renamed to ``out``,
so ``out`` is either the whole checked copy or not there.

:func:`restore` copies a backup into the league's file through the same API (so a
write-ahead log left beside the file is never replayed onto the restored copy), and
refuses while a process has the league open: a server must be stopped first.

Bad input is :class:`~adjacency.league.store.records.LeagueError` or
:class:`~adjacency.storage.WrongDatabaseError` (CLI status 2) with nothing written: a
missing league, a file that is not a league's, an ``out`` that exists (``force`` replaces
only an earlier backup, a league file), the league itself as ``out``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import StoreError
from ...storage import check_file
from .records import LeagueError
from .schema import CONFIG, STORE_SCHEMA


@dataclass(frozen=True)
class BackupSummary:
    """What a backup or a restore copied."""

    path: Path
    """The file written."""
    games: int
    """Finished games in the copy."""
    members: int
    """Members (bots, house bots and people) in the copy."""
    size: int
    """The copy's size in bytes."""


def _connect(path: Path, what: str) -> sqlite3.Connection:
    """A connection to the league file ``path`` (which must exist: connecting would create
    it), checked to be a league's and to hold one; only reads. ``what`` names the file's
    role in messages (``--db``, ``--backup``)."""
    if not path.exists():
        raise LeagueError(f"{what}: no such file {str(path)!r}")
    if not path.is_file():
        raise LeagueError(f"{what}: {str(path)!r} is not a file")
    try:
        db = sqlite3.connect(path, timeout=CONFIG.timeout, isolation_level=None)
    except sqlite3.Error as exc:
        raise CONFIG.unusable(path, exc) from None
    try:
        check_file(db, path, CONFIG, STORE_SCHEMA)
        try:
            settled = db.execute("SELECT 1 FROM meta WHERE key = 'settings'").fetchone()
        except sqlite3.Error:
            settled = None
        if not settled:
            raise LeagueError(f"{what}: {str(path)!r} holds no league")
    except BaseException:
        db.close()
        raise
    return db


def _summary(db: sqlite3.Connection, path: Path) -> BackupSummary:
    (games,) = db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()
    (members,) = db.execute("SELECT COUNT(*) FROM members").fetchone()
    return BackupSummary(path, int(games), int(members), path.stat().st_size)


def _check_integrity(db: sqlite3.Connection, path: Path) -> None:
    rows = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
    if rows != ["ok"]:
        raise StoreError(f"the copy {str(path)!r} failed SQLite's integrity check: {rows[:3]}")


def _same_file(a: Path, b: Path) -> bool:
    with contextlib.suppress(OSError):
        return a.samefile(b)
    return False


def backup(db_path: str | Path, out: str | Path, *, force: bool = False) -> BackupSummary:
    """Copy the league in ``db_path`` to ``out`` while a server may be serving it (the
    module's docstring); returns what the copy holds.

    Refused, with nothing written: ``db_path`` missing or not a league's file (another
    store's, another program's, not SQLite, a newer version's, or one holding no league
    yet); ``out`` being ``db_path``; ``out`` existing, unless ``force`` and ``out`` is an
    earlier backup (a league file), which the new copy then replaces; ``out``'s folder
    missing. A copy that fails its integrity check is
    :class:`~adjacency.core.errors.StoreError` and is not kept."""
    source_path, out = Path(db_path), Path(out)
    if out.exists() or out.is_symlink():
        if _same_file(out, source_path):
            raise LeagueError(f"--out {str(out)!r} is the league itself: name another file")
        if not force:
            raise LeagueError(f"--out {str(out)!r} exists: --force replaces an earlier backup")
        if not out.is_file():
            raise LeagueError(f"--out {str(out)!r} is not a file")
        _connect(out, "--out").close()  # only an earlier backup is replaced
    if not out.parent.is_dir():
        raise LeagueError(f"--out: no such folder {str(out.parent)!r}")
    with contextlib.closing(_connect(source_path, "--db")) as source:
        partial = out.with_name(f".{out.name}.{os.getpid()}.partial")
        partial.unlink(missing_ok=True)
        try:
            with contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as copy:
                try:
                    source.backup(copy)  # one step: one consistent snapshot
                    copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                except sqlite3.Error as exc:
                    raise StoreError(f"backup of {str(source_path)!r} failed: {exc}") from None
                _check_integrity(copy, partial)
                summary = _summary(copy, partial)
            with open(partial, "rb") as written:
                os.fsync(written.fileno())
            os.replace(partial, out)
        finally:
            partial.unlink(missing_ok=True)
    return BackupSummary(out, summary.games, summary.members, out.stat().st_size)


SHM_DMS = 128
"""The byte of a WAL database's ``-shm`` file on which every connection that has the
file open holds a shared lock (SQLite's unix VFS: ``UNIX_SHM_DMS``, 120 + 8)."""


def in_use(db_path: Path) -> bool:
    """Whether some process has the WAL-mode league ``db_path`` open (a server, an admin
    command): it holds a shared lock on the ``-shm`` file's :data:`SHM_DMS` byte, so an
    exclusive lock on that byte cannot be had. Only tries the lock, at once released. A
    symlink is followed (SQLite opens the file behind it, and keeps the ``-shm`` beside
    that file), so no other name of a served file escapes the check."""
    names = {db_path, db_path.resolve()}  # SQLite opens a symlink's target: its -shm
    return any(_shm_locked(name.with_name(name.name + "-shm")) for name in names)


def _shm_locked(shm: Path) -> bool:
    """Whether a process holds the shared lock on the ``-shm`` file ``shm`` (none there:
    no)."""
    try:
        fd = os.open(shm, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS)
    except OSError:
        return True
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, SHM_DMS)
        return False
    finally:
        os.close(fd)


def restore(backup_path: str | Path, db_path: str | Path, *, force: bool = False) -> BackupSummary:
    """Put the league of the backup ``backup_path`` in place of ``db_path``; returns what
    it holds.

    Refused, with nothing written: ``backup_path`` missing, not a league's file or failing
    its integrity check; ``db_path`` open in some process (:func:`in_use`: stop the server
    first); ``db_path`` holding a league, unless ``force`` (the league it held is
    replaced); ``db_path`` existing but not a league's file. A league of an earlier
    version is restored as it is and upgraded when it is next opened."""
    source_path, target = Path(backup_path), Path(db_path)
    if _same_file(source_path, target):
        raise LeagueError("--backup and --db are the same file")
    with contextlib.closing(_connect(source_path, "--backup")) as source:
        _check_integrity(source, source_path)
        if target.exists():
            if in_use(target):
                raise LeagueError(
                    f"--db {str(target)!r} is open in another process (a running server?): "
                    "stop it, then restore"
                )
            if not force:
                raise LeagueError(
                    f"--db {str(target)!r} holds a league: --force replaces it with the backup"
                )
            _connect(target, "--db").close()  # only a league is replaced
        elif not target.parent.is_dir():
            raise LeagueError(f"--db: no such folder {str(target.parent)!r}")
        with contextlib.closing(sqlite3.connect(target, isolation_level=None)) as copy:
            try:
                source.backup(copy)
            except sqlite3.Error as exc:
                raise StoreError(f"restore into {str(target)!r} failed: {exc}") from None
            _check_integrity(copy, target)
            return _summary(copy, target)
