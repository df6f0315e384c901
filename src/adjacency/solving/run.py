"""Running the solved-game table: entries solved in parallel, rounds upward, resumable.

:func:`run_table` plans the entries of some lanes
(:func:`~adjacency.solving.solved_starts.plan_lanes`) that a store does not hold yet and
solves them on an executor; :func:`run_task` is what a worker runs for one entry, keeping
its first moves in a solutions database as they are proven (:mod:`.store`). This module
sits above both the solver of the entries (:mod:`.solved_starts`) and the store, which
therefore import neither it nor each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .entries import Entry, EntryResult, RootMove
from .solved_starts import Lane, derive, solve_entry
from .store import SolutionsStore

if TYPE_CHECKING:
    from ..workers import Executor


@dataclass(frozen=True)
class SolveTask:
    """What a worker needs to solve one entry (a plain, picklable value)."""

    entry: Entry
    budget: float | None
    symmetry: bool
    tt_mb: float
    threads: int = 1
    """Solver threads sharing each solve's tree."""
    checkpoint: str | None = None
    """A solutions database this process can open: first moves are kept there as they
    are proven, and the ones already kept are not solved again (``None``: no checkpoints,
    as on a remote Ray node)."""


def run_task(task: SolveTask) -> EntryResult:
    """Solve one entry in whatever process calls it (loads the compiled kernels first,
    so the budget is spent on the solve alone), keeping its first moves in
    ``task.checkpoint`` as they are proven."""
    from ..engine import warmup

    warmup()
    if task.checkpoint is None:
        return solve_entry(task.entry, task.budget, task.symmetry, task.tt_mb, task.threads)
    with SolutionsStore(task.checkpoint) as store:
        known = store.moves(task.entry, task.symmetry)

        def keep(move: RootMove) -> None:
            store.put_move(task.entry, task.symmetry, move)

        return solve_entry(
            task.entry, task.budget, task.symmetry, task.tt_mb, task.threads, known, keep
        )


@dataclass
class RunReport:
    """What :func:`run_table` did: entries solved or timed out now, found stored, derived."""

    computed: list[EntryResult] = field(default_factory=list)
    stored: int = 0
    derived: int = 0
    planned: int = 0


class _Runner:
    """The plan of one run: which entries to compute, lane by lane, rounds upward."""

    def __init__(
        self,
        store: SolutionsStoreLike,
        lanes: list[Lane],
        budget: float | None,
        symmetry: bool,
        rounds_limit: int | None,
        settings: dict[str, Any] | None = None,
    ) -> None:
        self.store, self.lanes, self.budget, self.symmetry = store, lanes, budget, symmetry
        self.settings = dict(settings or {})
        """The run's settings that can change a stored result (the transposition table's
        size, the threads): every entry it stores records them in its provenance."""
        self.closed: dict[int, int] = {}
        """Lane index -> rounds of its first timeout at this budget (the frontier)."""
        self.todo: list[tuple[int, int]] = []
        self.report = RunReport()
        for index, lane in enumerate(lanes):
            top = lane.max_rounds if rounds_limit is None else min(lane.max_rounds, rounds_limit)
            for rounds in range(1, top + 1):
                known = store.get(lane.entry(rounds), symmetry)
                if known is not None and self._finished(known):
                    self.report.stored += 1
                    self._derive(lane, known)
                    if known.status == "timeout":
                        self.closed[index] = rounds
                        break
                    continue
                self.todo.append((rounds, index))
        self.todo.sort()
        self.report.planned = len(self.todo)

    def _finished(self, known: EntryResult) -> bool:
        if known.status == "solved":
            return True
        return known.status == "timeout" and (
            self.budget is not None and known.budget >= self.budget
        )

    def _derive(self, lane: Lane, result: EntryResult) -> None:
        """Store the followers' entries, unless they hold as much already."""
        for follower in list(lane.entries(result.entry.rounds))[1:]:
            known = self.store.get(follower, self.symmetry)
            if known is None or (
                known.status == "timeout"
                and (result.status == "solved" or result.budget > known.budget)
            ):
                self.store.put(derive(result, follower), self.settings)
                self.report.derived += 1

    def tasks(self, tt_mb: float, threads: int, checkpoint: str | None) -> Iterator[SolveTask]:
        for rounds, index in self.todo:
            closed = self.closed.get(index)
            if closed is not None and closed < rounds:
                continue
            yield SolveTask(
                self.lanes[index].entry(rounds),
                self.budget,
                self.symmetry,
                tt_mb,
                threads,
                checkpoint,
            )

    def record(self, result: EntryResult) -> None:
        self.store.put(result, self.settings)
        self.report.computed.append(result)
        index = next(
            i
            for i, lane in enumerate(self.lanes)
            if lane.entry(result.entry.rounds) == result.entry
        )
        self._derive(self.lanes[index], result)
        if result.status == "timeout":
            rounds = result.entry.rounds
            self.closed[index] = min(self.closed.get(index, rounds), rounds)


class SolutionsStoreLike(Protocol):
    """The part of :class:`~adjacency.solving.store.SolutionsStore` the run uses."""

    def get(self, entry: Entry, symmetry: bool = True) -> EntryResult | None:
        """The stored result of ``entry`` solved with symmetry on (or off), or ``None``."""

    def put(self, result: EntryResult, settings: dict[str, Any] | None = None) -> None:
        """Store (or replace) the result of ``result.entry``, ``settings`` (the run's, those
        that change a result) kept in its provenance."""


