"""Compile the numba kernels that the suite calls into numba's on-disk cache: ``make
kernels``, before the tests.

A kernel compiles on its first call in a process, or loads from the cache beside its
source. On a fresh clone the cache is empty, so without this step each test process
that first calls a kernel compiles it, several of them at once: the MCTS kernels take
about 9 s of CPU each time. ``make kernels`` runs this beside lint and types instead.

The engine's own :func:`adjacency.engine.warmup` compiles the search and the solver (the
kernels a timed move needs); this adds the rest that the suite calls: the MCTS bot's
playouts, its batched search's halves and the observation planes, the batched
environment's steps and samples, and the pattern evaluation's indices.
"""

from __future__ import annotations

import random

from adjacency.bots.base import Limit
from adjacency.bots.mcts import MctsBot
from adjacency.bots.mcts_batched import engine_evaluator
from adjacency.core import Position
from adjacency.engine import warmup
from adjacency.engine.kernels.patterns import configurations
from adjacency.rl.batch import BatchedEnv


def main() -> None:
    """Every kernel called once on a small board (each constructor warms its own; the
    batched search's engine evaluator is called only by a move)."""
    warmup()
    MctsBot(random.Random(0), tree=1)
    batched = MctsBot(
        random.Random(0), policy="puct", tree=1, simulations=16, evaluator=engine_evaluator()
    )
    batched.choose_move(Position.start(4, 4, 2), Limit(time=None))
    env = BatchedEnv(2, rows=4, cols=4, rounds=2, seed=0)
    env.step(env.sample_actions())
    env.run_random(2)
    configurations(0, 0)


if __name__ == "__main__":
    main()
