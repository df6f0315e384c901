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

INTERVAL_METHOD = "Wald"
"""How :func:`ratings` bounds each rating: the symmetric Wald interval, Elo ± ``Z95``
standard errors from the fit's inverse Fisher information. It differs from the
likelihood-ratio interval of one pairing (:data:`adjacency.ratings.stats.INTERVAL_METHOD`),
so every table, report and export that shows both names each."""


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
    thousand games and another one). The games are summed per ordered pair of players
    and fitted by :func:`fit_totals`."""
    totals: dict[tuple[str, str], list[float]] = {}
    for a, b, points in results:
        total = totals.setdefault((a, b), [0.0, 0.0])
        total[0] += points
        total[1] += 1.0
    return fit_totals(
        players, [(a, b, p, n) for (a, b), (p, n) in totals.items()], prior_draws, centre
    )


def fit_totals(
    players: Sequence[str],
    totals: Sequence[tuple[str, str, float, float]],
    prior_draws: float = 1.0,
    centre: str = "mean",
) -> list[Rating]:
    """Bradley-Terry Elo ratings as :func:`ratings` gives them, from the results summed
    per pair of players: ``(a, b, points of a, games)`` (the likelihood depends on no
    more, so a league fits its aggregates instead of every stored game). Each Newton
    step is a few array operations, whatever the number of pairs."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    c = math.log(10.0) / 400.0
    # the anchor: player n with rating 0, prior_draws draws against everyone
    first = np.array([index[a] for a, _, _, _ in totals] + list(range(n)), dtype=np.intp)
    second = np.array([index[b] for _, b, _, _ in totals] + [n] * n, dtype=np.intp)
    points = np.array([t[2] for t in totals] + [0.5 * prior_draws] * n, dtype=float)
    games = np.array([t[3] for t in totals] + [prior_draws] * n, dtype=float)

    r = np.zeros(n + 1)
    hess = np.zeros((n + 1, n + 1))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-c * (r[first] - r[second])))
        g = c * (points - games * p)
        grad = np.bincount(first, g, n + 1) - np.bincount(second, g, n + 1)
        w = c * c * games * p * (1 - p)
        hess = np.zeros((n + 1, n + 1))
        np.add.at(hess, (first, first), w)
        np.add.at(hess, (second, second), w)
        np.add.at(hess, (first, second), -w)
        np.add.at(hess, (second, first), -w)
        step = np.linalg.solve(hess[:n, :n], grad[:n])
        r[:n] += step
        if np.max(np.abs(step), initial=0.0) < 1e-9:
            break
    cov = np.linalg.inv(hess[:n, :n])
    played = {p: [0.0, 0.0] for p in players}
    for a, b, won, count in totals:
        played[a][0] += count
        played[a][1] += won
        played[b][0] += count
        played[b][1] += count - won
    if centre == "games" and totals:
        weights = np.array([played[p][0] for p in players], dtype=float)
        weights /= weights.sum()
    elif centre in ("mean", "games"):
        weights = np.full(n, 1.0 / n)
    else:
        raise ValueError(f"centre must be 'mean' or 'games', got {centre!r}")
    # the variances of r - w.r: the diagonal of (I - 1 w')C(I - 1 w')', in n^2 steps
    cov_w = cov @ weights
    centred = np.diag(cov) - 2 * cov_w + float(weights @ cov_w)
    elo = r[:n] - float(weights @ r[:n])
    out = [
        Rating(p, float(elo[i]), float(Z95 * math.sqrt(max(centred[i], 0.0))),
               int(played[p][0]), float(played[p][1]))
        for p, i in index.items()
    ]  # fmt: skip
    return sorted(out, key=lambda rating: -rating.elo)
