"""The puzzle page and its JSON API: the next puzzle, one puzzle, attempts, hints and
giving up, with the player's and the puzzle's Glicko-2 ratings (:mod:`..puzzles`,
:mod:`..puzzle_records`).

The player is the browser's client cookie (its key, as for seats). A first attempt moves
the ratings only for a long-lived player (the server signed the cookie at least
``puzzle_player_age`` seconds ago, :mod:`..cookies`), when the solution was not shown at
the player's address before (a give-up, a hint or a solve there), nor to another
browser anywhere within the last ``puzzle_reveal_seconds`` (a give-up or a hint,
:mod:`..puzzle_shown`), and within the
puzzle's ``puzzle_ratings_per_hour`` (:func:`_record`). The solution stays
on the server until the puzzle is solved or given up; an attempt sends the line played
so far and gets the verdict on its last move: the opponent's reply after a correct
move, the refutation after a wrong one. Every request is bounded (a line of at most
:data:`MAX_LINE` moves of a few characters) and counted twice: per client address (the
moves' rate of :class:`~adjacency.web.limits.Limits`) and per player
(``puzzle_tries_per_minute``), so a page cannot try moves faster than a person thinks.
"""

from __future__ import annotations

import random
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ...puzzles import Puzzle
from ...puzzles.model import PHASES, THEMES, Phase
from ...ratings.glicko import Glicko
from ...serving.addresses import address_key
from ...serving.errors import TooMany, WebError
from ...serving.models import ErrorMessage
from ..deps import Client, client_cookie, limited_client, rate_limited
from ..limits import Limits
from ..puzzle_dashboard import PERIODS, rating_chart, success_per_theme, theme_chart
from ..puzzle_records import Rated
from ..puzzle_shown import RecentReveals
from ..puzzles import PuzzleNotFound, PuzzleSet, check_line, hint_region
from ..seats import Caller
from ..store import GameStore
from ..view import cells
from . import ERRORS
from .pages import PAGES

MAX_LINE = 9
"""Moves a played line may have (a shipped solution has 1, 3 or 5)."""
MAX_SKIP = 32
"""Characters of the ``skip`` id of the next puzzle's request."""

PUZZLE_ERRORS: dict[int | str, dict[str, Any]] = {
    **{code: ERRORS[code] for code in (400, 422)},
    404: {"model": ErrorMessage, "description": "no puzzle with that id"},
    429: {"model": ErrorMessage, "description": "too many tries from this browser or address"},
}
router = APIRouter(tags=["puzzles"], responses=PUZZLE_ERRORS)
_RNG = random.Random()

Square = Annotated[str, Field(min_length=2, max_length=3, pattern=r"^[a-h][1-8]$")]


class TryRequest(BaseModel):
    """A try's end: a give-up's whole body (which may be left out: a rated try), and
    what an attempt and a hint say besides their line."""

    model_config = {"extra": "forbid"}
    rated: bool = Field(
        default=True,
        description="false: a try of a streak, recorded but never rated (the player's "
        "first try of the puzzle rates nothing, as lichess's Puzzle Streak does not)",
    )


class AttemptRequest(TryRequest):
    """The line played from the puzzle's position: the solver's moves and the replies
    the server gave, ending with the solver's move to judge."""

    moves: list[Square] = Field(min_length=1, max_length=MAX_LINE)


class HintRequest(TryRequest):
    """The line played so far (the solution's moves, ending with a reply; empty at the
    start) and how much to show: 1 the board's quarter of the next move, 2 the move."""

    moves: list[Square] = Field(default_factory=list, max_length=MAX_LINE)
    level: Literal[1, 2] = 1


class RatingInfo(BaseModel):
    """A Glicko-2 rating (Glicko scale)."""

    rating: float
    rd: float
    volatility: float


class RatingChange(BaseModel):
    """The ratings around an attempt: ``rated`` when it was the player's first attempt
    of the puzzle and it counted (both moved); otherwise before and after are the same,
    and ``unrated`` says why."""

    rated: bool
    unrated: (
        Literal["tried", "new_player", "shown_here", "shown_elsewhere", "puzzle_busy", "streak"]
        | None
    ) = Field(
        default=None,
        description="why no rating moved: a later attempt, a player whose cookie is too "
        "new, the solution shown at this address before, the solution shown to another "
        "browser lately (a give-up or a hint, anywhere), the puzzle rated too often lately, "
        "a try of a streak",
    )
    win: bool | None = Field(description="the first attempt's result for the player")
    player_before: RatingInfo
    player_after: RatingInfo
    puzzle_before: RatingInfo
    puzzle_after: RatingInfo


