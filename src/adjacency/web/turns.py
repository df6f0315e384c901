"""The bot turns of one game: a worker thread asks the bot and hands back its answer.

:class:`BotTurns` talks to its game through the narrow :class:`TurnHost`
interface (implemented by :class:`~adjacency.web.session.GameSession`); it
knows nothing else of the session, so the two modules do not import each other.

Contract of :class:`BotTurns`:

* It owns the game's bots (one per colour, built lazily outside the lock,
  released when the game ends, is closed or is left), the worker thread, the
  *generation* counter and the report of the bot thinking now.
* :meth:`BotTurns.ensure` starts the worker if the host has a bot turn
  (:meth:`TurnHost.bot_turn`); the worker thinks for every bot turn in a row,
  then ends. There is at most one worker per game and bots never run on the
  event loop.
* :meth:`BotTurns.cancel` bumps the generation and stops the bot: an answer
  computed for an older generation is dropped, so the record only ever
  receives moves computed for its current position.
* The worker hands an answer to the host under the host's lock: a move
  (:meth:`TurnHost.bot_moved`, with its time and evaluation) or a failure
  (:meth:`TurnHost.bot_failed`).
* Every method except the worker itself must be called with the host's
  ``lock`` held; the worker takes it whenever it reads or changes the game.
* With ``slots`` (the server's :class:`~adjacency.web.limits.BotSlots`), the
  worker runs only while it holds a slot: :meth:`BotTurns.ensure` without a
  free slot leaves the bot waiting, and it starts when a slot frees. The slot
  is given back when the worker ends or the game is closed.
* Each move's search waits for a core in the slots' CPU budget (its fair queue,
  :mod:`adjacency.serving.cpu_budget`), charged to the game's clients.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from ..bots import Bot, BotFailure, Limit, Thinking
from ..bots.gate import admit
from ..bots.gate import build as build_bot
from ..core import Color, Position
from ..core.details import Detail
from ..core.game import Termination
from ..serving.cpu_budget import Ticket
from ..serving.details import ended
from .levels import is_baseline
from .limits import BotSlots
from .view import Evaluation

log = logging.getLogger(__name__)

QUEUE_POLL = 0.5
"""Seconds between two looks of a bot waiting for a core at the engine's queue (and at
its game: a game closed meanwhile leaves the queue)."""

ThinkingNow = tuple[Color, float, Thinking | None, Bot]
"""The bot thinking now: its colour, when it started (monotonic), its latest report, the bot."""


@dataclass(frozen=True)
class BotTurn:
    """A bot's turn as the host describes it: who moves, where, and within what limit."""

    color: Color
    spec: str
    name: str
    position: Position
    limit: Limit
    wait: float = 0.0
    """Seconds to wait before thinking (the pace of a bot-vs-bot game)."""


class TurnHost(Protocol):
    """What the turn worker needs of its game (all called with ``lock`` held)."""

    lock: threading.RLock
    id: str

    def bot_turn(self) -> BotTurn | None:
        """The bot turn to play now, or ``None`` if no bot may play now."""

    def keeps_bots(self) -> bool:
        """Whether the game may need its bots again (not over, closed or left)."""

    def bot_thinking(self, report: Thinking | None) -> None:
        """A bot started thinking (``None``) or published a report: tell the listeners."""

    def bot_moved(self, color: Color, move: str, seconds: float, evaluation: Evaluation) -> None:
        """The bot of ``color`` answered ``move`` (an illegal one forfeits)."""

    def bot_failed(
        self, color: Color, termination: Termination | None, detail: str | Detail
    ) -> None:
        """The bot of ``color`` could not answer: forfeit with ``termination``, or if it
        is ``None`` (not the player's fault) end the game without a result, ``detail``
        being the whole account."""


