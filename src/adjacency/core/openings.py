"""Openings: a position set up as the start of a game of a given length.

An arena run or a league starts its games from openings (a book of positions, or
random plies from the standard start); :func:`retime` fits an opening to the run's
number of rounds, the inverse of :attr:`adjacency.core.game.Game.rounds`.
"""

from __future__ import annotations

from .errors import InvalidSettingsError
from .position import Position


def retime(position: Position, rounds: int, rows: int, cols: int) -> Position:
    """``position`` with its plies left set for a ``rounds``-round game.

    A game of ``rounds`` rounds lasts ``2 * rounds`` plies from the start, and
    every ply adds one piece, so plies left = ``2 * rounds`` minus the pieces
    placed since the start (:attr:`Position.ply_count`).
    """
    if (position.rows, position.cols) != (rows, cols):
        raise InvalidSettingsError(
            f"opening {position.fen()!r} is {position.rows}x{position.cols}, "
            f"but the run plays {rows}x{cols}"
        )
    left = 2 * rounds - position.ply_count
    if left < 1 or left > position.board.size - (position.x | position.o).bit_count():
        raise InvalidSettingsError(
            f"opening {position.fen()!r} has {position.ply_count} plies played; it does not "
            f"fit a {rounds}-round game"
        )
    return Position(position.board, position.x, position.o, position.turn, left)
