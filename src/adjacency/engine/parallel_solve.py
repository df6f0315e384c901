"""The split-point solver: threads share one solve's tree (Young Brothers Wait).

Lazy SMP, which the search keeps (:mod:`adjacency.engine.threads`), made every thread
solve the same probe and take the first answer; on the solver the threads raced
rather than shared (two threads took 0.86-0.95x the time of one on 18-20 empties).
Here the threads divide one probe's tree, the scheme of the classic parallel
alpha-beta solvers and Edax (Feldmann's Young Brothers Wait Concept):

* a node at most ``split_depth`` plies below the root with at least ``split_floor``
  plies left is a **split node**: its owner
  searches the first move (the eldest brother) alone; if that does not cut, the
  other moves become tasks of a :class:`SplitPoint` that any idle thread may take;
* each task is one null-window search of a sibling at the split point's current
  alpha (re-searched with the full window if it lands inside it, as PVS does); a
  result ``>= beta`` cuts the split point: its other tasks are cancelled and the
  threads working below it abort their kernels and come back;
* an idle thread takes the pending task nearest the root (the biggest work); a
  split node's owner, once its own tasks are handed out, waits for them and
  meanwhile helps only below its own split point (the "helpful master"), so no
  thread ever waits on work that waits on it;
* below the split nodes a task is one call of the compiled
  :func:`~adjacency.engine.kernels.solver.solve` on the thread's own ``S``; all threads share
  the table in ``U`` (lockless, :mod:`adjacency.engine.kernels.transposition`).

**Why the split points live in Python, not in numba.** numba's nopython mode has no
locks, condition variables or atomic read-modify-write on arrays, which a split point
needs (a shared alpha, a task counter, wake-ups). A Python split node costs some tens
of microseconds (a few kernel calls to list and order its moves, make its children
and store its result); with the top :data:`SPLIT_DEPTH` plies of the tree split, every
split node's subtree is large and the overhead is small, and everything below
runs in the unchanged single-thread kernel (its pruning, table, ordering and last-ply
code), which releases the GIL (``nogil=True``): the threads run in parallel.

Values equal the single-thread solver's: every task's result is a correct fail-soft
bound for its window, a split point combines them as the kernel's move loop does, and
every table entry any thread stores is an exact bound (the tree differs, the value
cannot). Cancellation and stops: a thread's abort flag ``S[CTL + CTL_ABORT]`` is set
(under the scheduler's lock) when a split point its work lies below is cut; the
kernel unwinds without storing, and the thread raises :class:`_Cancelled` up to the
task of that split point. An abort that no cut explains (the engine's timer, Ctrl-C,
the node limit) halts the whole solve (:class:`_Stopped`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..system.cpu_meter import carried
from .kernels import layout as L
from .kernels import solver as kv
from .kernels.bits import play
from .kernels.ordering import child_hash

SPLIT_DEPTH = 4
"""Default depth of the split tree (the ``Engine.split_depth`` setting): nodes at most this
many plies below the root are split nodes. A split node costs 20-40 microseconds of
Python (suite solves with one thread's state; with two threads, waking and handing over,
a task cost about 100 microseconds on game positions: :data:`ENDGAME_SPLIT_FLOOR`);
at 4, the extra CPU against the bare kernel measured 0-2% on 18- and 20-empty
solves (1,300 and 2,200-2,900 split nodes); at 6, 10-50% (12,000-36,000 split nodes)."""
SPLIT_FLOOR = 9
"""The fewest plies left of a split node in short games (:func:`split_floor`; the
``Engine.split_floor`` setting overrides it). In short games, whose nodes have some 45
moves, the top 4 plies hold thousands of small subtrees: on three 8-round win/draw/loss
solves with 11 plies left, split nodes from 7 plies left (2,500-13,500 of them) cost
20-45% more CPU than the bare kernel, from 9 (50-250) none measurable."""
ENDGAME_SPLIT_FLOOR = 15
"""The fewest plies left of a split node where the board (nearly) fills
(:func:`split_floor`). There a subtree of 11 plies is about a thousand nodes (some 40
microseconds of kernel) in a null-window probe, while a task costs about 100 microseconds of
Python and wake-ups. Two threads, 28-round game positions (seed 1001, cold table; CPU of
the process, and of the busier thread, which two free cores would make the wall time):
on five with 16 plies left, split nodes from 12 plies left (those of the default depth)
made 2,000-4,000 tasks and took 1.2-2.1x one thread's CPU, from 15 plies 29-54 tasks and
0.75-1.09x, the busier thread's CPU the same or less; on four with 18 plies left, from 14
plies 5,600-9,900 tasks and 1.15-1.36x, from 15 plies 540-1,200 tasks and 0.98-1.21x."""
ENDGAME_SPLIT_DEPTH = 3
"""Where the board fills, split nodes lie at most this many plies below the root
(:func:`split_floor`): on four 20-ply random-play positions (seed 1001), 3 plies (from 17
plies left) made 1,400 tasks a solve against 4 plies' 10,000-11,000, with 2-6% less CPU in
all and in the busier thread; the same nodes within 1%."""
ENDGAME_SPLIT_ROOT = 17
"""Where the board fills, solves with fewer plies left run on one thread (:func:`split_floor`):
a 16-ply solve takes 0.1-0.3 s of CPU. Splitting its top two plies took the same CPU as
one thread (seed 20261123, five positions each, medians, load 6: 0.18 s on game positions,
0.15 against 0.13 s on random ones) and won or lost wall time by the machine's load (0.36
against 0.63 s on the game positions, 0.24 against 0.15 s on the random ones); one thread
costs no overhead and is not slower than version one's solver there (the same nodes within
4%, 0.67-0.96x its CPU)."""
LOWEST_SPLIT = 5
"""Nodes with fewer plies left never split: the kernel special-cases the last four."""


def split_floor(empties: int, plies: int) -> int:
    """The fewest plies left of a split node for a root with ``empties`` empty squares and
    ``plies`` left: :data:`SPLIT_FLOOR` in short games (as many squares stay empty as
    :data:`~adjacency.engine.kernels.solver.OPEN_END` or more, some 45 moves a node), else
    :data:`ENDGAME_SPLIT_FLOOR`, and no more than :data:`ENDGAME_SPLIT_DEPTH` plies below
    the root, from :data:`ENDGAME_SPLIT_ROOT` plies left. Solves with fewer plies left
    than the floor run on one thread (the kernel alone)."""
    if empties - plies >= kv.OPEN_END:
        return SPLIT_FLOOR
    if plies < ENDGAME_SPLIT_ROOT:
        return ENDGAME_SPLIT_ROOT
    return max(ENDGAME_SPLIT_FLOOR, plies - ENDGAME_SPLIT_DEPTH)


class _Cancelled(Exception):
    """A split point above this thread's work was cut: unwind to the task of that point."""


