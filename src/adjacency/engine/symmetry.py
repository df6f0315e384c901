"""Board symmetries: the eight reflections and rotations of a board, found from positions.

A game position keeps its value (final margin under perfect play, side to
move's view) under two kinds of maps:

* a *board transform*: one of the eight symmetries of the square (identity,
  rotations, reflections) applied to the grid. On an R x C board the four that
  keep the shape (identity, the two mirror images, the half turn) map the board
  onto itself; the other four (the two diagonal reflections, the quarter turns)
  map it onto the C x R board. Adjacency is preserved by all eight, so every
  move and conversion maps to a move and conversion of the image;
* a *colour swap*: X and O exchange their pieces and the turn. The rules are
  the same for both sides, so the mover's margin is unchanged.

Nothing here assumes which maps fix a start position: :func:`stabiliser` and
:func:`equivalent_starts` test every candidate on the position itself. For the
record (and checked by the tests): every square start position is fixed by the
reflection through the a1-h8 diagonal (``transpose``); no non-square start is
fixed by any map but the identity; the start of an R x C board is the
``transpose`` image of the C x R start; and the half turn with a colour swap
maps the start with X to move onto the start with O to move, on every board.

Bit layout as in :mod:`adjacency.core.board`: square ``rank * cols + file``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from ..core import Bitboard, Board, Position, Square, board, iter_squares, other
from ..core.errors import InvalidPositionError

Coordinates = Callable[[int, int, int, int], tuple[int, int]]
"""``(rank, file, rows, cols) -> (rank', file')`` on the image board."""

_MAPS: dict[str, tuple[Coordinates, bool]] = {
    # name: (coordinate map, swaps rows and cols)
    "identity": (lambda r, f, rows, cols: (r, f), False),
    "mirror-files": (lambda r, f, rows, cols: (r, cols - 1 - f), False),
    "mirror-ranks": (lambda r, f, rows, cols: (rows - 1 - r, f), False),
    "half-turn": (lambda r, f, rows, cols: (rows - 1 - r, cols - 1 - f), False),
    "transpose": (lambda r, f, rows, cols: (f, r), True),
    "anti-transpose": (lambda r, f, rows, cols: (cols - 1 - f, rows - 1 - r), True),
    "quarter-turn": (lambda r, f, rows, cols: (cols - 1 - f, r), True),
    "three-quarter-turn": (lambda r, f, rows, cols: (f, rows - 1 - r), True),
}
TRANSFORM_NAMES = tuple(_MAPS)
"""The eight symmetries of the square, ``identity`` first."""


@dataclass(frozen=True)
class Transform:
    """One of the eight grid symmetries, bound to a source board.

    ``squares[i]`` is the image of square ``i`` on :attr:`target`.
    """

    name: str
    source: Board
    target: Board
    squares: tuple[Square, ...] = field(repr=False)

    def square(self, index: Square) -> Square:
        """The image of one square."""
        return self.squares[index]

    def bitboard(self, bits: Bitboard) -> Bitboard:
        """The image of a set of squares."""
        image = 0
        for index in iter_squares(bits):
            image |= 1 << self.squares[index]
        return image

    def inverse(self) -> Transform:
        """The transform of :attr:`target` that undoes this one."""
        for candidate in transforms(self.target):
            if candidate.target == self.source and all(
                candidate.squares[self.squares[i]] == i for i in range(self.source.size)
            ):
                return candidate
        raise AssertionError(f"no inverse of {self.name} on {self.source.dimensions}")

    def position(self, position: Position, swap: bool = False) -> Position:
        """The image of ``position`` (its board must be :attr:`source`); with ``swap`` the
        colours and the turn are exchanged as well. The image has the same value.
        :class:`~adjacency.core.errors.InvalidPositionError` for a position on another board."""
        if position.board != self.source:
            raise InvalidPositionError(
                f"transform {self.name} is for {self.source.dimensions} boards, "
                f"not {position.board.dimensions}"
            )
        x, o = self.bitboard(position.x), self.bitboard(position.o)
        if swap:
            return Position(self.target, o, x, other(position.turn), position.plies_left)
        return Position(self.target, x, o, position.turn, position.plies_left)


@cache
def transforms(source: Board) -> tuple[Transform, ...]:
    """All eight transforms of ``source`` (four map it onto itself when it is not square)."""
    result = []
    for name, (coordinates, swaps) in _MAPS.items():
        target = board(source.cols, source.rows) if swaps else source
        squares = []
        for index in range(source.size):
            rank, file = divmod(index, source.cols)
            r, f = coordinates(rank, file, source.rows, source.cols)
            squares.append(r * target.cols + f)
        result.append(Transform(name, source, target, tuple(squares)))
    return tuple(result)


def automorphisms(geometry: Board) -> tuple[Transform, ...]:
    """The transforms that map ``geometry`` onto itself (8 on a square board, else 4)."""
    return tuple(t for t in transforms(geometry) if t.target == geometry)


def stabiliser(position: Position) -> tuple[Transform, ...]:
    """The board transforms that leave ``position`` unchanged (always including the
    identity): mirrored moves of such a position have equal values."""
    return tuple(t for t in automorphisms(position.board) if t.position(position) == position)


def move_orbits(position: Position) -> list[tuple[Square, ...]]:
    """The legal moves grouped by the :func:`stabiliser`: moves of one orbit lead to
    mirror-image positions, so they have the same value. Each orbit is sorted and the
    orbits are ordered by their first (canonical) square."""
    group = stabiliser(position)
    seen: set[Square] = set()
    orbits = []
    for square in position.legal_squares():
        if square in seen:
            continue
        orbit = tuple(sorted({t.square(square) for t in group}))
        seen.update(orbit)
        orbits.append(orbit)
    return orbits


@dataclass(frozen=True)
class Equivalence:
    """``image`` is the image of a position under ``transform`` (and a colour swap)."""

    transform: Transform
    swap: bool
    image: Position


def equivalent_starts(position: Position) -> list[Equivalence]:
    """Every start position (any board, rounds and first mover) that some transform, with
    or without a colour swap, maps ``position`` onto; the identity is included when
    ``position`` is a start. They all have the same value for the side to move."""
    found = []
    for transform in transforms(position.board):
        for swap in (False, True):
            image = transform.position(position, swap)
            plies = image.plies_left
            if plies < 2 or plies % 2 or plies > 2 * image.board.max_rounds():
                continue
            start = Position.start(image.rows, image.cols, plies // 2, image.turn)
            if image == start:
                found.append(Equivalence(transform, swap, image))
    return found


def canonical(position: Position) -> tuple[tuple[Bitboard, Bitboard, int], Transform]:
    """The key shared by every mirror image and colour swap of ``position`` on its board,
    and the transform that takes ``position`` to the key's frame.

    The key is the smallest ``(mover, opponent, plies_left)`` over the board's
    :func:`automorphisms`; the turn is not part of it, since the value depends only on
    the mover's and the opponent's pieces."""
    best: tuple[Bitboard, Bitboard, int] | None = None
    chosen: Transform | None = None
    mover, opponent = position.mover, position.opponent
    for transform in automorphisms(position.board):
        key = (transform.bitboard(mover), transform.bitboard(opponent), position.plies_left)
        if best is None or key < best:
            best, chosen = key, transform
    assert best is not None and chosen is not None
    return best, chosen
