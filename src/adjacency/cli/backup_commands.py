"""The ``league backup`` and ``league restore`` subcommands: copy a served league to a
file, and put such a copy back (docs/deploy.md, "Backups")."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .league_options import DB


def register(sub: Any) -> None:
    """Add ``backup`` and ``restore`` to the ``league`` command's subparsers ``sub``."""
    backup = sub.add_parser(
        "backup",
        help="copy the league to a file, while it is served (SQLite's online backup)",
        description="Copy the league in --db to --out as one consistent, checked SQLite "
        "file, while a server may be serving it (docs/deploy.md).",
    )
    DB.add(backup)
    backup.add_argument("--out", type=Path, required=True, help="the backup file to write")
    backup.add_argument(
        "--force", action="store_true", help="replace --out if it is an earlier backup"
    )
    backup.set_defaults(handler=run_backup)

    restore = sub.add_parser(
        "restore",
        help="put a backup in place of the league (stop its server first)",
        description="Copy the league of --backup into --db. Refused while a process (a "
        "server) has --db open (docs/deploy.md).",
    )
    restore.add_argument("--backup", type=Path, required=True, help="the backup file")
    DB.add(restore)
    restore.add_argument("--force", action="store_true", help="replace the league that --db holds")
    restore.set_defaults(handler=run_restore)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def run_backup(args: argparse.Namespace) -> int:
    """``adjacency league backup --db L --out FILE``: copy the league and say what the copy
    holds (:func:`adjacency.league.store.backup.backup`); returns 0. Bad input is one error line,
    status 2, with nothing written."""
    from ..league.store.backup import backup

    done = backup(args.db, args.out, force=args.force)
    print(
        f"Backed up {str(args.db)!r} to {str(done.path)!r}: "
        f"{_plural(done.games, 'finished game')}, {_plural(done.members, 'member')}, "
        f"{done.size:,} bytes (integrity check ok)."
    )
    return 0


def run_restore(args: argparse.Namespace) -> int:
    """``adjacency league restore --backup FILE --db L``: put the backup in place
    (:func:`adjacency.league.store.backup.restore`); returns 0. Bad input, or a league open in
    another process, is one error line, status 2, with nothing written."""
    from ..league.store.backup import restore

    done = restore(args.backup, args.db, force=args.force)
    print(
        f"Restored {str(args.backup)!r} into {str(done.path)!r}: "
        f"{_plural(done.games, 'finished game')}, {_plural(done.members, 'member')}."
    )
    return 0
