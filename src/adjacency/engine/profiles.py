"""Named playing versions of the engine: the evaluation and search settings of each.

A profile fixes everything that decides which move the engine plays at a given
depth: the evaluation's weights and the search's ordering, reductions and
aspiration. ``v1`` is the engine of the first version, frozen as named constants so
that every later change is measured against it (``engine:profile=v1``), the way
fishtest measures every patch against the master it started from. It shares the
kernels with the newer profiles: kernel changes that keep the search's result
(speed, the table's layout, threads) reach it, changes of judgement do not.
``tests/engine/test_profiles.py`` replays positions whose fixed-depth moves were
recorded with the first engine before anything changed and requires the same moves.
For the first version's exact binaries, run a pinned commit as an external engine:
``cmd:git -C <checkout of 7a2ab10> ... adjacency engine --bot engine`` (docs/engine.md).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .kernels.layout import ORDER_ALL, POSITIONAL, SCALE, SOLVE_CAPTURES_FIRST


@dataclass(frozen=True)
class Profile:
    """The settings of one playing version (see the module docstring)."""

    name: str
    description: str
    weights: tuple[int, ...]
    """``S[W:]`` of the positional evaluation (:mod:`adjacency.engine.kernels.evaluate`)."""
    ordering: int
    """Move-ordering bits (``ORDER_*``)."""
    reductions: bool
    """Late move reductions."""
    lmr_from: int
    """Index (0-based) in the ordered move list from which quiet moves are reduced."""
    aspiration: int
    """Half-width of the aspiration window around the previous iteration's value."""
    next_iteration: float
    """Do not start another iteration once this fraction of the time budget is spent."""
    solve_tempo: int = 6
    """Tempo weight of the exact solver's move ordering (speed only: the solver's value is
    exact either way, but among equally good moves it may return another)."""
    solve_features: int = 0
    """The solver's techniques after version one (``SOLVE_*`` bits of
    :mod:`adjacency.engine.kernels.solver`): speed only, the value is exact either way."""
    same_parity_guess: bool = False
    """Centre the aspiration window on the value of two iterations ago (same parity of
    depth) rather than the last one: values swing between odd and even depths."""
    null_reduction: int = 0
    """Null-move pruning's reduction ``R`` (0: none; :mod:`adjacency.engine.kernels.search`)."""
    probcut: int = 0
    """ProbCut's margin in search units (0: none; :mod:`adjacency.engine.kernels.search`)."""
    learned_spare: int = 0
    """With the learned evaluation, games that end with at least this many empty squares
    use the hand-tuned one (0: learned everywhere;
    :func:`adjacency.engine.kernels.evaluate.evaluate`)."""
    learned: bool = False
    """Use the learned evaluation (the shipped weights that :mod:`adjacency.training.fit`
    fitted) on the boards it was trained for (8x8); ``weights`` elsewhere."""
    patterns: bool = False
    """Use the pattern evaluation (:mod:`adjacency.engine.kernels.patterns`, the shipped pattern
    weights) instead of the learned one on 8x8, where ``learned`` would apply."""


V1_WEIGHTS = (POSITIONAL, 16, 6, 0, 16)
"""The first version's evaluation: mode, exposure 16, tempo 6, parity 0, horizon 16
(hand-tuned by self-play; docs/engine.md, Evaluation)."""

V1 = Profile(
    name="v1",
    description="the first version's engine, frozen: hand-tuned four-term evaluation",
    weights=V1_WEIGHTS,
    ordering=ORDER_ALL,
    reductions=True,
    lmr_from=4,
    aspiration=2 * SCALE,
    next_iteration=0.4,
)

V2 = dataclasses.replace(
    V1,
    name="v2",
    description="learned evaluation on 8x8 (elsewhere v1's)",
    same_parity_guess=True,
    solve_tempo=0,
    learned=True,
)

V3 = dataclasses.replace(
    V2,
    name="v3",
    description="the learned evaluation in long games, ProbCut (margin 1.5 pieces)",
    probcut=24,
    learned_spare=8,
    solve_features=SOLVE_CAPTURES_FIRST,
)
"""Engine 2.0: v2 plus ProbCut. The margin, 24/16 = 1.5 pieces, is about three standard
deviations of a depth-``d`` search's value minus the depth-``d - 4`` one (7 to 9 units
at depths 6 to 10, ``benchmarks/bench_engine_probcut.py``); at 0.1 s a move against v1
margin 24 scored at least as well as 12 and 16, all within noise (docs/engine.md).
Its solver tries converting moves first with three and four plies left
(``SOLVE_CAPTURES_FIRST``: 21% fewer nodes on an 11-ply 8-round solve, the same on
board-filling endgames)."""

V4 = dataclasses.replace(
    V3,
    name="v4",
    description="v3 with the pattern evaluation (weights per line configuration per phase)",
    patterns=True,
)
"""v3 with the pattern evaluation where v3 uses the learned one (8x8 games that fill the
board; docs/engine.md, Pattern evaluation). The default since it won its SPRT against v1
(:data:`DEFAULT_PROFILE`)."""

PROFILES = {profile.name: profile for profile in (V1, V2, V3, V4)}
DEFAULT_PROFILE = "v4"
"""The ``engine`` bot's profile (and :class:`~adjacency.engine.searcher.Engine`'s), chosen by
SPRT against the frozen v1 (elo0=0, elo1=10, pentanomial, 0.05 s a move, balanced
books; docs/engine.md, Strength settled by SPRT): v4 accepted H1 at 28 rounds (+15 ± 11
Elo, 848 games), where its pattern evaluation plays; v3 had accepted H0 there (-2 ± 9,
1,903 games) and at 16 rounds (-8 ± 13, 802 games). At 16 rounds and other games that
leave 8 or more squares empty v4 plays as v3."""
