"""Strength levels: a ladder filtered by what the registry holds at run time."""

from __future__ import annotations

import pytest

from adjacency.bots import BotError, parse_spec
from adjacency.web import levels


def test_levels_are_numbered_from_one_and_parse() -> None:
    available = levels.available_levels()
    assert [lv.number for lv in available] == list(range(1, len(available) + 1))
    assert [lv.spec for lv in available[:2]] == ["random", "greedy"]
    for level in available:
        parse_spec(level.spec)
    assert levels.strongest_level() == available[-1]
    assert levels.default_level() in available


def test_rungs_of_missing_bots_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    ladder = (
        ("Beginner", "random moves", "random", None),
        ("Ghost", "a bot nobody registered", "nosuchbot:depth=3", None),
        ("Typo", "an option the bot lacks", "greedy:depth=3", None),
        ("Novice", "greedy", "greedy", 2.0),
    )
    monkeypatch.setattr(levels, "_LADDER", ladder)
    available = levels.available_levels()
    assert [(lv.number, lv.name, lv.time_cap) for lv in available] == [
        (1, "Beginner", None),
        (2, "Novice", 2.0),
    ]
    assert levels.default_level().name == "Beginner"
    assert levels.strongest_level().name == "Novice"


@pytest.mark.parametrize("number", [0, -1, 10_000])
def test_level_numbers_out_of_range(number: int) -> None:
    with pytest.raises(BotError, match=f"level must be from 1 to .*got {number}"):
        levels.level_by_number(number)
