"""A game the teacher voids (:class:`VoidsRepo`): it counts nowhere from then on, and
may be played again.

A voided game is stored ``aborted`` with the detail :data:`VOIDED` and the teacher's
reason (so every view that shows the game shows why), in one transaction that also:

- takes it out of the aggregates (the triggers of :mod:`.schema` subtract a game that
  stops being ``finished``): the standings, the pair statistics, the failures;
- takes it out of the ratings: every rating row from its rated place on is replayed
  without it (each later rated game rated again, in its order, from the ratings before
  it, as :meth:`.rating_rows.RatingsRepo.recompute_ratings` rates them), so the stored
  ratings stay a recomputation from the stored finished games;
- takes it out of its event: an event counts only finished games (and those both
  teams missed), so its table, crosstable, tie-breaks, Elo and exports no longer hold it;
- with ``replay``, gives its leg back to its pair (its finished count less one), so the
  server plays it again with the same colours and opening: the ladder's next pass, or
  the event's runner while its round is the event's last. Only the last leg its pair
  finished can be replayed (the pair's legs are played in order), only a game of a
  pair (not a person's challenge), and in an event only while it runs and the game is
  of its last round paired (later rounds were paired from its result).

A game that is not finished (in play, aborted, voided already) is refused with the
reason, and nothing changes.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from ...core.details import DetailCode
from ...ratings.glicko import Glicko, rate_game
from ...serving.details import ended
from ..rules import rate
from .database import LeagueDb
from .records import LeagueError, detail_row

VOIDED = str(DetailCode.VOIDED)
"""The detail code of a voided game (its param: the teacher's ``reason``)."""
MAX_REASON = 500
"""The longest reason kept (characters)."""


@dataclass(frozen=True)
class Voided:
    """A game voided: its id, its sides' ids, the reason, whether it is played again."""

    game: int
    x_id: int
    o_id: int
    reason: str
    replay: bool


class VoidsRepo:
    """Voiding a finished game. Thread-safe (one transaction a call)."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def void(self, game_id: int, reason: str, replay: bool = False) -> Voided:
        """Void finished game ``game_id`` for ``reason`` (see the module); with
        ``replay``, its leg is played again. :class:`LeagueError` with the reason for a
        game that is not finished, an empty reason, or a replay the module refuses."""
        reason = " ".join(reason.split())[:MAX_REASON]
        if not reason:
            raise LeagueError("say why the game is voided: the reason is kept with it")
        with self.db.transaction() as db:
            row = db.execute(
                "SELECT x_id, o_id, status, pair_id, leg, rated_seq FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise LeagueError(f"no game {game_id}")
            x_id, o_id, status, pair_id, leg, seq = row
            if status != "finished":
                raise LeagueError(f"game {game_id} is not a finished game: it cannot be voided")
            if replay:
                _check_replay(db, game_id, pair_id, leg)
            db.execute(
                "UPDATE games SET status = 'aborted', detail = ?, detail_code = ?, "
                "detail_params = ?, rated_seq = NULL WHERE id = ?",
                (*detail_row(ended(VOIDED, reason=reason)), game_id),
            )
            if replay:
                db.execute("UPDATE pairs SET finished = finished - 1 WHERE id = ?", (pair_id,))
            if seq is not None:
                db.execute("DELETE FROM ratings WHERE game_id = ?", (game_id,))
                _rate_again(db, int(seq))
        return Voided(game_id, int(x_id), int(o_id), reason, replay)


def _check_replay(db: sqlite3.Connection, game_id: int, pair_id: int | None, leg: int) -> None:
    """Refuse (:class:`LeagueError`) a replay the module does not allow."""
    if pair_id is None:
        raise LeagueError(f"game {game_id} is a challenge's, of no pair: it can be voided only")
    (finished,) = db.execute("SELECT finished FROM pairs WHERE id = ?", (pair_id,)).fetchone()
    if int(leg) != int(finished) - 1:
        raise LeagueError(
            f"game {game_id} is not the last game its pair finished: only that one is replayed"
        )
    event = db.execute(
        "SELECT e.name, e.status, b.round, (SELECT MAX(round) FROM event_boards "
        "WHERE event_id = e.id) FROM event_boards b JOIN events e ON e.id = b.event_id "
        "WHERE b.pair_id = ?",
        (pair_id,),
    ).fetchone()
    if event is None:
        return
    name, status, round_no, last = event
    if status != "running":
        raise LeagueError(f"event {name} is not running: its game {game_id} cannot be replayed")
    if int(round_no) != int(last):
        raise LeagueError(
            f"game {game_id} is of round {int(round_no) + 1} of {name}, and a later round "
            "was paired from its result: it can be voided only"
        )


def _rate_again(db: sqlite3.Connection, seq: int) -> None:
    """Replay the rating rows of the rated games after ``seq`` (the voided game's place,
    its own rows deleted already), without the games that are no longer finished."""
    later = db.execute(
        "SELECT id, x_id, o_id, result, limited, status, ended FROM games "
        "WHERE rated_seq > ? ORDER BY rated_seq",
        (seq,),
    ).fetchall()
    ids = [int(r[0]) for r in later]
    db.executemany("DELETE FROM ratings WHERE game_id = ?", [(i,) for i in ids])
    current: dict[int, Glicko] = {}

    def rating(member: int) -> Glicko:
        if member not in current:
            found = db.execute(
                "SELECT rating, rd, volatility FROM ratings WHERE member_id = ? "
                "ORDER BY seq DESC LIMIT 1",
                (member,),
            ).fetchone()
            current[member] = Glicko() if found is None else Glicko(*map(float, found))
        return current[member]

    for game_id, x_id, o_id, result, limited, status, stop in later:
        if status != "finished":
            continue
        x_points = {"x": 1.0, "o": 0.0}.get(result or "", 0.5)
        step = rate if limited else rate_game
        new_x, new_o = step(rating(x_id), rating(o_id), x_points)
        current[x_id], current[o_id] = new_x, new_o
        at = time.time() if stop is None else float(stop)
        for member, new in ((x_id, new_x), (o_id, new_o)):
            db.execute(
                "INSERT INTO ratings (member_id, game_id, rating, rd, volatility, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (member, game_id, new.rating, new.rd, new.volatility, at),
            )
