"""The frozen reference ``engine:profile=v1`` plays like the first engine.

``data/v1_reference.json`` holds the moves and values the first version's engine
chose at a fixed depth, recorded before the second version changed anything (the
file names the command and commit); the v1 profile must choose the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.profiles import PROFILES, V1, V1_WEIGHTS

REFERENCE = json.loads((Path(__file__).parent / "data" / "v1_reference.json").read_text())
ROWS: list[dict[str, Any]] = REFERENCE["positions"]


def test_reference_covers_phases_and_sizes() -> None:
    positions = [Position.from_fen(row["fen"]) for row in ROWS]
    assert len(positions) == 40
    assert {(p.board.rows, p.board.cols) for p in positions} == {(8, 8), (6, 6), (5, 7)}
    assert min(p.plies_left for p in positions) <= 8 < 40 <= max(p.plies_left for p in positions)


def test_v1_profile_chooses_the_first_engines_moves() -> None:
    differences = []
    for row in ROWS:
        engine = Engine(tt_mb=4, profile="v1")
        result = engine.search(Position.from_fen(row["fen"]), depth=6)
        if (result.move, result.value) != (row["move"], row["value"]):
            differences.append((row["fen"], row["move"], result.move, row["value"], result.value))
    assert differences == []


def test_v1_bot_plays_the_reference_move() -> None:
    row = ROWS[0]
    bot = make_bot("engine:profile=v1,depth=6,tt=4")
    assert bot.choose_move(Position.from_fen(row["fen"]), Limit()) == row["move"]


def test_v1_constants_are_frozen() -> None:
    assert V1_WEIGHTS == (1, 16, 6, 0, 16)
    assert (V1.ordering, V1.reductions, V1.lmr_from, V1.aspiration, V1.next_iteration) == (
        31,
        True,
        4,
        32,
        0.4,
    )


def test_unknown_profile_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="profile must be one of v1"):
        Engine(profile="v0")
    with pytest.raises(ValueError, match="option profile='v0' is not one of"):
        make_bot("engine:profile=v0")
    assert set(PROFILES) >= {"v1", "v2"}
