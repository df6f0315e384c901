"""Piece-margin statistics: the interval from pair means, its formatting
and exports, the margin SPRT's LLR and the ``--sprt stat=margin`` settings, each against an
independent computation (numpy on the raw pairs, SciPy's normal density)."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from adjacency.arena import sequential
from adjacency.arena.export import results_dict, write_csv
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import GameRow
from adjacency.arena.summary import summarize
from adjacency.arena.tables import PAIRING_COLUMNS, fmt_margin, summary_row
from adjacency.core.errors import InvalidSettingsError
from adjacency.ratings import margin
from adjacency.ratings.stats import Sprt

Z = 1.959963984540054  # the two-sided 95% normal quantile, written out


def game(idx: int, margin_of_a: int, rounds: int = 8, pair: int | None = None) -> GameRow:
    """Game ``idx`` of ``alpha`` (A) against ``beta``, pair ``idx // 2`` unless given, in which
    A ends ``margin_of_a`` squares ahead (A is X in even games)."""
    a_is_x = idx % 2 == 0
    x, o = ("alpha", "beta") if a_is_x else ("beta", "alpha")
    a_score, b_score = 20 + margin_of_a, 20
    x_score, o_score = (a_score, b_score) if a_is_x else (b_score, a_score)
    result = "draw" if x_score == o_score else ("x" if x_score > o_score else "o")
    return GameRow(
        run_id=1, idx=idx, pairing=0, pair=idx // 2 if pair is None else pair, a="alpha",
        b="beta", x=x, o=o, rounds=rounds, a_is_x=a_is_x, result=result, termination="normal",
        detail="", x_score=x_score, o_score=o_score, plies=2 * rounds, move_times=[0.1],
        record="", seconds=1.0,
    )  # fmt: skip


def games_of(pairs: list[tuple[int, int]], unpaired: list[int]) -> list[GameRow]:
    """Complete pairs (A's margin in each game) followed by games whose partner never ended."""
    rows = [game(2 * i + k, m) for i, pair in enumerate(pairs) for k, m in enumerate(pair)]
    start = 2 * len(pairs)
    rows += [game(start + 2 * j, m, pair=len(pairs) + j) for j, m in enumerate(unpaired)]
    return rows


margins = st.integers(min_value=-40, max_value=40)


# -------------------------------------------------------------- the interval


@settings(max_examples=150, deadline=None)
@given(
    pairs=st.lists(st.tuples(margins, margins), min_size=2, max_size=40),
    unpaired=st.lists(margins, max_size=3),
)
def test_the_interval_is_that_of_the_pair_means(
    pairs: list[tuple[int, int]], unpaired: list[int]
) -> None:
    """Through the real pair formation (:func:`summarize`): the sample is each complete pair's
    margin sum halved, the interval mean ± 1.96 sd / sqrt(n) with numpy's ddof=0 sd, and the
    games outside complete pairs are left out and counted."""
    sums = np.array([a + b for a, b in pairs], dtype=float)
    x = sums / 2
    summary = summarize(games_of(pairs, unpaired))[0]
    est = summary.margin
    assert est.unit == "pair" and est.samples == len(pairs) and est.unpaired == len(unpaired)
    assert est.mean == pytest.approx(x.mean(), abs=1e-12)
    sd = float(np.std(x))
    if sd == 0:
        assert not est.bounded and math.isinf(est.error)
        assert fmt_margin(est).endswith(" ± inf")
    else:
        half = Z * sd / math.sqrt(len(x))
        assert est.low == pytest.approx(x.mean() - half, rel=1e-9, abs=1e-9)
        assert est.high == pytest.approx(x.mean() + half, rel=1e-9, abs=1e-9)
        assert est.stdev == pytest.approx(sd, rel=1e-9, abs=1e-12)
        shown_mean, shown_half = fmt_margin(est).split(" ± ")
        assert shown_mean[0] in "+-" and len(shown_mean.split(".")[1]) == 2
        assert float(shown_mean) == pytest.approx(x.mean(), abs=0.005 + 1e-9)
        assert float(shown_half) == pytest.approx(half, abs=0.005 + 1e-9)


@settings(max_examples=60, deadline=None)
@given(game_margins=st.lists(margins, min_size=1, max_size=3))
def test_with_fewer_than_two_pairs_every_game_is_a_sample(game_margins: list[int]) -> None:
    """As the Elo column falls back from pentanomial to trinomial."""
    rows = [game(i, m) for i, m in enumerate(game_margins)]
    est = summarize(rows)[0].margin
    x = np.array(game_margins, dtype=float)
    assert est.unit == "game" and est.samples == len(x) and est.unpaired == 0
    assert est.mean == pytest.approx(x.mean())
    if np.std(x) > 0:
        assert est.error == pytest.approx(Z * np.std(x) / math.sqrt(len(x)))
    else:
        assert not est.bounded


def test_a_split_pair_is_one_sample_not_two_opposite_games() -> None:
    """The colour effect that splits pairs cancels inside a pair: A wins by 6 as one colour and
    loses by 4 as the other, three times over, so every pair mean is +1 and the spread 0."""
    est = summarize(games_of([(6, -4)] * 3, []))[0].margin
    assert (est.mean, est.samples, est.unit) == (1.0, 3, "pair")
    assert not est.bounded and fmt_margin(est) == "+1.00 ± inf"


def test_formatting_matches_the_elo_column() -> None:
    assert fmt_margin(margin.interval([])) == "n/a"
    assert fmt_margin(margin.interval([-0.001, 0.0005, 0.0])).startswith("+0.00 ± ")
    assert fmt_margin(margin.interval([1.0, 2.0, 3.0, 4.0])) == "+2.50 ± 1.10"
    est = margin.interval([-1.5, -0.5])
    assert fmt_margin(est) == "-1.00 ± 0.69"


def test_the_tables_report_and_json_show_the_margin() -> None:
    from adjacency.arena.run_report import markdown_table, result_tables

    rows = games_of([(3, -1), (5, 1), (2, 0)], [7])
    summary = summarize(rows)[0]
    cell = fmt_margin(summary.margin)
    assert summary_row(summary)[PAIRING_COLUMNS.index("margin ± 95%")] == cell
    assert PAIRING_COLUMNS.index("margin ± 95%") == PAIRING_COLUMNS.index("Elo [95%]") + 1
    pairing, _ = result_tables(rows)
    assert f"| {cell} |" in markdown_table(*pairing)
    exported = results_dict(rows)["summaries"][0]
    json.dumps(exported, allow_nan=False)
    assert exported["margin"] == pytest.approx(np.mean([1.0, 3.0, 1.0]))
    assert exported["margin_unit"] == "pair" and exported["margin_samples"] == 3
    assert exported["margin_unpaired"] == 1
    assert exported["margin_high"] - exported["margin_low"] == pytest.approx(
        2 * Z * np.std([1.0, 3.0, 1.0]) / math.sqrt(3)
    )
    unbounded = results_dict(games_of([(2, 0), (2, 0)], []))["summaries"][0]
    assert (unbounded["margin_low"], unbounded["margin_high"]) == (None, None)


@settings(max_examples=25, deadline=None)
@given(
    pairs=st.lists(st.tuples(margins, margins), min_size=2, max_size=12),
    unpaired=st.lists(margins, max_size=2),
)
def test_the_csv_alone_gives_back_the_exported_interval(
    pairs: list[tuple[int, int]], unpaired: list[int], tmp_path_factory: pytest.TempPathFactory
) -> None:
    rows = games_of(pairs, unpaired)
    path = tmp_path_factory.mktemp("csv") / "games.csv"
    write_csv(rows, path)
    with path.open(encoding="utf-8") as handle:
        read = list(csv.DictReader(handle))
    by_pair: dict[str, list[float]] = {}
    for row in read:
        by_pair.setdefault(row["pair"], []).append(float(row["a_margin"]))
    samples = {row["pair"]: row["pair_margin"] for row in read}
    assert sum(value == "" for value in samples.values()) == len(unpaired)
    complete = {p: sum(m) / 2 for p, m in by_pair.items() if len(m) == 2}
    assert {p: float(v) for p, v in samples.items() if v} == complete
    x = np.array(list(complete.values()))
    exported = results_dict(rows)["summaries"][0]
    assert exported["margin"] == pytest.approx(x.mean())
    assert exported["margin_samples"] == len(x)
    if np.std(x) > 0:
        half = Z * np.std(x) / math.sqrt(len(x))
        assert exported["margin_low"] == pytest.approx(x.mean() - half)
        assert exported["margin_high"] == pytest.approx(x.mean() + half)


# -------------------------------------------------------------- the SPRT's LLR


@settings(max_examples=150, deadline=None)
@given(
    x=st.lists(
        st.floats(min_value=-20, max_value=20, allow_nan=False), min_size=margin.MIN_PAIRS,
        max_size=60,
    ),
    m0=st.floats(min_value=-3, max_value=3),
    width=st.floats(min_value=0.05, max_value=3),
)  # fmt: skip
def test_the_llr_is_the_normal_likelihood_ratio_with_each_hypothesis_own_variance(
    x: list[float], m0: float, width: float
) -> None:
    """SciPy's normal log-density summed over the pair means, under each hypothesis with its
    maximum-likelihood variance ``mean((x - mk)^2)``."""
    m1 = m0 + width
    data = np.array(x)
    s0 = math.sqrt(float(np.mean((data - m0) ** 2)))
    s1 = math.sqrt(float(np.mean((data - m1) ** 2)))
    if min(s0, s1) < 1e-6:
        return  # a hypothesis fitting exactly: ±inf, checked below
    expected = float(np.sum(norm.logpdf(data, m1, s1) - norm.logpdf(data, m0, s0)))
    got = margin.MarginSprt(m0, m1).llr(x)
    assert got == pytest.approx(expected, rel=1e-7, abs=1e-7)


def test_the_llr_counts_from_min_pairs_and_is_infinite_on_an_exact_fit() -> None:
    test = margin.MarginSprt(0.0, 0.5)
    rng = np.random.default_rng(3)
    x = list(rng.normal(0.5, 1.0, size=margin.MIN_PAIRS))
    assert test.llr(x[:-1]) == 0.0 and test.llr([]) == 0.0
    assert test.llr(x) != 0.0
    assert test.llr([0.5] * margin.MIN_PAIRS) == math.inf
    assert test.llr([0.0] * margin.MIN_PAIRS) == -math.inf
    assert test.verdict(math.inf) == "H1" and test.verdict(-math.inf) == "H0"


def test_for_small_differences_the_llr_is_the_plug_in_normal_form() -> None:
    """To first order in (m1 - m0) / s: n (m1 - m0)(2 x̄ - m0 - m1) / (2 s^2)."""
    rng = np.random.default_rng(5)
    x = rng.normal(0.3, 4.0, size=400)
    m0, m1 = 0.0, 0.05
    plug_in = len(x) * (m1 - m0) * (2 * x.mean() - m0 - m1) / (2 * np.var(x))
    assert margin.MarginSprt(m0, m1).llr(list(x)) == pytest.approx(plug_in, rel=2e-3)


def test_the_margin_test_has_the_elo_tests_bounds() -> None:
    for alpha, beta in ((0.05, 0.05), (0.01, 0.1)):
        ours, elo = margin.MarginSprt(0, 1, alpha, beta), Sprt(0, 10, alpha, beta)
        assert (ours.lower, ours.upper) == (elo.lower, elo.upper)
    with pytest.raises(ValueError, match="m1 must exceed m0"):
        margin.MarginSprt(0.5, 0.5)
    with pytest.raises(ValueError, match="alpha and beta"):
        margin.MarginSprt(0, 1, alpha=1.0)


# --------------------------------------------------------- --sprt and settings


def test_parse_test_reads_either_statistic() -> None:
    assert sequential.parse_test(["elo1=5"]) == Sprt(0, 5)
    assert sequential.parse_test(["stat=elo", "elo0=-5", "elo1=5"]) == Sprt(-5, 5)
    assert sequential.parse_test(["stat=margin", "m1=0.3"]) == margin.MarginSprt(0, 0.3)
    parsed = sequential.parse_test(["m0=-0.5", "stat=margin", "m1=1", "alpha=0.1", "beta=0.2"])
    assert parsed == margin.MarginSprt(-0.5, 1.0, 0.1, 0.2)
    assert parsed.describe() == "stat=margin m0=-0.5 m1=1 alpha=0.1 beta=0.2"


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (["stat=margin", "elo0=0", "elo1=10"], "'elo0=0': stat=margin takes m0=, m1="),
        (["stat=foo"], "'stat=foo': expected stat=elo or stat=margin"),
        (["stat=margin", "m0=0.3", "m1=0.3"], "m1 must exceed m0, got m0=0.3 m1=0.3"),
        (["stat=margin", "m0=1", "m1=0.5"], "m1 must exceed m0"),
        (["stat=margin"], "stat=margin needs m1="),
        (["stat=margin", "m1=nan"], "'nan' is not a number"),
        (["m1=0.3"], "'m1=0.3' belongs to the margin test"),
    ],
)
def test_parse_test_refuses_with_a_specific_message(items: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        sequential.parse_test(items)


def test_settings_keep_the_statistic_and_old_runs_read_as_elo() -> None:
    test = margin.MarginSprt(0.0, 0.3, 0.05, 0.1)
    stat, values = sequential.stored(test)
    kept = RunSettings(rounds=(4,), sprt=values, sprt_stat=stat)
    again = RunSettings.from_dict(json.loads(json.dumps(kept.to_dict())))
    assert sequential.from_settings(again) == test
    old = kept.to_dict()
    del old["sprt_stat"]  # a run stored before the margin test existed
    assert sequential.from_settings(RunSettings.from_dict(old)) == Sprt(0.0, 0.3, 0.05, 0.1)
    assert sequential.from_settings(RunSettings(rounds=(4,))) is None
    with pytest.raises(InvalidSettingsError, match="'median' is not one of elo, margin"):
        RunSettings(rounds=(4,), sprt=values, sprt_stat="median")


def test_the_tally_forms_pairs_as_the_summary_does(tmp_path: Path) -> None:
    """Pairs completed in any order of arrival give the pentanomial counts and pair means of
    :func:`summarize`; a lone game waits."""
    rows = games_of([(3, -1), (5, 1), (-2, -6), (0, 0)], [4])
    arrival = [rows[i] for i in (1, 3, 8, 0, 2, 5, 4, 7, 6)]
    tally = sequential.PairTally.of(arrival)
    summary = summarize(rows)[0]
    assert tally.penta == summary.penta
    assert sorted(tally.means) == sorted(summary.pair_means)
    assert list(tally.open) == [rows[8].pair]
    trace = sequential.trajectory(margin.MarginSprt(0, 1), arrival)
    assert [n for n, _ in trace] == [4, 5, 7, 9]
