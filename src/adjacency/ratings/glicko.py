"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), online after every game.

The league updates both players after each game as a rating period of one game,
as lichess does. This is Glickman's algorithm step by step (his steps 1-8, with the
Illinois variant of regula falsi for the new volatility, his step 5); it is
implemented here rather than taken from the ``glicko2`` package because the
algorithm is forty lines, the league needs it to be deterministic and exactly
reproducible from the stored games (a restart recomputes every rating and must
get the same numbers), and tests/ratings/test_glicko.py checks it against the
worked example of Glickman's paper.

Scale: ratings are shown on the Glicko scale (1500 start, RD 350, volatility 0.06);
``TAU`` = 0.5 constrains how fast the volatility moves (Glickman suggests 0.3 to 1.2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's conversion factor between the Glicko scale and its internal scale."""
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change per rating period."""
EPSILON = 1e-6
"""Convergence tolerance of the volatility iteration (Glickman's value)."""
MIN_RD = 30.0
"""An RD never falls below this (lichess's floor: a rating always keeps moving a little)."""


@dataclass(frozen=True)
class Glicko:
    """One player's Glicko-2 state on the Glicko scale."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(
    player: Glicko,
    results: Sequence[tuple[Glicko, float]],
    tau: float = TAU,
    min_rd: float = 0.0,
) -> Glicko:
    """``player`` after one rating period with ``results`` (opponent, score 0 / 0.5 / 1).

    With no games the RD grows as in Glickman's step 6 only. ``min_rd`` floors the
    new RD (0 reproduces the paper exactly).
    """
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, max(min_rd, phi_star * SCALE), sigma)
    inv_v = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - START_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inv_v += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / inv_v
    delta = v * delta_sum
    sigma_new = _new_volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Glicko(START_RATING + SCALE * mu_new, max(min_rd, SCALE * phi_new), sigma_new)


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Glickman's step 5: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate_game(
    x: Glicko, o: Glicko, x_points: float, min_rd: float = MIN_RD
) -> tuple[Glicko, Glicko]:
    """Both players after one game (``x_points`` 1, 0.5 or 0 for the first player), each
    updated against the other's rating from before the game."""
    return (
        update(x, [(o, x_points)], min_rd=min_rd),
        update(o, [(x, 1.0 - x_points)], min_rd=min_rd),
    )
