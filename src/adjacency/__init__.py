"""adjacency: the Adjacency Strategy Game, its classic AI players, an engine and an arena.

Quick start::

    from . import Position
    pos = Position.start(rows=8, cols=8, rounds=28, first="x")
    nxt = pos.play("c3")
"""

from .core import (
    AdjacencyError,
    IllegalMoveError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidSettingsError,
    InvalidSquareError,
    Position,
)
from .core.game import Game, Move, Termination

__version__ = "0.1.0"

DISTRIBUTION = "adjacency-game"
"""The name the package is installed by (``pip install adjacency-game``: pyproject.toml's
``[project] name``), whose metadata the installed files carry. The import name and the
command stay ``adjacency``; the package index's ``adjacency`` is another project."""

__all__ = [
    "DISTRIBUTION",
    "AdjacencyError",
    "Game",
    "IllegalMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidSettingsError",
    "InvalidSquareError",
    "Move",
    "Position",
    "Termination",
    "__version__",
]
