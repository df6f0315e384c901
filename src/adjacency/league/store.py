"""The league's database: one SQLite file in WAL mode.

Tables: ``meta`` (schema version, the settings, the admin token's hash), ``members``
(bots, house bots and people; a token is stored only as its SHA-256 hash),
``pairs`` (a colour-swapped pair of games from one opening), ``games`` (every game,
with its full record once it ends) and ``ratings`` (each member's Glicko-2 rating
after each rated game: the rating history).

Durability contract: a game's end, its record and both players' new ratings are
written in one transaction, so after any crash (``kill -9``) the stored ratings
are exactly a recomputation from the stored finished games
(:meth:`LeagueStore.recompute_ratings`). Games still marked ``playing`` when a
server starts were in flight at a crash: :meth:`LeagueStore.abort_in_flight` marks
them ``aborted`` (unrated), with the moves :meth:`LeagueStore.save_progress` wrote
while they were played. WAL mode lets the ``adjacency league`` admin commands
write while the server runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import AdjacencyError, StoreError
from ..core.text import quote
from ..ratings.glicko import Glicko, rate_game
from ..storage import SQLiteStore, StoreConfig, check_version, open_store, transaction
from .rules import LeagueRules, rate
from .settings import LeagueSettings

SCHEMA_VERSION = "adjacency-league-1"
KINDS = ("bot", "house", "person")
"""Member kinds: a remote bot (token, ``adjacency connect``), a house bot (a spec the
server plays itself) and a person (a browser-held secret)."""
MAX_NAME = 32
"""The longest member name."""
TOKEN_PREFIX = "adjl_"
MAX_CONCURRENCY = 16

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS members (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    kind TEXT NOT NULL CHECK (kind IN ('bot', 'house', 'person')),
    spec TEXT,
    token_hash TEXT UNIQUE,
    revoked INTEGER NOT NULL DEFAULT 0,
    concurrency INTEGER NOT NULL DEFAULT 1,
    created REAL NOT NULL,
    approved INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS pairs (
    id INTEGER PRIMARY KEY,
    a_id INTEGER NOT NULL REFERENCES members(id),
    b_id INTEGER NOT NULL REFERENCES members(id),
    opening INTEGER NOT NULL,
    created REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS pairs_open ON pairs(finished);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    pair_id INTEGER REFERENCES pairs(id),
    leg INTEGER NOT NULL DEFAULT 0,
    x_id INTEGER NOT NULL REFERENCES members(id),
    o_id INTEGER NOT NULL REFERENCES members(id),
    opening TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'aborted')),
    result TEXT,
    termination TEXT,
    detail TEXT NOT NULL DEFAULT '',
    record TEXT,
    x_score INTEGER,
    o_score INTEGER,
    plies INTEGER NOT NULL DEFAULT 0,
    x_time REAL NOT NULL DEFAULT 0,
    o_time REAL NOT NULL DEFAULT 0,
    started REAL NOT NULL,
    ended REAL,
    rated_seq INTEGER UNIQUE,
    limited INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE INDEX IF NOT EXISTS games_pair ON games(pair_id);
CREATE INDEX IF NOT EXISTS games_x ON games(x_id);
CREATE INDEX IF NOT EXISTS games_o ON games(o_id);
CREATE INDEX IF NOT EXISTS games_players ON games(x_id, o_id, status);
CREATE TABLE IF NOT EXISTS ratings (
    seq INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id),
    game_id INTEGER NOT NULL REFERENCES games(id),
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ratings_member ON ratings(member_id, seq);
"""


MIGRATIONS = (
    ("members", "approved", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "limited", "INTEGER NOT NULL DEFAULT 0"),
)
"""Columns added after the first release (old rows get the default). ``limited``: the
game was rated with :func:`.rules.rate` (changes against provisional opponents limited);
games rated before that rule (0) are recomputed as they were rated."""

OWN_TABLES = frozenset({"meta", "members", "pairs", "games", "ratings"}) | frozenset(
    {"events", "event_members", "event_boards"}  # the events' (.event_store.TABLES)
)

CONFIG = StoreConfig("league", check_same_thread=False, foreign_keys=True, own_tables=OWN_TABLES)
"""Autocommit with ``BEGIN IMMEDIATE`` transactions, WAL, ``synchronous=NORMAL``, foreign
keys on, a 30 s busy timeout; one connection shared by the server's threads behind the
store's lock; a file holding other tables is refused untouched."""


class LeagueError(AdjacencyError):
    """Bad input to the league: a name, a member, settings that differ from the league's."""