class PuzzleView(BaseModel):
    """A puzzle as the page sees it before it is solved: the position, the side to
    find the best move for, how many of its moves the line has, and both ratings."""

    id: str
    position: str = Field(description="position text (board, pieces, side to move, plies left)")
    rows: int
    cols: int
    cells: str = Field(description="the squares a1, b1, ...: x, o or .")
    turn: Literal["x", "o"] = Field(description="the solver's side")
    moves: int = Field(description="solver moves in the solution (1, 2 or 3)")
    rating: RatingInfo = Field(description="the puzzle's rating now")
    plays: int = Field(description="players rated against this puzzle")
    player: RatingInfo = Field(description="this browser's puzzle rating")
    player_puzzles: int = Field(description="puzzles rated for this browser")
    tried: bool = Field(description="this browser tried it already: a new try is not rated")


class Attempt(BaseModel):
    """The verdict on the line's last move."""

    outcome: Literal["correct", "solved", "wrong"]
    reply: str | None = Field(
        default=None,
        description="correct: the opponent's reply; wrong: the refutation (none when the "
        "move ends the game)",
    )
    value: int | None = Field(
        default=None, description="wrong: the move's exact final margin for the solver"
    )
    best_value: int = Field(description="the puzzle's exact final margin with best play")
    solution: list[str] | None = Field(default=None, description="once solved: the line")
    themes: list[str] | None = Field(default=None, description="once solved: the themes")
    ratings: RatingChange | None = Field(
        default=None, description="when the attempt ended: solved or wrong"
    )


class HintAnswer(BaseModel):
    """Where the next move is: ``region`` (level 1) or the ``move`` itself (level 2).
    A hint counts as a failed first attempt."""

    region: list[str]
    move: str | None = None
    ratings: RatingChange


class Solution(BaseModel):
    """The puzzle's line, shown after giving up (a failed first attempt)."""

    solution: list[str]
    themes: list[str]
    best_value: int
    ratings: RatingChange


DASHBOARD_TRIES = 10_000
"""The most tries (the latest) the dashboard counts."""


def _puzzles(request: Request) -> PuzzleSet:
    found: PuzzleSet = request.app.state.puzzles
    return found


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.manager.store
    return store


async def per_player(request: Request, caller: Client) -> None:
    """One try of this browser's (``puzzle_tries_per_minute``, applied to every
    address, the machine's own too); over it: 429 ``puzzle_tries``."""
    limits: Limits = request.app.state.limits
    rate = limits.puzzle_tries_per_minute
    if not request.app.state.rates.allow(caller.client, "puzzle", rate, limits.puzzle_burst):
        raise TooMany(
            f"too many puzzle tries from this browser (at most {rate:g} a minute); wait a moment",
            code="puzzle_tries",
            params={"rate": int(rate)},
        )


TRIES = [rate_limited("move"), Depends(per_player)]


def _info(rating: Glicko) -> RatingInfo:
    return RatingInfo(rating=rating.rating, rd=rating.rd, volatility=rating.volatility)


def _change(rated: Rated) -> RatingChange:
    return RatingChange(
        rated=rated.rated,
        unrated=rated.unrated,  # type: ignore[arg-type]  # one of UNRATED
        win=rated.first_win,
        player_before=_info(rated.player_before),
        player_after=_info(rated.player_after),
        puzzle_before=_info(rated.puzzle_before),
        puzzle_after=_info(rated.puzzle_after),
    )


