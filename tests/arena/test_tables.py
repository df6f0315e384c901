"""The result tables: honest intervals, readable at 80 columns, full in files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from adjacency.arena.export import results_dict
from adjacency.arena.store import GameRow
from adjacency.arena.summary import Summary, summarize
from adjacency.arena.tables import fmt_estimate, summary_row
from adjacency.ratings import bradley_terry, stats


def game(idx: int, a_is_x: bool, result: str | None, rounds: int = 8) -> GameRow:
    """A stored game of ``alpha`` (A) against ``beta`` (B), pair ``idx // 2``."""
    x, o = ("alpha", "beta") if a_is_x else ("beta", "alpha")
    return GameRow(
        run_id=1, idx=idx, pairing=0, pair=idx // 2, a="alpha", b="beta", x=x, o=o,
        rounds=rounds, a_is_x=a_is_x, result=result, termination="normal", detail="",
        x_score=20, o_score=20, plies=2 * rounds, move_times=[0.1], record="", seconds=1.0,
    )  # fmt: skip


def test_a_sample_without_spread_has_a_bounded_interval_not_zero() -> None:
    """No zero-width interval and no ``± inf``: after 4 games or 2 draws the likelihood-ratio
    interval is wide but finite, and written as its two ends."""
    two_ld_pairs = stats.pentanomial([0, 2, 0, 0, 0])
    assert round(two_ld_pairs.elo) == -191
    assert two_ld_pairs.bounded and math.isfinite(two_ld_pairs.error)
    assert fmt_estimate(two_ld_pairs) == "-191 [-390, +158]"
    two_draws = stats.trinomial(0, 2, 0)
    assert two_draws.low == pytest.approx(-two_draws.high) and 200 < two_draws.high < 300
    assert fmt_estimate(two_draws) == "+0 [-250, +250]"
    # asymmetric intervals are written as their ends, never as a symmetric ± half width
    mixed = stats.trinomial(60, 20, 20)
    assert fmt_estimate(mixed) == "+147 [+83, +214]"
    assert "±" not in fmt_estimate(mixed)
    assert fmt_estimate(stats.trinomial(0, 0, 0)) == "n/a"


def test_a_sweep_has_a_bounded_lower_elo_in_the_table_and_the_export() -> None:
    """20 games won of 20: the lower end is finite (the binomial bound, 0.05^(1/20) as a
    score, since the deviance of a sweep is -2 n log s), the upper end is ``null`` in
    JSON, never a string."""
    games = [game(i, i % 2 == 0, "x" if i % 2 == 0 else "o") for i in range(20)]
    summary = summarize(games)[0]
    assert (summary.wins, summary.losses, summary.pairs) == (20, 0, 10)
    exported = results_dict(games)["summaries"][0]
    floor = math.exp(-(stats.Z95**2) / 2 / 10)  # ten pairs, each scoring 1
    assert exported["score_low"] == pytest.approx(floor, abs=1e-9)
    assert exported["elo_low"] == pytest.approx(stats.elo_from_score(floor), abs=1e-6)
    assert exported["elo"] is None and exported["elo_high"] is None
    assert exported["elo_interval"] == stats.INTERVAL_METHOD
    text = json.dumps(exported, allow_nan=False)
    assert '"inf"' not in text and '"-inf"' not in text
    assert summary_row(summary)[6] == f"+inf [{round(exported['elo_low']):+d}, +inf]"


def test_tables_and_exports_say_the_same_about_two_draws() -> None:
    games = [game(0, True, "draw"), game(1, False, "draw")]
    draws = Summary("alpha", "beta", 8, draws=2, penta=[0, 0, 1, 0, 0])
    assert summary_row(draws)[6] == "+0 [-250, +250]"
    summary = results_dict(games)["summaries"][0]
    assert summary["elo"] == 0.0
    assert round(summary["elo_low"]) == -250 and round(summary["elo_high"]) == 250
    text = json.dumps(summary, allow_nan=False)  # valid JSON: no bare Infinity
    assert '"elo": 0.0,' in text and "-0.0" not in text  # an even score is 0, not -0


def test_the_report_prints_no_zero_width_interval() -> None:
    from adjacency.arena.run_report import markdown_table, result_tables

    games = [game(0, True, "o"), game(1, False, "draw"), game(2, True, "o"), game(3, False, "draw")]
    pairing, _ = result_tables(games)
    text = markdown_table(*pairing)
    assert "| -191 [-390, +158] |" in text and "± 0 " not in text


# ---------------------------------------------- readable at 80 columns, whole in files

NAMES = ("alphabeta:depth=6", "hill:neighbourhood=area", "random:seed=11")


def wide_summaries() -> list[Summary]:
    """Three pairings at two rounds settings, with the widest Elo cells there are."""
    rows = []
    for a, b in ((NAMES[0], NAMES[1]), (NAMES[0], NAMES[2]), (NAMES[1], NAMES[2])):
        for rounds in (8, 28, None):
            rows.append(Summary(a, b, rounds, wins=7, draws=1, losses=0, penta=[0, 0, 0, 1, 3]))
    return rows


def elo_cells() -> set[str]:
    return {summary_row(s)[6] for s in wide_summaries()}


def printed(renderable: object, width: int) -> str:
    import io

    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue()


