"""The rows and values of a league's events: :class:`Event` and :class:`StoredBoard` as
read from the league file, what a decided game is in SQL (:data:`DECIDED`), the detail
codes of absences, the most people an event takes and the refusal of a person's entry.

Contract: everything here is a value or a pure function (no database, no clock), so the
repositories of :mod:`.event_store`, the runner, the views and the games in play share
one meaning of each name without importing each other's code.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.details import DetailCode
from ...serving.errors import NotNow
from ..store.records import LeagueError
from .event_pairing import Board

BOTH_ABSENT = str(DetailCode.ABSENT_BOTH)
"""The detail code of a game neither team was there for: stored aborted (no result, no
rating, nothing in the league's totals), its pair's leg done, a loss for both in the
event (:attr:`.event_standings.EventGame.both_lost`)."""
ABSENCES = (BOTH_ABSENT, str(DetailCode.ABSENT), str(DetailCode.ABSENT_PAGE_CLOSED))
"""The details of the games an absence decided: both teams', a bot's, a person's."""

DECIDED = f"(g.status = 'finished' OR (g.status = 'aborted' AND g.detail_code = '{BOTH_ABSENT}'))"
"""SQL: a game of ``g`` that counts in its event: finished, or lost by both teams'
absence."""

TABLES = frozenset({"events", "event_members", "event_boards"})
"""The events' tables in a league's file (defined in :data:`.store.schema.EVENT_SCHEMA`)."""


def clock_text(clock: tuple[float, float]) -> str:
    """A clock ``(base, increment)`` as the league writes one: ``"30+0.5"``."""
    return f"{clock[0]:g}+{clock[1]:g}"


def waiting_reason(connected: int) -> str:
    """Why an event of every connected bot cannot start with ``connected`` members."""
    return f"{connected} member{'' if connected == 1 else 's'} connected, at least 2 needed"


@dataclass(frozen=True)
class Event:
    """One stored event."""

    id: int
    name: str
    format: str
    rounds: int
    start: float | None
    rated: bool
    all_connected: bool
    status: str
    created: float
    started: float | None
    finished: float | None
    paused: bool = False
    """Whether the teacher paused it (it stays ``running``: no new game starts)."""
    clock: tuple[float, float] | None = None
    """Its own clock, ``(base, increment)`` seconds, or ``None``: the league's clock."""
    pace: float | None = None
    """Its own pace: the least seconds each bot's move takes in its games, house or
    connected (people are never held); ``None``: the server's ``--pace``, which holds
    games between two house bots only."""
    people: bool = False
    """Whether people may join it before it starts (:meth:`.event_entries.EventEntries.join`)."""
    ladder: bool = False
    """Whether its teams play ladder games while a round is to play, the teacher's choice
    (:meth:`.event_progress.EventProgress.set_ladder`): off, the events come first (its
    teams, withdrawn ones too, play no ladder game until it is over); on, a team plays
    the ladder once its games of the round are over, and a withdrawn team at once."""

    def time_control(self, league: str) -> str:
        """Its games' clock as the league writes one (``"30+0.5"``): its own, or
        ``league``, the league's."""
        return league if self.clock is None else clock_text(self.clock)

    @property
    def swiss(self) -> bool:
        """Whether it is a Swiss."""
        return self.format == "swiss"


@dataclass(frozen=True)
class StoredBoard:
    """A board of an event's round as stored."""

    id: int
    round: int
    a: int
    b: int | None
    pair_id: int | None

    @property
    def board(self) -> Board:
        """As :mod:`.event_pairing` sees it."""
        return Board(self.a, self.b)


MAX_PEOPLE = 40
"""The most people one event takes (a class and its teachers): a round robin of them all
is already longer than a lesson."""


class EntryRefused(NotNow, LeagueError):
    """A person may not join or leave an event now (409 over HTTP); ``code`` says why
    for pages and clients: ``event_closed`` (not open to people), ``event_started`` (it
    started), ``event_full`` (:data:`MAX_PEOPLE` joined), ``event_not_joined`` (leaving
    an event one is not in)."""
