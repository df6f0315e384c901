"""Board geometry: sizes, square names and the bit layout shared by every component.

The bit layout
--------------
A board has ``rows`` ranks and ``cols`` files (4 <= rows, cols <= 8). Square
``file f`` (0 = file ``a``, the leftmost column) on ``rank r`` (0 = rank ``1``,
the bottom row) has index ``r * cols + f``, and its bitboard is ``1 << index``.
So ``a1`` is bit 0, ``b1`` is bit 1, ... and on 8x8 ``h8`` is bit 63::

    rank 8 | 56 57 58 59 60 61 62 63
    rank 7 | 48 49 50 51 52 53 54 55
      ...  |          ...
    rank 2 |  8  9 10 11 12 13 14 15
    rank 1 |  0  1  2  3  4  5  6  7
             a  b  c  d  e  f  g  h

On a 5x6 board (5 ranks, 6 files) ``a2`` is bit 6 and ``f5`` is bit 29. Bits at
or above ``rows * cols`` are never set. Moving one rank up is a shift left by
``cols``; one file right is a shift left by 1 (masked so that nothing wraps from
the last file onto the first). The compiled engine uses exactly this layout on
``uint64`` words, so a position's bitboards pass between the two unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .errors import InvalidSettingsError, InvalidSquareError
from .text import is_ascii_number, quote

Square = int
"""A square index in the bit layout above (0 = ``a1``)."""

Bitboard = int
"""A set of squares: bit ``i`` set means square ``i`` is in the set."""

MIN_SIDE = 4
MAX_SIDE = 8
FILE_NAMES = "abcdefgh"


@dataclass(frozen=True)
class Board:
    """The geometry of one board size: masks, neighbour tables and square names.

    Obtain instances with :func:`board` (cached), not by calling the class.
    """

    rows: int
    cols: int
    full: Bitboard = field(init=False, repr=False, compare=False)
    neighbours: tuple[Bitboard, ...] = field(init=False, repr=False, compare=False)
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for label, value in (("rows", self.rows), ("cols", self.cols)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidSettingsError(
                    f"{label} must be an integer from {MIN_SIDE} to {MAX_SIDE}, got {quote(value)}"
                )
            if not MIN_SIDE <= value <= MAX_SIDE:
                raise InvalidSettingsError(
                    f"{label} must be from {MIN_SIDE} to {MAX_SIDE}, got {value}"
                )
        size = self.rows * self.cols
        object.__setattr__(self, "full", (1 << size) - 1)
        object.__setattr__(self, "neighbours", tuple(self._neighbour_mask(i) for i in range(size)))
        object.__setattr__(
            self,
            "names",
            tuple(f"{FILE_NAMES[i % self.cols]}{i // self.cols + 1}" for i in range(size)),
        )

    def _neighbour_mask(self, index: Square) -> Bitboard:
        rank, file = divmod(index, self.cols)
        mask = 0
        for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            r, f = rank + dr, file + df
            if 0 <= r < self.rows and 0 <= f < self.cols:
                mask |= 1 << (r * self.cols + f)
        return mask

    @property
    def size(self) -> int:
        """Number of squares."""
        return self.rows * self.cols

    @property
    def dimensions(self) -> str:
        """The size as people write it: ``"8x8"`` (rows x cols)."""
        return f"{self.rows}x{self.cols}"

    def square(self, name: str) -> Square:
        """Parse a square name such as ``"c3"``; raise :class:`InvalidSquareError`."""
        if not isinstance(name, str):
            raise InvalidSquareError(f"a square name must be a string like 'c3', got {quote(name)}")
        text = name.strip().lower()
        last_file = FILE_NAMES[self.cols - 1]
        if (
            len(text) < 2
            or text[0] not in FILE_NAMES
            or not is_ascii_number(text[1:])
            or text[1] == "0"
        ):
            raise InvalidSquareError(
                f"malformed square {quote(name)}: expected a file a-{last_file} "
                f"followed by a rank 1-{self.rows}, like 'c3'",
                "malformed-square",
                {"square": quote(name), "last_file": last_file, "rows": str(self.rows)},
            )
        file = FILE_NAMES.index(text[0])
        rank = int(text[1:]) - 1
        if file >= self.cols or not 0 <= rank < self.rows:
            raise InvalidSquareError(
                f"square {quote(name)} is off the {self.dimensions} board: "
                f"files run a-{last_file} and ranks 1-{self.rows}",
                "off-the-board",
                {
                    "square": quote(name),
                    "size": self.dimensions,
                    "last_file": last_file,
                    "rows": str(self.rows),
                },
            )
        return rank * self.cols + file

    def index(self, square: str | Square) -> Square:
        """A square given by name (``"c3"``) or index, checked to lie on this board."""
        if isinstance(square, str):
            return self.square(square)
        if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < self.size:
            raise InvalidSquareError(
                f"square index {quote(square)} is off the {self.dimensions} board "
                f"(0 to {self.size - 1})"
            )
        return square

    def name(self, square: Square) -> str:
        """The name of a square index, e.g. ``0 -> "a1"``."""
        return self.names[square]

    def square_names(self, bb: Bitboard) -> list[str]:
        """Names of the squares in a bitboard, in index order (a1, b1, ..., a2, ...)."""
        return [self.names[i] for i in iter_squares(bb)]

    def bitboard(self, names: list[str] | tuple[str, ...]) -> Bitboard:
        """The bitboard of a collection of square names."""
        bb = 0
        for name in names:
            bb |= 1 << self.square(name)
        return bb

    def start_x(self) -> Bitboard:
        """X's start: the 2x2 block in the bottom-left corner (a1, b1, a2, b2)."""
        c = self.cols
        return 1 | 2 | (1 << c) | (1 << (c + 1))

    def start_o(self) -> Bitboard:
        """O's start: the 2x2 block in the top-right corner."""
        top = (self.rows - 1) * self.cols
        c = self.cols
        return (1 << (top + c - 1)) | (1 << (top + c - 2)) | (1 << (top - 1)) | (1 << (top - 2))

    def max_rounds(self) -> int:
        """The most rounds a game from the start position can have: empty squares // 2."""
        return (self.size - 8) // 2


@lru_cache(maxsize=None, typed=True)
def board(rows: int = 8, cols: int = 8) -> Board:
    """The (cached) :class:`Board` of a size; raises :class:`InvalidSettingsError`."""
    return Board(rows, cols)


def iter_squares(bb: Bitboard) -> list[Square]:
    """The square indices set in ``bb``, lowest first."""
    squares = []
    while bb:
        low = bb & -bb
        squares.append(low.bit_length() - 1)
        bb ^= low
    return squares


def popcount(bb: Bitboard) -> int:
    """Number of squares in a bitboard."""
    return bb.bit_count()
