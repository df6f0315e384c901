"""``Engine`` rejects bad settings and finished games with the project's error types
(docs/errors.md), not plain ``ValueError``: bad input is an ``AdjacencyError`` subclass;
so do the engine's symmetries and the core's SVG drawing."""

from __future__ import annotations

from typing import Any

import pytest

from adjacency.core import Position
from adjacency.core.errors import InvalidPositionError, InvalidSettingsError
from adjacency.core.svg import position_svg
from adjacency.engine import Engine
from adjacency.engine.symmetry import transforms

FINISHED = Position.from_fen("xxoo/xxoo/xxoo/xxoo x 0")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"threads": 0}, "threads must be a whole number from 1 to 256, got 0"),
        ({"threads": True}, "threads must be"),
        ({"threads": 2.0}, "threads must be"),
        ({"tt_mb": float("nan")}, "tt_mb must be a number above 0, got nan"),
        ({"tt_mb": float("inf")}, "tt_mb must be a number above 0, got inf"),
        ({"tt_mb": 0}, "tt_mb must be a number above 0, got 0"),
        ({"tt_mb": -1.5}, "tt_mb must be"),
        ({"tt_mb": "64"}, "tt_mb must be"),
        ({"profile": "v0"}, "profile must be one of v1"),
        ({"profile": "v" * 1000}, r"profile must be one of .*\(1000 characters\)"),
        ({"driver": "alphabeta"}, "driver must be one of pvs, mtdf, got 'alphabeta'"),
        ({"evaluation": "learned"}, "evaluation must be one of positional, material"),
        ({"terms": {"mobility": 3}}, "evaluation term must be one of exposure"),
        ({"null_reduction": 9}, "pruning setting null_reduction must be a whole number from 0"),
        ({"probcut": -1}, "pruning setting probcut must be"),
    ],
)
def test_bad_settings_are_invalid_settings_errors(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidSettingsError, match=message):
        Engine(**settings)


def test_a_finished_game_is_an_invalid_position_error() -> None:
    assert FINISHED.is_over
    engine = Engine(tt_mb=1)
    for call in (
        lambda: engine.search(FINISHED, depth=1),
        lambda: engine.solve(FINISHED),
        lambda: engine.probe(FINISHED, 0),
    ):
        with pytest.raises(InvalidPositionError, match=r"finished game: .xxoo/xxoo/xxoo/xxoo x 0."):
            call()


def test_a_probe_bound_that_is_not_a_whole_number_is_an_invalid_settings_error() -> None:
    engine = Engine(tt_mb=1)
    for beta in (0.5, True, "2"):
        with pytest.raises(InvalidSettingsError, match="beta must be a whole number"):
            engine.probe(Position.start(4, 4, 2), beta)  # type: ignore[arg-type]


def test_a_transform_of_another_board_is_an_invalid_position_error() -> None:
    transform = transforms(Position.start(4, 6, 2).board)[0]
    with pytest.raises(InvalidPositionError, match="is for 4x6 boards, not 6x4"):
        transform.position(Position.start(6, 4, 2))


@pytest.mark.parametrize("square", [7, 0, 8.5, "32"])
def test_a_bad_svg_square_size_is_an_invalid_settings_error(square: Any) -> None:
    with pytest.raises(InvalidSettingsError, match="square size must be a whole number"):
        position_svg(Position.start(4, 4, 2), square=square)
