"""What a game's page asks of its bots, as functions over values: the bot-vs-bot
playback a control leaves (pause, resume or step, and the pace), and what a hint asks of
the strongest bot. The session (:class:`~.session.GameSession`) takes its lock, hurries
or stops its bots and applies the result."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Position
from ..core.game import Game
from ..serving.errors import NotNow
from .hints import HINT_TIME
from .levels import strongest_level
from .seats import Caller, Seats


@dataclass(frozen=True)
class Playback:
    """A bot-vs-bot game's playback: paused, one move to step, the seconds between moves,
    and whether the last move's time is forgotten (a step plays at once)."""

    paused: bool
    step: bool
    delay: float
    restart: bool = False


def controlled(
    mode: str, game: Game, now: Playback, action: str | None, delay: float | None
) -> Playback:
    """The playback after a control: ``action`` pause, resume or step (or none), and a
    new ``delay``; raise ``NotNow`` unless the game is bot vs bot, or for a step in a
    finished game."""
    if mode != "bot-bot":
        raise NotNow("play, pause and step are for bot vs bot games")
    after = Playback(now.paused, now.step, now.delay if delay is None else float(delay))
    if action == "pause":
        return Playback(True, False, after.delay)
    if action == "resume":
        return Playback(False, after.step, after.delay)
    if action == "step":
        if game.is_over:
            raise NotNow("the game is over; there is no move to step")
        return Playback(True, True, after.delay, restart=True)
    return after


@dataclass(frozen=True)
class HintRequest:
    """What a hint asks of the strongest bot: its spec, the position, its time."""

    spec: str
    position: Position
    time: float


def hint_request(
    game: Game, human_to_move: bool, seats: Seats, caller: Caller, time_per_move: float
) -> HintRequest:
    """The strongest available bot's search for the person to move; raise ``NotNow``
    when no person is to move or in a game between devices, ``Forbidden`` for a caller
    who does not hold the seat to move."""
    if not human_to_move:
        raise NotNow(
            "a hint is for a person to move; it is not your turn", code="hint_not_your_turn"
        )
    if seats.invite:
        raise NotNow("hints are off in games between devices", code="no_hints")
    seats.require(caller, game.position.turn, "ask for a hint")
    level = strongest_level()
    time = min(time_per_move, level.time_cap or time_per_move, HINT_TIME)
    return HintRequest(level.spec, game.position, time)
