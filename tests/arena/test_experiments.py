"""The experiments command, with fast bots standing in for every role."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.arena.experiments import MATCHUPS, available_pairs
from adjacency.arena.store import Store
from adjacency.cli import main

STAND_INS = ["alphabeta=greedy", "hill=random", "anneal=random:seed=1", "genetic=greedy:seed=2",
             "gatree=random:seed=3", "engine=greedy:seed=4"]  # fmt: skip


def test_unregistered_roles_are_skipped() -> None:
    specs = {"alphabeta": "greedy", "hill": "random", "engine": "no-such-bot"}
    players, skipped = available_pairs((("alphabeta", "hill"), ("engine", "hill")), specs)
    assert players == ["greedy", "random"]
    assert skipped == ["engine vs hill (no bot for engine)"]


def test_experiments_run_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["experiments", "--preset", "reduced", "--games", "2", "--rounds", "4,6"]
    argv += ["--time", "0.5", "--concurrency", "2", "--db", str(tmp_path / "e.db")]
    argv += ["--out", str(tmp_path / "out")]
    for item in STAND_INS:
        argv += ["--bot", item]
    assert main([*argv, "--list"]) == 0
    assert "11 pairings x 2 rounds settings x 2 games = 44 games" in capsys.readouterr().out
    assert not (tmp_path / "e.db").exists()
    assert main(argv) == 0
    with Store(tmp_path / "e.db") as store:
        run = store.run()
        assert run.mode == "pairs" and run.status == "finished"
        assert len(store.games(run.id)) == 44 == run.planned
        assert len(run.players) == 2 * len(MATCHUPS)
    report = (tmp_path / "out" / "report.md").read_text()
    assert "### Ranking at 6 rounds" in report
    assert main([*argv[:-2], "--bot", "nobody=greedy"]) == 2
    assert "--bot 'nobody=greedy'" in capsys.readouterr().err


def test_the_course_preset_plays_each_reports_bots_against_each_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["experiments", "--preset", "course", "--list"]) == 0
    out = capsys.readouterr().out
    assert "6 pairings x 3 rounds settings x 20 games = 360 games" in out
    pairs = (("minimax", "localsearch"), ("minimax", "genetic"), ("localsearch", "genetic"))
    for report in ("report-a", "report-b"):
        for a, b in pairs:
            assert f"{report}:{a} vs {report}:{b}" in out
    assert "report-a:minimax vs report-b" not in out
