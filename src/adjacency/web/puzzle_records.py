"""The puzzle page's ratings in the web store (:mod:`.store`, its numbered step 2):
each player's and each puzzle's Glicko-2 rating and each player's attempts.

A player is a browser: its client key (the SHA-256 of the id of its client cookie,
:mod:`.seats`, :mod:`.cookies`). Each puzzle and each player has a Glicko-2 rating
(:mod:`adjacency.ratings.glicko`); the player's first attempt of a puzzle is one
game between them, rated once (:meth:`PuzzleRecords.record`); later attempts of the
same puzzle are practice and change no rating (as lichess's puzzles do).
:meth:`PuzzleRecords.choose` picks a player's next puzzle.

Identities are free (a browser gets a cookie by asking), so a first attempt moves the
ratings only when the caller says the player may be rated (a *long-lived* player: the
server signed its cookie long enough ago, :mod:`.routers.puzzles`), when the puzzle's
solution was not shown before at the player's address (:data:`REVEALS`: a give-up or
hint in a throwaway browser, then a solve in the main one, buys nothing), and when
the puzzle's own rate of rating changes allows it. Otherwise the first attempt is
recorded unrated, with the reason (:data:`UNRATED`), and is never rated later.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from ..puzzles import Puzzle
from ..ratings.glicko import Glicko, rate_game

NEAREST = 12
"""The next puzzle is drawn at random among this many unseen puzzles rated nearest the
player (so two players of one rating do not get the same sequence)."""

PUZZLE_TABLES = """
CREATE TABLE puzzle_players (
    client TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    rated INTEGER NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE puzzle_ratings (
    puzzle TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    plays INTEGER NOT NULL
);
CREATE TABLE puzzle_attempts (
    client TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    first REAL NOT NULL,
    last REAL NOT NULL,
    win INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    PRIMARY KEY (client, puzzle)
)
"""
"""The puzzle tables of the web store (its numbered step, :mod:`.store`): a player's
rating, a puzzle's rating once played (until then its shipped one), and one row per
player and puzzle: the first attempt's result (``win``), whether it was ever solved,
and when it was first and last tried."""


RATING_HISTORY = """
CREATE TABLE IF NOT EXISTS puzzle_rating_history (
    client TEXT NOT NULL,
    at REAL NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzle_rating_history_client
    ON puzzle_rating_history (client, at)
"""
"""Each player's puzzle rating after each of its rated attempts, and when (the web
store's numbered step 6): the dashboard's rating over time. A player rated before the
step has one row, its rating then, at its last rated attempt's time."""

RATING_POINTS = 200
"""Ratings :meth:`PuzzleRecords.rating_history` returns at most (the latest)."""


@dataclass(frozen=True)
class RatingPoint:
    """A player's puzzle rating after one rated attempt: when, the rating, its deviation."""

    at: float
    rating: float
    rd: float


def backfill_rating_history(db: sqlite3.Connection) -> None:
    """Give each player rated before the rating history (none of its points kept) its
    one point: its rating now, at its last rated attempt's time (the store's step 6)."""
    db.execute(
        "INSERT INTO puzzle_rating_history (client, at, rating, rd) "
        "SELECT p.client, p.updated, p.rating, p.rd FROM puzzle_players p WHERE NOT EXISTS "
        "(SELECT 1 FROM puzzle_rating_history h WHERE h.client = p.client)"
    )


REVEALS = """
CREATE TABLE puzzle_reveals (
    address TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (address, puzzle)
) WITHOUT ROWID
"""
"""The puzzles whose solution (or a hint) was shown at an address (its key,
:func:`~adjacency.serving.addresses.address_key`), and when first: a later first
attempt of another browser of that address is not rated."""

UNRATED = ("tried", "new_player", "shown_here", "shown_elsewhere", "puzzle_busy", "streak")
"""Why an attempt moved no rating: a later attempt of the puzzle (practice), a player
not long-lived yet, the solution shown at this address before, the solution shown to
another browser lately (:mod:`.puzzle_shown`), the puzzle's ratings changed too often
lately, a try of a streak (unrated, as lichess's Puzzle Streak is)."""


START_RD = 80.0
"""The largest rating deviation a puzzle starts with here. Its shipped rating comes from
the solver's own measure of its difficulty, so it is a fair estimate already: with the
shipped deviation (250) one attempt moved a puzzle 105 to 130 points; from 80 an attempt
by a new player moves it about a tenth of that, and it settles as players try it."""


def initial_rating(puzzle: Puzzle) -> Glicko:
    """The puzzle's rating before anyone played it here: its shipped rating and volatility,
    its deviation at most :data:`START_RD`."""
    return Glicko(puzzle.rating, min(puzzle.rd, START_RD), puzzle.volatility)


@dataclass(frozen=True)
class Tried:
    """One puzzle a player tried: when first and last, the first try's result (``win``)
    and whether it was ever solved."""

    puzzle: str
    first: float
    last: float
    win: bool
    solved: bool


HISTORY = 50
"""Attempts :meth:`PuzzleRecords.history` returns at most (the latest)."""


@dataclass(frozen=True)
class Rated:
    """The ratings around one attempt: ``rated`` says whether this attempt was the
    player's first of the puzzle (then both ratings moved from ``*_before`` to
    ``*_after``; otherwise before and after are equal)."""

    rated: bool
    player_before: Glicko
    player_after: Glicko
    puzzle_before: Glicko
    puzzle_after: Glicko
    first_win: bool | None
    """The result of the player's first attempt (``None``: not tried yet)."""
    unrated: str | None = None
    """Why the attempt moved no rating (one of :data:`UNRATED`), ``None`` when rated."""


Transaction = Callable[[], AbstractContextManager[sqlite3.Connection]]


class PuzzleRecords:
    """The puzzle tables of the web store: players, puzzle ratings, attempts. Every read
    and write is one transaction of the store (its lock held)."""

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction

    def player(self, client: str) -> tuple[Glicko, int]:
        """The player's rating and how many puzzles were rated for it (a new player:
        the Glicko-2 start, 0)."""
        with self._transaction() as db:
            return _player(db, client)

    def puzzle(self, puzzle: Puzzle) -> tuple[Glicko, int]:
        """The puzzle's rating and how many players it was rated against."""
        with self._transaction() as db:
            return _puzzle(db, puzzle)

    def first_result(self, client: str, puzzle_id: str) -> bool | None:
        """The player's first result on the puzzle (``None``: never tried)."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT win FROM puzzle_attempts WHERE client = ? AND puzzle = ?",
                (client, puzzle_id),
            ).fetchone()
        return None if row is None else bool(row[0])

    def record(
        self,
        client: str,
        puzzle: Puzzle,
        win: bool,
        address: str | None = None,
        *,
        reveals: bool = False,
        eligible: bool = True,
        elsewhere: bool = False,
        allow: Callable[[], bool] = lambda: True,
        rated: bool = True,
    ) -> Rated:
        """Record an attempt's result. The player's first attempt of ``puzzle`` is rated
        (both ratings updated against each other's from before, as one game) when the
        player is ``eligible`` (long-lived), the solution was not shown at ``address``
        (an address key; ``None``: a trusted caller, not checked) before, nor lately to
        another browser anywhere (``elsewhere``, :mod:`.puzzle_shown`), and ``allow()``
        (the puzzle's rate of rating changes, asked only then) says yes; otherwise it
        is recorded unrated with the reason. A first attempt the player asks not to be
        rated (``rated`` false: a streak's) is recorded unrated too, and so never rated
        later. A later one only notes the time (and a solve). ``reveals``: the answer
        shows the solution or a hint, so it is noted as shown at ``address``."""
        now = time.time()
        with self._transaction() as db:
            (player, count), (rating, plays) = _player(db, client), _puzzle(db, puzzle)
            row = db.execute(
                "SELECT win FROM puzzle_attempts WHERE client = ? AND puzzle = ?",
                (client, puzzle.id),
            ).fetchone()
            shown = (
                address is not None
                and db.execute(
                    "SELECT 1 FROM puzzle_reveals WHERE address = ? AND puzzle = ?",
                    (address, puzzle.id),
                ).fetchone()
            )
            if reveals and address is not None:
                db.execute(
                    "INSERT OR IGNORE INTO puzzle_reveals (address, puzzle, at) VALUES (?, ?, ?)",
                    (address, puzzle.id, now),
                )
            if row is not None:
                db.execute(
                    "UPDATE puzzle_attempts SET last = ?, solved = max(solved, ?) "
                    "WHERE client = ? AND puzzle = ?",
                    (now, int(win), client, puzzle.id),
                )
                return Rated(False, player, player, rating, rating, bool(row[0]), "tried")
            db.execute(
                "INSERT INTO puzzle_attempts (client, puzzle, first, last, win, solved) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (client, puzzle.id, now, now, int(win), int(win)),
            )
            unrated = (
                "streak" if not rated
                else "new_player" if not eligible
                else "shown_here" if shown
                else "shown_elsewhere" if elsewhere
                else "puzzle_busy" if not allow()
                else None
            )  # fmt: skip
            if unrated is not None:
                return Rated(False, player, player, rating, rating, win, unrated)
            player_after, rating_after = rate_game(player, rating, 1.0 if win else 0.0)
            db.execute(
                "INSERT INTO puzzle_players (client, rating, rd, volatility, rated, updated) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(client) DO UPDATE SET "
                "rating=excluded.rating, rd=excluded.rd, volatility=excluded.volatility, "
                "rated=excluded.rated, updated=excluded.updated",
                (client, *_values(player_after), count + 1, now),
            )
            db.execute(
                "INSERT INTO puzzle_ratings (puzzle, rating, rd, volatility, plays) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(puzzle) DO UPDATE SET "
                "rating=excluded.rating, rd=excluded.rd, volatility=excluded.volatility, "
                "plays=excluded.plays",
                (puzzle.id, *_values(rating_after), plays + 1),
            )
            db.execute(
                "INSERT INTO puzzle_rating_history (client, at, rating, rd) VALUES (?, ?, ?, ?)",
                (client, now, player_after.rating, player_after.rd),
            )
        return Rated(True, player, player_after, rating, rating_after, win)

    def rating_history(self, client: str, limit: int = RATING_POINTS) -> list[RatingPoint]:
        """The player's rating after each of its rated attempts, oldest first (the latest
        ``limit``)."""
        with self._transaction() as db:
            rows = db.execute(
                "SELECT at, rating, rd FROM puzzle_rating_history WHERE client = ? "
                "ORDER BY at DESC, rowid DESC LIMIT ?",
                (client, limit),
            ).fetchall()
        return [RatingPoint(float(a), float(r), float(d)) for a, r, d in reversed(rows)]

    def history(self, client: str, limit: int = HISTORY) -> list[Tried]:
        """The puzzles ``client`` tried, the latest tried first, at most ``limit``."""
        with self._transaction() as db:
            rows = db.execute(
                "SELECT puzzle, first, last, win, solved FROM puzzle_attempts "
                "WHERE client = ? ORDER BY last DESC, puzzle LIMIT ?",
                (client, limit),
            ).fetchall()
        return [Tried(r[0], float(r[1]), float(r[2]), bool(r[3]), bool(r[4])) for r in rows]

    def ratings(self, puzzles: dict[str, Puzzle]) -> dict[str, float]:
        """Every served puzzle's rating now (its shipped one until it was rated here)."""
        with self._transaction() as db:
            rated = dict(db.execute("SELECT puzzle, rating FROM puzzle_ratings").fetchall())
        return {key: float(rated.get(key, p.rating)) for key, p in puzzles.items()}

    def choose(
        self,
        client: str,
        puzzles: dict[str, Puzzle],
        skip: str | None,
        rng: random.Random,
        above: float | None = None,
    ) -> Puzzle | None:
        """The next puzzle for ``client`` among ``puzzles`` (a theme's, say): one it never
        tried, drawn among the :data:`NEAREST` rated nearest its rating; when it tried
        every one, the one tried longest ago. ``above`` (a streak: the last puzzle's
        rating) takes instead the untried puzzle rated nearest above it (the hardest
        untried one when none is above), so a streak climbs one step at a time. ``skip``
        (the puzzle on the page) is never chosen unless it is the only one. ``None`` when
        there is no puzzle."""
        with self._transaction() as db:
            player, _ = _player(db, client)
            seen = dict(
                db.execute(
                    "SELECT puzzle, last FROM puzzle_attempts WHERE client = ?", (client,)
                ).fetchall()
            )
            rated = {
                row[0]: row[1] for row in db.execute("SELECT puzzle, rating FROM puzzle_ratings")
            }
        others = [p for p in puzzles.values() if p.id != skip] or list(puzzles.values())
        if not others:
            return None
        fresh = [p for p in others if p.id not in seen]
        if not fresh:
            return min(others, key=lambda p: (seen.get(p.id, 0.0), p.id))

        def distance(p: Puzzle) -> tuple[float, str]:
            return abs(rated.get(p.id, p.rating) - player.rating), p.id

        if above is not None:
            harder = [p for p in fresh if rated.get(p.id, p.rating) > above]
            if not harder:
                return max(fresh, key=lambda p: (rated.get(p.id, p.rating), p.id))
            return min(harder, key=lambda p: (rated.get(p.id, p.rating), p.id))
        nearest = sorted(fresh, key=distance)[:NEAREST]
        return rng.choice(nearest)


def _values(rating: Glicko) -> tuple[float, float, float]:
    return rating.rating, rating.rd, rating.volatility


def _player(db: sqlite3.Connection, client: str) -> tuple[Glicko, int]:
    row = db.execute(
        "SELECT rating, rd, volatility, rated FROM puzzle_players WHERE client = ?", (client,)
    ).fetchone()
    return (Glicko(), 0) if row is None else (Glicko(row[0], row[1], row[2]), int(row[3]))


def _puzzle(db: sqlite3.Connection, puzzle: Puzzle) -> tuple[Glicko, int]:
    row = db.execute(
        "SELECT rating, rd, volatility, plays FROM puzzle_ratings WHERE puzzle = ?", (puzzle.id,)
    ).fetchone()
    if row is None:
        return initial_rating(puzzle), 0
    return Glicko(row[0], row[1], row[2]), int(row[3])