def new_token() -> str:
    """A fresh secret: :data:`TOKEN_PREFIX` and 128 random bits (URL-safe base64)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """The SHA-256 hex digest stored in place of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def check_name(name: str) -> str:
    """A member name: 1 to :data:`MAX_NAME` printable ASCII letters, digits, ``-_.``
    (no spaces, so names stay unambiguous on the command line and in records)."""
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    if not 1 <= len(name) <= MAX_NAME or not set(name) <= allowed:
        raise LeagueError(
            f"member name {quote(name)} is not allowed: 1 to {MAX_NAME} characters from "
            "A-Z a-z 0-9 - _ ."
        )
    return name


@dataclass(frozen=True)
class Member:
    """A league member as stored (the token's hash never leaves the store)."""

    id: int
    name: str
    kind: str
    spec: str | None
    revoked: bool
    concurrency: int


@dataclass(frozen=True)
class StoredGame:
    """One row of ``games``."""

    id: int
    pair_id: int | None
    leg: int
    x_id: int
    o_id: int
    opening: str
    status: str
    result: str | None
    termination: str | None
    detail: str
    record: str | None
    x_score: int | None
    o_score: int | None
    plies: int
    x_time: float
    o_time: float
    started: float
    ended: float | None
    rated_seq: int | None

    def points(self, member_id: int) -> float:
        """Points ``member_id`` scored in this finished game (1, 0.5, 0)."""
        if self.result == "draw" or self.result is None:
            return 0.5
        won = (self.result == "x") == (member_id == self.x_id)
        return 1.0 if won else 0.0


GAME_COLUMNS = (
    "id, pair_id, leg, x_id, o_id, opening, status, result, termination, detail, record, "
    "x_score, o_score, plies, x_time, o_time, started, ended, rated_seq"
)
LIGHT_COLUMNS = GAME_COLUMNS.replace("record,", "NULL,")
"""The columns of a listing: the records (a kilobyte each) are left out."""


