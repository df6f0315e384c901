"""The solved-game table: exact values of start positions for every board size and length.

An *entry* is a start position: board ``rows x cols``, ``rounds`` and the first
mover. :func:`solve_entry` proves its value (the final margin under perfect play,
from the first mover's view), the value of every first move, a principal
variation and the positions along it, within a time budget.

How an entry is solved (the split root): each first move's child is solved
exactly with one :class:`~adjacency.engine.Engine` whose table stays warm from
child to child (each MTD(f) solve starts from the best value found so far). The
value is the best child's; the optimal first moves are the children reaching it.
With ``symmetry`` on, one move per orbit of the start position's
:func:`~adjacency.engine.symmetry.stabiliser` is solved (mirror-image moves have
equal values): on square boards the a1-h8 reflection fixes the start and about
halves the root's work. The principal variation is then walked with exact
solves of the positions along it (each cheap after the root), so every
position on it is proven and goes to the book with its value and best move.

Entries that are images of another under a board transform and/or a colour swap
(:func:`~adjacency.engine.symmetry.equivalent_starts`: the C x R board, the other
first mover) are *derived*, not solved: :func:`plan_lanes` groups the entries into
lanes of equivalent boards, one solved per lane.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal, Protocol

from ..core import Color, Position, board
from ..core.board import MAX_SIDE, MIN_SIDE
from ..core.errors import InvalidSettingsError
from ..core.text import parse_size
from ..engine.book import BookLine
from ..engine.symmetry import Equivalence, equivalent_starts, move_orbits

if TYPE_CHECKING:
    from ..workers import Executor

Status = Literal["solved", "timeout", "derived"]


@dataclass(frozen=True, order=True)
class Entry:
    """One start position of the table."""

    rows: int
    cols: int
    rounds: int
    first: Color = "x"

    def position(self) -> Position:
        """The entry's start position."""
        return Position.start(self.rows, self.cols, self.rounds, self.first)

    @property
    def size(self) -> str:
        """The board size as ``ROWSxCOLS`` (``6x7``)."""
        return f"{self.rows}x{self.cols}"

    def __str__(self) -> str:
        return f"{self.size} {self.rounds} rounds, {self.first} first"


@dataclass(frozen=True)
class EntryResult:
    """The outcome of solving (or deriving) one entry. For a ``timeout`` only
    ``nodes``, ``seconds`` and ``solves`` mean something."""

    entry: Entry
    status: Status
    symmetry: bool
    budget: float
    value: int | None = None
    pv: tuple[str, ...] = ()
    optimal: tuple[str, ...] = ()
    move_values: dict[str, int] = field(default_factory=dict)
    """Every first move's value from the first mover's view."""
    nodes: int = 0
    seconds: float = 0.0
    solves: int = 0
    """Exact solves run (children of the start, then along the principal variation)."""
    root_moves: int = 0
    """First moves solved (one per orbit with symmetry on)."""
    source: str = ""
    """For a derived entry: the solved entry and the map that gives it."""
    book: tuple[BookLine, ...] = ()


@dataclass(frozen=True)
class RootMove:
    """One first move's proven value, kept as soon as it is known so that an entry too
    long for one sitting resumes where it stopped (:func:`solve_entry`'s ``known``)."""

    move: str
    """The solved move of its orbit (the first of the orbit's squares)."""
    value: int
    """The child's exact value from the first mover's view."""
    best: str
    """The reply that proves it (the child's best move)."""
    nodes: int
    seconds: float