def _record(
    request: Request,
    caller: Caller,
    puzzle: Puzzle,
    win: bool,
    reveals: bool,
    gives_away: bool = False,
    rated: bool = True,
) -> Rated:
    """Record an attempt's end (:meth:`~..puzzle_records.PuzzleRecords.record`): the
    player long-lived or not (``puzzle_player_age``), the address's key, whether the
    answer shows the solution or a hint, whether another browser was shown it lately
    (:mod:`..puzzle_shown`; ``gives_away``: this answer gives the line or a hint away
    without a solve, so it is noted there), and the puzzle's own rate of rating changes
    (``puzzle_ratings_per_hour``, spent only by a change); ``rated`` false: a streak's
    try, never rated. The machine's own user is trusted as by every limit of the app
    (unless ``limit_loopback``)."""
    limits: Limits = request.app.state.limits
    shown: RecentReveals = request.app.state.puzzle_shown
    elsewhere = shown.shown_to_other(puzzle.id, caller.client)
    if gives_away:
        shown.note(puzzle.id, caller.client)
    client = limited_client(request)
    if client is None:
        return _store(request).puzzles.record(caller.client, puzzle, win, rated=rated)
    since = caller.since
    eligible = since is not None and time.time() - since >= limits.puzzle_player_age
    rate = limits.puzzle_ratings_per_hour / 60
    burst = max(1, int(limits.puzzle_ratings_per_hour))

    def allow() -> bool:
        allowed: bool = request.app.state.rates.allow(puzzle.id, "puzzle_rating", rate, burst)
        return allowed

    return _store(request).puzzles.record(
        caller.client,
        puzzle,
        win,
        address_key(client),
        reveals=reveals,
        eligible=eligible,
        elsewhere=elsewhere,
        allow=allow,
        rated=rated,
    )


def _view(puzzle: Puzzle, store: GameStore, client: str) -> PuzzleView:
    start = puzzle.start
    rating, plays = store.puzzles.puzzle(puzzle)
    player, count = store.puzzles.player(client)
    return PuzzleView(
        id=puzzle.id,
        position=puzzle.position,
        rows=start.rows,
        cols=start.cols,
        cells=cells(start),
        turn="x" if start.turn == "x" else "o",
        moves=(len(puzzle.solution) + 1) // 2,
        rating=_info(rating),
        plays=plays,
        player=_info(player),
        player_puzzles=count,
        tried=store.puzzles.first_result(client, puzzle.id) is not None,
    )


@router.get("/puzzles", include_in_schema=False)
def page(request: Request) -> Response:
    """The puzzle page (issues the browser's client cookie, its player identity, on its
    first visit)."""
    answer = PAGES.response("puzzles.html", request)
    client_cookie(request, answer)
    return answer


@router.get("/puzzles/{puzzle_id}", include_in_schema=False)
def page_of(puzzle_id: str, request: Request) -> Response:
    """The puzzle page opening one puzzle (the page reads the id from its path)."""
    return page(request)


Theme = Literal[THEMES]  # type: ignore[valid-type]


@router.get("/api/puzzles/next", response_model=PuzzleView, dependencies=[rate_limited("move")])
def next_puzzle(
    request: Request,
    caller: Client,
    skip: Annotated[str | None, Query(max_length=MAX_SKIP)] = None,
    theme: Theme | None = None,
    above: Annotated[float | None, Query(ge=0, le=4000)] = None,
    moves: Annotated[int | None, Query(ge=1, le=MAX_LINE)] = None,
    phase: Phase | None = None,
) -> PuzzleView:
    """A puzzle this browser has not tried, rated near its puzzle rating (``skip``: the
    one on the page, not chosen again); when it tried them all, the one tried longest ago.
    ``theme``: only puzzles of that theme (404 ``no_puzzles`` if none is served).
    ``above`` (a streak: the last puzzle's rating): an untried puzzle rated just above it.
    ``moves``: only puzzles whose solution has that many solver moves, so a long line
    is within reach at any rating. ``phase``: only puzzles of that phase of the game
    (``Puzzle.phase``). The filters combine; 404 ``no_puzzles_of_theme`` if none
    matches them all."""
    store, puzzles = _store(request), _puzzles(request)
    served = puzzles.all()
    if theme is not None:
        served = {key: p for key, p in served.items() if theme in p.themes}
    if moves is not None:
        served = {key: p for key, p in served.items() if _moves(p) == moves}
    if phase is not None:
        served = {key: p for key, p in served.items() if p.phase == phase}
    chosen = store.puzzles.choose(caller.client, served, skip, _RNG, above=above)
    if chosen is None:
        if theme is not None or moves is not None or phase is not None:
            raise PuzzleNotFound(
                "no puzzle of this theme, length and phase is served",
                code="no_puzzles_of_theme",
                params={"theme": theme or "", "moves": moves or 0, "phase": phase or ""},
            )
        raise PuzzleNotFound("no puzzles are served", code="no_puzzles")
    return _view(chosen, store, caller.client)


