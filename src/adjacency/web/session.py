"""One live game in the server: its record, its players, and the one way it changes.

A :class:`GameSession` holds the game record and the web layer's data next to
it (players, time per move, evaluations, playback settings), tells its listeners
(event streams) about every change and saves it through ``saver``. Every change of
the game in play is a transition of the round room (:mod:`adjacency.round`), taken by
the one apply path, :meth:`GameSession.apply`, which announces the transition's
happenings (:mod:`.happenings`) before the new state. The session is the host of its bot turns
(:class:`~adjacency.web.turns.BotTurns`, :class:`~adjacency.web.turns.TurnHost`). The
moves (:mod:`.playing`: the person's, checked, and the bots'), the clock's rules
(:mod:`.clock_rules`: when it runs, the flag's wait), the takebacks (:mod:`.takebacks`),
the offers (:mod:`.offers`), a person's resign and abort (:mod:`.finishing`) and what a
page asks of the bots (:mod:`.playback`: bot-vs-bot control, hint) are functions over
values that check a command and return the round's transition or the plain result; the
person's commands (:mod:`.commands`) take the session's lock and hand it what they
return; the session alone applies, saves and announces.

The session's interface: its fields are read, never written, from outside (a test walks
the web package's sources for such a write). A change goes through a named method, each
of which saves and announces what it did: :meth:`GameSession.apply` (a transition of the
round, whose happenings are broadcast as events), :meth:`~GameSession.offer_made`,
:meth:`~GameSession.offer_answered`, :meth:`~GameSession.set_playback`,
:meth:`~GameSession.made_rematch`, :meth:`~GameSession.hurry_bot` and
:meth:`~GameSession.save`; the transitions a command hands to ``apply`` are made now by
:meth:`~GameSession.move_step`, :meth:`~GameSession.takeback_step` and
:meth:`~GameSession.end_step` (the session's own moments and the clock's lateness rule
stay inside).

Concurrency contract: every public method may be called from any thread; a
re-entrant lock (``lock``) guards the game. Bots think in one worker thread per
session (started when a bot is to move, ending when none is), never on the
event loop. A *generation* counter invalidates a search in flight: undo, pause
and abandonment bump it and stop the bot, and the worker drops the stale
answer, so the record only ever receives moves computed for its current
position.

A session is *attended* while a page listens to its events or an API call
touched it within ``grace`` seconds (its :class:`~.audience.Audience`); an
unattended game's bot is stopped, and its clock with it (the game stays stored
and resumes when a page opens it again). The clock and its flag timer are a
:class:`~.game_clock.GameClock`. Timers (a flag falling, the abandonment check)
are entries of the shared scheduler (:mod:`.timers`), not a thread each; with
the server's :class:`~adjacency.web.limits.BotSlots` a bot runs only in a free slot.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable

from ..bots import Thinking
from ..core import Color
from ..core.details import Detail
from ..core.game import Game, Termination
from ..round import moves
from ..round.clock import Clock
from ..round.player_kinds import Kinds
from ..round.state import Ended, Moved, Round, Step, TookBack
from ..round.takeback import takeback
from . import clock_rules, happenings, playing, takebacks
from .audience import Audience, Listener
from .game_clock import GameClock
from .limits import BotSlots
from .models import GameState, Offer
from .playback import Playback
from .players import Player
from .seats import Seats
from .timers import SCHEDULER
from .turns import BotTurn, BotTurns
from .view import Evaluation, describe, game_state, thinking_info

log = logging.getLogger(__name__)

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
        version: int = 0,
        offer: Offer | None = None,
        rematch: str | None = None,
    ) -> None:
        self.id = game_id
        self.clock = clock
        """The game's clocks, or ``None`` (then bots think ``time`` seconds a move)."""
        self.seats = Seats() if seats is None else seats
        """Who may act (owner, seat holders, token digests); see :mod:`.seats`."""
        self.game = game
        self.players = players
        self.time = time_per_move
        self.created = time.time() if created is None else created
        self.evals: list[tuple[float | None, int | None]] = (
            list(evals) if evals else [playing.NO_EVAL] * len(game.moves)
        )
        self._paused = paused
        self._delay = delay
        self._version = version
        self._saver = saver
        self.lock = threading.RLock()
        """Guards everything here; hold it to read the game consistently."""
        self.closed = False
        """Set by :meth:`close`: no bot plays any more."""
        self.audience = Audience(grace, self._check_abandoned, SCHEDULER, self.now)
        """The game's listeners and attendance (:mod:`.audience`)."""
        self._step = False
        """Bot vs bot while paused: play one move, then pause again."""
        self._last_move_at = 0.0
        """When the last move was played (monotonic); bot vs bot waits ``delay`` after it."""
        self._turn_started = time.monotonic()
        self.timing = GameClock(clock, self._check_flag, SCHEDULER, self.now)
        """The clock's running side and its flag timer (:mod:`.game_clock`)."""
        self.turns = BotTurns(self, slots)
        """The bot turns; with ``slots`` (the server's cap) a bot runs only in a slot."""
        self._offer = offer
        self._rematch = rematch
        self._run_clock()

    # ------------------------------------------------------------------ state

    @property
    def version(self) -> int:
        """The change counter: each announced change has the next one; a restored game
        goes on from its stored one, so pages never mistake new for old."""
        return self._version

    @property
    def offer(self) -> Offer | None:
        """A rematch or takeback offer waiting for the other player (games between devices)."""
        return self._offer

    @property
    def rematch(self) -> str | None:
        """The id of this game's rematch once one was made: both players' pages follow it."""
        return self._rematch

    @property
    def paused(self) -> bool:
        """Bot vs bot: whether the playback is paused."""
        return self._paused

    @property
    def delay(self) -> float:
        """Bot vs bot: the seconds between moves."""
        return self._delay

    @property
    def playback(self) -> Playback:
        """Bot vs bot: the playback now (paused, a step to play, the delay)."""
        return Playback(self._paused, self._step, self._delay)

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
        if self.turns.thinking is not None:
            color, started, report, _ = self.turns.thinking
            thinking = thinking_info(color, started, report)
        return game_state(
            game_id=self.id,
            version=self._version,
            game=self.game,
            players=self.players,
            mode=self.mode,
            time_per_move=self.time,
            evals=self.evals,
            thinking=thinking,
            paused=self._paused,
            delay=self._delay,
            can_undo=self.undo_target() is not None,
            clock=clock_rules.info(self.clock, self.round_now(), self.now()),
            waiting=self.turns.waiting,
        ).model_copy(update={"offer": self._offer, "rematch": self._rematch})

    def named(self, color: Color) -> str:
        """``color``'s player as this game's details name it: ``X (Ada)``."""
        return f"{color.upper()} ({self.players[color].name})"

    # ------------------------------------------------------- the round's steps

    def now(self) -> float:
        """The moment the game's clock reads (``time.monotonic``)."""
        return time.monotonic()

    def round_now(self) -> Round:
        """The game in play as the round room's value (call with the lock held)."""
        return Round.of(self.game, self.timing.value())

    def move_step(self, square: str, color: Color) -> Step:
        """The transition of ``color``'s person playing ``square`` now (lock held): the
        move, timed from the turn's start, or the flag's fall when that side's time ran
        out first. Raises ``IllegalMoveError`` for a square that is no move; changes
        nothing (hand the step to :meth:`apply`)."""
        now = self.now()
        late = clock_rules.out_of_time(self.named(color))
        return moves.play(self.round_now(), square, now, now - self._turn_started, late)

    def takeback_step(self, target: int) -> Step:
        """The transition taking the game back to its first ``target`` moves now (lock
        held); changes nothing (hand the step to :meth:`apply`)."""
        return takeback(self.round_now(), target, self.now())

    def end_step(self, end: Callable[[Round, Color, str, float], Step], color: Color) -> Step:
        """The transition ``end`` (:func:`.finishing.resign` or :func:`.finishing.abort`)
        makes now for ``color``, its player named as this game's details name them (lock
        held); changes nothing (hand the step to :meth:`apply`)."""
        return end(self.round_now(), color, self.named(color), self.now())

    def apply(self, step: Step, evaluation: Evaluation = playing.NO_EVAL) -> None:
        """Take a transition of the round (lock held), the one way the game changes: an
        end or moves taken back cancel the bots' turn; the record and the clock become
        the new round; a move keeps its ``evaluation``, lapses any offer and times the
        next turn; moves taken back drop theirs; then the clock runs by this game's
        rules, the change is saved and announced with its happenings
        (:mod:`.happenings`), and a bot to move starts thinking."""
        after, happened = step
        if any(isinstance(h, Ended | TookBack) for h in happened):
            self.turns.cancel()
        after.write(self.game)
        self.timing.set(after.clocks)
        now = self.now()
        for happening in happened:
            if isinstance(happening, Moved):
                self.evals.append(evaluation)
                self._offer = None  # a move answers any offer: it lapses
                self._step = False  # a bot-vs-bot step is one move
                self._turn_started = self._last_move_at = now
            elif isinstance(happening, TookBack):
                del self.evals[len(after.moves) :]
                self._turn_started = now
        self._run_clock()
        self._changed(events=happenings.events(happened, after, self._version + 1))
        self.turns.ensure()

    def _run_clock(self) -> None:
        """Start or stop the clock for the game's state now (:func:`.clock_rules.running_side`)
        and arm the flag timer (lock held)."""
        thinking = self.turns.thinking
        turn = clock_rules.running_side(
            self.game, self.closed, self.kinds, None if thinking is None else thinking[0]
        )
        self.timing.run(turn, len(self.game.moves))

    def _check_flag(self, plies: int) -> None:
        """The flag timer: if the side to move is still out of time, it loses on time."""
        with self.lock:
            running = None if self.clock is None else self.clock.running
            if running is None or self.game.is_over or len(self.game.moves) != plies:
                return
            late = clock_rules.out_of_time(self.named(running))
            step = moves.flag(self.round_now(), self.now(), late)
            if step[1]:
                self.apply(step)
            else:
                self._run_clock()  # woke early (paused and resumed meanwhile): re-arm

    def message(self) -> str:
        """The game's one-line account for its page (:func:`~.view.describe`)."""
        return describe(
            self.game,
            self.players,
            self.mode,
            self._paused,
            self.turns.thinking is not None,
            self.turns.waiting,
        )

    def bot_is_thinking(self) -> bool:
        """Whether a bot of this game is thinking now (lock held)."""
        return self.turns.thinking is not None

    def human_to_move(self) -> bool:
        """Whether a person is to move in a game still being played."""
        return not self.game.is_over and self.kinds[self.game.position.turn].is_person

    @property
    def kinds(self) -> Kinds:
        """Who plays each side, as the round room's kinds of player
        (:mod:`adjacency.round.player_kinds`, whose rules the game's parts take)."""
        return {c: p.seat for c, p in self.players.items()}

    # ------------------------------------------------------------ listeners

    def subscribe(self, listener: Listener) -> None:
        """Send the game's events to ``listener`` from now on; a bot to move starts thinking."""
        with self.lock:
            self.audience.add(listener)
            self.turns.ensure()

    def unsubscribe(self, listener: Listener) -> None:
        """Stop sending events to ``listener``. When no listener is left, a bot still thinking is
        stopped unless the game is attended again within ``grace`` seconds."""
        with self.lock:
            self.audience.remove(listener)

    def touch(self) -> None:
        """Note that someone uses the game now (an API call); restart a stopped bot."""
        with self.lock:
            self.audience.touch()
            self.turns.ensure()

    def _check_abandoned(self) -> None:
        with self.lock:
            if not self.audience.attended() and self.turns.thinking is not None:
                log.info("game %s abandoned by its page: stopping its bot", self.id)
                self.turns.cancel()
                self._run_clock()  # a stopped bot's clock stops with it
                self._changed()

    def _changed(self, save: bool = True, events: list[tuple[str, str]] | None = None) -> None:
        """Announce a change (call with the lock held): new version, saved unless told not
        to, its ``events`` (a transition's happenings) then a ``state`` event to the
        listeners, and a waiting bot worker re-checks."""
        self._version += 1
        if self._offer is not None and self._offer.kind == "takeback" and self.game.is_over:
            self._offer = None  # resigned, aborted or lost on time: nothing to take back
        if save:
            self.save()
        for event, data in events or ():
            self.audience.send(event, data)
        self.audience.send("state", self._state().model_dump_json())
        self.turns.wake()

    def save(self) -> None:
        """Store the game as it is now through its ``saver`` (lock held), unannounced: for
        a change of its seats, which no page shows."""
        self._saver(self)

    # ------------------------------------- the bot turns' host (lock held)

    def keeps_bots(self) -> bool:
        """Whether the game may need its bots again: not closed, not over, and attended."""
        return not (self.closed or self.game.is_over or not self.audience.attended())

    def bot_turn(self) -> BotTurn | None:
        """The bot turn to play now (see :class:`~adjacency.web.turns.TurnHost` and
        :func:`.playing.bot_turn`)."""
        if not self.keeps_bots():
            return None
        player = self.players[self.game.position.turn]
        since = self.now() - self._last_move_at
        return playing.bot_turn(
            self.game,
            player,
            self.mode == "bot-bot",
            self._paused,
            self._step,
            since,
            self._delay,
            self.time,
            self.clock,
        )

    def bot_thinking(self, report: Thinking | None) -> None:
        """A bot started thinking (``None``: its clock starts and is saved) or published
        ``report`` (sent to the listeners as a ``thinking`` event)."""
        thinking = self.turns.thinking
        if report is None or thinking is None:
            self._run_clock()  # a bot's clock runs while it thinks
            self._changed(save=self.clock is not None)  # the clock's start is stored
            return
        info = thinking_info(thinking[0], thinking[1], report)
        self.audience.send("thinking", info.model_dump_json())

    def bot_moved(self, color: Color, move: str, seconds: float, evaluation: Evaluation) -> None:
        """The bot of ``color`` answered ``move``: it is played, unless the bot's clock ran
        out (it loses on time) or the move is illegal (it forfeits)."""
        late = clock_rules.out_of_time(self.named(color))
        self.apply(
            playing.bot_answer(self.round_now(), move, self.now(), seconds, late), evaluation
        )

    def bot_failed(
        self, color: Color, termination: Termination | None, detail: str | Detail
    ) -> None:
        """The bot of ``color`` could not answer
        (:meth:`~adjacency.web.turns.TurnHost.bot_failed`): it forfeits with
        ``termination``, or with ``None`` the game ends without a result."""
        if self.game.is_over:
            return
        self.apply(playing.bot_failure(self.round_now(), color, termination, detail, self.now()))

    # ---------------------------------------------- takebacks, offers, ends

    def undo_target(self) -> int | None:
        """How many moves remain after an undo, or ``None`` if there is nothing to take
        back (:func:`.takebacks.undo_target`; lock held)."""
        return takebacks.undo_target(self.game, self.round_now(), self.kinds, self.mode)

    def offer_made(self, offer: Offer) -> None:
        """Put ``offer`` on the table for the other player, in place of any before it (lock
        held), and announce it."""
        self._offer = offer
        self._changed()

    def offer_answered(self, step: Step | None = None) -> None:
        """Take the waiting offer off the table (lock held): declined or withdrawn with no
        ``step``, announced; accepted with the transition that carries it out (a
        takeback), applied (:meth:`apply`)."""
        self._offer = None
        if step is None:
            self._changed()
        else:
            self.apply(step)

    def made_rematch(self, rematch_id: str) -> None:
        """Note the rematch made of this game (lock held) and announce it to its pages."""
        self._rematch = rematch_id
        self._offer = None
        self._changed()

    # ------------------------------------------------------- bot-vs-bot playback

    def set_playback(self, after: Playback, stop: bool = False) -> None:
        """Take the bot-vs-bot playback ``after`` (:func:`.playback.controlled`; lock held):
        with ``stop`` (a pause) the thinking bot is stopped; a restart forgets the last
        move's time, so a step plays at once. The clock runs or stops by the new playback,
        the change is saved and announced, and a bot to move starts thinking."""
        self._paused, self._step, self._delay = after.paused, after.step, after.delay
        if stop:
            self.turns.cancel()
        if after.restart:
            self._last_move_at = 0.0
        self._run_clock()
        self._changed()
        self.turns.ensure()

    def hurry_bot(self) -> bool:
        """Tell the thinking bot to answer with its best move so far (lock held); whether
        one was thinking."""
        return self.turns.move_now()

    # ---------------------------------------------------------------- the end

    def close(self, reason: str | None = None, code: str = "closed") -> None:
        """Stop any search and release the bots (server shutdown or deletion).

        With ``reason``, the listeners get a last ``closed`` event saying it, with ``code``
        for pages to word it in their language (their event streams end with it). A bot
        still unwinding its search is closed by the worker when it returns.
        """
        with self.lock:
            if reason is not None and not self.closed:
                self.audience.send(CLOSED, json.dumps({"reason": reason, "code": code}))
            self.closed = True
            self.timing.disarm()
            self.turns.close()
