"""The objective every classic bot optimises, and fast bitboard helpers for it.

The objective (the assignment's evaluation function) is *material*: the side to
move's pieces minus the opponent's, counted at the search horizon or at the end
of the game. Placing a piece on a square with ``k`` opponent neighbours wins the
square and converts the ``k`` neighbours, so it changes the margin from ``d``
to ``d + 1 + 2k`` for the mover; its *immediate gain* is ``1 + k`` squares
(see :func:`adjacency.bots.baseline.immediate_gain`).

:class:`Geometry` counts, for every square at once, how many orthogonal
neighbours lie in a set of squares, with bit-parallel adders on the core's bit
layout (see :mod:`adjacency.core.board`). This gives the squares of each gain
without looping over moves: the greedy reply, the search horizon and move
ordering all use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..core import Bitboard, Board, Position, iter_squares
from ..core.board import board as board_of


@dataclass(frozen=True)
class Geometry:
    """Shift masks of one board size for bit-parallel neighbour counting."""

    board: Board
    not_first_file: Bitboard
    not_last_file: Bitboard

    def neighbour_counts(self, pieces: Bitboard) -> tuple[Bitboard, Bitboard, Bitboard, Bitboard]:
        """Squares with at least 1, 2, 3 and 4 orthogonal neighbours in ``pieces``.

        Each direction gives a bitboard of squares whose neighbour that way is in
        ``pieces``; the four are then summed with bit-sliced "at least k" logic.
        """
        cols = self.board.cols
        full = self.board.full
        up = pieces >> cols  # squares whose upper neighbour is in ``pieces``
        down = (pieces << cols) & full
        right = (pieces >> 1) & self.not_last_file
        left = (pieces << 1) & self.not_first_file
        ab_any, ab_both = up | down, up & down
        cd_any, cd_both = right | left, right & left
        at_least_1 = ab_any | cd_any
        at_least_2 = ab_both | cd_both | (ab_any & cd_any)
        at_least_3 = (ab_both & cd_any) | (cd_both & ab_any)
        at_least_4 = ab_both & cd_both
        return at_least_1, at_least_2, at_least_3, at_least_4

    def place(self, mover: Bitboard, opponent: Bitboard, square: int) -> tuple[Bitboard, Bitboard]:
        """``(mover, opponent)`` after the mover places on the empty ``square`` and converts
        its orthogonal opponent neighbours (the rule of :meth:`Position.play` on bare bits)."""
        gained = self.board.neighbours[square] & opponent
        return mover | (1 << square) | gained, opponent ^ gained

    def best_flips(self, empty: Bitboard, opponent: Bitboard) -> int:
        """The most opponent pieces one move on ``empty`` converts (0 to 4; 0 if no empty)."""
        counts = self.neighbour_counts(opponent)
        for flips in (4, 3, 2, 1):
            if counts[flips - 1] & empty:
                return flips
        return 0

    def greedy_square(self, empty: Bitboard, opponent: Bitboard) -> tuple[int, int]:
        """The greedy move ``(square, flips)``: most conversions, lowest index on ties.

        This is what steepest-ascent hill climbing over the whole board returns
        with the immediate-gain objective. ``empty`` must not be 0.
        """
        counts = self.neighbour_counts(opponent)
        for flips in (4, 3, 2, 1):
            found = counts[flips - 1] & empty
            if found:
                return (found & -found).bit_length() - 1, flips
        return (empty & -empty).bit_length() - 1, 0

    def best_squares(self, empty: Bitboard, opponent: Bitboard) -> tuple[Bitboard, int]:
        """Every greedy move at once: ``(bitboard of the empty squares converting the
        most, that count)``; every empty square (with 0) when none converts."""
        counts = self.neighbour_counts(opponent)
        for flips in (4, 3, 2, 1):
            found = counts[flips - 1] & empty
            if found:
                return found, flips
        return empty, 0

    def squares_by_flips(self, empty: Bitboard, opponent: Bitboard) -> list[tuple[int, int]]:
        """Every empty square as ``(square, flips)``, most flips first, then by index."""
        counts = self.neighbour_counts(opponent)
        moves: list[tuple[int, int]] = []
        higher = 0
        for flips in (4, 3, 2, 1):
            exact = counts[flips - 1] & empty & ~higher
            moves.extend((sq, flips) for sq in iter_squares(exact))
            higher |= exact
        moves.extend((sq, 0) for sq in iter_squares(empty & ~higher))
        return moves


@cache
def geometry(rows: int, cols: int) -> Geometry:
    """The (cached) :class:`Geometry` of a board size."""
    grid = board_of(rows, cols)
    first_file = 0
    for rank in range(rows):
        first_file |= 1 << (rank * cols)
    last_file = first_file << (cols - 1)
    return Geometry(grid, grid.full & ~first_file, grid.full & ~last_file)


@cache
def reading_order(rows: int, cols: int) -> tuple[int, ...]:
    """Every square in reading order: the top rank first, each rank from file a.

    This is the order in which the course reports' bots scan their board arrays
    (row 0 at the top, column 0 at the left), so "the first best move found"
    in a report means the first in this order.
    """
    return tuple(rank * cols + file for rank in reversed(range(rows)) for file in range(cols))


def geometry_of(position: Position) -> Geometry:
    """The :class:`Geometry` of a position's board."""
    return geometry(position.rows, position.cols)


def material(position: Position) -> int:
    """The objective: the side to move's pieces minus the opponent's."""
    return position.mover.bit_count() - position.opponent.bit_count()


def margin_after(position: Position, square: int) -> int:
    """Material from the mover's view after the mover plays ``square`` (index, empty)."""
    flips = (position.board.neighbours[square] & position.opponent).bit_count()
    return material(position) + 1 + 2 * flips


def pieces_after(position: Position, square: int) -> int:
    """The mover's piece count after the mover plays ``square`` (index, empty).

    Report A's local-search objective (its pieces gained by the move, counted
    from its pieces before the move): a monotone function of :func:`margin_after`.
    """
    flips = (position.board.neighbours[square] & position.opponent).bit_count()
    return position.mover.bit_count() + 1 + flips


def best_reply_flips(position: Position, square: int) -> int:
    """Squares the opponent converts with its best greedy reply after ``square``.

    Returns 0 when ``square`` is the last ply of the game (there is no reply).
    """
    if position.plies_left <= 1:
        return 0
    bit = 1 << square
    gained = position.board.neighbours[square] & position.opponent
    mover_after = position.mover | bit | gained
    empty_after = position.empty & ~bit
    return geometry_of(position).best_flips(empty_after, mover_after)


def margin_after_reply(position: Position, square: int) -> int:
    """Material from the mover's view after ``square`` and the opponent's greedy reply.

    The reply wins ``1 + k`` squares for ``k`` conversions, a swing of
    ``1 + 2k`` in the margin. With no reply left this equals :func:`margin_after`.
    """
    score = margin_after(position, square)
    if position.plies_left <= 1:
        return score
    return score - 1 - 2 * best_reply_flips(position, square)
