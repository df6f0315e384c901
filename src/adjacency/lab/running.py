"""Running a real bot for a lab trace: its spec gated, its seed fixed, its search cancellable.

Every lab trace of a bot (local search, genetic algorithms) is one
``choose_move`` of a bot made from a spec with a fixed seed and no time limit,
so the same spec, seed and position give the same trace (replayable), and the
trace's final move is the move the bot plays. The lab serves pages over the
network, so its bots are built from specs that passed the network gate
(:func:`~adjacency.bots.gate.admit`): never a program, a file or a path, whoever
calls it. :class:`Cancel` lets a caller on
another thread (the web app, when a page goes away) stop a lab search: a
search that is cancelled returns what it has, marked incomplete.
"""

from __future__ import annotations

import threading

from ..bots import Bot, BotError, Limit
from ..bots.gate import NetworkSpec, admit
from ..bots.gate import build as build_admitted
from ..core import Position
from .limits import LabError


class Cancel:
    """A cancellation flag shared by a lab search and whoever may stop it (thread-safe)."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self._bots: list[Bot] = []
        self._lock = threading.Lock()

    def cancel(self) -> None:
        """Stop the search now: set the flag and ask every bot it runs to answer."""
        with self._lock:
            self.event.set()
            bots = list(self._bots)
        for bot in bots:
            bot.stop()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self.event.is_set()

    def watch(self, bot: Bot) -> None:
        """Register ``bot`` so :meth:`cancel` stops it (at once if already cancelled)."""
        with self._lock:
            self._bots.append(bot)
            stop = self.event.is_set()
        if stop:
            bot.stop()


def build(spec: str | NetworkSpec, seed: int, kinds: tuple[type, ...], what: str) -> Bot:
    """The bot of ``spec`` seeded with ``seed`` (unless the spec sets one); :class:`LabError`
    if the network gate refuses a text spec, or unless the bot is one of ``kinds``
    (``what`` names them in the message)."""
    try:
        admitted = spec if isinstance(spec, NetworkSpec) else admit(spec)
        bot = build_admitted(admitted, seed=seed)
    except BotError as error:
        raise LabError(str(error)) from error
    if not isinstance(bot, kinds):
        bot.close()
        raise LabError(f"{admitted.name!r} is not {what}; give {what} spec")
    return bot


def play_traced(bot: Bot, position: Position, cancel: Cancel | None) -> tuple[str, bool]:
    """The bot's move on ``position`` with no time limit, and whether it ran to its end
    (``False`` when cancelled). The bot is closed afterwards."""
    if cancel is not None:
        cancel.watch(bot)
    try:
        move = bot.choose_move(position, Limit(time=None))
    finally:
        bot.close()
    return move, not (cancel is not None and cancel.cancelled)
