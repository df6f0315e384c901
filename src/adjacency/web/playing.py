"""The moves of one game, as functions over values: the person's (checked against the
seats and the turn) and the bots' (what a bot may play now, and the round's transition
of its answer or its failure). Every move, and every end a bot brings (a late or illegal
answer, a failure), is a transition of the round room (:mod:`adjacency.round.moves`,
:mod:`adjacency.round.finish`); the session (:class:`~.session.GameSession`, the turn
worker's host, :class:`~adjacency.web.turns.TurnHost`) takes its lock and applies it.
"""

from __future__ import annotations

from ..bots import Limit
from ..core import Color, IllegalMoveError, other
from ..core.details import Detail
from ..core.errors import AdjacencyError
from ..core.game import Game, Termination
from ..round import finish, moves
from ..round.clock import Clock, move_budget
from ..round.state import Round, Step
from ..serving.details import refused
from ..serving.errors import NotNow
from .models import MAX_MOVE_TIME
from .players import Player
from .seats import Caller, Seats
from .turns import BotTurn

NO_EVAL: tuple[float | None, int | None] = (None, None)
"""The evaluation of a move no bot evaluated (a person's)."""


def mover(
    game: Game,
    players: dict[Color, Player],
    seats: Seats,
    caller: Caller,
    bot_thinking: bool,
    message: str,
) -> Color:
    """The side ``caller`` moves for now; raise ``NotNow`` when the game is over
    (``message``: its account) or a bot or the other person is to move, ``Forbidden``
    for a caller who does not hold the seat."""
    if game.is_over:
        raise NotNow(f"the game is over ({message}); start a new game", code="game_over")
    turn = game.position.turn
    player = players[turn]
    if player.seat.server_plays:
        doing = "is thinking" if bot_thinking else "is to move"
        raise NotNow(
            f"it is {turn.upper()}'s turn and {player.name} (a bot) {doing}; wait for its move",
            code="not_your_turn",
            params={"side": turn.upper(), "name": player.name},
        )
    if not seats.holds(caller, turn) and seats.holds(Caller(caller.client), other(turn)):
        raise NotNow(
            f"it is {turn.upper()}'s turn; wait for {player.name}'s move",
            code="not_your_turn",
            params={"side": turn.upper(), "name": player.name},
        )
    seats.require(caller, turn, "move")
    return turn


def time_ran_out(turn: Color) -> NotNow:
    """The refusal of a person's move that came after their flag fell."""
    return NotNow(
        f"your time ran out before the move: {turn.upper()} loses on time",
        code="time_ran_out",
        params={"side": turn.upper()},
    )


def bot_turn(
    game: Game,
    player: Player,
    bot_game: bool,
    paused: bool,
    step: bool,
    since_last_move: float,
    delay: float,
    time_per_move: float,
    clock: Clock | None,
) -> BotTurn | None:
    """The bot turn to play now for ``player``, the side to move, or ``None`` when no bot
    may play: a person's side, or a paused bot-vs-bot game not told to ``step``. A bot
    vs bot waits ``delay`` after the last move (``since_last_move`` seconds ago); its
    time is the game's per move, or its clock's budget."""
    color = game.position.turn
    if not player.seat.server_plays or player.spec is None:
        return None
    if bot_game and paused and not step:
        return None
    wait = delay - since_last_move if bot_game else 0.0
    if step:
        wait = 0.0
    cap = min(time_per_move, player.time_cap or time_per_move)
    if clock is not None:
        cap = min(MAX_MOVE_TIME, player.time_cap or MAX_MOVE_TIME)
        cap = move_budget(clock.left(color), clock.increment, game.position.plies_left, cap)
    return BotTurn(color, player.spec, player.name, game.position, Limit(time=cap), wait)


def bot_answer(now_round: Round, move: str, now: float, seconds: float, late: Detail) -> Step:
    """The round's transition of a bot's answer ``move`` after ``seconds``: played, or a
    loss on time (``late``) or by an illegal answer."""
    return moves.answer(now_round, move, now, seconds, late, _unreachable, _refused, longest=None)


def bot_failure(
    now_round: Round,
    color: Color,
    termination: Termination | None,
    detail: str | Detail,
    now: float,
) -> Step:
    """The round's transition of ``color``'s bot that could not answer: it forfeits with
    ``termination``, or with ``None`` the game ends without a result."""
    words = Detail(detail) if isinstance(detail, str) else detail
    if termination is None:
        return finish.abandon(now_round, words, now)
    return finish.forfeit(now_round, color, termination, words, now)


def _refused(exc: AdjacencyError) -> Detail:
    """A bot's answer refused by the position: the refusal's own code (the browser game
    does not name the bot that answered), or its words."""
    return refused(exc) if isinstance(exc, IllegalMoveError) else Detail(str(exc))


def _unreachable(reply: object) -> Detail:
    """A bot's answer that is not text (the browser game's bots answer text only)."""
    return Detail(f"not a square: {reply!r}")
