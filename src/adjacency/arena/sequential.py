"""The sequential tests a match can run, behind one interface: Elo or piece margin.

``--sprt elo0=0 elo1=10`` runs the pentanomial Elo SPRT
(:class:`~adjacency.ratings.stats.Sprt`, the default), ``--sprt stat=margin m0=0 m1=0.5``
the piece-margin SPRT (:class:`~adjacency.ratings.margin.MarginSprt`). Both have the same
bounds, verdict and one-line description; they differ only in the sample their LLR
reads: the pentanomial counts or the pair means. :class:`PairTally` collects both as a
match's games end, and :func:`llr` hands each test its own, so that the runner's stop
rule, the run's stored settings (``--resume`` continues the same test), the tables and
the report's LLR trajectory are one path for both tests.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from ..core.text import is_ascii_decimal, quote
from ..ratings.margin import MarginSprt, pair_mean
from ..ratings.stats import Sprt, parse_sprt
from .schedule import SPRT_STATS, RunSettings
from .store import GameRow

SequentialTest = Sprt | MarginSprt
"""Either test: ``lower``, ``upper``, ``verdict(llr)``, ``describe()``, ``alpha``, ``beta``."""

_MARGIN_KEYS = ("m0", "m1", "alpha", "beta")


def parse_test(items: Sequence[str]) -> SequentialTest:
    """The test of ``--sprt KEY=VALUE ...``: ``stat=elo`` (the default) takes ``elo0``,
    ``elo1``, ``alpha``, ``beta`` (:func:`~adjacency.ratings.stats.parse_sprt`); ``stat=margin``
    takes ``m0`` (default 0), ``m1`` (required: the margin per game worth detecting
    depends on the board and the rounds), ``alpha`` and ``beta``. ``ValueError`` with the
    offending item quoted for anything else."""
    stat = "elo"
    rest: list[str] = []
    for item in items:
        key, _, text = item.partition("=")
        if key != "stat":
            rest.append(item)
        elif text in SPRT_STATS:
            stat = text
        else:
            expected = " or ".join(f"stat={s}" for s in SPRT_STATS)
            raise ValueError(f"SPRT option {quote(item)}: expected {expected}")
    keys = [item.partition("=")[0] for item in rest]
    if stat == "elo":
        misplaced = [item for item, key in zip(rest, keys, strict=True) if key in ("m0", "m1")]
        if misplaced:
            raise ValueError(
                f"SPRT option {quote(misplaced[0])} belongs to the margin test: add stat=margin, "
                "or give elo0= and elo1= for the Elo test"
            )
        return parse_sprt(rest)
    values: dict[str, float] = {"m0": 0.0}
    for item, key in zip(rest, keys, strict=True):
        text = item.partition("=")[2]
        if key not in _MARGIN_KEYS:
            raise ValueError(
                f"SPRT option {quote(item)}: stat=margin takes m0=, m1=, alpha= or beta= "
                "(elo0= and elo1= belong to the Elo test)"
            )
        if not is_ascii_decimal(text) or not math.isfinite(float(text)):
            raise ValueError(
                f"SPRT option {quote(item)}: {quote(text)} is not a number (a finite "
                "decimal in ASCII digits, e.g. m1=0.5 or alpha=0.05)"
            )
        values[key] = float(text)
    if "m1" not in values:
        raise ValueError(
            "SPRT stat=margin needs m1=, the mean margin per game (pieces) worth detecting, "
            "e.g. --sprt stat=margin m0=0 m1=0.5"
        )
    return MarginSprt(**values)


def stored(test: SequentialTest) -> tuple[str, tuple[float, float, float, float]]:
    """How a run stores ``test`` in its :class:`~adjacency.arena.schedule.RunSettings`: the
    statistic (``sprt_stat``) and ``(h0, h1, alpha, beta)`` (``sprt``)."""
    if isinstance(test, MarginSprt):
        return "margin", (test.m0, test.m1, test.alpha, test.beta)
    return "elo", (test.elo0, test.elo1, test.alpha, test.beta)


def from_settings(settings: RunSettings) -> SequentialTest | None:
    """The test a run's settings store (``None`` for a run without one)."""
    if settings.sprt is None:
        return None
    if settings.sprt_stat == "margin":
        return MarginSprt(*settings.sprt)
    return Sprt(*settings.sprt)


def hypotheses(test: SequentialTest) -> tuple[str, str]:
    """H0 and H1 in words for the chart: ``("elo0=0", "elo1=10")`` or ``("m0=0", "m1=0.5")``."""
    if isinstance(test, MarginSprt):
        return f"m0={test.m0:g}", f"m1={test.m1:g}"
    return f"elo0={test.elo0:g}", f"elo1={test.elo1:g}"


def sample_name(test: SequentialTest) -> str:
    """What the test's LLR reads: ``pentanomial`` or ``pair margins``."""
    return "pair margins" if isinstance(test, MarginSprt) else "pentanomial"


class PairTally:
    """The completed colour-swapped pairs of one match as its games end: the pentanomial
    counts (pair score doubled, as :func:`adjacency.arena.summary.pair_slot`) and the pair
    means of the margin (:func:`adjacency.ratings.margin.pair_mean`), in completion order.
    A game waits in ``open`` (by pair number: ``a``'s points and margin) until the other
    game of its pair ends."""

    def __init__(self) -> None:
        self.open: dict[int, tuple[float, int]] = {}
        self.penta = [0] * 5
        self.means: list[float] = []

    @classmethod
    def of(cls, games: Iterable[GameRow]) -> PairTally:
        """The tally of a match's stored games."""
        tally = cls()
        for game in games:
            tally.add(game.pair, game.a_points, game.a_margin)
        return tally

    def add(self, pair: int, points: float, margin: int) -> bool:
        """Count one game of pair ``pair`` (``a``'s points and margin); True if it completed
        its pair."""
        first = self.open.pop(pair, None)
        if first is None:
            self.open[pair] = (points, margin)
            return False
        self.penta[round(2 * (first[0] + points))] += 1
        self.means.append(pair_mean(first[1], margin))
        return True


def llr(test: SequentialTest, tally: PairTally) -> float:
    """The LLR of ``test`` on the pairs of ``tally``: each test reads its own sample."""
    if isinstance(test, MarginSprt):
        return test.llr(tally.means)
    return test.llr(tally.penta)


def trajectory(test: SequentialTest, ended: Iterable[GameRow]) -> list[tuple[int, float]]:
    """``(games played, LLR)`` after each completed pair of a match's games in the order they
    ended (:meth:`~adjacency.arena.store.Store.games` with ``stored_order``): what the test
    saw as the match went on."""
    tally = PairTally()
    points: list[tuple[int, float]] = []
    for played, game in enumerate(ended, 1):
        if tally.add(game.pair, game.a_points, game.a_margin):
            points.append((played, llr(test, tally)))
    return points
