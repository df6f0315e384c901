"""Bots: one interface, the registry of spec strings, and every algorithm."""

from .base import (
    DEFAULT_MOVE_TIME,
    Bot,
    BotError,
    BotFailure,
    BotStarved,
    Limit,
    Search,
    Thinking,
)
from .lookup import entries, make_bot, parse_spec
from .registry import BotEntry, Option

__all__ = [
    "DEFAULT_MOVE_TIME",
    "Bot",
    "BotEntry",
    "BotError",
    "BotFailure",
    "BotStarved",
    "Limit",
    "Option",
    "Search",
    "Thinking",
    "entries",
    "make_bot",
    "parse_spec",
]
