"""The exact endgame solver: the final margin under perfect play, in pieces.

A negamax alpha-beta to the end of the game with the techniques Othello
endgame solvers use (Buro's and Gunnar Andersson's solvers, Edax):

* null-window probes (PVS inside, and a ``(-1, 1)`` window for win/draw/loss);
* the last three plies special-cased: with one ply left the value is
  ``margin + 1 + 2 * max flips`` computed bit-parallel (no make/unmake, no
  loop); with two left, one loop over the mover's squares and the same formula
  for the reply; with three and four, plain loops over those (no table, no
  move list, no bounds);
* fixed-piece bounds: a piece with no empty orthogonal neighbour can never be
  converted again, so ``margin <= total - 2 * fixed(opp)`` and
  ``margin >= 2 * fixed(me) - total`` (``total`` = pieces at the end);
* a transposition table (salted keys, depth = plies left) with enhanced
  transposition cutoffs (ETC, Plaat et al. 1996): before searching, look up
  every child, and cut off if a child's stored upper bound already proves
  ``>= beta`` for the parent;
* move ordering by the static evaluation (:mod:`adjacency.engine.kernels.evaluate`)
  of each child: material, exposure and the opponent's best reply. It took 4-7x
  fewer nodes than the first version's squares won minus the opponent's best
  immediate reply; with few plies left: by squares won; in the last few, none.
  (Ordering by a shallow heuristic search of each child, as Othello solvers
  do with many empties, saved only ~14% of nodes here, and calling the
  recursive search from the recursive solver broke numba's on-disk cache: a
  second process crashed loading it. So it is not used.)

Kernels take the shared arrays ``U`` and ``S`` (:mod:`adjacency.engine.kernels.layout`);
the thresholds below are defaults for ``S[CFG + CFG_SOLVE_*]``, settable at
run time for tuning.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import (
    I64,
    ONE,
    U64,
    ZERO,
    inline_kernel,
    kernel,
    lowest,
    max_gain,
    play,
    popcount,
    spread,
)
from .evaluate import score
from .layout import (
    CFG,
    CFG_GENERATION,
    CFG_SOLVE_ETC,
    CFG_SOLVE_FEATURES,
    CFG_SOLVE_FIXED,
    CFG_SOLVE_ORDER,
    CFG_SOLVE_TT,
    CFG_SOLVE_TWO_PLY,
    CFG_TT,
    CTL,
    CTL_ABORT,
    GEO,
    GEO_FULL,
    MOVES,
    NBR,
    ROOT,
    ROOT_DONE,
    SCORES,
    SOLVE_CAPTURES_FIRST,
    STAT_NODES,
    STAT_TT_HITS,
    STAT_TT_PROBES,
    STATS,
    Z_PLIES,
    Z_SOLVER,
    ZOB,
)
from .ordering import (
    TT_MOVE_KEY,
    bring_best_forward,
    child_hash,
    record_root,
    should_stop,
)
from .transposition import (
    ABSENT,
    LOWER,
    NO_CUT,
    entry_bound,
    entry_value,
    lookup,
    probe,
    store_result,
)

INF = 1000
TT_MIN = 6
"""Default plies left from which the solver uses the table."""
ETC_MIN = 8
"""Default plies left from which it tries enhanced transposition cutoffs."""
ORDER_MIN = 6
"""Default plies left from which moves are sorted (below: index order)."""
FIXED_MIN = 5
"""Default plies left from which fixed-piece bounds are tried."""
TWO_PLY_MIN = 6
"""Default plies left from which the order uses the two-ply score (below: flips only)."""

ENDGAME_THRESHOLDS = (TT_MIN, ETC_MIN, ORDER_MIN, FIXED_MIN, TWO_PLY_MIN)
"""``S[CFG + CFG_SOLVE_TT .. CFG_SOLVE_TWO_PLY]`` for positions whose board (nearly) fills."""
OPEN_THRESHOLDS = (5, 6, 5, FIXED_MIN, TWO_PLY_MIN)
"""The same for short games, which end with many squares still empty: far-apart moves
commute, so the table and ETC pay from fewer plies left (docs/engine.md)."""
OPEN_END = 8
"""Squares left empty at the game's end from which :data:`OPEN_THRESHOLDS` are used."""


def thresholds(empties: int, plies: int) -> tuple[int, int, int, int, int]:
    """The solver's thresholds for a root with ``empties`` empty squares and ``plies`` left."""
    return OPEN_THRESHOLDS if empties - plies >= OPEN_END else ENDGAME_THRESHOLDS


