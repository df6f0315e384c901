"""Where everything lives in the two arrays every kernel receives.

numba passes each array argument as a struct of seven words and updates its
reference count on every call; a recursive search with ten array arguments
measured 14x slower per call than with one. So the kernels take exactly two
arrays, allocated once per :class:`~adjacency.engine.driver.Engine`:

``U`` (``uint64``): the board geometry, the Zobrist words and the table::

    U[GEO + 0..3]      full, not_a, not_last, cols (see :mod:`adjacency.engine.bits`)
    U[NBR + sq]        the orthogonal neighbours of square sq (64 words)
    U[ZOB + k]         Zobrist words (see :mod:`adjacency.engine.table`)
    U[TT + 2i], U[TT + 2i + 1]   key and data of table entry i (two entries per bucket)

``S`` (``int64``): settings, counters and per-ply buffers::

    S[CFG + k]         settings (below)
    S[STATS + 0, 1]    nodes, table hits
    S[CTL]             abort flag: another thread sets it, interior nodes read it
    S[ROOT + 0..2]     best value, best move, root moves completed
    S[W + k]           evaluation weights (see :mod:`adjacency.engine.evaluate`)
    S[HISTORY + sq]    history heuristic counters
    S[KILLERS + 2p + k]  two killer moves per ply p
    S[MOVES + 64p + i], S[SCORES + 64p + i]  move lists and ordering keys per ply p

Settings: ``CFG_TT`` use the table, ``CFG_ORDER`` ordering bits, ``CFG_GENERATION``
search number, ``CFG_NODES`` node limit (0: none), ``CFG_FIRST`` root move to try
first (-1: none), ``CFG_LMR`` late move reductions, and the solver's thresholds
``CFG_SOLVE_TT``, ``CFG_SOLVE_ETC``, ``CFG_SOLVE_ORDER``, ``CFG_SOLVE_FIXED``,
``CFG_SOLVE_TWO_PLY`` (plies left from which each technique is used).
"""

from __future__ import annotations

MAX_PLY = 72

GEO = 0
NBR = 4
ZOB = 68
TT = 264

CFG = 0
CFG_TT = 0
CFG_ORDER = 1
CFG_GENERATION = 2
CFG_NODES = 3
CFG_FIRST = 4
CFG_LMR = 5
CFG_LMR_FROM = 6
CFG_SOLVE_TT = 8
CFG_SOLVE_ETC = 9
CFG_SOLVE_ORDER = 10
CFG_SOLVE_FIXED = 11
CFG_SOLVE_TWO_PLY = 12
STATS = 16
CTL = 20
ROOT = 24
W = 32
HISTORY = 40
KILLERS = 104
MOVES = KILLERS + 2 * MAX_PLY
SCORES = MOVES + 64 * MAX_PLY
I_SIZE = SCORES + 64 * MAX_PLY
