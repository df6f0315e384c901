"""The course's setting: the game as the university course plays it, in one place.

The course's JavaFX skeleton plays on an 8x8 board, gives a bot 5 seconds a move, and the
course reports played their matches at 8, 12, 16, 20 and 28 rounds (course report A's
match tables; report B's use counts among them). ``--course`` on ``adjacency match``,
``tournament`` and ``league create`` applies it (``docs/bots.md``): games of every one of
these round counts for the arena's matches, and the longest for a league, whose games all
have one setting.
"""

from __future__ import annotations

from typing import Final

COURSE_SIZE: Final = (8, 8)
"""Rows and columns of the course's board."""

COURSE_MOVE_SECONDS: Final = 5.0
"""A bot's time for each move in the course."""

COURSE_ROUNDS: Final = (8, 12, 16, 20, 28)
"""The round counts the course reports played their matches at."""

COURSE_LEAGUE_ROUNDS: Final = COURSE_ROUNDS[-1]
"""A league's one round count under the course's setting: the longest game."""
