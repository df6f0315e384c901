"""The compiled search: negamax alpha-beta with PVS, a transposition table and move ordering.

Textbook sources: negamax alpha-beta (Knuth & Moore 1975), principal variation
search / NegaScout (Marsland 1983, Reinefeld 1983), transposition tables with
Zobrist keys, killer moves (Akl & Newborn 1977) and the history heuristic
(Schaeffer 1989). Iterative deepening, aspiration windows and MTD(f) (Plaat
1996) are driven from Python in :mod:`adjacency.engine.searcher`, one compiled call
per iteration or MTD(f) probe.

The search is *fail-soft*: a result ``v <= alpha`` is an upper bound, ``v >= beta``
a lower bound, anything between is exact. Positions are (``me``, ``opp``) from the
mover's view, so values are always the mover's (negamax).

Every kernel takes the two shared arrays ``U`` and ``S`` described in
:mod:`adjacency.engine.kernels.layout` (allocated once by the driver; nothing is
allocated inside the recursion). The abort flag ``S[CTL + CTL_ABORT]`` is set by
another thread (the driver's timer or a stop request); every interior node reads
it and the search unwinds. At the root (``ply == 0``) the search records its best
value and move so far in ``S[ROOT:]``. The table probe, the ordering keys and the
lazy move selection are shared with the solver (:mod:`adjacency.engine.kernels.transposition`,
:mod:`adjacency.engine.kernels.ordering`).

Late move reductions (``S[CFG + CFG_LMR]``, on by default) are forward pruning:
quiet moves (no conversions) late in the ordered list are first searched one or
two plies shallower and re-searched at full depth only if they beat alpha.
With reductions on, values can differ from plain minimax; the tests that compare
with minimax switch them off.

Two more kinds of forward pruning, each a profile setting and off by default, run
at null-window nodes (``alpha = beta - 1``) before the move loop:

*Null move* (``CFG_NULL_R = R > 0``): if the mover stands at or above ``beta`` by
static evaluation, let it pass (the opponent moves, one ply of the game is used)
and search the result ``R + 1`` plies shallower; if even that holds ``beta``, so
will a real move, because in this game every move wins at least the square it is
played on. Never twice in a row on one path (``S[CTL + CTL_NULL_PLY]``).

*ProbCut* (``CFG_PROBCUT = m > 0``, Buro 1995): the value of a deep search is
predicted by a shallower one (``PROBCUT_REDUCTION`` plies less); if the shallow
value is at least ``beta + m``, or at most ``beta - 1 - m``, the deep one is taken
to fail high, or low, too. ``m`` is two to three standard deviations of the
deep-minus-shallow difference (``benchmarks/bench_engine_probcut.py`` measures it).

All forward pruning is off in the iteration that reaches the end of the game (the
driver turns ``CFG_LMR`` off there), so exact results stay exact.
"""

from __future__ import annotations

from typing import Any

from .bits import I64, ONE, U64, ZERO, kernel, lowest, max_gain, play, popcount
from .evaluate import evaluate
from .layout import (
    CFG,
    CFG_FIRST,
    CFG_GENERATION,
    CFG_LMR,
    CFG_LMR_FROM,
    CFG_NULL_R,
    CFG_ORDER,
    CFG_PROBCUT,
    CFG_TT,
    CTL,
    CTL_ABORT,
    CTL_NULL_PLY,
    GEO,
    GEO_FULL,
    HISTORY,
    KILLERS,
    MATERIAL,
    MOVES,
    NBR,
    ORDER_CAPTURES,
    ORDER_EVAL,
    ORDER_HISTORY,
    ORDER_KILLERS,
    ORDER_TT,
    ROOT,
    ROOT_DONE,
    SCALE,
    SCORES,
    STAT_NODES,
    STAT_TT_HITS,
    STAT_TT_PROBES,
    STATS,
    W_MODE,
    Z_PLIES,
    Z_SIDE,
    ZOB,
    W,
)
from .ordering import (
    EVAL_BIAS,
    HISTORY_CAP,
    KILLER_FIRST_KEY,
    KILLER_SECOND_KEY,
    STATIC_SHIFT,
    TT_MOVE_KEY,
    bring_best_forward,
    child_hash,
    child_score,
    record_root,
    should_stop,
)
from .transposition import ABSENT, NO_CUT, lookup, store_result

INF = 30000
TT_MIN_DEPTH = 2
"""Nodes with at least this much depth left use the transposition table."""
NULL_MIN_DEPTH = 3
"""Null moves are tried from this depth: below it the reduced search would be a bare
static evaluation, which the node's own evaluation already is."""
PROBCUT_MIN_DEPTH = 6
PROBCUT_REDUCTION = 4
"""ProbCut predicts a node of depth ``d >= PROBCUT_MIN_DEPTH`` by a search of depth
``d - PROBCUT_REDUCTION``: an even reduction keeps the side that moves at the leaves
(values swing between odd and even depths, docs/engine.md), and from depth 6 the
shallow search still sees two plies."""


