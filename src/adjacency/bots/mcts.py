"""The ``mcts`` bot: Monte Carlo tree search with compiled playouts.

MCTS grows a search tree one simulation at a time: descend by a bandit rule,
expand a leaf, estimate it by playing the game out (or by the engine's
evaluation), and back the result up the path (Browne et al. 2012). It needs no
evaluation function, and it is anytime: stopping after any simulation, the
most visited root move is the answer. All of a simulation is compiled
(:mod:`adjacency.engine.kernels.mcts`); this module drives batches of simulations
from Python between two looks at the clock, sizing each batch to a small slice
of the time left so the bot answers on time.

Two selection rules: UCT, the mean result plus ``c * sqrt(ln N / n)``, with
random or epsilon-greedy playouts; and PUCT, ``q + c * p * sqrt(N) / (1 + n)``,
whose priors ``p`` are a softmax of the engine's evaluation of each move, so
search effort goes first to the moves the evaluation likes (the AlphaZero rule
with the evaluation in place of a network). docs/bots.md gives the options.

Built in Python with ``evaluator=`` (a network, :mod:`adjacency.bots.mcts_batched`), the
bot runs PUCT with that evaluator's priors and values instead, leaves evaluated
``batch`` at a time under virtual loss; the spec strings never set one, so every
spec plays as before.

``nodes`` in a :class:`~adjacency.bots.base.Limit` counts simulations, exactly,
so a seeded search with a node limit is reproducible; ``depth`` does not apply.

The compiled kernels are imported by the methods that call them, not at the top: the
bot catalogue imports this module to list the bot, and a command or a worker that
builds another bot then loads no numba (about half a second of CPU).
"""

from __future__ import annotations

import random
import threading
import time
from typing import TYPE_CHECKING

import numpy as np

from ..core import Position
from ..core.board import Board
from ..engine.kernels.layout import NBR, W
from .base import Bot, Search, Thinking
from .registry import Option, register

if TYPE_CHECKING:
    from .mcts_batched import BatchedSearch, Evaluator

NODE_BYTES = 4 + 4 + 4 + 8 + 8 + 8
"""Bytes per tree node: first, count, move (int32); visits, wins, prior (float64)."""

DEFAULT_SIMULATIONS = 20_000
"""Simulations per move when neither the caller's limit nor the options bound the search."""

FIRST_BATCH = 64
"""Simulations in the first compiled call of a move, before the rate is known."""
SLICE = 0.2
"""Each batch is sized to take at most this fraction of the time left (and ``MAX_SLICE``)."""
MAX_SLICE = 0.05
"""Seconds one batch may take at most: the bot looks at the clock and stop flag this often."""
REPORT_EVERY = 0.25
"""Seconds between two Thinking reports."""

MAX_CHILDREN_BLOCK = 4096
"""The smallest tree: room for the root's children and some expansions on any board."""

EVAL_SCALE = 2.0
"""Pieces of evaluation per logit unit when ``leaf=eval`` turns an evaluation into a win rate:
a 2-piece lead reads as 73%, 4 pieces as 88%."""


