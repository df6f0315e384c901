"""What is read of a version again and again, made once and kept (the ``digests`` and
``corpus`` tables of :mod:`.schema`): :class:`DigestsRepo`.

A version's code as the pages show it (its kept files highlighted) and its fingerprints
(the similarity report's input) cost seconds of CPU to make from its zip; they are made
once, when the version is accepted (:mod:`adjacency.league.grading.version_digest`), and stored
here as the bytes their maker packed, so that a request reads them instead of making
them again. The ``corpus`` holds code that is not a team's version: the template the
teacher uploads once per league (the course's skeleton, left out of every pair) and
earlier years' projects the class is compared against, each with its zip and prints.
"""

from __future__ import annotations

import time
from typing import Literal

from .database import LeagueDb
from .records import LeagueError

Kind = Literal["template", "earlier"]
"""A corpus entry: the league's template (one at most) or an earlier project."""

TEMPLATE = "template"
"""The name of the template's row in ``corpus``."""


class DigestsRepo:
    """The ``digests`` and ``corpus`` tables: kept once, read many times."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def keep(self, submission_id: int, prints: bytes, code: bytes) -> None:
        """Keep a version's packed ``prints`` and ``code`` (again: replaced)."""
        with self.db.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO digests (submission_id, prints, code, made)"
                " VALUES (?, ?, ?, ?)",
                (submission_id, prints, code, time.time()),
            )

    def prints(self, submission_id: int) -> bytes | None:
        """A version's packed prints, ``None`` when none were kept."""
        rows = self.db.query("SELECT prints FROM digests WHERE submission_id = ?", (submission_id,))
        return bytes(rows[0][0]) if rows else None

    def code(self, submission_id: int) -> bytes | None:
        """A version's packed code, ``None`` when none was kept."""
        rows = self.db.query("SELECT code FROM digests WHERE submission_id = ?", (submission_id,))
        return bytes(rows[0][0]) if rows else None

    def add(self, name: str, kind: Kind, data: bytes, prints: bytes) -> None:
        """Keep a corpus entry (the template replaces the one before; an earlier project
        of a name already kept is refused with :class:`~.records.LeagueError`)."""
        with self.db.transaction() as db:
            if kind == "template":
                db.execute("DELETE FROM corpus WHERE kind = 'template'")
            elif db.execute("SELECT 1 FROM corpus WHERE name = ?", (name,)).fetchone():
                raise LeagueError(f"the corpus has an entry named {name!r} already")
            db.execute(
                "INSERT INTO corpus (name, kind, data, prints, created) VALUES (?, ?, ?, ?, ?)",
                (name, kind, data, prints, time.time()),
            )

    def entries(self, kind: Kind) -> dict[str, bytes]:
        """The corpus entries of ``kind``: name to packed prints, by name."""
        rows = self.db.query(
            "SELECT name, prints FROM corpus WHERE kind = ? ORDER BY name", (kind,)
        )
        return {str(name): bytes(prints) for name, prints in rows}

    def data(self, name: str) -> bytes:
        """A corpus entry's zip; :class:`~.records.LeagueError` for none of that name."""
        (data,) = self.db.row(
            "SELECT data FROM corpus WHERE name = ?",
            (name,),
            f"the corpus has no entry named {name!r}",
        )
        return bytes(data)

    def remove(self, name: str) -> bool:
        """Drop a corpus entry; whether there was one."""
        with self.db.transaction() as db:
            return bool(db.execute("DELETE FROM corpus WHERE name = ?", (name,)).rowcount)
