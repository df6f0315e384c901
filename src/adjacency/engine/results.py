"""What the engine returns: :class:`SearchResult`, :class:`SolveResult`, :class:`ProbeResult`.

Plain frozen records, with no dependency on the kernels, so that callers can name
them (in type hints, in tests) without the driver (:mod:`adjacency.engine.searcher`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SearchResult:
    """The outcome of :meth:`~adjacency.engine.searcher.Engine.search`.

    ``value`` is in pieces (mover's view); ``exact`` is True when the search reached
    the end of the game (the value is then the exact final margin). ``tt_probes`` counts
    the nodes (all threads) that looked their own entry up in the transposition table
    and ``tt_hits`` those that found one (``tt_hits <= tt_probes <= nodes``), from the
    start of the search to this result.
    """

    move: str
    value: float
    depth: int
    nodes: int
    seconds: float
    pv: tuple[str, ...]
    exact: bool
    tt_probes: int = 0
    tt_hits: int = 0


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :meth:`~adjacency.engine.searcher.Engine.solve`.

    ``value`` is the final margin under perfect play for the side to move; in
    win/draw/loss mode it is only its sign (-1, 0 or 1). ``complete`` is False
    when the time or node budget ran out (then ``value`` and ``best`` mean nothing).
    Every one of ``nodes`` is a node of the exact solver (the heuristic search that
    guesses the first probe's window is not counted); ``tt_probes`` and ``tt_hits``
    count the solver's table look-ups and the entries found, as in :class:`SearchResult`.
    """

    value: int
    best: str
    nodes: int
    seconds: float
    wld: bool
    complete: bool
    tt_probes: int = 0
    tt_hits: int = 0


@dataclass(frozen=True)
class ProbeResult:
    """The outcome of :meth:`~adjacency.engine.searcher.Engine.probe`: is the exact value at
    least ``beta``?

    ``high`` is True when the exact final margin is ``>= beta`` (the probe failed
    high); then ``bound`` is a lower bound of the exact value, else an upper bound
    (fail-soft: it may be tighter than ``beta``). Both are rounded to the margin's
    parity, so ``bound`` is a value the margin can take. ``complete`` is False when
    the time or node budget ran out (then ``high`` and ``bound`` mean nothing).
    """

    high: bool
    bound: int
    beta: int
    nodes: int
    seconds: float
    complete: bool


Progress = Callable[[SearchResult], None]
"""``progress(result)``: called by :meth:`~adjacency.engine.searcher.Engine.search` after
every completed iteration."""
