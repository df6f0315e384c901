"""The league API's request and response bodies (they make the OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ..web.models import ErrorMessage
from .store import MAX_NAME

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
    name: str = Field(min_length=1, max_length=MAX_NAME, description="unique, A-Z a-z 0-9 - _ .")
    kind: Literal["bot", "house"] = "bot"
    spec: str | None = Field(
        default=None, max_length=200, description="a built-in bot spec (house bots only)"
    )
    concurrency: int = Field(default=1, ge=1, le=16, description="games at once")


class NewPerson(BaseModel):
    name: str = Field(min_length=1, max_length=MAX_NAME)


class Challenge(BaseModel):
    opponent: str = Field(min_length=1, max_length=MAX_NAME)


class MoveIn(BaseModel):
    move: str = Field(min_length=1, max_length=8, description="a square name like 'c3'")


class StandingRow(BaseModel):
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
    elo_low: float | None = Field(description="lower end of the 95% interval")
    elo_high: float | None = Field(description="upper end of the 95% interval")
    online: bool
    revoked: bool


class SettingsInfo(BaseModel):
    rows: int
    cols: int
    rounds: int
    time_control: str = Field(description="'60+1' (a clock) or '5 s/move'")
    base: float
    increment: float
    move_time: float | None
    openings: int = Field(description="how many openings the league cycles through")


class LeagueInfo(BaseModel):
    settings: SettingsInfo
    members: int
    connected: int = Field(description="bots connected now")
    live: int = Field(description="games in play")
    changed: int = Field(description="grows whenever a game starts or ends")
    protocol: int = Field(description="the WebSocket protocol's version")


class GameSummary(BaseModel):
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
    started: float = Field(description="Unix time")
    ended: float | None


class GameState(BaseModel):
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
    clock: dict[str, float] | None = Field(description="seconds left per side (live games)")
    result: Outcome | None
    termination: str | None
    detail: str


class HistoryPoint(BaseModel):
    game: int
    rating: float
    rd: float
    at: float


class OpponentScore(BaseModel):
    name: str
    games: int
    points: float


class MemberPage(BaseModel):
    name: str
    kind: Kind
    spec: str | None
    revoked: bool
    online: bool
    history: list[HistoryPoint]
    opponents: list[OpponentScore]
    recent: list[GameSummary]
    seconds_per_move: float | None
    failures: dict[str, int] = Field(description="losses not decided on the board, by reason")


class PairStats(BaseModel):
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
    connected: int
    live: int
    finished: int = Field(description="games finished since the server started")
    games_per_minute_5min: float
    round_trip_ms_p50: float | None
    round_trip_ms_p95: float | None
    round_trip_ms_mean: float | None
    moves: int
    max_rss_mb: float


class Joined(BaseModel):
    name: str
    kind: Kind
    secret: str = Field(description="shown once; the browser keeps it")


class Me(BaseModel):
    name: str
    kind: Kind
    games: list[int]


class Started(BaseModel):
    game: int
    color: Literal["x", "o"]


class Added(BaseModel):
    name: str
    kind: Kind
    token: str | None = Field(description="a bot's token, shown once (none for a house bot)")


class Revoked(BaseModel):
    name: str
    revoked: bool


class Rotated(BaseModel):
    name: str
    token: str
