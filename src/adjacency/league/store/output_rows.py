"""The last output of a team's program at a failed move, kept in the league file (the
``outputs`` table of :mod:`.schema`): :class:`OutputsRepo`.

A program's prints never end its game: its standard error is drained and its last 64 KiB
kept (:data:`~adjacency.sandbox.process.OUTPUT_TAIL`). Where its check refused it, or a
failed move lost it a game, that tail is what its team needs beside the verdict's or the
game's few lines (the prints before the failed move, a trace the words shortened), so it
is kept here (a refused version's build folder being removed). Only the team and the
teacher read it. Each is at most :data:`MAX_BYTES`; a team keeps its :data:`KEPT`
newest, so its outputs take at most ``KEPT * MAX_BYTES`` of the file whatever it uploads
or however many games it loses.
"""

from __future__ import annotations

import time

from .database import LeagueDb

MAX_BYTES = 64 << 10
"""Bytes of a program's output kept: its last ones (as the sandbox keeps them)."""

KEPT = 24
"""Outputs a team keeps, the newest (at most 1.5 MiB)."""


def last_bytes(text: str, limit: int = MAX_BYTES) -> str:
    """The end of ``text`` that fits ``limit`` bytes of UTF-8, cut at a character.

    >>> last_bytes("añb", 2)
    'b'
    >>> last_bytes("añb", 3)
    'ñb'
    """
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[len(data) - limit :].decode("utf-8", "ignore")


class OutputsRepo:
    """The ``outputs`` table: a version's output at its check's failed move (game 0) and
    at each game it lost by a failed move, bounded per team."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def keep(self, member_id: int, submission_id: int, text: str, game_id: int = 0) -> bool:
        """Keep ``text`` (its last :data:`MAX_BYTES`) as the output of ``member_id``'s
        version ``submission_id`` at its check (``game_id`` 0) or in game ``game_id``,
        replacing one kept for it, then drop the team's oldest beyond :data:`KEPT`.
        Nothing is kept for an empty output: ``False``."""
        if not text:
            return False
        with self.db.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO outputs (submission_id, member_id, game_id, text, "
                "created) VALUES (?, ?, ?, ?, ?)",
                (submission_id, member_id, game_id, last_bytes(text), time.time()),
            )
            db.execute(
                "DELETE FROM outputs WHERE member_id = ?1 AND rowid NOT IN "
                "(SELECT rowid FROM outputs WHERE member_id = ?1 "
                "ORDER BY created DESC, submission_id DESC, game_id DESC LIMIT ?2)",
                (member_id, KEPT),
            )
        return True

    def output(self, submission_id: int, game_id: int = 0) -> str | None:
        """The output kept for version ``submission_id`` at its check (``game_id`` 0) or
        in game ``game_id``, or ``None``."""
        rows = self.db.query(
            "SELECT text FROM outputs WHERE submission_id = ? AND game_id = ?",
            (submission_id, game_id),
        )
        return str(rows[0][0]) if rows else None

    def kept(self, submission_ids: list[int]) -> set[tuple[int, int]]:
        """Which outputs of the versions ``submission_ids`` are kept: (version, game),
        game 0 being the check's."""
        rows = self.db.query_in(
            "SELECT submission_id, game_id FROM outputs WHERE submission_id IN ({marks})",
            submission_ids,
        )
        return {(int(s), int(g)) for s, g in rows}
