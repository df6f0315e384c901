"""Immutable game positions on bitboards: the reference implementation of the rules.

The rules, in brief (docs/rules.md has the full contract): the side to move
places a piece on any empty square, and every orthogonally adjacent square held
by the opponent becomes the mover's. A game from the start position lasts
exactly ``2 * rounds`` plies; then the side owning more squares wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import total_ordering
from typing import Literal

from .board import Bitboard, Board, Square, board, iter_squares
from .errors import (
    IllegalMoveError,
    InvalidPositionError,
    InvalidSettingsError,
    InvalidSquareError,
)
from .fen import COLORS, Color, format_fen, parse_fen
from .svg import position_svg
from .text import quote

Outcome = Literal["x", "o", "draw"]

RULES_VERSION = "1"
"""The rules' version: raised whenever the same moves from the same start could give a
different legal move, conversion, end of game or score (docs/rules.md), never for a
refactoring or a speed-up. Game records, the batched environment and the JAX
environment report it, so a result can be matched to the rules it was played under."""


def other(color: Color) -> Color:
    """The opponent of ``color``."""
    return "o" if color == "x" else "x"


def check_color(color: object, what: str = "side") -> Color:
    """Return ``color`` if it is ``"x"`` or ``"o"``; else raise :class:`InvalidSettingsError`."""
    if color not in COLORS:
        raise InvalidSettingsError(f"{what} must be 'x' or 'o', got {quote(color)}")
    return color  # type: ignore[return-value]


def check_rounds(rounds: object, geometry: Board) -> int:
    """Return ``rounds`` if a game from the start of ``geometry`` can last that long."""
    limit = geometry.max_rounds()
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= limit:
        raise InvalidSettingsError(
            f"rounds must be a whole number from 1 to {limit} on a "
            f"{geometry.dimensions} board, got {quote(rounds)}"
        )
    return rounds


@total_ordering
@dataclass(frozen=True, slots=True, eq=False)
class Position:
    """One position: the board, both sides' pieces, the side to move and plies left.

    Positions are values: immutable, hashable and comparable; :meth:`play`
    returns a new one. Construction checks consistency and raises
    :class:`InvalidPositionError`: the pieces must be disjoint and on the board,
    and the plies left cannot exceed the empty squares (every ply fills one).
    """

    board: Board
    x: Bitboard
    o: Bitboard
    turn: Color
    plies_left: int

    def __post_init__(self) -> None:
        geometry = self.board
        problem = None
        if not isinstance(geometry, Board):
            problem = f"board must be a Board, got {geometry!r}"
        elif not (isinstance(self.x, int) and isinstance(self.o, int)):
            problem = "bitboards must be integers"
        elif self.x < 0 or self.o < 0 or (self.x | self.o) & ~geometry.full:
            problem = f"pieces lie outside the {geometry.dimensions} board"
        elif self.x & self.o:
            problem = f"x and o both claim {geometry.square_names(self.x & self.o)}"
        elif self.turn not in COLORS:
            problem = f"side to move must be 'x' or 'o', got {self.turn!r}"
        elif isinstance(self.plies_left, bool) or not isinstance(self.plies_left, int):
            problem = f"plies left must be an integer, got {self.plies_left!r}"
        elif not 0 <= self.plies_left <= geometry.size - (self.x | self.o).bit_count():
            empties = geometry.size - (self.x | self.o).bit_count()
            problem = (
                f"plies left must be from 0 to the {empties} empty square(s), got {self.plies_left}"
            )
        if problem:
            raise InvalidPositionError(f"invalid position: {problem}")

    # ----------------------------------------------------------------- construction

    @classmethod
    def start(cls, rows: int = 8, cols: int = 8, rounds: int = 28, first: Color = "x") -> Position:
        """The start position: X in the bottom-left 2x2, O in the top-right 2x2.

        ``rounds`` runs from 1 to (empty squares) // 2 (28 on 8x8); ``first`` is
        the side that moves first. Raises :class:`InvalidSettingsError`.
        """
        geometry = board(rows, cols)
        check_rounds(rounds, geometry)
        check_color(first, "first")
        return cls(geometry, geometry.start_x(), geometry.start_o(), first, 2 * rounds)

    @classmethod
    def from_fen(cls, text: str) -> Position:
        """Parse position text such as ``"6oo/6oo/8/8/8/8/xx6/xx6 x 56"``."""
        parts = parse_fen(text)
        try:
            return cls(*parts)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"position text {quote(text)}: {exc}") from None

    def fen(self) -> str:
        """The position text of this position."""
        return format_fen(self.board, self.x, self.o, self.turn, self.plies_left)

    # ------------------------------------------------------------------- queries

    @property
    def rows(self) -> int:
        """Ranks (rows) of the board."""
        return self.board.rows

    @property
    def cols(self) -> int:
        """Files (columns) of the board."""
        return self.board.cols

    @property
    def empty(self) -> Bitboard:
        """The empty squares: every one is a legal move while the game is not over."""
        return self.board.full & ~(self.x | self.o)

    @property
    def mover(self) -> Bitboard:
        """The side to move's pieces."""
        return self.x if self.turn == "x" else self.o

    @property
    def opponent(self) -> Bitboard:
        """The pieces of the side not to move."""
        return self.o if self.turn == "x" else self.x

    @property
    def score(self) -> tuple[int, int]:
        """``(x_count, o_count)``: the squares each side owns."""
        return self.x.bit_count(), self.o.bit_count()

    def margin(self, color: Color | None = None) -> int:
        """Pieces of ``color`` (default: the side to move) minus its opponent's."""
        color = self.turn if color is None else check_color(color, "color")
        diff = self.x.bit_count() - self.o.bit_count()
        return diff if color == "x" else -diff

    @property
    def is_over(self) -> bool:
        """True once all plies are played."""
        return self.plies_left == 0

    @property
    def rounds_left(self) -> int:
        """Rounds left as shown to people: ``ceil(plies_left / 2)``."""
        return (self.plies_left + 1) // 2

    @property
    def ply_count(self) -> int:
        """Pieces placed since a start position (every ply adds exactly one)."""
        return (self.x | self.o).bit_count() - 8

    def outcome(self) -> Outcome | None:
        """``"x"``, ``"o"`` or ``"draw"`` for a finished game, ``None`` before the end."""
        if not self.is_over:
            return None
        x, o = self.score
        return "x" if x > o else "o" if o > x else "draw"

    def piece_at(self, square: str | Square) -> Color | None:
        """``"x"``, ``"o"`` or ``None`` for the square (a name or an index)."""
        bit = 1 << self._index(square)
        return "x" if self.x & bit else "o" if self.o & bit else None

    def legal_moves(self) -> list[str]:
        """Every legal move as a square name (all empty squares; none once over)."""
        if self.is_over:
            return []
        return self.board.square_names(self.empty)

    def legal_squares(self) -> list[Square]:
        """Every legal move as a square index."""
        return [] if self.is_over else iter_squares(self.empty)

    def flips(self, move: str | Square) -> list[str]:
        """Names of the squares that ``move`` would convert; raises if it is illegal."""
        return self.board.square_names(self.flip_bitboard(move))

    def flip_bitboard(self, move: str | Square) -> Bitboard:
        """The bitboard of squares that ``move`` would convert; raises if it is illegal."""
        index = self._checked_move(move)
        return self.board.neighbours[index] & self.opponent

    # ------------------------------------------------------------------- playing

    def play(self, move: str | Square) -> Position:
        """The position after ``move`` (a square name or index); ``self`` is unchanged.

        Raises :class:`IllegalMoveError` if the game is over, the square is
        occupied, off the board or the name is malformed.
        """
        index = self._checked_move(move)
        geometry = self.board
        bit = 1 << index
        if self.turn == "x":
            gained = geometry.neighbours[index] & self.o
            return _unchecked(
                geometry, self.x | bit | gained, self.o ^ gained, "o", self.plies_left - 1
            )
        gained = geometry.neighbours[index] & self.x
        return _unchecked(
            geometry, self.x ^ gained, self.o | bit | gained, "x", self.plies_left - 1
        )

    def _index(self, square: str | Square) -> Square:
        return self.board.index(square)

    def _checked_move(self, move: str | Square) -> Square:
        try:
            index = self._index(move)
        except ValueError as exc:
            where = {"move": quote(move), "fen": repr(self.fen())}
            code, params = (
                (exc.code, {**where, **exc.params})
                if isinstance(exc, InvalidSquareError) and exc.code is not None
                else ("off-board", {**where, "reason": str(exc)})
            )
            raise IllegalMoveError(
                f"illegal move {quote(move)} in {self.fen()!r}: {exc}", code, params
            ) from None
        if self.plies_left == 0:
            raise IllegalMoveError(
                f"illegal move {quote(move)}: the game is over in {self.fen()!r}"
            )
        if (self.x | self.o) >> index & 1:
            owner = "x" if self.x >> index & 1 else "o"
            square = self.board.name(index)
            raise IllegalMoveError(
                f"illegal move {quote(move)}: {square} is occupied by {owner} "
                f"in {self.fen()!r}; moves must go on an empty square",
                "occupied",
                {"move": quote(move), "square": square, "owner": owner, "fen": repr(self.fen())},
            )
        return index

    # ------------------------------------------------------------------ value API

    def _key(self) -> tuple[int, int, int, int, str, int]:
        return (self.board.rows, self.board.cols, self.x, self.o, self.turn, self.plies_left)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The board as SVG: how Jupyter and IPython display a position."""
        return position_svg(self)

    def __str__(self) -> str:
        """A text diagram with coordinates, rank 1 at the bottom (``.`` is empty)."""
        lines = []
        for rank in range(self.rows - 1, -1, -1):
            cells = []
            for file in range(self.cols):
                bit = 1 << (rank * self.cols + file)
                cells.append("x" if self.x & bit else "o" if self.o & bit else ".")
            lines.append(f"{rank + 1} {' '.join(cells)}")
        lines.append("  " + " ".join("abcdefgh"[: self.cols]))
        return "\n".join(lines)


_new = object.__new__
_set = object.__setattr__


def _unchecked(geometry: Board, x: Bitboard, o: Bitboard, turn: Color, plies_left: int) -> Position:
    """Build a Position from parts already known to be consistent (the fast path of play)."""
    position = _new(Position)
    _set(position, "board", geometry)
    _set(position, "x", x)
    _set(position, "o", o)
    _set(position, "turn", turn)
    _set(position, "plies_left", plies_left)
    return position
