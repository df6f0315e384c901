"""The one door to matplotlib, an optional dependency (the ``plots`` extra).

The runtime install stays lean: the game, the engine, the web server
and the arena's tables need no plotting library. Every plot goes through
:func:`pyplot`, which imports matplotlib lazily with the non-interactive Agg
backend and, when it is missing (or broken), raises :class:`PlotsUnavailableError`
naming the extra. Commands whose plots are a by-product (``report``,
``experiments``, ``tune``) ask :func:`plots_available` first, write their tables
anyway and print :data:`SKIPPED` instead of the plots.

Shared by the arena's report (:mod:`adjacency.arena.charts`), tuning
(:mod:`adjacency.tuning.plot`) and the solved-game report
(:mod:`adjacency.solving.report`); it imports only the core's errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .core.errors import AdjacencyRuntimeError

INSTALL = "pip install 'adjacency-game[plots]'"
"""How to get the plots: the ``plots`` extra pulls matplotlib."""

SKIPPED = f"plots skipped: matplotlib is not installed (for plots: {INSTALL})"
"""The one line a command prints when it wrote its tables without the plots."""


class PlotsUnavailableError(AdjacencyRuntimeError):
    """matplotlib (the ``plots`` extra) cannot be imported."""


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend; :class:`PlotsUnavailableError` if missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PlotsUnavailableError(
            f"plots need matplotlib, which cannot be imported ({exc}): {INSTALL}"
        ) from None
    return plt


def plots_available() -> bool:
    """True if :func:`pyplot` works (imports matplotlib when it is installed)."""
    try:
        pyplot()
    except PlotsUnavailableError:
        return False
    return True


def save(fig: Any, path: Path) -> Path:
    """Lay out, write (110 dpi; the format follows the suffix) and close a figure."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    pyplot().close(fig)
    return path