class _Stopped(Exception):
    """The solve was stopped (timer, ``Engine.stop``, node limit): unwind everything."""


@dataclass(eq=False)
class SplitPoint:
    """A node whose eldest move is searched and whose other moves are tasks."""

    parent: SplitPoint | None
    """The split point whose task this node lies below (``None`` at the top)."""
    me: Any
    opp: Any
    plies: int
    ply: int
    h: Any
    color: int
    alpha: int
    beta: int
    moves: list[int]
    """The moves still to hand out (the eldest is searched already), in order."""
    best: int
    best_move: int
    next: int = 0
    """Index of the next task to hand out."""
    running: int = 0
    """Tasks being searched now."""
    cut: bool = False
    """A result reached ``beta``: the node is decided, its other tasks are cancelled."""

    def closed(self) -> bool:
        """True if this split point or one above it is cut (its work is void)."""
        sp: SplitPoint | None = self
        while sp is not None:
            if sp.cut:
                return True
            sp = sp.parent
        return False

    def below(self, other: SplitPoint) -> bool:
        """True if this split point is ``other`` or lies below it."""
        sp: SplitPoint | None = self
        while sp is not None:
            if sp is other:
                return True
            sp = sp.parent
        return False


def ordered_moves(S: np.ndarray, ply: int, n: int, sort: bool) -> list[int]:
    """The ``n`` moves listed at ``ply`` in the order the kernel's lazy selection
    (:func:`~adjacency.engine.kernels.ordering.bring_best_forward`) would search them."""
    moves = [int(m) for m in S[L.MOVES + 64 * ply : L.MOVES + 64 * ply + n]]
    if not sort:
        return moves
    keys = [int(k) for k in S[L.SCORES + 64 * ply : L.SCORES + 64 * ply + n]]
    for i in range(n):
        j = i
        for k in range(i + 1, n):
            if keys[k] > keys[j]:
                j = k
        if j != i:
            moves[i], moves[j] = moves[j], moves[i]
            keys[j] = keys[i]
    return moves


