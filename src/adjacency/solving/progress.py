"""How far the entries in progress got: the first moves kept in a solutions database.

An entry without a time budget (8x8 at 8 rounds) runs for hours in one worker
process, which keeps each first move's value in the database as soon as it is
proven (:meth:`~adjacency.solving.store.SolutionsStore.put_move`). These lines
are what ``adjacency solutions show`` prints for such entries
(:func:`progress_lines`) and what ``adjacency solutions run`` prints while it
waits (:class:`MoveWatch`, reading the database the worker writes).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..core.errors import AdjacencyError, AdjacencyRuntimeError
from .entries import Entry, RootMove
from .store import SolutionsStore


def first_moves(entry: Entry, symmetry: bool) -> int:
    """How many first moves ``entry``'s solve proves: orbits with symmetry, else all."""
    from ..engine.symmetry import move_orbits

    position = entry.position()
    return len(move_orbits(position)) if symmetry else len(position.legal_squares())


def progress_lines(running: dict[Entry, dict[str, RootMove]], symmetry: bool) -> list[str]:
    """One line per entry in progress: its first moves proven so far, their best value,
    and the solve time spent on them."""
    lines = []
    for entry, moves in sorted(running.items()):
        best = max(move.value for move in moves.values())
        seconds = sum(move.seconds for move in moves.values())
        nodes = sum(move.nodes for move in moves.values())
        lines.append(
            f"in progress: {entry}: {len(moves)} of {first_moves(entry, symmetry)} first "
            f"moves proven, the best worth {best:+d} so far (a lower bound of the value); "
            f"{nodes:,} nodes, {seconds:,.0f} s of solving; `adjacency solutions run` goes "
            "on from there"
        )
    return lines


class MoveWatch:
    """Reports the first moves kept in the database at ``path`` since the last :meth:`look`.

    The first look reports the moves kept by earlier sittings, one line per entry;
    every later look one line per newly proven move that took at least ``slowest``
    seconds (so that a run of many short entries stays quiet). Each look opens the
    database for itself, so a watch can live in another thread than the run's store.
    """

    def __init__(self, path: str | Path, symmetry: bool = True, slowest: float = 0.0) -> None:
        self.path = path
        self.symmetry = symmetry
        self.slowest = slowest
        self.seen: dict[Entry, set[str]] | None = None

    def look(self) -> list[str]:
        """The lines for what is new; an unreadable database (not made yet) gives none."""
        try:
            with SolutionsStore(self.path, create=False) as store:
                running = store.in_progress(self.symmetry)
        except (AdjacencyError, AdjacencyRuntimeError, sqlite3.Error):
            return []  # a progress display never ends the run
        first, self.seen = self.seen is None, self.seen or {}
        lines = []
        for entry, moves in sorted(running.items()):
            seen = self.seen.setdefault(entry, set())
            new = sorted(set(moves) - seen, key=lambda name: moves[name].seconds)
            seen.update(new)
            total = first_moves(entry, self.symmetry)
            if first and new:
                lines.append(f"{entry}: {len(new)} of {total} first moves kept from earlier")
                continue
            for count, name in enumerate(new, len(seen) - len(new) + 1):
                move = moves[name]
                if move.seconds < self.slowest:
                    continue
                lines.append(
                    f"{entry}: {name} proven {move.value:+d} (best reply {move.best}), "
                    f"{count} of {total} first moves; {move.nodes:,} nodes, {move.seconds:.0f} s"
                )
        return lines
