"""The league API's request and response bodies (they make the OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ..serving.models import DetailMeaning, ErrorMessage
from .league_file import MAX_NAME

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorMessage, "description": text}
    for code, text in (
        (400, "a value is out of range or not allowed (the message says which)"),
        (401, "no secret, or an unknown or revoked one (Authorization: Bearer ...)"),
        (403, "the secret is valid but may not do this (another member's game, admin only)"),
        (404, "no such member or game"),
        (409, "not now: not your turn, the opponent is busy"),
        (422, "the request is malformed"),
        (429, "too many requests from this address or secret: try again later"),
    )
}
"""The error answers every league endpoint documents (``{"detail": "..."}``)."""

Kind = Literal["bot", "house", "person"]
Outcome = Literal["x", "o", "draw"]


class NewMember(BaseModel):
    """An account the admin adds (``POST /api/league/admin/members``): a bot, which
    connects with the token the answer carries, or a house bot, which the server plays
    itself with a built-in bot ``spec``."""

    name: str = Field(min_length=1, max_length=MAX_NAME, description="unique, A-Z a-z 0-9 - _ .")
    kind: Literal["bot", "house"] = "bot"
    spec: str | None = Field(
        default=None, max_length=200, description="a built-in bot spec (house bots only)"
    )
    concurrency: int = Field(default=1, ge=1, le=16, description="games at once")


class NewPerson(BaseModel):
    """A person joining the league from the browser (``POST /api/league/people``) under
    a name no member has yet."""

    name: str = Field(min_length=1, max_length=MAX_NAME)


class ChallengeIn(BaseModel):
    """A person's challenge (``POST /api/league/challenge``) to the member ``opponent``:
    a bot or house bot (played now, or queued while it plays), or a person on the play
    page (who must accept)."""

    opponent: str = Field(min_length=1, max_length=MAX_NAME)


class ChallengeState(DetailMeaning):
    """A challenge as one of its two people sees it."""

    challenge: int
    status: Literal["waiting", "queued", "started", "declined", "expired", "cancelled"] = Field(
        description="waiting: for the person's answer; queued: for the bot to be free; "
        "started: the game is on (game); the others ended it (detail says why)"
    )
    challenger: str
    opponent: str
    game: int | None = Field(description="the game it started")
    color: Literal["x", "o"] | None = Field(description="your colour in the game in play")
    position: int | None = Field(description="queued: your place in the bot's queue (1: next)")
    wait: int | None = Field(
        default=None,
        description="queued: about how many seconds until the bot plays you, at the pace of "
        "its game in play (null until that game has two plies)",
    )
    wait_most: int | None = Field(
        default=None,
        description="queued: the most seconds it can take, by the clocks of the bot's game in "
        "play and of the games queued before yours",
    )
    expires_in: float | None = Field(description="waiting: seconds left for the answer")
    detail: str


class Incoming(BaseModel):
    """A challenge waiting for your answer."""

    challenge: int
    challenger: str
    expires_in: float | None


class MoveIn(BaseModel):
    """A person's move in one of its games (``POST /api/league/games/{id}/move``)."""

    move: str = Field(min_length=1, max_length=8, description="a square name like 'c3'")


class StandingRow(BaseModel):
    """One member in the standings, best Glicko-2 rating first: its ratings and its
    games. ``provisional`` is true while the member has fewer than 10 rated games or its
    ``rd`` is above 110."""

    name: str
    kind: Kind
    rating: float = Field(description="Glicko-2 rating (1500 at the start)")
    rd: float = Field(description="Glicko-2 rating deviation")
    provisional: bool
    games: int
    wins: int
    draws: int
    losses: int
    elo: float | None = Field(description="Bradley-Terry Elo over all games (mean 0)")
    elo_low: float | None = Field(description="lower end of the 95% Wald interval")
    elo_high: float | None = Field(description="upper end of the 95% Wald interval")
    online: bool = Field(
        description="can be challenged now: a house bot, a connected bot, or a person "
        "whose play page is open"
    )
    revoked: bool


class SettingsInfo(BaseModel):
    """The league's settings, fixed when it was created: the board, the rounds and
    the time control (a Fischer clock ``base`` + ``increment``, or ``move_time`` seconds
    per move)."""

    rows: int
    cols: int
    rounds: int
    time_control: str = Field(description="'60+1' (a clock) or '5 s/move'")
    base: float
    increment: float
    move_time: float | None
    openings: int = Field(description="how many openings the league cycles through")


class LeagueInfo(BaseModel):
    """The league at a glance (``GET /api/league``): its settings and counts. Poll
    ``changed`` to know when the standings are worth reading again."""

    settings: SettingsInfo
    members: int
    connected: int = Field(description="bots connected now")
    live: int = Field(description="games in play")
    changed: int = Field(description="grows whenever a game starts or ends")
    protocol: int = Field(description="the WebSocket protocol's version")


class GameSummary(DetailMeaning):
    """A stored or live game in a list: who played which colour, how it ended, and
    the colour-swapped pair it belongs to. ``result`` and ``termination`` are null while
    the game is in play; an aborted game (the server stopped during it) is unrated."""

    id: int
    x: str
    o: str
    status: Literal["playing", "finished", "aborted"]
    result: Outcome | None
    termination: str | None
    detail: str
    score: list[int] | None = Field(description="[X's squares, O's squares] at the end")
    plies: int
    pair: int | None = Field(description="the colour-swapped pair the game belongs to")
    rated: bool = Field(
        description="whether the game moved ratings (not: in play, aborted, or with a "
        "provisional person)"
    )
    started: float = Field(description="Unix time")
    ended: float | None


