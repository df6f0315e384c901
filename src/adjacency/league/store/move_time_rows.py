"""Each hosted move's seconds, kept in the league file (the ``move_times`` table of
:mod:`.schema`): :class:`MoveTimesRepo`.

A hosted program's move is charged what the program did, never what the machine took
from it (:mod:`adjacency.hosting.move_clock`): its CPU time, the time it chose to idle,
and, apart, the time it waited for a CPU the machine gave to other work. Those three
figures of every move a team's program made in a game, with what its clock was charged,
are kept here, so that a team, its teacher and a benchmark can see that a loaded machine
changed none of its verdicts: a game's every move (:meth:`MoveTimesRepo.of_game`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .database import LeagueDb


@dataclass(frozen=True)
class MoveSeconds:
    """One hosted move's seconds: its ``ply`` (0 the game's first), the member whose
    program made it, its ``cpu``, ``idle`` (its own time computing nothing) and
    ``waited`` (for a CPU the machine gave to other work, never charged) seconds, and
    what its clock was ``charged``."""

    ply: int
    member_id: int
    cpu: float
    idle: float
    waited: float
    charged: float


class MoveTimesRepo:
    """The ``move_times`` table: the seconds of each hosted move, by game and ply."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def keep(self, game_id: int, seconds: MoveSeconds) -> None:
        """Keep ``seconds`` as game ``game_id``'s move at its ply (replacing one kept for
        that ply: a move asked again)."""
        with self.db.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO move_times (game_id, ply, member_id, cpu, idle, "
                "waited, charged) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seconds.ply,
                    seconds.member_id,
                    seconds.cpu,
                    seconds.idle,
                    seconds.waited,
                    seconds.charged,
                ),
            )

    def of_game(self, game_id: int) -> list[MoveSeconds]:
        """Game ``game_id``'s hosted moves' seconds, by ply (a move of a person or of a
        connected bot has none)."""
        rows = self.db.query(
            "SELECT ply, member_id, cpu, idle, waited, charged FROM move_times "
            "WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [
            MoveSeconds(int(p), int(m), float(c), float(i), float(w), float(g))
            for p, m, c, i, w, g in rows
        ]
