"""A tiny referee: plays one game between two bots and records everything.

A move that takes longer than ``limit.time + margin`` seconds loses on time;
an illegal answer loses by illegal move; a :class:`~adjacency.bots.base.BotFailure`
loses with the termination it names, and any other exception raised by a bot (a
crash) loses by :attr:`~adjacency.core.game.Termination.DISCONNECTION` with the
exception quoted in the detail, as cutechess-cli scores a crashed engine. The
referee never raises for a bot's misbehaviour: it is written into the returned
:class:`~adjacency.core.game.Game`. A move its engine said was not the bot's own (a
stand-in, :attr:`~adjacency.bots.base.Bot.stand_in`) is played and noted in the
record's ``StandIns`` tag (:mod:`adjacency.core.stand_ins`).

A bot that never answers would stall the game. With ``hard_grace`` set, the
referee interrupts a move still running ``hard_grace`` seconds after its
``time + margin`` deadline (a ``SIGALRM`` timer, so only on POSIX and only when
called from the main thread, as in an arena worker process) and scores it as a
loss on time.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from types import FrameType

from ..core import IllegalMoveError, Position, stand_ins
from ..core.game import Game, Termination
from .base import Bot, BotFailure, Limit, Thinking

DEFAULT_MARGIN = 0.1
"""Seconds a move may exceed its budget before it loses on time."""

MoveListener = Callable[[Game, Thinking | None], None]


class _Overtime(BaseException):
    """Raised inside a bot that ran past its hard deadline (not an ``Exception``,
    so a bot's own ``except Exception`` cannot swallow it)."""


def _raise_overtime(signum: int, frame: FrameType | None) -> None:
    raise _Overtime


def _can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def play_game(
    x_bot: Bot,
    o_bot: Bot,
    start: Position | Game,
    limit: Limit | None = None,
    margin: float = DEFAULT_MARGIN,
    on_move: MoveListener | None = None,
    x_name: str | None = None,
    o_name: str | None = None,
    hard_grace: float | None = None,
) -> Game:
    """Play from ``start`` (a position, or a game to continue) to the end; return the record.

    ``on_move(game, thinking)`` is called after every legal move. ``hard_grace``
    (seconds, default off) enables interrupting a move that overruns its time
    budget by ``margin + hard_grace`` (see the module notes).
    """
    limit = limit or Limit()
    if isinstance(start, Game):
        game = start
    else:
        game = Game(start, x_name or x_bot.spec, o_name or o_bot.spec)
    bots = {"x": x_bot, "o": o_bot}
    for bot in bots.values():
        bot.new_game()
    hard = None
    if hard_grace is not None and limit.time is not None and _can_interrupt():
        hard = limit.time + margin + hard_grace
    while not game.is_over:
        position = game.position
        color = position.turn
        bot = bots[color]
        began = time.monotonic()
        previous = None
        try:
            if hard is not None:
                previous = signal.signal(signal.SIGALRM, _raise_overtime)
                signal.setitimer(signal.ITIMER_REAL, hard)
            try:
                move = bot.choose_move(position, limit)
            finally:
                if hard is not None:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    signal.signal(signal.SIGALRM, previous or signal.SIG_DFL)
        except _Overtime:
            game.forfeit(
                color,
                Termination.TIME_FORFEIT,
                f"{bot.spec} did not answer within {hard:.3f}s for a {limit.time:g}s budget "
                f"and was interrupted",
            )
            break
        except BotFailure as failure:
            game.forfeit(color, failure.termination, failure.detail)
            break
        except Exception as exc:  # a crashing bot loses; the referee carries on
            game.forfeit(
                color,
                Termination.DISCONNECTION,
                f"{bot.spec} crashed: {type(exc).__name__}: {exc}",
            )
            break
        seconds = time.monotonic() - began
        if limit.time is not None and seconds > limit.time + margin:
            game.forfeit(
                color,
                Termination.TIME_FORFEIT,
                f"{bot.spec} took {seconds:.3f}s for a {limit.time:g}s budget",
            )
            break
        try:
            game.play(move, seconds)
        except IllegalMoveError as exc:
            game.forfeit(color, Termination.ILLEGAL_MOVE, f"{bot.spec} answered {move!r}: {exc}")
            break
        if bot.stand_in:  # the engine said this move is not its bot's own
            stand_ins.mark(game, len(game.moves))
        if on_move is not None:
            on_move(game, bot.report)
    return game