class LeagueGameState(DetailMeaning):
    """One game as the board shows it: its opening, the moves so far, the position
    now and, while it is in play, the side to move and both clocks."""

    id: int
    status: Literal["playing", "finished", "aborted"]
    x: str
    o: str
    rows: int
    cols: int
    start: str = Field(description="the opening's position text")
    fen: str = Field(description="the position now")
    turn: Literal["x", "o"] | None
    moves: list[str]
    score: list[int] | None
    clock: dict[str, float] | None = Field(
        description="seconds left per side: live, or at the end (a finished game on a "
        "clock; none for seconds per move)"
    )
    result: Outcome | None
    termination: str | None
    detail: str
    used: dict[str, float] | None = Field(
        default=None, description="seconds each side thought (its clock charged)"
    )
    time_control: str = Field(default="", description="its clock, e.g. '60+1' or '5 s/move'")
    ratings: dict[str, float] | None = Field(
        default=None, description="each player's rating now (Glicko-2, the leaderboard's)"
    )


class GamePositions(BaseModel):
    """A game's positions: the opening's and one after each move so far."""

    id: int
    fens: list[str]


class HistoryPoint(BaseModel):
    """A member's Glicko-2 rating and deviation just after game ``game`` (``at``:
    Unix time)."""

    game: int
    rating: float
    rd: float
    at: float


class OpponentScore(BaseModel):
    """A member's score against one opponent: games played and points (1 a win,
    1/2 a draw)."""

    name: str
    games: int
    points: float


class MemberPage(BaseModel):
    """Everything on a member's page (``GET /api/league/members/{name}``): its rating
    history, its score against each opponent, its recent games, its mean time per move and
    its losses that were not decided on the board."""

    name: str
    kind: Kind
    spec: str | None
    revoked: bool
    online: bool
    history: list[HistoryPoint]
    opponents: list[OpponentScore]
    recent: list[GameSummary] = Field(description="one page of its games, newest first")
    recent_offset: int = Field(description="how many newer games come before this page")
    recent_total: int = Field(description="how many games it has, in all")
    rated_games: int = Field(
        description="how many of its games were rated (the history may "
        "show fewer points: at most 500, evenly spaced)"
    )
    seconds_per_move: float | None
    failures: dict[str, int] = Field(description="losses not decided on the board, by reason")


class PairStats(BaseModel):
    """The arena's statistics for two members, from ``a``'s side
    (``GET /api/league/pairs/{a}/{b}``): W/D/L with a Bradley-Terry Elo and 95% interval,
    and over their completed colour-swapped pairs the pentanomial counts, the pair-based
    interval and the likelihood of superiority."""

    a: str
    b: str
    games: int
    wins: int = Field(description="a's wins")
    draws: int
    losses: int
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    pentanomial: list[int] = Field(description="a's pair scores 0, 1/2, 1, 3/2, 2")
    pairs: int
    pair_elo: float | None
    pair_elo_low: float | None
    pair_elo_high: float | None
    los: float = Field(description="likelihood that a is stronger")


class ServerStats(BaseModel):
    """The server's load (``GET /api/league/stats``): games a minute over the last 5
    minutes, move round-trip times in milliseconds (from asking the side to move to its
    answer, its thinking included) and the server's peak memory."""

    connected: int
    live: int
    finished: int = Field(description="games finished since the server started")
    games_per_minute_5min: float
    round_trip_ms_p50: float | None
    round_trip_ms_p95: float | None
    round_trip_ms_mean: float | None
    moves: int
    max_rss_mb: float


class Health(BaseModel):
    """Whether the league works (``GET /api/league/health``; 200 ``ok``, 503 ``degraded``):
    degraded while its database refuses writes (a full disk), when it pairs nobody and
    reports games that end as aborted (their results could not be stored)."""

    status: Literal["ok", "degraded"]
    reason: str | None = Field(description="why it is degraded (the store's error)")
    since: float | None = Field(description="when writes began to fail (epoch seconds)")
    pairing: bool = Field(description="whether the scheduler starts games")
    unstored: int = Field(description="games reported aborted whose end is not stored yet")


class Joined(BaseModel):
    """The answer to joining as a person: the new member and its ``secret``, shown only
    this once. Send it as ``Authorization: Bearer SECRET`` to act as that person."""

    name: str
    kind: Kind
    secret: str = Field(description="shown once; the browser keeps it")


class Me(BaseModel):
    """The person holding the secret (``GET /api/league/me``), the games it plays now,
    whether its games are rated yet (docs/league.md, "What is rated")."""

    name: str
    kind: Kind
    games: list[int]
    rated: bool = Field(description="whether this person's games move ratings now")
    rating_note: str = Field(description="why, in a sentence")
    rating_code: str = Field(
        "rated", description="the note's stable name: rated, needs_approval or needs_games"
    )
    rating_params: dict[str, int] = Field(
        default_factory=dict, description="the numbers the note names (count, so_far)"
    )
    challenges: list[Incoming] = Field(description="challenges waiting for your answer")


class Added(BaseModel):
    """The member the admin added. A bot's ``token`` is shown only this once; the league
    keeps only its hash."""

    name: str
    kind: Kind
    token: str | None = Field(description="a bot's token, shown once (none for a house bot)")


class Revoked(BaseModel):
    """A member whose token was revoked: it can no longer connect; its games and ratings
    stay."""

    name: str
    revoked: bool


class Removed(BaseModel):
    """A member the admin removed: its token no longer works and its connection was
    closed; its stored games stay in the history. ``deleted``: it had never played, so
    nothing of it was kept and its name is free again."""

    name: str
    removed: bool
    deleted: bool


class Approved(BaseModel):
    """A person the admin approved: their games are rated from now on."""

    name: str
    approved: bool


class Rotated(BaseModel):
    """A member's new token, shown only this once; the old one no longer works."""

    name: str
    token: str
