"""The moves of one game: the person's (checked against the seats and the turn) and the
bots' (the turn worker's host, :class:`~adjacency.web.turns.TurnHost`). Every move, and
every end a bot brings (a late or illegal answer, a failure), is a transition of the round
room (:mod:`adjacency.round.moves`, :mod:`adjacency.round.finish`), taken by the session.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from ..bots import Limit, Thinking
from ..core import Color, IllegalMoveError, other
from ..core.details import Detail
from ..core.errors import AdjacencyError
from ..core.game import Termination
from ..round import finish, moves
from ..round.clock import move_budget
from ..serving.details import refused
from ..serving.errors import NotNow
from . import clock_rules
from .models import MAX_MOVE_TIME, GameState
from .seats import Caller
from .turns import BotTurn
from .view import Evaluation, thinking_info

if TYPE_CHECKING:
    from .session import GameSession

NO_EVAL: tuple[float | None, int | None] = (None, None)
"""The evaluation of a move no bot evaluated (a person's)."""


class Playing:
    """The moves of one game, held by its session as ``playing``; the bots' turns
    (:class:`~adjacency.web.turns.BotTurns`) talk to it as their host. Every method
    takes, or is called with, the session's lock."""

    def __init__(self, session: GameSession) -> None:
        self._session = session
        self.lock: threading.RLock = session.lock
        self.id = session.id

    def play(self, square: str, caller: Caller) -> GameState:
        """Play the person's move; raise ``NotNow``, ``Forbidden`` or ``IllegalMoveError``."""
        session = self._session
        with session.lock:
            game = session.game
            if game.is_over:
                raise NotNow(
                    f"the game is over ({session.message()}); start a new game", code="game_over"
                )
            turn = game.position.turn
            player = session.players[turn]
            if player.seat.server_plays:
                doing = "is thinking" if session.turns.thinking else "is to move"
                raise NotNow(
                    f"it is {turn.upper()}'s turn and {player.name} (a bot) {doing}; "
                    "wait for its move",
                    code="not_your_turn",
                    params={"side": turn.upper(), "name": player.name},
                )
            seats = session.seats
            if not seats.holds(caller, turn) and seats.holds(Caller(caller.client), other(turn)):
                raise NotNow(
                    f"it is {turn.upper()}'s turn; wait for {player.name}'s move",
                    code="not_your_turn",
                    params={"side": turn.upper(), "name": player.name},
                )
            session.seats.require(caller, turn, "move")
            now = session.now()
            late = clock_rules.out_of_time(session.named(turn))
            # An illegal move raises before anything changes.
            thought = now - session.turn_started
            after, _ = moves.play(session.round_now(), square, now, thought, late)
            if after.is_over and len(after.moves) == len(game.moves):  # its flag fell first
                session.turns.cancel()
                session.apply((after, ()))
                raise NotNow(
                    f"your time ran out before the move: {turn.upper()} loses on time",
                    code="time_ran_out",
                    params={"side": turn.upper()},
                )
            session.adopt(after)
            session.offer = None  # a move answers any offer: it lapses
            session.evals.append(NO_EVAL)
            session.seats.claim(caller)  # the move was accepted: its token's seat is held now
            session.after_move()
            return session._state()

    def keeps_bots(self) -> bool:
        """Whether the game may need its bots again: not closed, not over, and attended."""
        session = self._session
        return not (session.closed or session.game.is_over or not session.attended())

    def bot_turn(self) -> BotTurn | None:
        """The bot turn to play now (see :class:`~adjacency.web.turns.TurnHost`)."""
        session = self._session
        game = session.game
        if not self.keeps_bots():
            return None
        color = game.position.turn
        player = session.players[color]
        if not player.seat.server_plays or player.spec is None:
            return None
        bot_game = session.mode == "bot-bot"
        if bot_game and session.paused and not session.step:
            return None
        wait = session.last_move_at + session.delay - session.now() if bot_game else 0.0
        if session.step:
            wait = 0.0
        cap = min(session.time, player.time_cap or session.time)
        if session.clock is not None:
            cap = min(MAX_MOVE_TIME, player.time_cap or MAX_MOVE_TIME)
            left = session.clock.left(color)
            cap = move_budget(left, session.clock.increment, game.position.plies_left, cap)
        limit = Limit(time=cap)
        return BotTurn(color, player.spec, player.name, game.position, limit, wait)

    def bot_thinking(self, report: Thinking | None) -> None:
        """A bot started thinking (``None``: its clock starts and is saved) or published
        ``report`` (sent to the listeners as a ``thinking`` event)."""
        session = self._session
        thinking = session.turns.thinking
        if report is None or thinking is None:
            session.run_clock()  # a bot's clock runs while it thinks
            session.changed(save=session.clock is not None)  # the clock's start is stored
            return
        info = thinking_info(thinking[0], thinking[1], report)
        session.broadcast("thinking", info.model_dump_json())

    def bot_moved(self, color: Color, move: str, seconds: float, evaluation: Evaluation) -> None:
        """The bot of ``color`` answered ``move``: it is played, unless the bot's clock ran out
        (it loses on time) or the move is illegal (it forfeits)."""
        session = self._session
        now = session.now()
        late = clock_rules.out_of_time(session.named(color))
        after, happened = moves.answer(
            session.round_now(), move, now, seconds, late, _unreachable, _refused, longest=None
        )
        if after.is_over and len(after.moves) == len(session.game.moves):
            session.turns.cancel()  # lost on time or by an illegal move
            session.apply((after, happened))
            return
        session.adopt(after)
        session.evals.append(evaluation)
        session.step = False
        session.after_move()

    def bot_failed(
        self, color: Color, termination: Termination | None, detail: str | Detail
    ) -> None:
        """The bot of ``color`` could not answer
        (:meth:`~adjacency.web.turns.TurnHost.bot_failed`): it forfeits with ``termination``,
        or with ``None`` the game ends without a result."""
        session = self._session
        if session.game.is_over:
            return
        words = Detail(detail) if isinstance(detail, str) else detail
        now, state = session.now(), session.round_now()
        if termination is None:
            session.apply(finish.abandon(state, words, now))
        else:
            session.apply(finish.forfeit(state, color, termination, words, now))


def _refused(exc: AdjacencyError) -> Detail:
    """A bot's answer refused by the position: the refusal's own code (the browser game
    does not name the bot that answered), or its words."""
    return refused(exc) if isinstance(exc, IllegalMoveError) else Detail(str(exc))


def _unreachable(reply: object) -> Detail:
    """A bot's answer that is not text (the browser game's bots answer text only)."""
    return Detail(f"not a square: {reply!r}")
