"""Ratings of several players from their game results: Bradley-Terry maximum likelihood.

On the logistic Elo scale (draws count half), with one virtual draw of every player
against a 0-rated anchor as a weak prior so that perfect scores stay finite; Elo
centred on mean 0 (Newton's method on the log-likelihood), each with its 95% profile
likelihood-ratio interval: the same method as one pairing's interval
(:mod:`.stats`), so a report that shows both shows one method. The arena ranks a
tournament's players with it, an event's table too; the league's leaderboard shows it,
with :data:`WALD`'s interval, beside Glicko-2 (:mod:`.glicko`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .stats import INTERVAL_METHOD, Z95

__all__ = ["INTERVAL_METHOD", "WALD", "Rating", "fit_totals", "ratings"]

WALD = "Wald"
"""The other interval :func:`fit_totals` can give: the symmetric ``Elo ± Z95`` standard
errors of the fit's inverse Fisher information. It costs one matrix inversion where
the likelihood-ratio interval (:data:`INTERVAL_METHOD`, the default) costs a few
profile fits per player, which a league's leaderboard of hundreds of members refitted
after every game cannot afford; whatever shows it names it."""

_C = math.log(10.0) / 400.0
"""Elo to the logistic scale's natural units."""


@dataclass(frozen=True)
class Rating:
    """One player's rating from :func:`ratings` (Elo, centred as asked) with the ends of
    its 95% profile likelihood-ratio interval (:data:`INTERVAL_METHOD`, the method of
    one pairing's interval too), which is asymmetric when the results are lopsided."""

    player: str
    elo: float
    low: float
    high: float
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
    interval: str = INTERVAL_METHOD,
) -> list[Rating]:
    """Bradley-Terry Elo ratings from ``(a, b, points of a)`` game results, best first.

    ``centre``: ``"mean"`` puts the players' plain mean at 0 (a round robin, where every
    player has as many games); ``"games"`` puts the mean weighted by games at 0, so a
    player with few games barely moves the zero point, and each interval is about that
    player's own games and shrinks with them (a league, where one member may have two
    thousand games and another one). The games are summed per ordered pair of players
    and fitted by :func:`fit_totals`, whose ``interval`` it is."""
    totals: dict[tuple[str, str], list[float]] = {}
    for a, b, points in results:
        total = totals.setdefault((a, b), [0.0, 0.0])
        total[0] += points
        total[1] += 1.0
    return fit_totals(
        players, [(a, b, p, n) for (a, b), (p, n) in totals.items()], prior_draws, centre, interval
    )


def fit_totals(
    players: Sequence[str],
    totals: Sequence[tuple[str, str, float, float]],
    prior_draws: float = 1.0,
    centre: str = "mean",
    interval: str = INTERVAL_METHOD,
) -> list[Rating]:
    """Bradley-Terry Elo ratings as :func:`ratings` gives them, from the results summed
    per pair of players: ``(a, b, points of a, games)`` (the likelihood depends on no
    more, so a league fits its aggregates instead of every stored game). Each Newton
    step is a few array operations, whatever the number of pairs. ``interval``: the
    95% profile likelihood-ratio interval (:data:`INTERVAL_METHOD`) or :data:`WALD`'s."""
    if interval not in (INTERVAL_METHOD, WALD):
        raise ValueError(f"interval must be {INTERVAL_METHOD!r} or {WALD!r}, got {interval!r}")
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    # the anchor: player n with rating 0, prior_draws draws against everyone
    fit = _Fit(
        n,
        np.array([index[a] for a, _, _, _ in totals] + list(range(n)), dtype=np.intp),
        np.array([index[b] for _, b, _, _ in totals] + [n] * n, dtype=np.intp),
        np.array([t[2] for t in totals] + [0.5 * prior_draws] * n, dtype=float),
        np.array([t[3] for t in totals] + [prior_draws] * n, dtype=float),
    )
    r = fit.maximum()
    inverse = np.linalg.inv(fit.information(r))
    top = fit.loglik(r)
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
    elo = r[:n] - float(weights @ r[:n])
    out = []
    for p, i in index.items():
        contrast = -weights.copy()
        contrast[i] += 1.0
        if interval == WALD:
            half = Z95 * math.sqrt(max(0.0, float(contrast @ inverse @ contrast)))
            low, high = float(elo[i]) - half, float(elo[i]) + half
        else:
            low, high = fit.interval(r, top, contrast, inverse)
        out.append(Rating(p, float(elo[i]), low, high, int(played[p][0]), float(played[p][1])))
    return sorted(out, key=lambda rating: -rating.elo)