def test_the_pairing_table_at_80_columns_keeps_names_and_elo_whole() -> None:
    """Names are not cut to ``alp…`` and an Elo is not broken over three lines."""
    from adjacency.arena.tables import pairing_table

    text = printed(pairing_table(wide_summaries()), 80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in text
    for name in NAMES:
        assert any(name in line for line in lines), name
    assert "+470 [+53, +956]" in elo_cells()
    for cell in elo_cells():
        assert any(cell in line for line in lines), cell
    assert "Hidden at this width:" in " ".join(text.split())  # and says what it left out


def test_the_ranking_table_at_80_columns_keeps_names_whole() -> None:
    from adjacency.arena.tables import ranking_table

    ratings = bradley_terry.ratings(
        list(NAMES), [(NAMES[0], NAMES[1], 1.0), (NAMES[1], NAMES[2], 0.5)]
    )
    text = printed(ranking_table(ratings), 80)
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80
    for name in NAMES:
        assert name in text


def test_a_wide_console_gets_every_column() -> None:
    from adjacency.arena.tables import PAIRING_COLUMNS, pairing_table

    text = printed(pairing_table(wide_summaries()), 100_000)
    header = next(line for line in text.splitlines() if " A " in line)
    assert all(name in header for name in PAIRING_COLUMNS)
    assert "Hidden" not in text


def run_cli(argv: list[str], *, terminal: bool, cwd: Path) -> str:
    """``adjacency ARGV`` in a child process with ``COLUMNS=80``: its stdout a pseudo
    terminal (as in a shell) or a pipe (as ``> file`` or ``| less``); its output."""
    import os
    import pty
    import re
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": "80", "LINES": "40", "TERM": "xterm"}
    env.pop("FORCE_COLOR", None)
    command = [sys.executable, "-m", "adjacency", *argv]
    if not terminal:
        done = subprocess.run(
            command, env=env, cwd=cwd, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout
    main, child = pty.openpty()
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=child, stderr=subprocess.PIPE)
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    assert process.wait(timeout=120) == 0
    text = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)  # colours and cursor moves


@pytest.fixture(scope="module")
def tour_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from adjacency.cli import main

    db = tmp_path_factory.mktemp("tables") / "tour.db"
    argv = ["tournament", "alphabeta:depth=1", "greedy:seed=3", "random:seed=11", "--games", "2"]
    argv += ["--rounds", "3,4", "--time", "1", "--random-plies", "2", "--db", str(db)]
    assert main([*argv, "--concurrency", "1", "--quiet"]) == 0
    return db


def test_report_in_an_80_column_terminal_keeps_names_and_elo_whole(tour_db: Path) -> None:
    from adjacency.arena.store import Store
    from adjacency.arena.summary import summarize

    text = run_cli(["report", tour_db.name, "--no-report"], terminal=True, cwd=tour_db.parent)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in text
    with Store(tour_db) as store:
        games = store.games(store.run().id)
    for name in ("alphabeta:depth=1", "greedy:seed=3", "random:seed=11"):
        assert sum(name in line for line in lines) >= 6, name  # both tables, every row
    for summary in summarize(games):
        assert any(summary_row(summary)[6] in line for line in lines)


def test_report_to_a_pipe_writes_the_full_table(tour_db: Path) -> None:
    from adjacency.arena.tables import PAIRING_COLUMNS

    text = run_cli(["report", tour_db.name, "--no-report"], terminal=False, cwd=tour_db.parent)
    header = next(line for line in text.splitlines() if "┃ A " in line)
    assert all(f" {name} " in header for name in PAIRING_COLUMNS)
    assert len(header) > 80 and "…" not in text and "Hidden" not in text


def test_bots_never_cuts_a_preset_definition(tmp_path: Path) -> None:
    """``adjacency bots`` cut the course reports' preset definitions to ``alphabeta:dep…``."""
    in_terminal = run_cli(["bots"], terminal=True, cwd=tmp_path)
    assert "…" not in in_terminal
    assert max(len(line) for line in in_terminal.splitlines()) <= 80
    to_file = run_cli(["bots"], terminal=False, cwd=tmp_path)
    assert "…" not in to_file
    assert "minimax = alphabeta:depth=5,ties=scan" in to_file  # whole, on one line


def test_the_report_has_one_interval_method_and_writes_no_negative_zero() -> None:
    """The ranking's Elo interval is the pairing table's method (likelihood ratio), written
    as its ends the same way and named once in the legend and the export, with no other
    method named; a tiny negative LLR or a ``-0`` SPRT bound prints as ``0.00`` and ``0``,
    never with a minus sign."""
    from adjacency.arena.run_report import _legend, markdown_table, result_tables
    from adjacency.arena.tables import sprt_text

    players = ("alpha", "beta", "gamma")
    games = []
    for i, (a, b) in enumerate([(p, q) for p in players for q in players if p < q] * 2):
        one = game(i, i % 2 == 0, "draw")
        games.append(one.__class__(**{**one.__dict__, "idx": i, "pair": i, "a": a, "b": b}))
    _, ranking = result_tables(games)
    ((_, table),) = ranking
    text = markdown_table(*table)
    assert "Elo [95%]" in text and "±" not in text.split("Elo [95%]")[1].split("\n")[0]
    assert bradley_terry.INTERVAL_METHOD == stats.INTERVAL_METHOD == "likelihood ratio"
    legend = _legend()
    assert f"95% {stats.INTERVAL_METHOD} interval" in legend
    assert f"profile {stats.INTERVAL_METHOD} interval" in legend and "Wald" not in legend
    exported = results_dict(games)
    assert {r["elo_interval"] for r in exported["ratings"]} == {stats.INTERVAL_METHOD}
    assert {r["elo_interval"] for r in exported["summaries"]} == {stats.INTERVAL_METHOD}
    for r in exported["ratings"]:
        assert r["elo_low"] < r["elo"] < r["elo_high"]
    sprt = stats.Sprt(elo0=-0.0, elo1=5.0)
    line = sprt_text(sprt, sprt.llr([0, 1, 0, 1, 0]), None)
    assert "LLR 0.00 " in line and "elo0=0 " in line and "-0" not in line
