"""What a page sees of a game: building the :class:`GameState` snapshot and its one-line account."""

from __future__ import annotations

import time

from ..bots import Thinking
from ..core import Color, Position
from ..core.game import Game, Termination
from ..serving.details import detail_fields, english
from .models import ClockInfo, GameState, Ply, Side, ThinkingInfo
from .players import Player

Evaluation = tuple[float | None, int | None]
"""A move's search score (X's view, pieces) and depth, both ``None`` when not reported."""


def cells(position: Position) -> str:
    """The squares of ``position`` in index order (a1, b1, ...): ``x``, ``o`` or ``.``."""
    x, o = position.x, position.o
    return "".join(
        "x" if x >> i & 1 else "o" if o >> i & 1 else "." for i in range(position.board.size)
    )


def side(color: Color) -> Side:
    """The API's literal for a colour."""
    return "x" if color == "x" else "o"


def thinking_info(color: Color, started: float, report: Thinking | None) -> ThinkingInfo:
    """The thinking bot's state; ``report`` scores (mover's view) are turned to X's view."""
    elapsed = round(time.monotonic() - started, 2)
    if report is None:
        return ThinkingInfo(color=side(color), elapsed=elapsed)
    score = report.score
    if score is not None:
        score = score if color == "x" else -score
    return ThinkingInfo(
        color=side(color),
        elapsed=elapsed,
        depth=report.depth,
        score=score,
        nodes=report.nodes,
        pv=list(report.pv),
        text=report.text,
    )


def describe(
    game: Game,
    players: dict[Color, Player],
    mode: str,
    paused: bool,
    thinking: bool,
    waiting: bool = False,
) -> str:
    """A one-line account of the game for people: whose turn, or the result and why."""
    x_count, o_count = game.position.score
    score = f"{x_count}-{o_count}"
    if game.termination == Termination.ABANDONED:
        return f"Game stopped without a result. {english(game.detail)}".strip()
    if game.is_over:
        if game.result == "draw":
            return f"Draw, {score}."
        assert game.result is not None
        winner = f"{game.result.upper()} ({players[game.result].name})"
        if game.termination == Termination.NORMAL:
            return f"{winner} wins {score}."
        return f"{winner} wins: {game.termination.value}. {english(game.detail)}".strip()
    turn = game.position.turn
    player = players[turn]
    if player.is_bot:
        if thinking:
            return f"{turn.upper()} ({player.name}) is thinking…"
        if mode == "bot-bot" and paused:
            return f"Paused; {turn.upper()} ({player.name}) to move."
        if waiting:
            return (
                f"{turn.upper()} ({player.name}) to move: waiting for a free bot slot "
                "(the server plays its most bot games at once)."
            )
        return f"{turn.upper()} ({player.name}) to move."
    return f"{turn.upper()} ({player.name}) to move: click an empty square."


def game_state(
    *,
    game_id: str,
    version: int,
    game: Game,
    players: dict[Color, Player],
    mode: str,
    time_per_move: float,
    evals: list[Evaluation],
    thinking: ThinkingInfo | None,
    paused: bool,
    delay: float,
    can_undo: bool,
    clock: ClockInfo | None = None,
    waiting: bool = False,
) -> GameState:
    """The full snapshot of a game (``evals`` has one entry per move)."""
    position = game.position
    geometry = position.board
    moves = []
    for i, move in enumerate(game.moves):
        before = game.positions[i]
        value, depth = evals[i]
        moves.append(
            Ply(
                number=i + 1,
                color=side(before.turn),
                square=move.square,
                flips=before.flips(move.square),
                seconds=move.seconds,
                eval=value,
                depth=depth,
            )
        )
    boards = [cells(p) for p in game.positions]
    preview = {} if game.is_over else {sq: position.flips(sq) for sq in position.legal_moves()}
    x_count, o_count = position.score
    human_to_move = not game.is_over and not players[position.turn].is_bot
    return GameState(
        id=game_id,
        version=version,
        status="over" if game.is_over else "playing",
        mode=mode,  # type: ignore[arg-type]
        rows=geometry.rows,
        cols=geometry.cols,
        rounds=game.rounds,
        first=side(game.first),
        time=time_per_move,
        x=players["x"].info(),
        o=players["o"].info(),
        moves=moves,
        boards=boards,
        turn=side(position.turn),
        plies_left=position.plies_left,
        rounds_left=position.rounds_left,
        score=[x_count, o_count],
        result=game.result,
        termination=game.termination.value,
        termination_detail=english(game.detail),
        **detail_fields(game.detail),
        message=describe(game, players, mode, paused, thinking is not None, waiting),
        thinking=thinking,
        human_to_move=human_to_move,
        can_undo=can_undo,
        paused=paused,
        delay=delay,
        preview=preview,
        clock=clock,
    )
