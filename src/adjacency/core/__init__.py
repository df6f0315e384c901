"""The rules core: boards, positions, notation and game records (the reference)."""

from .board import Bitboard, Board, Square, board, iter_squares, popcount
from .errors import (
    AdjacencyError,
    AdjacencyRuntimeError,
    IllegalMoveError,
    InputTooLargeError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidSettingsError,
    InvalidSquareError,
)
from .fen import COLORS, Color, format_fen, parse_fen
from .position import RULES_VERSION, Outcome, Position, check_color, check_rounds, other

__all__ = [
    "COLORS",
    "RULES_VERSION",
    "AdjacencyError",
    "AdjacencyRuntimeError",
    "Bitboard",
    "Board",
    "Color",
    "IllegalMoveError",
    "InputTooLargeError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidSettingsError",
    "InvalidSquareError",
    "Outcome",
    "Position",
    "Square",
    "board",
    "check_color",
    "check_rounds",
    "format_fen",
    "iter_squares",
    "other",
    "parse_fen",
    "popcount",
]