class BotTurns:
    """Runs the bot turns of ``host``; see the module docstring for the contract."""

    def __init__(self, host: TurnHost, slots: BotSlots | None = None) -> None:
        self._host = host
        self._slots = slots
        self._lock = host.lock
        self._wake = threading.Event()
        self._bots: dict[Color, Bot] = {}
        self._generation = 0
        self._busy = False
        self.closed = False
        self.thinking: ThinkingNow | None = None
        self.waiting = False
        """Whether a bot is to play but every bot slot is taken (it starts when one frees)."""

    def wake(self) -> None:
        """Let a worker waiting between bot-vs-bot moves re-check the game now."""
        self._wake.set()

    def ensure(self) -> None:
        """Start the worker if a bot may play now and none is running."""
        if self._busy or self.closed:
            return
        if self._host.bot_turn() is None:
            self.waiting = False
            return
        if self._slots is not None and not self._slots.take(self._host.id, self._retry):
            self.waiting = True  # every slot is taken: _retry runs when one frees
            return
        self.waiting = False
        self._busy = True
        name = f"bot-{self._host.id}"
        threading.Thread(target=self._work, name=name, daemon=True).start()

    def _retry(self) -> None:
        """A bot slot freed: start the worker if a bot is still to play."""
        with self._lock:
            self.ensure()

    def _give_slot(self) -> None:
        """Return the bot slot (with the host's lock held)."""
        if self._slots is not None:
            self._slots.give(self._host.id)

    def cancel(self) -> None:
        """Invalidate the search in flight (its answer will be dropped) and stop the bot."""
        self._generation += 1
        if self.thinking is not None:
            self.thinking[3].stop()
            self.thinking = None
        self._wake.set()

    def move_now(self) -> bool:
        """Tell the thinking bot to answer with its best move so far; ``False`` if none thinks."""
        if self.thinking is None:
            return False
        self.thinking[3].stop()
        return True

    def close(self) -> None:
        """Cancel the search and release the bots for good.

        A bot still unwinding its search is closed by the worker when it returns.
        """
        self.closed = True
        self.cancel()
        self._give_slot()  # at once: a deleted game's slot is free for the next game (its
        # bot, told to stop, returns within moments)
        if self._busy:
            return
        bots, self._bots = list(self._bots.values()), {}
        close_bots(bots)

    # ---------------------------------------------------------------- worker

    def _work(self) -> None:
        """The worker thread: think for every bot turn, then release what is not needed."""
        host = self._host
        released: list[Bot] = []
        while True:
            with self._lock:
                turn = None if self.closed else host.bot_turn()
                if turn is None:
                    self._busy = False
                    self._give_slot()
                    if self.closed or not host.keeps_bots():
                        released, self._bots = list(self._bots.values()), {}
                    break
                self._wake.clear()
                generation = self._generation
                bot = self._bots.get(turn.color)
            if turn.wait > 0:
                self._wake.wait(turn.wait)
                continue
            if bot is None:  # built outside the lock: the engine allocates and may compile
                bot = self._build(turn)
                if bot is None:
                    continue
                with self._lock:
                    stale = self.closed or self._bots.get(turn.color) is not None
                    if not stale:
                        self._bots[turn.color] = bot
                if stale:
                    close_bots([bot])
                continue  # re-check the state, which may have changed meanwhile
            ticket = self._queue(turn, generation)
            if ticket is False:
                continue  # the game moved on while the bot waited for a core
            try:
                with self._lock:
                    now = host.bot_turn()
                    if generation != self._generation or not same_turn(now, turn):
                        continue
                    self.thinking = (turn.color, time.monotonic(), None, bot)
                    host.bot_thinking(None)
                if isinstance(ticket, Ticket):
                    with ticket.measured():  # its CPU, helper threads included, is charged
                        self._think(bot, turn, generation)
                else:
                    self._think(bot, turn, generation)
            finally:
                if isinstance(ticket, Ticket):
                    ticket.done()  # charged to the game's visitor: its share of the core
        close_bots(released)

    def _queue(self, turn: BotTurn, generation: int) -> Ticket | bool | None:
        """Wait for a core in the server's fair queue (:attr:`BotSlots.engine`): the
        ticket once granted, ``None`` without a queue, ``False`` if the game moved on
        (closed, cancelled) while waiting."""
        engine = None if self._slots is None else self._slots.engine
        if engine is None:
            return None
        clients = self._slots.clients_of(self._host.id) if self._slots is not None else ()
        ticket = engine.enter(clients, f"bot {self._host.id}")
        while not ticket.wait(QUEUE_POLL):
            with self._lock:
                if self.closed or generation != self._generation:
                    ticket.done()
                    return False
        return ticket

    def _build(self, turn: BotTurn) -> Bot | None:
        """A new bot for ``turn`` (its spec through the network gate, as every bot a page
        asks for); on failure the game ends without a result."""
        try:
            bot = build_bot(admit(turn.spec))
            bot.new_game()
            return bot
        except Exception as exc:
            log.exception("cannot build bot %s", turn.spec)
            with self._lock:
                self._host.bot_failed(
                    turn.color, None, ended("could-not-start", player=turn.name, error=exc)
                )
            return None

    def _think(self, bot: Bot, turn: BotTurn, generation: int) -> None:
        host = self._host
        started = time.monotonic()
        move: str | None = None
        failure: tuple[Termination | None, str] | None = None

        def listener(report: Thinking) -> None:
            with self._lock:
                if generation == self._generation and self.thinking is not None:
                    self.thinking = (turn.color, self.thinking[1], report, bot)
                    host.bot_thinking(report)

        try:
            move = bot.choose_move(turn.position, turn.limit, listener)
        except BotFailure as exc:
            failure = (exc.termination, exc.detail)
        except Exception as exc:
            log.exception("bot %s failed", bot.spec)
            failure = (None, f"{type(exc).__name__}: {exc}")
        seconds = time.monotonic() - started
        with self._lock:
            if generation != self._generation:
                return  # the position changed or the search was cancelled: drop the answer
            self.thinking = None
            if failure is not None:
                termination, detail = failure
                if termination in (
                    Termination.NORMAL,
                    Termination.UNTERMINATED,
                    Termination.ABANDONED,
                ):
                    termination = None
                if termination is None:
                    host.bot_failed(
                        turn.color, None, ended("bot-failed", player=turn.name, error=detail)
                    )
                else:
                    host.bot_failed(turn.color, termination, detail)
                return
            assert move is not None
            report = bot.report
            value = None
            if report is not None and report.score is not None and not is_baseline(bot.spec):
                value = report.score if turn.color == "x" else -report.score
            host.bot_moved(turn.color, move, seconds, (value, report.depth if report else None))


def same_turn(now: BotTurn | None, before: BotTurn) -> bool:
    """Whether ``now`` is still the turn ``before`` (same side, same position, no wait)."""
    return (
        now is not None
        and now.wait <= 0
        and now.color == before.color
        and now.position == before.position
        and now.spec == before.spec
    )


def close_bots(bots: list[Bot]) -> None:
    """Close each bot, logging (not raising) a failure."""
    for bot in bots:
        try:
            bot.close()
        except Exception:
            log.exception("closing %r failed", bot)
