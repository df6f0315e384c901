"""Where everything lives in the two arrays every kernel receives.

numba passes each array argument as a struct of seven words and updates its
reference count on every call; a recursive search with ten array arguments
measured 14x slower per call than with one. So the kernels take exactly two
arrays, allocated once per :class:`~adjacency.engine.searcher.Engine` (one ``S``
per search thread, one ``U`` shared by all of them):

``U`` (``uint64``): the board geometry, the Zobrist words and the table::

    U[GEO + GEO_FULL]      every square          U[GEO + GEO_NOT_A]     full without file a
    U[GEO + GEO_NOT_LAST]  full without the last file
    U[GEO + GEO_COLS]      the shift that moves a piece one rank (see :mod:`.bits`)
    U[NBR + sq]            the orthogonal neighbours of square sq
    U[ZOB + Z_X + sq], U[ZOB + Z_O + sq]   Zobrist words of an X / O piece on sq
    U[ZOB + Z_SIDE]        "O to move";  U[ZOB + Z_PLIES + p]  p plies left
    U[ZOB + Z_SOLVER]      the salt of the solver's entries (see :mod:`.transposition`)
    U[TT + 4b .. 4b + 3]   table bucket b: two entries of (key ^ data, data)

``S`` (``int64``), one per search thread: settings, counters and per-ply buffers::

    S[CFG + CFG_*]         settings (below)
    S[STATS + STAT_NODES]  counter: nodes visited (the search's and the solver's)
    S[STATS + STAT_TT_PROBES], S[STATS + STAT_TT_HITS]   counters: nodes that looked
                           their own entry up in the table, and those that found one
    S[CTL + CTL_ABORT]     abort flag: another thread sets it, interior nodes read it
    S[CTL + CTL_NULL_PLY]  the ply just below the last null move on the current path
    S[ROOT + ROOT_VALUE], S[ROOT + ROOT_MOVE], S[ROOT + ROOT_DONE]
                           the root's best value and move so far, root moves completed
    S[W + W_*]             evaluation weights (see :mod:`.evaluate`)
    S[FEAT + k]            scratch: the features of the position being evaluated
    S[PW + PW_STRIDE * p + k]  learned weight of feature k with p plies left (:mod:`.features`)
    S[PAT + PAT_STRIDE * b + i]  pattern weight i of phase b (plies left // PAT_PHASE_WIDTH):
                           the line configurations, then one per feature (:mod:`.patterns`)
    S[HISTORY + sq]        history heuristic counters
    S[KILLERS + 2p + k]    two killer moves per ply p
    S[MOVES + 64p + i], S[SCORES + 64p + i]  move lists and ordering keys per ply p

Settings: ``CFG_TT`` use the table, ``CFG_ORDER`` ordering bits, ``CFG_GENERATION``
search number, ``CFG_NODES`` node limit (0: none), ``CFG_FIRST`` root move to try
first (-1: none), ``CFG_LMR`` late move reductions, ``CFG_LMR_FROM`` the first
reduced index, ``CFG_THREAD`` the search thread's number (0: the main thread),
and the solver's thresholds ``CFG_SOLVE_TT``, ``CFG_SOLVE_ETC``,
``CFG_SOLVE_ORDER``, ``CFG_SOLVE_FIXED``, ``CFG_SOLVE_TWO_PLY`` (plies left from
which each technique is used) and ``CFG_SOLVE_TEMPO``, the tempo weight of the
solver's move ordering; ``CFG_NULL_R`` the null-move reduction (0: no null moves) and
``CFG_PROBCUT`` the ProbCut margin in search units (0: no ProbCut), both forward
pruning like ``CFG_LMR`` and off whenever it is (:mod:`.search`); ``CFG_SOLVE_FEATURES``
the solver techniques after version one, bits ``SOLVE_*`` (below; 0 for v1).

The values those settings take are here too: the ordering bits ``ORDER_*``, the solver's
``SOLVE_*``, the evaluation modes of ``W_MODE`` and ``SCALE``. This module is plain
Python, so the engine's settings (:mod:`adjacency.engine.config`) read them without
loading numba.

Every region's offset is the previous region's offset plus its size
(``STATS = CFG + CFG_SIZE``, ...), and :func:`check` (run at import) proves that
the regions tile each array without overlap and that every named slot lies
inside its region.
"""

