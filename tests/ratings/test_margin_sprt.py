"""The margin SPRT keeps its error rates: thousands of simulated tests with known means.

Each simulated test sees a stream of pair means with true mean m0 (then accepting H1 is a
false positive) or m1 (then accepting H0 is a false negative), and stops where the LLR
first leaves Wald's bounds, as the runner stops a match. The LLR is the shipped
:func:`adjacency.ratings.margin.llr_from_moments` on the running moments, vectorised over
all tests with numpy (checked against :meth:`MarginSprt.llr` pair by pair below), seeded.

Tolerance: with alpha = beta = 0.05 and 2,000 tests per side, the observed rate's
binomial standard deviation is sqrt(0.05 * 0.95 / 2000) = 0.0049; a rate passes at
alpha + 3 of those (0.0646). Wald's bounds themselves promise only about
alpha / (1 - beta) = 0.0526.

Observed (these seeds): normal pair means, sd 1, m0 = 0, m1 = 0.3: false positives
0.0480, false negatives 0.0515, 63 and 65 pairs per test on average; pair means drawn
from a real match's (:data:`OBSERVED`, sd 4.06, m1 = 1.2): false positives 0.0445, false
negatives 0.0565. Over eight other seeds the rates ranged 0.0435 to 0.0595, around
Wald's 0.0526. The plug-in form ``n (m1-m0)(2 x̄-m0-m1) / (2 s²)`` with no minimum sample,
by contrast, accepted H1 in 21% of the normal tests with true mean m0 (last test).
Not covered here: strongly skewed pair means (skewness 0.7 and more, unlike real
margins' 0.06) raise the normal model's false-negative rate (about 0.09 in a trial).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from adjacency.ratings.margin import MIN_PAIRS, MarginSprt, llr_from_moments

M0 = 0.0
TESTS = 2000
CAP = 1500
"""Pairs per simulated test at most: far beyond the ~60 a test needs, so hardly any ends
undecided (counted apart: neither a false positive nor a false negative)."""
TOLERANCE = 3 * math.sqrt(0.05 * 0.95 / TESTS)

Sampler = Callable[[np.random.Generator, float, tuple[int, int]], np.ndarray]


def normal(rng: np.random.Generator, mean: float, shape: tuple[int, int]) -> np.ndarray:
    return rng.normal(mean, 1.0, size=shape)


OBSERVED = {
    -11: 1, -10: 1, -9: 3, -8: 3, -7: 10, -6: 5, -5: 9, -4: 8, -3: 6, -2: 6, -1: 12, 0: 8,
    1: 7, 2: 7, 3: 5, 4: 5, 6: 3, 7: 1,
}  # fmt: skip
"""Pair means and how often each came up in 100 pairs of ``adjacency match greedy
alphabeta:depth=1 --rounds 28 --random-plies 2`` on 8x8 (sd 4.06 pieces, skewness 0.06)."""


def observed(rng: np.random.Generator, mean: float, shape: tuple[int, int]) -> np.ndarray:
    """Pair means drawn from :data:`OBSERVED`, moved to have the mean ``mean``: the shape of
    real margins (whole squares, lumpy) rather than a normal's."""
    values = np.array(list(OBSERVED), dtype=float)
    weights = np.array(list(OBSERVED.values()), dtype=float) / sum(OBSERVED.values())
    return rng.choice(values - values @ weights + mean, p=weights, size=shape)


def running_llr(x: np.ndarray, test: MarginSprt) -> np.ndarray:
    """The LLR after each pair of every row of ``x`` (tests by pairs)."""
    n = np.arange(1, x.shape[1] + 1, dtype=float)
    mean = np.cumsum(x, axis=1) / n
    var = np.maximum(np.cumsum(x * x, axis=1) / n - mean**2, 0.0)
    return llr_from_moments(n, mean, var, test.m0, test.m1)


def verdicts(llr: np.ndarray, test: MarginSprt) -> tuple[np.ndarray, np.ndarray]:
    """Per test: accepted H1, accepted H0 (both False: no verdict within the cap)."""
    crossed = (llr >= test.upper) | (llr <= test.lower)
    decided = crossed.any(axis=1)
    first = crossed.argmax(axis=1)
    final = llr[np.arange(len(llr)), first]
    return decided & (final >= test.upper), decided & (final <= test.lower)


def simulate(
    sampler: Sampler, mean: float, test: MarginSprt, seed: int
) -> tuple[float, float, float]:
    """Rates of H1 and H0 verdicts over :data:`TESTS` tests, and the mean pairs to a verdict."""
    rng = np.random.default_rng(seed)
    h1 = h0 = 0
    lengths: list[np.ndarray] = []
    for _ in range(4):  # in chunks: a few tens of MB at a time
        llr = running_llr(sampler(rng, mean, (TESTS // 4, CAP)), test)
        accepted_h1, accepted_h0 = verdicts(llr, test)
        h1 += int(accepted_h1.sum())
        h0 += int(accepted_h0.sum())
        crossed = (llr >= test.upper) | (llr <= test.lower)
        lengths.append(crossed.argmax(axis=1)[crossed.any(axis=1)] + 1)
    return h1 / TESTS, h0 / TESTS, float(np.concatenate(lengths).mean())


def test_the_vectorised_llr_is_the_tests_own() -> None:
    test = MarginSprt(M0, 1.2)
    x = observed(np.random.default_rng(9), 1.2, (3, 40))
    llr = running_llr(x, test)
    for row in range(3):
        for n in (1, MIN_PAIRS - 1, MIN_PAIRS, 25, 40):
            assert llr[row, n - 1] == pytest.approx(test.llr(list(x[row, :n])), abs=1e-9)
    assert (llr[:, : MIN_PAIRS - 1] == 0).all()


@pytest.mark.parametrize(
    ("sampler", "m1", "seeds"), [(normal, 0.3, (101, 102)), (observed, 1.2, (201, 202))]
)
def test_error_rates_stay_within_alpha_and_beta(
    sampler: Sampler, m1: float, seeds: tuple[int, int]
) -> None:
    """m1 - m0 is 0.3 standard deviations of a pair mean in both cases."""
    test = MarginSprt(M0, m1, 0.05, 0.05)
    false_positive, right_h0, pairs_h0 = simulate(sampler, M0, test, seeds[0])
    right_h1, false_negative, pairs_h1 = simulate(sampler, m1, test, seeds[1])
    assert false_positive <= 0.05 + TOLERANCE, false_positive
    assert false_negative <= 0.05 + TOLERANCE, false_negative
    # and the test does decide, rightly, well before the cap
    assert right_h0 >= 0.9 and right_h1 >= 0.9
    assert pairs_h0 < CAP / 5 and pairs_h1 < CAP / 5


def test_the_plug_in_form_would_not_hold_its_error_rates() -> None:
    """Why the generalised LLR: the plug-in normal form, with s² estimated from the pairs so
    far and no minimum sample, stops on tiny early variances."""
    test = MarginSprt(M0, 0.3)
    x = normal(np.random.default_rng(101), M0, (TESTS, 400))
    n = np.arange(1, x.shape[1] + 1, dtype=float)
    mean = np.cumsum(x, axis=1) / n
    var = np.maximum(np.cumsum(x * x, axis=1) / n - mean**2, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        plug_in = n * (test.m1 - M0) * (2 * mean - M0 - test.m1) / (2 * var)
    plug_in = np.where((n >= 2) & (var > 0), plug_in, 0.0)
    false_positive = verdicts(plug_in, test)[0].mean()
    assert false_positive > 0.1, false_positive