def solve_entry(
    entry: Entry,
    budget: float | None = None,
    symmetry: bool = True,
    tt_mb: float = 64,
    threads: int = 1,
    known: dict[str, RootMove] | None = None,
    on_move: Callable[[RootMove], None] | None = None,
) -> EntryResult:
    """Solve ``entry`` within ``budget`` seconds (``None``: no limit); see the module doc.

    ``threads`` solver threads share each solve's tree (split points,
    :mod:`adjacency.engine.parallel_solve`). First moves in ``known`` (from an earlier
    sitting) are not solved again: their values, nodes and seconds count as if they
    had been; ``on_move`` gets each first move as soon as it is proven, so that a
    caller can keep it (:meth:`~adjacency.solving.store.SolutionsStore.put_move`).
    """
    from ..engine import Engine

    started = time.monotonic()
    deadline = None if budget is None else started + budget
    position = entry.position()
    engine = Engine(tt_mb=tt_mb, threads=threads)
    geometry = position.board
    orbits = (
        move_orbits(position) if symmetry else [(square,) for square in position.legal_squares()]
    )
    known = dict(known or {})
    earlier = sum(move.seconds for move in known.values())
    nodes = sum(move.nodes for move in known.values())
    solves = 0

    def left() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    def timeout() -> EntryResult:
        return EntryResult(
            entry,
            "timeout",
            symmetry,
            budget or 0.0,
            nodes=nodes,
            seconds=earlier + time.monotonic() - started,
            solves=solves,
            root_moves=len(orbits),
        )

    # A shallow search picks the first child to solve and the first guess.
    probe = engine.search(position, seconds=left(), depth=min(4, position.plies_left))
    nodes += probe.nodes
    first = geometry.square(probe.move)
    orbits.sort(key=lambda orbit: first not in orbit)
    best = round(probe.value)
    book: list[BookLine] = []
    values: dict[str, int] = {}
    for orbit in orbits:
        child = position.play(orbit[0])
        name = geometry.name(orbit[0])
        done = known.get(name)
        if done is None:
            move_started = time.monotonic()
            result = engine.solve(child, seconds=left(), guess=-best)
            nodes += result.nodes
            solves += 1
            if not result.complete:
                return timeout()
            done = RootMove(
                name, -result.value, result.best, result.nodes, time.monotonic() - move_started
            )
            if on_move is not None:
                on_move(done)
        book.append(BookLine(child.fen(), -done.value, (done.best,), False))
        if not values or done.value > best:
            best = done.value
        for square in orbit:
            values[geometry.name(square)] = done.value
    value = max(values.values())
    optimal = tuple(sorted(name for name, v in values.items() if v == value))
    book.append(BookLine(position.fen(), value, optimal, True))

    # The principal variation, proven position by position.
    pv = [optimal[0]]
    current = position.play(optimal[0])
    expected = -value
    while not current.is_over:
        result = engine.solve(current, seconds=left(), guess=expected)
        nodes += result.nodes
        solves += 1
        if not result.complete:
            return timeout()
        if result.value != expected:
            raise AssertionError(
                f"solver inconsistency in {entry}: {current.fen()!r} is worth "
                f"{result.value}, its parent said {expected}"
            )
        book.append(BookLine(current.fen(), result.value, (result.best,), False))
        pv.append(result.best)
        current = current.play(result.best)
        expected = -expected
    return EntryResult(
        entry,
        "solved",
        symmetry,
        budget or 0.0,
        value=value,
        pv=tuple(pv),
        optimal=optimal,
        move_values=dict(sorted(values.items())),
        nodes=nodes,
        seconds=earlier + time.monotonic() - started,
        solves=solves,
        root_moves=len(orbits),
        book=_unique(book),
    )


def _unique(lines: list[BookLine]) -> tuple[BookLine, ...]:
    seen: dict[str, BookLine] = {}
    for line in lines:
        if line.fen not in seen or line.complete:
            seen[line.fen] = line
    return tuple(seen.values())


# ---------------------------------------------------------------- derived entries


def derive(result: EntryResult, target: Entry) -> EntryResult:
    """The result of ``target``, an image of ``result.entry`` under a board transform
    and/or colour swap (raises ``ValueError`` if it is not one)."""
    source = result.entry.position()
    wanted = target.position()
    for equivalence in equivalent_starts(source):
        if equivalence.image == wanted:
            return _mapped(result, target, equivalence)
    raise ValueError(f"{target} is not a mirror image of {result.entry}")


