"""The compiled engine: numba bitboard kernels, search, transposition table and solver.

Import cost: the package's settings (:mod:`.config`), results and :func:`warmup` are
plain Python, and :class:`Engine` is imported on its first use, which loads numba (about
half a second of CPU): a command or a worker that only lists the bots, or builds one
that is not compiled, never pays for it. The kernels compile on first use, or load from
numba's on-disk cache. Call :func:`warmup` before the first timed move so that no move
pays for compilation.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import DRIVERS, EVALUATIONS, EngineConfig
from .results import ProbeResult, SearchResult, SolveResult
from .stale_cache import drop_stale_kernels

if TYPE_CHECKING:
    from .searcher import Engine

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


def __getattr__(name: str) -> Any:
    """:class:`Engine`, imported on first use (the searcher loads numba and the kernels)."""
    if name == "Engine":
        from .searcher import Engine

        return Engine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def warmup() -> None:
    """Compile (or load from cache) every kernel by running tiny searches; runs once."""
    from ..core import Position
    from .bench import plain_search
    from .searcher import Engine

    position = Position.from_fen("2oo/2oo/xx2/xx2 x 8")
    for driver in DRIVERS:
        for evaluation in EVALUATIONS:
            engine = Engine(tt_mb=1, evaluation=evaluation, driver=driver)
            engine.search(position, depth=4)
    engine.solve(position)
    engine.solve(position, wld=True)
    plain_search(position, 2)
