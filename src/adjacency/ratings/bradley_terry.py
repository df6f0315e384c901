"""Ratings of several players from their game results: Bradley-Terry maximum likelihood.

On the logistic Elo scale (draws count half), with one virtual draw of every player
against a 0-rated anchor as a weak prior so that perfect scores stay finite; 95%
intervals from the inverse Fisher information, Elo centred on mean 0 (Newton's
method on the log-likelihood). The arena ranks a tournament's players with it, the
league shows it beside Glicko-2 (:mod:`.glicko`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .stats import Z95


@dataclass(frozen=True)
class Rating:
    """One player's rating from :func:`ratings` (Elo, mean 0) with its 95% interval."""

    player: str
    elo: float
    error: float
    games: int
    points: float

    @property
    def score(self) -> float:
        """Points per game (0 without games)."""
        return self.points / self.games if self.games else 0.0


def ratings(
    players: Sequence[str],
    results: Sequence[tuple[str, str, float]],
    prior_draws: float = 1.0,
    centre: str = "mean",
) -> list[Rating]:
    """Bradley-Terry Elo ratings from ``(a, b, points of a)`` game results, best first.

    ``centre``: ``"mean"`` puts the players' plain mean at 0 (a round robin, where every
    player has as many games); ``"games"`` puts the mean weighted by games at 0, so a
    player with few games barely moves the zero point, and each interval is about that
    player's own games and shrinks with them (a league, where one member may have two
    thousand games and another one)."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    c = math.log(10.0) / 400.0
    pairs: dict[tuple[int, int], list[float]] = {}
    for a, b, points in results:
        key = (index[a], index[b])
        total = pairs.setdefault(key, [0.0, 0.0])
        total[0] += points
        total[1] += 1.0
    # the anchor: player n with rating 0, prior_draws draws against everyone
    for i in range(n):
        pairs[(i, n)] = [0.5 * prior_draws, prior_draws]

    r = np.zeros(n + 1)
    for _ in range(100):
        grad = np.zeros(n + 1)
        hess = np.zeros((n + 1, n + 1))
        for (i, j), (points, games) in pairs.items():
            p = 1.0 / (1.0 + math.exp(-c * (r[i] - r[j])))
            g = c * (points - games * p)
            grad[i] += g
            grad[j] -= g
            w = c * c * games * p * (1 - p)
            hess[i, i] += w
            hess[j, j] += w
            hess[i, j] -= w
            hess[j, i] -= w
        step = np.linalg.solve(hess[:n, :n], grad[:n])
        r[:n] += step
        if np.max(np.abs(step)) < 1e-9:
            break
    cov = np.linalg.inv(hess[:n, :n])
    played = {p: [0, 0.0] for p in players}
    for a, b, points in results:
        played[a][0] += 1
        played[a][1] += points
        played[b][0] += 1
        played[b][1] += 1.0 - points
    if centre == "games" and results:
        weights = np.array([played[p][0] for p in players], dtype=float)
        weights /= weights.sum()
    elif centre in ("mean", "games"):
        weights = np.full(n, 1.0 / n)
    else:
        raise ValueError(f"centre must be 'mean' or 'games', got {centre!r}")
    shift = np.eye(n) - np.outer(np.ones(n), weights)
    centred = shift @ cov @ shift.T
    elo = r[:n] - float(weights @ r[:n])
    out = [
        Rating(p, float(elo[i]), float(Z95 * math.sqrt(max(centred[i, i], 0.0))),
               int(played[p][0]), float(played[p][1]))
        for p, i in index.items()
    ]  # fmt: skip
    return sorted(out, key=lambda rating: -rating.elo)
