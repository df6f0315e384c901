"""The bot turns of one game session: a worker thread asks the bot and plays its answer.

Contract of :class:`BotTurns` (one per :class:`~adjacency.web.session.GameSession`):

* It owns the session's bots (one per colour, built lazily outside the lock,
  released when the game ends, is closed or is left), the worker thread, the
  *generation* counter and the report of the bot thinking now.
* :meth:`BotTurns.ensure` starts the worker if a bot is to move and the
  session lets it play (:meth:`BotTurns.needs_bot`); the worker thinks for
  every bot turn in a row, then ends. There is at most one worker per session
  and bots never run on the event loop.
* :meth:`BotTurns.cancel` bumps the generation and stops the bot: an answer
  computed for an older generation is dropped, so the record only ever
  receives moves computed for its current position.
* The worker applies an answer under the session's lock: it plays the move
  (with its time and evaluation), or ends the game if the bot failed (an
  illegal move or a protocol fault forfeits; any other failure abandons), then
  calls :meth:`GameSession.after_move` / :meth:`GameSession.changed`.
* Every method except the worker itself must be called with the session's
  ``lock`` held; the worker takes it whenever it reads or changes the session.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from ..bots import Bot, BotFailure, Limit, Thinking, make_bot
from ..core import Color, IllegalMoveError
from ..core.game import Termination
from .levels import is_baseline
from .players import Player
from .view import thinking_info

if TYPE_CHECKING:  # pragma: no cover
    from .session import GameSession

log = logging.getLogger(__name__)

ThinkingNow = tuple[Color, float, Thinking | None, Bot]
"""The bot thinking now: its colour, when it started (monotonic), its latest report, the bot."""


class BotTurns:
    """Runs the bot turns of ``session``; see the module docstring for the contract."""

    def __init__(self, session: GameSession) -> None:
        self._session = session
        self._lock = session.lock
        self._wake = threading.Event()
        self._bots: dict[Color, Bot] = {}
        self._generation = 0
        self._busy = False
        self.step = False
        """Bot vs bot while paused: play one move, then pause again."""
        self.last_move_at = 0.0
        """When the last move was played (monotonic); bot vs bot waits ``delay`` after it."""
        self.thinking: ThinkingNow | None = None

    def wake(self) -> None:
        """Let a worker waiting between bot-vs-bot moves re-check the session now."""
        self._wake.set()

    def needs_bot(self) -> bool:
        """Whether a bot is to move and may play now."""
        session = self._session
        if session.closed or session.game.is_over or not session.attended():
            return False
        if not session.players[session.game.position.turn].is_bot:
            return False
        return not (session.mode == "bot-bot" and session.paused and not self.step)

    def ensure(self) -> None:
        """Start the worker if a bot may play now and none is running."""
        if not self._busy and self.needs_bot():
            self._busy = True
            name = f"bot-{self._session.id}"
            threading.Thread(target=self._work, name=name, daemon=True).start()

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
        """Cancel the search and release the bots (after ``session.closed`` is set).

        A bot still unwinding its search is closed by the worker when it returns.
        """
        self.cancel()
        if self._busy:
            return
        bots, self._bots = list(self._bots.values()), {}
        close_bots(bots)

    # ---------------------------------------------------------------- worker

    def _work(self) -> None:
        """The worker thread: think for every bot turn, then release what is not needed."""
        session = self._session
        released: list[Bot] = []
        while True:
            with self._lock:
                if not self.needs_bot():
                    self._busy = False
                    if session.closed or session.game.is_over or not session.attended():
                        released, self._bots = list(self._bots.values()), {}
                    break
                self._wake.clear()
                wait = 0.0
                if session.mode == "bot-bot" and not self.step:
                    wait = self.last_move_at + session.delay - time.monotonic()
                generation = self._generation
                color = session.game.position.turn
                player = session.players[color]
                bot = self._bots.get(color)
            if wait > 0:
                self._wake.wait(wait)
                continue
            if bot is None:  # built outside the lock: the engine allocates and may compile
                bot = self._build(player)
                if bot is None:
                    continue
                with self._lock:
                    stale = session.closed or self._bots.get(color) is not None
                    if not stale:
                        self._bots[color] = bot
                if stale:
                    close_bots([bot])
                continue  # re-check the state, which may have changed meanwhile
            with self._lock:
                if generation != self._generation or not self.needs_bot():
                    continue
                position = session.game.position
                limit = Limit(time=min(session.time, player.time_cap or session.time))
                self.thinking = (color, time.monotonic(), None, bot)
                session.changed(save=False)
            self._think(bot, position, limit, generation, color)
        close_bots(released)

    def _build(self, player: Player) -> Bot | None:
        """A new bot for ``player``; on failure the game ends without a result."""
        assert player.spec is not None
        try:
            bot = make_bot(player.spec)
            bot.new_game()
            return bot
        except Exception as exc:
            log.exception("cannot build bot %s", player.spec)
            with self._lock:
                self._session.game.abandon(f"{player.name} could not start: {exc}")
                self._session.changed()
            return None

    def _think(self, bot: Bot, position: Any, limit: Limit, generation: int, color: Color) -> None:
        session = self._session
        started = time.monotonic()
        move: str | None = None
        failure: tuple[Termination | None, str] | None = None

        def listener(report: Thinking) -> None:
            with self._lock:
                if generation == self._generation and self.thinking is not None:
                    self.thinking = (color, self.thinking[1], report, bot)
                    info = thinking_info(color, self.thinking[1], report)
                    session.broadcast("thinking", info.model_dump_json())

        try:
            move = bot.choose_move(position, limit, listener)
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
            game = session.game
            name = session.players[color].name
            if failure is not None:
                termination, detail = failure
                if termination is None or termination in (
                    Termination.NORMAL,
                    Termination.UNTERMINATED,
                    Termination.ABANDONED,
                ):
                    game.abandon(f"{name} failed: {detail}")
                else:
                    game.forfeit(color, termination, detail)
                session.changed()
                return
            assert move is not None
            try:
                game.play(move, seconds)
            except IllegalMoveError as exc:
                game.forfeit(color, Termination.ILLEGAL_MOVE, str(exc))
                session.changed()
                return
            report = bot.report
            value = None
            if report is not None and report.score is not None and not is_baseline(bot.spec):
                value = report.score if color == "x" else -report.score
            session.evals.append((value, report.depth if report else None))
            self.step = False
            session.after_move()


def close_bots(bots: list[Bot]) -> None:
    """Close each bot, logging (not raising) a failure."""
    for bot in bots:
        try:
            bot.close()
        except Exception:
            log.exception("closing %r failed", bot)
