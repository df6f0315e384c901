"""The league database's schema: its tables, the columns added since, its store settings.

Tables: ``meta`` (schema version, the settings, the rules, the admin token's hash),
``members`` (bots, house bots and people; a token is stored only as its SHA-256 hash),
``pairs`` (a colour-swapped pair of games from one opening), ``games`` (every game, with
its full record once it ends), ``ratings`` (each member's Glicko-2 rating after each rated
game: the rating history), the events' tables (:data:`EVENT_SCHEMA`) and ``proofs``
(the games that establish a person, :data:`PROOFS`). Their numbered versions:
:data:`STORE_SCHEMA`.

Three more tables are aggregates of those, kept by triggers in the same transaction as
the rows they sum (so they are never out of step, whatever writes the file: the server,
the admin commands, a removal), and rebuilt from the games and ratings when a database
of an earlier version is upgraded (:mod:`.aggregates`): ``results`` (per member and
opponent: finished games, points, rated wins/draws/losses, moves and clock time),
``failures`` (per member, the losses not decided on the board, by termination) and
``current_ratings`` (each member's latest ``ratings`` row). The public pages read them
instead of every stored game; :meth:`.rating_rows.RatingsRepo.recompute_totals`
is the recomputation they must equal.
"""

from __future__ import annotations

import json
import sqlite3

from ...serving.legacy_details import explain
from ...storage import Schema, Step, StoreConfig
from .aggregates import keep_totals
from .proofs import replay_proofs
from .records import detail_row

SCHEMA_VERSION = "adjacency-league-1"
"""The ``schema`` row of ``meta``: the version mark of the files before numbered versions
(:data:`STORE_SCHEMA`), still written by :meth:`.league_meta.MetaRepo.create` so that code
of that time opens a file of step 1; such a file with another mark is refused."""

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
CREATE INDEX IF NOT EXISTS pairs_a ON pairs(a_id);
CREATE INDEX IF NOT EXISTS pairs_b ON pairs(b_id);
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
CREATE INDEX IF NOT EXISTS members_kind ON members(kind);
CREATE TABLE IF NOT EXISTS results (
    member_id INTEGER NOT NULL,
    opponent_id INTEGER NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    points2 INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    ms INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (member_id, opponent_id)
);
CREATE TABLE IF NOT EXISTS failures (
    member_id INTEGER NOT NULL,
    termination TEXT NOT NULL,
    n INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (member_id, termination)
);
CREATE TABLE IF NOT EXISTS current_ratings (
    member_id INTEGER PRIMARY KEY,
    seq INTEGER NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL
);
"""


MIGRATIONS = (
    ("members", "approved", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "limited", "INTEGER NOT NULL DEFAULT 0"),
)
"""Columns added after the first release (old rows get the default). ``limited``: the
game was rated with :func:`.rules.rate` (changes against provisional opponents limited);
games rated before that rule (0) are recomputed as they were rated."""

EVENT_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    format TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    start REAL,
    rated INTEGER NOT NULL DEFAULT 1,
    all_connected INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'scheduled'
        CHECK (status IN ('scheduled', 'running', 'finished')),
    created REAL NOT NULL,
    started REAL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS event_members (
    event_id INTEGER NOT NULL REFERENCES events(id),
    member_id INTEGER NOT NULL REFERENCES members(id),
    seed INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, member_id)
);
CREATE TABLE IF NOT EXISTS event_boards (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events(id),
    round INTEGER NOT NULL,
    a_id INTEGER NOT NULL REFERENCES members(id),
    b_id INTEGER REFERENCES members(id),
    pair_id INTEGER UNIQUE REFERENCES pairs(id)
);
CREATE INDEX IF NOT EXISTS event_boards_event ON event_boards(event_id, round);
"""
"""The events' tables (:mod:`.events.event_store`): ``events``, ``event_members`` (the members
in seeding order, each possibly withdrawn), ``event_boards`` (each round's boards; a
played board names the league pair whose two games are its colour-swapped game pair)."""

