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
from dataclasses import dataclass, replace

from ..core import Color, Position, board
from ..core.board import MAX_SIDE, MIN_SIDE
from ..core.errors import InvalidSettingsError
from ..core.text import parse_size
from ..engine.book import BookLine
from ..engine.proven_line import proven_line
from ..engine.symmetry import Equivalence, equivalent_starts, move_orbits
from .entries import Entry, EntryResult, RootMove, Status

__all__ = [
    "Entry", "EntryResult", "Lane", "RootMove", "Status", "derive", "parse_sizes",
    "plan_lanes", "solve_entry",
]  # fmt: skip
"""The entries (:mod:`.entries`) are imported here too, where they were first defined.
Running a table (:func:`~adjacency.solving.run.run_table`) is :mod:`.run`'s."""


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
    try:
        for current, result in proven_line(engine, position.play(optimal[0]), -value, left):
            nodes += result.nodes
            solves += 1
            if not result.complete:
                return timeout()
            book.append(BookLine(current.fen(), result.value, (result.best,), False))
            pv.append(result.best)
    except AssertionError as exc:
        raise AssertionError(f"{entry}: {exc}") from None
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
