"""The check of a program driven through its window is a game: :func:`check_driven_program`.

A program played through its own window starts only from the start of a game (its input
window and Play), so the check on fixed positions (:mod:`.check`) cannot ask it a middle
game. Instead it plays a short game with each colour on the 8x8 board against the house
bot (``greedy`` unless told), each in a fresh program (one game per program start, as in
rated games), and is accepted only when both end on the board. Its moves run on the
rated games' clock (:func:`~.check.ask_on_clock`): charged the CPU time of its whole
sandbox (the JVM, its threads and the display), stopped past it, its own wall time
capped. A refusal names the colour, the move (its number and the position's text) and
the reason in the referee's words (a loss on time with the CPU it used, an illegal
square, a crash with the team's file and line), with the picture of its board the driver
took at the failure, where it took one. A move made late only by the server's
load cannot be asked again mid-game: the refusal says so, and the team builds again.
"""

from __future__ import annotations

from collections.abc import Callable

from ..bots import Bot, BotError, Limit, make_bot
from ..core import Color, Position
from ..core.errors import IllegalMoveError
from .check import (
    ServerBusy,
    Starved,
    Verdict,
    ask_on_clock,
    last_output,
    longer,
    start_on_clock,
    times,
)
from .fx_run import DrivenBot
from .move_clock import MoveTime
from .team_words import team_words

CHECK_ROUNDS = 2
"""Rounds of each checked game where the program takes any number: two answers of the
program a game, so a check costs a few seconds of its clock (a program that offers a list
of rounds is checked with the fewest it offers: :attr:`~.fx_recipe.Recipe.fewest_rounds`)."""


def check_driven_program(
    make: Callable[[], Bot],
    seconds: float,
    rounds: int = CHECK_ROUNDS,
    house: str = "greedy",
    kind: str = "javafx",
) -> Verdict:
    """Play ``rounds`` rounds on 8x8 with each colour against ``house``, ``seconds`` of
    CPU a move, a fresh bot from ``make`` each game (closed after it; a program of
    ``kind``, its start's excess over its allowance charged to its first move as in a
    game): accepted when both games end on the board."""
    slowest: MoveTime | None = None
    for colour in ("x", "o"):
        try:
            program, extra = start_on_clock(make, kind)
        except BotError as exc:
            return Verdict(False, f"the program could not start: {team_words(str(exc))}")
        opponent = make_bot(house, 1)
        output = ""
        try:
            played = _game(program, opponent, colour, rounds, seconds, extra)
            if isinstance(played, str):
                output = last_output(program)  # this game's program: one a game
        finally:
            program.close()
            opponent.close()
        if isinstance(played, str):
            picture = program.picture if isinstance(program, DrivenBot) else None
            return Verdict(False, f"as {colour.upper()}, {played}", picture, output)
        slowest = longer(slowest, played)
    return Verdict(
        True,
        f"played {rounds} round{'s' if rounds != 1 else ''} with each colour against {house} "
        f"to the end; the longest answer took {times(slowest)}",
    )


def _game(
    program: Bot, opponent: Bot, colour: Color, rounds: int, seconds: float, extra: float
) -> MoveTime | str:
    """One checked game, the program playing ``colour``: its longest answer's seconds
    (wall and CPU), or the refusal's words from the failed move on; ``extra``: its start's
    excess, charged to its first move."""
    position = Position.start(8, 8, rounds)
    program.new_game()
    opponent.new_game()
    slowest = MoveTime(0.0, 0.0, 0.0)
    number = 0
    while not position.is_over:
        number += 1
        if position.turn != colour:
            position = position.play(opponent.choose_move(position, Limit(time=seconds)))
            continue
        where = f"at move {number} ({position.fen()})"
        outcome = ask_on_clock(program, position, seconds, extra)
        extra = 0.0
        if isinstance(outcome, Starved):  # a game cannot ask a move again: all of it again
            raise ServerBusy(f"{where}: {outcome.why}")
        if isinstance(outcome, str):
            return f"{where}: {outcome}"
        move, took = outcome
        try:
            position = position.play(move)
        except IllegalMoveError as exc:
            return f"{where}: {exc}"
        slowest = longer(slowest, took)
    return slowest
