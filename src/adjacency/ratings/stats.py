"""Match statistics: Elo with a 95% interval, LOS, pentanomial counts, SPRT.

The statistics of one pairing, used by the arena's tables and the league's pair
pages; ratings of several players are :mod:`.bradley_terry` and :mod:`.glicko`.
The formulas are the ones chess testers use:

- Logistic Elo: a score ``s`` (0..1) is ``-400 * log10(1/s - 1)`` Elo.
- Interval (:data:`INTERVAL_METHOD`): the 95% profile likelihood-ratio interval of
  the expected score, mapped to Elo. A sample is one game (trinomial W/D/L) or one
  colour-swapped game pair (pentanomial: pair score 0, 0.5, 1, 1.5 or 2); the counts
  are multinomial over those outcomes, and the interval holds every mean ``s`` whose
  best-fitting distribution (:func:`score_deviance`) is within ``z^2`` (``z = 1.96``)
  of the observed one in deviance. Unlike the normal ``mean ± z stdev / sqrt(n)``
  (cutechess-cli, fishtest) it stays bounded and monotone in the result at 0% and
  100% (a 20-0 sweep is at least +527 Elo, not ``(-inf, +inf)``), never has zero
  width, and is asymmetric on the Elo scale. Pairs from the same opening are
  correlated, so the pentanomial interval is the honest one for paired runs.
- LOS, likelihood of superiority (cutechess-cli): ``Phi((W - L) / sqrt(W + L))``,
  written ``0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))``; draws carry no information.
- SPRT (Wald's sequential test, as fishtest runs it): the generalised
  log-likelihood ratio of the observed outcome frequencies under the two
  hypotheses "expected score = s(elo0)" and "= s(elo1)", each the maximum
  likelihood distribution with that mean (M. Van den Bergh's method, fishtest's
  ``stat_util.LLR_logistic``); accept H1 when LLR >= log((1-beta)/alpha), H0 when
  LLR <= log(beta/(1-alpha)).

Only the standard library and numpy are used (no SciPy at run time): the normal
quantile comes from :class:`statistics.NormalDist` and the SPRT's one root from a
bisection of a strictly monotone function; tests/ratings/test_stats.py checks both
against SciPy's ``norm.ppf`` and ``brentq``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from ..core.text import is_ascii_decimal, quote

Z95 = NormalDist().inv_cdf(0.975)
"""1.9599639845400536: the two-sided 95% normal quantile."""

INTERVAL_METHOD = "likelihood ratio"
"""How :func:`estimate` bounds the score: the profile likelihood-ratio interval of a
multinomial mean (named in the tables, the report and the JSON exports)."""

_EPS = float(np.finfo(float).eps)

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Pentanomial outcomes as a fraction of a pair's 2 points: LL, LD, DD or WL, WD, WW."""
GAME_SCORES = (0.0, 0.5, 1.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in [0, 1] (``±inf`` at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger."""
    return float(1.0 / (1.0 + 10.0 ** (-elo / 400.0)))


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority (cutechess-cli): 0.5 with no decisive game."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


@dataclass(frozen=True)
class Estimate:
    """Elo estimate from a sample: point value, 95% bounds, score and its spread."""

    elo: float
    low: float
    high: float
    score: float
    stdev: float
    samples: int
    score_low: float = 0.0
    """The interval's lower end on the score scale (0..1)."""
    score_high: float = 1.0
    """The interval's upper end on the score scale (0..1)."""

    @property
    def error(self) -> float:
        """Half the width of the 95% interval (cutechess-cli's ``+/-``); ``inf`` when
        the interval is unbounded."""
        return (self.high - self.low) / 2.0

    @property
    def bounded(self) -> bool:
        """False only without samples (the interval is then ``(-inf, +inf)``); a sample
        at 0% or 100% has one infinite end and one finite."""
        return not (math.isinf(self.low) and math.isinf(self.high))


def mean_score(counts: Sequence[float], outcomes: Sequence[float]) -> float:
    """The mean score of outcome ``counts`` over ``outcomes`` (0.5 without samples): the
    point value of :func:`estimate` without its interval, for a table that shows the Elo
    alone (``elo_from_score(mean_score(...))``; the interval costs two root searches)."""
    n = float(sum(counts))
    if n <= 0:
        return 0.5
    return sum(c * a for c, a in zip(counts, outcomes, strict=True)) / n


def estimate(counts: Sequence[float], outcomes: Sequence[float]) -> Estimate:
    """Elo and 95% likelihood-ratio interval from outcome ``counts`` over ``outcomes``
    (distinct scores in 0..1, including 0 and 1).

    The score interval is ``{s : score_deviance(counts, outcomes, s) <= Z95**2}``; the
    deviance is convex in ``s`` and 0 at the mean, so each end is one bisection. An end
    is at 0 or 1 (``-inf`` or ``+inf`` Elo) only when every sample is a loss or every
    sample a win; without samples the interval is ``(-inf, +inf)``.
    """
    n = float(sum(counts))
    if n <= 0:
        return Estimate(0.0, -math.inf, math.inf, 0.5, math.nan, 0, 0.0, 1.0)
    mean = mean_score(counts, outcomes)
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, outcomes, strict=True)) / n
    limit = Z95 * Z95

    def excess(s: float) -> float:
        return score_deviance(counts, outcomes, s) - limit

    low_end, high_end = min(outcomes), max(outcomes)
    low = low_end if mean <= low_end else _decreasing_root(excess, low_end, mean)
    high = high_end if mean >= high_end else _decreasing_root(lambda s: -excess(s), mean, high_end)
    return Estimate(
        elo_from_score(mean),
        elo_from_score(low),
        elo_from_score(high),
        mean,
        math.sqrt(var),
        int(n),
        low,
        high,
    )


