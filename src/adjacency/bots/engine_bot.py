"""The ``engine`` bot: the compiled search of :mod:`adjacency.engine` behind the Bot interface.

Each move: if the game's end is within the solver's reach for the time given
(see :func:`solve_reach`), a short heuristic search picks a fallback move and a
guess, then the exact solver gets the rest of the budget; a completed solve
plays a perfect move. Otherwise iterative deepening runs until the budget.
The kernels are compiled (or loaded from numba's cache) when the bot is built,
so no move pays for compilation. Every report (:class:`~adjacency.bots.base.Thinking`)
carries the engine's counters for the move so far: the table's probes and hits, and
the nodes of the exact solver (0 in the heuristic search's reports).
"""

from __future__ import annotations

import math
import random
from typing import Any, cast

from ..core import Position
from ..engine import Engine, SearchResult, warmup
from ..engine.book import lookup
from ..engine.config import (
    DRIVERS,
    EVALUATIONS,
    NULL_REDUCTION_MAX,
    PROBCUT_MAX,
    TERM_MAX,
    TERMS,
    THREADS_MAX,
    EngineConfig,
)
from ..engine.profiles import DEFAULT_PROFILE, PROFILES
from ..engine.threads import default_threads
from .base import Bot, Search, Thinking
from .registry import Option, OptionValue, register

RETURN_MARGIN = 0.01
"""Seconds kept in hand after the engine stops, for returning the move."""


def solve_reach(seconds: float | None) -> int:
    """The most plies left that the bot tries to solve exactly with ``seconds`` to spend.

    From the bench suite's solve times on this machine (docs/engine.md): 14 plies
    take ~0.03 s, 16 ~0.2 s, 18 ~1.5 s, 20 from 12 to 40 s.
    """
    if seconds is None or seconds >= 90:
        return 20
    for budget, plies in ((4.0, 18), (0.6, 16), (0.15, 14), (0.03, 12)):
        if seconds >= budget:
            return plies
    return 10


def short_reach(seconds: float | None) -> int:
    """The most plies left that the bot solves exactly however many squares are empty.

    Short games end with many empty squares, where far-apart moves commute and the
    table merges the transpositions, so the count of move sequences of
    :func:`within_reach` overestimates the work: on 8x8 with ~49 empties, 9 plies
    took 0.13-0.57 s to solve from a cold table (docs/engine.md).
    """
    if seconds is None or seconds >= 0.5:
        return 9
    return 7 if seconds >= 0.05 else 5


def within_reach(position: Position, seconds: float | None) -> bool:
    """True if solving ``position`` should take about as long as an endgame of
    :func:`solve_reach` plies: the move sequences to the end, ``empties! / (empties -
    plies)!``, are at most ``reach!`` (games may end before the board is full), or
    the game has at most :func:`short_reach` plies left."""
    if position.plies_left <= short_reach(seconds):
        return True
    empties = position.empty.bit_count()
    reach = solve_reach(seconds)
    return math.perm(empties, position.plies_left) <= math.factorial(reach)


UNSET = -1
"""How a spec says "the profile's" for a numeric engine setting (a spec holds numbers
only; :class:`~adjacency.engine.config.EngineConfig` says ``None``); ``next_iteration``,
whose range has no 0, says it with 0, as ``time`` says "the caller's limit"."""

SPEC_NAMES = {"tt": "tt_mb", "eval": "evaluation", "lmr": "reductions", "null": "null_reduction"}
"""The spec's short name of each engine setting whose
:class:`~adjacency.engine.config.EngineConfig` field is called otherwise (what users type
since the first version; the spec strings never change)."""