@kernel
def frontier(me: U64, opp: U64, plies: int, beta: int, empty: U64, U: Any, S: Any) -> int:
    """Depth-1 node: the best child by static evaluation, without recursion.

    In material mode (and on the last ply, where children are final) the best
    child is ``margin + 1 + 2 * max flips``, computed bit-parallel; every child
    still counts as a node.
    """
    diff = popcount(me) - popcount(opp)
    if S[W + W_MODE] == MATERIAL or plies == 1:
        S[STATS + STAT_NODES] += popcount(empty)
        return (diff + 1 + 2 * max_gain(opp, empty, U)) * SCALE
    best = -INF
    e = empty
    while e != ZERO:
        sq = lowest(e)
        e &= e - ONE
        S[STATS + STAT_NODES] += 1
        child_me, child_opp, _ = play(me, opp, sq, U)
        v = -evaluate(child_me, child_opp, plies - 1, U, S)
        if v > best:
            best = v
            if v >= beta:
                break
    return best


@kernel
def order_moves(
    me: U64, opp: U64, plies: int, empty: U64, tt_move: int, ply: int, U: Any, S: Any
) -> int:
    """Fill ply ``ply``'s move list with the empty squares and their ordering keys
    (the ``CFG_ORDER`` bits choose the terms); returns the number of moves."""
    order = S[CFG + CFG_ORDER]
    k1 = S[KILLERS + 2 * ply]
    k2 = S[KILLERS + 2 * ply + 1]
    base = 64 * ply
    n = 0
    e = empty
    while e != ZERO:
        sq = lowest(e)
        e &= e - ONE
        key = 0
        if sq == tt_move:
            key = TT_MOVE_KEY
        if order & ORDER_EVAL:
            flips = U[NBR + sq] & opp
            key += (child_score(me, opp, sq, flips, plies, U, S) + EVAL_BIAS) << STATIC_SHIFT
        elif order & ORDER_CAPTURES:
            key += popcount(U[NBR + sq] & opp) << STATIC_SHIFT
        if order & ORDER_KILLERS:
            if sq == k1:
                key += KILLER_FIRST_KEY
            elif sq == k2:
                key += KILLER_SECOND_KEY
        if order & ORDER_HISTORY:
            key += min(S[HISTORY + sq], HISTORY_CAP)
        S[MOVES + base + n] = sq
        S[SCORES + base + n] = key
        n += 1
    return n


@kernel
def remember_cutoff(sq: int, depth: int, ply: int, S: Any) -> None:
    """A move that failed high becomes the ply's first killer and gains history."""
    if sq != S[KILLERS + 2 * ply]:
        S[KILLERS + 2 * ply + 1] = S[KILLERS + 2 * ply]
        S[KILLERS + 2 * ply] = sq
    S[HISTORY + sq] += depth * depth


