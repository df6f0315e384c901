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
from typing import TYPE_CHECKING

from ..core import Position
from ..engine import SearchResult, warmup
from ..engine.book import lookup
from ..engine.config import SPEC_SETTING, EngineConfig, config_from_spec
from .base import Bot, Search, Thinking
from .registry import Option, OptionValue, register

if TYPE_CHECKING:
    from ..engine.searcher import Engine

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


BOT_OPTIONS = {
    "time": Option("time", 0.0, "seconds per move (0: the caller's limit)", minimum=0.0, cap=60.0),
    "depth": Option("depth", 0, "depth limit in plies (0: none)", minimum=0, maximum=64),
    "solve": Option("solve", True, "solve the endgame exactly when within reach"),
    "book": Option(
        "book",
        "shipped",
        "proven positions to play from: shipped, off or a directory",
        shared=("shipped", "off"),
    ),
}
"""The bot's own options, which are no engine setting: how long and how deep it thinks,
and whether it plays from the solver and the book."""

OPTION_ORDER = (
    "time",
    "depth",
    "tt",
    "driver",
    "eval",
    "solve",
    "lmr",
    "threads",
    "profile",
    "null",
    "probcut",
    "next_iteration",
    "book",
    "patterns",
)
"""The order ``adjacency bots`` and the web page have listed these options in since the
first version; the engine settings' other options (the evaluation terms, and any declared
later) follow in the order of :data:`~adjacency.engine.config.SETTINGS`."""


def setting_option(name: str) -> Option:
    """The bot option ``name`` of an engine setting, read from its declaration
    (:class:`~adjacency.engine.config.Setting`): default, range, choices, cap and help."""
    setting = SPEC_SETTING[name]
    return Option(
        name,
        setting.spec_default,
        setting.option_help(name),
        minimum=setting.spec_minimum,
        maximum=setting.spec_maximum,
        choices=setting.choices or None,
        cap=setting.cap,
        shared=setting.shared,
    )


def _options() -> tuple[Option, ...]:
    """The bot's own options (:data:`BOT_OPTIONS`) and one per engine setting's spec
    option, in :data:`OPTION_ORDER` and then the declarations' order; refuses (at import)
    an ordered name that is neither kind, or a bot option left out of the order."""
    strays = set(OPTION_ORDER) - set(SPEC_SETTING) - set(BOT_OPTIONS)
    if strays or not set(BOT_OPTIONS) <= set(OPTION_ORDER):
        raise RuntimeError(
            f"engine bot option order {OPTION_ORDER}: {sorted(strays)} are no options, and it "
            f"must place every one of the bot's own {sorted(BOT_OPTIONS)}"
        )
    names = (*OPTION_ORDER, *(name for name in SPEC_SETTING if name not in OPTION_ORDER))
    return tuple(BOT_OPTIONS[n] if n in BOT_OPTIONS else setting_option(n) for n in names)


OPTIONS = _options()
"""Every option of the ``engine`` bot: the engine settings' declared in one place,
:data:`~adjacency.engine.config.SETTINGS`, and the bot's own."""


@register(
    "engine",
    "compiled numba search: iterative deepening PVS or MTD(f), transposition table, "
    "exact endgame solver",
    "engine",
    options=OPTIONS,
)
def engine_bot(
    rng: random.Random,
    time: float = 0.0,
    depth: int = 0,
    solve: bool = True,
    book: str = "shipped",
    **settings: OptionValue,
) -> EngineBot:
    """The ``engine`` bot of a spec's parsed options (what :func:`~adjacency.bots.make_bot`
    passes): the spec's spellings turned into Python's in one place, ``time`` and ``depth``
    0 into ``None`` and the engine settings' options into an
    :class:`~adjacency.engine.config.EngineConfig`
    (:func:`~adjacency.engine.config.config_from_spec`)."""
    return EngineBot(
        rng,
        config_from_spec(settings),
        time=time or None,
        depth=depth or None,
        solve=solve,
        book=book,
    )


class EngineBot(Bot):
    """The strongest player: see :mod:`adjacency.engine` and docs/engine.md."""

    def __init__(
        self,
        rng: random.Random,
        config: EngineConfig | None = None,
        *,
        time: float | None = None,
        depth: int | None = None,
        solve: bool = True,
        book: str = "shipped",
    ) -> None:
        """An engine bot searching with ``config`` (default: the ``engine`` spec's, with
        :func:`~adjacency.engine.threads.default_threads` threads), ``time`` seconds a move
        at most (``None``: the caller's limit) and ``depth`` plies at most (``None``: no
        limit); ``solve``: solve the endgame exactly within reach; ``book``: ``shipped``,
        ``off`` or a directory of proven positions. The spec's spellings are the
        registered factory's (:func:`engine_bot`)."""
        super().__init__()
        self.book = book
        self.rng = rng
        self.time = time
        self.depth = depth
        self.solve = solve
        if config is None:
            config = config_from_spec({})
        from ..engine.searcher import Engine  # numba: loaded when the bot is built

        warmup()
        self.engine: Engine = Engine(config)

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
