"""The compiled search: negamax alpha-beta with PVS, a transposition table and move ordering.

Textbook sources: negamax alpha-beta (Knuth & Moore 1975), principal variation
search / NegaScout (Marsland 1983, Reinefeld 1983), transposition tables with
Zobrist keys, killer moves (Akl & Newborn 1977) and the history heuristic
(Schaeffer 1989). Iterative deepening, aspiration windows and MTD(f) (Plaat
1996) are driven from Python in :mod:`adjacency.engine.driver`, one compiled call
per iteration or MTD(f) probe.

The search is *fail-soft*: a result ``v <= alpha`` is an upper bound, ``v >= beta``
a lower bound, anything between is exact. Positions are (``me``, ``opp``) from the
mover's view, so values are always the mover's (negamax).

Shared arrays (allocated once by the driver, never inside the recursion):

* ``moves``, ``scores``: ``int64[MAX_PLY, 64]`` per-ply move lists and ordering keys;
* ``killers``: ``int64[MAX_PLY, 2]``; ``history``: ``int64[64]``;
* ``cfg``: ``int64[8]``: [0] use the table, [1] ordering bits (ORDER_*), [2] search
  generation, [3] node limit (0: none), [4] a root move to try first (-1: none);
* ``stats``: ``int64[4]``: [0] nodes, [1] table hits;
* ``ctl``: ``int64[1]``: the abort flag; another thread (the driver's timer, or a
  stop request) sets it, and every interior node checks it and unwinds;
* ``root``: ``int64[4]``: [0] best value, [1] best move, [2] root moves completed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import I64, U64, kernel, lowest, max_gain, play, popcount
from .evaluate import MATERIAL, SCALE, evaluate
from .table import (
    EXACT,
    LOWER,
    UPPER,
    Z_O,
    Z_PLIES,
    Z_SIDE,
    entry_bound,
    entry_depth,
    entry_move,
    entry_value,
    probe,
    store,
)

MAX_PLY = 72
INF = 30000
TT_MIN_DEPTH = 2
"""Nodes with at least this much depth left use the transposition table."""

ORDER_TT = 1
ORDER_CAPTURES = 2
ORDER_KILLERS = 4
ORDER_HISTORY = 8
ORDER_ALL = ORDER_TT | ORDER_CAPTURES | ORDER_KILLERS | ORDER_HISTORY

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_HISTORY_CAP = (1 << 20) - 1


@kernel
def child_hash(h: U64, sq: int, flips: U64, color: int, z: Any) -> int:
    """The Zobrist hash after ``color`` (0 X, 1 O) plays ``sq`` converting ``flips``."""
    nh = h ^ z[color * Z_O + sq] ^ z[Z_SIDE]
    f = flips
    while f != _ZERO:
        b = lowest(f)
        nh ^= z[b] ^ z[Z_O + b]
        f &= f - _ONE
    return nh  # type: ignore[no-any-return]


@kernel
def frontier(
    me: U64, opp: U64, plies: int, beta: int, empty: U64, geo: Any, nbr: Any, w: Any, stats: Any
) -> int:
    """Depth-1 node: the best child by static evaluation, without recursion.

    In material mode (and on the last ply, where children are final) the best
    child is ``margin + 1 + 2 * max flips``, computed bit-parallel; every child
    still counts as a node.
    """
    diff = popcount(me) - popcount(opp)
    if w[0] == MATERIAL or plies == 1:
        stats[0] += popcount(empty)
        return (diff + 1 + 2 * max_gain(opp, empty, geo)) * SCALE
    best = -INF
    e = empty
    while e != _ZERO:
        sq = lowest(e)
        e &= e - _ONE
        stats[0] += 1
        flips = nbr[sq] & opp
        v = -evaluate(opp ^ flips, me | (_ONE << np.uint64(sq)) | flips, plies - 1, geo, w)
        if v > best:
            best = v
            if v >= beta:
                break
    return best


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
    geo: Any,
    nbr: Any,
    w: Any,
    z: Any,
    keys: Any,
    data: Any,
    moves: Any,
    scores: Any,
    killers: Any,
    history: Any,
    cfg: Any,
    stats: Any,
    ctl: Any,
    root: Any,
) -> I64:
    """Fail-soft PVS value of (``me`` to move, ``plies`` left) searched ``depth`` plies."""
    stats[0] += 1
    if plies == 0:
        return (popcount(me) - popcount(opp)) * SCALE
    if depth <= 0:
        return evaluate(me, opp, plies, geo, w)
    if ctl[0] != 0:
        return 0
    if cfg[3] > 0 and stats[0] >= cfg[3]:
        ctl[0] = 1
        return 0
    empty = geo[0] & ~(me | opp)
    if depth == 1 and ply > 0:
        return frontier(me, opp, plies, beta, empty, geo, nbr, w, stats)

    use_tt = cfg[0] != 0 and depth >= TT_MIN_DEPTH
    key = h ^ z[Z_PLIES + plies]
    tt_move = cfg[4] if ply == 0 else -1
    alpha0 = alpha
    if use_tt:
        word = probe(keys, data, key)
        if word != _ZERO:
            stats[1] += 1
            if entry_move(word) >= 0:
                tt_move = entry_move(word)
            if ply > 0 and entry_depth(word) >= depth:
                v = entry_value(word)
                bound = entry_bound(word)
                if bound == EXACT:
                    return v
                if bound == LOWER and v >= beta:
                    return v
                if bound == UPPER and v <= alpha:
                    return v

    order = cfg[1]
    if (order & ORDER_TT) == 0:
        tt_move = -1
    k1 = killers[ply, 0]
    k2 = killers[ply, 1]
    n = 0
    e = empty
    while e != _ZERO:
        sq = lowest(e)
        e &= e - _ONE
        s = 0
        if sq == tt_move:
            s = 1 << 40
        if order & ORDER_CAPTURES:
            s += popcount(nbr[sq] & opp) << 24
        if order & ORDER_KILLERS:
            if sq == k1:
                s += 1 << 22
            elif sq == k2:
                s += 1 << 21
        if order & ORDER_HISTORY:
            s += min(history[sq], _HISTORY_CAP)
        moves[ply, n] = sq
        scores[ply, n] = s
        n += 1

    best = -INF
    best_move = -1
    hash_children = cfg[0] != 0 and depth - 1 >= TT_MIN_DEPTH
    for i in range(n):
        if order != 0:
            j = i
            top = scores[ply, i]
            for k in range(i + 1, n):
                if scores[ply, k] > top:
                    top = scores[ply, k]
                    j = k
            if j != i:
                t = moves[ply, i]
                moves[ply, i] = moves[ply, j]
                moves[ply, j] = t
                scores[ply, j] = scores[ply, i]
        sq = moves[ply, i]
        child_me, child_opp, flips = play(me, opp, sq, nbr)
        nh = child_hash(h, sq, flips, color, z) if hash_children else h
        if i == 0:
            v = -search(
                child_me,
                child_opp,
                plies - 1,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                nh,
                1 - color,
                geo,
                nbr,
                w,
                z,
                keys,
                data,
                moves,
                scores,
                killers,
                history,
                cfg,
                stats,
                ctl,
                root,
            )
        else:
            v = -search(
                child_me,
                child_opp,
                plies - 1,
                depth - 1,
                -alpha - 1,
                -alpha,
                ply + 1,
                nh,
                1 - color,
                geo,
                nbr,
                w,
                z,
                keys,
                data,
                moves,
                scores,
                killers,
                history,
                cfg,
                stats,
                ctl,
                root,
            )
            if alpha < v < beta:
                v = -search(
                    child_me,
                    child_opp,
                    plies - 1,
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    nh,
                    1 - color,
                    geo,
                    nbr,
                    w,
                    z,
                    keys,
                    data,
                    moves,
                    scores,
                    killers,
                    history,
                    cfg,
                    stats,
                    ctl,
                    root,
                )
        if ctl[0] != 0:
            return 0
        if v > best:
            best = v
            best_move = sq
            if ply == 0:
                root[0] = v
                root[1] = sq
            if v > alpha:
                alpha = v
                if v >= beta:
                    if sq != killers[ply, 0]:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = sq
                    history[sq] += depth * depth
                    if ply == 0:
                        root[2] = i + 1
                    break
        if ply == 0:
            root[2] = i + 1

    if use_tt:
        bound = LOWER if best >= beta else (UPPER if best <= alpha0 else EXACT)
        store(keys, data, key, best, depth, bound, best_move, cfg[2])
    return best


@kernel
def plain(
    me: U64,
    opp: U64,
    plies: int,
    depth: int,
    alpha: int,
    beta: int,
    nbr: Any,
    full: U64,
    stats: Any,
) -> int:
    """Plain fixed-depth alpha-beta on material: no table, no ordering (the raw-speed probe).

    Squares are tried in index order; every node, leaves included, is counted.
    The leaf level is inlined in its parent's loop (no call per leaf): a leaf's
    value is its parent's margin plus the placed piece and twice its flips.
    """
    stats[0] += 1
    if depth == 0 or plies == 0:
        return popcount(me) - popcount(opp)
    best = -INF
    e = full & ~(me | opp)
    if depth == 1:
        # The leaves, inlined: each child is made (its flips computed) and counted.
        diff = popcount(me) - popcount(opp)
        while e != _ZERO:
            sq = lowest(e)
            e &= e - _ONE
            stats[0] += 1
            v = diff + 1 + 2 * popcount(nbr[sq] & opp)
            if v > best:
                best = v
                if v >= beta:
                    break
        return best
    while e != _ZERO:
        sq = lowest(e)
        e &= e - _ONE
        flips = nbr[sq] & opp
        v = -plain(
            opp ^ flips,
            me | (_ONE << np.uint64(sq)) | flips,
            plies - 1,
            depth - 1,
            -beta,
            -max(alpha, best),
            nbr,
            full,
            stats,
        )
        if v > best:
            best = v
            if v >= beta:
                break
    return best
