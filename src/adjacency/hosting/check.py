"""The check before a version plays: :func:`check_bot`.

A built bot is accepted only when it answers a legal move, in time, on each position of
a fixed set (:func:`check_positions`) on the league's board: the start with the first
side to move, the start after one move (the other side), a middle-game position and one
two plies from the end, so it plays both colours, a full board and an almost full one.
The positions come from a fixed seed, the same for every team, so a refusal can name the
position (its text) and a team can try it at home (``adjacency move SPEC FEN``).

Nothing here stands in for the bot: a late, illegal or missing answer, or a crash, is the
refusal's reason, as it would be a loss in a game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..bots import Bot, BotError, Limit
from ..bots.base import BotFailure
from ..core import Color, Position

SEED = 20_260_101
"""The fixed seed of the checked positions (the same for every team)."""


def check_positions(rows: int, cols: int, rounds: int, first: Color = "x") -> list[Position]:
    """The checked positions of a league's board (see the module docstring), in order."""
    start = Position.start(rows, cols, rounds, first=first)
    chooser = random.Random(SEED)
    line = [start]
    position = start
    while not position.is_over and position.plies_left > 0:
        position = position.play(chooser.choice(position.legal_moves()))
        line.append(position)
    playable = [p for p in line if not p.is_over]
    chosen = [playable[0]]
    if len(playable) > 1:
        chosen.append(playable[1])
    middle = playable[len(playable) // 2]
    late = playable[-2] if len(playable) >= 2 else playable[-1]
    for extra in (middle, late):
        if extra not in chosen:
            chosen.append(extra)
    return chosen


@dataclass(frozen=True)
class Verdict:
    """A check's outcome: ``accepted``, and ``detail``: the positions answered and the
    longest answer's seconds, or which position failed and how."""

    accepted: bool
    detail: str


def check_bot(
    make: Callable[[], Bot], rows: int, cols: int, rounds: int, seconds: float
) -> Verdict:
    """Check the bot ``make`` builds (one bot, closed at the end) on
    :func:`check_positions`, ``seconds`` a move. A bot that cannot start is refused with
    its reason."""
    positions = check_positions(rows, cols, rounds)
    try:
        bot = make()
    except BotError as exc:
        return Verdict(False, f"the bot could not start: {exc}")
    slowest = 0.0
    try:
        for number, position in enumerate(positions, 1):
            side = position.turn.upper()
            where = f"position {number} of {len(positions)} ({position.fen()}, {side} to move)"
            bot.new_game()
            started = time.monotonic()
            try:
                move = bot.choose_move(position, Limit(time=seconds))
            except BotFailure as exc:
                return Verdict(False, f"{where}: {exc.detail}")
            except BotError as exc:
                return Verdict(False, f"{where}: {exc}")
            took = time.monotonic() - started
            if move not in position.legal_moves():
                return Verdict(False, f"{where}: the answer {move!r} is not a legal move")
            slowest = max(slowest, took)
    finally:
        bot.close()
    return Verdict(
        True, f"{len(positions)} positions answered legally; the longest took {slowest:.2f} s"
    )
