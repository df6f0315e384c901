"""The ratings' 95% profile likelihood-ratio intervals against an independent oracle:
the log-likelihood written again here, maximised under the constraint by SciPy's
optimiser with one rating eliminated, and each end found by SciPy's ``brentq``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq, minimize

from adjacency.ratings import bradley_terry, stats

C = math.log(10) / 400


def loglik(r: np.ndarray, results: list[tuple[int, int, float]], prior: float) -> float:
    """Bradley-Terry with a 0-rated anchor drawn ``prior`` times by everyone (each term
    ``log p`` written ``-log(1 + e^-d)``, finite however far the optimiser strays)."""
    total = 0.0
    for a, b, points in results:
        d = C * (r[a] - r[b])
        total -= points * np.logaddexp(0, -d) + (1 - points) * np.logaddexp(0, d)
    for value in r:
        d = C * value
        total -= prior * 0.5 * (np.logaddexp(0, -d) + np.logaddexp(0, d))
    return float(total)


def oracle(
    n: int, results: list[tuple[int, int, float]], player: int, prior: float = 1.0
) -> tuple[float, float, float]:
    """Player ``player``'s rating less the players' mean, and its interval's ends."""

    def best_with(value: float | None) -> float:
        others = [j for j in range(n) if j != player]

        def full(x: np.ndarray) -> np.ndarray:
            r = np.zeros(n)
            r[others] = x
            if value is not None:  # r_p - mean(r) = value, solved for r_p
                r[player] = (value + x.sum() / n) / (1 - 1 / n)
            return r

        size = n - 1 if value is not None else n
        x0 = np.zeros(size)
        if value is None:
            got = minimize(lambda r: -loglik(r, results, prior), x0, method="BFGS", tol=1e-12)
            best_with.top = got.x  # type: ignore[attr-defined]
        else:
            got = minimize(lambda x: -loglik(full(x), results, prior), x0, method="BFGS", tol=1e-12)
        return float(-got.fun)

    top = best_with(None)
    r = best_with.top  # type: ignore[attr-defined]
    centre = float(r[player] - r.mean())

    def fall(value: float) -> float:
        return 2 * (top - best_with(value)) - stats.Z95**2

    low = brentq(fall, centre - 2000, centre, xtol=1e-6)
    high = brentq(fall, centre, centre + 2000, xtol=1e-6)
    return centre, low, high


def test_three_players_intervals_equal_the_oracles() -> None:
    results = [(0, 1, 1.0)] * 7 + [(0, 1, 0.0)] * 3 + [(1, 2, 0.5)] * 4 + [(2, 0, 1.0)] * 2
    results += [(2, 0, 0.0)] * 5
    fitted = {r.player: r for r in bradley_terry.ratings(["p0", "p1", "p2"], [
        (f"p{a}", f"p{b}", s) for a, b, s in results
    ])}  # fmt: skip
    for i in range(3):
        centre, low, high = oracle(3, results, i)
        got = fitted[f"p{i}"]
        assert (got.elo, got.low, got.high) == pytest.approx((centre, low, high), abs=0.05)
        assert got.high - got.elo != pytest.approx(got.elo - got.low, abs=0.01)  # asymmetric


@settings(max_examples=6, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=3,
        max_size=25,
    ).filter(lambda games: any(a != b for a, b, _ in games))
)
def test_four_players_intervals_equal_the_oracles(games: list[tuple[int, int, float]]) -> None:
    results = [(a, b, s) for a, b, s in games if a != b]
    names = [f"p{i}" for i in range(4)]
    fitted = {r.player: r for r in bradley_terry.ratings(
        names, [(names[a], names[b], s) for a, b, s in results]
    )}  # fmt: skip
    for i in (0, 3):
        centre, low, high = oracle(4, results, i)
        got = fitted[names[i]]
        assert (got.elo, got.low, got.high) == pytest.approx((centre, low, high), abs=0.05)
        assert got.low < got.elo < got.high
