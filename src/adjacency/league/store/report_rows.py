"""Similarity reports kept as records (:class:`ReportsRepo`, the ``similarity_records``
and ``similarity_marks`` tables of :mod:`.schema`): per event, the report the teacher
saved last (when, the fingerprints' version it was made with, its threshold and its
listed pairs, each with the versions compared and its best file share), and the
teacher's mark on each pair: ``reviewed``, ``cleared`` or ``flagged``, with a note.
Saving a report again replaces the record; the marks stay with their pairs."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Literal

from .database import LeagueDb
from .records import LeagueError

Mark = Literal["reviewed", "cleared", "flagged"]
"""What the teacher decided about a pair."""
MAX_NOTE = 1000
"""The longest note on a pair kept (characters)."""


@dataclass(frozen=True)
class Record:
    """An event's saved report: when, the prints' version, the threshold, its pairs
    (``a``, ``b``, ``a_version``, ``b_version``, ``best``)."""

    made: float
    prints: str
    threshold: float
    pairs: list[dict[str, Any]]


class ReportsRepo:
    """Saved reports and their marks. Thread-safe."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def save(
        self, event_id: int, prints: str, threshold: float, pairs: list[dict[str, Any]]
    ) -> Record:
        """Keep the report as the event's record (replacing the one before)."""
        made = time.time()
        with self.db.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO similarity_records "
                "(event_id, made, prints, threshold, pairs) VALUES (?, ?, ?, ?, ?)",
                (event_id, made, prints, threshold, json.dumps(pairs)),
            )
        return Record(made, prints, threshold, pairs)

    def record(self, event_id: int) -> Record | None:
        """The event's record, or ``None`` when none was saved."""
        rows = self.db.query(
            "SELECT made, prints, threshold, pairs FROM similarity_records WHERE event_id = ?",
            (event_id,),
        )
        if not rows:
            return None
        made, prints, threshold, pairs = rows[0]
        return Record(float(made), str(prints), float(threshold), json.loads(pairs))

    def mark(self, event_id: int, a: str, b: str, mark: Mark, note: str) -> float:
        """Mark the record's pair ``a``, ``b`` (in either order) with ``note``; when.
        :class:`LeagueError` when the event has no record or it lists no such pair."""
        found = self.record(event_id)
        if found is None:
            raise LeagueError("save the report first: a mark is kept on a saved record's pair")
        listed = {(p["a"], p["b"]) for p in found.pairs}
        if (a, b) not in listed:
            a, b = b, a
        if (a, b) not in listed:
            raise LeagueError(f"the saved report lists no pair of {a} and {b}")
        at = time.time()
        with self.db.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO similarity_marks (event_id, a, b, mark, note, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (event_id, a, b, mark, " ".join(note.split())[:MAX_NOTE], at),
            )
        return at

    def marks(self, event_id: int) -> dict[tuple[str, str], tuple[str, str, float]]:
        """The event's marks: ``(mark, note, when)`` by pair."""
        rows = self.db.query(
            "SELECT a, b, mark, note, at FROM similarity_marks WHERE event_id = ?", (event_id,)
        )
        return {(str(a), str(b)): (str(m), str(n), float(t)) for a, b, m, n, t in rows}
