"""One hosted side of one game: the :class:`Seat` protocol, its sandboxed
:class:`BotSeat`, and a move's :class:`Answer`.

:class:`Seat` is what the league's games call, wherever the side runs: :class:`BotSeat`
here, or :class:`~.ray_seats.RemoteSeat`, the same on a Ray cluster's node.

A seat is the built bot (:func:`~.player.hosted_bot`) in one
:class:`~adjacency.sandbox.SandboxedProcess`, from :meth:`BotSeat.open` to
:meth:`BotSeat.close`. A move is judged by its wall time of its own, its clock's seconds
plus a grace (:mod:`.move_clock`), and charged that less the grace, or the CPU time its
sandbox used in the move where that is more (what it computes on its opponent's time is
never charged: as on the course's wall clock, a bot may think on, and a search its own
5 s timer left running is no loss whatever the machine's load); it is waited for up to
:func:`~.move_clock.ceiling`, and one the server starved (its own time within its cap)
is ``ABANDONED``; the sandbox's monitor ends a program whose CPU time passes what its
clock has left (:meth:`~adjacency.sandbox.SandboxedProcess.cap_cpu`). Nothing stands in
for the bot: a failure is told in the :class:`Answer`, with its termination and the
program's reason.

Every method blocks (on the bot's pipe): callers run them in threads, or, with the
league's Ray executor, in an actor on a cluster node (:mod:`.ray_seats`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from ..bots import BotError, Limit
from ..bots.base import BotFailure
from ..bots.external import ExternalBot
from ..core import Position
from ..core.game import Termination
from ..sandbox import Outcome, Reason, SandboxedProcess
from ..serving.logs import say
from .check import last_output
from .fx_run import bot_span
from .move_clock import GRACE, MoveWatch, StartWatch, blame, charge, started_words
from .player import Choice
from .team_words import team_words

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Answer:
    """A hosted move's outcome: the square (``None`` on a failure), the CPU seconds its
    sandbox used for it, the wall seconds it took, and a failure's termination and
    reason. ``out_of_cpu``: its program was ended for using more CPU than its clock had.
    ``picture``: a failed move's picture of its program's board, where it draws one
    (:attr:`~adjacency.bots.base.BotFailure.picture`). ``charged``: the seconds its clock
    is charged (:func:`~.move_clock.charge`); ``own``: its own wall seconds (the wall
    less the machine's share, :attr:`~.move_clock.MoveTime.own`). ``output``: a move
    that loses its game (a failure not the machine's, or its CPU spent) carries its
    program's last output (:func:`~.check.last_output`), for its team."""

    move: str | None
    cpu: float
    wall: float
    failure: tuple[Termination, str] | None = None
    out_of_cpu: bool = False
    picture: bytes | None = None
    charged: float = 0.0
    own: float = 0.0
    output: str = ""


class Seat(Protocol):
    """One hosted side of one game, from :meth:`open` to :meth:`close`; every method
    blocks (callers run them in threads). ``closed`` is set once the game has ended for
    this side (first, then :meth:`close` is called)."""

    closed: bool

    @property
    def process(self) -> SandboxedProcess | None:
        """Its sandboxed process when it runs in this process's machine and has started;
        ``None`` otherwise (on another node, or not started)."""

    def open(self) -> None:
        """Start the bot in its sandbox and shake hands (off the clock);
        :class:`~adjacency.bots.BotError` if it cannot."""

    def move(self, fen: str, left: float, cap: float) -> Answer:
        """The bot's move in position ``fen`` with ``left`` seconds on its clock, waited
        for ``cap`` wall seconds at most (:func:`~.move_clock.ceiling`): the square, or
        the failure, in an :class:`Answer`."""

    def close(self) -> Outcome | None:
        """End its process and everything it started (idempotent); how it ended."""


class BotSeat:
    """One hosted side of one game: ``choice``'s bot in one sandboxed process."""

    def __init__(self, choice: Choice) -> None:
        self.choice = choice
        self.bot: ExternalBot | None = None
        self.closed = False
        self.start_over = 0.0
        """What its first move's clock is short: its start's seconds beyond its kind's
        allowance, less its game's opening (:meth:`~.move_clock.StartWatch.over`;
        negative: seconds more)."""

    @property
    def process(self) -> SandboxedProcess | None:
        """The sandboxed process, once started."""
        engine = self.bot.engine if self.bot is not None else None
        transport = engine.transport if engine is not None else None
        return transport if isinstance(transport, SandboxedProcess) else None

    def open(self) -> None:
        """Start the bot in its sandbox and shake hands; :class:`~adjacency.bots.BotError`
        if it cannot. Its start is off the clock up to its kind's allowance; the rest
        (:func:`~.move_clock.start_charge`) is charged to its first move."""
        if self.closed:  # the game ended while it waited for a slot
            return
        choice = self.choice
        watch = StartWatch()
        self.bot = choice.bot_now()
        process = self.process
        if process is not None:
            self.start_over = watch.over(process, choice.kind)
        if self.closed:  # the game ended while it started
            self.close()

    def move(self, fen: str, left: float, cap: float) -> Answer:
        """The bot's move in ``fen`` with ``left`` seconds on its clock, waited for
        ``cap`` wall seconds at most; judged and charged by :mod:`.move_clock`."""
        bot, process = self.bot, self.process
        if bot is None or process is None or self.closed:
            return Answer(None, 0.0, 0.0, (Termination.DISCONNECTION, "its program has ended"))
        before = process.cpu_seconds()  # what it computed on the opponent's time: not this move's
        extra, self.start_over = self.start_over, 0.0  # its start's excess: this move's
        left = left - extra
        process.cap_cpu(before + max(0.0, left) + GRACE)
        watch = MoveWatch(process, before)
        move: str | None = None
        failure: tuple[Termination, str] | None = None
        picture: bytes | None = None
        try:
            move = bot.choose_move(Position.from_fen(fen), Limit(time=max(left, 0.01), clock=cap))
        except BotFailure as exc:
            failure, picture = (exc.termination, team_words(exc.detail)), exc.picture
        except BotError as exc:
            failure = (Termination.DISCONNECTION, team_words(str(exc)))
        finally:
            process.cap_cpu(None)
        spent = watch.stop(failure is None, bot_span(bot))
        charged = max(0.0, charge(spent) + extra)  # an opening's seconds are no one's
        if process.reason is Reason.CPU:
            output = last_output(bot)
            return Answer(
                None, spent.cpu, spent.wall, failure, True, picture, charged, spent.own, output
            )
        if failure is None or failure[0] is Termination.TIME_FORFEIT:
            answered = failure is None
            failure = blame(spent, left, answered, cap) or failure
            if extra > 0 and failure is not None and failure[0] is Termination.TIME_FORFEIT:
                failure = (failure[0], f"{failure[1]}; {started_words(extra)}")
            if failure is not None and failure[0] is Termination.ABANDONED:
                move = None
        kept = failure is not None and failure[0] is not Termination.ABANDONED
        shown, output = (picture, last_output(bot)) if kept else (None, "")
        return Answer(
            move, spent.cpu, spent.wall, failure, False, shown, charged, spent.own, output
        )

    def close(self) -> Outcome | None:
        """End its process and everything it started (idempotent); waits until they are
        gone (:meth:`~adjacency.sandbox.SandboxedProcess.end`). How it ended, ``None``
        if it never started."""
        self.closed = True
        process = self.process
        if process is None:
            return None
        outcome = process.end()
        if outcome.leftovers:
            say(log, logging.ERROR, "processes-left", count=outcome.leftovers)
        return outcome
