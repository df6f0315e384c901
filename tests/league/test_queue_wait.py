"""A queued challenge's wait (:mod:`adjacency.league.play.queue_wait`) on real games and
clocks: the bound is what the clocks allow, the estimate follows the game's pace and
never exceeds the bound, and nothing is estimated before the game has two plies."""

from __future__ import annotations

import math
import random

from hypothesis import given
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.league.play.queue_wait import wait_behind
from adjacency.round.clock import Clock


def played(plies: int, seed: int) -> Game:
    """A 6x6, 8-round game with ``plies`` random moves played."""
    rng = random.Random(seed)
    game = Game(Position.start(6, 6, 8), "a", "b")
    for _ in range(plies):
        game.play(rng.choice(game.position.legal_moves()))
    return game


@given(
    plies=st.integers(0, 15),
    seed=st.integers(0, 99),
    ahead=st.integers(0, 3),
    elapsed=st.floats(0.0, 500.0),
    used=st.floats(0.0, 50.0),
    increment=st.sampled_from([0.0, 2.0]),
)
def test_the_estimate_is_the_pace_under_the_clocks_bound(
    plies: int, seed: int, ahead: int, elapsed: float, used: float, increment: float
) -> None:
    game = played(plies, seed)
    clock = Clock(60.0, increment, {"x": 60.0 - used, "o": 60.0})
    now = 1000.0
    started = now - elapsed
    wait = wait_behind(game, clock, None, started, ahead, now)
    left, whole = game.position.plies_left, game.start.plies_left
    bound = (60.0 - used) + 60.0 + left * increment + ahead * (120.0 + whole * increment)
    assert wait.most == math.ceil(bound)  # whole seconds, rounded up
    if plies < 2:
        assert wait.about is None
    else:
        assert wait.about is not None and 0 <= wait.about <= wait.most
        pace = (now - started) / plies
        assert wait.about == min(wait.most, math.ceil(pace * (left + ahead * whole)))


def test_a_move_time_bounds_by_the_plies_left() -> None:
    game = played(4, 1)
    wait = wait_behind(game, Clock(60.0, 0.0), 2.0, 999.0, 1, 1000.0)  # 0.25 s a ply
    left, whole = game.position.plies_left, game.start.plies_left
    assert wait.most == left * 2 + whole * 2
    assert wait.about == math.ceil(1.0 / 4 * (left + whole)) < wait.most
