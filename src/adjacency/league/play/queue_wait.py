"""How long a challenge queued for a busy bot may wait: an estimate and a bound.

A queued challenge is served when its bot's game in play ends and the games queued
before it are played. Nothing knows when a game will end, but two things are known:

* **the bound**: a game cannot outlast its clocks. The game in play ends within both
  sides' remaining seconds plus an increment per ply left (with a move time instead of
  a clock, that time per ply left); each game queued ahead within two full clocks (or
  move times) and an increment per ply;
* **the estimate**: the game in play has gone at some pace so far (its seconds per
  ply); its plies left at that pace, and each game ahead, all its plies at that pace.
  Before the game in play has two plies the pace is unknown and only the bound is given.

The page says both (``about 40 s, at most 3 min``): a person waiting on a house bot for
45 s was told nothing, and a clock bound alone is often ten times the real wait.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...core.game import Game
from ...round.clock import Clock
from .live import LiveGame

MIN_PLIES = 2
"""Plies the game in play must have before its pace estimates anything."""


@dataclass(frozen=True)
class Wait:
    """A queued challenge's wait, in whole seconds: ``about`` (``None`` while the pace is
    unknown) and ``most`` (the clocks' bound); ``about`` is never above ``most``."""

    about: int | None
    most: int


def game_bound(plies: int, base: float, increment: float, move_time: float | None) -> float:
    """The longest a whole game of ``plies`` plies can last on its clock (or move time)."""
    if move_time is not None:
        return plies * move_time
    return 2 * base + plies * increment


def wait_for(playing: LiveGame, ahead: int, now: float) -> Wait:
    """The wait of a challenge behind ``ahead`` other queued challenges for the bot that
    plays ``playing``, at ``now`` (``time.monotonic``)."""
    return wait_behind(playing.game, playing.clock, playing.move_time, playing.started, ahead, now)


def wait_behind(
    game: Game, clock: Clock, move_time: float | None, started: float, ahead: int, now: float
) -> Wait:
    """:func:`wait_for` from the game in play's parts: its record so far, its clock, its
    move time (``None`` on a clock) and when it started (``time.monotonic``)."""
    left = game.position.plies_left
    plies = game.start.plies_left
    if move_time is not None:
        rest_bound = left * move_time
    else:
        rest_bound = clock.left("x", now) + clock.left("o", now) + left * clock.increment
    most = rest_bound + ahead * game_bound(plies, clock.base, clock.increment, move_time)
    played = len(game.moves)
    about: float | None = None
    if played >= MIN_PLIES:
        pace = max(0.0, now - started) / played
        about = min(most, pace * (left + ahead * plies))
    return Wait(None if about is None else math.ceil(about), math.ceil(max(0.0, most)))
