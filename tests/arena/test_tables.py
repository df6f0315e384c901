"""The result tables: honest intervals, readable at 80 columns, full in files (issue 25)."""

from __future__ import annotations

import json
import math

from adjacency.arena import stats
from adjacency.arena.export import results_dict
from adjacency.arena.store import GameRow
from adjacency.arena.summary import Summary
from adjacency.arena.tables import fmt_estimate, summary_row


def game(idx: int, a_is_x: bool, result: str | None, rounds: int = 8) -> GameRow:
    """A stored game of ``alpha`` (A) against ``beta`` (B), pair ``idx // 2``."""
    x, o = ("alpha", "beta") if a_is_x else ("beta", "alpha")
    return GameRow(
        run_id=1, idx=idx, pairing=0, pair=idx // 2, a="alpha", b="beta", x=x, o=o,
        rounds=rounds, a_is_x=a_is_x, result=result, termination="normal", detail="",
        x_score=20, o_score=20, plies=2 * rounds, move_times=[0.1], record="", seconds=1.0,
    )  # fmt: skip


def test_a_sample_without_spread_has_an_unbounded_interval_not_zero() -> None:
    """Issue 25 CLI 12: ``-191 ± 0`` after 4 games, ``+0 ± 0`` after 2 draws."""
    two_ld_pairs = stats.pentanomial([0, 2, 0, 0, 0])
    assert round(two_ld_pairs.elo) == -191
    assert not two_ld_pairs.bounded and math.isinf(two_ld_pairs.error)
    assert fmt_estimate(two_ld_pairs) == "-191 ± inf"
    two_draws = stats.trinomial(0, 2, 0)
    assert (two_draws.low, two_draws.high) == (-math.inf, math.inf)
    assert fmt_estimate(two_draws) == "+0 ± inf"
    # a sample with spread keeps its finite interval
    mixed = stats.trinomial(60, 20, 20)
    assert mixed.bounded and math.isfinite(mixed.error) and mixed.error > 0
    assert fmt_estimate(mixed) == "+147 ± 66"


def test_tables_and_exports_say_the_same_about_an_unbounded_interval() -> None:
    games = [game(0, True, "draw"), game(1, False, "draw")]
    draws = Summary("alpha", "beta", 8, draws=2, penta=[0, 0, 1, 0, 0])
    assert summary_row(draws)[6] == "+0 ± inf"
    summary = results_dict(games)["summaries"][0]
    assert (summary["elo"], summary["elo_low"], summary["elo_high"]) == (0.0, "-inf", "inf")
    json.dumps(summary, allow_nan=False)  # valid JSON: no bare Infinity


def test_the_report_prints_no_zero_width_interval() -> None:
    from adjacency.arena.run_report import markdown_table, result_tables

    games = [game(0, True, "o"), game(1, False, "draw"), game(2, True, "o"), game(3, False, "draw")]
    pairing, _ = result_tables(games)
    text = markdown_table(*pairing)
    assert "| -191 ± inf |" in text and "± 0 " not in text
