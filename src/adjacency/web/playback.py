"""What a game's page asks of its bots: hurry the one thinking, pause, resume or step a
bot-vs-bot game and set its pace, and a hint for the person to move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..serving.errors import NotNow
from .hints import HINT_TIME, HintBots
from .levels import strongest_level
from .models import GameState, Hint
from .seats import Caller

if TYPE_CHECKING:
    from .session import GameSession


class Playback:
    """The bot controls of one game, held by its session as ``playback``; every method takes the
    session's lock."""

    def __init__(self, session: GameSession) -> None:
        self._session = session

    def move_now(self, caller: Caller) -> GameState:
        """Tell the thinking bot to answer with its best move so far."""
        session = self._session
        with session.lock:
            session.seats.require_member(caller, "hurry a bot")
            if not session.turns.move_now():
                raise NotNow("no bot is thinking now")
            return session.state()

    def control(self, action: str | None, delay: float | None, caller: Caller) -> GameState:
        """Bot-vs-bot playback: pause, resume, step one move, or set the delay between moves."""
        session = self._session
        with session.lock:
            session.seats.require_member(caller, "control the playback")
            if session.mode != "bot-bot":
                raise NotNow("play, pause and step are for bot vs bot games")
            if delay is not None:
                session.delay = float(delay)
            if action == "pause":
                session.paused = True
                session.step = False
                session.turns.cancel()
            elif action == "resume":
                session.paused = False
            elif action == "step":
                if session.game.is_over:
                    raise NotNow("the game is over; there is no move to step")
                session.paused = True
                session.step = True
                session.last_move_at = 0.0
            session.clock_rules.run()
            session.changed()
            session.turns.ensure()
            return session.state()

    def hint(self, bots: HintBots, caller: Caller) -> Hint:
        """The strongest available bot's move for the person to move (blocks while it thinks).

        The bot comes from ``bots``, the server's pool of reusable hint bots.
        """
        session = self._session
        with session.lock:
            if not session.human_to_move():
                raise NotNow(
                    "a hint is for a person to move; it is not your turn", code="hint_not_your_turn"
                )
            if session.seats.invite:
                raise NotNow("hints are off in games between devices", code="no_hints")
            session.seats.require(caller, session.game.position.turn, "ask for a hint")
            position = session.game.position
            level = strongest_level()
            time_limit = min(session.time, level.time_cap or session.time, HINT_TIME)
        return bots.suggest(level.spec, position, time_limit)