class Splitter:
    """One null-window (or windowed) solve shared by the threads of ``states``.

    ``states[0]`` is the calling thread's ``S``; one Python thread runs for each other
    state during :meth:`run`. ``stop_requested`` tells an outside stop (the engine's
    timer or :meth:`~adjacency.engine.searcher.Engine.stop`) from a cancellation.
    """

    def __init__(
        self,
        U: np.ndarray,
        states: list[np.ndarray],
        split_depth: int,
        split_floor: int,
        stop_requested: Callable[[], bool],
    ) -> None:
        self.U = U
        self.states = states
        self.split_depth = split_depth
        self.split_floor = split_floor
        self.split_min = LOWEST_SPLIT
        """Nodes with fewer plies left run in the kernel (set per root by :meth:`run`)."""
        self.stop_requested = stop_requested
        self.lock = threading.Condition()
        self.open: list[SplitPoint] = []
        self.paths: list[list[SplitPoint]] = [[] for _ in states]
        """The split points whose tasks each thread is working in, outermost first."""
        self.halted = False
        self.finished = False
        self.error: BaseException | None = None
        """An unexpected exception in a helper thread (a bug): :meth:`run` raises it."""

    # ------------------------------------------------------------------ driving

    def run(
        self,
        me: Any,
        opp: Any,
        plies: int,
        alpha: int,
        beta: int,
        h: Any,
        color: int,
        run_main: Callable[[Callable[[], int]], int],
    ) -> int | None:
        """Solve the root within ``(alpha, beta)``; the root's value and best move go to
        ``states[0][ROOT:]`` as the kernel's would. ``run_main`` runs the calling thread's
        share (:func:`adjacency.system.signals.interruptible`). Returns ``None`` if the
        solve was stopped (the main abort flag is then set)."""
        main = self.states[0]
        self.split_min = max(LOWEST_SPLIT, self.split_floor, plies - self.split_depth)
        helpers = [
            threading.Thread(  # measured with the solve that starts them (system/cpu_meter)
                target=carried(self._help), args=(w,), name=f"adjacency-split-{w}", daemon=True
            )
            for w in range(1, len(self.states))
        ]
        for thread in helpers:
            thread.start()
        outcome: list[tuple[int, int]] = []

        def root() -> int:
            with contextlib.suppress(_Stopped):
                outcome.append(self._node(0, me, opp, plies, alpha, beta, 0, h, color, None))
            return 0

        try:
            run_main(root)
        finally:
            with self.lock:
                self.finished = True
                if not outcome:
                    self.halted = True
                for S in self.states[1:]:
                    S[L.CTL + L.CTL_ABORT] = 1
                self.lock.notify_all()
            for thread in helpers:
                thread.join()
        if self.error is not None:
            # A lost task would make the value wrong: never return one.
            raise self.error
        if not outcome or self.stop_requested():
            main[L.CTL + L.CTL_ABORT] = 1
            return None
        main[L.CTL + L.CTL_ABORT] = 0
        value, move = outcome[0]
        if move >= 0:
            main[L.ROOT + L.ROOT_VALUE] = value
            main[L.ROOT + L.ROOT_MOVE] = move
        return value

    def _help(self, w: int) -> None:
        """A helper thread: take the pending task nearest the root, run it, repeat."""
        while True:
            with self.lock:
                task = None
                while not self.finished and not self.halted:
                    task = self._take(w, None)
                    if task is not None:
                        break
                    self.lock.wait()
                if task is None:
                    return
            try:
                self._run(w, *task)
            except _Stopped:
                return
            except BaseException as error:  # a bug: stop the solve and let run() raise it
                with self.lock:
                    self.error = error
                    self._halt()
                return

    # ---------------------------------------------------------------- the tree

    def _node(
        self,
        w: int,
        me: Any,
        opp: Any,
        plies: int,
        alpha: int,
        beta: int,
        ply: int,
        h: Any,
        color: int,
        parent: SplitPoint | None,
    ) -> tuple[int, int]:
        """Fail-soft value and best move (-1 if unknown) of a node searched by thread ``w``."""
        S = self.states[w]
        if plies < self.split_min:
            value = int(kv.solve(me, opp, plies, alpha, beta, ply, h, color, self.U, S))
            self._after_kernel(w)
            return value, int(S[L.ROOT + L.ROOT_MOVE]) if ply == 0 else -1
        S[L.STATS + L.STAT_NODES] += 1
        n, value, alpha, beta = kv.prepare(me, opp, plies, alpha, beta, ply, h, color, self.U, S)
        if n < 0:
            return int(value), -1
        alpha, beta = int(alpha), int(beta)
        sort = plies >= S[L.CFG + L.CFG_SOLVE_ORDER]
        moves = ordered_moves(S, ply, int(n), bool(sort))
        alpha0 = alpha
        child_me, child_opp, nh = self._child(me, opp, moves[0], h, color)
        eldest, _ = self._node(
            w, child_me, child_opp, plies - 1, -beta, -alpha, ply + 1, nh, 1 - color, parent
        )
        best, best_move = -eldest, moves[0]
        if best < beta and len(moves) > 1:
            point = SplitPoint(
                parent, me, opp, plies, ply, h, color, max(alpha, best), beta, moves[1:], best,
                best_move,
            )  # fmt: skip
            best, best_move = self._share(w, point)
        kv.store_solved(h, plies, best, alpha0, beta, best_move, self.U, S)
        return best, best_move

    def _child(self, me: Any, opp: Any, sq: int, h: Any, color: int) -> tuple[Any, Any, Any]:
        # numba returns uint64 results as Python ints: retype them for the next calls.
        child_me, child_opp, flips = (np.uint64(b) for b in play(me, opp, sq, self.U))
        return child_me, child_opp, np.uint64(child_hash(h, sq, flips, color, self.U))

    def _share(self, w: int, point: SplitPoint) -> tuple[int, int]:
        """Hand out ``point``'s tasks, take part in them, and wait until they are done
        (helping only below ``point``); returns its fail-soft value and best move."""
        with self.lock:
            self.open.append(point)
            self.lock.notify_all()
        try:
            while True:
                with self.lock:
                    while True:
                        if self.halted:
                            raise _Stopped
                        if point.parent is not None and point.parent.closed():
                            raise _Cancelled
                        if point.cut:
                            return point.best, point.best_move
                        task = self._take(w, point)
                        if task is not None:
                            break
                        if point.next >= len(point.moves) and point.running == 0:
                            return point.best, point.best_move
                        self.lock.wait()
                self._run(w, *task)
        finally:
            with self.lock:
                self.open.remove(point)

    def _take(self, w: int, within: SplitPoint | None) -> tuple[SplitPoint, int] | None:
        """Under the lock: claim a pending task for thread ``w`` (``within``'s own first,
        else the one nearest the root below ``within``, or anywhere if ``None``)."""
        chosen: SplitPoint | None = None
        for point in self.open:
            if point.next >= len(point.moves) or point.closed():
                continue
            if within is not None and not point.below(within):
                continue
            if point is within:
                chosen = point
                break
            if chosen is None or point.ply < chosen.ply:
                chosen = point
        if chosen is None:
            return None
        index = chosen.next
        chosen.next += 1
        chosen.running += 1
        self.paths[w].append(chosen)
        return chosen, index

    def _run(self, w: int, point: SplitPoint, index: int) -> None:
        """Search task ``index`` of ``point`` in thread ``w`` and fold its result in."""
        sq = point.moves[index]
        alpha = point.alpha
        value: int | None = None
        try:
            child_me, child_opp, nh = self._child(point.me, point.opp, sq, point.h, point.color)
            plies, ply, color = point.plies - 1, point.ply + 1, 1 - point.color
            v, _ = self._node(
                w, child_me, child_opp, plies, -alpha - 1, -alpha, ply, nh, color, point
            )
            value = -v
            if alpha < value < point.beta:
                # Inside a wider window: re-search with it, as PVS does.
                low = max(point.alpha, alpha)
                if low < point.beta:
                    v, _ = self._node(
                        w, child_me, child_opp, plies, -point.beta, -low, ply, nh, color, point
                    )
                    value = -v
        except _Cancelled:
            value = None
        finally:
            with self.lock:
                self.paths[w].pop()
                point.running -= 1
                self._settle(w)
                if value is not None and not point.closed():
                    if value > point.best:
                        point.best, point.best_move = value, sq
                    point.alpha = max(point.alpha, value)
                    if value >= point.beta:
                        point.cut = True
                        self._cancel()
                self.lock.notify_all()

    # ------------------------------------------------------------ abort flags

    def _after_kernel(self, w: int) -> None:
        """After thread ``w``'s compiled solve: if its abort flag is set, clear it and raise
        why the kernel stopped (its value is then no result): :class:`_Stopped` for a stop
        or the node limit, :class:`_Cancelled` for a cut at a split point above it."""
        S = self.states[w]
        if S[L.CTL + L.CTL_ABORT]:
            with self.lock:
                S[L.CTL + L.CTL_ABORT] = 0
                if self.halted or self.stop_requested():
                    self._halt()
                    raise _Stopped
                if any(point.closed() for point in self.paths[w]):
                    raise _Cancelled
                # Neither a cut nor a stop: the node limit (should_stop) ends the solve.
                self._halt()
                raise _Stopped

    def _cancel(self) -> None:
        """Under the lock: abort every thread whose work lies below a cut split point."""
        for w, path in enumerate(self.paths):
            if any(point.closed() for point in path):
                self.states[w][L.CTL + L.CTL_ABORT] = 1

    def _settle(self, w: int) -> None:
        """Under the lock, after thread ``w`` left a task: clear an abort flag set for a
        cancellation its remaining work is not part of (an outside stop stays set)."""
        S = self.states[w]
        if S[L.CTL + L.CTL_ABORT] and not any(point.closed() for point in self.paths[w]):
            S[L.CTL + L.CTL_ABORT] = 0
            if self.halted or self.stop_requested():
                S[L.CTL + L.CTL_ABORT] = 1

    def _halt(self) -> None:
        """Under the lock: stop every thread."""
        self.halted = True
        for S in self.states:
            S[L.CTL + L.CTL_ABORT] = 1
        self.lock.notify_all()