class LeagueStore(SQLiteStore):
    """A league database. Methods are thread-safe (one connection behind a lock)."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        """Open (or with ``create``, create) a league database. A file that holds other
        tables (another program's database) is refused with :class:`StoreError` and left
        as it was; a missing file without ``create`` is a :class:`LeagueError`."""
        self.path = Path(path)
        self._lock = threading.RLock()
        if not create and not self.path.exists():
            raise LeagueError(
                f"no league database at {str(self.path)!r}: create it with "
                "`adjacency league create --db FILE`"
            )
        self.db = open_store(self.path, CONFIG, SCHEMA, MIGRATIONS)
        try:
            # The version row is written with the league's settings (:meth:`create`).
            check_version(self.db, self.path, CONFIG, "meta", SCHEMA_VERSION, write=False)
        except StoreError:
            self.db.close()
            raise

    def _transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return transaction(self.db, self.path, CONFIG, self._lock)

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self.db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise CONFIG.error(self.path, exc) from None

    # ----------------------------------------------------------------- league

    @property
    def created(self) -> bool:
        """Whether the file holds a league already (its settings are stored)."""
        return bool(self._query("SELECT 1 FROM meta WHERE key='settings'"))

    def create(self, settings: LeagueSettings, admin_token: str) -> None:
        """Store the settings and the admin token's hash (a new league only)."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM meta WHERE key='settings'").fetchone():
                raise LeagueError(f"{str(self.path)!r} already holds a league")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            db.execute("INSERT INTO meta VALUES ('settings', ?)", (json.dumps(settings.to_dict()),))
            db.execute("INSERT INTO meta VALUES ('admin', ?)", (token_hash(admin_token),))

    def settings(self) -> LeagueSettings:
        """The league's settings, fixed at creation; :class:`LeagueError` if the file holds
        no league yet."""
        rows = self._query("SELECT value FROM meta WHERE key='settings'")
        if not rows:
            raise LeagueError(
                f"{str(self.path)!r} holds no league yet: create it with "
                "`adjacency league create --db FILE` (or `adjacency league serve`)"
            )
        return LeagueSettings.from_dict(json.loads(rows[0][0]))

    def rules(self) -> LeagueRules:
        """The league's rules for people and pace (:mod:`.rules`; the defaults until
        :meth:`set_rules` stores others)."""
        rows = self._query("SELECT value FROM meta WHERE key='rules'")
        return LeagueRules.from_dict(json.loads(rows[0][0])) if rows else LeagueRules()

    def set_rules(self, rules: LeagueRules) -> None:
        """Store the league's rules (a running server reads them when it starts)."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('rules', ?)", (json.dumps(rules.to_dict()),)
            )

    def set_admin_token(self, token: str) -> None:
        """Make ``token`` the admin token (only its hash is stored; the old one stops
        working)."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('admin', ?)", (token_hash(token),))

    def is_admin(self, token: str) -> bool:
        """Whether ``token`` is the admin token (compared in constant time, by hash)."""
        rows = self._query("SELECT value FROM meta WHERE key='admin'")
        return bool(rows) and secrets.compare_digest(rows[0][0], token_hash(token))

    # ---------------------------------------------------------------- members

    def add_member(
        self, name: str, kind: str, spec: str | None = None, concurrency: int = 1
    ) -> tuple[Member, str | None]:
        """Add a member; return it and its token (``None`` for a house bot). The token is
        returned once and stored only as its hash."""
        check_name(name)
        if kind not in KINDS:
            raise LeagueError(f"member kind {quote(kind)} is not one of {', '.join(KINDS)}")
        if not 1 <= concurrency <= MAX_CONCURRENCY:
            raise LeagueError(f"concurrency must be 1 to {MAX_CONCURRENCY}, got {concurrency}")
        token = None if kind == "house" else new_token()
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM members WHERE name = ?", (name,)).fetchone():
                raise LeagueError(f"a member named {quote(name)} exists already")
            cursor = db.execute(
                "INSERT INTO members (name, kind, spec, token_hash, concurrency, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, kind, spec, None if token is None else token_hash(token), concurrency,
                 time.time()),
            )  # fmt: skip
            member_id = int(cursor.lastrowid or 0)
        return self.member(member_id), token

    def _member_row(self, row: tuple[Any, ...]) -> Member:
        return Member(int(row[0]), str(row[1]), str(row[2]), row[3], bool(row[4]), int(row[5]))

    def member(self, member_id: int) -> Member:
        """The member with this id, revoked or not; :class:`LeagueError` if there is none."""
        rows = self._query(
            "SELECT id, name, kind, spec, revoked, concurrency FROM members WHERE id = ?",
            (member_id,),
        )
        if not rows:
            raise LeagueError(f"no member with id {member_id}")
        return self._member_row(rows[0])

    def member_named(self, name: str) -> Member:
        """The member called ``name``, revoked or not; :class:`LeagueError` if there is none."""
        rows = self._query(
            "SELECT id, name, kind, spec, revoked, concurrency FROM members WHERE name = ?",
            (name,),
        )
        if not rows:
            raise LeagueError(f"no member named {quote(name)}")
        return self._member_row(rows[0])

    def members(self) -> list[Member]:
        """Every member, revoked ones too, in the order they were added."""
        rows = self._query(
            "SELECT id, name, kind, spec, revoked, concurrency FROM members ORDER BY id"
        )
        return [self._member_row(r) for r in rows]

    def authenticate(self, token: str) -> Member | None:
        """The member whose token this is, if it is not revoked; else ``None``."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        rows = self._query(
            "SELECT id, name, kind, spec, revoked, concurrency FROM members "
            "WHERE token_hash = ? AND revoked = 0",
            (token_hash(token),),
        )
        return self._member_row(rows[0]) if rows else None

    def token_hashes(self) -> dict[int, str]:
        """Each member's current token hash (revoked ones included), by member id."""
        rows = self._query("SELECT id, token_hash FROM members WHERE token_hash IS NOT NULL")
        return {int(member_id): str(digest) for member_id, digest in rows}

    def revoke(self, name: str) -> Member:
        """Revoke a member's token (it can no longer connect); its games and ratings stay."""
        member = self.member_named(name)
        with self._transaction() as db:
            db.execute("UPDATE members SET revoked = 1 WHERE id = ?", (member.id,))
        return self.member(member.id)

    def approve(self, name: str) -> Member:
        """Approve a person: their games are rated from now on (:mod:`.rules`); a bot or
        house bot is established already (:class:`LeagueError`)."""
        member = self.member_named(name)
        if member.kind != "person":
            raise LeagueError(f"{quote(name)} is a {member.kind}: only people need approval")
        with self._transaction() as db:
            db.execute("UPDATE members SET approved = 1 WHERE id = ?", (member.id,))
        return member

    def established(self, member_id: int, rules: LeagueRules) -> tuple[bool, str]:
        """Whether the member's games are rated under ``rules``, and the sentence that
        says so to a person (bots and house bots: always rated)."""
        with self._lock:
            return self._established(self.db, member_id, rules)

    @staticmethod
    def _established(
        db: sqlite3.Connection, member_id: int, rules: LeagueRules
    ) -> tuple[bool, str]:
        kind, approved = db.execute(
            "SELECT kind, approved FROM members WHERE id = ?", (member_id,)
        ).fetchone()
        if kind != "person":
            return True, "your games are rated"
        games, opponents = db.execute(
            "SELECT COUNT(*), COUNT(DISTINCT CASE WHEN x_id = ?1 THEN o_id ELSE x_id END) "
            "FROM games WHERE status = 'finished' AND (x_id = ?1 OR o_id = ?1)",
            (member_id,),
        ).fetchone()
        args = (bool(approved), int(games), int(opponents))
        return rules.established(*args), rules.progress(*args)

    def rotate(self, name: str) -> str:
        """Give a member a new token (the old one stops working); return the new token."""
        member = self.member_named(name)
        if member.kind == "house":
            raise LeagueError(f"{quote(name)} is a house bot: it has no token")
        token = new_token()
        with self._transaction() as db:
            db.execute(
                "UPDATE members SET token_hash = ?, revoked = 0 WHERE id = ?",
                (token_hash(token), member.id),
            )
        return token

    # ------------------------------------------------------------------ games

    def new_pair(self, a_id: int, b_id: int, opening: int) -> int:
        """Record a new colour-swapped pair of members ``a_id`` and ``b_id`` on the
        league's opening number ``opening``; return the pair's id."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO pairs (a_id, b_id, opening, created) VALUES (?, ?, ?, ?)",
                (a_id, b_id, opening, time.time()),
            )
            return int(cursor.lastrowid or 0)

    def pair_count(self) -> int:
        """How many pairs the league has started (the next new pair's opening counts from it)."""
        return int(self._query("SELECT COALESCE(MAX(id), 0) FROM pairs")[0][0])

    def open_pairs(self) -> list[tuple[int, int, int, int, int]]:
        """Pairs whose second game is still to play: ``(pair, a, b, opening, next leg)``,
        oldest first (a pair with a game in flight is not open)."""
        rows = self._query(
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
        with self._transaction() as db:
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
        detail: str,
        record: str,
        scores: tuple[int, int],
        plies: int,
        times: tuple[float, float],
        rules: LeagueRules | None = None,
        rated: bool = True,
    ) -> tuple[Glicko, Glicko]:
        """Store a game's end and rate it, in one transaction; return both new ratings.
        A game with a person who is not established under ``rules`` (the stored rules if
        ``None``), or one that is not ``rated`` (a game of an unrated event), is stored
        unrated (no ``rated_seq``, no rating rows): both ratings stay."""
        rules = self.rules() if rules is None else rules
        with self._transaction() as db:
            row = db.execute(
                "SELECT x_id, o_id, status FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None or row[2] != "playing":
                raise StoreError(f"game {game_id} is not in play")
            x_id, o_id = int(row[0]), int(row[1])
            rated = rated and all(self._established(db, m, rules)[0] for m in (x_id, o_id))
            seq = int(db.execute("SELECT COALESCE(MAX(rated_seq), 0) + 1 FROM games").fetchone()[0])
            db.execute(
                "UPDATE games SET status='finished', result=?, termination=?, detail=?, "
                "record=?, x_score=?, o_score=?, plies=?, x_time=?, o_time=?, ended=?, "
                "rated_seq=?, limited=1 WHERE id = ?",
                (result, termination, detail, record, scores[0], scores[1], plies,
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
        self, game_id: int, detail: str, record: str | None = None, plies: int = 0
    ) -> None:
        """Mark a game in play as aborted (unrated), keeping ``record`` (the moves played
        so far) when given; without one, what :meth:`save_progress` wrote stays."""
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET status='aborted', termination='abandoned', detail=?, ended=?, "
                "record=COALESCE(?, record), plies=CASE WHEN ? IS NULL THEN plies ELSE ? END "
                "WHERE id = ? AND status = 'playing'",
                (detail, time.time(), record, record, plies, game_id),
            )

    def save_progress(self, games: list[tuple[int, str, int]]) -> None:
        """Write the record so far and its plies of games in play, ``(id, record, plies)``
        each, in one transaction: a game aborted by a crash keeps its moves."""
        with self._transaction() as db:
            db.executemany(
                "UPDATE games SET record=?, plies=? WHERE id = ? AND status = 'playing'",
                [(record, plies, game_id) for game_id, record, plies in games],
            )

    def abort_in_flight(self) -> int:
        """Mark every game still ``playing`` as aborted (a server starting after a crash);
        return how many."""
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE games SET status='aborted', termination='abandoned', "
                "detail='the server stopped during the game', ended=? WHERE status='playing'",
                (time.time(),),
            )
            return int(cursor.rowcount)

    def game(self, game_id: int) -> StoredGame | None:
        """The stored game with this id (in play, finished or aborted), or ``None``."""
        rows = self._query(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return StoredGame(*rows[0]) if rows else None

    def games(
        self,
        member_id: int | None = None,
        status: str | None = None,
        limit: int | None = None,
        with_record: bool = False,
    ) -> list[StoredGame]:
        """Games, newest first, optionally of one member and/or one status (their
        ``record`` is ``None`` unless ``with_record``)."""
        where: list[str] = []
        args: list[object] = []
        if member_id is not None:
            where.append("(x_id = ? OR o_id = ?)")
            args += [member_id, member_id]
        if status is not None:
            where.append("status = ?")
            args.append(status)
        sql = f"SELECT {GAME_COLUMNS if with_record else LIGHT_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [StoredGame(*r) for r in self._query(sql, tuple(args))]

    def rated_games(self) -> list[StoredGame]:
        """Rated finished games in the order they were rated (without their records);
        unrated ones (with a provisional person, :mod:`.rules`) are left out."""
        rows = self._query(
            f"SELECT {LIGHT_COLUMNS} FROM games WHERE status='finished' "
            "AND rated_seq IS NOT NULL ORDER BY rated_seq"
        )
        return [StoredGame(*r) for r in rows]

    def rated_games_between(self, a_id: int, b_id: int) -> list[StoredGame]:
        """The rated finished games of members ``a_id`` and ``b_id`` against each other, in
        the order they were rated (without records; unrated ones left out as in
        :meth:`rated_games`); read through the players' index, not by scanning every game."""
        rows = self._query(
            f"SELECT {LIGHT_COLUMNS} FROM games WHERE status='finished' AND "
            "rated_seq IS NOT NULL AND "
            "((x_id = ? AND o_id = ?) OR (x_id = ? AND o_id = ?)) ORDER BY rated_seq",
            (a_id, b_id, b_id, a_id),
        )
        return [StoredGame(*r) for r in rows]

    def games_between(self) -> dict[tuple[int, int], int]:
        """Finished or running games per unordered pair of members (smaller id first)."""
        rows = self._query(
            "SELECT MIN(x_id, o_id), MAX(x_id, o_id), COUNT(*) FROM games "
            "WHERE status != 'aborted' GROUP BY 1, 2"
        )
        return {(int(a), int(b)): int(n) for a, b, n in rows}

    # ---------------------------------------------------------------- ratings

    def ratings(self) -> dict[int, Glicko]:
        """Every member's current Glicko-2 rating (the start rating if unrated)."""
        current = {m.id: Glicko() for m in self.members()}
        rows = self._query(
            "SELECT r.member_id, r.rating, r.rd, r.volatility FROM ratings r "
            "JOIN (SELECT member_id, MAX(seq) AS seq FROM ratings GROUP BY member_id) last "
            "ON r.seq = last.seq"
        )
        for member_id, rating, rd, vol in rows:
            current[int(member_id)] = Glicko(float(rating), float(rd), float(vol))
        return current

    def history(self, member_id: int) -> list[tuple[int, float, float, float]]:
        """``(game, rating, rd, time)`` after each of a member's rated games, oldest first."""
        rows = self._query(
            "SELECT game_id, rating, rd, at FROM ratings WHERE member_id = ? ORDER BY seq",
            (member_id,),
        )
        return [(int(g), float(r), float(d), float(t)) for g, r, d, t in rows]

    def recompute_ratings(self) -> dict[int, Glicko]:
        """Every member's rating recomputed from the stored finished games alone."""
        current = {m.id: Glicko() for m in self.members()}
        rows = self._query(
            "SELECT x_id, o_id, result, limited FROM games WHERE status='finished' "
            "AND rated_seq IS NOT NULL ORDER BY rated_seq"
        )
        for x_id, o_id, result, limited in rows:
            x_points = {"x": 1.0, "o": 0.0}.get(result or "", 0.5)
            step = rate if limited else rate_game
            current[x_id], current[o_id] = step(current[x_id], current[o_id], x_points)
        return current
