"""One live game in the server: its record, its players, and the person's commands.

A :class:`GameSession` holds the game record and the web layer's data next to
it (players, time per move, evaluations, playback settings), answers the
commands of the API (play, undo, move now, bot-vs-bot control, hint), tells
its listeners (event streams) about every change and saves it through
``saver``. Its bot turns run in :class:`~adjacency.web.turns.BotTurns`.

Concurrency contract: every public method may be called from any thread; a
re-entrant lock (``lock``) guards the game. Bots think in one worker thread per
session (started when a bot is to move, ending when none is), never on the
event loop. A *generation* counter invalidates a search in flight: undo, pause
and abandonment bump it and stop the bot, and the worker drops the stale
answer, so the record only ever receives moves computed for its current
position.

A session is *attended* while a page listens to its events or an API call
touched it within ``grace`` seconds; an unattended game's bot is stopped, and
its clock with it (the game stays stored and resumes when a page opens it
again). Timers (a flag falling, the abandonment check) are entries of the
shared scheduler (:mod:`.timers`), not a thread each; with the server's
:class:`~adjacency.web.limits.BotSlots` a bot runs only in a free slot.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ..bots import Limit, Thinking
from ..core import COLORS, Color, IllegalMoveError, InvalidSquareError, other
from ..core.details import Detail
from ..core.game import Game, Termination
from ..core.record import game_from_dict, game_to_dict
from ..round import finish, moves
from ..round.clock import Clock, move_budget
from ..round.state import Round, Step
from ..round.takeback import takeback
from ..serving.details import ended, refused
from ..serving.errors import Forbidden, NotNow
from .hints import HINT_TIME, HintBots
from .levels import strongest_level
from .limits import BotSlots
from .models import MAX_MOVE_TIME, ClockInfo, GameState, Hint, Offer, OfferKind, Viewer
from .players import Player
from .seats import Caller, Seats
from .timers import SCHEDULER, Timer
from .turns import BotTurn, BotTurns
from .view import Evaluation, describe, game_state, side, thinking_info

log = logging.getLogger(__name__)

Listener = Callable[[str, str], None]
"""Receives ``(event name, JSON data)``; must not block (it is called under the lock)."""

Saver = Callable[["GameSession"], None]

CLOSED = "closed"
"""The last event a game's listeners get when it is deleted: ``{"reason": text, "code"}``."""


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
        seats: Seats | None = None,
        clock: Clock | None = None,
        slots: BotSlots | None = None,
    ) -> None:
        self.id = game_id
        self.clock = clock
        """The game's clocks, or ``None`` (then bots think ``time`` seconds a move)."""
        self._flag_timer: Timer | None = None
        self.seats = Seats() if seats is None else seats
        """Who may act (owner, seat holders, token digests); see :mod:`.seats`."""
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
        self.lock = threading.RLock()
        """Guards everything here; hold it to read the game consistently."""
        self.closed = False
        """Set by :meth:`close`: no bot plays any more."""
        self._listeners: list[Listener] = []
        self.step = False
        """Bot vs bot while paused: play one move, then pause again."""
        self._last_move_at = 0.0
        """When the last move was played (monotonic); bot vs bot waits ``delay`` after it."""
        self._turn_started = time.monotonic()
        self._attended_until = time.monotonic() + grace
        self._turns = BotTurns(self, slots)
        """The bot turns; with ``slots`` (the server's cap) a bot runs only in a slot."""
        self.offer: Offer | None = None
        """A rematch or takeback offer waiting for the other player (games between devices)."""
        self.rematch: str | None = None
        """The id of this game's rematch once one was made: both players' pages follow it."""
        self._run_clock()

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
            "seats": self.seats.to_dict(),
            "clock": None if self.clock is None else self.clock.to_dict(),
            "offer": None if self.offer is None else self.offer.model_dump(),
            "rematch": self.rematch,
        }

    def record(self) -> dict[str, Any]:
        """The core record of the game, JSON-ready (stored next to :meth:`meta`)."""
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
        slots: BotSlots | None = None,
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
            Seats.from_dict(meta.get("seats")),
            Clock.from_dict(meta.get("clock")),
            slots,
        )
        # Versions keep increasing across restarts, so pages never mistake new for old.
        session.version = int(meta.get("version", 0)) + 1
        if meta.get("offer"):
            session.offer = Offer.model_validate(meta["offer"])
        rematch = meta.get("rematch")
        session.rematch = rematch if isinstance(rematch, str) else None
        return session

    # ------------------------------------------------------------------ state

    @property
    def mode(self) -> str:
        """``human-human``, ``human-bot`` or ``bot-bot``."""
        bots = sum(p.is_bot for p in self.players.values())
        return ("human-human", "human-bot", "bot-bot")[bots]

    def state(self) -> GameState:
        """A snapshot of everything the page shows."""
        with self.lock:
            return self._state()

    def _state(self) -> GameState:
        thinking = None
        if self._turns.thinking is not None:
            color, started, report, _ = self._turns.thinking
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
            clock=self._clock_info(),
            waiting=self._turns.waiting,
        ).model_copy(update={"offer": self.offer, "rematch": self.rematch})

    def _clock_info(self) -> ClockInfo | None:
        clock = self.clock
        if clock is None:
            return None
        running = None if clock.running is None else side(clock.running)
        return ClockInfo(
            base=clock.base,
            increment=clock.increment,
            x=max(0.0, round(clock.left("x"), 3)),
            o=max(0.0, round(clock.left("o"), 3)),
            running=running,
        )

    # ----------------------------------------------------------------- clock

    def _run_clock(self) -> None:
        """Start or stop the clock for the current state and arm the flag timer (call
        with the lock held, or from the constructor).

        The browser game's rules of when a clock runs: a person's while they are to
        move, from the first move of the game on (the first mover's first move is
        untimed, so a game between devices does not tick before the friend arrives); a
        bot's only while it thinks (not during the bot-vs-bot viewing delay, a pause, or
        while it is stopped because no page watches its game). A side whose clock
        reaches zero loses on time then (the flag timer, one entry of the shared
        scheduler), whatever the score."""
        clock = self.clock
        if clock is None:
            return
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None
        game = self.game
        if game.is_over or self.closed or not game.moves:
            clock.stop()
            return
        turn = game.position.turn
        thinking = self._turns.thinking
        if self.players[turn].is_bot and (thinking is None or thinking[0] != turn):
            clock.stop()
            return
        if clock.running != turn:
            clock.stop()
            clock.start(turn)
        plies = len(game.moves)
        self._flag_timer = SCHEDULER.call_later(
            max(0.0, clock.left(turn)) + 0.02, lambda: self._check_flag(plies)
        )

    def _check_flag(self, plies: int) -> None:
        """The flag timer: if the side to move is still out of time, it loses on time."""
        with self.lock:
            clock, game = self.clock, self.game
            if clock is None or game.is_over or len(game.moves) != plies or clock.running is None:
                return
            color = clock.running
            if clock.left(color) > 0:
                self._run_clock()  # woke early (paused and resumed meanwhile): re-arm
                return
            self._turns.cancel()
            self._step(moves.flag(self._round(), time.monotonic(), self._out_of_time(color)))

    def _out_of_time(self, color: Color) -> Detail:
        """The detail of ``color``'s loss on time (its flag fell, or its move came late)."""
        return ended("out-of-time", player=self._named(color))

    def _named(self, color: Color) -> str:
        """``color``'s player as this game's details name it: ``X (Ada)``."""
        return f"{color.upper()} ({self.players[color].name})"

    # ------------------------------------------------------- the round's steps

    def _round(self) -> Round:
        """The game in play as the round room's value (call with the lock held)."""
        return Round.of(self.game, None if self.clock is None else self.clock.value())

    def _step(self, step: Step) -> None:
        """Take a transition's new round (lock held): the record and the clock become it,
        the clock runs by this game's rules and the change is announced."""
        after, _ = step
        after.write(self.game)
        if self.clock is not None and after.clocks is not None:
            self.clock.set(after.clocks)
        self._run_clock()
        self.changed()

    def _message(self) -> str:
        return describe(
            self.game,
            self.players,
            self.mode,
            self.paused,
            self._turns.thinking is not None,
            self._turns.waiting,
        )

    def _human_to_move(self) -> bool:
        return not self.game.is_over and not self.players[self.game.position.turn].is_bot

    def _undo_target(self) -> int | None:
        """How many moves remain after an undo, or ``None`` if there is nothing to take back."""
        if self.mode == "bot-bot" or self.game.termination in FINAL:
            return None  # a loss on time or a resignation is final: no takeback reopens it
        game = self.game
        for i in range(len(game.moves) - 1, -1, -1):
            if not self.players[game.positions[i].turn].is_bot:
                return i
        return None

    # ------------------------------------------------------------ listeners

    def subscribe(self, listener: Listener) -> None:
        """Send the game's events to ``listener`` from now on; a bot to move starts thinking."""
        with self.lock:
            self._listeners.append(listener)
            self._turns.ensure()

    def unsubscribe(self, listener: Listener) -> None:
        """Stop sending events to ``listener``. When no listener is left, a bot still thinking is
        stopped unless the game is attended again within ``grace`` seconds."""
        with self.lock:
            if listener in self._listeners:
                self._listeners.remove(listener)
            if not self._listeners:
                self._attended_until = time.monotonic() + self.grace
                SCHEDULER.call_later(self.grace + 0.05, self._check_abandoned)

    def touch(self) -> None:
        """Note that someone uses the game now (an API call); restart a stopped bot."""
        with self.lock:
            self._attended_until = max(self._attended_until, time.monotonic() + self.grace)
            self._turns.ensure()

    def attended(self) -> bool:
        """Whether a page listens or an API call touched the game within ``grace`` seconds."""
        return bool(self._listeners) or time.monotonic() < self._attended_until

    def _check_abandoned(self) -> None:
        with self.lock:
            if not self.attended() and self._turns.thinking is not None:
                log.info("game %s abandoned by its page: stopping its bot", self.id)
                self._turns.cancel()
                self._run_clock()  # a stopped bot's clock stops with it
                self.changed()

    def broadcast(self, event: str, data: str) -> None:
        """Send an event to every listener (call with the lock held)."""
        for listener in list(self._listeners):
            try:
                listener(event, data)
            except Exception:  # a broken listener must not break the game
                log.exception("listener failed")

    def changed(self, save: bool = True) -> None:
        """Announce a change (call with the lock held): new version, saved unless told not
        to, a ``state`` event to the listeners, and a waiting bot worker re-checks."""
        self.version += 1
        if self.offer is not None and self.offer.kind == "takeback" and self.game.is_over:
            self.offer = None  # resigned, aborted or lost on time: nothing to take back
        if save:
            self._saver(self)
        self.broadcast("state", self._state().model_dump_json())
        self._turns.wake()

    def after_move(self) -> None:
        """A move was played (call with the lock held): time the next turn, announce it,
        and let a bot to move start thinking."""
        now = time.monotonic()
        self._turn_started = self._last_move_at = now
        self._run_clock()
        self.changed()
        self._turns.ensure()

    # ------------------------------------------- the turn worker's interface

    def keeps_bots(self) -> bool:
        """Whether the game may need its bots again: not closed, not over, and attended."""
        return not (self.closed or self.game.is_over or not self.attended())

    def bot_turn(self) -> BotTurn | None:
        """The bot turn to play now (see :class:`~adjacency.web.turns.TurnHost`)."""
        game = self.game
        if not self.keeps_bots():
            return None
        color = game.position.turn
        player = self.players[color]
        if not player.is_bot or player.spec is None:
            return None
        bot_game = self.mode == "bot-bot"
        if bot_game and self.paused and not self.step:
            return None
        wait = self._last_move_at + self.delay - time.monotonic() if bot_game else 0.0
        if self.step:
            wait = 0.0
        cap = min(self.time, player.time_cap or self.time)
        if self.clock is not None:
            cap = min(MAX_MOVE_TIME, player.time_cap or MAX_MOVE_TIME)
            left = self.clock.left(color)
            cap = move_budget(left, self.clock.increment, game.position.plies_left, cap)
        limit = Limit(time=cap)
        return BotTurn(color, player.spec, player.name, game.position, limit, wait)

    def bot_thinking(self, report: Thinking | None) -> None:
        """A bot started thinking (``None``: its clock starts and is saved) or published
        ``report`` (sent to the listeners as a ``thinking`` event)."""
        thinking = self._turns.thinking
        if report is None or thinking is None:
            self._run_clock()  # a bot's clock runs while it thinks
            self.changed(save=self.clock is not None)  # the clock's start is stored
            return
        info = thinking_info(thinking[0], thinking[1], report)
        self.broadcast("thinking", info.model_dump_json())

    def bot_moved(self, color: Color, move: str, seconds: float, evaluation: Evaluation) -> None:
        """The bot of ``color`` answered ``move``: it is played, unless the bot's clock ran out
        (it loses on time) or the move is illegal (it forfeits)."""
        now = time.monotonic()
        late = self._out_of_time(color)
        after, happened = moves.answer(
            self._round(), move, now, seconds, late, _unreachable, _refused, longest=None
        )
        if after.is_over and len(after.moves) == len(self.game.moves):
            self._turns.cancel()  # lost on time or by an illegal move
            self._step((after, happened))
            return
        after.write(self.game)
        if self.clock is not None and after.clocks is not None:
            self.clock.set(after.clocks)
        self.evals.append(evaluation)
        self.step = False
        self.after_move()

    def bot_failed(
        self, color: Color, termination: Termination | None, detail: str | Detail
    ) -> None:
        """The bot of ``color`` could not answer
        (:meth:`~adjacency.web.turns.TurnHost.bot_failed`): it forfeits with ``termination``,
        or with ``None`` the game ends without a result."""
        if self.game.is_over:
            return
        words = Detail(detail) if isinstance(detail, str) else detail
        now, state = time.monotonic(), self._round()
        if termination is None:
            self._step(finish.abandon(state, words, now))
        else:
            self._step(finish.forfeit(state, color, termination, words, now))

    # -------------------------------------------------------------- actions

    def viewer(self, caller: Caller) -> Viewer:
        """What ``caller`` may do here (claiming a seat whose token it presents)."""
        with self.lock:
            if self.seats.claim(caller):
                self._saver(self)  # a seat was claimed: keep it across restarts
            return Viewer(
                seats=[side(c) for c in self.seats.seats_of(caller)],
                owner=self.seats.open or caller.client == self.seats.owner,
                invite=self.seats.invite,
            )

    def claim(self, caller: Caller) -> Viewer:
        """Claim the seat whose token ``caller`` presents; raise :class:`Forbidden` (403)
        if the token opens no seat of this game (whatever seats the caller holds)."""
        with self.lock:
            if self.seats.open or self.seats.token_seat(caller.token) is None:
                raise Forbidden(
                    "this seat link is not valid for this game (no seat has that token)",
                    code="bad_seat_link",
                )
            return self.viewer(caller)

    def play(self, square: str, caller: Caller) -> GameState:
        """Play the person's move; raise ``NotNow``, ``Forbidden`` or ``IllegalMoveError``."""
        with self.lock:
            game = self.game
            if game.is_over:
                raise NotNow(
                    f"the game is over ({self._message()}); start a new game", code="game_over"
                )
            turn = game.position.turn
            player = self.players[turn]
            if player.is_bot:
                doing = "is thinking" if self._turns.thinking else "is to move"
                raise NotNow(
                    f"it is {turn.upper()}'s turn and {player.name} (a bot) {doing}; "
                    "wait for its move",
                    code="not_your_turn",
                    params={"side": turn.upper(), "name": player.name},
                )
            seats = self.seats
            if not seats.holds(caller, turn) and seats.holds(Caller(caller.client), other(turn)):
                raise NotNow(
                    f"it is {turn.upper()}'s turn; wait for {player.name}'s move",
                    code="not_your_turn",
                    params={"side": turn.upper(), "name": player.name},
                )
            self.seats.require(caller, turn, "move")
            now = time.monotonic()
            late = self._out_of_time(turn)
            # An illegal move raises before anything changes.
            after, _ = moves.play(self._round(), square, now, now - self._turn_started, late)
            if after.is_over and len(after.moves) == len(game.moves):  # its flag fell first
                self._turns.cancel()
                self._step((after, ()))
                raise NotNow(
                    f"your time ran out before the move: {turn.upper()} loses on time",
                    code="time_ran_out",
                    params={"side": turn.upper()},
                )
            after.write(game)
            if self.clock is not None and after.clocks is not None:
                self.clock.set(after.clocks)
            self.offer = None  # a move answers any offer: it lapses
            self.evals.append(_NO_EVAL)
            self.seats.claim(caller)  # the move was accepted: its token's seat is held now
            self.after_move()
            return self._state()

    def undo(self, caller: Caller) -> GameState:
        """Take back the last person's move and any bot replies after it."""
        with self.lock:
            if self.seats.invite:
                raise NotNow(
                    "between devices a takeback is an offer the other player answers: "
                    'POST /offers with {"kind": "takeback"}',
                    code="no_takebacks",
                )
            self.seats.require_member(caller, "take back moves")
            if self.game.termination == Termination.TIME_FORFEIT:
                raise NotNow("the game was lost on time; a takeback cannot give the time back")
            if self.game.termination == Termination.RESIGNATION:
                raise NotNow("the game was resigned; a resignation is final")
            target = self._undo_target()
            if target is None:
                if self.mode == "bot-bot":
                    raise NotNow("undo is for games with a person; this is bot vs bot")
                raise NotNow("there is no move of yours to take back", code="nothing_to_undo")
            self._rewind(target)
            self.changed()
            return self._state()

    # --------------------------------------------------------------- offers

    def offer_side(self, caller: Caller) -> Color:
        """The one seat ``caller`` plays in this game between devices; raise ``NotNow``
        for a game on one device (no offers there: the actions are direct) and
        ``Forbidden`` for a watcher (call with the lock held)."""
        if not self.seats.invite:
            raise NotNow(
                "offers are for games between devices; on one device ask directly "
                "(POST /rematch, /undo)",
                code="no_offers",
            )
        held = self.seats.seats_of(caller)
        if not held:
            raise Forbidden("only the game's players may make or answer offers")
        if len(held) > 1:
            raise NotNow("this browser holds both seats: there is nobody to make an offer to")
        return held[0]

    def _takeback_target(self, color: Color) -> int:
        """How many moves remain after taking back ``color``'s last move (and the reply
        after it); raise ``NotNow`` if there is none to take back."""
        game = self.game
        if game.is_over:
            raise NotNow("a takeback is for a game being played; this one is over")
        for i in range(len(game.moves) - 1, -1, -1):
            if game.positions[i].turn == color:
                return i
        raise NotNow("there is no move of yours to take back", code="nothing_to_undo")

    def make_offer(self, kind: OfferKind, caller: Caller) -> tuple[Offer | None, Color]:
        """Record ``caller``'s offer for the other player and announce it. Returns the
        other side's matching offer (``None`` if there is none): two players who offer
        the same thing agree, and the caller accepts it instead.

        Rules (409 otherwise): a game between devices; a rematch once the game is over
        and both players have joined; a takeback while it is played, of a move of yours.
        """
        with self.lock:
            color = self.offer_side(caller)
            if kind == "rematch":
                if not self.game.is_over:
                    raise NotNow("a rematch is for a finished game; this one is still being played")
                if not all(self.seats.holders.get(c) for c in COLORS):
                    raise NotNow(
                        "both players must have joined before a rematch: the friend has not "
                        "opened their seat link yet"
                    )
                if self.rematch is not None:
                    raise NotNow("this game's rematch was made already", code="rematch_made")
            else:
                self._takeback_target(color)
            pending = self.offer
            if pending is not None and pending.kind == kind and pending.by != color:
                return pending, color
            if pending is None or pending.kind != kind or pending.by != color:
                self.offer = Offer(kind=kind, by=side(color))
                self.changed()
            return None, color

    def answer_offer(self, accept: bool, caller: Caller) -> Offer:
        """Take the waiting offer off the table: declined (or withdrawn by its maker)
        when ``accept`` is false; when true, only the other player may accept, and the
        caller carries it out (a takeback here; a rematch by the manager). Raise
        ``NotNow`` when no offer waits."""
        with self.lock:
            color = self.offer_side(caller)
            offer = self.offer
            if offer is None:
                raise NotNow("there is no offer to answer (it was withdrawn or lapsed)")
            if accept and offer.by == color:
                raise NotNow("an offer is accepted by the other player, not by its maker")
            if accept and offer.kind == "takeback":
                self._take_back(offer.by)  # raises, the offer kept, if nothing is left
            self.offer = None
            self.changed()
            return offer

    def _take_back(self, color: Color) -> None:
        """Take back ``color``'s last move and the reply after it (lock held)."""
        self._rewind(self._takeback_target(color))

    def _rewind(self, target: int) -> None:
        """Undo moves until ``target`` are left, with their evaluations; the bots' turn is
        cancelled and the clock of the side now to move restarts (lock held)."""
        self._turns.cancel()
        now = time.monotonic()
        after, _ = takeback(self._round(), target, now)
        after.write(self.game)
        if self.clock is not None and after.clocks is not None:
            self.clock.set(after.clocks)
        del self.evals[target:]
        self._turn_started = now
        self._run_clock()

    def made_rematch(self, rematch_id: str) -> None:
        """Note the rematch made of this game (lock held) and announce it to its pages."""
        self.rematch = rematch_id
        self.offer = None
        self.changed()

    def _own_side(self, caller: Caller, side: Color | None, action: str) -> Color:
        """The person's side that ``caller`` acts for in :meth:`resign` and :meth:`abort`:
        ``side`` if given, else the one person's seat it holds (holding both, the side to
        move); raise ``NotNow`` if the game is over, ``Forbidden`` for a seat not held."""
        game = self.game
        if game.is_over:
            raise NotNow(f"the game is over ({self._message()}); there is nothing to {action}")
        people: list[Color] = [c for c in COLORS if not self.players[c].is_bot]
        if not people:
            raise NotNow(f"only a person may {action}; this is bot vs bot")
        chosen = side
        if chosen is None:
            held = [c for c in people if self.seats.holds(caller, c)]
            chosen = game.position.turn if len(held) == 2 else (held or people)[0]
        if self.players[chosen].is_bot:
            raise NotNow(f"{chosen.upper()} is a bot; only a person may {action}")
        self.seats.require(caller, chosen, action)
        return chosen

    def resign(self, side: Color | None, caller: Caller) -> GameState:
        """``caller`` gives the game up for its seat (``side``, see :meth:`_own_side`):
        the other side wins by resignation, recorded and final."""
        with self.lock:
            color = self._own_side(caller, side, "resign")
            self._turns.cancel()
            detail = ended("resigned", player=self._named(color))
            self._step(finish.resign(self._round(), color, detail, time.monotonic()))
            return self._state()

    def abort(self, side: Color | None, caller: Caller) -> GameState:
        """``caller`` stops the game before its side's first move: no result (abandoned),
        nothing counted. Raise ``NotNow`` once that side has moved."""
        with self.lock:
            color = self._own_side(caller, side, "abort")
            game = self.game
            if game.has_moved(color):
                raise NotNow(
                    f"{color.upper()} has moved already: a game can be aborted only before "
                    "the side's first move; resign instead"
                )
            self._turns.cancel()
            detail = ended("aborted", player=self._named(color))
            self._step(finish.abort(self._round(), color, detail, time.monotonic()))
            return self._state()

    def move_now(self, caller: Caller) -> GameState:
        """Tell the thinking bot to answer with its best move so far."""
        with self.lock:
            self.seats.require_member(caller, "hurry a bot")
            if not self._turns.move_now():
                raise NotNow("no bot is thinking now")
            return self._state()

    def control(self, action: str | None, delay: float | None, caller: Caller) -> GameState:
        """Bot-vs-bot playback: pause, resume, step one move, or set the delay between moves."""
        with self.lock:
            self.seats.require_member(caller, "control the playback")
            if self.mode != "bot-bot":
                raise NotNow("play, pause and step are for bot vs bot games")
            if delay is not None:
                self.delay = float(delay)
            if action == "pause":
                self.paused = True
                self.step = False
                self._turns.cancel()
            elif action == "resume":
                self.paused = False
            elif action == "step":
                if self.game.is_over:
                    raise NotNow("the game is over; there is no move to step")
                self.paused = True
                self.step = True
                self._last_move_at = 0.0
            self._run_clock()
            self.changed()
            self._turns.ensure()
            return self._state()

    def hint(self, bots: HintBots, caller: Caller) -> Hint:
        """The strongest available bot's move for the person to move (blocks while it thinks).

        The bot comes from ``bots``, the server's pool of reusable hint bots.
        """
        with self.lock:
            if not self._human_to_move():
                raise NotNow(
                    "a hint is for a person to move; it is not your turn", code="hint_not_your_turn"
                )
            if self.seats.invite:
                raise NotNow("hints are off in games between devices", code="no_hints")
            self.seats.require(caller, self.game.position.turn, "ask for a hint")
            position = self.game.position
            level = strongest_level()
            time_limit = min(self.time, level.time_cap or self.time, HINT_TIME)
        return bots.suggest(level.spec, position, time_limit)

    def close(self, reason: str | None = None, code: str = "closed") -> None:
        """Stop any search and release the bots (server shutdown or deletion).

        With ``reason``, the listeners get a last ``closed`` event saying it, with ``code``
        for pages to word it in their language (their event streams end with it). A bot
        still unwinding its search is closed by the worker when it returns.
        """
        with self.lock:
            if reason is not None and not self.closed:
                self.broadcast(CLOSED, json.dumps({"reason": reason, "code": code}))
            self.closed = True
            if self._flag_timer is not None:
                self._flag_timer.cancel()
            self._turns.close()


_NO_EVAL: tuple[float | None, int | None] = (None, None)

FINAL = (Termination.TIME_FORFEIT, Termination.RESIGNATION)
"""Ends no takeback undoes."""


def _refused(exc: IllegalMoveError | InvalidSquareError) -> Detail:
    """A bot's answer refused by the position: the refusal's own code (the browser game
    does not name the bot that answered)."""
    return refused(exc)


def _unreachable(reply: object) -> Detail:
    """A bot's answer that is not text (the browser game's bots answer text only)."""
    return Detail(f"not a square: {reply!r}")
