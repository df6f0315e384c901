"""One live game in the server: its record, its players, and the worker that runs its bots.

Concurrency contract: every public method may be called from any thread; a
re-entrant lock guards the game. Bots think in one worker thread per session
(started when a bot is to move, ending when none is), never on the event loop.
A *generation* counter invalidates a search in flight: undo, pause and
abandonment bump it and stop the bot, and the worker drops the stale answer, so
the record only ever receives moves computed for its current position.

A session is *attended* while a page listens to its events or an API call
touched it within ``grace`` seconds; an unattended game's bot is stopped (the
game stays stored and resumes when a page opens it again).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ..bots import Bot, BotFailure, Limit, Thinking, make_bot
from ..core import Color, IllegalMoveError
from ..core.game import Game, Termination
from ..core.record import game_from_dict, game_to_dict
from .errors import NotNow
from .hints import HINT_TIME, HintBots
from .levels import is_baseline, strongest_level
from .models import GameState, Hint
from .players import Player
from .view import describe, game_state, thinking_info

log = logging.getLogger(__name__)

Listener = Callable[[str, str], None]
"""Receives ``(event name, JSON data)``; must not block (it is called under the lock)."""

Saver = Callable[["GameSession"], None]


class GameSession:
    """A game being played or replayed; see the module docstring for the threading rules."""

    def __init__(
        self,
        game_id: str,
        game: Game,
        players: dict[Color, Player],
        time_per_move: float,
        saver: Saver,
        grace: float = 10.0,
        created: float | None = None,
        evals: list[tuple[float | None, int | None]] | None = None,
        paused: bool = False,
        delay: float = 0.5,
    ) -> None:
        self.id = game_id
        self.game = game
        self.players = players
        self.time = time_per_move
        self.created = time.time() if created is None else created
        self.evals: list[tuple[float | None, int | None]] = (
            list(evals) if evals else [_NO_EVAL] * len(game.moves)
        )
        self.paused = paused
        self.delay = delay
        self.grace = grace
        self.version = 0
        self._saver = saver
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._listeners: list[Listener] = []
        self._bots: dict[Color, Bot] = {}
        self._generation = 0
        self._busy = False
        self._step = False
        self._thinking: tuple[Color, float, Thinking | None, Bot] | None = None
        self._turn_started = time.monotonic()
        self._last_move_at = 0.0
        self._attended_until = time.monotonic() + grace
        self._closed = False

    # ------------------------------------------------------------ persistence

    def meta(self) -> dict[str, Any]:
        """The web layer's data stored next to the core record."""
        return {
            "players": {c: p.to_dict() for c, p in self.players.items()},
            "time": self.time,
            "evals": [list(e) for e in self.evals],
            "paused": self.paused,
            "delay": self.delay,
            "version": self.version,
        }

    def record(self) -> dict[str, Any]:
        return game_to_dict(self.game)

    @classmethod
    def restore(
        cls,
        game_id: str,
        created: float,
        record: dict[str, Any],
        meta: dict[str, Any],
        saver: Saver,
        grace: float,
    ) -> GameSession:
        """Rebuild a stored session (raises ``InvalidRecordError`` if the row is damaged)."""
        game = game_from_dict(record)
        players = {c: Player.from_dict(meta["players"][c]) for c in ("x", "o")}
        evals = [(e[0], e[1]) for e in meta.get("evals", [])]
        if len(evals) != len(game.moves):
            evals = []
        session = cls(
            game_id,
            game,
            players,  # type: ignore[arg-type]
            float(meta.get("time", 5.0)),
            saver,
            grace,
            created,
            evals,
            bool(meta.get("paused", False)),
            float(meta.get("delay", 0.5)),
        )
        # Versions keep increasing across restarts, so pages never mistake new for old.
        session.version = int(meta.get("version", 0)) + 1
        return session

    # ------------------------------------------------------------------ state

    @property
    def mode(self) -> str:
        bots = sum(p.is_bot for p in self.players.values())
        return ("human-human", "human-bot", "bot-bot")[bots]

    def state(self) -> GameState:
        """A snapshot of everything the page shows."""
        with self._lock:
            return self._state()

    def _state(self) -> GameState:
        thinking = None
        if self._thinking is not None:
            color, started, report, _ = self._thinking
            thinking = thinking_info(color, started, report)
        return game_state(
            game_id=self.id,
            version=self.version,
            game=self.game,
            players=self.players,
            mode=self.mode,
            time_per_move=self.time,
            evals=self.evals,
            thinking=thinking,
            paused=self.paused,
            delay=self.delay,
            can_undo=self._undo_target() is not None,
        )

    def _message(self) -> str:
        return describe(self.game, self.players, self.mode, self.paused, self._thinking is not None)

    def _human_to_move(self) -> bool:
        return not self.game.is_over and not self.players[self.game.position.turn].is_bot

    def _undo_target(self) -> int | None:
        """How many moves remain after an undo, or ``None`` if there is nothing to take back."""
        if self.mode == "bot-bot":
            return None
        game = self.game
        for i in range(len(game.moves) - 1, -1, -1):
            if not self.players[game.positions[i].turn].is_bot:
                return i
        return None

    # ------------------------------------------------------------ listeners

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)
            self._ensure_worker()

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)
            if not self._listeners:
                self._attended_until = time.monotonic() + self.grace
                timer = threading.Timer(self.grace + 0.05, self._check_abandoned)
                timer.daemon = True
                timer.start()

    def touch(self) -> None:
        """Note that someone uses the game now (an API call); restart a stopped bot."""
        with self._lock:
            self._attended_until = max(self._attended_until, time.monotonic() + self.grace)
            self._ensure_worker()

    def _attended(self) -> bool:
        return bool(self._listeners) or time.monotonic() < self._attended_until

    def _check_abandoned(self) -> None:
        with self._lock:
            if not self._attended() and self._thinking is not None:
                log.info("game %s abandoned by its page: stopping its bot", self.id)
                self._cancel()
                self._changed(save=False)

    def _broadcast(self, event: str, data: str) -> None:
        for listener in list(self._listeners):
            try:
                listener(event, data)
            except Exception:  # a broken listener must not break the game
                log.exception("listener failed")

    def _changed(self, save: bool = True) -> None:
        self.version += 1
        if save:
            self._saver(self)
        self._broadcast("state", self._state().model_dump_json())
        self._wake.set()

    # -------------------------------------------------------------- actions

    def play(self, square: str) -> GameState:
        """Play the person's move; raise ``NotNow`` or ``IllegalMoveError``."""
        with self._lock:
            game = self.game
            if game.is_over:
                raise NotNow(f"the game is over ({self._message()}); start a new game")
            turn = game.position.turn
            player = self.players[turn]
            if player.is_bot:
                doing = "is thinking" if self._thinking else "is to move"
                raise NotNow(
                    f"it is {turn.upper()}'s turn and {player.name} (a bot) {doing}; "
                    "wait for its move"
                )
            seconds = time.monotonic() - self._turn_started
            game.play(square, seconds)
            self.evals.append(_NO_EVAL)
            self._after_move()
            return self._state()

    def undo(self) -> GameState:
        """Take back the last person's move and any bot replies after it."""
        with self._lock:
            target = self._undo_target()
            if target is None:
                if self.mode == "bot-bot":
                    raise NotNow("undo is for games with a person; this is bot vs bot")
                raise NotNow("there is no move of yours to take back")
            self._cancel()
            while len(self.game.moves) > target:
                self.game.undo()
                self.evals.pop()
            self._turn_started = time.monotonic()
            self._changed()
            return self._state()

    def move_now(self) -> GameState:
        """Tell the thinking bot to answer with its best move so far."""
        with self._lock:
            if self._thinking is None:
                raise NotNow("no bot is thinking now")
            self._thinking[3].stop()
            return self._state()

    def control(self, action: str | None, delay: float | None) -> GameState:
        """Bot-vs-bot playback: pause, resume, step one move, or set the delay between moves."""
        with self._lock:
            if self.mode != "bot-bot":
                raise NotNow("play, pause and step are for bot vs bot games")
            if delay is not None:
                self.delay = float(delay)
            if action == "pause":
                self.paused = True
                self._step = False
                self._cancel()
            elif action == "resume":
                self.paused = False
            elif action == "step":
                if self.game.is_over:
                    raise NotNow("the game is over; there is no move to step")
                self.paused = True
                self._step = True
                self._last_move_at = 0.0
            self._changed()
            self._ensure_worker()
            return self._state()

    def hint(self, bots: HintBots) -> Hint:
        """The strongest available bot's move for the person to move (blocks while it thinks).

        The bot comes from ``bots``, the server's pool of reusable hint bots.
        """
        with self._lock:
            if not self._human_to_move():
                raise NotNow("a hint is for a person to move; it is not your turn")
            position = self.game.position
            level = strongest_level()
            time_limit = min(self.time, level.time_cap or self.time, HINT_TIME)
        return bots.suggest(level.spec, position, time_limit)

    def close(self) -> None:
        """Stop any search and release the bots (server shutdown or deletion).

        A bot still unwinding its search is closed by the worker when it returns.
        """
        with self._lock:
            self._closed = True
            self._cancel()
            if self._busy:
                return
            bots, self._bots = list(self._bots.values()), {}
        _close_all(bots)

    # ---------------------------------------------------------------- worker

    def _after_move(self) -> None:
        now = time.monotonic()
        self._turn_started = self._last_move_at = now
        self._changed()
        self._ensure_worker()

    def _cancel(self) -> None:
        """Invalidate the search in flight (its answer will be dropped) and stop the bot."""
        self._generation += 1
        if self._thinking is not None:
            self._thinking[3].stop()
            self._thinking = None
        self._wake.set()

    def _needs_bot(self) -> bool:
        if self._closed or self.game.is_over or not self._attended():
            return False
        if not self.players[self.game.position.turn].is_bot:
            return False
        return not (self.mode == "bot-bot" and self.paused and not self._step)

    def _ensure_worker(self) -> None:
        if not self._busy and self._needs_bot():
            self._busy = True
            threading.Thread(target=self._work, name=f"bot-{self.id}", daemon=True).start()

    def _work(self) -> None:
        """The worker thread: think for every bot turn, then release what is not needed."""
        released: list[Bot] = []
        while True:
            with self._lock:
                if not self._needs_bot():
                    self._busy = False
                    if self._closed or self.game.is_over or not self._attended():
                        released, self._bots = list(self._bots.values()), {}
                    break
                self._wake.clear()
                wait = 0.0
                if self.mode == "bot-bot" and not self._step:
                    wait = self._last_move_at + self.delay - time.monotonic()
                generation = self._generation
                color = self.game.position.turn
                player = self.players[color]
                bot = self._bots.get(color)
            if wait > 0:
                self._wake.wait(wait)
                continue
            if bot is None:  # built outside the lock: the engine allocates and may compile
                bot = self._build(player)
                if bot is None:
                    continue
                with self._lock:
                    stale = self._closed or self._bots.get(color) is not None
                    if not stale:
                        self._bots[color] = bot
                if stale:
                    _close_all([bot])
                continue  # re-check the state, which may have changed meanwhile
            with self._lock:
                if generation != self._generation or not self._needs_bot():
                    continue
                position = self.game.position
                limit = Limit(time=min(self.time, player.time_cap or self.time))
                self._thinking = (color, time.monotonic(), None, bot)
                self._changed(save=False)
            self._think(bot, position, limit, generation, color)
        _close_all(released)

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
                self.game.abandon(f"{player.name} could not start: {exc}")
                self._changed()
            return None

    def _think(self, bot: Bot, position: Any, limit: Limit, generation: int, color: Color) -> None:
        started = time.monotonic()
        move: str | None = None
        failure: tuple[Termination | None, str] | None = None

        def listener(report: Thinking) -> None:
            with self._lock:
                if generation == self._generation and self._thinking is not None:
                    self._thinking = (color, self._thinking[1], report, bot)
                    info = thinking_info(color, self._thinking[1], report)
                    self._broadcast("thinking", info.model_dump_json())

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
            self._thinking = None
            name = self.players[color].name
            if failure is not None:
                termination, detail = failure
                if termination is None or termination in (
                    Termination.NORMAL,
                    Termination.UNTERMINATED,
                    Termination.ABANDONED,
                ):
                    self.game.abandon(f"{name} failed: {detail}")
                else:
                    self.game.forfeit(color, termination, detail)
                self._changed()
                return
            assert move is not None
            try:
                self.game.play(move, seconds)
            except IllegalMoveError as exc:
                self.game.forfeit(color, Termination.ILLEGAL_MOVE, str(exc))
                self._changed()
                return
            report = bot.report
            value = None
            if report is not None and report.score is not None and not is_baseline(bot.spec):
                value = report.score if color == "x" else -report.score
            self.evals.append((value, report.depth if report else None))
            self._step = False
            self._after_move()


_NO_EVAL: tuple[float | None, int | None] = (None, None)


def _close_all(bots: list[Bot]) -> None:
    for bot in bots:
        try:
            bot.close()
        except Exception:
            log.exception("closing %r failed", bot)
