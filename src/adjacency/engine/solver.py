"""The exact endgame solver: the final margin under perfect play, in pieces.

A negamax alpha-beta to the end of the game with the techniques Othello
endgame solvers use (Buro's and Gunnar Andersson's solvers, Edax):

* null-window probes (PVS inside, and a ``(-1, 1)`` window for win/draw/loss);
* the last two plies special-cased: with one ply left the value is
  ``margin + 1 + 2 * max flips`` computed bit-parallel (no make/unmake, no
  loop); with two left, one loop over the mover's squares and the same formula
  for the reply;
* fixed-piece bounds: a piece with no empty orthogonal neighbour can never be
  converted again, so ``margin <= total - 2 * fixed(opp)`` and
  ``margin >= 2 * fixed(me) - total`` (``total`` = pieces at the end);
* a transposition table (salted keys, depth = plies left) with enhanced
  transposition cutoffs (ETC, Plaat et al. 1996): before searching, look up
  every child, and cut off if a child's stored upper bound already proves
  ``>= beta`` for the parent;
* move ordering near the root by the two-ply greedy value: squares won now
  minus the opponent's best immediate reply (a cheap "fastest first").

Arrays are the same as :mod:`adjacency.engine.search` (``moves``, ``scores``,
``stats``, ``ctl``, ``root``); ``root[0..2]`` receive value, move, moves done.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import I64, U64, kernel, lowest, max_gain, play, popcount, spread
from .search import child_hash
from .table import (
    EXACT,
    LOWER,
    UPPER,
    Z_PLIES,
    Z_SOLVER,
    entry_bound,
    entry_move,
    entry_value,
    probe,
    store,
)

INF = 1000
TT_MIN = 7
"""Default plies left from which the solver uses the table (``cfg[8]``)."""
ETC_MIN = 10
"""Default plies left from which it tries enhanced transposition cutoffs (``cfg[9]``)."""
ORDER_MIN = 5
"""Default plies left from which moves are sorted, below: index order (``cfg[10]``)."""
FIXED_MIN = 4
"""Default plies left from which fixed-piece bounds are tried (``cfg[11]``)."""
TWO_PLY_MIN = 5
"""Default plies left from which the order uses the two-ply score, else flips (``cfg[12]``)."""

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel
def last_two(me: U64, opp: U64, plies: int, beta: int, geo: Any, nbr: Any, stats: Any) -> int:
    """Exact value with ``plies`` in 0..2 left."""
    diff = popcount(me) - popcount(opp)
    if plies == 0:
        return diff
    empty = geo[0] & ~(me | opp)
    if plies == 1:
        return diff + 1 + 2 * max_gain(opp, empty, geo)
    best = -INF
    e = empty
    while e != _ZERO:
        sq = lowest(e)
        e &= e - _ONE
        stats[0] += 1
        flips = nbr[sq] & opp
        bit = _ONE << np.uint64(sq)
        # After the move the margin is diff + 1 + 2f; the reply wins 1 + 2 * its best flips.
        v = diff + 2 * popcount(flips) - 2 * max_gain(me | bit | flips, empty ^ bit, geo)
        if v > best:
            best = v
            if v >= beta:
                break
    return best


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
    geo: Any,
    nbr: Any,
    z: Any,
    keys: Any,
    data: Any,
    moves: Any,
    scores: Any,
    cfg: Any,
    stats: Any,
    ctl: Any,
    root: Any,
) -> I64:
    """Fail-soft exact value (final margin, mover's view) within ``(alpha, beta)``."""
    stats[0] += 1
    if plies <= 2 and ply > 0:
        return last_two(me, opp, plies, beta, geo, nbr, stats)
    if ctl[0] != 0:
        return 0
    if cfg[3] > 0 and stats[0] >= cfg[3]:
        ctl[0] = 1
        return 0
    empty = geo[0] & ~(me | opp)
    occupied = me | opp
    if plies >= cfg[11] and ply > 0:
        fixed = occupied & ~spread(empty, geo)
        if fixed != _ZERO:
            total = popcount(occupied) + plies
            upper = total - 2 * popcount(fixed & opp)
            if upper <= alpha:
                return upper
            lower = 2 * popcount(fixed & me) - total
            if lower >= beta:
                return lower
            # Narrow the window to the proven range (values outside it cannot occur).
            if upper < beta:
                beta = upper
            if lower > alpha:
                alpha = lower

    use_tt = plies >= cfg[8] and cfg[0] != 0
    key = h ^ z[Z_PLIES + plies] ^ z[Z_SOLVER]
    tt_move = -1
    alpha0 = alpha
    if use_tt:
        word = probe(keys, data, key)
        if word != _ZERO:
            stats[1] += 1
            tt_move = entry_move(word)
            if ply > 0:
                v = entry_value(word)
                bound = entry_bound(word)
                if bound == EXACT:
                    return v
                if bound == LOWER and v >= beta:
                    return v
                if bound == UPPER and v <= alpha:
                    return v

    n = 0
    e = empty
    sort = plies >= cfg[10]
    hashing = cfg[0] != 0 and plies - 1 >= cfg[8]
    etc = hashing and plies >= cfg[9] and ply > 0
    while e != _ZERO:
        sq = lowest(e)
        e &= e - _ONE
        moves[ply, n] = sq
        if sort:
            flips = nbr[sq] & opp
            bit = _ONE << np.uint64(sq)
            if sq == tt_move:
                scores[ply, n] = 1 << 30
            elif plies >= cfg[12]:
                scores[ply, n] = 2 * popcount(flips) - 2 * max_gain(
                    me | bit | flips, empty ^ bit, geo
                )
            else:
                scores[ply, n] = popcount(flips)
            if etc:
                word = probe(
                    keys,
                    data,
                    child_hash(h, sq, flips, color, z) ^ z[Z_PLIES + plies - 1] ^ z[Z_SOLVER],
                )
                if word != _ZERO and entry_bound(word) != LOWER and -entry_value(word) >= beta:
                    return -entry_value(word)
        n += 1

    best = -INF
    best_move = -1
    for i in range(n):
        if sort:
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
        nh = child_hash(h, sq, flips, color, z) if hashing else h
        if i == 0:
            v = -solve(
                child_me,
                child_opp,
                plies - 1,
                -beta,
                -alpha,
                ply + 1,
                nh,
                1 - color,
                geo,
                nbr,
                z,
                keys,
                data,
                moves,
                scores,
                cfg,
                stats,
                ctl,
                root,
            )
        else:
            v = -solve(
                child_me,
                child_opp,
                plies - 1,
                -alpha - 1,
                -alpha,
                ply + 1,
                nh,
                1 - color,
                geo,
                nbr,
                z,
                keys,
                data,
                moves,
                scores,
                cfg,
                stats,
                ctl,
                root,
            )
            if alpha < v < beta:
                v = -solve(
                    child_me,
                    child_opp,
                    plies - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    nh,
                    1 - color,
                    geo,
                    nbr,
                    z,
                    keys,
                    data,
                    moves,
                    scores,
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
                    break
        if ply == 0:
            root[2] = i + 1

    if use_tt:
        bound = LOWER if best >= beta else (UPPER if best <= alpha0 else EXACT)
        store(keys, data, key, best, plies, bound, best_move, cfg[2])
    return best
