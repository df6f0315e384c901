"""How long an exact solve will take, roughly, before it starts: :func:`solve_seconds`.

An alpha-beta search with perfect move ordering visits about the square root
of the full tree (Knuth and Moore 1975). With ``e`` empty squares and ``p``
plies left the full tree has ``e! / (e - p)!`` leaves, so the minimal tree has
about ``sqrt(e! / (e - p)!)`` nodes. The solver's measured node counts sit
within a factor of three of that (docs/engine.md: 11 plies and 45 empties,
1 301 M nodes against 640 M; 14 plies and 30 empties, 4 074 M against 3 600 M),
and it visits about :data:`NODES_PER_SECOND` nodes a second on one core. The
estimate is for telling a user up front that a solve cannot finish, not a
promise: it can be off by a factor of ten either way.
"""

from __future__ import annotations

import math

from ..core import Position

NODES_PER_SECOND = 140e6
"""The solver's speed on one core of the development machine (docs/engine.md)."""


def solve_log10_nodes(position: Position) -> float:
    """log10 of the estimated nodes of an exact solve of ``position``."""
    empties = position.empty.bit_count()
    plies = min(position.plies_left, empties)
    log_leaves = math.lgamma(empties + 1) - math.lgamma(empties - plies + 1)
    return log_leaves / 2 / math.log(10)


def solve_seconds(position: Position) -> float:
    """Estimated seconds of an exact solve (``inf`` beyond a float's range)."""
    exponent = solve_log10_nodes(position) - math.log10(NODES_PER_SECOND)
    return math.inf if exponent > 300 else 10.0**exponent


def describe_seconds(seconds: float) -> str:
    """``seconds`` as people say it: ``40 s``, ``3 min``, ``5 h``, ``2 days``, ``10^12 years``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} h"
    years = seconds / (365.25 * 86400)
    if years < 2:
        return f"{seconds / 86400:.0f} days"
    if years < 1e4:
        return f"{years:.0f} years"
    if not math.isfinite(years):
        return "forever"
    return f"10^{math.log10(years):.0f} years"
