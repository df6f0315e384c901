"""The teacher's notes on teams (:class:`NotesRepo`, the ``team_notes`` table of
:mod:`.schema`): one text per member, written and read by the teacher alone (the admin
routes of :mod:`adjacency.league.routers.notes`), kept in the league file with its
backups. An empty note is no note: writing one deletes the row."""

from __future__ import annotations

import time

from .database import LeagueDb

MAX_NOTE = 4000
"""The longest note kept (characters)."""


class NotesRepo:
    """Notes per member. Thread-safe."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def note(self, member_id: int) -> tuple[str, float | None]:
        """The member's note and when it was written (``("", None)``: none)."""
        rows = self.db.query(
            "SELECT text, updated FROM team_notes WHERE member_id = ?", (member_id,)
        )
        return (str(rows[0][0]), float(rows[0][1])) if rows else ("", None)

    def write(self, member_id: int, text: str, now: float | None = None) -> float | None:
        """Keep ``text`` (its ends stripped, at most :data:`MAX_NOTE` characters) as the
        member's note, replacing the one before; an empty one deletes it. Returns when
        it was written (``None``: deleted)."""
        text = text.strip()[:MAX_NOTE]
        stamp = time.time() if now is None else now
        with self.db.transaction() as db:
            if not text:
                db.execute("DELETE FROM team_notes WHERE member_id = ?", (member_id,))
                return None
            db.execute(
                "INSERT INTO team_notes (member_id, text, updated) VALUES (?, ?, ?) "
                "ON CONFLICT (member_id) DO UPDATE SET text = excluded.text, "
                "updated = excluded.updated",
                (member_id, text, stamp),
            )
        return stamp

    def notes(self) -> dict[int, str]:
        """Every member's note, by member id."""
        return {int(m): str(t) for m, t in self.db.query("SELECT member_id, text FROM team_notes")}