class ThemeCount(BaseModel):
    """A theme and how many served puzzles have it."""

    theme: str
    puzzles: int


@router.get("/api/puzzles/themes", response_model=list[ThemeCount])
def themes(request: Request) -> list[ThemeCount]:
    """Every theme a served puzzle has, with how many have it (in the themes' order)."""
    counts = {name: 0 for name in THEMES}
    for puzzle in _puzzles(request).all().values():
        for name in puzzle.themes:
            counts[name] = counts.get(name, 0) + 1
    return [ThemeCount(theme=name, puzzles=n) for name, n in counts.items() if n]


def _moves(puzzle: Puzzle) -> int:
    """The solver moves of the puzzle's solution."""
    return (len(puzzle.solution) + 1) // 2


class LengthCount(BaseModel):
    """A solution length (solver moves) and how many served puzzles have it."""

    moves: int
    puzzles: int


@router.get("/api/puzzles/lengths", response_model=list[LengthCount])
def lengths(request: Request) -> list[LengthCount]:
    """How many served puzzles have each length of solution, shortest first."""
    counts: dict[int, int] = {}
    for puzzle in _puzzles(request).all().values():
        counts[_moves(puzzle)] = counts.get(_moves(puzzle), 0) + 1
    return [LengthCount(moves=n, puzzles=counts[n]) for n in sorted(counts)]


class PhaseCount(BaseModel):
    """A phase of the game (``Puzzle.phase``) and how many served puzzles are of it."""

    phase: Phase
    puzzles: int


@router.get("/api/puzzles/phases", response_model=list[PhaseCount])
def phases(request: Request) -> list[PhaseCount]:
    """Every phase a served puzzle is of, with how many are, from the endgame back to
    the opening (a phase no served puzzle is of is left out)."""
    counts = {name: 0 for name in PHASES}
    for puzzle in _puzzles(request).all().values():
        counts[puzzle.phase] += 1
    return [PhaseCount(phase=name, puzzles=n) for name, n in counts.items() if n]


class HistoryEntry(BaseModel):
    """One puzzle this browser tried."""

    id: str
    first: float = Field(description="Unix time of the first try")
    last: float = Field(description="Unix time of the latest try")
    win: bool = Field(description="the first try solved it (without a wrong move or a hint)")
    solved: bool = Field(description="some try solved it")
    rating: float = Field(description="the puzzle's rating now")
    moves: int = Field(description="solver moves in its solution")
    themes: list[str] = Field(description="its themes")


@router.get("/api/puzzles/history", response_model=list[HistoryEntry])
def tried(request: Request, caller: Client) -> list[HistoryEntry]:
    """The puzzles this browser tried, the latest first (at most 50), with each first
    try's result and whether a later one solved it; puzzles no longer served are left out."""
    store, served = _store(request), _puzzles(request).all()
    ratings = store.puzzles.ratings(served)
    out = []
    for row in store.puzzles.history(caller.client):
        puzzle = served.get(row.puzzle)
        if puzzle is None:
            continue
        out.append(
            HistoryEntry(
                id=row.puzzle,
                first=row.first,
                last=row.last,
                win=row.win,
                solved=row.solved,
                rating=ratings[row.puzzle],
                moves=_moves(puzzle),
                themes=list(puzzle.themes),
            )
        )
    return out


