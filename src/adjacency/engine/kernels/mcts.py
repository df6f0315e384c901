"""Compiled Monte Carlo tree search: playouts and the tree, for the ``mcts`` bot.

One call of :func:`simulate` runs a batch of simulations on a tree kept in flat
arrays, so the Python driver (:mod:`adjacency.bots.mcts`) can watch the clock
between batches while all per-simulation work stays compiled. A simulation is
the classic four steps (Browne et al., "A Survey of Monte Carlo Tree Search
Methods", IEEE TCIAIG 2012):

1. *selection*: from the root, descend through expanded nodes by UCT or PUCT
   (:func:`select`), replaying the moves on the bitboards (nodes store only
   their move, never a position);
2. *expansion*: a leaf visited ``P[EXPAND]`` times before (the root: always)
   gets all its children at once, in a random order, one block of the arrays;
3. *evaluation*: the final margin if the game is over there, else a playout
   (:func:`playout`) or, with ``P[LEAF_EVAL]``, the engine's evaluation
   squashed to a win probability;
4. *backup*: every node on the path adds the result for the side that moved
   into it (1 win, 0.5 draw, 0 loss).

The tree, one entry per node (``first``, ``count`` and ``move`` are ``int32``,
the rest ``float64``)::

    first[n]    index of n's first child (its children are contiguous)
    count[n]    number of children (0: a leaf, not yet expanded)
    move[n]     the square played to reach n from its parent
    visits[n]   simulations through n
    wins[n]     their results for the side that played move[n]
    prior[n]    the policy's probability of move[n] (PUCT only)

Node 0 is the root. ``T[USED]`` counts nodes in use, ``T[SIMULATIONS]`` the
simulations completed, and ``T[STOP]`` is the abort flag; when the arrays are full,
leaves stay leaves and the search goes on with playouts from them. ``P`` holds
the parameters (indices below); ``R[0]`` is the xorshift64* random state, so a
search is reproducible from its seed and its number of simulations.
Bitboards follow :mod:`adjacency.engine.kernels.bits`; ``S`` carries the evaluation
weights at ``S[W:]`` (:mod:`adjacency.engine.kernels.evaluate`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .bits import ONE, U64, ZERO, gain_bits, inline_kernel, kernel, lowest, play, popcount
from .evaluate import evaluate
from .layout import GEO, SCALE

# Parameter indices of P (float64).
C = 0
"""Exploration constant: UCT's ``c`` or PUCT's ``c_puct``."""
PUCT = 1
"""1.0: PUCT with evaluation priors; 0.0: UCT."""
GREEDY = 2
"""1.0: epsilon-greedy playouts; 0.0: uniformly random playouts."""
EPSILON = 3
"""Probability of a random move in a greedy playout."""
LEAF_EVAL = 4
"""1.0: value leaves with the evaluation instead of a playout."""
EXPAND = 5
"""Visits a leaf needs before it is expanded."""
TEMPERATURE = 6
"""Softmax temperature of the PUCT priors, in pieces."""
EVAL_SCALE = 7
"""Pieces of evaluation per unit of logit when squashing a leaf evaluation to a win rate."""
P_SIZE = 8

# Counter indices of T (int64).
USED = 0
SIMULATIONS = 1
STOP = 2
"""Abort flag: another thread (the bot's timer or a stop request) sets it; every
simulation reads it, so a batch ends within one simulation."""
T_SIZE = 3

MAX_CHILDREN = 64
PATH_SIZE = 80
"""Longer than any game: at most 56 plies on 8x8, plus the root."""

MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
S12 = np.uint64(12)
S25 = np.uint64(25)
S27 = np.uint64(27)
S11 = np.uint64(11)
UNIT = 1.0 / 9007199254740992.0
"""2**-53: turns 53 random bits into a float in [0, 1)."""


def seed_state(seed: int) -> np.ndarray:
    """A random state ``R`` for the kernels from any integer (never the all-zero state)."""
    value = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64)
    return np.array([value or 1], dtype=np.uint64)


@kernel
def next_random(R: Any) -> U64:
    """The next 64 random bits (xorshift64*, Vigna 2016)."""
    x = R[0]
    x ^= x >> S12
    x ^= x << S25
    x ^= x >> S27
    R[0] = x
    return x * MULTIPLIER


@kernel
def random_unit(R: Any) -> float:
    """A uniform float in [0, 1)."""
    return float(next_random(R) >> S11) * UNIT


@kernel
def random_below(n: int, R: Any) -> int:
    """A uniform integer in [0, n) for 0 < n <= 64 (the bias of ``%`` is below 2**-58)."""
    return int((next_random(R) >> S11) % np.uint64(n))


@kernel
def pick(mask: U64, R: Any) -> int:
    """A uniformly random square of the non-empty bitboard ``mask``."""
    skip = random_below(popcount(mask), R)
    for _ in range(skip):
        mask &= mask - ONE
    return lowest(mask)


@kernel
def best_squares(target: U64, empty: U64, U: Any) -> U64:
    """The squares of ``empty`` with the most orthogonal neighbours in ``target``, from
    the count's bits ``b2 b1 b0`` per square
    (:func:`~adjacency.engine.kernels.bits.gain_bits`, whose count
    :func:`~adjacency.engine.kernels.bits.max_gain` returns). All of ``empty`` when no
    square touches ``target``.
    """
    b0, b1, b2 = gain_bits(target, empty, U)
    if b2 != ZERO:
        return b2  # type: ignore[no-any-return]
    if (b1 & b0) != ZERO:
        return b1 & b0  # type: ignore[no-any-return]
    if b1 != ZERO:
        return b1  # type: ignore[no-any-return]
    if b0 != ZERO:
        return b0  # type: ignore[no-any-return]
    return empty  # type: ignore[no-any-return]


@kernel
def playout(me: U64, opp: U64, plies: int, U: Any, R: Any, greedy: bool, epsilon: float) -> int:
    """Play ``plies`` moves from (``me`` to move, ``opp``) and return ``me``'s final margin.

    Random playouts pick a uniformly random empty square; greedy ones pick one of
    the squares converting the most opponent pieces (random tie-break), except
    with probability ``epsilon``, when they pick a random square.
    """
    full = U[GEO]
    mine = True
    while plies > 0:
        empty = full & ~(me | opp)
        if greedy and random_unit(R) >= epsilon:
            square = pick(best_squares(opp, empty, U), R)
        else:
            square = pick(empty, R)
        me, opp, _ = play(me, opp, square, U)
        mine = not mine
        plies -= 1
    margin = popcount(me) - popcount(opp)
    return margin if mine else -margin


@kernel
def outcome_value(margin: int) -> float:
    """1 for a won margin, 0.5 for a draw, 0 for a loss."""
    if margin > 0:
        return 1.0
    if margin < 0:
        return 0.0
    return 0.5


@kernel
def select(node: int, P: Any, first: Any, count: Any, visits: Any, wins: Any, prior: Any) -> int:
    """The child of an expanded ``node`` to descend into.

    UCT (Kocsis & Szepesvári 2006): the first unvisited child (children are in
    random order), else the maximum of ``w/n + c * sqrt(ln N / n)``.
    PUCT (Rosin 2011; Silver et al. 2017): the maximum of
    ``q + c * p * sqrt(N) / (1 + n)``, where an unvisited child's ``q`` is the
    node's own value for its mover (first-play urgency) and ``p`` its prior.
    """
    start: int = first[node]
    end: int = start + count[node]
    parent = visits[node]
    c = P[C]
    best: int = start
    best_score = -1e300
    if P[PUCT] != 0.0:
        fpu = 1.0 - wins[node] / parent if parent > 0 else 0.5
        root_n = math.sqrt(parent)
        for child in range(start, end):
            n = visits[child]
            q = wins[child] / n if n > 0 else fpu
            value = q + c * prior[child] * root_n / (1.0 + n)
            if value > best_score:
                best_score = value
                best = child
        return best
    log_n = math.log(parent) if parent > 1 else 0.0
    for child in range(start, end):
        n = visits[child]
        if n == 0:
            return child
        value = wins[child] / n + c * math.sqrt(log_n / n)
        if value > best_score:
            best_score = value
            best = child
    return best


@inline_kernel
def descend(
    me: U64,
    opp: U64,
    plies: int,
    U: Any,
    P: Any,
    first: Any,
    count: Any,
    move: Any,
    visits: Any,
    wins: Any,
    prior: Any,
    path: Any,
) -> tuple[int, U64, U64, int, int]:
    """From the root (``me`` to move, ``plies`` left) down the selected children to a
    node without children: ``(node, me, opp, plies, depth)`` there, its path written to
    ``path[:depth + 1]`` (the root first): the batched search's descent
    (:func:`~.mcts_batch.gather`). :func:`simulate` writes the same loop out: called
    there, even inlined, this made the serial search 5-7% slower (CPU seconds of 250,000
    simulations from the start, side by side at a load of 8)."""
    node = 0
    depth = 0
    path[0] = 0
    while count[node] > 0:
        node = select(node, P, first, count, visits, wins, prior)
        me, opp, _ = play(me, opp, move[node], U)
        plies -= 1
        depth += 1
        path[depth] = node
    return node, me, opp, plies, depth


@inline_kernel
def new_child(
    child: int, square: int, p: float, first: Any, count: Any, move: Any, visits: Any,
    wins: Any, prior: Any,
) -> None:  # fmt: skip
    """Make ``child`` a fresh node for the move ``square`` with prior ``p``."""
    move[child] = square
    first[child] = 0
    count[child] = 0
    visits[child] = 0.0
    wins[child] = 0.0
    prior[child] = p


@inline_kernel
def backup(path: Any, depth: int, result: float, visits: Any, wins: Any) -> None:
    """Add one visit and ``result`` (for the side to move at ``path[depth]``) up the path,
    each node's wins for the side that moved into it."""
    for d in range(depth, -1, -1):
        at = path[d]
        visits[at] += 1.0
        wins[at] += 1.0 - result
        result = 1.0 - result


@kernel
def expand(
    node: int,
    me: U64,
    opp: U64,
    plies: int,
    U: Any,
    S: Any,
    P: Any,
    R: Any,
    T: Any,
    first: Any,
    count: Any,
    move: Any,
    visits: Any,
    wins: Any,
    prior: Any,
) -> bool:
    """Give ``node`` (``me`` to move, ``plies`` > 0 left) all its children; False if full."""
    empty = U[GEO] & ~(me | opp)
    n = popcount(empty)
    start = T[USED]
    if start + n > first.shape[0]:
        return False
    squares = np.empty(MAX_CHILDREN, dtype=np.int64)
    i = 0
    while empty != ZERO:
        squares[i] = lowest(empty)
        empty &= empty - ONE
        i += 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates: unvisited children are tried in random order
        j = random_below(i + 1, R)
        squares[i], squares[j] = squares[j], squares[i]
    for i in range(n):
        new_child(start + i, squares[i], 0.0, first, count, move, visits, wins, prior)
    if P[PUCT] != 0.0:
        # Priors: a softmax of the mover's evaluation of each child, in pieces.
        top = -1e300
        for i in range(n):
            child_me, child_opp, _ = play(me, opp, squares[i], U)
            score = -evaluate(child_me, child_opp, plies - 1, U, S) / SCALE
            prior[start + i] = score
            top = max(top, score)
        total = 0.0
        for i in range(n):
            weight = math.exp((prior[start + i] - top) / P[TEMPERATURE])
            prior[start + i] = weight
            total += weight
        for i in range(n):
            prior[start + i] /= total
    T[USED] = start + n
    first[node] = start
    count[node] = n
    return True


@kernel
def leaf_value(me: U64, opp: U64, plies: int, U: Any, S: Any, P: Any, R: Any) -> float:
    """The value of a leaf for its side to move, in [0, 1]."""
    if plies == 0:
        return outcome_value(popcount(me) - popcount(opp))
    if P[LEAF_EVAL] != 0.0:
        pieces = evaluate(me, opp, plies, U, S) / SCALE
        return 1.0 / (1.0 + math.exp(-pieces / P[EVAL_SCALE]))
    return outcome_value(playout(me, opp, plies, U, R, P[GREEDY] != 0.0, P[EPSILON]))


@kernel
def simulate(
    me0: U64,
    opp0: U64,
    plies0: int,
    simulations: int,
    U: Any,
    S: Any,
    P: Any,
    R: Any,
    T: Any,
    first: Any,
    count: Any,
    move: Any,
    visits: Any,
    wins: Any,
    prior: Any,
) -> None:
    """Run ``simulations`` simulations from the root (``me0`` to move, ``plies0`` > 0 left),
    fewer if ``T[STOP]`` gets set; ``T[SIMULATIONS]`` counts those completed."""
    path = np.empty(PATH_SIZE, dtype=np.int64)
    for _ in range(simulations):
        if T[STOP] != 0:
            return
        node = 0
        me = me0
        opp = opp0
        plies = plies0
        depth = 0
        path[0] = 0
        while count[node] > 0:
            node = select(node, P, first, count, visits, wins, prior)
            me, opp, _ = play(me, opp, move[node], U)
            plies -= 1
            depth += 1
            path[depth] = node
        if (
            plies > 0
            and (node == 0 or visits[node] >= P[EXPAND])
            and expand(node, me, opp, plies, U, S, P, R, T, first, count, move, visits, wins, prior)
        ):
            node = select(node, P, first, count, visits, wins, prior)
            me, opp, _ = play(me, opp, move[node], U)
            plies -= 1
            depth += 1
            path[depth] = node
        backup(path, depth, leaf_value(me, opp, plies, U, S, P, R), visits, wins)
        T[SIMULATIONS] += 1