def run_table(
    store: SolutionsStoreLike,
    lanes: list[Lane],
    executor: Executor,
    budget: float | None,
    symmetry: bool = True,
    rounds_limit: int | None = None,
    tt_mb: float = 64,
    on_plan: Callable[[int], None] | None = None,
    on_result: Callable[[EntryResult, int], None] | None = None,
    work: Callable[[SolveTask], EntryResult] = run_task,
    threads: int = 1,
    checkpoint: str | None = None,
    command: str | None = None,
) -> RunReport:
    """Solve every entry of ``lanes`` not yet in ``store``, rounds upward, in parallel.

    Entries run on ``executor`` in the order (rounds, lane), so the cheap ones come
    first and every lane advances; a lane stops at its first timeout (its frontier at
    this ``budget``): later entries of it are not started. An entry already
    submitted when its lane closes still runs (at most the executor's window).
    Stored entries are skipped (resume), and so are stored timeouts at a budget at
    least as large; timeouts at a smaller budget are tried again. ``on_plan`` gets
    the number of entries to compute, ``on_result`` each result and the entries
    skipped because their lane closed so far. ``threads`` and ``checkpoint`` go to
    each :class:`SolveTask`; ``command`` (the command line that runs this) is recorded
    in every stored row's provenance beside them.
    """
    # the nodes an entry takes depend on the table's size and the threads (the same entry
    # took 328 and 721 nodes under two of them), so each stored row records both
    settings: dict[str, Any] = {"tt_mb": tt_mb, "threads": threads}
    if command is not None:
        settings["command"] = command
    runner = _Runner(store, lanes, budget, symmetry, rounds_limit, settings)
    if on_plan is not None:
        on_plan(runner.report.planned)
    skipped_before = 0
    for _, result in executor.map_unordered(work, runner.tasks(tt_mb, threads, checkpoint)):
        runner.record(result)
        if on_result is not None:
            skipped = sum(1 for r, i in runner.todo if i in runner.closed and runner.closed[i] < r)
            on_result(result, skipped - skipped_before)
            skipped_before = skipped
    return runner.report


@dataclass
class RecomputeReport:
    """What :func:`recompute_table` did, row by row."""

    recomputed: list[tuple[EntryResult, EntryResult]] = field(default_factory=list)
    """(the reconstructed row, the row computed again), values equal."""
    derived: int = 0
    """Rows derived again from a recomputed row (mirror images)."""
    timed_out: list[EntryResult] = field(default_factory=list)
    """Reconstructed rows whose solve ran past the row's own budget this time (a loaded
    or slower machine): left as they were."""
    disagree: list[tuple[EntryResult, EntryResult]] = field(default_factory=list)
    """(the reconstructed row, the new result) where the value, the optimal first moves
    or any first move's value differ: left as they were, for a person to look at."""
    left: list[EntryResult] = field(default_factory=list)
    """Reconstructed rows not tried: a timeout (a measurement of the machine that ran
    it, not a result to repeat) or a solve recorded as longer than ``up_to``."""


def recompute_table(
    store: RecomputeStore,
    up_to: float,
    tt_mb: float = 64,
    threads: int = 1,
    command: str | None = None,
    on_result: Callable[[EntryResult, EntryResult | None], None] | None = None,
    work: Callable[[SolveTask], EntryResult] = run_task,
) -> RecomputeReport:
    """Solve again, in this process, every row of ``store`` whose provenance is
    reconstructed and that was a solve recorded as taking at most ``up_to`` seconds,
    with the row's own budget and symmetry and this ``tt_mb`` and ``threads``; replace
    it by the new row, with its full record (``command`` among its settings), and derive
    its mirror images again from it.

    Why the value check: a recomputed row replaces the old one only when its value, its
    optimal first moves and every first move's value are the old ones (the node count
    and time may differ: they depend on the engine's version, the table's size and the
    machine). A row that disagrees, or whose solve runs past its budget here, is left as
    it was and reported. Timeouts are never recomputed: a timeout measures the machine
    that ran it. ``on_result`` gets each old row and its new result (``None`` while
    not tried). Cheapest first, so a run stopped early has done the most rows."""
    settings: dict[str, Any] = {"tt_mb": tt_mb, "threads": threads}
    if command is not None:
        settings["command"] = command
    report = RecomputeReport()
    rows = sorted(
        (r for r in store.results(symmetry=None) if r.reconstructed and not r.source),
        key=lambda r: (r.seconds, r.entry, r.symmetry),
    )
    for old in rows:
        if old.status != "solved" or old.seconds > up_to:
            report.left.append(old)
            continue
        new = work(SolveTask(old.entry, old.budget or None, old.symmetry, tt_mb, threads))
        if on_result is not None:
            on_result(old, new)
        if new.status != "solved":
            report.timed_out.append(old)
            continue
        if (new.value, set(new.optimal), new.move_values) != (
            old.value,
            set(old.optimal),
            old.move_values,
        ):
            report.disagree.append((old, new))
            continue
        store.put(new, settings)
        report.recomputed.append((old, new))
        prefix = f"{old.entry} "
        for image in store.results(symmetry=old.symmetry):
            if image.source.startswith(prefix) and image.reconstructed:
                store.put(derive(new, image.entry), settings)
                report.derived += 1
    return report


class RecomputeStore(SolutionsStoreLike, Protocol):
    """The part of :class:`~adjacency.solving.store.SolutionsStore` a recompute uses."""

    def results(self, symmetry: bool | None = True) -> list[EntryResult]:
        """Every stored entry (of one symmetry setting, or both with ``None``), sorted."""