@register(
    "mcts",
    "Monte Carlo tree search: UCT with compiled random or greedy playouts, or PUCT "
    "with the engine's evaluation as priors",
    "mcts",
    options=(
        Option("policy", "uct", "selection rule", choices=("uct", "puct")),
        Option("playout", "greedy", "playout policy", choices=("random", "greedy")),
        Option("c", 0.7, "exploration constant (UCT c, PUCT c_puct)", minimum=0.0, maximum=10.0),
        Option(
            "epsilon", 0.1, "chance of a random move in a greedy playout", minimum=0.0, maximum=1.0
        ),
        Option("leaf", "playout", "how leaves are valued", choices=("playout", "eval")),
        Option("expand", 1, "visits a leaf needs before it is expanded", minimum=0, maximum=64),
        Option(
            "temperature",
            1.0,
            "softmax temperature of PUCT priors, in pieces",
            minimum=0.05,
            cap=1000.0,
        ),
        Option(
            "simulations",
            0,
            "simulations per move (0: the caller's limit)",
            minimum=0,
            cap=10_000_000,
        ),
        Option("tree", 64, "tree memory in MB", minimum=1, maximum=4096, cap=256),
    ),
)
class MctsBot(Bot):
    """UCT or PUCT over the compiled kernels; see the module notes."""

    def __init__(
        self,
        rng: random.Random,
        policy: str = "uct",
        playout: str = "greedy",
        c: float = 0.7,
        epsilon: float = 0.1,
        leaf: str = "playout",
        expand: int = 1,
        temperature: float = 1.0,
        simulations: int = 0,
        tree: int = 64,
        evaluator: Evaluator | None = None,
        batch: int = 8,
        virtual_loss: float = 1.0,
    ) -> None:
        from ..engine.kernels import mcts as kp
        from ..engine.kernels.evaluate import DEFAULT_WEIGHTS, weights
        from .mcts_batched import BatchedSearch

        super().__init__()
        self.rng = rng
        self.simulations = simulations or None
        capacity = max(MAX_CHILDREN_BLOCK, tree * 1024 * 1024 // NODE_BYTES)
        self.first = np.zeros(capacity, dtype=np.int32)
        self.count = np.zeros(capacity, dtype=np.int32)
        self.move = np.zeros(capacity, dtype=np.int32)
        self.visits = np.zeros(capacity, dtype=np.float64)
        self.wins = np.zeros(capacity, dtype=np.float64)
        self.prior = np.zeros(capacity, dtype=np.float64)
        self.U = np.zeros(NBR + 64, dtype=np.uint64)
        self.S = np.zeros(W + len(DEFAULT_WEIGHTS), dtype=np.int64)
        self.S[W:] = weights("positional")
        self.P = np.zeros(kp.P_SIZE, dtype=np.float64)
        self.P[kp.C] = c
        self.P[kp.PUCT] = float(policy == "puct")
        self.P[kp.GREEDY] = float(playout == "greedy")
        self.P[kp.EPSILON] = epsilon
        self.P[kp.LEAF_EVAL] = float(leaf == "eval")
        self.P[kp.EXPAND] = expand
        self.P[kp.TEMPERATURE] = temperature
        self.P[kp.EVAL_SCALE] = EVAL_SCALE
        self.T = np.zeros(kp.T_SIZE, dtype=np.int64)
        self._board: Board | None = None
        self._batched: BatchedSearch | None = None
        if evaluator is not None:
            tree_arrays = (self.first, self.count, self.move, self.visits, self.wins, self.prior)
            self._batched = BatchedSearch(
                evaluator, batch, c, virtual_loss, tree=tree_arrays, T=self.T
            )
        self._warm()

    def _warm(self) -> None:
        """Compile (or load from numba's cache) the kernels now, not during the first move."""
        from ..engine.kernels import mcts as kp

        position = Position.start(4, 4, 1)
        self._reset(position)
        kp.simulate(*self._root(position), 2, *self._arrays(kp.seed_state(0)))
        if self._batched is not None:
            self._batched.warm()

    def _reset(self, position: Position) -> None:
        from ..engine.kernels import mcts as kp
        from ..engine.kernels.bits import write_geometry

        if position.board != self._board:
            write_geometry(position.board, self.U)
            self._board = position.board
        self.T[:] = 0  # clears the abort flag too
        self.T[kp.USED] = 1
        self.first[0] = self.count[0] = self.move[0] = 0
        self.visits[0] = self.wins[0] = self.prior[0] = 0.0

    def _root(self, position: Position) -> tuple[np.uint64, np.uint64, int]:
        return np.uint64(position.mover), np.uint64(position.opponent), position.plies_left

    def _arrays(self, state: np.ndarray) -> tuple[np.ndarray, ...]:
        return (
            self.U,
            self.S,
            self.P,
            state,
            self.T,
            self.first,
            self.count,
            self.move,
            self.visits,
            self.wins,
            self.prior,
        )

    @property
    def simulations_done(self) -> int:
        """Simulations run for the last move."""
        from ..engine.kernels import mcts as kp

        return int(self.T[kp.SIMULATIONS])

    def _budget(self, search: Search) -> int | None:
        caps = [n for n in (self.simulations, search.limit.nodes) if n is not None]
        if caps:
            return min(caps)
        if search.deadline is None:
            return DEFAULT_SIMULATIONS
        return None

    def stop(self) -> None:
        from ..engine.kernels import mcts as kp

        super().stop()
        self.T[kp.STOP] = 1

    def _choose(self, position: Position, search: Search) -> str:
        from ..engine.kernels import mcts as kp

        if self._batched is not None:
            return self._choose_batched(position, search)
        state = kp.seed_state(self.rng.getrandbits(63))
        self._reset(position)
        root = self._root(position)
        arrays = self._arrays(state)
        budget = self._budget(search)
        timer = None
        if search.deadline is not None:
            # The kernels release the GIL: the timer sets the abort flag on time even when
            # a batch was sized for a faster machine (or this process lost its CPU).
            timer = threading.Timer(max(0.0, search.remaining()), self.stop)
            timer.daemon = True
            timer.start()
        batch = FIRST_BATCH
        last_report = time.monotonic()
        try:
            while True:
                done = self.simulations_done
                if budget is not None:
                    if done >= budget:
                        break
                    batch = min(batch, budget - done)
                began = time.monotonic()
                kp.simulate(*root, batch, *arrays)
                now = time.monotonic()
                left = search.remaining()  # one reading of the search's clock per batch
                if left <= 0 or self._stop.is_set():
                    break
                rate = (self.simulations_done - done) / max(now - began, 1e-6)
                batch = max(1, min(1 << 20, int(rate * min(MAX_SLICE, SLICE * left))))
                if now - last_report >= REPORT_EVERY:
                    search.publish(self._thinking(position, search))
                    last_report = now
        finally:
            if timer is not None:
                timer.cancel()
        if self.count[0] == 0:  # no time at all: one simulation still ranks the moves
            self.T[kp.STOP] = 0
            kp.simulate(*root, 1, *arrays)
        thinking = self._thinking(position, search)
        search.publish(thinking)
        return thinking.pv[0]

    def _choose_batched(self, position: Position, search: Search) -> str:
        """PUCT with the evaluator: batches until the budget or the clock runs out."""
        assert self._batched is not None
        budget = self._budget(search)
        self._batched.run(
            position.board,
            position.mover,
            position.opponent,
            position.plies_left,
            self._game_plies(position),
            budget if budget is not None else 1 << 40,
            lambda: search.remaining() > 0 and not self._stop.is_set(),
        )
        thinking = self._thinking(position, search)
        search.publish(thinking)
        return thinking.pv[0]

    @staticmethod
    def _game_plies(position: Position) -> int:
        """The plies of the whole game, for the plies plane: those played plus those left."""
        return max(1, position.ply_count + position.plies_left)

    def _best_child(self, node: int) -> int:
        start = int(self.first[node])
        end = start + int(self.count[node])
        return start + int(np.argmax(self.visits[start:end]))

    def _thinking(self, position: Position, search: Search) -> Thinking:
        pv: list[str] = []
        node = 0
        while self.count[node] > 0 and len(pv) < position.plies_left:
            node = self._best_child(node)
            pv.append(position.board.name(int(self.move[node])))
        best = self._best_child(0)
        visits = float(self.visits[best])
        rate = float(self.wins[best]) / visits if visits else 0.5
        return Thinking(
            depth=len(pv),
            nodes=self.simulations_done,
            pv=tuple(pv),
            seconds=search.elapsed(),
            text=f"win rate {rate:.1%} over {visits:.0f} visits",
        )