PROOFS = """
CREATE TABLE IF NOT EXISTS proofs (
    member_id INTEGER NOT NULL,
    opponent_id INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (member_id, opponent_id)
) WITHOUT ROWID;
"""
"""The finished games that count toward each person's establishment, by opponent
(:func:`.members.add_proof`)."""


EVENT_CLOCK = (
    ("events", "base", "REAL"),
    ("events", "increment", "REAL"),
)
"""An event's own clock, seconds each and seconds added per move; ``NULL``: the league's
clock (events stored before this column, and events created without a clock)."""

EVENT_PACE = (("events", "pace", "REAL"),)
"""An event's own pace, the least seconds each bot's move takes in its games (house or
connected bots; people are never held); ``NULL``: the server's ``--pace``, for games
between two house bots only (events stored before this column, and events created
without a pace)."""


SUBMISSIONS = """
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id),
    version INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    filename TEXT NOT NULL,
    data BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'received'
        CHECK (status IN ('received', 'building', 'accepted', 'refused')),
    detail TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    decided REAL,
    UNIQUE (member_id, version),
    UNIQUE (member_id, sha256)
);
CREATE INDEX IF NOT EXISTS submissions_status ON submissions(status);
"""
"""Every version of every team's submitted code (:mod:`.submission_rows`): the zip as
uploaded, its SHA-256, the team's version number and the build's verdict."""

SUBMITTED_COLUMNS = (
    ("events", "deadline", "REAL"),
    ("games", "x_version", "INTEGER"),
    ("games", "o_version", "INTEGER"),
)
"""An event's upload deadline (``NULL``: none), and the submission (``submissions.id``)
each side of a game played, ``NULL`` for a side that was not a hosted bot."""

LOG_LINES = """
CREATE TABLE IF NOT EXISTS log_lines (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    level TEXT NOT NULL,
    severity INTEGER NOT NULL,
    logger TEXT NOT NULL,
    message TEXT NOT NULL
);
"""
"""The teacher's log (:mod:`.log_rows`): the server's log lines, kept across restarts,
the oldest dropped beyond a size (:data:`.log_rows.MAX_BYTES`)."""

LOG_CODES = (
    ("log_lines", "code", "TEXT"),
    ("log_lines", "params", "TEXT"),
)
"""A log line's message code (the catalogues' ``log.<code>``) and its params (a JSON
object), so that a page tells it in its reader's language; ``NULL`` for a line of no
code (and the lines logged before)."""

PICTURES = """
CREATE TABLE IF NOT EXISTS pictures (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id),
    submission_id INTEGER NOT NULL REFERENCES submissions(id),
    what TEXT NOT NULL CHECK (what IN ('window', 'check', 'game')),
    game_id INTEGER NOT NULL DEFAULT 0,
    png BLOB NOT NULL,
    created REAL NOT NULL,
    UNIQUE (submission_id, what, game_id)
);
CREATE INDEX IF NOT EXISTS pictures_member ON pictures(member_id);
"""
"""Pictures of a team's program played through its window (:mod:`.picture_rows`): a
refused version's input window, its board at a failed move of its check or of a game."""

DIGESTS = """
CREATE TABLE IF NOT EXISTS digests (
    submission_id INTEGER PRIMARY KEY REFERENCES submissions(id),
    prints BLOB NOT NULL,
    code BLOB NOT NULL,
    made REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS corpus (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('template', 'earlier')),
    data BLOB NOT NULL,
    prints BLOB NOT NULL,
    created REAL NOT NULL
);
"""
"""What is read of a version again and again, made once when it is accepted
(:mod:`.digest_rows`): its fingerprints and its code as the pages show it; and the
similarity report's corpus: the league's template and earlier years' projects."""

