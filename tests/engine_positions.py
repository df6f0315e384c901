"""Seeded random positions for the tests (importable helper, not a test module).

Every test that wants "a random position" draws it here, so that one definition says what
the suite's random positions are.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from adjacency.core import COLORS, Position
from oracles import exact_value

if TYPE_CHECKING:
    from adjacency.engine import Engine


def random_position(rng: random.Random, rows: int, cols: int, max_left: int) -> Position:
    """A position reached by random play from a random start, with 1..max_left plies left."""
    board = Position.start(rows, cols, 1).board
    rounds = rng.randint(1, board.max_rounds())
    position = Position.start(rows, cols, rounds, rng.choice(COLORS))
    keep = rng.randint(1, min(max_left, position.plies_left))
    while position.plies_left > keep:
        position = position.play(rng.choice(position.legal_squares()))
    return position


def random_game_position(
    rng: random.Random, max_empty: int = 64, lean_to_ends: bool = False
) -> Position:
    """An unfinished position of a random game: a random board (4-8 a side), length and
    first mover, then random moves; at most ``max_empty`` empty squares (drawn again until
    so). ``lean_to_ends``: a third of the time no move is played and a third of the time
    all but the last, so bots meet starts and one-ply endings often."""
    while True:
        rows, cols = rng.randint(4, 8), rng.randint(4, 8)
        rounds = rng.randint(1, (rows * cols - 8) // 2)
        position = Position.start(rows, cols, rounds, rng.choice(COLORS))
        last = position.plies_left - 1
        if lean_to_ends:
            played = rng.choice([0, rng.randint(0, last), last])
        else:
            played = rng.randint(0, last)
        for _ in range(played):
            position = position.play(rng.choice(position.legal_squares()))
        if position.empty.bit_count() <= max_empty:
            return position


def assert_solves_like_brute_force(
    engine: Engine, position: Position, memo: dict[Position, int] | None = None
) -> None:
    """``engine`` solves ``position`` exactly and win/draw/loss as :func:`oracles.exact_value`
    does, and its best move really reaches the value (``memo``: brute force's, to share
    between engines)."""
    memo = {} if memo is None else memo
    exact = exact_value(position, memo)
    solved = engine.solve(position)
    assert solved.complete and solved.value == exact, position.fen()
    after = position.play(solved.best)
    assert (after.margin(position.turn) if after.is_over else -exact_value(after, memo)) == exact
    wld = engine.solve(position, wld=True)
    assert wld.value == (exact > 0) - (exact < 0), position.fen()
    assert wld.best in position.legal_moves() and wld.complete


def split_engines(tt_mb: float = 2, counts: tuple[int, ...] = (1, 2, 4)) -> list[Engine]:
    """Engines with 1, 2 and 4 threads whose solver splits every node it can (5 or more
    plies left), so that small positions exercise the split points."""
    from adjacency.engine import Engine

    engines = [Engine(tt_mb=tt_mb, threads=count) for count in counts]
    for engine in engines:
        engine.split_depth = 64
        engine.split_floor = 0
    return engines


def random_endgame(rng: random.Random, rows: int, cols: int, max_empties: int) -> Position:
    """A position of a longest-possible game with at most ``max_empties`` empty squares."""
    board = Position.start(rows, cols, 1).board
    position = Position.start(rows, cols, board.max_rounds(), rng.choice(COLORS))
    target = rng.randint(1, max_empties)
    while position.empty.bit_count() > target and position.plies_left > 1:
        position = position.play(rng.choice(position.legal_squares()))
    return position


def random_short_game(
    rng: random.Random, rows: int, cols: int, open_end: int, plies: int = 5
) -> Position:
    """A position of a game short enough to leave at least ``open_end`` squares empty at
    its end, with ``plies`` left."""
    board = Position.start(rows, cols, 1).board
    most = (rows * cols - 8 - open_end) // 2
    position = Position.start(rows, cols, rng.randint(3, most), rng.choice(COLORS))
    while position.plies_left > plies:
        position = position.play(rng.choice(position.legal_squares()))
    assert board.max_rounds() >= position.plies_left
    return position


def solver_endgame(seed: int) -> Position:
    """A 6x6 position of a longest game with 11 plies (and squares) left: within the
    solver's reach, and deeper than the engine bot's first short search, so the bot solves
    it (the lab's engine view and the table counters both need such a position)."""
    rng = random.Random(seed)
    board = Position.start(6, 6, 1).board
    position = Position.start(6, 6, board.max_rounds())
    while position.plies_left > 11:
        position = position.play(rng.choice(position.legal_moves()))
    return position
