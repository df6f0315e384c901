"""The league's database as one object (:class:`LeagueStore`): the facade that composes
the connection (:class:`~.store.database.LeagueDb`) and the repositories of its tables.

* :class:`~.store.league_meta.MetaRepo` (``meta``): the settings, rules and admin token;
* :class:`~.store.members.MembersRepo` (``members``): members, tokens, establishment;
* :class:`~.store.game_rows.GamesRepo` (``games``): pairs and games, a game's end rated
  in one transaction;
* :class:`~.store.rating_rows.RatingsRepo` (``ratings``): ratings, histories and the
  aggregates the public pages read;
* :class:`~.events.event_store.EventsRepo` (``events``): the events, their members and boards;
* :class:`~.store.submission_rows.SubmissionsRepo` (``submissions``): the teams' submitted code,
  every version, and the events' upload deadlines;
* :class:`~.store.digest_rows.DigestsRepo` (``digests``, ``corpus``): each version's
  fingerprints and shown code, made once; the similarity report's template and corpus;
* :class:`~.store.picture_rows.PicturesRepo` (``pictures``): pictures of the teams' programs
  played through their windows, bounded per team;
* :class:`~.store.output_rows.OutputsRepo` (``outputs``): a refused program's last output,
  bounded per team;
* :class:`~.store.move_time_rows.MoveTimesRepo` (``move_times``): each hosted move's CPU,
  idle and waited-for-a-CPU seconds;
* :class:`~.store.card_rows.CardsRepo` (``report_cards``): each version's last report
  card, with what it was made from.

Each repository takes the :class:`~.store.database.LeagueDb` and reads and writes only through
its public :meth:`~.store.database.LeagueDb.query` and
:meth:`~.store.database.LeagueDb.transaction`; the tables are all defined in
:mod:`.store.schema`. The facade only opens the file and wires the repositories; a caller
names the repository it uses (``store.members.authenticate``), so what a line touches is
visible where it is written. A write that spans tables is one repository method in one
transaction (a game's end in :meth:`.store.game_rows.GamesRepo.finish_game`). The rows as
plain data, names and tokens are in :mod:`.store.records` (re-exported here, where the
rest of the league imports them from).

Durability contract: a game's end, its record and both players' new ratings are
written in one transaction, so after any crash (``kill -9``) the stored ratings
are exactly a recomputation from the stored finished games
(:meth:`.store.rating_rows.RatingsRepo.recompute_ratings`). Games still marked ``playing``
when a server starts were in flight at a crash:
:meth:`.store.game_rows.GamesRepo.abort_in_flight` marks them ``aborted`` (unrated), with the
moves :meth:`.store.game_rows.GamesRepo.save_progress` wrote while they were played. WAL
mode lets the ``adjacency league`` admin commands write while the server runs.
"""

from __future__ import annotations

from pathlib import Path

from ..storage import SQLiteStore
from .events.event_store import EventsRepo
from .store.card_rows import CardsRepo
from .store.database import LeagueDb
from .store.digest_rows import DigestsRepo
from .store.game_rows import GamesRepo
from .store.league_meta import MetaRepo
from .store.members import MembersRepo
from .store.move_time_rows import MoveTimesRepo
from .store.note_rows import NotesRepo
from .store.output_rows import OutputsRepo
from .store.picture_rows import PicturesRepo
from .store.rating_rows import RatingsRepo
from .store.records import (
    KINDS,
    MAX_CONCURRENCY,
    MAX_NAME,
    TOKEN_PREFIX,
    LeagueError,
    Member,
    StoredGame,
    check_name,
    new_token,
    token_hash,
)
from .store.report_rows import ReportsRepo
from .store.schema import CONFIG, SCHEMA_VERSION
from .store.submission_rows import SubmissionsRepo
from .store.void_rows import VoidsRepo

__all__ = [
    "CONFIG",
    "KINDS",
    "MAX_CONCURRENCY",
    "MAX_NAME",
    "SCHEMA_VERSION",
    "TOKEN_PREFIX",
    "LeagueError",
    "LeagueStore",
    "Member",
    "StoredGame",
    "check_name",
    "new_token",
    "token_hash",
]


class LeagueStore(SQLiteStore):
    """A league database: its :class:`~.store.database.LeagueDb` and the repositories that
    compose it, one attribute each, which callers name (``store.members.member_named``,
    ``store.games.finish_game``). Thread-safe. Like every store of
    :mod:`adjacency.storage`, it has ``db`` (the connection: use it under
    :attr:`.store.database.LeagueDb.lock`), ``close()`` and the context manager."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        """Open (or with ``create``, create) a league database
        (:class:`~.store.database.LeagueDb`: a file of an earlier version is upgraded; one that
        is not a league database is refused, unchanged) and its repositories over the
        one connection (the games' repository reads the rules from the meta one; the
        events' resolves members through the members' one)."""
        self.database = LeagueDb(path, create)
        self.db = self.database.db
        self.meta = MetaRepo(self.database)
        """The settings, rules and admin token."""
        self.members = MembersRepo(self.database)
        """Members, tokens, approvals and establishment."""
        self.games = GamesRepo(self.database, self.meta)
        """Pairs and games; a game's end and both new ratings in one transaction."""
        self.ratings = RatingsRepo(self.database)
        """Ratings, histories and the aggregates the public pages read."""
        self.events = EventsRepo(self.database, self.members)
        """The events, their members and boards."""
        self.submissions = SubmissionsRepo(self.database)
        """The teams' submitted code, every version, and the upload deadlines."""
        self.pictures = PicturesRepo(self.database)
        """Pictures of the teams' programs: a refused version's window, a failed move's
        board."""
        self.outputs = OutputsRepo(self.database)
        """A refused program's last output, for its team."""
        self.move_times = MoveTimesRepo(self.database)
        """Each hosted move's CPU, idle and waited-for-a-CPU seconds."""
        self.digests = DigestsRepo(self.database)
        """Each version's fingerprints and shown code, made once; the similarity corpus."""
        self.voids = VoidsRepo(self.database)
        """Finished games the teacher voids (and, asked, has played again)."""
        self.notes = NotesRepo(self.database)
        """The teacher's notes on teams."""
        self.reports = ReportsRepo(self.database)
        """Similarity reports saved as records, and their pairs' marks."""
        self.cards = CardsRepo(self.database)
        """Each version's last report card, with what it was made from."""

    @property
    def path(self) -> Path:
        """The league file."""
        return self.database.path

    def close(self) -> None:
        """Close the database connection, under its lock (again: nothing happens)."""
        self.database.close()