LEFT_OUT = (("submissions", "left_out", "TEXT NOT NULL DEFAULT ''"),)
"""What an upload held besides its kept files, noted when the server received it
(:mod:`adjacency.league.grading.left_out`): JSON, ``''`` for nothing (or a version from before)."""

EVENT_PEOPLE = (("events", "people", "INTEGER NOT NULL DEFAULT 0"),)
"""Whether people may join the event before it starts
(:meth:`.events.event_entries.EventEntries.join`); 0 for the events stored before this
column: for bots only, as they were created."""


TEAM_NOTES = """
CREATE TABLE IF NOT EXISTS team_notes (
    member_id INTEGER PRIMARY KEY REFERENCES members(id),
    text TEXT NOT NULL,
    updated REAL NOT NULL
);
"""
"""The teacher's note on each team (:mod:`.note_rows`), the teacher's only: no team's
route nor public page reads it."""


SIMILARITY_RECORDS = """
CREATE TABLE IF NOT EXISTS similarity_records (
    event_id INTEGER PRIMARY KEY REFERENCES events(id),
    made REAL NOT NULL,
    prints TEXT NOT NULL,
    threshold REAL NOT NULL,
    pairs TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS similarity_marks (
    event_id INTEGER NOT NULL REFERENCES events(id),
    a TEXT NOT NULL,
    b TEXT NOT NULL,
    mark TEXT NOT NULL CHECK (mark IN ('reviewed', 'cleared', 'flagged')),
    note TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (event_id, a, b)
);
"""
"""Each event's similarity report saved as a record (:mod:`.report_rows`): when, the
fingerprints' version, the threshold and its listed pairs; and the teacher's mark and
note on each pair (reviewed, cleared, flagged)."""

KEPT_OUT = (("members", "kept_out", "INTEGER NOT NULL DEFAULT 0"),)
"""A member the teacher keeps out of the ladder and the events (a template or sparring
account, :meth:`.members.MembersRepo.keep_out`): never paired, its games unrated, not
in the standings; 0 for the members stored before this column."""


OUTPUTS = """
CREATE TABLE IF NOT EXISTS outputs (
    submission_id INTEGER NOT NULL REFERENCES submissions(id),
    member_id INTEGER NOT NULL REFERENCES members(id),
    game_id INTEGER NOT NULL DEFAULT 0,
    text TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (submission_id, game_id)
);
CREATE INDEX IF NOT EXISTS outputs_member ON outputs(member_id);
"""
"""The last output of a team's program at a failed move (:mod:`.output_rows`): its
standard error's last 64 KiB at its check's failed move (``game_id`` 0) or at the move
it lost a game by, for its team and the teacher."""


def _index_kept_out(db: sqlite3.Connection) -> None:
    """Index the members kept out (:data:`KEPT_OUT`), only those: a scheduler pass asks
    for them, and must not read every person of a class to learn that none is."""
    db.execute("CREATE INDEX IF NOT EXISTS members_kept_out ON members(id) WHERE kept_out = 1")


def _replay_proofs(db: sqlite3.Connection) -> None:
    """Replace ``proofs`` by a replay of the finished games under the league's stored
    rules and today's rule of establishment (:func:`.proofs.replay_proofs`)."""
    from ..rules import LeagueRules

    row = db.execute("SELECT value FROM meta WHERE key = 'rules'").fetchone()
    rules = LeagueRules.from_dict(json.loads(row[0])) if row else LeagueRules()
    db.execute("DELETE FROM proofs")
    db.executemany(
        "INSERT INTO proofs (member_id, opponent_id, games) VALUES (?, ?, ?)",
        [(m, o, n) for (m, o), n in replay_proofs(db, rules).items()],
    )


def _fill_proofs(db: sqlite3.Connection) -> None:
    """Fill ``proofs`` by a replay of the finished games (:func:`_replay_proofs`), so
    people who established each other under the earlier rule are provisional again. A
    file whose ``meta`` says it was filled (``proofs``, the mark of the code before this
    step) keeps its rows (a later step replays them again)."""
    if not db.execute("SELECT 1 FROM meta WHERE key = 'proofs'").fetchone():
        _replay_proofs(db)