@kernel
def last_two(me: U64, opp: U64, plies: int, beta: int, U: Any, S: Any) -> int:
    """Exact value with ``plies`` in 0..2 left."""
    diff = popcount(me) - popcount(opp)
    if plies == 0:
        return diff
    empty = U[GEO + GEO_FULL] & ~(me | opp)
    if plies == 1:
        return diff + 1 + 2 * max_gain(opp, empty, U)
    best = -INF
    e = empty
    while e != ZERO:
        sq = lowest(e)
        e &= e - ONE
        S[STATS + STAT_NODES] += 1
        flips = U[NBR + sq] & opp
        bit = ONE << np.uint64(sq)
        # After the move the margin is diff + 1 + 2f; the reply wins 1 + 2 * its best flips.
        v = diff + 2 * popcount(flips) - 2 * max_gain(me | bit | flips, empty ^ bit, U)
        if v > best:
            best = v
            if v >= beta:
                break
    return best


@inline_kernel
def near_first(me: U64, opp: U64, U: Any, S: Any) -> tuple[U64, U64]:
    """``(empty, near)``: the empty squares, and those :func:`last_three` and
    :func:`last_four` try first: with :data:`SOLVE_CAPTURES_FIRST` the ones next to an
    opponent's piece (the moves that convert), else all of them (one pass in index
    order). Inlined: both kernels run it at every node of the tree's bulk."""
    empty = U[GEO + GEO_FULL] & ~(me | opp)
    near = empty & spread(opp, U) if S[CFG + CFG_SOLVE_FEATURES] & SOLVE_CAPTURES_FIRST else empty
    return empty, near


@kernel
def last_three(me: U64, opp: U64, alpha: int, beta: int, U: Any, S: Any) -> int:
    """Exact value with three plies left: plain alpha-beta over :func:`last_two`, with no
    table, ordering or move list (the bulk of the tree's interior nodes are here); with
    :data:`SOLVE_CAPTURES_FIRST`, converting moves first."""
    best = -INF
    empty, near = near_first(me, opp, U, S)
    for part in range(2):
        e = near if part == 0 else empty & ~near
        while e != ZERO:
            sq = lowest(e)
            e &= e - ONE
            S[STATS + STAT_NODES] += 1
            child_me, child_opp, _ = play(me, opp, sq, U)
            v = -last_two(child_me, child_opp, 2, -max(alpha, best), U, S)
            if v > best:
                best = v
                if v >= beta:
                    return best
    return best


@kernel
def last_four(me: U64, opp: U64, alpha: int, beta: int, U: Any, S: Any) -> int:
    """Exact value with four plies left: alpha-beta (null-window probes after the first
    move) over :func:`last_three`, with no table, ordering or move list; with
    :data:`SOLVE_CAPTURES_FIRST`, converting moves first."""
    best = -INF
    empty, near = near_first(me, opp, U, S)
    first = True
    for part in range(2):
        e = near if part == 0 else empty & ~near
        while e != ZERO:
            sq = lowest(e)
            e &= e - ONE
            S[STATS + STAT_NODES] += 1
            child_me, child_opp, _ = play(me, opp, sq, U)
            low = max(alpha, best)
            if first:
                v = -last_three(child_me, child_opp, -beta, -low, U, S)
                first = False
            else:
                v = -last_three(child_me, child_opp, -low - 1, -low, U, S)
                if low < v < beta:
                    v = -last_three(child_me, child_opp, -beta, -v, U, S)
            if v > best:
                best = v
                if v >= beta:
                    return best
    return best


@kernel
def solver_key(h: U64, plies: int, U: Any) -> U64:
    """The table key of a solver node: its hash, the plies left and the solver's salt."""
    return h ^ U[ZOB + Z_PLIES + plies] ^ U[ZOB + Z_SOLVER]


@inline_kernel
def store_solved(
    h: U64, plies: int, best: int, alpha0: int, beta: int, best_move: int, U: Any, S: Any
) -> None:
    """Keep a searched solver node in the table: its fail-soft ``best`` in the window
    ``(alpha0, beta)`` it was searched with, and its best move (-1: none), under
    :func:`solver_key`, when the table is on and ``plies`` reaches ``CFG_SOLVE_TT``.
    The end of :func:`solve`'s nodes and of the split-point solver's
    (:mod:`adjacency.engine.parallel_solve`), which must store alike."""
    if plies >= S[CFG + CFG_SOLVE_TT] and S[CFG + CFG_TT] != 0:
        key = solver_key(h, plies, U)
        store_result(U, key, best, alpha0, beta, plies, best_move, S[CFG + CFG_GENERATION])


