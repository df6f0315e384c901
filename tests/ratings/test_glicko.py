"""Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2
system", section "Example calculation")."""

from __future__ import annotations

import pytest

from adjacency.ratings.glicko import Glicko, rate_game, update


def test_glickmans_worked_example() -> None:
    player = Glicko(1500.0, 200.0, 0.06)
    results = [
        (Glicko(1400.0, 30.0), 1.0),
        (Glicko(1550.0, 100.0), 0.0),
        (Glicko(1700.0, 300.0), 0.0),
    ]
    after = update(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Glicko(1600.0, 100.0, 0.06), [])
    assert after.rating == 1600.0
    assert after.rd == pytest.approx((100.0**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_one_game_moves_both_players_in_opposite_directions() -> None:
    winner, loser = rate_game(Glicko(), Glicko(), 1.0)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    drawn_x, drawn_o = rate_game(Glicko(1600.0, 80.0), Glicko(1400.0, 80.0), 0.5)
    assert drawn_x.rating < 1600 and drawn_o.rating > 1400
    floored, _ = rate_game(Glicko(1500.0, 30.0, 0.01), Glicko(1500.0, 30.0, 0.01), 1.0)
    assert floored.rd == 30.0
