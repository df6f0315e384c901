"""An event's boards and games as stored (:class:`EventBoards`, a part of
:class:`~.event_store.EventsRepo`): the boards of its rounds, the league pairs that
belong to events, each pair's state, and the event's decided games as
:mod:`.event_standings` sees them.

Contract: reads only, each one query (no transaction, nothing written), so the runner,
the pages and the exports may call them at any time; a game counts in its event exactly
when :data:`~.event_rows.DECIDED` says so, the same rule in every query here.
"""

from __future__ import annotations

from ...core.stand_ins import record_counts
from ..store.database import LeagueDb
from .event_rows import ABSENCES, BOTH_ABSENT, DECIDED, StoredBoard
from .event_standings import EventGame, absentees


class EventBoards:
    """The queries of the events' boards and of their games."""

    db: LeagueDb
    """The league file (its ``event_boards``, ``pairs`` and ``games`` tables)."""

    def boards(self, event_id: int) -> list[StoredBoard]:
        """Every stored board of the event, by round."""
        rows = self.db.query(
            "SELECT id, round, a_id, b_id, pair_id FROM event_boards WHERE event_id = ? "
            "ORDER BY round, id",
            (event_id,),
        )
        return [
            StoredBoard(int(r[0]), int(r[1]), int(r[2]), None if r[3] is None else int(r[3]),
                        None if r[4] is None else int(r[4]))
            for r in rows
        ]  # fmt: skip

    def event_pairs(self) -> set[int]:
        """The league pairs that belong to events (the ladder does not play them)."""
        rows = self.db.query("SELECT pair_id FROM event_boards WHERE pair_id IS NOT NULL")
        return {int(r[0]) for r in rows}

    def unrated_pairs(self) -> set[int]:
        """The league pairs of unrated events."""
        rows = self.db.query(
            "SELECT b.pair_id FROM event_boards b JOIN events e ON e.id = b.event_id "
            "WHERE e.rated = 0 AND b.pair_id IS NOT NULL"
        )
        return {int(r[0]) for r in rows}

    def pair_state(self, event_id: int) -> dict[int, tuple[int, bool, int]]:
        """Per pair of the event: ``(finished games, a game in play, opening)``."""
        rows = self.db.query(
            "SELECT p.id, p.finished, p.opening, EXISTS (SELECT 1 FROM games g "
            "WHERE g.pair_id = p.id AND g.status = 'playing') "
            "FROM pairs p JOIN event_boards b ON b.pair_id = p.id "
            "WHERE b.event_id = ?",
            (event_id,),
        )
        return {int(r[0]): (int(r[1]), bool(r[3]), int(r[2])) for r in rows}

    def games(self, event_id: int) -> list[EventGame]:
        """The event's finished games, as :mod:`.event_standings` sees them, and the games
        both teams lost by their absence (stored aborted, detail :data:`BOTH_ABSENT`:
        no result for the league, a loss for both in the event), then its forfeits
        (:meth:`forfeits`)."""
        return [*self._decided(event_id), *self.forfeits(event_id)]

    def forfeits(self, event_id: int) -> list[EventGame]:
        """The event's games never played because a team withdrew after their round was
        paired (:attr:`.event_standings.EventGame.forfeit`): each leg of a board with a
        withdrawn member that is neither decided nor in play, by round and leg. A forfeit
        win for the member still in; both withdrawn: a loss for both. Nothing is stored:
        the forfeits follow the withdrawals, so a withdrawal undone before the next round
        (its games then played) leaves none. A board paired after a withdrawal never
        holds the withdrawn member (the runner pairs without it)."""
        rows = self.db.query(
            "SELECT b.round, b.a_id, b.b_id, "
            "(SELECT GROUP_CONCAT(g.leg) FROM games g WHERE g.pair_id = b.pair_id "
            f"AND ({DECIDED} OR g.status = 'playing')) "
            "FROM event_boards b WHERE b.event_id = ?1 AND b.b_id IS NOT NULL "
            "AND EXISTS (SELECT 1 FROM event_members m WHERE m.event_id = ?1 "
            "AND m.withdrawn = 1 AND m.member_id IN (b.a_id, b.b_id)) ORDER BY b.round, b.id",
            (event_id,),
        )
        withdrawn = {
            int(r[0])
            for r in self.db.query(
                "SELECT member_id FROM event_members WHERE event_id = ? AND withdrawn = 1",
                (event_id,),
            )
        }
        out = []
        for rnd, a, b, legs in rows:
            taken = {int(leg) for leg in str(legs).split(",")} if legs is not None else set()
            for leg in (0, 1):
                if leg in taken:
                    continue
                x, o = (int(a), int(b)) if leg == 0 else (int(b), int(a))
                both = x in withdrawn and o in withdrawn
                x_points = 0.0 if both or x in withdrawn else 1.0
                out.append(
                    EventGame(int(rnd), int(a), int(b), leg, x_points, both_lost=both, forfeit=True)
                )
        return out

    def _decided(self, event_id: int) -> list[EventGame]:
        """The event's decided games as stored (:data:`~.event_rows.DECIDED`); those an
        absence decided are forfeits (:attr:`.event_standings.EventGame.forfeit`)."""
        rows = self.db.query(
            "SELECT b.round, b.a_id, b.b_id, g.leg, g.result, g.x_score, g.o_score, "
            "g.detail_code FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
            f"WHERE b.event_id = ? AND {DECIDED} ORDER BY g.id",
            (event_id,),
        )
        out = []
        for rnd, a, b, leg, result, xs, os_, code in rows:
            both = code == BOTH_ABSENT
            x_points = 0.0 if both else {"x": 1.0, "o": 0.0}.get(result or "", 0.5)
            margin = 0 if xs is None or os_ is None else int(xs) - int(os_)
            # A game an absence decided was never played: a forfeit (module's rules).
            absent = code in ABSENCES
            out.append(
                EventGame(
                    int(rnd), int(a), int(b), int(leg), x_points, 0 if absent else margin,
                    absent, both, forfeit=absent,
                )
            )  # fmt: skip
        return out

    def stand_ins(self, event_id: int) -> dict[int, int]:
        """Each member's stand-in moves in the event's finished games (moves its client
        said were not its bot's own: the records' ``StandIns`` tags); only the records
        that have the tag are read."""
        rows = self.db.query(
            "SELECT g.x_id, g.o_id, g.record FROM games g "
            "JOIN event_boards b ON b.pair_id = g.pair_id "
            "WHERE b.event_id = ? AND g.status = 'finished' AND instr(g.record, '[StandIns ') > 0",
            (event_id,),
        )
        total: dict[int, int] = {}
        for x, o, record in rows:
            for member, count in zip((int(x), int(o)), record_counts(str(record)), strict=True):
                total[member] = total.get(member, 0) + count
        return total

    def absentees(self, event_id: int) -> set[int]:
        """The event's members who missed its last games they were to play
        (:func:`.event_standings.absentees`): paused while their bot is away."""
        return absentees(self.games(event_id))

    def stamp(self, event_id: int) -> tuple[int, int]:
        """What changes when the event's results do: ``(finished games, withdrawn
        members)``, from its own boards' pairs and members (a cache's key; never the
        league's other games)."""
        row = self.db.query(
            "SELECT (SELECT COALESCE(SUM(p.finished), 0) FROM pairs p "
            "JOIN event_boards b ON b.pair_id = p.id WHERE b.event_id = ?1), "
            "(SELECT COUNT(*) FROM event_members WHERE event_id = ?1 AND withdrawn = 1)",
            (event_id,),
        )
        return int(row[0][0]), int(row[0][1])

    def game_rounds(self, event_id: int) -> list[tuple[int, int]]:
        """``(game id, round index from 0)`` of each finished game of the event, oldest
        first."""
        rows = self.db.query(
            "SELECT g.id, b.round FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
            f"WHERE b.event_id = ? AND {DECIDED} ORDER BY g.id",
            (event_id,),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    def game_ids(self, event_id: int, status: str = "finished") -> list[int]:
        """The ids of the event's league games of ``status``, oldest first."""
        rows = self.db.query(
            "SELECT g.id FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
            "WHERE b.event_id = ? AND g.status = ? ORDER BY g.id",
            (event_id, status),
        )
        return [int(r[0]) for r in rows]

    def finished_legs(self, event_id: int) -> list[tuple[int, int, str | None, int, int, int]]:
        """``(pair, leg, result, game id, board's a, board's b)`` of each finished game of
        the event, by leg; a game both teams lost by their absence has result ``none``."""
        rows = self.db.query(
            "SELECT g.pair_id, g.leg, g.result, g.id, b.a_id, b.b_id, g.detail_code "
            "FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
            f"WHERE b.event_id = ? AND {DECIDED} ORDER BY g.leg",
            (event_id,),
        )
        return [
            (int(p), int(leg), "none" if c == BOTH_ABSENT else None if r is None else str(r),
             int(g), int(a), int(b))
            for p, leg, r, g, a, b, c in rows
        ]  # fmt: skip
