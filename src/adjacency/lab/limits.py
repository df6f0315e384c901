"""The search lab's bounds: depths, node caps and sizes every lab request is held to.

One place for the numbers, so the Python room, the web API and the docs agree.
A lab search runs the real bots, whose cost grows like the branching factor to
the depth, so the depth is bounded by board size and the traced tree by a node
cap; a request beyond a bound gets :class:`LabError` naming the allowed range
(the web app answers it with 400), and nothing is searched.
"""

from __future__ import annotations

from ..core import Position
from ..core.errors import AdjacencyError

NODE_CAP = 20_000
"""Most tree nodes a traced search keeps (the default and the shared-server cap)."""
COUNT_CAP = 3_000_000
"""Most search nodes one technique may visit in a side-by-side count before it is cut."""
SMALL_BOARD = 36
"""Boards of at most this many squares may be searched deeper."""
MAX_DEPTH_LARGE = 4
"""Deepest tree on boards larger than :data:`SMALL_BOARD` squares (8x8: 1-4)."""
MAX_DEPTH_SMALL = 6
"""Deepest tree on boards of at most :data:`SMALL_BOARD` squares."""
MAX_STEPS = 2_000
"""Most steps a local-search trace keeps."""
MAX_GENERATIONS = 200
"""Most generations a genetic-algorithm trace runs."""
MAX_POPULATION = 200
"""Largest population a genetic-algorithm trace runs."""


class LabError(AdjacencyError):
    """A lab request out of range (depth, cap, size) or on a position that is over."""


def max_depth(position: Position) -> int:
    """The deepest tree the lab searches on ``position``'s board size."""
    squares = position.rows * position.cols
    return MAX_DEPTH_SMALL if squares <= SMALL_BOARD else MAX_DEPTH_LARGE


def check_whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` if it is a whole number in ``[low, high]``, else :class:`LabError`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise LabError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    return value


def check_position(position: Position) -> Position:
    """``position`` if a bot can move in it, else :class:`LabError` saying it is over."""
    if position.is_over:
        x, o = position.score
        raise LabError(
            f"the position is over ({x}-{o}, no plies left): there is no search to show; "
            f"pick a position with moves left"
        )
    return position


def check_depth(position: Position, depth: object) -> int:
    """A tree depth allowed on ``position``'s board (see :func:`max_depth`)."""
    return check_whole("depth", depth, 1, max_depth(position))
