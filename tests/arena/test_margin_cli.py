"""``adjacency match --sprt stat=margin`` end to end, the margin column in every output, and
bad ``--sprt`` input refused in one line with exit status 2."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

from adjacency.arena.sequential import from_settings
from adjacency.arena.store import Store
from adjacency.arena.summary import summarize
from adjacency.arena.tables import fmt_margin
from adjacency.cli import main
from adjacency.ratings.margin import MarginSprt

FAST = ["--size", "4x4", "--rounds", "3", "--random-plies", "1", "--time", "1"]
"""Greedy against random on a 4x4 board, 3 rounds: a game takes milliseconds, and greedy
ends about 3 squares ahead per game."""


@pytest.fixture(scope="module")
def margin_match(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("margin") / "m.db"
    argv = ["match", "greedy", "random", *FAST, "--sprt", "stat=margin", "m0=0", "m1=0.5"]
    argv += ["--db", str(db), "--concurrency", "1", "--quiet"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return db, " ".join(out.getvalue().split())


def test_a_margin_sprt_match_stops_with_a_verdict(margin_match: tuple[Path, str]) -> None:
    db, printed = margin_match
    with Store(db) as store:
        run = store.run()
        games = store.games(run.id)
        ended = store.games(run.id, stored_order=True)
    assert run.status == "sprt" and run.settings.sprt_stat == "margin"
    test = from_settings(run.settings)
    assert test == MarginSprt(0.0, 0.5, 0.05, 0.05)
    assert f"SPRT: accepted H1 after {len(games)} games" in printed
    assert "SPRT stat=margin m0=0 m1=0.5 alpha=0.05 beta=0.05: LLR" in printed
    # the verdict is the test's on the stored pairs: the pair means, halved sums, from numpy
    by_pair: dict[int, list[int]] = {}
    for game in ended:
        by_pair.setdefault(game.pair, []).append(game.a_margin)
    means = [sum(m) / 2 for m in by_pair.values() if len(m) == 2]
    assert len(means) >= 10 and test.verdict(test.llr(means)) == "H1"
    assert f"LLR {test.llr(means):.2f} [-2.94, 2.94], H1 accepted" in printed
    # the table's margin cell is the summary's, and the summary's mean is numpy's
    summary = summarize(games)[0]
    assert summary.margin.mean == pytest.approx(np.mean(means))
    assert "margin ± 95%" in printed and fmt_margin(summary.margin) in printed


def test_report_and_exports_show_the_margin_and_the_margin_test(
    margin_match: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, printed = margin_match
    out, data = tmp_path / "report", tmp_path / "r.json"
    argv = ["report", str(db), "--out", str(out), "--json", str(data)]
    assert main([*argv, "--csv", str(tmp_path / "r.csv")]) == 0
    reported = " ".join(capsys.readouterr().out.split())
    verdict_line = printed[
        printed.index("SPRT stat=margin m0=0 m1=0.5 alpha=0.05 beta=0.05: LLR") :
    ]
    assert verdict_line.split(" H1 accepted")[0] in reported  # the same LLR as the match
    summary = json.loads(data.read_text(encoding="utf-8"))["summaries"][0]
    games = json.loads(data.read_text(encoding="utf-8"))["games"]
    means = {g["pair"]: g["pair_margin"] for g in games if g["pair_margin"] is not None}
    x = np.array(list(means.values()))
    assert summary["margin"] == pytest.approx(x.mean()) and summary["margin_unit"] == "pair"
    half = 1.959963984540054 * x.std() / np.sqrt(len(x))
    assert summary["margin_high"] == pytest.approx(x.mean() + half)
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "| margin ± 95% |" in text
    assert "## Sequential test\n\nSPRT stat=margin m0=0 m1=0.5" in text
    assert "The LLR reached a bound after" in text
    assert (out / "sprt.png").stat().st_size > 5000
    header = (tmp_path / "r.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "a_margin,pair_margin," in header


def test_help_documents_the_margin_test(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--sprt stat=margin m0=0 m1=0.5" in text and "m1 required, m0 default 0" in text


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (["stat=margin", "elo0=0", "elo1=10"], "SPRT option 'elo0=0': stat=margin takes m0="),
        (["stat=foo"], "SPRT option 'stat=foo': expected stat=elo or stat=margin"),
        (["stat=margin", "m0=0.5", "m1=0.2"], "SPRT m1 must exceed m0, got m0=0.5 m1=0.2"),
        (["stat=margin", "m0=0.3", "m1=0.3"], "SPRT m1 must exceed m0, got m0=0.3 m1=0.3"),
        (["stat=margin", "m0=0"], "SPRT stat=margin needs m1="),
        (["stat=margin", "m1=1e999"], "'1e999' is not a number"),
        (["elo0=0", "m1=0.3"], "SPRT option 'm1=0.3' belongs to the margin test"),
    ],
)
def test_bad_margin_sprt_input_is_refused_before_anything_is_created(
    items: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bad.db"
    argv = ["match", "greedy", "random", *FAST, "--sprt", *items, "--db", str(db), "--quiet"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("adjacency match: error: ") and message in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.out == "" and not db.exists()


def test_a_tournament_refuses_the_margin_test_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.db"
    argv = ["tournament", "greedy", "random", "random:seed=2", *FAST, "--db", str(db)]
    assert main([*argv, "--sprt", "stat=margin", "m1=0.5", "--quiet"]) == 2
    assert "--sprt applies to a match of two bots" in capsys.readouterr().err


def test_the_documented_margin_example_sets_up_a_margin_test() -> None:
    import shlex

    from adjacency.arena.sequential import parse_test
    from adjacency.cli import build_parser
    from adjacency.cli.arena_commands import match_settings

    doc = Path(__file__).resolve().parents[2] / "docs" / "arena.md"
    line = next(
        line for line in doc.read_text(encoding="utf-8").splitlines() if "stat=margin" in line
    )
    argv = shlex.split(line)
    assert argv[:2] == ["adjacency", "match"]
    args = build_parser().parse_args(argv[1:])
    settings = match_settings(args, parse_test(args.sprt))
    assert settings.sprt_stat == "margin" and from_settings(settings) == MarginSprt(0.0, 1.0)
    assert settings.random_plies > 0  # a sample of different games, not one pair repeated


def test_an_interrupted_margin_test_resumes_as_the_same_test(tmp_path: Path) -> None:
    """The run stores the statistic with the test's values: the runner picks the margin test
    up again after an interruption, counts the pairs already stored, and stops at a verdict
    whose LLR is the test's on every stored pair."""
    from adjacency.arena.games import GameResult
    from adjacency.arena.runner import create_run, execute
    from adjacency.arena.schedule import RunSettings
    from adjacency.workers import SerialExecutor

    settings = RunSettings(
        rows=4, cols=4, rounds=(3,), games=400, time=1.0, random_plies=1,
        sprt=(0.0, 0.5, 0.05, 0.05), sprt_stat="margin",
    )  # fmt: skip
    seen: list[GameResult] = []

    def interrupt_after_15(result: GameResult) -> None:
        seen.append(result)
        if len(seen) == 15:
            raise KeyboardInterrupt

    with Store(tmp_path / "r.db") as store:
        run_id = create_run(store, "match", ["greedy", "random"], settings)
        with pytest.raises(KeyboardInterrupt):
            execute(store, run_id, SerialExecutor(), on_result=interrupt_after_15)
        assert store.run(run_id).status == "stopped" and store.count(run_id) == 15
        report = execute(store, run_id, SerialExecutor())
        ended = store.games(run_id, stored_order=True)
    assert report.status == "sprt" and report.verdict == "H1"
    by_pair: dict[int, list[int]] = {}
    for game in ended:
        by_pair.setdefault(game.pair, []).append(game.a_margin)
    means = [sum(m) / 2 for m in by_pair.values() if len(m) == 2]
    assert report.llr == pytest.approx(MarginSprt(0.0, 0.5).llr(means))
    assert report.stored == len(ended) > 15