def spec_config(**options: OptionValue) -> EngineConfig:
    """The :class:`~adjacency.engine.config.EngineConfig` of the ``engine`` bot's engine
    options (parsed values by spec name: ``tt``, ``eval``, ``driver``, ``lmr``, ``profile``,
    ``threads``, ``null``, ``probcut``, ``next_iteration``, ``patterns`` and the terms; the
    bot's own ``time``, ``depth``, ``solve`` and ``book`` are not among them): the short
    names renamed (:data:`SPEC_NAMES`), :data:`UNSET` made ``None``, the terms gathered,
    and ``threads`` 0 (or missing) made :func:`~adjacency.engine.threads.default_threads`;
    a setting not given keeps :class:`~adjacency.engine.config.EngineConfig`'s default. Raises
    :class:`~adjacency.core.errors.InvalidSettingsError` for a value out of range."""
    settings: dict[str, Any] = {}
    terms: dict[str, int] = {}
    for name, value in options.items():
        if name in TERMS:
            if value != UNSET:
                terms[name] = cast(int, value)
        elif name != "threads":
            settings[SPEC_NAMES.get(name, name)] = None if value == UNSET else value
    threads = options.get("threads") or default_threads()
    return EngineConfig(threads=cast(int, threads), terms=terms, **settings)


