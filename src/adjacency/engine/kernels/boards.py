"""Many boards stepped at once: the compiled core of the batched environment
(:mod:`adjacency.rl.batch`).

Every board of a batch has the same size; board ``i`` is ``me[i]`` (the side to move's
bitboard), ``opp[i]``, ``plies[i]`` (plies left) and ``turn[i]`` (0: X to move, 1: O),
on the geometry array ``U`` of :func:`adjacency.engine.kernels.bits.write_geometry`.
A move is :func:`adjacency.engine.kernels.bits.play`, the engine's own, so the rules
are those the engine searches with; ``tests/rl/test_batch.py`` replays random games of
every board size against :meth:`adjacency.core.Position.play`.

Auto-reset happens in the same step: a board whose game ends (or whose action was
illegal, in the lenient mode) is written to ``final_*`` and set back to the start
position before :func:`step` returns.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import ONE, ZERO, kernel, play, popcount
from .layout import GEO, GEO_FULL
from .mcts import pick

STRICT = 0
"""An illegal action anywhere: nothing changes and :func:`step` returns that board's index."""
LENIENT = 1
"""An illegal action ends that board's game as a loss for the side that sent it."""


@kernel
def is_legal(me: Any, opp: Any, plies: int, action: int, U: Any) -> bool:
    """Whether ``action`` is a legal square: on the board, empty, and the game still on."""
    if plies <= 0 or action < 0 or action >= 64:
        return False
    bit = ONE << np.uint64(action)
    return bool((U[GEO + GEO_FULL] & bit) != ZERO and ((me | opp) & bit) == ZERO)


@kernel
def step(
    me: Any,
    opp: Any,
    plies: Any,
    turn: Any,
    actions: Any,
    U: Any,
    start: Any,
    mode: int,
    margin: bool,
    reward: Any,
    done: Any,
    final: Any,
) -> int:
    """Play ``actions[i]`` on every board ``i``; returns -1, or in ``STRICT`` mode the first
    board whose action is illegal (then no board changed).

    ``start`` is (me, opp, plies, turn) of the start position (``uint64`` words);
    ``reward[i]`` is the result for the side that played: at the game's end +1 / -1 / 0 by
    the final margin (``margin``: the margin itself), -1 for an illegal action in
    ``LENIENT`` mode, else 0. ``done[i]`` says the game ended this step; its final
    position is ``final[i] = (x, o, plies, turn)`` and the board is back at ``start``.
    """
    n = me.shape[0]
    if mode == STRICT:
        for i in range(n):
            if not is_legal(me[i], opp[i], plies[i], actions[i], U):
                return i
    for i in range(n):
        reward[i] = 0.0
        done[i] = False
        if is_legal(me[i], opp[i], plies[i], actions[i], U):
            child_me, child_opp, _ = play(me[i], opp[i], actions[i], U)
            me[i] = child_me
            opp[i] = child_opp
            plies[i] -= 1
            turn[i] = 1 - turn[i]
            if plies[i] > 0:
                continue
            # the mover is now opp[i]: its margin over me[i]
            lead = popcount(opp[i]) - popcount(me[i])
            if margin:
                reward[i] = lead
            else:
                reward[i] = 1.0 if lead > 0 else (-1.0 if lead < 0 else 0.0)
        else:
            reward[i] = -1.0
        done[i] = True
        if turn[i] == 0:
            final[i, 0] = me[i]
            final[i, 1] = opp[i]
        else:
            final[i, 0] = opp[i]
            final[i, 1] = me[i]
        final[i, 2] = np.uint64(plies[i])
        final[i, 3] = np.uint64(turn[i])
        me[i] = start[0]
        opp[i] = start[1]
        plies[i] = np.int64(start[2])
        turn[i] = np.int8(start[3])
    return -1


@kernel
def sample(me: Any, opp: Any, plies: Any, U: Any, R: Any, actions: Any) -> None:
    """A uniformly random legal square per board into ``actions`` (-1 where the game is
    over), from the xorshift state ``R`` (:mod:`adjacency.engine.kernels.mcts`)."""
    full = U[GEO + GEO_FULL]
    for i in range(me.shape[0]):
        empty = full & ~(me[i] | opp[i])
        if plies[i] <= 0 or empty == ZERO:
            actions[i] = -1
        else:
            actions[i] = pick(empty, R)


@kernel
def run_random(
    me: Any,
    opp: Any,
    plies: Any,
    turn: Any,
    actions: Any,
    U: Any,
    start: Any,
    R: Any,
    steps: int,
    reward: Any,
    done: Any,
    final: Any,
) -> int:
    """``steps`` rounds of :func:`sample` then :func:`step` on every board, compiled end to
    end (for benchmarks and random rollouts); returns the games finished."""
    games = 0
    for _ in range(steps):
        sample(me, opp, plies, U, R, actions)
        step(me, opp, plies, turn, actions, U, start, LENIENT, False, reward, done, final)
        for i in range(me.shape[0]):
            if done[i]:
                games += 1
    return games
