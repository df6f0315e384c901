"""Pictures of a team's program, kept in the league file (the ``pictures`` table of
:mod:`.schema`): :class:`PicturesRepo`.

A program played through its own window is seen as its team saw it: the picture of its
input window that its dry run took, kept here for a refused version (whose build folder
is not kept; an accepted version's is read from its build), and the picture of its board
at a failure, in its check (a refusal) or in a rated game (a loss). Only the team and the
teacher see them. Each is a PNG of at most :data:`MAX_BYTES`; a team keeps its
:data:`KEPT` newest, the oldest dropped as a new one comes, so a team's pictures take at
most ``KEPT * MAX_BYTES`` of the file whatever it uploads or loses.
"""

from __future__ import annotations

import time
from typing import Literal

from ...hosting.picture import kept_png
from .database import LeagueDb

What = Literal["window", "check", "game"]
"""What a picture shows: a version's input window (its dry run), its board at the failed
move of its check, its board at the failed move of a game."""

MAX_BYTES = 256 << 10
"""Largest picture kept, in bytes (a window's PNG is some 10 to 60 KiB)."""

KEPT = 24
"""Pictures a team keeps, the newest (at most 6 MiB)."""

PNG = b"\x89PNG\r\n\x1a\n"
"""How every PNG file begins: anything else is not kept."""


class PicturesRepo:
    """The ``pictures`` table: kept per version (and game), bounded per team."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def keep(
        self, member_id: int, submission_id: int, what: What, png: bytes, game_id: int = 0
    ) -> bool:
        """Keep ``png`` as ``member_id``'s picture of ``what`` for its version
        ``submission_id`` (and ``game_id``, a game's; 0 for the others), replacing the
        one kept so, then drop the team's oldest beyond :data:`KEPT`. What is kept is
        the picture decoded and drawn again (:func:`~adjacency.hosting.picture.clean_png`),
        never the sender's bytes. A picture that is no PNG, is refused by that (too many
        pixels, a decoded size too large, unreadable), or is larger than
        :data:`MAX_BYTES` either way, is not kept: ``False``."""
        if not png.startswith(PNG) or len(png) > MAX_BYTES:
            return False
        cleaned = kept_png(png)
        if cleaned is None or len(cleaned) > MAX_BYTES:
            return False
        png = cleaned
        with self.db.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO pictures "
                "(member_id, submission_id, what, game_id, png, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (member_id, submission_id, what, game_id, png, time.time()),
            )
            db.execute(
                "DELETE FROM pictures WHERE member_id = ?1 AND id NOT IN "
                "(SELECT id FROM pictures WHERE member_id = ?1 ORDER BY id DESC LIMIT ?2)",
                (member_id, KEPT),
            )
        return True

    def picture(self, submission_id: int, what: What, game_id: int = 0) -> bytes | None:
        """The picture of ``what`` kept for version ``submission_id`` (and ``game_id``)."""
        rows = self.db.query(
            "SELECT png FROM pictures WHERE submission_id = ? AND what = ? AND game_id = ?",
            (submission_id, what, game_id),
        )
        return bytes(rows[0][0]) if rows else None

    def kept(self, submission_ids: list[int]) -> set[tuple[int, What, int]]:
        """Which pictures are kept for the versions ``submission_ids``: (version, what,
        game) for each."""
        rows = self.db.query_in(
            "SELECT submission_id, what, game_id FROM pictures WHERE submission_id IN ({marks})",
            submission_ids,
        )
        return {(int(s), w, int(g)) for s, w, g in rows}