DETAIL_CODES = (
    ("games", "detail_code", "TEXT"),
    ("games", "detail_params", "TEXT"),
)
"""How a game ended as a code (:class:`~adjacency.core.details.DetailCode`) and its params
(a JSON object) beside ``detail``, its English text: ``NULL`` for words of no code."""


def _read_details(db: sqlite3.Connection) -> None:
    """Fill each game's detail code from its text, read back once by the sentences the
    servers wrote before the codes were stored."""
    rows = db.execute("SELECT id, detail FROM games WHERE detail != ''").fetchall()
    coded = [(game_id, detail_row(explain(text))) for game_id, text in rows]
    db.executemany(
        "UPDATE games SET detail_code = ?, detail_params = ? WHERE id = ?",
        [(row[1], row[2], game_id) for game_id, row in coded if row[1] is not None],
    )


ORIGINS = (("members", "origin", "TEXT"),)
"""The key of the address a person joined from
(:func:`~adjacency.serving.addresses.address_key`): people of one address are one voucher
of another person's establishment (:mod:`.rules`); ``NULL`` for bots, people the admin
added, and people who joined before it was kept."""


def _other_version(db: sqlite3.Connection) -> str | None:
    """Why a league file from before numbered versions cannot be upgraded: its ``meta``
    row ``schema`` names another version (read only)."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
        return None
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None or row[0] == SCHEMA_VERSION:
        return None
    return (
        f"it is a league database of another version: schema {row[0]}, "
        f"this version reads {SCHEMA_VERSION}"
    )


MOVE_TIMES = """
CREATE TABLE IF NOT EXISTS move_times (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    member_id INTEGER NOT NULL REFERENCES members(id),
    cpu REAL NOT NULL,
    idle REAL NOT NULL,
    waited REAL NOT NULL,
    charged REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
);
"""
"""Each hosted move's seconds (:mod:`.move_time_rows`)."""


REPORT_CARDS = """
CREATE TABLE IF NOT EXISTS report_cards (
    submission_id INTEGER PRIMARY KEY REFERENCES submissions(id),
    basis TEXT NOT NULL,
    card TEXT NOT NULL,
    made REAL NOT NULL
);
"""
"""Each version's last report card (:mod:`.card_rows`), with the digest of what it was
made from (``basis``: its games and the review's settings): one row a version, replaced
when its card is made again."""


