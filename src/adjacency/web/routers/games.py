"""Setup and game management: the config, creating, importing, listing, deleting, records."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse
from fastapi.types import DecoratedCallable
from pydantic import BaseModel

from ...bots import DEFAULT_MOVE_TIME, entries
from ...bots.gate import LOCAL, local_bot_names
from ...core import Position
from ...core.board import MAX_SIDE, MIN_SIDE, board
from ...core.course import COURSE_MOVE_SECONDS, COURSE_ROUNDS, COURSE_SIZE
from ...core.record import game_to_json, game_to_text
from ...serving.errors import WebError
from ..deps import SAME_SITE, Client, Manager, limited_client, rate_limited
from ..levels import available_levels, default_level
from ..limits import holders
from ..models import (
    MAX_MOVE_TIME,
    MAX_RECORD_CHARS,
    MIN_MOVE_TIME,
    BotInfo,
    Config,
    CourseInfo,
    GameState,
    GameSummary,
    ImportRequest,
    Invitation,
    LevelInfo,
    NewGame,
    OptionInfo,
    SizeInfo,
)
from ..view import cells
from . import ERRORS, codes, share

router = APIRouter()


def sizes() -> list[SizeInfo]:
    """Every board size with its most rounds and start position, as the rules core says."""
    out = []
    for rows in range(MIN_SIDE, MAX_SIDE + 1):
        for cols in range(MIN_SIDE, MAX_SIDE + 1):
            most = board(rows, cols).max_rounds()
            start = Position.start(rows, cols, most)
            out.append(SizeInfo(rows=rows, cols=cols, max_rounds=most, start=cells(start)))
    return out


def bots() -> list[BotInfo]:
    """The bots a page may start: the operator's own first (``adjacency play --bot``, as
    ``local:NAME``: their specs stay on the server), then the registered ones (not ``cmd:``
    programs or ``py:`` files)."""
    local = [
        BotInfo(
            name=f"{LOCAL}:{name}",
            summary="a bot of the person who started this server (adjacency play --bot)",
            family="local",
            options=[],
        )
        for name in local_bot_names()
    ]
    return local + [
        BotInfo(
            name=e.name,
            summary=e.summary,
            family=e.family,
            options=[
                OptionInfo(  # a text option limited on shared servers is a choice here
                    name=o.name,
                    kind="choice" if o.shared else o.kind,
                    default=o.default,
                    help=o.help,
                    minimum=o.minimum,
                    maximum=o.maximum,
                    choices=list(o.choices or o.shared or ()) or None,
                    cap=o.shared_cap,
                )
                for o in e.options
            ],
        )
        for e in entries()
        if not e.raw
    ]


@router.get("/api/config", response_model=Config, tags=["setup"])
def config() -> Config:
    """Ranges for new games, board sizes, the strength levels and the bots available now."""
    return Config(
        min_side=MIN_SIDE,
        max_side=MAX_SIDE,
        default_time=DEFAULT_MOVE_TIME,
        min_time=MIN_MOVE_TIME,
        max_time=MAX_MOVE_TIME,
        max_record_chars=MAX_RECORD_CHARS,
        sizes=sizes(),
        levels=[
            LevelInfo(
                number=lv.number,
                name=lv.name,
                description=lv.description,
                spec=lv.spec,
                time_cap=lv.time_cap,
            )
            for lv in available_levels()
        ],
        default_level=default_level().number,
        bots=bots(),
        course=CourseInfo(
            rows=COURSE_SIZE[0],
            cols=COURSE_SIZE[1],
            time=COURSE_MOVE_SECONDS,
            rounds=list(COURSE_ROUNDS),
        ),
    )


def _creates(path: str, model: type[BaseModel]) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """The route of a POST to ``path`` that makes something new (201, answered with
    ``model``), limited as a creation: each one can start bots."""
    return router.post(
        path,
        response_model=model,
        status_code=201,
        responses=ERRORS,
        tags=["games"],
        dependencies=[rate_limited("create")],
    )


@router.get("/api/games", response_model=list[GameSummary], tags=["games"])
def list_games(manager: Manager, caller: Client) -> list[GameSummary]:
    """This browser's games (created here, or a seat held here), most recently changed
    first (at most 200)."""
    return manager.summaries(caller)


@_creates("/api/games", GameState)
def new_game(settings: NewGame, request: Request, manager: Manager, caller: Client) -> GameState:
    """Start a game; this browser holds the people's seats. Bots begin thinking as soon
    as it is their turn (429 while every bot slot, or this address's or browser's
    share of them, is taken)."""
    clients = holders(limited_client(request), caller.client)
    return manager.create(settings, caller, clients).state()


@_creates("/api/invites", Invitation)
def invite(settings: NewGame, manager: Manager, caller: Client) -> Invitation:
    """Start a game between two people on different devices. The answer holds each
    seat's secret token, shown only this once: send a seat link (``/?game=ID#seat=TOKEN``)
    to each player and the watch link to anyone."""
    session, tokens = manager.invite(settings, caller)
    return Invitation(
        game=session.state(),
        tokens={"x": tokens["x"], "o": tokens["o"]},
        watch=f"/?game={session.id}",
    )


@_creates("/api/games/import", GameState)
def import_game(body: ImportRequest, manager: Manager, caller: Client) -> GameState:
    """Load a saved record (the text format, or JSON) as a new game between two people."""
    return manager.import_record(body.record, caller).state()


@router.get(
    "/api/games/{game_id}",
    response_model=GameState,
    responses=ERRORS,
    tags=["games"],
    dependencies=[SAME_SITE],  # reopening a game restarts its bots
)
def get_game(game_id: str, manager: Manager) -> GameState:
    """The game's state (after a restart it is loaded from the store and resumes)."""
    session = manager.get(game_id)
    session.touch()
    return session.state()


@router.delete("/api/games/{game_id}", status_code=204, responses=ERRORS, tags=["games"])
def delete_game(game_id: str, manager: Manager, caller: Client) -> None:
    """Stop the game's bots and remove it from the store (its creator only)."""
    manager.delete(game_id, caller)


@_creates("/api/games/{game_id}/rematch", GameState)
def rematch(game_id: str, request: Request, manager: Manager, caller: Client) -> GameState:
    """A new game with the same settings and the colours swapped."""
    clients = holders(limited_client(request), caller.client)
    return manager.rematch(game_id, caller, clients=clients).state()


@router.get(
    "/api/games/{game_id}/record",
    responses={
        **ERRORS,
        200: {
            "description": "the record (a download)",
            "content": {
                "text/plain": {"schema": {"type": "string"}},
                "application/json": {"schema": {"type": "object"}},
            },
        },
    },
    tags=["games"],
)
def record(game_id: str, manager: Manager, format: str = "text") -> PlainTextResponse:
    """The game record as a download: the core's text format, or ``format=json``."""
    session = manager.get(game_id)
    if format not in ("text", "json"):
        raise WebError(f"format must be 'text' or 'json', got {format[:20]!r}")
    with session.lock:
        text = game_to_text(session.game) if format == "text" else game_to_json(session.game)
    suffix = "txt" if format == "text" else "json"
    return PlainTextResponse(
        text,
        media_type="text/plain; charset=utf-8" if suffix == "txt" else "application/json",
        headers={"Content-Disposition": f'attachment; filename="adjacency-{game_id}.{suffix}"'},
    )


router.include_router(codes.router)  # a seat's short code: made and typed like a link
router.include_router(share.router)  # the QR codes of the share links
