"""Strength levels people understand, mapped onto the bots of the registry.

A level is a bot spec plus an optional cap on its thinking time. The ladder
below lists candidates from weakest to strongest; only those whose spec parses
against the registry *at run time* are offered, so new bots (the classic
searchers, the compiled engine) appear as soon as their module registers them,
and a missing bot or option just drops its rung.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bots import BotError, parse_spec
from ..bots.lookup import entry


@dataclass(frozen=True)
class Level:
    """One rung of the ladder: ``number`` counts from 1 among the available ones."""

    number: int
    name: str
    description: str
    spec: str
    time_cap: float | None = None
    """Seconds the bot may use at most, whatever the game's time per move."""


_LADDER: tuple[tuple[str, str, str, float | None], ...] = (
    ("Beginner", "plays at random", "random", None),
    ("Novice", "grabs the most squares right now", "greedy", None),
    ("Casual", "local search: the best move once the reply is counted", "hill", None),
    ("Club", "looks 2 plies ahead", "alphabeta:depth=2", None),
    ("Strong", "looks 4 plies ahead", "alphabeta:depth=4", None),
    ("Expert", "looks 6 plies ahead", "alphabeta:depth=6", None),
    ("Master", "compiled engine, 1 second per move", "engine", 1.0),
    ("Grandmaster", "compiled engine, full time per move", "engine", None),
)


def available_levels() -> list[Level]:
    """The ladder rungs whose bots are registered now, numbered 1..N weakest first."""
    levels: list[Level] = []
    for name, description, spec, cap in _LADDER:
        try:
            parse_spec(spec)
        except BotError:
            continue
        levels.append(Level(len(levels) + 1, name, description, spec, cap))
    return levels


def strongest_level() -> Level:
    """The strongest available level (used for hints)."""
    return available_levels()[-1]


def default_level() -> Level:
    """The level a new game offers first: the middle of the ladder, rounded down."""
    levels = available_levels()
    return levels[(len(levels) - 1) // 2]


def level_by_number(number: int) -> Level:
    """The level numbered ``number``; raise :class:`BotError` naming the valid range."""
    levels = available_levels()
    if not 1 <= number <= len(levels):
        raise BotError(f"level must be from 1 to {len(levels)}, got {number}")
    return levels[number - 1]


def is_baseline(spec: str) -> bool:
    """Whether ``spec`` names a baseline bot, whose scores are not evaluations
    (greedy reports its immediate gain); ``False`` for a spec that does not parse."""
    try:
        return entry(parse_spec(spec).name).family == "baseline"
    except BotError:
        return False