@kernel
def prepare(
    me: U64,
    opp: U64,
    plies: int,
    alpha: int,
    beta: int,
    ply: int,
    h: U64,
    color: int,
    U: Any,
    S: Any,
) -> tuple[int, int, int, int]:
    """Everything an interior solver node does before its move loop (5+ plies left).

    Fixed-piece bounds, the table's cut, enhanced transposition cutoffs and the move
    list with its ordering keys in ``S[MOVES + 64 * ply:]`` / ``S[SCORES + 64 * ply:]``.
    Returns ``(n, value, alpha, beta)``: ``n < 0`` when the node is decided without a
    search (its fail-soft ``value``), else the number of moves listed and the window
    narrowed by the fixed-piece bounds. Shared by :func:`solve` and the split-point
    solver (:mod:`adjacency.engine.parallel_solve`), which searches the list in several threads.
    """
    empty = U[GEO + GEO_FULL] & ~(me | opp)
    occupied = me | opp
    if plies >= S[CFG + CFG_SOLVE_FIXED] and ply > 0:
        fixed = occupied & ~spread(empty, U)
        if fixed != ZERO:
            total = popcount(occupied) + plies
            upper = total - 2 * popcount(fixed & opp)
            if upper <= alpha:
                return -1, upper, alpha, beta
            lower = 2 * popcount(fixed & me) - total
            if lower >= beta:
                return -1, lower, alpha, beta
            # Narrow the window to the proven range (values outside it cannot occur).
            if upper < beta:
                beta = upper
            if lower > alpha:
                alpha = lower

    tt_min = S[CFG + CFG_SOLVE_TT]
    tt_move = -1
    if plies >= tt_min and S[CFG + CFG_TT] != 0:
        # The key includes the plies left, so a stored entry is always deep enough.
        cut, stored_move = lookup(U, solver_key(h, plies, U), plies, alpha, beta, ply > 0)
        S[STATS + STAT_TT_PROBES] += 1
        if stored_move != ABSENT:
            S[STATS + STAT_TT_HITS] += 1
            tt_move = stored_move
        if cut != NO_CUT:
            return -1, cut, alpha, beta

    base = 64 * ply
    n = 0
    e = empty
    sort = plies >= S[CFG + CFG_SOLVE_ORDER]
    two_ply = plies >= S[CFG + CFG_SOLVE_TWO_PLY]
    etc = S[CFG + CFG_TT] != 0 and plies - 1 >= tt_min and plies >= S[CFG + CFG_SOLVE_ETC]
    etc = etc and ply > 0
    while e != ZERO:
        sq = lowest(e)
        e &= e - ONE
        S[MOVES + base + n] = sq
        if sort:
            flips = U[NBR + sq] & opp
            if sq == tt_move:
                S[SCORES + base + n] = TT_MOVE_KEY
            elif two_ply:
                # The untapered score (see evaluate.score), inline: the shared
                # ordering.child_score, one call deeper, made 18-empty solves 7% slower.
                bit = ONE << np.uint64(sq)
                S[SCORES + base + n] = -score(opp ^ flips, me | bit | flips, plies - 1, False, U, S)
            else:
                S[SCORES + base + n] = popcount(flips)
            if etc:
                child_key = solver_key(child_hash(h, sq, flips, color, U), plies - 1, U)
                word = probe(U, child_key)
                if word != ZERO and entry_bound(word) != LOWER and -entry_value(word) >= beta:
                    return -1, -entry_value(word), alpha, beta
        n += 1
    return n, 0, alpha, beta


@kernel
def solve(
    me: U64,
    opp: U64,
    plies: int,
    alpha: int,
    beta: int,
    ply: int,
    h: U64,
    color: int,
    U: Any,
    S: Any,
) -> I64:
    """Fail-soft exact value (final margin, mover's view) within ``(alpha, beta)``."""
    S[STATS + STAT_NODES] += 1
    if plies <= 2 and ply > 0:
        return last_two(me, opp, plies, beta, U, S)
    if plies == 3 and ply > 0:
        return last_three(me, opp, alpha, beta, U, S)
    if plies == 4 and ply > 0:
        return last_four(me, opp, alpha, beta, U, S)
    if should_stop(S):
        return 0
    n, value, alpha, beta = prepare(me, opp, plies, alpha, beta, ply, h, color, U, S)
    if n < 0:
        return value
    alpha0 = alpha
    base = 64 * ply
    sort = plies >= S[CFG + CFG_SOLVE_ORDER]
    hashing = S[CFG + CFG_TT] != 0 and plies - 1 >= S[CFG + CFG_SOLVE_TT]
    best = -INF
    best_move = -1
    for i in range(n):
        if sort:
            bring_best_forward(base, i, n, S)
        sq = S[MOVES + base + i]
        child_me, child_opp, flips = play(me, opp, sq, U)
        nh = child_hash(h, sq, flips, color, U) if hashing else h
        # fmt: off
        if i == 0:
            v = -solve(child_me, child_opp, plies - 1, -beta, -alpha, ply + 1, nh, 1 - color,
                       U, S)
        else:
            v = -solve(child_me, child_opp, plies - 1, -alpha - 1, -alpha, ply + 1, nh,
                       1 - color, U, S)
            if alpha < v < beta:
                v = -solve(child_me, child_opp, plies - 1, -beta, -alpha, ply + 1, nh,
                           1 - color, U, S)
        # fmt: on
        if S[CTL + CTL_ABORT] != 0:
            return 0
        if v > best:
            best = v
            best_move = sq
            if ply == 0:
                record_root(v, sq, S)
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
        if ply == 0:
            S[ROOT + ROOT_DONE] = i + 1

    store_solved(h, plies, best, alpha0, beta, best_move, U, S)
    return best