@kernel
def search(
    me: U64,
    opp: U64,
    plies: int,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    h: U64,
    color: int,
    U: Any,
    S: Any,
) -> I64:
    """Fail-soft PVS value of (``me`` to move, ``plies`` left) searched ``depth`` plies."""
    S[STATS + STAT_NODES] += 1
    if plies == 0:
        return (popcount(me) - popcount(opp)) * SCALE
    if depth <= 0:
        return evaluate(me, opp, plies, U, S)
    if should_stop(S):
        return 0
    empty = U[GEO + GEO_FULL] & ~(me | opp)
    if depth == 1 and ply > 0:
        return frontier(me, opp, plies, beta, empty, U, S)

    use_tt = S[CFG + CFG_TT] != 0 and depth >= TT_MIN_DEPTH
    key = h ^ U[ZOB + Z_PLIES + plies]
    tt_move = S[CFG + CFG_FIRST] if ply == 0 else -1
    alpha0 = alpha
    if use_tt:
        cut, stored_move = lookup(U, key, depth, alpha, beta, ply > 0)
        S[STATS + STAT_TT_PROBES] += 1
        if stored_move != ABSENT:
            S[STATS + STAT_TT_HITS] += 1
        if cut != NO_CUT:
            return cut
        if stored_move >= 0:
            tt_move = stored_move
    if ply > 0 and beta - alpha == 1 and S[CFG + CFG_LMR] != 0 and plies > depth + 1:
        # Forward pruning at null-window nodes: null move, then ProbCut (module docstring).
        null_r = S[CFG + CFG_NULL_R]
        if (
            null_r > 0
            and depth >= NULL_MIN_DEPTH
            and S[CTL + CTL_NULL_PLY] != ply
            and evaluate(me, opp, plies, U, S) >= beta
        ):
            outer = S[CTL + CTL_NULL_PLY]
            S[CTL + CTL_NULL_PLY] = ply + 1
            # fmt: off
            v = -search(opp, me, plies - 1, depth - 1 - null_r, -beta, 1 - beta, ply + 1,
                        h ^ U[ZOB + Z_SIDE], 1 - color, U, S)
            # fmt: on
            S[CTL + CTL_NULL_PLY] = outer
            if S[CTL + CTL_ABORT] != 0:
                return 0
            if v >= beta:
                return v
        margin = S[CFG + CFG_PROBCUT]
        if margin > 0 and depth >= PROBCUT_MIN_DEPTH:
            shallow = depth - PROBCUT_REDUCTION
            high = beta + margin
            v = search(me, opp, plies, shallow, high - 1, high, ply, h, color, U, S)
            if S[CTL + CTL_ABORT] != 0:
                return 0
            if v >= high:
                return beta
            low = beta - 1 - margin
            v = search(me, opp, plies, shallow, low, low + 1, ply, h, color, U, S)
            if S[CTL + CTL_ABORT] != 0:
                return 0
            if v <= low:
                return beta - 1
    order = S[CFG + CFG_ORDER]
    if (order & ORDER_TT) == 0:
        tt_move = -1
    k1 = S[KILLERS + 2 * ply]
    k2 = S[KILLERS + 2 * ply + 1]
    n = order_moves(me, opp, plies, empty, tt_move, ply, U, S)

    base = 64 * ply
    best = -INF
    best_move = -1
    hash_children = S[CFG + CFG_TT] != 0 and depth - 1 >= TT_MIN_DEPTH
    lmr = S[CFG + CFG_LMR] != 0 and depth >= 3
    lmr_from = S[CFG + CFG_LMR_FROM]
    for i in range(n):
        if order != 0:
            bring_best_forward(base, i, n, S)
        sq = S[MOVES + base + i]
        child_me, child_opp, flips = play(me, opp, sq, U)
        nh = child_hash(h, sq, flips, color, U) if hash_children else h
        # fmt: off
        if i == 0:
            v = -search(child_me, child_opp, plies - 1, depth - 1, -beta, -alpha, ply + 1, nh,
                        1 - color, U, S)
        else:
            # Late move reductions: quiet late moves are first searched shallower.
            reduction = 0
            if lmr and i >= lmr_from and flips == ZERO and sq != k1 and sq != k2:
                reduction = 2 if (i >= 2 * lmr_from and depth >= 5) else 1
            v = -search(child_me, child_opp, plies - 1, depth - 1 - reduction, -alpha - 1,
                        -alpha, ply + 1, nh, 1 - color, U, S)
            if reduction > 0 and v > alpha:
                v = -search(child_me, child_opp, plies - 1, depth - 1, -alpha - 1, -alpha,
                            ply + 1, nh, 1 - color, U, S)
            if alpha < v < beta:
                v = -search(child_me, child_opp, plies - 1, depth - 1, -beta, -alpha, ply + 1,
                            nh, 1 - color, U, S)
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
                    remember_cutoff(sq, depth, ply, S)
                    if ply == 0:
                        S[ROOT + ROOT_DONE] = i + 1
                    break
        if ply == 0:
            S[ROOT + ROOT_DONE] = i + 1

    if use_tt:
        store_result(U, key, best, alpha0, beta, depth, best_move, S[CFG + CFG_GENERATION])
    return best


@kernel
def plain(me: U64, opp: U64, plies: int, depth: int, alpha: int, beta: int, U: Any, S: Any) -> int:
    """Plain fixed-depth alpha-beta on material: no table, no ordering (the raw-speed probe).

    Squares are tried in index order; every node, leaves included, is counted.
    The leaf level is inlined in its parent's loop (no call per leaf): a leaf's
    value is its parent's margin plus the placed piece and twice its flips.
    """
    S[STATS + STAT_NODES] += 1
    if depth == 0 or plies == 0:
        return popcount(me) - popcount(opp)
    best = -INF
    e = U[GEO + GEO_FULL] & ~(me | opp)
    if depth == 1:
        diff = popcount(me) - popcount(opp)
        while e != ZERO:
            sq = lowest(e)
            e &= e - ONE
            S[STATS + STAT_NODES] += 1
            v = diff + 1 + 2 * popcount(U[NBR + sq] & opp)
            if v > best:
                best = v
                if v >= beta:
                    break
        return best
    while e != ZERO:
        sq = lowest(e)
        e &= e - ONE
        child_me, child_opp, _ = play(me, opp, sq, U)
        v = -plain(child_me, child_opp, plies - 1, depth - 1, -beta, -max(alpha, best), U, S)
        if v > best:
            best = v
            if v >= beta:
                break
    return best
