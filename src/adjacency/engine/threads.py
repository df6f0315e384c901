"""Lazy SMP: helper search threads that share the transposition table.

Lazy SMP (the scheme of Stockfish and most modern engines; Edax's solver uses a
related shared-table split) runs the same search in several threads that share
only the table: each thread has its own ``S`` (counters, killers, history, move
lists, abort flag) and they all read and write the one table in ``U`` without
locks (the entries' check words make torn writes read as misses, see
:mod:`adjacency.engine.kernels.transposition`). The threads desynchronise by themselves
(different timings, different depths), so one finds the table filled by the
others' work on the positions it is about to search.

* **Search**: the main thread runs the driver's iterative deepening as with one
  thread; each helper runs its own iterative deepening with full windows, odd
  helpers one ply deeper, until the main thread is done. Only the main thread's
  result is used, so a search with helpers is a search with a better-filled table.
* **Solver**: every thread solves the same null-window probe (helpers try a
  different root move first) and the first thread to finish gives the probe's
  value; the others stop. Every table entry a solver thread stores is an exact
  bound, whoever stored it, so the value is the single-thread value.

The kernels release the GIL (``nogil=True``), so Python threads run them in parallel.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

import numpy as np

from ..system.cpu_meter import carried
from .kernels import layout as L

_process_default = [1]


def default_threads() -> int:
    """Search threads of an engine that does not say (``engine:threads=0``): 1, so that
    processes running several games at once (arena workers, the web server) never
    oversubscribe the machine, unless :func:`use_all_cores` was called."""
    return _process_default[0]


def use_all_cores() -> None:
    """Make :func:`default_threads` every core: for processes that run one search at a
    time (``adjacency move``; ``solve`` and ``analyse`` pass ``--threads`` themselves)."""
    _process_default[0] = os.cpu_count() or 1


class Helpers:
    """The helper threads' states of one :class:`~adjacency.engine.searcher.Engine`."""

    def __init__(self, main: np.ndarray, count: int) -> None:
        self.main = main
        self.states = [np.zeros_like(main) for _ in range(count)]
        for number, S in enumerate(self.states, start=1):
            S[L.KILLERS : L.MOVES] = -1
            S[L.CFG + L.CFG_THREAD] = number
            # The pattern tables (3.6 MB) are written once, before the helpers exist.
            S[L.PAT : L.PAT + L.PAT_SIZE] = main[L.PAT : L.PAT + L.PAT_SIZE]
        self._threads: list[threading.Thread] = []

    @property
    def nodes(self) -> int:
        """Nodes the helpers searched since the last :meth:`reset`."""
        return self.count(L.STAT_NODES)

    def count(self, stat: int) -> int:
        """The helpers' sum of counter ``S[STATS + stat]`` since the last :meth:`reset`."""
        return sum(int(S[L.STATS + stat]) for S in self.states)

    def stop(self) -> None:
        """Set every helper's abort flag: their searches return at their next interior node."""
        for S in self.states:
            S[L.CTL + L.CTL_ABORT] = 1

    def sync(self) -> None:
        """Copy the main thread's settings and weights (the pattern tables: at start); clear the
        abort flags."""
        for number, S in enumerate(self.states, start=1):
            S[L.CFG : L.CFG + L.CFG_SIZE] = self.main[L.CFG : L.CFG + L.CFG_SIZE]
            S[L.CFG + L.CFG_THREAD] = number
            S[L.CFG + L.CFG_NODES] = 0
            S[L.CFG + L.CFG_FIRST] = -1
            S[L.W : L.W + L.W_SIZE] = self.main[L.W : L.W + L.W_SIZE]
            S[L.PW : L.PW + L.PW_SIZE] = self.main[L.PW : L.PW + L.PW_SIZE]
            S[L.CTL + L.CTL_ABORT] = 0

    def reset(self) -> None:
        """A new search: zero the counters, age the history (as the main thread's)."""
        for S in self.states:
            S[L.STATS : L.STATS + L.STATS_SIZE] = 0
            S[L.HISTORY : L.KILLERS] //= 8

    def clear(self) -> None:
        """Forget the helpers' killer moves and history."""
        for S in self.states:
            S[L.KILLERS : L.MOVES] = -1
            S[L.HISTORY : L.KILLERS] = 0

    # ------------------------------------------------------------------- search

    def start(self, loop: Callable[[np.ndarray, int], None]) -> None:
        """Run ``loop(S, number)`` in one thread per helper until :meth:`finish`."""
        self.sync()
        self._threads = [
            threading.Thread(  # measured with the search that starts them (system/cpu_meter)
                target=carried(loop), args=(S, n), name=f"adjacency-helper-{n}", daemon=True
            )
            for n, S in enumerate(self.states, start=1)
        ]
        for thread in self._threads:
            thread.start()

    def finish(self) -> None:
        """Stop the helpers started by :meth:`start` and wait for them."""
        self.stop()
        for thread in self._threads:
            thread.join()
        self._threads = []
