"""The score interval: bounded at 0% and 100%, monotone in the result, and equal to the
likelihood-ratio interval computed independently (SciPy's optimisers on the likelihood
written out here)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.ratings import stats

LIMIT = stats.Z95**2


def _loglik(counts: list[int], probs: list[float]) -> float:
    return sum(c * math.log(p) for c, p in zip(counts, probs, strict=True) if c)


def trinomial_deviance(w: int, d: int, lost: int, s: float) -> float:
    """The profile deviance of mean ``s`` by a direct search: on the line of trinomials
    with mean ``s`` (``p_win = t``, ``p_draw = 2 (s - t)``, ``p_loss = 1 - 2 s + t``), the
    best ``t`` from SciPy's bounded scalar minimiser."""
    from scipy.optimize import minimize_scalar

    n = w + d + lost
    best = _loglik([w, d, lost], [w / n, d / n, lost / n])
    lo, hi = max(0.0, 2 * s - 1), s

    def minus(t: float) -> float:
        probs = [t, 2 * (s - t), 1 - 2 * s + t]
        if any(c and p <= 0 for c, p in zip((w, d, lost), probs, strict=True)):
            return math.inf
        return -_loglik([w, d, lost], probs)

    found = minimize_scalar(minus, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13})
    value = min(float(found.fun), minus(lo), minus(hi))
    return 2 * (best + value)


def trinomial_interval(w: int, d: int, lost: int) -> tuple[float, float]:
    """The score interval's ends from :func:`trinomial_deviance` and SciPy's brentq."""
    from scipy.optimize import brentq

    n = w + d + lost
    mean = (w + 0.5 * d) / n

    def excess(s: float) -> float:
        return trinomial_deviance(w, d, lost, s) - LIMIT

    low = 0.0 if mean == 0 else brentq(excess, 1e-12, mean, xtol=1e-12)
    high = 1.0 if mean == 1 else brentq(excess, mean, 1 - 1e-12, xtol=1e-12)
    return low, high


def test_a_sweep_of_twenty_has_a_bounded_lower_elo() -> None:
    sweep, nearly = stats.trinomial(20, 0, 0), stats.trinomial(19, 1, 0)
    assert math.isfinite(sweep.low) and sweep.high == math.inf and sweep.elo == math.inf
    # every game won: the deviance is -2 * 20 * log(s), so the lower end is 0.05^(1/20)
    assert sweep.score_low == pytest.approx(math.exp(-LIMIT / 40), abs=1e-12)
    assert sweep.low == pytest.approx(398.6, abs=0.1)
    # one draw less good than a sweep: both ends lower, the upper one now finite
    assert nearly.low < sweep.low and math.isfinite(nearly.high)
    swept = stats.trinomial(0, 0, 20)
    assert swept.low == -math.inf and swept.high == pytest.approx(-sweep.low)


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30)).filter(
    lambda c: sum(c) > 0
))  # fmt: skip
def test_equal_to_an_independent_likelihood_ratio_interval(counts: tuple[int, int, int]) -> None:
    w, d, lost = counts
    est = stats.trinomial(w, d, lost)
    low, high = trinomial_interval(w, d, lost)
    assert est.score_low == pytest.approx(low, abs=1e-7)
    assert est.score_high == pytest.approx(high, abs=1e-7)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=5, max_size=5).filter(lambda c: sum(c) > 1))
def test_the_pentanomial_deviance_is_scipys_constrained_optimum(penta: list[int]) -> None:
    """Five outcomes: the deviance at a few means against SciPy's SLSQP maximising the
    likelihood over the simplex with the mean fixed (unobserved outcomes free)."""
    import numpy as np
    from scipy.optimize import minimize

    n = sum(penta)
    mean = sum(c * a for c, a in zip(penta, stats.PAIR_SCORES, strict=True)) / n
    outcomes = np.array(stats.PAIR_SCORES)
    counts = np.array(penta, dtype=float)
    best = _loglik(penta, [c / n for c in penta])
    for s in (0.1, 0.35, 0.5, 0.8, 0.95):
        ours = stats.score_deviance(penta, stats.PAIR_SCORES, s)
        start = np.full(5, 0.2) + 0.5 * (counts / n)
        start /= start.sum()
        found = minimize(
            lambda p: (
                -float(np.sum(counts[counts > 0] * np.log(np.maximum(p[counts > 0], 1e-300))))
            ),
            start,
            method="SLSQP",
            bounds=[(0.0, 1.0)] * 5,
            constraints=[
                {"type": "eq", "fun": lambda p: float(p.sum() - 1)},
                {"type": "eq", "fun": lambda p, s=s: float(p @ outcomes - s)},
            ],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        theirs = 2 * (best + found.fun)
        if math.isinf(ours):  # only a mean no distribution keeping every observed outcome has
            assert theirs > 50
            continue
        assert ours <= theirs + 1e-6  # ours is the optimum: SLSQP finds nothing better
        assert ours == pytest.approx(theirs, rel=1e-4, abs=1e-5)
    assert stats.score_deviance(penta, stats.PAIR_SCORES, mean) == pytest.approx(0, abs=1e-9)


results = st.tuples(st.integers(0, 25), st.integers(0, 25), st.integers(0, 25)).filter(
    lambda c: sum(c) > 0
)


@settings(max_examples=80, deadline=None)
@given(results, st.sampled_from(["loss to draw", "draw to win", "loss to win"]))
def test_monotone_in_the_result(counts: tuple[int, int, int], change: str) -> None:
    """A better result over the same games never lowers either end (nor the point value),
    0% and 100% included."""
    w, d, lost = counts
    better = {
        "loss to draw": (w, d + 1, lost - 1),
        "draw to win": (w + 1, d - 1, lost),
        "loss to win": (w + 1, d, lost - 1),
    }[change]
    if min(better) < 0:
        return
    before, after = stats.trinomial(w, d, lost), stats.trinomial(*better)
    assert after.score_low > before.score_low and after.score_high > before.score_high
    assert after.low >= before.low and after.high >= before.high
    assert before.score_low <= before.score < before.score_high or before.score == 1.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=5, max_size=5).filter(lambda c: sum(c) > 0),
       st.integers(0, 3))  # fmt: skip
def test_pentanomial_monotone_in_the_pairs(penta: list[int], slot: int) -> None:
    """One pair scoring half a point more never lowers an end."""
    if penta[slot] == 0:
        return
    better = list(penta)
    better[slot] -= 1
    better[slot + 1] += 1
    before, after = stats.pentanomial(penta), stats.pentanomial(better)
    assert after.score_low > before.score_low and after.score_high > before.score_high
    assert math.isfinite(after.low) and (after.high == math.inf) == (better[4] == sum(better))
