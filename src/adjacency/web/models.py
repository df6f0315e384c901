"""The JSON shapes of the web API (pydantic models; they document the OpenAPI schema)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..bots.base import DEFAULT_MOVE_TIME
from ..serving.models import DetailMeaning

MAX_NAME = 40
MAX_FEN = 120
MAX_RECORD_CHARS = 200_000
MIN_MOVE_TIME = 0.1
MAX_MOVE_TIME = 60.0
MAX_DELAY = 10.0

Side = Literal["x", "o"]
OfferKind = Literal["rematch", "takeback"]


class Strict(BaseModel):
    """Request bodies reject unknown fields, so a typo is an error, not a silent default."""

    model_config = ConfigDict(extra="forbid")


# ----------------------------------------------------------------- requests


class PlayerSetup(Strict):
    """Who plays one side: a person, or a bot chosen by strength level or by spec."""

    kind: Literal["human", "bot"] = Field(description="'human' (moves by clicks) or 'bot'")
    name: str = Field(default="", max_length=MAX_NAME, description="shown name; empty: a default")
    level: int | None = Field(
        default=None,
        ge=1,
        description="bot strength level (see GET /api/config; none: the default level); "
        "ignored for people",
    )
    spec: str | None = Field(
        default=None,
        max_length=200,
        description="bot spec such as 'alphabeta:depth=4' (overrides level); see GET /api/config",
    )


class ClockSetting(Strict):
    """A time control: each side starts with ``base`` seconds and gains ``increment``
    after each of its moves; a side whose time runs out loses."""

    base: float = Field(ge=1, le=3 * 3600, description="seconds each side starts with")
    increment: float = Field(0, ge=0, le=60, description="seconds added after each move")


class NewGame(Strict):
    """Settings of a new game."""

    x: PlayerSetup = Field(description="the X player")
    o: PlayerSetup = Field(description="the O player")
    rows: int = Field(8, ge=4, le=8, description="ranks, 4 to 8")
    cols: int = Field(8, ge=4, le=8, description="files, 4 to 8")
    rounds: int = Field(
        28,
        ge=1,
        le=28,
        description="rounds (two plies each), 1 to (rows*cols-8)//2 (28 on 8x8); "
        "more than the board holds is a 400",
    )
    first: Side = Field("x", description="the side that moves first")
    time: float = Field(
        DEFAULT_MOVE_TIME,
        ge=MIN_MOVE_TIME,
        le=MAX_MOVE_TIME,
        description="seconds a bot may think per move",
    )
    clock: ClockSetting | None = Field(
        None,
        description="a clock for both sides (bots play within it); none: bots think "
        "`time` seconds a move and people have no limit",
    )
    invite: bool = Field(
        False,
        description="a game between two people on different devices: use POST /api/invites, "
        "which answers the seat links (both players must be people)",
    )
    start: str | None = Field(
        None,
        max_length=120,
        description="the position text to start from (continue a position against a bot); "
        "its board size wins over rows and cols, and its plies left over rounds; none: the "
        "standard start",
    )


class MoveRequest(Strict):
    """A move by the person to move."""

    square: str = Field(max_length=8, description="square name such as 'c3'")


class SideRequest(Strict):
    """Resign or abort: for which side (by default the one person's seat this browser
    holds; holding both, the side to move)."""

    side: Literal["x", "o"] | None = Field(
        default=None, description="the side that resigns or aborts; default: your seat"
    )


class OfferRequest(Strict):
    """An offer to the other player of a game between devices."""

    kind: OfferKind = Field(
        description="rematch (a finished game: a new one, colours swapped) or takeback "
        "(a game being played: your last move and any reply after it are taken back)"
    )


class AnswerRequest(Strict):
    """The other player's answer to an offer (or the offerer withdrawing it)."""

    accept: bool = Field(description="true: accept the offer; false: decline (or withdraw) it")


class ControlRequest(Strict):
    """Bot-vs-bot playback control."""

    action: Literal["pause", "resume", "step"] | None = Field(
        default=None, description="pause, resume, or step (play one move, then stay paused)"
    )
    delay: float | None = Field(
        default=None, ge=0, le=MAX_DELAY, description="seconds to wait between bot moves (speed)"
    )


