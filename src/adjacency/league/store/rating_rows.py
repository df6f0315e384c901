"""The league's ratings and the aggregate tables kept from its games
(:class:`RatingsRepo`, on a :class:`~.database.LeagueDb`): reads of ``ratings``,
``current_ratings``, ``results`` and ``failures``, and their recomputations from the
stored games (what :mod:`.aggregates`' triggers must keep them equal to)."""

from __future__ import annotations

from typing import Any

from ...ratings.glicko import Glicko, rate_game
from ..rules import rate
from .aggregates import REBUILD
from .database import LeagueDb


class RatingsRepo:
    """Ratings, rating histories and the aggregates the public pages read. Thread-safe."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def _unrated(self) -> dict[int, Glicko]:
        """Every member of the file at the start rating, by id: where both the current
        ratings and their recomputation begin."""
        members = self.db.query("SELECT id FROM members ORDER BY id")
        return {int(row[0]): Glicko() for row in members}

    def ratings(self) -> dict[int, Glicko]:
        """Every member's current Glicko-2 rating (the start rating if unrated)."""
        current = self._unrated()
        rows = self.db.query(
            "SELECT r.member_id, r.rating, r.rd, r.volatility FROM ratings r "
            "JOIN (SELECT member_id, MAX(seq) AS seq FROM ratings GROUP BY member_id) last "
            "ON r.seq = last.seq"
        )
        for member_id, rating, rd, vol in rows:
            current[int(member_id)] = Glicko(float(rating), float(rd), float(vol))
        return current

    def history(
        self, member_id: int, points: int | None = None
    ) -> list[tuple[int, float, float, float]]:
        """``(game, rating, rd, time)`` after each of a member's rated games, oldest first;
        with ``points``, at most about that many, evenly spaced and ending with the
        latest (a chart cannot show two thousand points; its answer stays small)."""
        return self.rated_history(member_id, points)[0]

    def rated_history(
        self, member_id: int, points: int | None = None
    ) -> tuple[list[tuple[int, float, float, float]], int]:
        """:meth:`history` and how many of the member's games were rated, from one read
        of its rating rows' index (a member's page shows both)."""
        seqs = [
            int(row[0])
            for row in self.db.query(
                "SELECT seq FROM ratings WHERE member_id = ? ORDER BY seq", (member_id,)
            )
        ]  # the index alone: a few bytes a row
        rated = len(seqs)
        if points is not None and rated > points:
            step = -(-len(seqs) // max(1, points))
            seqs = seqs[::-1][::step][::-1]  # evenly spaced, the latest kept
        rows: list[tuple[Any, ...]] = []
        for start in range(0, len(seqs), 500):  # SQLite's bound on a statement's variables
            chunk = seqs[start : start + 500]
            rows += self.db.query(
                f"SELECT game_id, rating, rd, at FROM ratings WHERE seq IN "
                f"({', '.join('?' * len(chunk))}) ORDER BY seq",
                tuple(chunk),
            )
        return [(int(g), float(r), float(d), float(t)) for g, r, d, t in rows], rated

    # ----------------------------------------------------------- aggregates

    def current_ratings(self) -> dict[int, Glicko]:
        """The current rating of every member that has one (the others have the start
        rating :class:`Glicko`), from ``current_ratings`` (kept by a trigger)."""
        rows = self.db.query("SELECT member_id, rating, rd, volatility FROM current_ratings")
        return {int(m): Glicko(float(r), float(d), float(v)) for m, r, d, v in rows}

    def rated_count(self) -> int:
        """How many members have a rating (rows of ``current_ratings``, one per member)."""
        return int(self.db.query("SELECT COUNT(*) FROM current_ratings")[0][0])

    def rated_totals(self) -> dict[int, tuple[int, int, int]]:
        """Rated ``(wins, draws, losses)`` of every member with a rated game (``results``)."""
        rows = self.db.query(
            "SELECT member_id, SUM(wins), SUM(draws), SUM(losses) FROM results "
            "GROUP BY member_id HAVING SUM(wins) + SUM(draws) + SUM(losses) > 0"
        )
        return {int(m): (int(w), int(d), int(lost)) for m, w, d, lost in rows}

    def rated_results(self) -> list[tuple[int, int, float, int]]:
        """Every pair of members with rated games, once (smaller id first):
        ``(a, b, a's points, games)`` over their rated games."""
        rows = self.db.query(
            "SELECT member_id, opponent_id, wins + draws / 2.0, wins + draws + losses "
            "FROM results WHERE member_id < opponent_id AND wins + draws + losses > 0 "
            "ORDER BY member_id, opponent_id"
        )
        return [(int(a), int(b), float(p), int(n)) for a, b, p, n in rows]

    def opponents(self, member_id: int) -> list[tuple[str, int, int, int, int]]:
        """A member's finished games per opponent, rated or not, by opponent name:
        ``(name, games, points doubled, the member's moves, its clock milliseconds)``."""
        rows = self.db.query(
            "SELECT m.name, r.games, r.points2, r.moves, r.ms FROM results r "
            "JOIN members m ON m.id = r.opponent_id WHERE r.member_id = ? AND r.games > 0 "
            "ORDER BY m.name COLLATE BINARY",
            (member_id,),
        )
        return [(str(n), int(g), int(p), int(mv), int(ms)) for n, g, p, mv, ms in rows]

    def failures(self, member_id: int) -> dict[str, int]:
        """A member's losses not decided on the board, by termination (``failures``)."""
        rows = self.db.query(
            "SELECT termination, n FROM failures WHERE member_id = ? AND n > 0 "
            "ORDER BY termination",
            (member_id,),
        )
        return {str(t): int(n) for t, n in rows}

    def totals(self) -> dict[str, list[tuple[object, ...]]]:
        """The aggregate tables' rows as stored (without rows that count nothing), sorted:
        what :meth:`recompute_totals` must equal."""
        return {
            "results": self.db.query("SELECT * FROM results WHERE games != 0 ORDER BY 1, 2"),
            "failures": self.db.query("SELECT * FROM failures WHERE n != 0 ORDER BY 1, 2"),
            "current_ratings": self.db.query("SELECT * FROM current_ratings ORDER BY 1"),
        }

    def recompute_totals(self) -> dict[str, list[tuple[object, ...]]]:
        """The aggregate tables' rows recomputed from the stored games and ratings
        (:data:`~.aggregates.REBUILD`), sorted as :meth:`totals`."""
        return {table: sorted(self.db.query(query)) for table, query in REBUILD.items()}

    def recompute_ratings(self) -> dict[int, Glicko]:
        """Every member's rating recomputed from the stored finished games alone."""
        current = self._unrated()
        rows = self.db.query(
            "SELECT x_id, o_id, result, limited FROM games WHERE status='finished' "
            "AND rated_seq IS NOT NULL ORDER BY rated_seq"
        )
        for x_id, o_id, result, limited in rows:
            x_points = {"x": 1.0, "o": 0.0}.get(result or "", 0.5)
            step = rate if limited else rate_game
            current[x_id], current[o_id] = step(current[x_id], current[o_id], x_points)
        return current
