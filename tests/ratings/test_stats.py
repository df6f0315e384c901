"""Elo, intervals, LOS, SPRT and ratings against hand-computed and textbook values."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.ratings import bradley_terry, stats

EPS = sys.float_info.epsilon


def test_elo_of_known_scores() -> None:
    # -400 log10(1/s - 1): 75% is 190.85 Elo, 50% is 0, 90% is 381.70 (the usual tables)
    assert stats.elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert stats.elo_from_score(0.5) == 0.0
    assert stats.elo_from_score(0.9) == pytest.approx(381.6970, abs=1e-4)
    assert stats.elo_from_score(1.0) == math.inf
    assert stats.elo_from_score(0.0) == -math.inf
    assert stats.score_from_elo(190.8485) == pytest.approx(0.75, abs=1e-7)
    assert stats.score_from_elo(-400) == pytest.approx(1 / 11)


def test_trinomial_interval_by_hand() -> None:
    """Without draws the trinomial interval is the binomial likelihood-ratio interval:
    W=15 L=5, p = 0.75; the ends solve 2 (15 log(0.75 / s) + 5 log(0.25 / (1 - s))) = z^2,
    found here by a plain bisection of that formula."""

    def deviance(s: float) -> float:
        return 2 * (15 * math.log(0.75 / s) + 5 * math.log(0.25 / (1 - s)))

    def solve(inside: float, outside: float) -> float:
        for _ in range(200):
            mid = (inside + outside) / 2
            inside, outside = (mid, outside) if deviance(mid) < stats.Z95**2 else (inside, mid)
        return inside

    est = stats.trinomial(15, 0, 5)
    assert est.score == pytest.approx(0.75)
    assert est.score_low == pytest.approx(solve(0.75, 1e-9), abs=1e-9)
    assert est.score_high == pytest.approx(solve(0.75, 1 - 1e-9), abs=1e-9)
    assert est.low == pytest.approx(stats.elo_from_score(solve(0.75, 1e-9)), abs=1e-6)
    assert est.elo == pytest.approx(190.8485, abs=1e-3)


def test_large_samples_approach_the_normal_interval() -> None:
    """With many games the likelihood-ratio interval meets the normal one (cutechess-cli's):
    W=6000 D=2000 L=2000, mean 0.7, stdev 0.4, 0.7 -/+ 1.959964 * 0.004."""
    est = stats.trinomial(6000, 2000, 2000)
    assert est.score_low == pytest.approx(0.7 - stats.Z95 * 0.004, abs=2e-4)
    assert est.score_high == pytest.approx(0.7 + stats.Z95 * 0.004, abs=2e-4)
    symmetric = stats.pentanomial([100, 200, 400, 200, 100])
    assert symmetric.elo == 0.0 and symmetric.low == pytest.approx(-symmetric.high, abs=1e-6)
    assert symmetric.high == pytest.approx(
        stats.elo_from_score(0.5 + stats.Z95 * math.sqrt(0.075 / 1000)), abs=0.5
    )


def test_los_matches_normal_cdf() -> None:
    assert stats.los(60, 40) == pytest.approx(0.977250, abs=1e-6)  # Phi(2)
    assert stats.los(10, 6) == pytest.approx(0.841345, abs=1e-6)  # Phi(1)
    assert stats.los(5, 5) == 0.5
    assert stats.los(0, 0) == 0.5


def test_sprt_bounds_are_walds() -> None:
    sprt = stats.Sprt(0, 10, 0.05, 0.05)
    assert sprt.lower == pytest.approx(-2.944439, abs=1e-6)  # fishtest shows (-2.94, 2.94)
    assert sprt.upper == pytest.approx(2.944439, abs=1e-6)
    asym = stats.Sprt(0, 5, 0.05, 0.1)
    assert asym.upper == pytest.approx(math.log(0.9 / 0.05))
    assert asym.lower == pytest.approx(math.log(0.1 / 0.95))


def test_llr_without_draws_is_the_bernoulli_sprt() -> None:
    # with only wins and losses, the constrained MLE is exactly Bernoulli(s):
    # LLR = W log(s1/s0) + L log((1-s1)/(1-s0))
    wins, losses = 130, 100
    s0, s1 = stats.score_from_elo(0), stats.score_from_elo(20)
    expected = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    got = stats.llr([losses, 0, wins], stats.GAME_SCORES, 0, 20)
    assert got == pytest.approx(expected, rel=2e-3)  # 1e-3 regularised draws


def test_llr_close_to_normal_approximation_and_antisymmetric() -> None:
    penta = [300, 2400, 5200, 2500, 320]
    exact = stats.llr(penta, stats.PAIR_SCORES, 0, 5)
    approx = stats.llr_normal(penta, stats.PAIR_SCORES, 0, 5)
    assert exact == pytest.approx(approx, rel=0.02)
    mirrored = stats.llr(penta[::-1], stats.PAIR_SCORES, -5, 0)
    assert mirrored == pytest.approx(-exact, rel=1e-6)


def test_sprt_verdicts() -> None:
    sprt = stats.Sprt(0, 10)
    strong = [0, 10, 100, 300, 200]
    weak = strong[::-1]
    assert sprt.verdict(sprt.llr(strong)) == "H1"
    assert sprt.verdict(sprt.llr(weak)) == "H0"
    assert sprt.verdict(sprt.llr([1, 2, 3, 2, 1])) is None
    assert sprt.llr([0, 0, 0, 0, 0]) == 0.0


def test_parse_sprt_and_errors() -> None:
    assert stats.parse_sprt(["elo1=5", "alpha=0.1"]) == stats.Sprt(0, 5, 0.1, 0.05)
    with pytest.raises(ValueError, match="elo0="):
        stats.parse_sprt(["gamma=1"])
    with pytest.raises(ValueError, match="not a number"):
        stats.parse_sprt(["elo1=ten"])
    with pytest.raises(ValueError, match="must exceed"):
        stats.Sprt(10, 0)


def test_ratings_recover_a_known_difference() -> None:
    # 300 wins, 100 losses: MLE difference 190.85 (75%); with two players the centred
    # ratings are +-d/2, and var(d) = 1 / (n c^2 p (1 - p)), c = ln 10 / 400
    results = [("a", "b", 1.0)] * 300 + [("a", "b", 0.0)] * 100
    ratings = bradley_terry.ratings(["a", "b"], results, prior_draws=1e-9)
    top, bottom = ratings
    assert top.player == "a" and top.points == 300 and top.games == 400
    assert top.elo - bottom.elo == pytest.approx(190.8485, abs=0.01)
    assert top.elo == pytest.approx(-bottom.elo)
    # the profile over the one free difference is the binomial likelihood of 300 of 400,
    # so each end is half the pairing's likelihood-ratio interval of the same games
    pairing = stats.trinomial(300, 0, 100)
    assert top.low == pytest.approx(pairing.low / 2, abs=1e-3)
    assert top.high == pytest.approx(pairing.high / 2, abs=1e-3)
    assert (bottom.low, bottom.high) == pytest.approx((-top.high, -top.low), abs=1e-3)
    # the Wald interval, by the textbook's var(d) = 1 / (n c^2 p (1 - p)), c = ln 10 / 400
    wald = bradley_terry.ratings(["a", "b"], results, prior_draws=1e-9, interval="Wald")[0]
    c = math.log(10) / 400
    sd = math.sqrt(1 / (400 * c * c * 0.75 * 0.25))
    assert (wald.high - wald.low) / 2 == pytest.approx(stats.Z95 * sd / 2, rel=1e-4)
    assert top.high - top.elo > wald.high - wald.elo > top.elo - top.low  # asymmetric


def test_an_unknown_interval_method_is_refused() -> None:
    with pytest.raises(ValueError, match="interval must be"):
        bradley_terry.ratings(["a", "b"], [("a", "b", 1.0)], interval="bootstrap")


def test_ratings_stay_finite_with_perfect_scores() -> None:
    results = [("a", "b", 1.0)] * 10 + [("b", "c", 1.0)] * 10
    ratings = bradley_terry.ratings(["a", "b", "c"], results)
    assert [r.player for r in ratings] == ["a", "b", "c"]
    assert all(math.isfinite(r.low) and r.low < r.elo < r.high < math.inf for r in ratings)
    assert sum(r.elo for r in ratings) == pytest.approx(0, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=5, max_size=5).filter(lambda c: sum(c) > 1))
def test_mirrored_samples_mirror_every_statistic(penta: list[int]) -> None:
    est, mirrored = stats.pentanomial(penta), stats.pentanomial(penta[::-1])
    assert est.score + mirrored.score == pytest.approx(1.0)
    if math.isfinite(est.elo):
        assert mirrored.elo == pytest.approx(-est.elo, abs=1e-9)
    assert est.low <= est.elo <= est.high
    wins, losses = penta[4] * 2 + penta[3], penta[0] * 2 + penta[1]
    assert stats.los(wins, losses) + stats.los(losses, wins) == pytest.approx(1.0)
    if sum(1 for c in penta if c) >= 2:
        forward = stats.llr(penta, stats.PAIR_SCORES, -5, 5)
        assert stats.llr(penta[::-1], stats.PAIR_SCORES, -5, 5) == pytest.approx(-forward, abs=1e-6)


# --------------------------------------------- no SciPy at run time: equal to SciPy's


def test_normal_quantile_equals_scipys() -> None:
    from scipy.stats import norm

    z95 = stats.Z95
    assert z95 == pytest.approx(float(norm.ppf(0.975)), rel=1e-15, abs=0)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 400), min_size=5, max_size=5).filter(lambda c: sum(c) > 0),
    st.floats(-300, 300),
    st.floats(0.5, 60),
)
def test_llr_equals_the_scipy_brentq_solution(penta: list[int], elo0: float, width: float) -> None:
    """The bisection root gives the roots and LLRs of SciPy's brentq (the former code).

    The roots agree to the rounding noise of the balance function (about 1e-13 on a
    bracket of width 4). The LLR is a difference of two close log-likelihoods: it
    amplifies the last bits of the roots to about 1e-9 relative, up to 1e-7 near elo
    -300 with close hypotheses, where SciPy's own brentq at xtol 1e-15 and at xtol
    1e-300 differ as much; so the LLRs are compared at 1e-6, far below what moves an
    SPRT verdict (bounds about 2.9).
    """
    from unittest import mock

    import numpy as np
    from scipy import optimize

    roots: list[tuple[float, float]] = []
    bisection = stats._decreasing_root

    def brentq(f: Callable[[float], float], low: float, high: float) -> float:
        theirs = float(optimize.brentq(f, low, high, xtol=1e-300, rtol=4 * EPS, maxiter=2000))
        roots.append((bisection(f, low, high), theirs))
        return theirs

    elo1 = elo0 + width
    for outcomes, counts in ((stats.PAIR_SCORES, penta), (stats.GAME_SCORES, penta[:3])):
        if sum(counts) == 0:
            continue
        ours = stats.llr(counts, outcomes, elo0, elo1)
        with mock.patch.object(stats, "_decreasing_root", brentq):
            theirs = stats.llr(counts, outcomes, elo0, elo1)
        assert ours == pytest.approx(theirs, rel=1e-6, abs=1e-9)
    assert roots
    for mine, scipys in roots:
        assert mine == pytest.approx(scipys, rel=1e-12, abs=1e-12)
    assert np.isfinite([r for pair in roots for r in pair]).all()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=5, max_size=5), st.floats(-50, 50))
def test_unobserved_outcomes_change_nothing_and_warn_nothing(penta: list[int], elo0: float) -> None:
    """An outcome never seen has probability 0 under both hypotheses: the LLR is the one
    of the observed outcomes alone. Before, an unobserved outcome at the edge of the
    multiplier's bracket made 0 / 0 (a RuntimeWarning printed by ``adjacency report``
    for the counts 0-1-0-3-0, and a NaN inside the root finding)."""
    import warnings

    observed = [(c, a) for c, a in zip(penta, stats.PAIR_SCORES, strict=True) if c > 0]
    means = [stats.score_from_elo(e) for e in (elo0, elo0 + 10)]
    scores = [a for _, a in observed]
    if not observed or not all(min(scores) < m < max(scores) for m in means):
        return  # the regularised case, tested above
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        whole = stats.llr(penta, stats.PAIR_SCORES, elo0, elo0 + 10)
        alone = stats.llr([c for c, _ in observed], scores, elo0, elo0 + 10)
    assert whole == pytest.approx(alone, rel=1e-9, abs=1e-12)


def test_the_counts_that_warned_in_a_report() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = stats.Sprt(0, 10).llr([0, 1, 0, 3, 0])
    assert value == pytest.approx(stats.llr([1, 3], [0.25, 0.75], 0, 10))
