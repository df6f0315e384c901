"""An event's games not decided on the board, as the teacher's list of events shows
them: each game, who lost it, how it ended and the whole reason (a failed program's own
output included: the teacher reads every detail whole, a team its own, anyone else the
public words, :func:`adjacency.league.http.auth.details_for`).

A class event of thirty teams can hold hundreds of such games (a bot that crashes on
every move loses them all); the list keeps the newest :data:`MOST` and says how many
there are in all.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..events.event_store import BOTH_ABSENT, DECIDED
from ..league_file import LeagueStore

MOST = 20
"""The most failures listed per event (the newest; the count is of them all)."""


@dataclass(frozen=True)
class Failure:
    """A game of the event that a failure decided: its id (``/watch/ID`` shows it), its
    round (from 1), its sides, how it ended and the stored detail, whole."""

    game: int
    round: int
    x: str
    o: str
    termination: str
    detail: str


def failures(league: LeagueStore, event_id: int, most: int = MOST) -> tuple[list[Failure], int]:
    """The event's newest ``most`` games ended by anything but the board (a time
    forfeit, an illegal move, a crash or disconnection, an absence), newest first, and
    how many there are in all."""
    where = (
        "FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
        "JOIN members x ON x.id = g.x_id JOIN members o ON o.id = g.o_id "
        f"WHERE b.event_id = ? AND {DECIDED} "
        f"AND (g.termination != 'normal' OR g.detail_code = '{BOTH_ABSENT}')"
    )
    (total,) = league.database.query(f"SELECT COUNT(*) {where}", (event_id,))[0]
    rows = league.database.query(
        f"SELECT g.id, b.round, x.name, o.name, COALESCE(g.termination, ''), g.detail {where} "
        "ORDER BY g.id DESC LIMIT ?",
        (event_id, most),
    )
    listed = [
        Failure(int(g), int(r) + 1, str(x), str(o), str(t), str(d)) for g, r, x, o, t, d in rows
    ]
    return listed, int(total)