def score_deviance(counts: Sequence[float], outcomes: Sequence[float], score: float) -> float:
    """``2 (log L(observed frequencies) - max log L(p))`` over distributions ``p`` on
    ``outcomes`` with mean ``score``: the profile likelihood-ratio statistic of the mean.

    ``p`` may put mass on outcomes never observed, which is what keeps the statistic
    finite for a sweep (every game won: ``p`` moves mass to the draw). The optimum is
    ``p_i = f_i / (1 + x (a_i - score))`` on the observed outcomes with ``x`` the root
    of their balance, clamped to ``1 + x (a_j - score) >= 0`` for every outcome ``j``;
    when clamped, the rest of the mass sits on the unobserved outcome at the clamp
    (the Karush-Kuhn-Tucker conditions). ``inf`` for a score no distribution on the
    outcomes reaches without an observed outcome losing all its mass.
    """
    n = float(sum(counts))
    observed = [(c / n, a - score) for c, a in zip(counts, outcomes, strict=True) if c > 0]
    if all(d == 0 for _, d in observed):
        return 0.0
    rest = [a - score for c, a in zip(counts, outcomes, strict=True) if c <= 0]
    above = [d for _, d in observed if d > 0] + [d for d in rest if d > 0]
    below = [d for _, d in observed if d < 0] + [d for d in rest if d < 0]
    if not above or not below:
        return math.inf  # the score is at an end of the outcomes, not the observed mean
    low, high = -1.0 / max(above), -1.0 / min(below)

    def balance(x: float) -> float:
        return sum(f * d / (1.0 + x * d) for f, d in observed)

    # at an end set by an observed outcome the balance is infinite: stay just inside
    if any(d == max(above) for _, d in observed):
        low *= 1 - 1e-12
    elif balance(low) <= 0:
        return _deviance(n, observed, low)
    if any(d == min(below) for _, d in observed):
        high *= 1 - 1e-12
    elif balance(high) >= 0:
        return _deviance(n, observed, high)
    return _deviance(n, observed, _decreasing_root(balance, low, high))


def _deviance(n: float, observed: Sequence[tuple[float, float]], x: float) -> float:
    """``2 n sum f_i log(f_i / p_i)`` with ``p_i = f_i / (1 + x d_i)``."""
    return 2.0 * n * sum(f * math.log1p(x * d) for f, d in observed)


def trinomial(wins: int, draws: int, losses: int) -> Estimate:
    """Per-game estimate (cutechess-cli's Elo difference and error margin)."""
    return estimate((losses, draws, wins), GAME_SCORES)


def pentanomial(counts: Sequence[int]) -> Estimate:
    """Per-pair estimate from counts of pair scores 0, 0.5, 1, 1.5, 2 (fishtest)."""
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts need 5 numbers, got {list(counts)}")
    return estimate(counts, PAIR_SCORES)


# ----------------------------------------------------------------------- SPRT


def _mle_with_mean(freqs: np.ndarray, outcomes: np.ndarray, mean: float) -> np.ndarray:
    """The distribution closest (max likelihood) to ``freqs`` whose expectation is ``mean``.

    ``p_i = f_i / (1 + x (a_i - mean))`` with ``x`` the root of
    ``sum f_i (a_i - mean) / (1 + x (a_i - mean)) = 0`` (Lagrange multiplier).
    """
    d = outcomes - mean
    support = freqs > 0
    if not (d[support].max() > 0 > d[support].min()):
        raise ValueError("the observed outcomes do not bracket the hypothesised mean")
    low = -1.0 / d[support].max() * (1 - 1e-12)
    high = -1.0 / d[support].min() * (1 - 1e-12)

    # Only the observed outcomes enter: an unobserved one may sit where 1 + x d is 0
    # (then 0 / 0), and its probability is 0 whatever x is.
    f, ds = freqs[support], d[support]

    def balance(x: float) -> float:
        return float(np.sum(f * ds / (1.0 + x * ds)))

    x = _decreasing_root(balance, low, high)
    p = np.zeros_like(freqs, dtype=float)
    p[support] = f / (1.0 + x * ds)
    return p / p.sum()  # type: ignore[no-any-return]


