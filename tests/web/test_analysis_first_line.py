"""The live analysis shows its first line at once: where the solver is tried (near the
end, out of the book), the first depth's lines come before the exact result, whose
budget would otherwise hold them back; the book's and far positions' order is as before."""

from __future__ import annotations

from typing import Any

from adjacency.core import Position
from adjacency.engine.book import lookup
from adjacency.lab.review import Stopper
from adjacency.web.analysis import SOLVE_PLIES, analyse


def events_of(position: Position, depths: int) -> list[tuple[str, dict[str, Any]]]:
    """The analysis's events until its lines at ``depths`` (then it is stopped)."""
    events: list[tuple[str, dict[str, Any]]] = []
    stopper = Stopper()

    def emit(event: str, data: dict[str, Any]) -> None:
        events.append((event, data))
        if event == "lines" and data["depth"] >= depths:
            stopper.stop()

    analyse(position, emit, stopper, solve_seconds=5.0)
    return events


def near_the_end() -> Position:
    """A 6x6 position 14 plies from the end, out of the book."""
    position = Position.start(6, 6, rounds=9)
    for move in ("c3", "d4", "e3", "b4"):
        position = position.play(move)
    assert position.plies_left <= SOLVE_PLIES and lookup(position) is None
    return position


def test_near_the_end_the_first_lines_come_before_the_exact_result() -> None:
    position = near_the_end()
    events = events_of(position, 4)
    kinds = [event for event, _ in events]
    assert kinds[:3] == ["lines", "exact", "lines"], kinds
    first, later = events[0][1], events[2][1]
    # 14 plies left: the first depth whose horizon falls on an even ply is 2, then 4.
    assert (first["depth"], later["depth"]) == (2, 4)
    assert 1 <= len(first["lines"]) <= 3
    assert all(line["move"] in position.legal_moves() for line in first["lines"])
    assert kinds[-1] == "done" and events[-1][1] == {"reason": "stopped"}


def test_far_from_the_end_the_exact_result_says_so_first() -> None:
    position = Position.start(8, 8, rounds=28).play("c3").play("f6").play("d4")
    events = events_of(position, 1)
    assert [event for event, _ in events][:2] == ["exact", "lines"]
    assert events[0][1]["why"] == "too-far"
