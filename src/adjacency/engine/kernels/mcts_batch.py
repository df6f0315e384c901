"""PUCT with an outside evaluator: leaves gathered in batches under virtual loss.

The tree is that of :mod:`adjacency.engine.kernels.mcts` (the same six arrays, ``T``
and ``P``, node 0 the root, selection by its :func:`~adjacency.engine.kernels.mcts.select`
with ``P[PUCT]`` set), but a leaf's priors and value come from outside compiled code,
a Python callable (a network), so a simulation is cut in two compiled halves with the
evaluator called between them on a whole batch (AlphaZero: Silver et al. 2017):

1. :func:`gather` descends up to ``want`` times. Each descent adds ``P[VIRTUAL]`` to the
   visits of every node on its path (a *virtual loss*: visits without wins, so the next
   descents of the batch turn to other moves) and stops at an unexpanded node. A
   finished game is valued exactly and backed up at once; an unexpanded node is marked
   pending (``count = -1``) and its position and path are written to the batch; a
   descent that reaches a node already pending in this batch takes its virtual loss
   back and is dropped (a *collision*; ``want`` of them end the batch early).
2. The caller evaluates the batch: per leaf, priors over the squares and a value in
   [-1, 1] for the side to move there.
3. :func:`apply` expands each pending leaf with all its moves, their priors the
   evaluator's on the empty squares, renormalised (uniform when they sum to nothing),
   takes back the virtual loss on its path and backs up ``(value + 1) / 2`` as in
   :func:`~adjacency.engine.kernels.mcts.simulate`. When the tree's arrays are full a
   leaf is backed up without being expanded.

``T[SIMULATIONS]`` counts completed simulations: exact terminal ones and applied leaves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import ONE, ZERO, kernel, lowest, play, popcount
from .evaluate import evaluate
from .layout import GEO, SCALE
from .mcts import P_SIZE, SIMULATIONS, USED, backup, descend, new_child, outcome_value

VIRTUAL = P_SIZE
"""Index in ``P`` of the virtual loss: visits added to each node of a pending path."""
P_BATCH_SIZE = P_SIZE + 1
"""Length of ``P`` for these kernels (the ``mcts`` parameters, then ``VIRTUAL``)."""

PENDING = -1
"""``count`` of a leaf waiting for its evaluation."""


@kernel
def _take_back(path: Any, depth: int, visits: Any, amount: float) -> None:
    for d in range(depth + 1):
        visits[path[d]] -= amount


@kernel
def gather(
    me0: Any,
    opp0: Any,
    plies0: int,
    want: int,
    budget: int,
    U: Any,
    P: Any,
    T: Any,
    first: Any,
    count: Any,
    move: Any,
    visits: Any,
    wins: Any,
    prior: Any,
    paths: Any,
    depths: Any,
    leaf_me: Any,
    leaf_opp: Any,
    leaf_plies: Any,
) -> int:
    """Collect up to ``want`` pending leaves (at most ``budget`` simulations, terminal
    ones included) from the root ``me0, opp0, plies0``; returns the leaves collected.
    Leaf ``k``'s path is ``paths[k, :depths[k] + 1]`` (the root first)."""
    virtual = P[VIRTUAL]
    leaves = 0
    collisions = 0
    spent = 0
    while leaves < want and spent < budget and collisions < want:
        path = paths[leaves]
        node, me, opp, plies, depth = descend(
            me0, opp0, plies0, U, P, first, count, move, visits, wins, prior, path
        )
        if plies == 0:
            backup(path, depth, outcome_value(popcount(me) - popcount(opp)), visits, wins)
            T[SIMULATIONS] += 1
            spent += 1
            continue
        if count[node] == PENDING:
            collisions += 1
            continue
        for d in range(depth + 1):
            visits[path[d]] += virtual
        count[node] = PENDING
        depths[leaves] = depth
        leaf_me[leaves] = me
        leaf_opp[leaves] = opp
        leaf_plies[leaves] = plies
        leaves += 1
        spent += 1
    return leaves


@kernel
def apply(
    leaves: int,
    priors: Any,
    values: Any,
    U: Any,
    P: Any,
    T: Any,
    first: Any,
    count: Any,
    move: Any,
    visits: Any,
    wins: Any,
    prior: Any,
    paths: Any,
    depths: Any,
    leaf_me: Any,
    leaf_opp: Any,
) -> None:
    """Expand and back up the ``leaves`` of the last :func:`gather` with ``priors[k, sq]``
    and ``values[k]`` (in [-1, 1], for the side to move at leaf ``k``)."""
    virtual = P[VIRTUAL]
    capacity = first.shape[0]
    for k in range(leaves):
        depth = depths[k]
        path = paths[k]
        node = path[depth]
        empty = U[GEO] & ~(leaf_me[k] | leaf_opp[k])
        n = popcount(empty)
        start = T[USED]
        count[node] = 0
        if start + n <= capacity:
            total = 0.0
            bits = empty
            for i in range(n):
                sq = lowest(bits)
                bits &= bits - ONE
                p = max(0.0, float(priors[k, sq]))
                new_child(start + i, sq, p, first, count, move, visits, wins, prior)
                total += p
            for i in range(n):
                prior[start + i] = prior[start + i] / total if total > 0.0 else 1.0 / n
            T[USED] = start + n
            first[node] = start
            count[node] = n
        _take_back(path, depth, visits, virtual)
        value = min(1.0, max(-1.0, float(values[k])))
        backup(path, depth, 0.5 * (value + 1.0), visits, wins)
        T[SIMULATIONS] += 1


@kernel
def engine_values(me: Any, opp: Any, plies: Any, count: int, U: Any, S: Any, out: Any) -> None:
    """``out[i]``: the engine's evaluation of position ``i`` for its side to move, in
    pieces (the ``mcts`` bot's ``leaf=eval``, before squashing)."""
    for i in range(count):
        if plies[i] == 0:
            out[i] = popcount(me[i]) - popcount(opp[i])
        else:
            out[i] = evaluate(me[i], opp[i], plies[i], U, S) / SCALE


@kernel
def child_values(me: Any, opp: Any, plies: Any, count: int, U: Any, S: Any, out: Any) -> None:
    """``out[i, sq]``: the engine's evaluation, for the side to move at position ``i``, of
    the position after it plays ``sq`` (in pieces; 0 where ``sq`` is not empty)."""
    full = U[GEO]
    for i in range(count):
        for sq in range(out.shape[1]):
            out[i, sq] = 0.0
        empty = full & ~(me[i] | opp[i])
        while empty != ZERO:
            sq = lowest(empty)
            empty &= empty - ONE
            child_me, child_opp, _ = play(me[i], opp[i], sq, U)
            out[i, sq] = -evaluate(child_me, child_opp, plies[i] - 1, U, S) / SCALE


def new_parameters() -> np.ndarray:
    """A zeroed ``P`` of :data:`P_BATCH_SIZE` entries."""
    return np.zeros(P_BATCH_SIZE, dtype=np.float64)
