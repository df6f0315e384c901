"""The league database's schema: its tables, the columns added since, its store settings.

Tables: ``meta`` (schema version, the settings, the rules, the admin token's hash),
``members`` (bots, house bots and people; a token is stored only as its SHA-256 hash),
``pairs`` (a colour-swapped pair of games from one opening), ``games`` (every game, with
its full record once it ends), ``ratings`` (each member's Glicko-2 rating after each rated
game: the rating history), and the events' tables (:mod:`.event_store`).
"""

from __future__ import annotations

from ..storage import StoreConfig

SCHEMA_VERSION = "adjacency-league-1"

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
