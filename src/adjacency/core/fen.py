"""Position text: the FEN-like one-line notation used by every interface.

Ranks are written from the top (rank R) down to rank 1, separated by ``/``;
``x`` and ``o`` are pieces and a digit ``k`` stands for ``k`` empty squares in a
row. Then come the side to move (``x`` or ``o``) and the number of plies left::

    6oo/6oo/8/8/8/8/xx6/xx6 x 56

The board size is implied by the text: the number of ranks is the number of
``/``-separated fields, the number of files the length of each.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .board import MAX_SIDE, MIN_SIDE, Bitboard, Board, board
from .errors import InvalidPositionError, InvalidSettingsError
from .text import parse_int, quote

Color = Literal["x", "o"]
"""The two sides: ``"x"`` and ``"o"``."""

COLORS: tuple[Color, Color] = ("x", "o")


class FenParts(NamedTuple):
    """The fields of a position text, parsed but not yet checked against the rules."""

    board: Board
    x: Bitboard
    o: Bitboard
    turn: Color
    plies_left: int


def parse_fen(text: str) -> FenParts:
    """Parse position text; raise :class:`InvalidPositionError` saying what and where."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"position text must be a string, got {quote(text)}")
    fields = text.split()
    if len(fields) != 3:
        raise InvalidPositionError(
            f"position text {quote(text)} has {len(fields)} field(s); expected 3: "
            "<ranks> <side to move x|o> <plies left>, e.g. '6oo/6oo/8/8/8/8/xx6/xx6 x 56'"
        )
    placement, side, plies = fields
    ranks = placement.split("/")
    if not MIN_SIDE <= len(ranks) <= MAX_SIDE:
        raise InvalidPositionError(
            f"position text {quote(text)} has {len(ranks)} rank(s); "
            f"a board has {MIN_SIDE} to {MAX_SIDE}"
        )
    rows = len(ranks)
    cols: int | None = None
    x = o = 0
    for rank_from_top, field in enumerate(ranks):
        rank_number = rows - rank_from_top
        squares: list[str] = []
        for offset, char in enumerate(field):
            if char in "xo":
                squares.append(char)
            elif char in "123456789":
                squares.extend("." * int(char))
            else:
                raise InvalidPositionError(
                    f"position text {quote(text)}: unexpected {char!r} at character "
                    f"{offset + 1} of rank {rank_number} ({quote(field)}); "
                    "expected 'x', 'o' or a digit 1-8"
                )
        if cols is None:
            cols = len(squares)
            if not MIN_SIDE <= cols <= MAX_SIDE:
                raise InvalidPositionError(
                    f"position text {quote(text)}: rank {rank_number} ({quote(field)}) has {cols} "
                    f"square(s); a board has {MIN_SIDE} to {MAX_SIDE} files"
                )
        elif len(squares) != cols:
            raise InvalidPositionError(
                f"position text {quote(text)}: rank {rank_number} ({quote(field)}) has "
                f"{len(squares)} square(s) but rank {rows} has {cols}"
            )
        base = (rank_number - 1) * cols
        for file, char in enumerate(squares):
            if char == "x":
                x |= 1 << (base + file)
            elif char == "o":
                o |= 1 << (base + file)
    assert cols is not None
    if side not in COLORS:
        raise InvalidPositionError(
            f"position text {quote(text)}: side to move must be 'x' or 'o', got {quote(side)}"
        )
    plies_left = parse_int(plies, f"position text {quote(text)}: plies left", InvalidPositionError)
    try:
        geometry = board(rows, cols)
    except InvalidSettingsError as exc:  # pragma: no cover - sizes are checked above
        raise InvalidPositionError(f"position text {quote(text)}: {exc}") from exc
    turn: Color = "x" if side == "x" else "o"
    return FenParts(geometry, x, o, turn, plies_left)


def format_fen(geometry: Board, x: Bitboard, o: Bitboard, turn: Color, plies_left: int) -> str:
    """Write position text for the given parts (the inverse of :func:`parse_fen`)."""
    ranks = []
    for rank in range(geometry.rows - 1, -1, -1):
        field = []
        empties = 0
        for file in range(geometry.cols):
            bit = 1 << (rank * geometry.cols + file)
            char = "x" if x & bit else "o" if o & bit else ""
            if char:
                if empties:
                    field.append(str(empties))
                    empties = 0
                field.append(char)
            else:
                empties += 1
        if empties:
            field.append(str(empties))
        ranks.append("".join(field))
    return f"{'/'.join(ranks)} {turn} {plies_left}"
