"""The exceptions of the rules core.

Every error is a :class:`ValueError` subclass whose message quotes the offending
input and says what would have been accepted, in the style of python-chess.
"""

from __future__ import annotations


class AdjacencyError(ValueError):
    """Base class of every error raised for bad input to the rules core."""


class InvalidSquareError(AdjacencyError):
    """A square name that is malformed or lies outside the board."""


class IllegalMoveError(AdjacencyError):
    """A move that the rules do not allow in the given position."""


class InvalidPositionError(AdjacencyError):
    """Position text (or position parts) that do not describe a legal position."""


class InvalidSettingsError(AdjacencyError):
    """Game settings (board size, rounds, first mover) out of range."""


class InvalidRecordError(AdjacencyError):
    """A game record (text or JSON) that is malformed or does not replay."""
