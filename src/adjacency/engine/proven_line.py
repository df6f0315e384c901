"""A proven principal variation: the best line of a solved position, every position on it
solved exactly.

The transposition table's moves (:meth:`~adjacency.engine.searcher.Engine.principal_variation`)
give a line cheaply but prove nothing past the root: an entry may be a bound, or replaced.
:func:`proven_line` solves each position along the line instead, with the value its parent
implies as the first guess, so each solve is a short confirmation (the table of the same
engine keeps most of the tree) and a value that disagrees with its parent is a solver
fault, raised, never printed. The solved-game table (:mod:`adjacency.solving.solved_starts`)
and ``adjacency solve`` both walk their lines with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..core import Position
from .results import SolveResult
from .searcher import Engine


def proven_line(
    engine: Engine,
    position: Position,
    value: int,
    seconds_left: Callable[[], float | None] = lambda: None,
    wld: bool = False,
) -> Iterator[tuple[Position, SolveResult]]:
    """Solve ``position`` (worth ``value`` to its mover, exactly or as a win/draw/loss sign
    with ``wld``) and each position after its best move, to the end of the game; yield each
    position with its result.

    ``seconds_left()`` is the time left for the next solve (``None``: no limit). An
    incomplete result (out of time) is yielded and ends the line; the caller decides what
    a cut line means. A value other than the expected one is a fault of the solver, not
    of any input: :class:`AssertionError`."""
    current, expected = position, value
    while not current.is_over:
        result = engine.solve(current, wld=wld, seconds=seconds_left(), guess=expected)
        yield current, result
        if not result.complete:
            return
        if result.value != expected:
            raise AssertionError(
                f"solver inconsistency: {current.fen()!r} is worth {result.value}, "
                f"its parent said {expected}"
            )
        current = current.play(result.best)
        expected = -expected