class _Fit:
    """The Bradley-Terry log-likelihood of summed results: ``points`` of ``games`` won by
    ``first`` against ``second`` (indices; ``n`` is the anchor, fixed at 0)."""

    def __init__(
        self, n: int, first: np.ndarray, second: np.ndarray, points: np.ndarray, games: np.ndarray
    ) -> None:
        self.n, self.first, self.second, self.points, self.games = n, first, second, points, games

    def loglik(self, r: np.ndarray) -> float:
        """The log-likelihood at ratings ``r`` (the anchor's last, 0)."""
        d = _C * (r[self.first] - r[self.second])
        lost = self.games - self.points
        return float(-(self.points @ np.logaddexp(0.0, -d)) - lost @ np.logaddexp(0.0, d))

    def gradient(self, r: np.ndarray) -> np.ndarray:
        """The log-likelihood's gradient in the free ratings at ``r``."""
        n = self.n
        p = 1.0 / (1.0 + np.exp(-_C * (r[self.first] - r[self.second])))
        g = _C * (self.points - self.games * p)
        grad = np.bincount(self.first, g, n + 1) - np.bincount(self.second, g, n + 1)
        return grad[:n]

    def information(self, r: np.ndarray) -> np.ndarray:
        """The Fisher information (minus the Hessian) in the free ratings at ``r``."""
        n, first, second = self.n, self.first, self.second
        p = 1.0 / (1.0 + np.exp(-_C * (r[first] - r[second])))
        w = _C * _C * self.games * p * (1 - p)
        size = n + 1
        diagonal = np.bincount(first, w, size) + np.bincount(second, w, size)
        across = np.bincount(first * size + second, w, size * size).reshape(size, size)
        info = np.diag(diagonal) - across - across.T
        return info[:n, :n]

    def maximum(self) -> np.ndarray:
        """The maximum-likelihood ratings (Newton's method; strictly concave with the
        anchor's draws), the anchor's 0 last."""
        r = np.zeros(self.n + 1)
        for _ in range(100):
            step = np.linalg.solve(self.information(r), self.gradient(r))
            r[: self.n] += step
            if np.max(np.abs(step), initial=0.0) < 1e-9:
                break
        return r

    def profile(
        self, start: np.ndarray, contrast: np.ndarray, value: float, inverse: np.ndarray
    ) -> float:
        """The largest log-likelihood with ``contrast @ r == value``, from ``start``.

        Newton's method on the constrained problem with the information held at
        ``inverse`` (the maximum's, inverted once per fit): each step is a
        matrix-vector product, not a solve, and the steps shrink geometrically since
        the information changes little within an interval's reach; a step that
        does not settle in 60 falls back to the exact information."""
        n = self.n
        r = start.copy()
        toward = inverse @ contrast
        for step_number in range(200):
            if step_number == 60:
                inverse = np.linalg.inv(self.information(r))
                toward = inverse @ contrast
            ascent = inverse @ self.gradient(r)
            mu = (float(contrast @ ascent) - (value - float(contrast @ r[:n]))) / float(
                contrast @ toward
            )
            step = ascent - mu * toward
            r[:n] += step
            if np.max(np.abs(step), initial=0.0) < 1e-8:
                break
        return self.loglik(r)

    def interval(
        self, best: np.ndarray, top: float, contrast: np.ndarray, inverse: np.ndarray
    ) -> tuple[float, float]:
        """The 95% profile likelihood-ratio interval of ``contrast @ r`` around the
        maximum ``best`` (``top``: its log-likelihood, ``inverse``: its inverse
        information, both the same for every player's contrast): each end is where
        twice the log-likelihood has fallen by ``Z95**2``. Each end is found on the
        signed root of that fall, which is nearly linear in the value (exactly so for
        a quadratic log-likelihood), by Illinois' false position from the normal
        approximation's end: a handful of profiles."""
        n = self.n
        centre = float(contrast @ best[:n])
        direction = inverse @ contrast
        variance = float(contrast @ direction)
        if variance <= 1e-18:  # nothing to bound: one player, or a fixed contrast
            return centre, centre
        spread = math.sqrt(variance)

        def excess(offset: float) -> float:
            start = best.copy()
            start[:n] += offset * direction / variance
            fall = 2.0 * (top - self.profile(start, contrast, centre + offset, inverse))
            return math.sqrt(max(0.0, fall)) - Z95

        return (
            centre + _root(excess, -Z95 * spread),
            centre + _root(excess, Z95 * spread),
        )


def _root(excess: Callable[[float], float], guess: float) -> float:
    """The offset (of ``guess``'s sign) where ``excess``, increasing in its size from
    ``-Z95`` at 0, is 0: bracketed by doubling from ``guess``, then Illinois' false
    position to a thousandth of an Elo."""
    inner, inner_value = 0.0, -Z95
    outer, outer_value = guess, excess(guess)
    while outer_value < 0:
        inner, inner_value = outer, outer_value
        outer *= 2.0
        outer_value = excess(outer)
    kept = 0
    while abs(outer - inner) > 1e-3:
        middle = outer - outer_value * (outer - inner) / (outer_value - inner_value)
        value = excess(middle)
        if value == 0:
            return middle
        if value < 0:
            inner, inner_value = middle, value
            if kept == -1:
                outer_value /= 2.0
            kept = -1
        else:
            outer, outer_value = middle, value
            if kept == 1:
                inner_value /= 2.0
            kept = 1
    return 0.5 * (inner + outer)
