"""The opening explorer: for a position, the moves played from it in stored games, with
how many games, each side's wins, the draws and the average final margin.

The index is a table of the games store (:data:`EXPLORER_TABLES`), one row per
(position, source, move) holding running sums, so a question about one position is
one seek of its primary key, whatever the number of games (:func:`moves_from`). It is
built incrementally: a game is added once, when it is stored with a result
(:func:`add_game`; :class:`~.store.GameStore` calls it in the save's transaction), and a
league's games are read from its file in bounded steps (:class:`LeagueFeed`).

What counts:

* only games with a result (a win or a draw: aborted and unfinished games are not
  played-out openings);
* only their first :data:`OPENING_PLIES` plies: the explorer is about openings, and the
  index stays bounded at that many rows per game at most;
* a position is its position text (board, pieces, side to move, plies left), hashed to
  64 bits (:func:`position_key`): transpositions meet, and games of other board sizes
  or lengths are other positions;
* a game is counted once per source (:data:`SEEN`), however often it is saved; a
  deleted game stays counted (the sums are statistics, not the games).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import AdjacencyError
from ..core.game import Game
from ..core.position import Position
from ..core.record import game_from_dict, game_from_text

OPENING_PLIES = 20
"""Plies of each game the explorer indexes (ten moves a side)."""

MAX_MOVES = 64
"""Moves one answer lists at most (every square of the largest board)."""

SERVER = "server"
"""The source name of this server's own games."""

LEAGUE = "league"
"""The source name of a league's games (:class:`LeagueFeed`)."""

EXPLORER_TABLES = """
CREATE TABLE explorer (
    position INTEGER NOT NULL,
    source TEXT NOT NULL,
    move TEXT NOT NULL,
    games INTEGER NOT NULL,
    x_wins INTEGER NOT NULL,
    o_wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    margin INTEGER NOT NULL,
    PRIMARY KEY (position, source, move)
) WITHOUT ROWID;
CREATE TABLE explorer_seen (
    source TEXT NOT NULL,
    game TEXT NOT NULL,
    PRIMARY KEY (source, game)
) WITHOUT ROWID;
CREATE TABLE explorer_feed (source TEXT PRIMARY KEY, after INTEGER NOT NULL);
CREATE TABLE explorer_pending (
    source TEXT NOT NULL,
    game INTEGER NOT NULL,
    PRIMARY KEY (source, game)
) WITHOUT ROWID
"""
"""The explorer's tables: ``explorer`` holds per (position, source, move) the games, X's
wins, O's wins, draws and the sum of final margins (X − O); ``explorer_seen`` the games
counted per source; ``explorer_feed`` the highest id read from a league's file and
``explorer_pending`` the games read there while still in play (read again later)."""

SEEN = "explorer_seen"


