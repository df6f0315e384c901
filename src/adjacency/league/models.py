"""The league API's request and response bodies (they make the OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

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
    next round. Poll ``changed`` as for :class:`LeagueInfo`."""

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


SubmissionStatus = Literal["received", "building", "accepted", "refused"]


class SubmissionOut(BaseModel):
    """One version of a team's submitted code, as the team and the teacher see it."""

    version: int = Field(description="the team's own count: 1 for its first upload")
    sha256: str = Field(
        description="the kept zip's SHA-256, in hex: the upload repacked with its kept "
        "files only, the zip a download gives"
    )
    size: int = Field(description="the kept zip's size in bytes")
    filename: str
    status: SubmissionStatus = Field(
        description="received (waiting to be built), building, accepted (it plays) or refused"
    )
    detail: str = Field(description="why it was refused, or what the build said")
    created: float = Field(description="when it was uploaded (Unix time)")
    decided: float | None = Field(description="when it was accepted or refused")
    games: int = Field(0, description="finished games this version played (the server ran it)")
    points: float = Field(0.0, description="its points in them: 1 a win, 1/2 a draw")
    program: bool = Field(
        False, description="a program played through its own window, with a window to show"
    )
    window: bool = Field(
        False,
        description="a picture of its program's input window is kept (window.png): an "
        "accepted program's, or a refused one's that opened its window",
    )
    board: bool = Field(
        False,
        description="a picture of its program's board at the failed move of its check is "
        "kept (board.png)",
    )
    output: bool = Field(
        False,
        description="its program's last output at its check's failed move is kept "
        "(output.txt): a refused version's prints and traces, at most 64 KiB",
    )
    uploaded_sha256: str | None = Field(
        None, description="the SHA-256 of the zip as its team sent it (none: not noted)"
    )
    uploaded_size: int | None = Field(None, description="its size in bytes")


class VersionGame(GameSummary):
    """A game a team's version played, as its team sees it: its end told whole, and
    whether a picture of the program's board and its last output at its failure are
    kept."""

    board: bool = Field(
        False,
        description="a picture of the team's program's board at its failed move is kept "
        "(games/ID/board.png)",
    )
    output: bool = Field(
        False,
        description="the team's program's last output (its standard error's last 64 KiB) "
        "at its failed move is kept (games/ID/output.txt)",
    )


class Submitted(BaseModel):
    """An upload's answer: the version it is (``new`` false: the same kept files were
    already that version, nothing was stored)."""

    name: str
    new: bool
    same_bytes: bool = Field(
        True,
        description="with new false, whether the zip sent is the very bytes that version "
        "received; false: another zip keeping the same files (what else it held left out)",
    )
    submission: SubmissionOut


class FormControl(BaseModel):
    """A control of a program's input window that its team chooses."""

    name: str = Field(description="how a choice names it: its fx:id, else its label")
    label: str = Field(description="its label as the window shows it")
    options: list[str] = Field(description="its options (true and false for a check box)")
    chosen: str = Field(description="the option this version plays with")


class ProgramForm(BaseModel):
    """A version played through its own window: the choice it plays with and the controls
    of its input window the team may choose (the rounds and who moves first are the
    league's, set for each game)."""

    choice: str = Field(description="the choice in words: plays Bot Minimax as O")
    controls: list[FormControl]


ChoiceText = Annotated[str, StringConstraints(min_length=1, max_length=200)]
"""A control's name or an option, as a team's choice gives it."""


class ChoiceIn(BaseModel):
    """Another choice in a program's window: control name -> option; the rest as before."""

    choose: dict[ChoiceText, ChoiceText] = Field(max_length=64)


class Submissions(BaseModel):
    """A team's versions, newest first."""

    name: str
    submissions: list[SubmissionOut]
