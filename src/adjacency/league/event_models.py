"""The league API's bodies of class events: the list of events, an event's page (its
settings, standings, crosstable, rounds and boards) and its table (they make the OpenAPI
schema beside :mod:`.models`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

EventFormat = Literal["round-robin", "double-round-robin", "swiss"]
EventStatus = Literal["scheduled", "running", "finished"]


class EventSummary(BaseModel):
    """An event in the list (``GET /api/league/events``)."""

    name: str
    format: EventFormat
    rounds: int = Field(description="rounds planned (a double round robin: two cycles)")
    status: EventStatus
    people: bool = Field(
        default=False,
        description="whether people may join it before it starts "
        "(``POST /api/league/events/{name}/join``)",
    )


class VersionsPlayed(BaseModel):
    """A team and the versions of its code (its own numbers) that played an event's games."""

    name: str
    versions: list[int]


class EventInfo(EventSummary):
    """An event's settings and status, as its table shows them."""

    rated: bool = Field(description="whether its games move the league's ratings")
    waiting: str | None = Field(
        default=None,
        description="why a scheduled event of every connected bot has not started, e.g. "
        "'1 member connected, at least 2 needed'; null otherwise",
    )
    paused: bool = Field(
        default=False,
        description="a running event the teacher paused: no new game of it starts until "
        "it is resumed",
    )
    time_control: str = Field(
        default="",
        description="its games' clock, e.g. '30+0.5': its own, or the league's",
    )
    pace: float | None = Field(
        default=None,
        description="its own pace, the least seconds a bot's move takes in its games; "
        "null: the server's (games between two house bots only)",
    )
    people_joined: int = Field(default=0, description="how many people are among its members")
    changed_versions: list[VersionsPlayed] = Field(
        default_factory=list,
        description="the teams whose games were played by more than one version of their "
        "code (it changed mid-event; an upload deadline fixes the version an event plays)",
    )


class EventRow(BaseModel):
    """One member's line of an event's standings (``adjacency.league.events.event_standings``):
    game points (a win 1, a draw 1/2, a bye 2), the tie-breaks, the pair and Elo
    statistics over the event's games."""

    rank: int = Field(description="members equal on points and tie-breaks share a rank")
    name: str
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    unplayed: int = Field(
        default=0,
        description="its forfeits, won or lost: games never played because a team withdrew "
        "after the round was paired, scored (a win for the team still in) but not in games",
    )
    sonneborn_berger: float = Field(description="round robins' tie-break")
    buchholz: float = Field(description="a Swiss's first tie-break")
    median_buchholz: float = Field(description="a Swiss's second tie-break")
    pentanomial: list[int] = Field(description="its complete pairs scoring 0, 1/2, 1, 3/2, 2")
    pair_elo: float | None = Field(description="Elo from the pentanomial counts")
    elo: float | None = Field(description="Bradley-Terry Elo over the event's games")
    elo_low: float | None = Field(description="lower end of the 95% likelihood-ratio interval")
    elo_high: float | None = Field(description="upper end of the 95% likelihood-ratio interval")
    margin: float | None = Field(description="mean piece margin per game")
    withdrawn: bool
    stand_ins: int = Field(
        default=0,
        description="its moves that its client said were not its bot's own (stand-ins: "
        "info string stand-in), counted apart from its results",
    )
    versions: list[int] = Field(
        default_factory=list,
        description="the versions of its submitted code (its own numbers) that played its "
        "games; empty for a connected client, a house bot or a person",
    )


class Crosstable(BaseModel):
    """Who scored what against whom, rows and columns in standings order."""

    names: list[str]
    cells: list[list[tuple[float, int] | None]] = Field(
        description="cells[i][j]: [points of i against j, games], null where they have not met"
    )
    games: list[list[list[int]]] = Field(description="games[i][j]: the ids of their games")
    absent: list[list[int]] = Field(
        description="absent[i][j]: how many of their games a team's absence decided (its "
        "bot not there as the game was to start; both absent: both lost, no points)"
    )
    unplayed: list[list[int]] = Field(
        default_factory=list,
        description="unplayed[i][j]: how many of their games were never played (forfeits "
        "of a team withdrawn after the round was paired or absent as a game was to start; "
        "scored in cells[i][j])",
    )
    byes: list[float] = Field(
        description="byes[i]: the points of i's byes (2 each), so that a row's cells and "
        "its byes add up to its points"
    )


class EventBoard(BaseModel):
    """A board of a round: ``a`` moves first in the pair's first game; ``b`` null for
    a bye; ``games``: X's points in each finished game of the pair, null for a game both
    teams lost by their absence or both forfeited; ``unplayed``: per game, whether it
    was a forfeit, never played (a team withdrew after the round was paired, or was
    absent as the game was to start)."""

    a: str
    b: str | None
    pair: int | None
    games: list[float | None]
    unplayed: list[bool] = Field(default_factory=list)


class UnplayedGame(BaseModel):
    """A game never played: a forfeit of a team withdrawn after its round was paired or
    absent as the game was to start, scored as a win for the team there (``0-0``: both
    withdrew or were absent)."""

    round: int = Field(description="counted from 1")
    leg: int = Field(description="0: the board's first member plays X; 1: O")
    x: str
    o: str
    result: str = Field(description="1-0, 0-1 or 0-0")
    termination: str = Field(description="always unplayed")
    detail: str


class NextBoard(BaseModel):
    """A board of the next round (``b`` null for a bye)."""

    a: str
    b: str | None


class LiveEventGame(BaseModel):
    """A game of the event in play (watch it at ``/watch/{id}``)."""

    id: int
    x: str
    o: str


class EventTable(BaseModel):
    """Everything on an event's page (``GET /api/league/events/{name}``): its standings
    and crosstable recomputed from its stored games, its rounds, its games in play and the
    next round. Poll ``changed`` as for :class:`~adjacency.league.models.LeagueInfo`."""

    event: EventInfo
    standings: list[EventRow] = Field(description="best first")
    crosstable: Crosstable
    next: list[NextBoard] | None = Field(
        description="a round robin's next round; null for a Swiss and after the last round"
    )
    rounds: list[list[EventBoard]]
    unplayed: list[UnplayedGame] = Field(
        default_factory=list, description="its forfeits, by round and leg (never played)"
    )
    playing: list[int] = Field(description="ids of its games in play")
    live: list[LiveEventGame] = Field(description="its games in play, with their players")
    changed: int = Field(description="grows whenever a game starts or ends")
