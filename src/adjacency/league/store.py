"""The league's database as one object (:class:`LeagueStore`): the facade that composes
the connection (:class:`~.database.LeagueDb`) and the repositories of its tables.

* :class:`~.league_meta.MetaRepo` (``meta_repo``): the settings, rules and admin token;
* :class:`~.members.MembersRepo` (``members_repo``): members, tokens, establishment;
* :class:`~.game_rows.GamesRepo` (``games_repo``): pairs and games, a game's end rated
  in one transaction;
* :class:`~.rating_rows.RatingsRepo` (``ratings_repo``): ratings, histories and the
  aggregates the public pages read;
* :class:`~.event_store.EventsRepo` (``events``): the events, their members and boards;
* :class:`~.submission_rows.SubmissionsRepo` (``submissions``): the teams' submitted code,
  every version, and the events' upload deadlines (callers name it: no forwards here).

Each repository takes the :class:`~.database.LeagueDb` and reads and writes only through
its public :meth:`~.database.LeagueDb.query` and :meth:`~.database.LeagueDb.transaction`;
the tables are all defined in :mod:`.schema`. The facade keeps the methods the rest of
the league calls (each one a repository's), so a caller holds one object per file. The
rows as plain data, names and tokens are in :mod:`.records` (re-exported here, where the
rest of the league imports them from).

Durability contract: a game's end, its record and both players' new ratings are
written in one transaction, so after any crash (``kill -9``) the stored ratings
are exactly a recomputation from the stored finished games
(:meth:`.rating_rows.RatingsRepo.recompute_ratings`). Games still marked ``playing``
when a server starts were in flight at a crash: :meth:`LeagueStore.abort_in_flight`
marks them ``aborted`` (unrated), with the moves :meth:`LeagueStore.save_progress` wrote
while they were played. WAL mode lets the ``adjacency league`` admin commands write
while the server runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..core.details import Detail
from ..ratings.glicko import Glicko
from ..storage import SQLiteStore
from .database import LeagueDb
from .event_store import EventsRepo
from .game_rows import GamesRepo
from .league_meta import MetaRepo
from .members import MembersRepo
from .rating_rows import RatingsRepo
from .records import (
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
from .rules import LeagueRules, Progress
from .schema import CONFIG, SCHEMA_VERSION
from .settings import LeagueSettings
from .submission_rows import SubmissionsRepo

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
    """A league database: its :class:`~.database.LeagueDb` and the repositories that
    compose it, with their methods the league calls. Thread-safe. Like every store of
    :mod:`adjacency.storage`, it has ``db`` (the connection: use it under
    :attr:`.database.LeagueDb.lock`), ``close()`` and the context manager."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        """Open (or with ``create``, create) a league database
        (:class:`~.database.LeagueDb`: a file of an earlier version is upgraded; one that
        is not a league database is refused, unchanged)."""
        self.database = LeagueDb(path, create)
        self.db = self.database.db
        self.meta_repo = MetaRepo(self.database)
        self.members_repo = MembersRepo(self.database)
        self.games_repo = GamesRepo(self.database, self.meta_repo)
        self.ratings_repo = RatingsRepo(self.database)
        self.events = EventsRepo(self.database, self.members_repo)
        self.submissions = SubmissionsRepo(self.database)

    @property
    def path(self) -> Path:
        """The league file."""
        return self.database.path

    @property
    def approvals(self) -> int:
        """:attr:`.members.MembersRepo.approvals`."""
        return self.members_repo.approvals

    def close(self) -> None:
        """Close the database connection, under its lock (again: nothing happens)."""
        self.database.close()

    # ---------------------------------------- meta

    def probe_write(self) -> None:
        """:meth:`.league_meta.MetaRepo.probe_write`."""
        return self.meta_repo.probe_write()

    @property
    def created(self) -> bool:
        """:attr:`.league_meta.MetaRepo.created`."""
        return self.meta_repo.created

    def create(self, settings: LeagueSettings, admin_token: str) -> None:
        """:meth:`.league_meta.MetaRepo.create`."""
        return self.meta_repo.create(settings, admin_token)

    def settings(self) -> LeagueSettings:
        """:meth:`.league_meta.MetaRepo.settings`."""
        return self.meta_repo.settings()

    def rules(self) -> LeagueRules:
        """:meth:`.league_meta.MetaRepo.rules`."""
        return self.meta_repo.rules()

    def set_rules(self, rules: LeagueRules) -> None:
        """:meth:`.league_meta.MetaRepo.set_rules`."""
        return self.meta_repo.set_rules(rules)

    def set_admin_token(self, token: str) -> None:
        """:meth:`.league_meta.MetaRepo.set_admin_token`."""
        return self.meta_repo.set_admin_token(token)

    def is_admin(self, token: str) -> bool:
        """:meth:`.league_meta.MetaRepo.is_admin`."""
        return self.meta_repo.is_admin(token)

    # ---------------------------------------- members

    def add_member(
        self,
        name: str,
        kind: str,
        spec: str | None = None,
        concurrency: int = 1,
        origin: str | None = None,
    ) -> tuple[Member, str | None]:
        """:meth:`.members.MembersRepo.add_member`."""
        return self.members_repo.add_member(name, kind, spec, concurrency, origin)

    def member(self, member_id: int) -> Member:
        """:meth:`.members.MembersRepo.member`."""
        return self.members_repo.member(member_id)

    def member_named(self, name: str) -> Member:
        """:meth:`.members.MembersRepo.member_named`."""
        return self.members_repo.member_named(name)

    def members(self) -> list[Member]:
        """:meth:`.members.MembersRepo.members`."""
        return self.members_repo.members()

    def member_count(self) -> int:
        """:meth:`.members.MembersRepo.member_count`."""
        return self.members_repo.member_count()

    def members_stamp(self) -> tuple[int, int, int]:
        """:meth:`.members.MembersRepo.members_stamp`."""
        return self.members_repo.members_stamp()

    def names(self, ids: Iterable[int]) -> dict[int, str]:
        """:meth:`.members.MembersRepo.names`."""
        return self.members_repo.names(ids)

    def listed_members(self, online: Iterable[int] = ()) -> list[Member]:
        """:meth:`.members.MembersRepo.listed_members`."""
        return self.members_repo.listed_members(online)

    def pairable(self, ids: Iterable[int]) -> dict[int, tuple[Member, str | None]]:
        """:meth:`.members.MembersRepo.pairable`."""
        return self.members_repo.pairable(ids)

    def authenticate(self, token: str) -> Member | None:
        """:meth:`.members.MembersRepo.authenticate`."""
        return self.members_repo.authenticate(token)

    def revoke(self, name: str) -> Member:
        """:meth:`.members.MembersRepo.revoke`."""
        return self.members_repo.revoke(name)

    def remove(self, name: str) -> tuple[Member, bool]:
        """:meth:`.members.MembersRepo.remove`."""
        return self.members_repo.remove(name)

    def expire_people(
        self, older_than: float, keep: set[int] | frozenset[int] = frozenset()
    ) -> list[str]:
        """:meth:`.members.MembersRepo.expire_people`."""
        return self.members_repo.expire_people(older_than, keep)

    def approve(self, name: str) -> Member:
        """:meth:`.members.MembersRepo.approve`."""
        return self.members_repo.approve(name)

    def established(self, member_id: int, rules: LeagueRules) -> tuple[bool, Progress]:
        """:meth:`.members.MembersRepo.established`."""
        return self.members_repo.established(member_id, rules)

    def proofs(self) -> dict[tuple[int, int], int]:
        """:meth:`.members.MembersRepo.proofs`."""
        return self.members_repo.proofs()

    def rotate(self, name: str) -> str:
        """:meth:`.members.MembersRepo.rotate`."""
        return self.members_repo.rotate(name)

    # ---------------------------------------- games

    def new_pair(self, a_id: int, b_id: int, opening: int) -> int:
        """:meth:`.game_rows.GamesRepo.new_pair`."""
        return self.games_repo.new_pair(a_id, b_id, opening)

    def pair_count(self) -> int:
        """:meth:`.game_rows.GamesRepo.pair_count`."""
        return self.games_repo.pair_count()

    def open_pairs(self) -> list[tuple[int, int, int, int, int]]:
        """:meth:`.game_rows.GamesRepo.open_pairs`."""
        return self.games_repo.open_pairs()

    def start_game(
        self, x_id: int, o_id: int, opening: str, pair_id: int | None = None, leg: int = 0
    ) -> int:
        """:meth:`.game_rows.GamesRepo.start_game`."""
        return self.games_repo.start_game(x_id, o_id, opening, pair_id, leg)

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
        """:meth:`.game_rows.GamesRepo.finish_game`."""
        return self.games_repo.finish_game(
            game_id, result, termination, detail, record, scores, plies, times, rules, rated
        )

    def abort_game(
        self, game_id: int, detail: str | Detail, record: str | None = None, plies: int = 0
    ) -> None:
        """:meth:`.game_rows.GamesRepo.abort_game`."""
        return self.games_repo.abort_game(game_id, detail, record, plies)

    def lose_both(self, game_id: int, detail: Detail, record: str) -> None:
        """:meth:`.game_rows.GamesRepo.lose_both`."""
        return self.games_repo.lose_both(game_id, detail, record)

    def save_progress(self, games: list[tuple[int, str, int]]) -> None:
        """:meth:`.game_rows.GamesRepo.save_progress`."""
        return self.games_repo.save_progress(games)

    def abort_in_flight(self) -> int:
        """:meth:`.game_rows.GamesRepo.abort_in_flight`."""
        return self.games_repo.abort_in_flight()

    def game(self, game_id: int) -> StoredGame | None:
        """:meth:`.game_rows.GamesRepo.game`."""
        return self.games_repo.game(game_id)

    def games(
        self,
        member_id: int | None = None,
        status: str | None = None,
        limit: int | None = None,
        with_record: bool = False,
        offset: int = 0,
    ) -> list[StoredGame]:
        """:meth:`.game_rows.GamesRepo.games`."""
        return self.games_repo.games(member_id, status, limit, with_record, offset)

    def game_count(self, member_id: int, *, aborted: bool = True) -> int:
        """:meth:`.game_rows.GamesRepo.game_count`."""
        return self.games_repo.game_count(member_id, aborted=aborted)

    def rated_games(self) -> list[StoredGame]:
        """:meth:`.game_rows.GamesRepo.rated_games`."""
        return self.games_repo.rated_games()

    def rated_games_between(self, a_id: int, b_id: int) -> list[StoredGame]:
        """:meth:`.game_rows.GamesRepo.rated_games_between`."""
        return self.games_repo.rated_games_between(a_id, b_id)

    def rated_count_between(self, a_id: int, b_id: int) -> int:
        """:meth:`.game_rows.GamesRepo.rated_count_between`."""
        return self.games_repo.rated_count_between(a_id, b_id)

    def games_between(self) -> dict[tuple[int, int], int]:
        """:meth:`.game_rows.GamesRepo.games_between`."""
        return self.games_repo.games_between()

    # ---------------------------------------- ratings

    def ratings(self) -> dict[int, Glicko]:
        """:meth:`.rating_rows.RatingsRepo.ratings`."""
        return self.ratings_repo.ratings()

    def history(
        self, member_id: int, points: int | None = None
    ) -> list[tuple[int, float, float, float]]:
        """:meth:`.rating_rows.RatingsRepo.history`."""
        return self.ratings_repo.history(member_id, points)

    def rated_history(
        self, member_id: int, points: int | None = None
    ) -> tuple[list[tuple[int, float, float, float]], int]:
        """:meth:`.rating_rows.RatingsRepo.rated_history`."""
        return self.ratings_repo.rated_history(member_id, points)

    def current_ratings(self) -> dict[int, Glicko]:
        """:meth:`.rating_rows.RatingsRepo.current_ratings`."""
        return self.ratings_repo.current_ratings()

    def rated_count(self) -> int:
        """:meth:`.rating_rows.RatingsRepo.rated_count`."""
        return self.ratings_repo.rated_count()

    def rated_totals(self) -> dict[int, tuple[int, int, int]]:
        """:meth:`.rating_rows.RatingsRepo.rated_totals`."""
        return self.ratings_repo.rated_totals()

    def rated_results(self) -> list[tuple[int, int, float, int]]:
        """:meth:`.rating_rows.RatingsRepo.rated_results`."""
        return self.ratings_repo.rated_results()

    def opponents(self, member_id: int) -> list[tuple[str, int, int, int, int]]:
        """:meth:`.rating_rows.RatingsRepo.opponents`."""
        return self.ratings_repo.opponents(member_id)

    def failures(self, member_id: int) -> dict[str, int]:
        """:meth:`.rating_rows.RatingsRepo.failures`."""
        return self.ratings_repo.failures(member_id)

    def totals(self) -> dict[str, list[tuple[object, ...]]]:
        """:meth:`.rating_rows.RatingsRepo.totals`."""
        return self.ratings_repo.totals()

    def recompute_totals(self) -> dict[str, list[tuple[object, ...]]]:
        """:meth:`.rating_rows.RatingsRepo.recompute_totals`."""
        return self.ratings_repo.recompute_totals()

    def recompute_ratings(self) -> dict[int, Glicko]:
        """:meth:`.rating_rows.RatingsRepo.recompute_ratings`."""
        return self.ratings_repo.recompute_ratings()