def _mapped(result: EntryResult, target: Entry, equivalence: Equivalence) -> EntryResult:
    transform = equivalence.transform
    source_board, target_board = transform.source, transform.target

    def name(square: str) -> str:
        return target_board.name(transform.square(source_board.square(square)))

    how = transform.name + (" and colour swap" if equivalence.swap else "")
    book = tuple(
        line._replace(
            fen=transform.position(Position.from_fen(line.fen), equivalence.swap).fen(),
            moves=tuple(name(m) for m in line.moves),
        )
        for line in result.book
    )
    return replace(
        result,
        entry=target,
        status="derived" if result.status == "solved" else result.status,
        pv=tuple(name(m) for m in result.pv),
        optimal=tuple(sorted(name(m) for m in result.optimal)),
        move_values=dict(sorted((name(m), v) for m, v in result.move_values.items())),
        nodes=0,
        seconds=0.0,
        solves=0,
        source=f"{result.entry} by {how}",
        book=book,
    )


# -------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Lane:
    """Boards solved as one: ``lead`` (rounds 1 upward) and the entries it gives by symmetry.

    ``followers`` are ``(rows, cols, first)`` whose start position is an image of the
    lead's for every rounds count (checked per entry by :func:`derive`)."""

    rows: int
    cols: int
    first: Color
    followers: tuple[tuple[int, int, Color], ...]
    max_rounds: int

    @property
    def name(self) -> str:
        """The lead's board size and first mover (``6x6 x``)."""
        return f"{self.rows}x{self.cols} {self.first}"

    def entry(self, rounds: int) -> Entry:
        """The lead's entry at ``rounds`` rounds."""
        return Entry(self.rows, self.cols, rounds, self.first)

    def entries(self, rounds: int) -> Iterator[Entry]:
        """The lead's entry and its followers' at ``rounds``."""
        yield self.entry(rounds)
        for rows, cols, first in self.followers:
            yield Entry(rows, cols, rounds, first)


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``"all"``, ``"square"`` or a comma list of ``RxC`` (``"4x4,5x6"``)."""
    every = [(r, c) for r in range(MIN_SIDE, MAX_SIDE + 1) for c in range(MIN_SIDE, MAX_SIDE + 1)]
    if text == "all":
        return every
    if text == "square":
        return [(r, c) for r, c in every if r == c]
    sizes = []
    for part in (p.strip() for p in text.split(",")):
        try:
            rows, cols = parse_size(part, InvalidSettingsError)
        except InvalidSettingsError as exc:
            raise InvalidSettingsError(f"{exc}, or 'all' / 'square'") from None
        geometry = board(rows, cols)
        sizes.append((geometry.rows, geometry.cols))
    return sizes


def plan_lanes(
    sizes: list[tuple[int, int]], firsts: tuple[Color, ...] = ("x", "o"), derive_images: bool = True
) -> list[Lane]:
    """Group the ``(size, first mover)`` combinations into lanes of mirror-image starts.

    The lead of a lane is the first of its members in the order ``sizes`` x ``firsts``;
    its followers are every image of its start (any size, either first mover: deriving
    costs nothing), found from the 1-round start positions (:func:`derive` checks every
    entry again). With ``derive_images`` off every combination is its own lane."""
    wanted = [(r, c, f) for r, c in sizes for f in firsts]
    lanes: list[Lane] = []
    placed: set[tuple[int, int, Color]] = set()
    for rows, cols, first in wanted:
        if (rows, cols, first) in placed:
            continue
        placed.add((rows, cols, first))
        followers: list[tuple[int, int, Color]] = []
        if derive_images:
            start = Position.start(rows, cols, 1, first)
            for equivalence in equivalent_starts(start):
                image = equivalence.image
                member = (image.rows, image.cols, image.turn)
                if member not in placed:
                    placed.add(member)
                    followers.append(member)
        lanes.append(Lane(rows, cols, first, tuple(followers), board(rows, cols).max_rounds()))
    return lanes


# --------------------------------------------------------------------- running


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
    from .store import SolutionsStore

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
    ) -> None:
        self.store, self.lanes, self.budget, self.symmetry = store, lanes, budget, symmetry
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
                self.store.put(derive(result, follower))
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
        self.store.put(result)
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

    def put(self, result: EntryResult) -> None:
        """Store (or replace) the result of ``result.entry``."""


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
    each :class:`SolveTask`.
    """
    runner = _Runner(store, lanes, budget, symmetry, rounds_limit)
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
