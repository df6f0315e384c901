"""Issue 37 (play like on lichess), the server's part: review marks, resign and abort."""

from __future__ import annotations

from typing import Any

import pytest

from adjacency.core import Position
from adjacency.web import analysis
from adjacency.web.analysis import Stopper

# ------------------------------------------- defect 2: the played move named as the best


def review_with_values(
    monkeypatch: pytest.MonkeyPatch, values: list[tuple[float, bool, str | None]], moves: list[str]
) -> list[dict[str, Any]]:
    """Review ``moves`` from the 4x4 start with the engine's values replaced by ``values``
    (one per position, the mover's view): the ``move`` events."""
    positions = [Position.start(4, 4, 2)]
    for move in moves:
        positions.append(positions[-1].play(move))
    by_position = dict(zip((p.fen() for p in positions), values, strict=True))
    monkeypatch.setattr(analysis, "new_engine", lambda: None)
    monkeypatch.setattr(analysis, "position_value", lambda _e, p, _s: by_position[p.fen()])
    emitted: list[tuple[str, dict[str, Any]]] = []
    analysis.review(positions, moves, lambda e, d: emitted.append((e, d)), Stopper())
    assert emitted[-1] == ("done", {"reason": "complete"})
    return sorted((d for e, d in emitted if e == "move"), key=lambda d: d["ply"])


def test_a_played_move_named_the_best_is_not_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    start = Position.start(4, 4, 2)
    first = start.legal_moves()[0]
    second = start.play(first).legal_moves()[0]
    # Searches (not exact): the first move is the engine's best, yet the deeper look at
    # the position after it rates it 5 lower for its mover; the second is not the best.
    values = [(3.0, False, first), (2.0, False, "zz"), (3.0, False, None)]
    moves = review_with_values(monkeypatch, values, [first, second])
    assert moves[0]["best"] == first and moves[0]["loss"] == 0 and moves[0]["mark"] is None
    assert moves[1]["loss"] == 5 and moves[1]["mark"] == "mistake"