STORE_SCHEMA = Schema(
    (
        Step(
            "the league's and the events' tables, the aggregates' triggers and rows",
            SCHEMA + EVENT_SCHEMA,
            MIGRATIONS,
            run=keep_totals,
        ),
        Step("proofs, replayed from the finished games", PROOFS, run=_fill_proofs),
        Step("each event's own clock", columns=EVENT_CLOCK),
        Step("each game's detail code", columns=DETAIL_CODES, run=_read_details),
        Step("each event's own pace", columns=EVENT_PACE),
        Step(
            "each person's address, and proofs replayed: only established people vouch",
            columns=ORIGINS,
            run=_replay_proofs,
        ),
        Step(
            "submitted code: versions, deadlines, the version each game played",
            SUBMISSIONS,
            columns=SUBMITTED_COLUMNS,
        ),
        Step("events open to people", columns=EVENT_PEOPLE),
        Step("the teacher's log, kept across restarts", LOG_LINES),
        Step("pictures of the teams' programs", PICTURES),
        Step(
            "versions' fingerprints and code, made once; the similarity corpus",
            DIGESTS,
            columns=LEFT_OUT,
        ),
        Step("the teacher's notes on teams", TEAM_NOTES),
        Step(
            "members kept out of the ladder and the events",
            columns=KEPT_OUT,
            run=_index_kept_out,
        ),
        Step("similarity reports saved as records, and their pairs' marks", SIMILARITY_RECORDS),
        Step("the last output of refused programs and of lost games", OUTPUTS),
        Step("each log line's message code and params", columns=LOG_CODES),
        Step("each hosted move's CPU, idle and waited seconds", MOVE_TIMES),
        Step("each version's report card, kept across restarts", REPORT_CARDS),
    ),
    legacy=_other_version,
    strays=("plan", "runs"),
)
"""The numbered steps of a league database (``PRAGMA user_version``; the scheme of
:mod:`adjacency.storage`):

1. the tables of :data:`SCHEMA` and :data:`EVENT_SCHEMA`; a file written before numbered
   versions gets the columns of :data:`MIGRATIONS`, and the aggregate tables built with
   their triggers (:data:`.aggregates.TOTALS_VERSION`);
2. ``proofs`` (:data:`PROOFS`), filled by a replay of the finished games;
3. each event's own clock (:data:`EVENT_CLOCK`; an event stored before has none: its
   games are played on the league's clock);
4. each game's detail code and params (:data:`DETAIL_CODES`), read once from the
   details stored before (:func:`~adjacency.serving.legacy_details.explain`; words of
   no code, an engine's, stay ``NULL``);
5. each event's own pace (:data:`EVENT_PACE`; an event stored before has none: its
   games follow the server's ``--pace``);
6. each person's address key (:data:`ORIGINS`; ``NULL`` before: such a person is a
   voucher of their own), and ``proofs`` replayed under the rule that only established
   people vouch, once per address or approval, for played games only
   (:func:`_replay_proofs`): people established by games against bots, or by
   resignations, are provisional again; the ratings already earned stay;
7. the teams' submitted code (:data:`SUBMISSIONS`), each event's upload deadline and
   the version each side of a game played (:data:`SUBMITTED_COLUMNS`; none before);
8. whether people may join each event (:data:`EVENT_PEOPLE`; an event stored before is
   for bots only);
9. the teacher's log (:data:`LOG_LINES`; empty in a file from before: its lines were
   not kept);
10. pictures of the teams' programs played through their windows (:data:`PICTURES`;
    none in a file from before);
11. each version's fingerprints and code as shown, made once when it is accepted, and
    the similarity report's corpus (:data:`DIGESTS`; a version accepted before gets
    them the first time they are asked for); what each upload left out
    (:data:`LEFT_OUT`; nothing noted for a version from before);
12. the teacher's note on each team (:data:`TEAM_NOTES`; none in a file from before);
13. whether a member is kept out of the ladder and the events (:data:`KEPT_OUT`, indexed for
    those kept out only; no member of a file from before is);
14. each event's similarity report saved as a record and its pairs' marks
    (:data:`SIMILARITY_RECORDS`; none in a file from before);
15. a program's last output at its check's failed move and at each game it lost by a
    failed move (:data:`OUTPUTS`; none in a file from before);
16. each log line's message code and params (:data:`LOG_CODES`; ``NULL`` in the lines
    logged before, told in English);
17. each hosted move's CPU, idle and waited-for-a-CPU seconds and its charge
    (:data:`MOVE_TIMES`; none for the games played before);
18. each version's last report card with what it was made from (:data:`REPORT_CARDS`;
    none in a file from before: a card is made the first time it is asked for).

A file from before numbered versions that an earlier ``adjacency report`` or ``match
--db`` left with the empty results tables ``runs`` and ``plan`` (which made every
``adjacency league`` command refuse it) opens again: the upgrade drops them.

A file that is not a league database (a results file, another program's) is refused
before anything is written to it (:class:`~adjacency.storage.WrongDatabaseError`)."""

CONFIG = StoreConfig("league", check_same_thread=False)
"""The shared configuration of :mod:`adjacency.storage`, with one connection shared by
the server's threads behind the store's lock."""
