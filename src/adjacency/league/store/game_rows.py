"""The league's pairs and games (:class:`GamesRepo`, on a :class:`~.database.LeagueDb`):
the tables ``pairs`` and ``games``, and the ``ratings`` rows a game's end writes.

Durability contract: a game's end, its record and both players' new ratings are
written in one transaction (:meth:`GamesRepo.finish_game`), so after any crash
(``kill -9``) the stored ratings are exactly a recomputation from the stored finished
games (:meth:`.rating_rows.RatingsRepo.recompute_ratings`). Games still marked
``playing`` when a server starts were in flight at a crash:
:meth:`GamesRepo.abort_in_flight` marks them ``aborted`` (unrated), with the moves
:meth:`GamesRepo.save_progress` wrote while they were played.
"""

from __future__ import annotations

import sqlite3
import time

from ...core.details import Detail, DetailCode
from ...core.errors import StoreError
from ...ratings.glicko import Glicko
from ...serving.details import ended
from ..rules import LeagueRules, proves, rate, rates_loss
from .database import LeagueDb
from .league_meta import MetaRepo
from .members import add_proof, established_in, is_person
from .records import GAME_COLUMNS, LIGHT_COLUMNS, StoredGame, detail_row


class GamesRepo:
    """The pairs and games: started, finished (and rated), aborted, read. Thread-safe."""

    def __init__(self, db: LeagueDb, meta: MetaRepo) -> None:
        """``meta`` gives the stored rules a game's end is rated under by default."""
        self.db = db
        self.meta = meta

    def new_pair(self, a_id: int, b_id: int, opening: int) -> int:
        """Record a new colour-swapped pair of members ``a_id`` and ``b_id`` on the
        league's opening number ``opening``; return the pair's id."""
        with self.db.transaction() as db:
            cursor = db.execute(
                "INSERT INTO pairs (a_id, b_id, opening, created) VALUES (?, ?, ?, ?)",
                (a_id, b_id, opening, time.time()),
            )
            return int(cursor.lastrowid or 0)

    def pair_count(self) -> int:
        """How many pairs the league has started (the next new pair's opening counts from it)."""
        return int(self.db.query("SELECT COALESCE(MAX(id), 0) FROM pairs")[0][0])

    def open_pairs(self) -> list[tuple[int, int, int, int, int]]:
        """Pairs whose second game is still to play: ``(pair, a, b, opening, next leg)``,
        oldest first (a pair with a game in flight is not open)."""
        rows = self.db.query(
            "SELECT p.id, p.a_id, p.b_id, p.opening, p.finished FROM pairs p "
            "WHERE p.finished < 2 AND NOT EXISTS "
            "  (SELECT 1 FROM games g WHERE g.pair_id = p.id AND g.status = 'playing') "
            "ORDER BY p.id"
        )
        return [(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    def start_game(
        self, x_id: int, o_id: int, opening: str, pair_id: int | None = None, leg: int = 0
    ) -> int:
        """Record a game now in play (``opening`` its position text; ``leg`` 0 or 1 of
        pair ``pair_id``, if it belongs to one); return its id. It ends with
        :meth:`finish_game` or :meth:`abort_game`."""
        with self.db.transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (pair_id, leg, x_id, o_id, opening, status, started) "
                "VALUES (?, ?, ?, ?, ?, 'playing', ?)",
                (pair_id, leg, x_id, o_id, opening, time.time()),
            )
            return int(cursor.lastrowid or 0)

    def finish_game(
        self,
        game_id: int,
        result: str | None,
        termination: str,
        detail: str | Detail,
        record: str,
        scores: tuple[int, int],
        plies: int,
        times: tuple[float, float],
        rules: LeagueRules | None = None,
        rated: bool = True,
    ) -> tuple[Glicko, Glicko]:
        """Store a game's end and rate it, in one transaction; return both new ratings.
        A game with a person who is not established under ``rules`` (the stored rules if
        ``None``), one that a person lost or drew without playing it
        (:func:`.rules.rates_loss`), one of a member kept out of the ladder
        (:meth:`.members.MembersRepo.keep_out`), or one that is not ``rated`` (a game of
        an unrated event), is stored unrated (no ``rated_seq``, no rating rows): both
        ratings stay."""
        rules = self.meta.rules() if rules is None else rules
        with self.db.transaction() as db:
            row = db.execute(
                "SELECT x_id, o_id, status FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None or row[2] != "playing":
                raise StoreError(f"game {game_id} is not in play")
            x_id, o_id = int(row[0]), int(row[1])
            x_ok, o_ok = (established_in(db, m, rules)[0] for m in (x_id, o_id))
            x_person, o_person = is_person(db, x_id), is_person(db, o_id)
            # A rating change needs the loser to have played the game (:mod:`.rules`): a
            # person who lost or drew after fewer than a few moves of their own rates nobody.
            losers = [p for p, won in ((x_person, result == "x"), (o_person, result == "o"))
                      if p and not won]  # fmt: skip
            rated = rated and x_ok and o_ok and (not losers or rates_loss(termination, plies))
            # A member kept out of the ladder (a template or sparring account) rates nobody.
            kept = db.execute(
                "SELECT 1 FROM members WHERE id IN (?, ?) AND kept_out = 1", (x_id, o_id)
            ).fetchone()
            rated = rated and kept is None
            # Establishment that throwaway people cannot manufacture (:mod:`.rules`): a
            # played game proves a person only if their opponent was an established
            # person as it ended.
            if proves(termination, plies):
                pairs = ((x_id, x_person, o_id, o_person and o_ok),
                         (o_id, o_person, x_id, x_person and x_ok))  # fmt: skip
                for me, me_person, them, vouches in pairs:
                    if me_person and vouches:
                        add_proof(db, me, them)
            seq = int(db.execute("SELECT COALESCE(MAX(rated_seq), 0) + 1 FROM games").fetchone()[0])
            db.execute(
                "UPDATE games SET status='finished', result=?, termination=?, detail=?, "
                "detail_code=?, detail_params=?, "
                "record=?, x_score=?, o_score=?, plies=?, x_time=?, o_time=?, ended=?, "
                "rated_seq=?, limited=1 WHERE id = ?",
                (result, termination, *detail_row(detail), record, scores[0], scores[1], plies,
                 times[0], times[1], time.time(), seq if rated else None, game_id),
            )  # fmt: skip
            db.execute(
                "UPDATE pairs SET finished = finished + 1 "
                "WHERE id = (SELECT pair_id FROM games WHERE id = ?)",
                (game_id,),
            )
            old_x, old_o = self._rating(db, x_id), self._rating(db, o_id)
            if not rated:
                return old_x, old_o
            x_points = {"x": 1.0, "o": 0.0}.get(result or "", 0.5)
            new_x, new_o = rate(old_x, old_o, x_points)
            now = time.time()
            for member_id, rating in ((x_id, new_x), (o_id, new_o)):
                db.execute(
                    "INSERT INTO ratings (member_id, game_id, rating, rd, volatility, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (member_id, game_id, rating.rating, rating.rd, rating.volatility, now),
                )
        return new_x, new_o

    @staticmethod
    def _rating(db: sqlite3.Connection, member_id: int) -> Glicko:
        row = db.execute(
            "SELECT rating, rd, volatility FROM ratings WHERE member_id = ? "
            "ORDER BY seq DESC LIMIT 1",
            (member_id,),
        ).fetchone()
        return Glicko() if row is None else Glicko(float(row[0]), float(row[1]), float(row[2]))

    def abort_game(
        self, game_id: int, detail: str | Detail, record: str | None = None, plies: int = 0
    ) -> None:
        """Mark a game in play as aborted (unrated), keeping ``record`` (the moves played
        so far) when given; without one, what :meth:`save_progress` wrote stays."""
        with self.db.transaction() as db:
            db.execute(
                "UPDATE games SET status='aborted', termination='abandoned', detail=?, "
                "detail_code=?, detail_params=?, ended=?, "
                "record=COALESCE(?, record), plies=CASE WHEN ? IS NULL THEN plies ELSE ? END "
                "WHERE id = ? AND status = 'playing'",
                (*detail_row(detail), time.time(), record, record, plies, game_id),
            )

    def lose_both(self, game_id: int, detail: Detail, record: str) -> None:
        """End a game in play that neither side was there for (an event's, both teams
        absent): stored aborted (no result, unrated, in no total of the league) with
        ``detail`` and ``record``, and its pair's leg counted done, so the event goes on
        and counts it a loss for both (:data:`.events.event_store.BOTH_ABSENT`)."""
        with self.db.transaction() as db:
            changed = db.execute(
                "UPDATE games SET status='aborted', termination='abandoned', detail=?, "
                "detail_code=?, detail_params=?, ended=?, record=?, plies=0 "
                "WHERE id = ? AND status = 'playing'",
                (*detail_row(detail), time.time(), record, game_id),
            ).rowcount
            if changed:
                db.execute(
                    "UPDATE pairs SET finished = finished + 1 "
                    "WHERE id = (SELECT pair_id FROM games WHERE id = ?)",
                    (game_id,),
                )

    def save_progress(self, games: list[tuple[int, str, int]]) -> None:
        """Write the record so far and its plies of games in play, ``(id, record, plies)``
        each, in one transaction: a game aborted by a crash keeps its moves."""
        with self.db.transaction() as db:
            db.executemany(
                "UPDATE games SET record=?, plies=? WHERE id = ? AND status = 'playing'",
                [(record, plies, game_id) for game_id, record, plies in games],
            )

    def abort_in_flight(self) -> int:
        """Mark every game still ``playing`` as aborted (a server starting after a crash);
        return how many."""
        with self.db.transaction() as db:
            cursor = db.execute(
                "UPDATE games SET status='aborted', termination='abandoned', "
                "detail=?, detail_code=?, detail_params=?, ended=? WHERE status='playing'",
                (*detail_row(ended("server-stopped-during")), time.time()),
            )
            return int(cursor.rowcount)

    def game(self, game_id: int) -> StoredGame | None:
        """The stored game with this id (in play, finished or aborted), or ``None``."""
        rows = self.db.query(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return StoredGame(*rows[0]) if rows else None

    def games(
        self,
        member_id: int | None = None,
        status: str | None = None,
        limit: int | None = None,
        with_record: bool = False,
        offset: int = 0,
    ) -> list[StoredGame]:
        """Games, newest first, optionally of one member and/or one status (their
        ``record`` is ``None`` unless ``with_record``), the ``offset`` newest skipped. One
        member's newest ``limit`` are read through the players' indexes (newest first in
        each), never by reading all of the member's games."""
        columns = GAME_COLUMNS if with_record else LIGHT_COLUMNS
        where = "" if status is None else " AND status = ?"
        extra: tuple[object, ...] = () if status is None else (status,)
        cap = "" if limit is None else f" LIMIT {int(limit)}"
        if offset:
            cap = f" LIMIT {-1 if limit is None else int(limit)} OFFSET {int(offset)}"
        if member_id is not None:
            inner = "" if limit is None else f" LIMIT {int(limit) + int(offset)}"
            sides = [
                f"SELECT * FROM (SELECT {columns} FROM games WHERE {side} = ?{where} "
                f"ORDER BY id DESC{inner})"
                for side in ("x_id", "o_id")
            ]
            sql = f"SELECT * FROM ({' UNION ALL '.join(sides)}) ORDER BY id DESC{cap}"
            args: tuple[object, ...] = (member_id, *extra, member_id, *extra)
        else:
            sql = f"SELECT {columns} FROM games WHERE 1{where} ORDER BY id DESC{cap}"
            args = extra
        return [StoredGame(*r) for r in self.db.query(sql, args)]

    def game_count(self, member_id: int, *, aborted: bool = True) -> int:
        """How many games ``member_id`` has (any status; without the aborted ones when
        ``aborted`` is false): two counts on the players' indexes, for paging through its
        games and for alternating a challenger's colour without reading its games."""
        keep = "" if aborted else " AND status != 'aborted'"
        row = self.db.query(
            f"SELECT (SELECT COUNT(*) FROM games WHERE x_id = ?{keep}) "
            f"+ (SELECT COUNT(*) FROM games WHERE o_id = ?{keep})",
            (member_id, member_id),
        )
        return int(row[0][0])

    def rated_games(self) -> list[StoredGame]:
        """Rated finished games in the order they were rated (without their records);
        unrated ones (with a provisional person, :mod:`.rules`) are left out."""
        rows = self.db.query(
            f"SELECT {LIGHT_COLUMNS} FROM games WHERE status='finished' "
            "AND rated_seq IS NOT NULL ORDER BY rated_seq"
        )
        return [StoredGame(*r) for r in rows]

    def rated_games_between(self, a_id: int, b_id: int) -> list[StoredGame]:
        """The rated finished games of members ``a_id`` and ``b_id`` against each other, in
        the order they were rated (without records; unrated ones left out as in
        :meth:`rated_games`); read through the players' index, not by scanning every game."""
        sides = [
            f"SELECT {LIGHT_COLUMNS} FROM games WHERE x_id = ? AND o_id = ? "
            "AND status = 'finished' AND rated_seq IS NOT NULL"
        ] * 2
        rows = self.db.query(
            f"SELECT * FROM ({' UNION ALL '.join(sides)}) ORDER BY rated_seq",
            (a_id, b_id, b_id, a_id),
        )
        return [StoredGame(*r) for r in rows]

    def rated_count_between(self, a_id: int, b_id: int) -> int:
        """How many rated finished games ``a_id`` and ``b_id`` played against each other:
        one row of the ``results`` aggregate (what :meth:`rated_games_between` reads)."""
        row = self.db.query(
            "SELECT wins + draws + losses FROM results WHERE member_id = ? AND opponent_id = ?",
            (a_id, b_id),
        )
        return int(row[0][0]) if row else 0

    def starved_legs(self) -> dict[tuple[int, int], int]:
        """The games the machine starved (stored aborted with the detail
        ``hosted-starved``) of each leg still to play, ``(pair, leg) -> count``: what a
        server starting again reads, so that a leg starved before its restart is decided
        at its next starved game, as it would have been (:mod:`..play.replays`)."""
        rows = self.db.query(
            "SELECT g.pair_id, g.leg, COUNT(*) FROM games g JOIN pairs p ON p.id = g.pair_id "
            "WHERE g.status = 'aborted' AND g.detail_code = ? AND g.leg >= p.finished "
            "GROUP BY g.pair_id, g.leg",
            (DetailCode.HOSTED_STARVED.value,),
        )
        return {(int(pair), int(leg)): int(count) for pair, leg, count in rows}

    def games_between(self) -> dict[tuple[int, int], int]:
        """Finished or running games per unordered pair of members (smaller id first)."""
        rows = self.db.query(
            "SELECT MIN(x_id, o_id), MAX(x_id, o_id), COUNT(*) FROM games "
            "WHERE status != 'aborted' GROUP BY 1, 2"
        )
        return {(int(a), int(b)): int(n) for a, b, n in rows}
