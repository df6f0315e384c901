"""Schedules: pairings, colour-swapped pairs, openings, and bad settings."""

from __future__ import annotations

from typing import Any

import pytest

from adjacency.arena.schedule import RunSettings, pairings, plan
from adjacency.core import InvalidSettingsError, Position
from adjacency.core.openings import retime


def test_round_robin_gauntlet_and_pairs() -> None:
    players = ["a", "b", "c", "d"]
    assert pairings(players, "round-robin") == [
        ("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d"),
    ]  # fmt: skip
    assert pairings(players, "gauntlet") == [("a", "b"), ("a", "c"), ("a", "d")]
    assert pairings(players, "pairs") == [("a", "b"), ("c", "d")]
    assert pairings(["a", "a"], "match") == [("a", "a")]


@pytest.mark.parametrize(
    ("players", "mode", "message"),
    [
        (["a", "b", "c"], "match", "exactly 2"),
        (["a"], "round-robin", "at least 2"),
        (["a", "b", "a"], "round-robin", "twice"),
        (["a", "b", "c"], "pairs", "even list"),
        (["a", "b"], "swiss", "not one of"),
    ],
)
def test_bad_pairings(players: list[str], mode: str, message: str) -> None:
    with pytest.raises(InvalidSettingsError, match=message):
        pairings(players, mode)


def test_plan_has_colour_swapped_pairs_on_one_opening() -> None:
    settings = RunSettings(rounds=(8, 28), games=6, random_plies=3, seed=5, time=0.1)
    tasks = plan(["a", "b", "c"], "round-robin", settings)
    assert len(tasks) == 3 * 2 * 6
    assert [t.index for t in tasks] == list(range(len(tasks)))
    by_pair: dict[int, list[Any]] = {}
    for task in tasks:
        by_pair.setdefault(task.pair, []).append(task)
    assert len(by_pair) == len(tasks) // 2
    for first, second in by_pair.values():
        assert (first.x, first.o) == (second.o, second.x) == (first.a, first.b)
        assert first.a_is_x and not second.a_is_x
        assert first.opening == second.opening and first.rounds == second.rounds
        start = Position.from_fen(first.opening)
        assert start.ply_count == 3 and start.plies_left == 2 * first.rounds - 3
    # the same opening is used by every pairing for a given pair number and rounds
    first_round = [t for t in tasks if t.rounds == 8][:6]
    assert len({t.opening for t in first_round}) == 1
    # interleaved: the first 12 games cover every pairing at both rounds settings
    assert {(t.pairing, t.rounds) for t in tasks[:12]} == {
        (k, r) for k in range(3) for r in (8, 28)
    }
    # reproducible
    assert plan(["a", "b", "c"], "round-robin", settings) == tasks


def test_openings_file_positions_are_retimed() -> None:
    opening = Position.start(8, 8, 28).play("c3").play("f6").fen()
    settings = RunSettings(rounds=(8, 12), games=4, openings=(opening,))
    tasks = plan(["a", "b"], "match", settings)
    assert {Position.from_fen(t.opening).plies_left for t in tasks} == {14, 22}
    with pytest.raises(InvalidSettingsError, match="is 6x6"):
        retime(Position.start(6, 6, 4), 8, 8, 8)
    with pytest.raises(InvalidSettingsError, match="does not fit"):
        RunSettings(rounds=(1,), openings=(Position.start().play("c3").play("d4").fen(),))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 3}, "must be even"),
        ({"games": 0}, "2 or more"),
        ({"rounds": (29,)}, "accepted 1 to 28"),
        ({"rounds": ()}, "at least one"),
        ({"rounds": (8, 8)}, "repeat"),
        ({"random_plies": 16, "rounds": (8,)}, "fewer than 16"),
        ({"time": -1.0}, "positive"),
        ({"margin": -0.5}, "margin"),
        ({"rows": 9}, "from 4 to 8"),
    ],
)
def test_bad_settings(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception, match=message):
        RunSettings(**kwargs)


def test_settings_round_trip() -> None:
    settings = RunSettings(rounds=(8, 12), games=4, time=0.5, depth=3, random_plies=2, seed=9)
    assert RunSettings.from_dict(settings.to_dict()) == settings