class ImportRequest(Strict):
    """A game record in the core's text format (or its JSON format) to load and replay."""

    record: str = Field(min_length=1, max_length=MAX_RECORD_CHARS, description="the record text")


class EditorPosition(Strict):
    """A position set up in the analysis board's editor."""

    rows: int = Field(ge=4, le=8)
    cols: int = Field(ge=4, le=8)
    cells: str = Field(
        min_length=16,
        max_length=64,
        pattern="^[xo.]+$",
        description="rows*cols squares in index order (a1, b1, ...): x, o or .",
    )
    turn: Side
    plies_left: int = Field(ge=0, le=64)


# ---------------------------------------------------------------- responses


class AnalysisPosition(BaseModel):
    """The verdict on an edited position: its position text (FEN) if it is possible,
    else what makes it impossible."""

    fen: str | None = Field(description="the position text; none if impossible")
    problem: str | None = Field(description="why the position is impossible; none if possible")
    code: str | None = Field(
        default=None, description="the problem's stable name (too_few_pieces, odd_plies, ...)"
    )
    params: dict[str, int] = Field(
        default_factory=dict, description="the numbers the problem's message names"
    )


class OptionInfo(BaseModel):
    """One option of a bot: its kind, default, help and accepted values."""

    name: str
    kind: str = Field(description="int, float, bool, str or choice")
    default: int | float | bool | str
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: list[str] | None = None
    cap: float | None = Field(
        None, description="the most this server accepts (a numeric option; may be below maximum)"
    )


class BotInfo(BaseModel):
    """A bot the server offers: its spec name, what it does, its family and its options."""

    name: str
    summary: str
    family: str
    options: list[OptionInfo]


class LevelInfo(BaseModel):
    """A bot level: its number, name and description, the bot spec that plays it and its time cap
    per move (``None``: no cap)."""

    number: int
    name: str
    description: str
    spec: str
    time_cap: float | None


class SizeInfo(BaseModel):
    """One board size and what the rules core says about it."""

    rows: int
    cols: int
    max_rounds: int = Field(description="the most rounds a game of this size can have")
    start: str = Field(
        description="the start position's squares in index order (a1, b1, ...): x, o or ."
    )


class CourseInfo(BaseModel):
    """The course's setting (:mod:`adjacency.core.course`): what the new-game dialog's
    course control sets."""

    rows: int
    cols: int
    time: float = Field(description="a bot's seconds for each move")
    rounds: list[int] = Field(description="the round counts the course plays")


class Config(BaseModel):
    """What a new-game form needs: ranges, sizes, levels and bots available now."""

    min_side: int
    max_side: int
    default_time: float
    min_time: float
    max_time: float
    max_record_chars: int
    sizes: list[SizeInfo] = Field(description="every board size, with its start position")
    levels: list[LevelInfo]
    default_level: int
    bots: list[BotInfo]
    course: CourseInfo


class PlayerInfo(BaseModel):
    """Who plays a side: a person, or a bot with its spec and level."""

    kind: Literal["human", "bot"]
    name: str
    spec: str | None = None
    level: int | None = None
    level_name: str | None = None
    time_cap: float | None = None


class Ply(BaseModel):
    """One move of the game: its number, side, square and the squares it converted, the
    seconds it took, and for a bot's move its search score and depth."""

    number: int = Field(description="1 for the first ply")
    color: Side
    square: str
    flips: list[str] = Field(description="squares the move converted")
    seconds: float | None = None
    eval: float | None = Field(default=None, description="the mover's search score, from X's view")
    depth: int | None = None


class ThinkingInfo(BaseModel):
    """The latest report of the bot thinking now: time so far, depth, score, nodes and best line."""

    color: Side
    elapsed: float
    depth: int | None = None
    score: float | None = Field(default=None, description="pieces, from X's view")
    nodes: int | None = None
    pv: list[str] = []
    text: str = ""