def _decreasing_root(f: Callable[[float], float], low: float, high: float) -> float:
    """The root of ``f``, strictly decreasing on ``[low, high]`` with ``f(low) > 0 > f(high)``.

    Bisection until the bracket is within ``4 eps |x|`` (relative only: near the
    bracket's ends ``1 + x d`` is tiny and an absolute tolerance would show in the
    probabilities) or no float lies between its ends: about 60 calls of ``f``, more
    only for a root within a few ulps of 0; monotone, so it cannot leave the bracket.
    """
    while True:
        mid = 0.5 * (low + high)
        if high - low <= 4 * _EPS * abs(mid) or not low < mid < high:
            return mid
        value = f(mid)
        if value == 0:
            return mid
        if value > 0:
            low = mid
        else:
            high = mid


def llr(counts: Sequence[float], outcomes: Sequence[float], elo0: float, elo1: float) -> float:
    """Generalised log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo.

    ``counts`` are observed frequencies of ``outcomes`` (game or pair scores on a
    0..1 scale). Outcomes never seen get a count of 1e-3 when needed so the
    hypothesised means stay inside the support (fishtest's regularisation).
    """
    freqs = np.asarray(counts, dtype=float)
    n = freqs.sum()
    if n <= 0:
        return 0.0
    a = np.asarray(outcomes, dtype=float)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    support = freqs > 0
    if not all(a[support].min() < s < a[support].max() for s in (s0, s1)):
        freqs = np.where(freqs > 0, freqs, 1e-3)
    f = freqs / freqs.sum()
    p0 = _mle_with_mean(f, a, s0)
    p1 = _mle_with_mean(f, a, s1)
    mask = f > 0
    return float(n * np.sum(f[mask] * np.log(p1[mask] / p0[mask])))


def llr_normal(
    counts: Sequence[float], outcomes: Sequence[float], elo0: float, elo1: float
) -> float:
    """The normal approximation of :func:`llr`: ``n (s1-s0)(2m - s0 - s1) / (2 var)``."""
    n = float(sum(counts))
    mean = sum(c * x for c, x in zip(counts, outcomes, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, outcomes, strict=True)) / n
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


class WaldBounds:
    """What every sequential test here shares: Wald's two LLR bounds from the error rates
    ``alpha`` (false H1) and ``beta`` (false H0), the verdict they give an LLR, and the
    checks of the settings.
    :class:`Sprt` and :class:`adjacency.ratings.margin.MarginSprt` are its subclasses."""

    alpha: float
    beta: float

    def _check(self, names: tuple[str, str], h0: float, h1: float, shown: str) -> None:
        """Refuse non-finite values, error rates outside (0, 1) and ``h1 <= h0``
        (``names``: the hypotheses' option names; ``shown``: how the message gives them)."""
        if not all(math.isfinite(v) for v in (h0, h1, self.alpha, self.beta)):
            raise ValueError(
                f"SPRT values must be finite numbers, got {names[0]}={h0} {names[1]}={h1} "
                f"alpha={self.alpha} beta={self.beta}"
            )
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError(
                f"SPRT alpha and beta must be in (0, 1), got {self.alpha}, {self.beta}"
            )
        if h1 <= h0:
            raise ValueError(f"SPRT {names[1]} must exceed {names[0]}, got {shown}")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR: ``log((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    def verdict(self, value: float) -> str | None:
        """``"H1"``, ``"H0"`` or ``None`` (keep playing) for an LLR value."""
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


@dataclass(frozen=True)
class Sprt(WaldBounds):
    """SPRT settings: H0 elo0, H1 elo1, error rates alpha (false H1) and beta (false H0)."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        shown = f"elo0={self.elo0} elo1={self.elo1}"
        self._check(("elo0", "elo1"), self.elo0, self.elo1, shown)

    def llr(self, penta: Sequence[int]) -> float:
        """LLR of a pentanomial sample (fishtest's default)."""
        return llr(penta, PAIR_SCORES, self.elo0, self.elo1)

    def describe(self) -> str:
        """The test's parameters in one line: ``elo0=0 elo1=10 alpha=0.05 beta=0.05``."""
        return (
            f"elo0={self.elo0 + 0.0:g} elo1={self.elo1 + 0.0:g} "  # + 0.0: no "-0"
            f"alpha={self.alpha:g} beta={self.beta:g}"
        )


def parse_sprt(items: Sequence[str]) -> Sprt:
    """Parse ``["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"]`` (any subset, any order)."""
    values: dict[str, float] = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or key not in ("elo0", "elo1", "alpha", "beta"):
            raise ValueError(f"SPRT option {item!r}: expected elo0=, elo1=, alpha= or beta=")
        if not is_ascii_decimal(text) or not math.isfinite(float(text)):
            raise ValueError(
                f"SPRT option {quote(item)}: {quote(text)} is not a number (a finite "
                "decimal in ASCII digits, e.g. elo1=10 or alpha=0.05)"
            )
        values[key] = float(text)
    return Sprt(**values)
