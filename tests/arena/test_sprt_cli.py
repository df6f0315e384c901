"""An SPRT match plays to a verdict or to an explicit cap and says which.

Before, ``--sprt`` without ``--games`` stopped at the default 20 games with "continue"
and status finished, and the match that ``tune`` prints and docs/arena.md's example
did just that.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from adjacency.arena.store import Store
from adjacency.cli import build_parser, main
from adjacency.cli.arena_commands import SPRT_GAMES, match_settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "arena.md"


def test_without_games_an_sprt_match_plays_to_its_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.db"
    argv = ["match", "greedy", "random", "--rounds", "3", "--random-plies", "1", "--time", "1"]
    argv += ["--sprt", "elo0=0", "elo1=10", "--db", str(db), "--concurrency", "1", "--quiet"]
    assert main(argv) == 0
    printed = " ".join(capsys.readouterr().out.split())
    with Store(db) as store:
        run = store.run()
        stored = store.count(run.id)
    assert run.planned == SPRT_GAMES and run.status == "sprt"
    assert 20 < stored < SPRT_GAMES  # past the old default, stopped by the verdict
    assert f"at most {SPRT_GAMES} games (--games sets the cap)" in printed
    assert f"SPRT: accepted H1 after {stored} games" in printed


def test_an_explicit_cap_says_the_test_ended_without_a_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.db"
    argv = ["match", "greedy", "greedy:seed=1", "--rounds", "3", "--random-plies", "1"]
    argv += ["--games", "4", "--sprt", "elo0=0", "elo1=5", "--db", str(db), "--quiet"]
    assert main([*argv, "--concurrency", "1"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "SPRT: stopped at the cap of 4 games without a verdict" in printed
    assert main(["report", str(db), "--no-report"]) == 0
    assert "SPRT: stopped at the cap of 4 games without a verdict" in capsys.readouterr().out


def test_the_documented_sprt_example_runs_to_a_verdict() -> None:
    line = next(line for line in DOC.read_text(encoding="utf-8").splitlines() if " --sprt " in line)
    argv = shlex.split(line)
    assert argv[:2] == ["adjacency", "match"]
    args = build_parser().parse_args(argv[1:])
    from adjacency.ratings.stats import parse_sprt

    settings = match_settings(args, parse_sprt(args.sprt))
    assert settings.games == SPRT_GAMES and settings.sprt is not None
    assert settings.random_plies > 0  # a sample of different games, not one pair repeated
    assert re.search(r"at most `--games` games", DOC.read_text(encoding="utf-8"))


def test_the_report_draws_the_llr_as_the_games_came_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The trajectory ends where the match's own test ended: its last point is the LLR of
    the final pentanomial counts, and the bound is first reached at its last pair (the
    match stops at the verdict)."""
    from adjacency.arena.run_report import SprtTrace
    from adjacency.arena.summary import summarize
    from adjacency.ratings.stats import Sprt

    db = tmp_path / "t.db"
    argv = ["match", "greedy", "random", "--rounds", "3", "--random-plies", "1", "--time", "1"]
    argv += ["--sprt", "elo0=0", "elo1=10", "--db", str(db), "--concurrency", "1", "--quiet"]
    assert main(argv) == 0
    with Store(db) as store:
        run = store.run()
        ended = store.games(run.id, stored_order=True)
    sprt = Sprt(0, 10)
    trace = SprtTrace.of(sprt, ended)
    assert len(trace.points) == len(ended) // 2
    played = [n for n, _ in trace.points]
    assert played == sorted(set(played)) and played[-1] <= len(ended)
    final = next(s.penta for s in summarize(ended) if s.rounds is None)
    assert trace.points[-1][1] == pytest.approx(sprt.llr(final))
    assert trace.verdict_at == played[-1]
    assert all(sprt.verdict(v) is None for _, v in trace.points[:-1])
    capsys.readouterr()
    assert main(["report", str(db), "--out", str(tmp_path / "r")]) == 0
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert f"The LLR reached a bound after {played[-1]} games." in text
    assert "![sprt](sprt.png)" in text
    assert (tmp_path / "r" / "sprt.png").stat().st_size > 5000
    assert main(["report", str(db), "--html", "--format", "svg", "--out", str(tmp_path / "h")]) == 0
    assert '<img src="sprt.svg"' in (tmp_path / "h" / "report.html").read_text(encoding="utf-8")
