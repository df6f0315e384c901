"""Piece-margin statistics: the mean final margin per game, its 95% interval, and an SPRT.

Why a second statistic beside Elo: at long games (28 rounds on 8x8) the second
mover wins almost every game, so most colour-swapped pairs split one win each
whatever the engines' strength and the pentanomial Elo barely moves. The final
piece margin (squares of ``a`` minus squares of ``b``) still sees by how much each
game was won, so it separates engines that Elo calls equal (Othello programmers
use the disc difference for the same reason).

The sample unit is the colour-swapped game pair, as for the pentanomial Elo
(:func:`adjacency.arena.summary.pair_slot`): both games of a pair start from the
same opening with the colours swapped, so their margins are correlated and only
the pair is an independent sample. A pair's sample is its **pair mean**, the sum
of its two margins halved, so every figure here is in pieces *per game*.

- Interval: with ``n`` pair means ``x_i``, their mean ``x̄`` and spread
  ``s² = (1/n) Σ (x_i - x̄)²`` (the maximum-likelihood variance, as
  :func:`adjacency.ratings.stats.estimate` uses), the 95% interval is
  ``x̄ ± z s / sqrt(n)``, ``z = 1.96``. Games outside complete pairs (a run stopped
  between the two games of a pair) are left out and counted apart; with fewer than
  two complete pairs every game is a sample instead, as the Elo column then falls
  back from pentanomial to trinomial (:meth:`adjacency.arena.summary.Summary.estimate`).
  A sample without spread (one sample, or all alike) says nothing about the spread:
  its interval is ``(-inf, +inf)``, never a width of 0.
- SPRT (:class:`MarginSprt`): Wald's sequential test of H0 "mean margin per game =
  m0" against H1 "= m1" on the pair means, modelled as normal with an unknown
  variance. The log-likelihood ratio is the generalised one (each hypothesis gets
  its maximum-likelihood variance, as the Elo SPRT gives each hypothesis its
  maximum-likelihood outcome distribution)::

      LLR = (n / 2) * log(s0² / s1²),   sk² = (1/n) Σ (x_i - mk)² = s² + (x̄ - mk)²

  To first order in ``(m1 - m0) / s`` this is the familiar normal-approximation
  LLR ``n (m1 - m0) (2 x̄ - m0 - m1) / (2 s²)`` (the form of
  :func:`adjacency.ratings.stats.llr_normal`). That plug-in form was not used: with
  ``s²`` estimated from a handful of pairs it is often tiny and the LLR explodes: in
  simulation (tests/ratings/test_margin_sprt.py) it accepted H1 in 21% of tests whose
  true mean was m0, at alpha = beta = 0.05. The generalised form stays bounded by how
  far ``x̄`` lies from ``m0`` relative to ``m1``. Variances estimated from very few
  pairs still mislead, so the LLR counts as 0 until :data:`MIN_PAIRS` pairs are in:
  with that guard the simulated error rates are those of Wald's bounds (about
  alpha / (1 - beta)), for normal pair means and for pair means shaped like real
  margins alike. The model is normal: strongly skewed pair means (real ones are nearly
  symmetric) would raise the error rates. Bounds: accept H1 at ``log((1 - beta) / alpha)``, H0 at
  ``log(beta / (1 - alpha))``, as :class:`adjacency.ratings.stats.Sprt`.

Only the standard library and numpy are used (no SciPy at run time);
tests/arena/test_margin.py checks the interval and the LLR against direct numpy and
SciPy computations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np
import numpy.typing as npt

from .stats import Z95, WaldBounds

MIN_PAIRS = 10
"""Pairs the margin SPRT needs before its LLR counts (20 games): a variance estimated from
fewer is too noisy to stop a test on."""

FloatArray = npt.NDArray[np.float64]
"""Arrays of floats: :func:`llr_from_moments` runs element-wise on them."""


def pair_mean(first: float, second: float) -> float:
    """The sample of one colour-swapped pair: its two games' margins (``a``'s view) halved."""
    return (first + second) / 2.0


@dataclass(frozen=True)
class MarginEstimate:
    """The mean margin per game with its 95% interval.

    ``unit`` says what one of the ``samples`` is: ``"pair"`` (a pair mean) or ``"game"``
    (fewer than two complete pairs: every game); ``unpaired`` counts the games left out
    because their pair is incomplete (0 for ``unit == "game"``)."""

    mean: float
    low: float
    high: float
    stdev: float
    samples: int
    unit: str
    unpaired: int = 0

    @property
    def error(self) -> float:
        """Half the width of the 95% interval; ``inf`` when it is unbounded."""
        return (self.high - self.low) / 2.0

    @property
    def bounded(self) -> bool:
        """False when no spread was observed (the interval is ``(-inf, +inf)``)."""
        return not (math.isinf(self.low) and math.isinf(self.high))


def interval(samples: Sequence[float], unit: str = "pair", unpaired: int = 0) -> MarginEstimate:
    """Mean and 95% interval ``mean ± 1.96 s / sqrt(n)`` of ``samples`` (``s``: the standard
    deviation with divisor ``n``); unbounded without spread, NaN mean without samples."""
    n = len(samples)
    if n == 0:
        return MarginEstimate(math.nan, -math.inf, math.inf, math.nan, 0, unit, unpaired)
    x = np.asarray(samples, dtype=float)
    mean = float(x.mean())
    stdev = float(np.sqrt(np.mean((x - mean) ** 2)))
    if stdev == 0.0:
        return MarginEstimate(mean, -math.inf, math.inf, stdev, n, unit, unpaired)
    half = Z95 * stdev / math.sqrt(n)
    return MarginEstimate(mean, mean - half, mean + half, stdev, n, unit, unpaired)


def estimate(pair_means: Sequence[float], game_margins: Sequence[float]) -> MarginEstimate:
    """The margin estimate of a pairing: from its pair means when it has two complete pairs
    or more (the games outside them counted in ``unpaired``), else from every game's margin
    (the rule of the Elo column)."""
    if len(pair_means) >= 2:
        unpaired = len(game_margins) - 2 * len(pair_means)
        return interval(pair_means, "pair", unpaired)
    return interval(game_margins, "game")


# ----------------------------------------------------------------------- SPRT


@overload
def llr_from_moments(n: int, mean: float, var: float, m0: float, m1: float) -> float: ...
@overload
def llr_from_moments(
    n: FloatArray, mean: FloatArray, var: FloatArray, m0: float, m1: float
) -> FloatArray: ...
def llr_from_moments(
    n: int | FloatArray,
    mean: float | FloatArray,
    var: float | FloatArray,
    m0: float,
    m1: float,
) -> float | FloatArray:
    """The margin SPRT's LLR ``(n/2) log((s² + (x̄-m0)²) / (s² + (x̄-m1)²))`` from ``n`` pair
    means with mean ``x̄`` and variance ``s²`` (divisor ``n``); 0 below :data:`MIN_PAIRS`.

    Element-wise on numpy arrays (the error-rate simulation runs thousands of tests at
    once); ``±inf`` when a hypothesis fits the sample exactly (all pair means equal to it).
    """
    n_arr = np.asarray(n, dtype=float)
    mean_arr = np.asarray(mean, dtype=float)
    var_arr = np.asarray(var, dtype=float)
    v0 = var_arr + (mean_arr - m0) ** 2
    v1 = var_arr + (mean_arr - m1) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 0.5 * n_arr * (np.log(v0) - np.log(v1))
    value = np.where(n_arr >= MIN_PAIRS, value, 0.0)
    if value.ndim == 0:
        return float(value)
    return value


@dataclass(frozen=True)
class MarginSprt(WaldBounds):
    """Settings of the margin SPRT: H0 "mean margin per game = m0", H1 "= m1", error rates
    alpha (false H1) and beta (false H0). Same interface as
    :class:`adjacency.ratings.stats.Sprt`, so the runner, tables and report take either."""

    m0: float
    m1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        shown = f"m0={self.m0:g} m1={self.m1:g}"
        self._check(("m0", "m1"), self.m0, self.m1, shown)

    def llr(self, pair_means: Sequence[float]) -> float:
        """The LLR of the pair means seen so far (:func:`llr_from_moments`)."""
        n = len(pair_means)
        if n == 0:
            return 0.0
        x = np.asarray(pair_means, dtype=float)
        mean = float(x.mean())
        var = float(np.mean((x - mean) ** 2))
        return llr_from_moments(n, mean, var, self.m0, self.m1)

    def describe(self) -> str:
        """The test in one line: ``stat=margin m0=0 m1=0.3 alpha=0.05 beta=0.05``."""
        return f"stat=margin m0={self.m0:g} m1={self.m1:g} alpha={self.alpha:g} beta={self.beta:g}"