@register(
    "engine",
    "compiled numba search: iterative deepening PVS or MTD(f), transposition table, "
    "exact endgame solver",
    "engine",
    options=(
        Option("time", 0.0, "seconds per move (0: the caller's limit)", minimum=0.0, cap=60.0),
        Option("depth", 0, "depth limit in plies (0: none)", minimum=0, maximum=64),
        Option("tt", 64, "transposition table size in MB", minimum=1, maximum=4096, cap=256),
        Option("driver", "pvs", "search driver", choices=DRIVERS),
        Option("eval", "positional", "evaluation", choices=EVALUATIONS),
        Option("solve", True, "solve the endgame exactly when within reach"),
        Option("lmr", True, "late move reductions (forward pruning; off: full-width search)"),
        Option(
            "threads",
            0,
            "search threads sharing the table (Lazy SMP; 0: 1, or every core in adjacency move)",
            minimum=0,
            maximum=THREADS_MAX,
            cap=2,
        ),
        Option(
            "profile",
            DEFAULT_PROFILE,
            "playing version: evaluation and search settings (v1: the first engine, frozen)",
            choices=tuple(PROFILES),
        ),
        Option(
            "null",
            UNSET,
            "null-move reduction R (0: off; -1: the profile's)",
            minimum=UNSET,
            maximum=NULL_REDUCTION_MAX,
        ),
        Option(
            "probcut",
            UNSET,
            "ProbCut margin in 1/16 piece (0: off; -1: the profile's)",
            minimum=UNSET,
            maximum=PROBCUT_MAX,
        ),
        Option(
            "next_iteration",
            0.0,
            "start no new iteration once this fraction of the move's time is spent "
            "(1: search to the deadline; 0: the profile's)",
            minimum=0.0,
            maximum=1.0,
        ),
        Option(
            "book",
            "shipped",
            "proven positions to play from: shipped, off or a directory",
            shared=("shipped", "off"),
        ),
        Option(
            "patterns",
            "shipped",
            "pattern evaluation weights (v4): shipped or a file from adjacency train-eval",
            shared=("shipped",),
        ),
        *(
            Option(
                name,
                UNSET,
                f"{name} weight of the evaluation (-1: the profile's)",
                minimum=UNSET,
                maximum=TERM_MAX,
            )
            for name in TERMS
        ),
    ),
)
class EngineBot(Bot):
    """The strongest player: see :mod:`adjacency.engine` and docs/engine.md."""

    def __init__(
        self,
        rng: random.Random,
        time: float = 0.0,
        depth: int = 0,
        tt: int = 64,
        driver: str = "pvs",
        eval: str = "positional",
        solve: bool = True,
        lmr: bool = True,
        profile: str = DEFAULT_PROFILE,
        book: str = "shipped",
        threads: int = 0,
        null: int = UNSET,
        probcut: int = UNSET,
        next_iteration: float = 0.0,
        patterns: str = "shipped",
        **terms: int,
    ) -> None:
        super().__init__()
        self.book = book
        self.rng = rng
        self.time = time or None
        self.depth = depth or None
        self.solve = solve
        config = spec_config(
            tt=tt,
            eval=eval,
            driver=driver,
            lmr=lmr,
            profile=profile,
            threads=threads,
            null=null,
            probcut=probcut,
            # 0 is the profile's, as time 0 is the caller's limit: a fraction of 0 would
            # never start a second iteration, so the spec needs no -1 and has no gap.
            next_iteration=next_iteration or UNSET,
            patterns=patterns,
            **terms,
        )
        warmup()
        self.engine = Engine(config)

    def stop(self) -> None:
        super().stop()
        self.engine.stop()

    def new_game(self) -> None:
        self.engine.clear()

    def warm(self) -> None:
        """One short search of the start position with this bot's own engine (its helper
        threads started, its pattern weights and book read), then :meth:`new_game`, whose
        clearing writes every page of the table. The kernels are compiled already (the
        constructor's ``warmup``), but the system maps a new table's memory only on first
        touch, so a fresh table's first search pays a page fault per page it writes (a
        depth-9 search of a fresh 64 MB table without huge pages: 32,768 faults, +540 ms;
        docs/engine.md) inside the first move's time. Cleared afterwards, so no search
        sees the warm-up."""
        start = Position.start()
        self.engine.search(start, depth=4)
        if self.book != "off":
            lookup(start, self.book)  # reads the book once
        self.new_game()

    def _choose(self, position: Position, search: Search) -> str:
        budget = search.remaining()
        if self.time is not None:
            budget = min(budget, self.time - search.elapsed())
        seconds = None if budget == float("inf") else max(0.0, budget - RETURN_MARGIN)
        depth = min(d for d in (self.depth, search.limit.depth, 64) if d is not None)
        nodes = search.limit.nodes
        started = search.elapsed()

        def progress(result: SearchResult) -> None:
            search.publish(_thinking(result))

        if self._stop.is_set():
            seconds = 0.0
        exact = self.solve and self.depth is None and search.limit.depth is None
        hit = lookup(position, self.book) if exact and self.book != "off" else None
        if hit is not None:  # a proven position (docs/solutions.md): play an optimal move
            pv = hit.moves[:1]
            search.publish(Thinking(position.plies_left, hit.value, 0, pv, text="book", exact=True))
            return hit.moves[0]
        if (
            self.solve
            and self.depth is None
            and search.limit.depth is None
            and within_reach(position, seconds)
        ):
            first = self.engine.search(
                position, None if seconds is None else seconds * 0.1, min(depth, 6), nodes
            )
            search.publish(_thinking(first))
            if first.exact:
                return first.move
            left = None
            if seconds is not None:
                left = max(0.0, seconds - (search.elapsed() - started))
            solved = self.engine.solve(position, seconds=left, nodes=nodes, guess=first.value)
            if solved.complete:
                search.publish(
                    Thinking(
                        depth=position.plies_left,
                        score=float(solved.value),
                        nodes=first.nodes + solved.nodes,
                        pv=self.engine.principal_variation(
                            position,
                            position.board.square(solved.best),
                            position.plies_left,
                            solver=True,
                        ),
                        seconds=search.elapsed(),
                        text="solved",
                        exact=True,
                        tt_probes=first.tt_probes + solved.tt_probes,
                        tt_hits=first.tt_hits + solved.tt_hits,
                        solver_nodes=solved.nodes,
                    )
                )
                return solved.best
            return first.move
        result = self.engine.search(position, seconds, depth, nodes, progress)
        search.publish(_thinking(result))
        return result.move


def _thinking(result: SearchResult) -> Thinking:
    return Thinking(
        depth=result.depth,
        score=result.value,
        nodes=result.nodes,
        pv=result.pv,
        seconds=result.seconds,
        exact=result.exact,
        tt_probes=result.tt_probes,
        tt_hits=result.tt_hits,
        solver_nodes=0,  # the heuristic search never enters the solver
    )