class ClockInfo(BaseModel):
    """Both clocks when the state was taken (the server's; pages tick a copy)."""

    base: float
    increment: float
    x: float = Field(description="X's remaining seconds")
    o: float = Field(description="O's remaining seconds")
    running: Side | None = Field(description="whose clock runs (none before the first move)")


class Offer(BaseModel):
    """An offer between the two players of a game between devices."""

    kind: OfferKind
    by: Side = Field(description="the side that made the offer; the other side answers")


class GameState(DetailMeaning):
    """Everything a page shows about one game; pushed again after every change
    (``detail_code`` and ``detail_params`` say what ``termination_detail`` says)."""

    id: str
    version: int = Field(description="increases with every change")
    status: Literal["playing", "over"]
    mode: Literal["human-bot", "bot-bot", "human-human"]
    rows: int
    cols: int
    rounds: int
    first: Side
    time: float
    x: PlayerInfo
    o: PlayerInfo
    moves: list[Ply]
    boards: list[str] = Field(
        description="per ply from the start, the squares in index order (a1, b1, ...): x, o or ."
    )
    turn: Side
    plies_left: int
    rounds_left: int
    score: list[int] = Field(description="[x squares, o squares]")
    result: Literal["x", "o", "draw"] | None
    termination: str
    termination_detail: str
    message: str = Field(description="a one-line account of the state for people")
    thinking: ThinkingInfo | None
    human_to_move: bool
    can_undo: bool
    paused: bool
    delay: float
    preview: dict[str, list[str]] = Field(
        description="for each empty square, the squares playing it would convert"
    )
    clock: ClockInfo | None = None
    offer: Offer | None = Field(
        default=None, description="an offer waiting for the other player's answer"
    )
    rematch: str | None = Field(
        default=None, description="the id of this game's rematch, once one was made"
    )


class Viewer(BaseModel):
    """What the requesting browser may do in a game."""

    seats: list[Side] = Field(description="the colours this browser plays (empty: watching)")
    owner: bool = Field(description="whether this browser created the game")
    invite: bool = Field(description="whether the game is between devices (seat links)")


class Invitation(BaseModel):
    """A new game between devices and its secret seat tokens, shown only this once."""

    game: GameState
    tokens: dict[Side, str] = Field(
        description="each seat's token; the seat link is /?game=ID#seat=TOKEN"
    )
    watch: str = Field(description="the watch link's path (read-only)")


class GameSummary(BaseModel):
    """One saved game in the list of games: its players, mode, size, progress and result."""

    id: str
    x: str
    o: str
    mode: str
    rows: int
    cols: int
    rounds: int
    plies: int
    status: Literal["playing", "over", "damaged"] = Field(
        description="'damaged': the stored row cannot be read (it can be deleted)"
    )
    result: str | None
    score: list[int]
    updated: float = Field(description="Unix time of the last change")
    players: dict[Side, PlayerInfo] | None = Field(
        default=None,
        description="who plays each side (kind, level), so a page names a default seat in "
        "its own language; none for a damaged game",
    )
    seats: list[Side] = Field(
        default_factory=list, description="the colours the requesting browser plays"
    )


class Hint(BaseModel):
    """A suggested move: its square, the squares it converts, and the search that chose it."""

    square: str
    flips: list[str]
    bot: str = Field(description="spec of the bot that suggested it")
    depth: int | None = None
    score: float | None = Field(default=None, description="pieces, from the mover's view")


# ------------------------------------------------------------ the analysis board's study


class LineRequest(Strict):
    """Moves to play one after another from a position (a line of the variation tree)."""

    fen: str = Field(max_length=MAX_FEN, description="the position text to start from")
    moves: list[str] = Field(max_length=64, description="squares, each legal where it stands")


class LinePosition(BaseModel):
    """A move of a line and the position after it."""

    move: str = Field(description="the square played")
    color: Side = Field(description="who played it")
    flips: list[str] = Field(description="the squares it turned")
    fen: str = Field(description="the position text after it")
    cells: str = Field(description="the squares after it in index order (a1, b1, ...)")
    turn: Side = Field(description="the side to move after it")
    plies: int = Field(description="plies left after it")
    over: bool = Field(description="whether the game is over after it")


