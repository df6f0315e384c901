"""Stand-in moves in a game record: moves a player's program sent that were not its
bot's own (a kit's or a third-party engine's fallback when the bot itself had no
answer), as the engine said so (``info string stand-in`` before its ``bestmove``,
docs/protocol.md).

A record keeps them in one tag, ``[StandIns "3 8"]``: the plies (counted from 1) whose
move was a stand-in, ascending; a game without any has no such tag. The arena's tables
and the league count them per side beside the results, so a result that stand-ins
decided is never credited to the bot unseen.
"""

from __future__ import annotations

import re

from .fen import Color
from .game import Game

TAG = "StandIns"
"""The record's tag of the stand-in plies."""

_TAG_LINE = re.compile(r'^\[StandIns "([0-9 ]*)"\]$', re.MULTILINE)
_FIRST_LINE = re.compile(r'^\[First "([xo])"\]$', re.MULTILINE)


def mark(game: Game, ply: int) -> None:
    """Note that ply ``ply`` (from 1) of ``game`` was a stand-in."""
    plies = sorted({*stand_in_plies(game.tags.get(TAG, "")), ply})
    game.tags[TAG] = " ".join(map(str, plies))


def stand_in_plies(value: str) -> list[int]:
    """The plies a ``StandIns`` tag's value names (anything that is not a number is
    left out: a record is read, not trusted)."""
    return [int(token) for token in value.split() if token.isdigit() and int(token) > 0]


def counts(plies: list[int], first: Color) -> tuple[int, int]:
    """How many of ``plies`` X and O played: ``(x's, o's)``, ``first`` having played
    ply 1."""
    odd = sum(p % 2 for p in plies)
    return (odd, len(plies) - odd) if first == "x" else (len(plies) - odd, odd)


def game_counts(game: Game) -> tuple[int, int]:
    """X's and O's stand-in moves in ``game``."""
    return counts(stand_in_plies(game.tags.get(TAG, "")), game.first)


def record_counts(record: str) -> tuple[int, int]:
    """X's and O's stand-in moves in a record's text, read from its tags alone (cheap
    for tables over many stored games: no move is replayed)."""
    found = _TAG_LINE.search(record)
    first = _FIRST_LINE.search(record)
    side: Color = "o" if first is not None and first.group(1) == "o" else "x"
    return counts(stand_in_plies(found.group(1)) if found else [], side)
