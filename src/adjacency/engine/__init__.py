"""The compiled engine: numba bitboard kernels, search, transposition table and solver.

Import cost: importing this package loads numba (about a second); the kernels
compile on first use, or load from numba's on-disk cache. Call :func:`warmup`
before the first timed move so that no move pays for compilation.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .config import DRIVERS, EVALUATIONS, EngineConfig
from .results import ProbeResult, SearchResult, SolveResult
from .searcher import Engine
from .stale_cache import drop_stale_kernels

# Kernels compile or load from numba's cache on their first call, never at import,
# so clearing a stale cache here still comes first. Only the kernels' own folder
# counts: editing the searcher, the bench or training keeps the compiled cache.
drop_stale_kernels(Path(__file__).parent)

__all__ = [
    "DRIVERS",
    "EVALUATIONS",
    "Engine",
    "EngineConfig",
    "ProbeResult",
    "SearchResult",
    "SolveResult",
    "warmup",
]


@cache
def warmup() -> None:
    """Compile (or load from cache) every kernel by running tiny searches; runs once."""
    from ..core import Position
    from .bench import plain_search

    position = Position.from_fen("2oo/2oo/xx2/xx2 x 8")
    for driver in DRIVERS:
        for evaluation in EVALUATIONS:
            engine = Engine(tt_mb=1, evaluation=evaluation, driver=driver)
            engine.search(position, depth=4)
    engine.solve(position)
    engine.solve(position, wld=True)
    plain_search(position, 2)
