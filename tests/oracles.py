"""The suite's one exact oracle: plain negamax over the core's ``Position``, with a budget.

No alpha-beta, no table shared with the engine, no move ordering, no symmetry, no
shortcut for the last plies: every move sequence to the end is played out with
``Position.play`` and scored by ``Position.margin``. It shares nothing with the engine
but the rules core, so a bug in the solver, the split root, the symmetry pruning, the
book or the analysis cannot hide behind it. Positions already valued are remembered for
the duration of one call (a memo on the position, which the rules define as a value), so
transpositions cost nothing twice.

**The budget.** A pure-Python oracle on a position with many plies left can take hours
(5x5 at 4 rounds from the start: 21 x 20 x ... x 14 = 4e10 move sequences). Such a test
passes or fails by the luck of hypothesis's draw, and a run that draws the big position
hangs CI. So every test that asks this oracle draws or builds positions whose tree is
small (:func:`within_budget`, :func:`play_into_budget`), and the oracle itself stops with
:class:`OracleBudgetExceeded` once it has valued :data:`ORACLE_NODES` positions in one
call: a deterministic, immediate failure that names the position, never a hang.

Figures (this machine, 2 cores, one of them busy): about 20 µs a position valued; a tree
of :data:`ORACLE_LEAVES` move sequences values at most about 100,000 distinct positions,
a few seconds.
"""

from __future__ import annotations

import random
from math import prod

from adjacency.core import Position

#: The largest tree, in move sequences to the end (``tree_bound``), that tests draw for
#: the oracle. 1e6 sequences collapse to at most about 100,000 distinct positions.
ORACLE_LEAVES = 1_000_000

#: The hard stop: distinct positions the oracle values in one call before it gives up.
ORACLE_NODES = 300_000


class OracleBudgetExceeded(AssertionError):
    """The oracle was asked for a position whose tree is over its budget.

    An ``AssertionError`` so that it fails the test that asked (the test drew a position
    the oracle cannot value within the suite's time budget), with the position's text.
    """


def tree_bound(position: Position) -> int:
    """An upper bound on the move sequences from ``position`` to the end of the game.

    Every ply fills one empty square, so with ``e`` empty squares and ``p`` plies left
    there are at most ``e x (e - 1) x ... x (e - p + 1)`` sequences.
    """
    empties = position.empty.bit_count()
    plies = min(position.plies_left, empties)
    return prod(range(empties - plies + 1, empties + 1))


def within_budget(position: Position, leaves: int = ORACLE_LEAVES) -> bool:
    """Whether the oracle's tree from ``position`` has at most ``leaves`` sequences."""
    return tree_bound(position) <= leaves


def play_into_budget(
    position: Position, rng: random.Random, leaves: int = ORACLE_LEAVES
) -> Position:
    """``position`` after random moves (drawn from ``rng``) until its tree is in budget."""
    while not within_budget(position, leaves):
        position = position.play(rng.choice(position.legal_squares()))
    return position


class _Search:
    """One call: the memo (shared between calls when the caller passes one) and how many
    positions this call has valued."""

    def __init__(self, budget: int, memo: dict[Position, int] | None) -> None:
        self.memo: dict[Position, int] = {} if memo is None else memo
        self.budget = budget
        self.valued = 0

    def value(self, position: Position) -> int:
        if position.is_over:
            return position.margin()
        known = self.memo.get(position)
        if known is not None:
            return known
        if self.valued >= self.budget:
            raise OracleBudgetExceeded(
                f"the brute-force oracle valued {self.budget:,} positions without finishing; "
                f"draw smaller positions (tree_bound {tree_bound(position):,})"
            )
        self.valued += 1
        best = max(self.child_value(position, position.play(s)) for s in position.legal_squares())
        self.memo[position] = best
        return best

    def child_value(self, parent: Position, child: Position) -> int:
        """The value of ``child`` for the side to move in ``parent``."""
        if child.is_over:
            return child.margin(parent.turn)
        value = self.value(child)
        return value if child.turn == parent.turn else -value


def exact_value(
    position: Position, memo: dict[Position, int] | None = None, budget: int = ORACLE_NODES
) -> int:
    """The final margin under perfect play for the side to move in ``position``.

    ``memo``: positions already valued, to share between calls on one game's positions
    (the budget counts only the positions this call values).
    """
    return _Search(budget, memo).value(position)


def move_values(
    position: Position, memo: dict[Position, int] | None = None, budget: int = ORACLE_NODES
) -> dict[str, int]:
    """Each legal move's exact value for the side to move (one memo for all of them)."""
    search = _Search(budget, memo)
    return {
        position.board.name(square): search.child_value(position, position.play(square))
        for square in position.legal_squares()
    }


def fixed_depth_value(position: Position, depth: int) -> int:
    """Textbook negamax to ``depth`` plies on the material margin, from the side to move.

    The oracle of the classic bots at a fixed depth (no pruning, no ordering, no table):
    the caller bounds ``depth`` and the board so that its ``moves ** depth`` leaves stay
    in the thousands.
    """
    if depth == 0 or position.is_over:
        return position.margin()
    return max(-fixed_depth_value(position.play(m), depth - 1) for m in position.legal_moves())
