"""Observations and pictures of positions for learning agents (shared by both environments).

An observation is the dict PettingZoo's classic games use::

    observation   float32 (rows, cols, 4): planes for the observing side's pieces,
                  the opponent's pieces, the empty squares, and the plies left
                  divided by the plies of the whole game (the same in every cell)
    action_mask   int8 (rows * cols,): 1 on the empty squares while the game is on

Cell ``[r, f]`` of a plane is square ``r * cols + f`` (rank ``r + 1``, file
``f``), the core's bit layout (:mod:`adjacency.core.board`), so an action is a
square index and ``plane.reshape(-1)[action]`` is the square it plays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..core import Color, Position
from ..core.board import Bitboard, Board

VERSION = "v0"
"""The observation layout's version (the planes, their order and values, the mask): raised
whenever the same position could be observed differently."""

PLANES = 4
OWN, OPPONENT, EMPTY, PLIES = range(PLANES)

Observation = dict[str, np.ndarray]


def observation_space(geometry: Board) -> spaces.Dict:
    """The observation space of a board size."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                0.0, 1.0, (geometry.rows, geometry.cols, PLANES), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, (geometry.size,), dtype=np.int8),
        }
    )


def bits(bitboards: list[Bitboard], size: int) -> np.ndarray:
    """A ``uint8`` array (len(bitboards), size): bit ``i`` of each bitboard at column ``i``."""
    words = np.array(bitboards, dtype="<u8").view(np.uint8)  # little-endian bytes
    return np.unpackbits(words.reshape(len(bitboards), 8), axis=1, bitorder="little")[:, :size]


def observe(position: Position, color: Color, total_plies: int) -> Observation:
    """The observation of ``position`` from ``color``'s side (``total_plies``: the game's)."""
    geometry = position.board
    own, opp = (position.x, position.o) if color == "x" else (position.o, position.x)
    empty = 0 if position.is_over else position.empty
    unpacked = bits([own, opp, position.empty, empty], geometry.size)
    planes = np.empty((geometry.rows, geometry.cols, PLANES), dtype=np.float32)
    planes[:, :, :PLIES] = unpacked[:PLIES].T.reshape(geometry.rows, geometry.cols, PLIES)
    planes[:, :, PLIES] = position.plies_left / total_plies if total_plies else 0.0
    return {"observation": planes, "action_mask": unpacked[PLIES].astype(np.int8)}


def action_mask(position: Position) -> np.ndarray:
    """1 for every legal move (every empty square while the game is on), else 0."""
    empty = 0 if position.is_over else position.empty
    mask: np.ndarray = bits([empty], position.board.size)[0].astype(np.int8)
    return mask


# ------------------------------------------------------------------ pictures

CELL = 24
"""Pixels per square in ``rgb_array`` pictures."""
LIGHT = (243, 239, 230)
DARK = (228, 220, 203)
GRID = (184, 173, 150)
X_RGB = (198, 40, 40)
O_RGB = (21, 101, 192)


def _piece_masks(cell: int) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks of a cross and a ring in a ``cell`` x ``cell`` square."""
    yy, xx = np.mgrid[0:cell, 0:cell].astype(np.float32) + 0.5
    c = cell / 2
    margin = cell * 0.22
    width = cell * 0.07
    inside = (xx > margin) & (xx < cell - margin) & (yy > margin) & (yy < cell - margin)
    cross = inside & ((np.abs(xx - yy) < width * 1.4) | (np.abs(xx + yy - cell) < width * 1.4))
    radius = np.hypot(xx - c, yy - c)
    ring = np.abs(radius - cell * 0.3) < width
    return cross, ring


def rgb_array(position: Position, cell: int = CELL) -> np.ndarray:
    """A ``uint8`` (height, width, 3) picture of ``position``: rank 1 at the bottom,
    X a red cross, O a blue ring, the same conventions as :mod:`adjacency.core.svg`."""
    geometry = position.board
    image = np.empty((geometry.rows * cell, geometry.cols * cell, 3), dtype=np.uint8)
    cross, ring = _piece_masks(cell)
    for index in range(geometry.size):
        rank, file = divmod(index, geometry.cols)
        top = (geometry.rows - 1 - rank) * cell
        left = file * cell
        block: Any = image[top : top + cell, left : left + cell]
        block[:] = DARK if (rank + file) % 2 == 0 else LIGHT
        block[0, :] = GRID
        block[:, 0] = GRID
        piece = position.piece_at(index)
        if piece == "x":
            block[cross] = X_RGB
        elif piece == "o":
            block[ring] = O_RGB
    return image