def position_key(position: Position) -> int:
    """The position's 64-bit key (a signed SQLite integer) from its position text."""
    digest = hashlib.blake2b(position.fen().encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def add_game(db: sqlite3.Connection, source: str, game_id: str, game: Game) -> bool:
    """Count ``game`` (id ``game_id`` in ``source``) in the index, in ``db``'s open
    transaction; whether it was added (``False``: no result, or counted before)."""
    if game.result is None:
        return False
    seen = db.execute(
        f"INSERT OR IGNORE INTO {SEEN} (source, game) VALUES (?, ?)", (source, game_id)
    )
    if seen.rowcount == 0:
        return False
    x, o = game.position.score
    wins = (int(game.result == "x"), int(game.result == "o"), int(game.result == "draw"))
    rows = [
        (position_key(game.positions[ply]), source, move.square, *wins, x - o)
        for ply, move in enumerate(game.moves[:OPENING_PLIES])
    ]
    db.executemany(
        "INSERT INTO explorer (position, source, move, games, x_wins, o_wins, draws, margin) "
        "VALUES (?, ?, ?, 1, ?, ?, ?, ?) ON CONFLICT (position, source, move) DO UPDATE SET "
        "games = games + 1, x_wins = x_wins + excluded.x_wins, "
        "o_wins = o_wins + excluded.o_wins, draws = draws + excluded.draws, "
        "margin = margin + excluded.margin",
        rows,
    )
    return True


def add_record(db: sqlite3.Connection, source: str, game_id: str, record: object) -> bool:
    """:func:`add_game` for a stored JSON record; a record that does not load (damaged,
    from another version) is skipped, never an error: the index is a summary."""
    if not isinstance(record, dict) or record.get("result") is None:
        return False
    if db.execute(
        f"SELECT 1 FROM {SEEN} WHERE source = ? AND game = ?", (source, game_id)
    ).fetchone():
        return False
    try:
        game = game_from_dict(record)
    except (AdjacencyError, ValueError, TypeError, RecursionError):
        return False
    return add_game(db, source, game_id, game)


def index_stored(db: sqlite3.Connection) -> None:
    """Count every finished game already in the store's ``games`` table (the schema step
    that adds the explorer; later games are counted as they are saved)."""
    import json

    for game_id, text in db.execute("SELECT id, record FROM games").fetchall():
        try:
            record = json.loads(text)
        except (ValueError, TypeError, RecursionError):
            continue
        add_record(db, SERVER, str(game_id), record)


@dataclass(frozen=True)
class MoveStats:
    """One move from a position, summed over the sources asked."""

    move: str
    games: int
    x_wins: int
    o_wins: int
    draws: int
    margin: float
    """The average final margin, X − O."""


def moves_from(
    db: sqlite3.Connection, position: Position, sources: Iterable[str] = (SERVER, LEAGUE)
) -> list[MoveStats]:
    """The moves played from ``position`` in the given sources, most played first (then by
    name), at most :data:`MAX_MOVES`: one seek of the index's primary key."""
    wanted = sorted(set(sources))
    marks = ", ".join("?" for _ in wanted)
    rows = db.execute(
        "SELECT move, SUM(games), SUM(x_wins), SUM(o_wins), SUM(draws), SUM(margin) "
        f"FROM explorer WHERE position = ? AND source IN ({marks}) GROUP BY move "
        "ORDER BY SUM(games) DESC, move LIMIT ?",
        (position_key(position), *wanted, MAX_MOVES),
    ).fetchall()
    return [
        MoveStats(move, games, x, o, d, round(margin / games, 2))
        for move, games, x, o, d, margin in rows
    ]


LEAGUE_STEP = 100
"""League games read at most per step of :meth:`LeagueFeed.catch_up`, of each kind (new
ones, and ones that were in play): a request's bound (about 0.1 s of parsing)."""


@dataclass
class FeedStep:
    """What one step read from a league's file (:meth:`LeagueFeed.read`)."""

    after: int
    """The highest id read."""
    read: int
    """Games read."""
    dropped: list[int]
    """Games no longer waiting: ended, or gone from the league."""
    playing: list[int] = field(default_factory=list)
    """Games read while in play (read again later)."""
    finished: list[tuple[int, Game]] = field(default_factory=list)
    """Finished games, parsed."""


class LeagueFeed:
    """A league's file read into the explorer, a bounded step at a time.

    Reads the league's ``games`` table (``id``, ``status``, ``record``: the text format)
    read-only, never writing the league's file. Each step looks again at up to
    ``step`` games that were in play when read (``explorer_pending``) and reads up to
    ``step`` games after the highest id read (``explorer_feed``): a finished one is
    counted (:func:`add_game`, once), one in play waits in ``explorer_pending``, an
    aborted one is dropped. Every step is two seeks of the league's primary key; the
    reading and parsing (:meth:`read`) need no lock of the store, only the writing
    (:meth:`write`) does.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise AdjacencyError(f"league database {self.path} does not exist")
        self.league = sqlite3.connect(
            f"file:{self.path}?mode=ro", uri=True, check_same_thread=False
        )
        self._lock = threading.Lock()  # the requests' threads share the connection

    def close(self) -> None:
        """Close the league's file."""
        self.league.close()

    def where(self, db: sqlite3.Connection) -> tuple[int, list[int]]:
        """How far the league was read (the highest id) and the first ``LEAGUE_STEP``
        games still waiting in play, from the store ``db``."""
        row = db.execute("SELECT after FROM explorer_feed WHERE source = ?", (LEAGUE,)).fetchone()
        pending = db.execute(
            "SELECT game FROM explorer_pending WHERE source = ? ORDER BY game LIMIT ?",
            (LEAGUE, LEAGUE_STEP),
        ).fetchall()
        return (0 if row is None else int(row[0])), [int(game) for (game,) in pending]

    def read(self, after: int, pending: list[int], step: int = LEAGUE_STEP) -> FeedStep:
        """The league's games ``pending`` (at most ``step``) and up to ``step`` after id
        ``after``, parsed: the costly half of a step, done without the store's lock."""
        pending = pending[:step]
        columns = "SELECT id, status, record FROM games "
        marks = ", ".join("?" for _ in pending)
        with self._lock:
            games = (
                self.league.execute(columns + f"WHERE id IN ({marks})", pending).fetchall()
                if pending
                else []
            )
            fresh = self.league.execute(
                columns + "WHERE id > ? ORDER BY id LIMIT ?", (after, step)
            ).fetchall()
        known = {int(game_id) for game_id, _, _ in games}
        found = FeedStep(
            after=int(fresh[-1][0]) if fresh else after,
            read=len(games) + len(fresh),
            dropped=[game for game in pending if game not in known],  # deleted from the league
        )
        for row_id, status, text in [*games, *fresh]:
            game_id = int(row_id)
            if status == "playing":
                found.playing.append(game_id)
                continue
            found.dropped.append(game_id)
            if status == "finished" and text:
                try:
                    found.finished.append((game_id, game_from_text(text)))
                except (AdjacencyError, ValueError, RecursionError):
                    continue
        return found

    def write(self, db: sqlite3.Connection, found: FeedStep) -> None:
        """Take a step read by :meth:`read` into the store, in ``db``'s open transaction:
        idempotent, so two requests that read the same games count them once."""
        db.executemany(
            "INSERT OR IGNORE INTO explorer_pending (source, game) VALUES (?, ?)",
            [(LEAGUE, game) for game in found.playing],
        )
        for game_id, game in found.finished:
            add_game(db, LEAGUE, str(game_id), game)
        db.executemany(
            "DELETE FROM explorer_pending WHERE source = ? AND game = ?",
            [(LEAGUE, game) for game in found.dropped],
        )
        db.execute(
            "INSERT INTO explorer_feed (source, after) VALUES (?, ?) "
            "ON CONFLICT (source) DO UPDATE SET after = max(after, excluded.after)",
            (LEAGUE, found.after),
        )

    def catch_up(self, db: sqlite3.Connection, step: int = LEAGUE_STEP) -> int:
        """One bounded step (:meth:`where`, :meth:`read`, :meth:`write`) on the store ``db``
        in its open transaction; the league games read."""
        after, pending = self.where(db)
        found = self.read(after, pending, step)
        self.write(db, found)
        return found.read
