"""The check of a program driven through its window is a game: :func:`check_program`.

A program played through its own window starts only from the start of a game (its input
window and Play), so the check on fixed positions (:mod:`.check`) cannot ask it a middle
game. Instead it plays a short game with each colour on the 8x8 board against the house
bot (``greedy`` unless told), each in a fresh program (one game per program start, as in
rated games), and is accepted only when both end on the board. A refusal names the
colour, the move (its number and the position's text) and the reason in the referee's
words (a loss on time, an illegal square, a crash with the team's file and line).
"""

from __future__ import annotations

from collections.abc import Callable

from ..bots import Bot, BotError, Limit, make_bot
from ..bots.referee import play_game
from ..core import Position
from ..core.game import Game, Termination
from .check import Verdict

CHECK_ROUNDS = 2
"""Rounds of each checked game where the program takes any number: two answers of the
program a game, so a check costs a few seconds of its clock (a program that offers a list
of rounds is checked with the fewest it offers: :attr:`~.fx_recipe.Recipe.fewest_rounds`)."""

HARD_GRACE = 1.0
"""Seconds past a move's budget and margin after which the referee interrupts it."""


def check_program(
    make: Callable[[], Bot],
    seconds: float,
    rounds: int = CHECK_ROUNDS,
    house: str = "greedy",
) -> Verdict:
    """Play ``rounds`` rounds on 8x8 with each colour against ``house``, ``seconds`` a
    move, a fresh bot from ``make`` each game (closed after it): accepted when both games
    end on the board."""
    slowest = 0.0
    for colour in ("x", "o"):
        try:
            program = make()
        except BotError as exc:
            return Verdict(False, f"the program could not start: {exc}")
        opponent = make_bot(house, 1)
        x_bot, o_bot = (program, opponent) if colour == "x" else (opponent, program)
        names = ("program", house) if colour == "x" else (house, "program")
        game = Game(Position.start(8, 8, rounds), *names)
        try:
            play_game(x_bot, o_bot, game, Limit(time=seconds), hard_grace=HARD_GRACE)
        finally:
            program.close()
            opponent.close()
        side = colour.upper()
        if game.termination is not Termination.NORMAL:
            number = len(game.moves) + 1
            where = game.position.fen()
            return Verdict(
                False,
                f"as {side}, at move {number} ({where}): {game.termination.value}: "
                f"{game.termination_detail}",
            )
        own = [
            m.seconds or 0.0 for i, m in enumerate(game.moves) if (i % 2 == 0) == (colour == "x")
        ]
        slowest = max([slowest, *own])
    return Verdict(
        True,
        f"played {rounds} rounds with each colour against {house} to the end; "
        f"the longest answer took {slowest:.2f} s",
    )