@router.get(
    "/api/puzzles/dashboard.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
)
def dashboard(
    request: Request,
    caller: Client,
    by: Annotated[Literal["theme", "phase", "length"], Query()] = "theme",
    period: Annotated[Literal["all", "day", "week", "month"], Query()] = "all",
) -> Response:
    """This browser's first tries of the served puzzles it tried, per theme, phase of the
    game or length (``by``), those of the last day, 7 or 30 days (``period``; ``all``:
    every one), as an SVG chart (:mod:`adjacency.web.puzzle_dashboard`): a bar
    a group, the share solved at the first try filled, and the group's performance (from
    the puzzles' ratings now); theme and phase names carry their catalogue keys for the
    page to word (a length is a number)."""
    served = _puzzles(request).all()

    def groups(puzzle: Puzzle) -> tuple[str, ...]:
        if by == "theme":
            return tuple(puzzle.themes)
        return (puzzle.phase,) if by == "phase" else (str(_moves(puzzle)),)

    records = _store(request).puzzles
    rating = records.ratings(served)
    since = time.time() - PERIODS[period] if period in PERIODS else float("-inf")
    tries = [
        (groups(served[row.puzzle]), row.win, rating[row.puzzle])
        for row in records.history(caller.client, limit=DASHBOARD_TRIES)
        if row.puzzle in served and row.first >= since
    ]
    key = {"theme": "puzzle.theme", "phase": "puzzle.phase", "length": None}[by]
    named_by = f"dashboard-title dashboard-{by}"  # the dashboard's title, then the chart's
    chart = theme_chart(success_per_theme(tries, numbers=by == "length"), key, named_by)
    return Response(chart, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


@router.get(
    "/api/puzzles/rating.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
)
def rating_over_time(request: Request, caller: Client) -> Response:
    """This browser's puzzle rating after each of its rated attempts (the latest 200), as
    an SVG line drawn by the dashboard's module; empty before its first rated attempt."""
    points = _store(request).puzzles.rating_history(caller.client)
    chart = rating_chart([point.rating for point in points], [point.at for point in points])
    return Response(chart, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


@router.get(
    "/api/puzzles/{puzzle_id}", response_model=PuzzleView, dependencies=[rate_limited("move")]
)
def get_puzzle(puzzle_id: str, request: Request, caller: Client) -> PuzzleView:
    """The puzzle ``puzzle_id`` (without its solution) and both ratings."""
    return _view(_puzzles(request).get(puzzle_id), _store(request), caller.client)


@router.post("/api/puzzles/{puzzle_id}/attempt", response_model=Attempt, dependencies=TRIES)
def attempt(puzzle_id: str, body: AttemptRequest, request: Request, caller: Client) -> Attempt:
    """Judge the last move of the line played: ``correct`` with the opponent's reply,
    ``solved`` with the line and themes, or ``wrong`` with the refutation. A solve or a
    wrong move ends the attempt: the first one of this browser on the puzzle is rated."""
    puzzle = _puzzles(request).get(puzzle_id)
    verdict = check_line(puzzle, body.moves)
    answer = Attempt(
        outcome=verdict.outcome, reply=verdict.reply, value=verdict.value, best_value=puzzle.value
    )
    if verdict.outcome == "correct":
        return answer
    solved = verdict.outcome == "solved"
    rated = _record(request, caller, puzzle, solved, reveals=solved, rated=body.rated)
    answer.ratings = _change(rated)
    if verdict.outcome == "solved":
        answer.solution, answer.themes = list(puzzle.solution), list(puzzle.themes)
    return answer


@router.post("/api/puzzles/{puzzle_id}/hint", response_model=HintAnswer, dependencies=TRIES)
def hint(puzzle_id: str, body: HintRequest, request: Request, caller: Client) -> HintAnswer:
    """Where the next solver move is, after the line played so far: level 1 its quarter
    of the board, level 2 the move. Counted as a failed attempt (rated if the first)."""
    puzzle = _puzzles(request).get(puzzle_id)
    played, solution = body.moves, puzzle.solution
    if len(played) % 2 or len(played) >= len(solution) or list(solution[: len(played)]) != played:
        raise WebError(
            "a hint follows the puzzle's line so far: its moves, ending with a reply",
            code="puzzle_line",
            params={"most": len(solution)},
        )
    move = solution[len(played)]
    rated = _record(request, caller, puzzle, False, reveals=True, gives_away=True, rated=body.rated)
    return HintAnswer(
        region=hint_region(puzzle, move),
        move=move if body.level == 2 else None,
        ratings=_change(rated),
    )


@router.post("/api/puzzles/{puzzle_id}/solution", response_model=Solution, dependencies=TRIES)
def give_up(
    puzzle_id: str, request: Request, caller: Client, body: TryRequest | None = None
) -> Solution:
    """Give up: the puzzle's line and themes. Counted as a failed attempt (rated if the
    first, unless the body says ``rated`` false)."""
    puzzle = _puzzles(request).get(puzzle_id)
    asked = body.rated if body is not None else True
    rated = _record(request, caller, puzzle, False, reveals=True, gives_away=True, rated=asked)
    return Solution(
        solution=list(puzzle.solution),
        themes=list(puzzle.themes),
        best_value=puzzle.value,
        ratings=_change(rated),
    )