from __future__ import annotations

MAX_PLY = 72
"""Deeper than any game: at most 64 - 4 plies from the start, plus margin."""
MAX_SQUARES = 64

# ---------------------------------------------------------------- U (uint64)
GEO_FULL = 0
GEO_NOT_A = 1
GEO_NOT_LAST = 2
GEO_COLS = 3
GEO_SIZE = 4

Z_X = 0
Z_O = Z_X + MAX_SQUARES
Z_SIDE = Z_O + MAX_SQUARES
Z_PLIES = Z_SIDE + 1
Z_SOLVER = Z_PLIES + MAX_SQUARES + 1
Z_SIZE = Z_SOLVER + 1

GEO = 0
NBR = GEO + GEO_SIZE
ZOB = NBR + MAX_SQUARES
TT = ZOB + Z_SIZE
"""The table fills the rest of ``U``."""

# ---------------------------------------------------------------- S (int64)
CFG_TT = 0
CFG_ORDER = 1
CFG_GENERATION = 2
CFG_NODES = 3
CFG_FIRST = 4
CFG_LMR = 5
CFG_LMR_FROM = 6
CFG_THREAD = 7
CFG_SOLVE_TT = 8
CFG_SOLVE_ETC = 9
CFG_SOLVE_ORDER = 10
CFG_SOLVE_FIXED = 11
CFG_SOLVE_TWO_PLY = 12
CFG_SOLVE_TEMPO = 13
CFG_NULL_R = 14
CFG_PROBCUT = 15
CFG_SOLVE_FEATURES = 16
CFG_SIZE = 24

ORDER_TT = 1
ORDER_CAPTURES = 2
ORDER_KILLERS = 4
ORDER_HISTORY = 8
ORDER_EVAL = 16
"""Order by each child's static evaluation (replaces ORDER_CAPTURES when both are set)."""
ORDER_ALL = ORDER_TT | ORDER_CAPTURES | ORDER_KILLERS | ORDER_HISTORY | ORDER_EVAL
"""The bits of ``S[CFG + CFG_ORDER]``: which move orderings :mod:`.search` uses."""

SOLVE_CAPTURES_FIRST = 1
"""``CFG_SOLVE_FEATURES`` bit: with three and four plies left, try the squares next to an
opponent's piece (moves that convert) before the others (:mod:`.solver`)."""

STAT_NODES = 0
STAT_TT_HITS = 1
STAT_TT_PROBES = 2
STATS_SIZE = 4

CTL_ABORT = 0
CTL_NULL_PLY = 1
CTL_SIZE = 4

ROOT_VALUE = 0
ROOT_MOVE = 1
ROOT_DONE = 2
ROOT_SIZE = 4

W_MODE = 0
W_EXPOSURE = 1
W_TEMPO = 2
W_PARITY = 3
W_HORIZON = 4
W_LEARNED_SPARE = 5
W_SIZE = 8

MATERIAL = 0
POSITIONAL = 1
LEARNED = 2
PATTERN = 3
"""The values of ``S[W + W_MODE]``: which evaluation :mod:`.evaluate` computes."""
SCALE = 16
"""Search units per piece."""

PW_STRIDE = 8
"""Words per phase in the learned weights (at least the number of features)."""
PW_SIZE = PW_STRIDE * (MAX_SQUARES + 1)

