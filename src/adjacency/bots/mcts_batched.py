"""A network in the search: PUCT whose priors and values come from a Python evaluator.

An *evaluator* is any callable taking a :class:`Leaves` batch (positions as arrays) and
returning ``(priors, values)``: ``priors`` of shape ``(n, rows * cols)`` (any
non-negative weights; only the empty squares count, renormalised) and ``values`` of shape
``(n,)`` in [-1, 1], each for the side to move in its position. So a numpy, PyTorch or
JAX model fits behind a few lines of glue. :class:`BatchedSearch` runs the compiled
halves of :mod:`adjacency.engine.kernels.mcts_batch` around it: a batch of leaves
gathered under virtual loss, one evaluator call, the batch expanded and backed up.

The ``mcts`` bot uses it when built with ``MctsBot(rng, evaluator=...)``; its spec
strings, without an evaluator, keep the compiled search of
:mod:`adjacency.engine.kernels.mcts` and play exactly as before.
:func:`engine_evaluator` and :func:`uniform_evaluator` are evaluators from the engine's
own evaluation: baselines for a network, and the hook's tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core import Position
from ..core.board import Board
from ..engine.kernels import mcts as kp
from ..engine.kernels import mcts_batch as kb
from ..engine.kernels.bits import write_geometry
from ..engine.kernels.evaluate import DEFAULT_WEIGHTS, weights
from ..engine.kernels.layout import NBR, W
from ..engine.kernels.planes import empty_buffers, write_planes
from .base import BotError

MAX_BATCH = 4096
"""The largest batch of leaves one evaluator call may be given."""


@dataclass(frozen=True)
class Leaves:
    """A batch of positions for an evaluator (arrays of length ``n``).

    ``planes`` (float32, ``(n, rows, cols, 4)``) and ``mask`` (int8, ``(n, rows * cols)``)
    are the observation layout of :mod:`adjacency.engine.kernels.planes` (the batched
    environment's), from each position's side to move; ``mover`` and ``opponent`` are its
    bitboards (``uint64``, the core's layout) and ``plies_left`` its plies left. The arrays
    are views of the search's buffers, valid during the call: copy what you keep.
    """

    board: Board
    planes: np.ndarray
    mask: np.ndarray
    mover: np.ndarray
    opponent: np.ndarray
    plies_left: np.ndarray

    def __len__(self) -> int:
        return len(self.mover)


Tree = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""``(first, count, move, visits, wins, prior)``, :mod:`adjacency.engine.kernels.mcts`'s."""

Evaluator = Callable[[Leaves], tuple[np.ndarray, np.ndarray]]
"""``evaluator(leaves) -> (priors (n, rows * cols), values (n,) in [-1, 1])``."""


def checked(leaves: Leaves, answer: object) -> tuple[np.ndarray, np.ndarray]:
    """The evaluator's answer as float64 arrays; :class:`BotError` naming what is wrong."""
    n, size = len(leaves), leaves.board.size
    if not isinstance(answer, tuple) or len(answer) != 2:
        raise BotError(f"an evaluator must return (priors, values), got {type(answer).__name__}")
    priors = np.asarray(answer[0], dtype=np.float64)
    values = np.asarray(answer[1], dtype=np.float64).reshape(-1)
    if priors.shape != (n, size):
        raise BotError(
            f"the evaluator returned priors of shape {priors.shape} for {n} positions of "
            f"{size} squares; expected ({n}, {size})"
        )
    if values.shape != (n,):
        raise BotError(f"the evaluator returned {values.size} values for {n} positions")
    if not (np.isfinite(priors).all() and np.isfinite(values).all()):
        raise BotError("the evaluator returned a NaN or infinite prior or value")
    # values are results for the side to move, priors weights: outside those ranges the
    # search would back up impossible results or renormalise by a sum of zero
    outside = np.flatnonzero(np.abs(values) > 1.0)
    if outside.size:
        i = int(outside[0])
        raise BotError(
            f"the evaluator returned value {float(values[i])} for position {i}; values are "
            "results for the side to move, in [-1, 1]"
        )
    negative = np.argwhere(priors < 0)
    if negative.size:
        i, square = (int(v) for v in negative[0])
        raise BotError(
            f"the evaluator returned a negative prior ({float(priors[i, square])}) for square "
            f"{square} of position {i}; priors must be >= 0"
        )
    legal = np.asarray(leaves.mask) > 0
    empty = np.flatnonzero(legal.any(axis=1) & ((priors * legal).sum(axis=1) <= 0))
    if empty.size:
        raise BotError(
            f"the evaluator returned priors that are 0 on every legal square of position "
            f"{int(empty[0])}; some legal square needs a positive prior"
        )
    return np.ascontiguousarray(priors), np.ascontiguousarray(values)


class BatchedSearch:
    """PUCT over a tree held in arrays, leaves valued ``batch`` at a time by ``evaluator``.

    ``tree`` is ``(first, count, move, visits, wins, prior)`` and ``T`` the counters, the
    arrays of :mod:`adjacency.engine.kernels.mcts` (the ``mcts`` bot passes its own;
    ``None`` allocates ``capacity`` nodes). ``virtual_loss`` is the visits each pending
    path carries until its leaf is backed up.
    """

    def __init__(
        self,
        evaluator: Evaluator,
        batch: int = 8,
        c: float = 1.5,
        virtual_loss: float = 1.0,
        capacity: int = 200_000,
        tree: Tree | None = None,
        T: np.ndarray | None = None,
    ) -> None:
        if not callable(evaluator):
            raise BotError(f"an evaluator must be callable, got {type(evaluator).__name__}")
        if isinstance(batch, bool) or not isinstance(batch, int) or not 1 <= batch <= MAX_BATCH:
            raise BotError(f"batch must be a whole number from 1 to {MAX_BATCH}, got {batch!r}")
        if not (math.isfinite(c) and c >= 0 and math.isfinite(virtual_loss) and virtual_loss >= 0):
            raise BotError(f"c and virtual_loss must be finite and >= 0, got {c}, {virtual_loss}")
        self.evaluator = evaluator
        self.batch = batch
        if tree is None:
            tree = (
                np.zeros(capacity, dtype=np.int32),
                np.zeros(capacity, dtype=np.int32),
                np.zeros(capacity, dtype=np.int32),
                np.zeros(capacity, dtype=np.float64),
                np.zeros(capacity, dtype=np.float64),
                np.zeros(capacity, dtype=np.float64),
            )
        self.tree = tree
        self.T = np.zeros(kp.T_SIZE, dtype=np.int64) if T is None else T
        self.P = kb.new_parameters()
        self.P[kp.C] = c
        self.P[kp.PUCT] = 1.0
        self.P[kb.VIRTUAL] = virtual_loss
        self.U = np.zeros(NBR + 64, dtype=np.uint64)
        self._board: Board | None = None
        self.paths = np.zeros((batch, kp.PATH_SIZE), dtype=np.int64)
        self.depths = np.zeros(batch, dtype=np.int64)
        self.leaf_me = np.zeros(batch, dtype=np.uint64)
        self.leaf_opp = np.zeros(batch, dtype=np.uint64)
        self.leaf_plies = np.zeros(batch, dtype=np.int64)
        self.batch_sizes: list[int] = []
        """The size of every evaluator call of the last :meth:`run`."""

    def warm(self) -> None:
        """Compile (or load from numba's cache) the kernels now, with a stand-in evaluator
        (uniform priors, value 0) on a 4x4 board, rather than during a first timed move."""
        evaluator = self.evaluator
        self.evaluator = _uniform
        try:
            start = Position.start(4, 4, 1)
            self.run(start.board, start.mover, start.opponent, 2, 2, 3)
        finally:
            self.evaluator = evaluator
            self._board = None

    def reset(self, board: Board) -> None:
        """An empty tree (the root alone) for a position on ``board``."""
        if board != self._board:
            write_geometry(board, self.U)
            self._board = board
            self._planes, self._mask = empty_buffers(self.batch, board.rows, board.cols)
        first, count, move, visits, wins, prior = self.tree
        self.T[:] = 0
        self.T[kp.USED] = 1
        first[0] = count[0] = move[0] = 0
        visits[0] = wins[0] = prior[0] = 0.0
        self.batch_sizes = []

    def run(
        self,
        board: Board,
        mover: int,
        opponent: int,
        plies_left: int,
        total_plies: int,
        simulations: int,
        keep_going: Callable[[], bool] | None = None,
    ) -> int:
        """Search the position (``mover`` to move, ``plies_left`` > 0) for ``simulations``
        simulations from an empty tree, or until ``keep_going()`` says no (asked between
        batches); returns the simulations run."""
        if plies_left <= 0:
            raise BotError("the game is over: there is no move to search")
        self.reset(board)
        me, opp = np.uint64(mover), np.uint64(opponent)
        # What gather and apply both read and write: the geometry, the parameters, the
        # counters, the tree, and each pending path with its leaf.
        state = (
            self.U,
            self.P,
            self.T,
            *self.tree,
            self.paths,
            self.depths,
            self.leaf_me,
            self.leaf_opp,
        )
        while self.T[kp.SIMULATIONS] < simulations:
            if keep_going is not None and self.T[kp.SIMULATIONS] > 0 and not keep_going():
                break
            want = min(self.batch, simulations - int(self.T[kp.SIMULATIONS]))
            budget = simulations - int(self.T[kp.SIMULATIONS])
            n = int(
                kb.gather(
                    me,
                    opp,
                    plies_left,
                    want,
                    budget,
                    *state,
                    self.leaf_plies,
                )
            )
            if n == 0:
                continue
            priors, values = self._evaluate(n, board, total_plies)
            kb.apply(
                n,
                priors,
                values,
                *state,
            )
        return int(self.T[kp.SIMULATIONS])

    def _evaluate(self, n: int, board: Board, total_plies: int) -> tuple[np.ndarray, np.ndarray]:
        write_planes(
            self.leaf_me, self.leaf_opp, self.leaf_plies, total_plies, n, self._planes, self._mask
        )
        leaves = Leaves(
            board,
            self._planes[:n],
            self._mask[:n],
            self.leaf_me[:n],
            self.leaf_opp[:n],
            self.leaf_plies[:n],
        )
        self.batch_sizes.append(n)
        return checked(leaves, self.evaluator(leaves))

    def root_visits(self) -> tuple[np.ndarray, np.ndarray]:
        """``(squares, visits)`` of the root's moves after :meth:`run`."""
        first, count, move, visits, _, _ = self.tree
        start, end = int(first[0]), int(first[0]) + int(count[0])
        return move[start:end].astype(np.int64), visits[start:end].copy()

    def best_move(self) -> int:
        """The most visited root move."""
        squares, visits = self.root_visits()
        return int(squares[int(np.argmax(visits))])


def _uniform(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
    return leaves.mask.astype(np.float64), np.zeros(len(leaves))


class EngineEvaluator:
    """The engine's positional evaluation as an evaluator: values ``tanh(pieces / (2 *
    scale))`` (the ``mcts`` bot's ``leaf=eval`` squashing, on [-1, 1]); priors a softmax
    of each move's evaluation at ``temperature`` pieces (its PUCT priors), or uniform
    with ``uniform=True``."""

    def __init__(self, temperature: float = 1.0, scale: float = 2.0, uniform: bool = False):
        self.temperature = temperature
        self.scale = scale
        self.uniform = uniform
        self.U = np.zeros(NBR + 64, dtype=np.uint64)
        self.S = np.zeros(W + len(DEFAULT_WEIGHTS), dtype=np.int64)
        self.S[W:] = weights("positional")
        self._board: Board | None = None

    def __call__(self, leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        if leaves.board != self._board:
            write_geometry(leaves.board, self.U)
            self._board = leaves.board
        n = len(leaves)
        pieces = np.zeros(n, dtype=np.float64)
        kb.engine_values(
            leaves.mover, leaves.opponent, leaves.plies_left, n, self.U, self.S, pieces
        )
        values = np.tanh(pieces / (2.0 * self.scale))
        legal = leaves.mask.astype(bool)
        if self.uniform:
            return legal.astype(np.float64), values
        scores = np.zeros((n, leaves.board.size), dtype=np.float64)
        kb.child_values(leaves.mover, leaves.opponent, leaves.plies_left, n, self.U, self.S, scores)
        scores = np.where(legal, scores / self.temperature, -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        priors = np.exp(scores)
        return priors, values


def engine_evaluator(temperature: float = 1.0, scale: float = 2.0) -> Evaluator:
    """The engine's evaluation for priors and values (see :class:`EngineEvaluator`)."""
    return EngineEvaluator(temperature, scale)


def uniform_evaluator(scale: float = 2.0) -> Evaluator:
    """Uniform priors over the legal moves, the engine's evaluation for values."""
    return EngineEvaluator(scale=scale, uniform=True)
