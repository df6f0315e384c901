"""Each version's report card, kept across restarts (the ``report_cards`` table of
:mod:`.schema`): :class:`CardsRepo`.

A card costs up to a minute of engine review per version
(:mod:`adjacency.league.grading.report_card`); kept only in the server's memory, every
restart made every card again, on the cores the games should have. So each card made is
stored here with its ``basis``, the digest of everything it was made from (its games as
read, the review's settings: :func:`~adjacency.league.grading.report_card.card_basis`),
and is served again only for that same basis: a version that has played a game since,
or had one voided, has another basis and its card is made again (and replaces this one,
so a version holds one row).
"""

from __future__ import annotations

import json
import time
from typing import Any

from .database import LeagueDb


class CardsRepo:
    """The ``report_cards`` table: a version's last card and what it was made from."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def keep(self, submission_id: int, basis: str, card: dict[str, Any]) -> None:
        """Keep ``card`` (JSON data) as version ``submission_id``'s, made from ``basis``;
        the card kept before for that version, whatever its basis, is replaced."""
        with self.db.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO report_cards (submission_id, basis, card, made)"
                " VALUES (?, ?, ?, ?)",
                (submission_id, basis, json.dumps(card, separators=(",", ":")), time.time()),
            )

    def card(self, submission_id: int, basis: str) -> dict[str, Any] | None:
        """Version ``submission_id``'s card made from exactly ``basis``; ``None`` when
        none was kept, or the one kept was made from something else (it is stale)."""
        rows = self.db.query(
            "SELECT card FROM report_cards WHERE submission_id = ? AND basis = ?",
            (submission_id, basis),
        )
        if not rows:
            return None
        card: dict[str, Any] = json.loads(rows[0][0])
        return card