class LineAnswer(BaseModel):
    """The positions along a line, one per move."""

    positions: list[LinePosition]


class VariationNode(Strict):
    """A move of a variation tree and the moves after it (the first: its line's own)."""

    square: str = Field(max_length=8, description="the square played")
    children: list[VariationNode] = Field(default_factory=list, max_length=64)


TREE_MOVES = 2000
"""The most moves a variation tree sent to be written as a record may hold."""


class FlatMove(Strict):
    """A move of a variation tree written flat (:attr:`TreeRecordRequest.nodes`), so a
    line of any length is one level of JSON: the square and the index of the move it
    follows in the list (``-1``: a move from the start). A move comes after the move it
    follows; moves following one move keep their order (the first: its line's own)."""

    square: str = Field(max_length=8, description="the square played")
    parent: int = Field(ge=-1, lt=TREE_MOVES, description="the index of the move it follows")


class TreeRecordRequest(Strict):
    """A variation tree to write as a record: on a game (its moves the tree's main line,
    else a record of the main line from the game's start) or on a start position. The
    tree is ``nodes`` (flat, any depth), or ``tree`` (nested, one JSON level per move:
    the format before ``nodes``, for lines of up to 15 moves, the request's nesting
    being bounded)."""

    game: str | None = Field(None, max_length=64, description="the game the tree grew on")
    start: str | None = Field(
        None, max_length=MAX_FEN, description="the start's position text, without a game"
    )
    tree: list[VariationNode] = Field(
        default_factory=list, max_length=64, description="the start's moves, nested"
    )
    nodes: list[FlatMove] | None = Field(
        None, max_length=TREE_MOVES, description="the tree's moves, flat (instead of tree)"
    )


class TreeRecord(BaseModel):
    """A record in the text format, with its variations."""

    record: str


class TreeAnswer(BaseModel):
    """The variation tree of a record (its main line the game's moves): nested, and the
    same moves flat (:class:`FlatMove`)."""

    start: str = Field(description="the start's position text")
    tree: list[VariationNode]
    nodes: list[FlatMove] = Field(default_factory=list, description="the tree's moves, flat")


class JudgeRequest(Strict):
    """Another move in a position of a game, to be judged as the review judges moves."""

    ply: int = Field(ge=0, le=64, description="plies played before the position")
    move: str = Field(max_length=8, description="the square to judge")


class Judgement(BaseModel):
    """A move judged against the best move, the review's way (docs/web.md)."""

    move: str
    best: str | None = Field(description="the best move found")
    value: float = Field(description="the position after the move, X's view")
    best_value: float = Field(description="the position after the best move, X's view")
    loss: float = Field(description="pieces the move loses for its mover against the best")
    exact: bool = Field(description="proven by the solver (else a fixed-depth search)")
    depth: int | None = Field(description="the search's depth when not exact")
    accepted: bool = Field(
        description="loss below the inaccuracy threshold, and no worse result (exact values)"
    )


class ExplorerMove(BaseModel):
    """One move from the explored position, summed over the stored games."""

    move: str = Field(description="the square played")
    games: int = Field(description="stored games that played it here")
    x_wins: int = Field(description="of them, won by X")
    o_wins: int = Field(description="of them, won by O")
    draws: int = Field(description="of them, drawn")
    margin: float = Field(description="the average final margin, X − O")
    book: int | None = Field(
        default=None,
        description="where the proven book holds the position and this is one of its best "
        "moves: the position's exact value (X − O under perfect play); else none",
    )


class ExplorerAnswer(BaseModel):
    """The opening explorer's answer for one position."""

    fen: str = Field(description="the position text asked about")
    games: int = Field(description="stored games that reached it and went on from it")
    moves: list[ExplorerMove] = Field(description="the moves played from it, most played first")
    book: int | None = Field(
        description="the proven book's exact value of the position (X − O), none if the "
        "book does not hold it"
    )
    book_moves: list[str] = Field(description="the book's best moves (empty without a value)")
    plies: int = Field(description="plies of each game the explorer counts")