PAT_PHASE_WIDTH = 4
"""Plies left per phase of the pattern evaluation."""
PAT_PHASES = MAX_SQUARES // PAT_PHASE_WIDTH + 1
PAT_STRIDE = 4 * 3**8 + 12
"""Words per phase of the pattern weights (at least the configurations plus the features)."""
PAT_SIZE = PAT_STRIDE * PAT_PHASES
CFG = 0
STATS = CFG + CFG_SIZE
CTL = STATS + STATS_SIZE
ROOT = CTL + CTL_SIZE
W = ROOT + ROOT_SIZE
FEAT = W + W_SIZE
PW = FEAT + PW_STRIDE
PAT = PW + PW_SIZE
HISTORY = PAT + PAT_SIZE
KILLERS = HISTORY + MAX_SQUARES
MOVES = KILLERS + 2 * MAX_PLY
SCORES = MOVES + MAX_SQUARES * MAX_PLY
I_SIZE = SCORES + MAX_SQUARES * MAX_PLY

U_REGIONS = (("GEO", GEO, GEO_SIZE), ("NBR", NBR, MAX_SQUARES), ("ZOB", ZOB, Z_SIZE))
"""(name, offset, size) of each fixed region of ``U``; the table follows at ``TT``."""
S_REGIONS = (
    ("CFG", CFG, CFG_SIZE),
    ("STATS", STATS, STATS_SIZE),
    ("CTL", CTL, CTL_SIZE),
    ("ROOT", ROOT, ROOT_SIZE),
    ("W", W, W_SIZE),
    ("FEAT", FEAT, PW_STRIDE),
    ("PW", PW, PW_SIZE),
    ("PAT", PAT, PAT_SIZE),
    ("HISTORY", HISTORY, MAX_SQUARES),
    ("KILLERS", KILLERS, 2 * MAX_PLY),
    ("MOVES", MOVES, MAX_SQUARES * MAX_PLY),
    ("SCORES", SCORES, MAX_SQUARES * MAX_PLY),
)
"""(name, offset, size) of each region of ``S``, which is ``I_SIZE`` words long."""

SLOTS = {
    "GEO": (GEO_FULL, GEO_NOT_A, GEO_NOT_LAST, GEO_COLS),
    "ZOB": (Z_X, Z_O, Z_SIDE, Z_PLIES, Z_SOLVER),
    "CFG": (
        CFG_TT,
        CFG_ORDER,
        CFG_GENERATION,
        CFG_NODES,
        CFG_FIRST,
        CFG_LMR,
        CFG_LMR_FROM,
        CFG_THREAD,
        CFG_SOLVE_TT,
        CFG_SOLVE_ETC,
        CFG_SOLVE_ORDER,
        CFG_SOLVE_FIXED,
        CFG_SOLVE_TWO_PLY,
        CFG_SOLVE_TEMPO,
        CFG_NULL_R,
        CFG_PROBCUT,
        CFG_SOLVE_FEATURES,
    ),
    "STATS": (STAT_NODES, STAT_TT_HITS, STAT_TT_PROBES),
    "CTL": (CTL_ABORT, CTL_NULL_PLY),
    "ROOT": (ROOT_VALUE, ROOT_MOVE, ROOT_DONE),
    "W": (W_MODE, W_EXPOSURE, W_TEMPO, W_PARITY, W_HORIZON, W_LEARNED_SPARE),
}
"""The named slots of each region, relative to its offset."""


def check(
    regions: tuple[tuple[str, int, int], ...], end: int, slots: dict[str, tuple[int, ...]]
) -> None:
    """Raise ``RuntimeError`` unless ``regions`` tile ``[0, end)`` in order without gaps or
    overlaps and every slot of ``slots`` lies inside its region (distinct slots)."""
    at = 0
    for name, offset, size in regions:
        if offset != at or size <= 0:
            raise RuntimeError(f"region {name} starts at {offset}, expected {at} (size {size})")
        at = offset + size
        named = slots.get(name, ())
        if len(set(named)) != len(named) or any(not 0 <= s < size for s in named):
            raise RuntimeError(f"region {name}: slots {named} not distinct within 0..{size - 1}")
    if at != end:
        raise RuntimeError(f"regions end at {at}, expected {end}")


check(U_REGIONS, TT, SLOTS)
check(S_REGIONS, I_SIZE, SLOTS)
