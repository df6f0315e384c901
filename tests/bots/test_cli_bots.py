"""The bot subcommands: ``adjacency bots`` and ``adjacency move``."""

from __future__ import annotations

import pytest

from adjacency.cli import main


def test_bots_lists_every_classic_bot_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    for text in ("alphabeta", "gatree", "anneal", "steepest", "cooling", "elitism"):
        assert text in out
    for text in ("report-a", "report-b", "neighbourhood", "ties"):
        assert text in out


def test_move_accepts_a_report_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", "report-b:localsearch", "--seed", "1"]) == 0
    assert capsys.readouterr().out.split()[0] in {"f7", "f8", "g6", "h6"}  # the gain-1 moves


def test_move_with_think_prints_every_iteration(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", "alphabeta", "--depth", "3", "--think"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines[:3]] == ["depth=1", "depth=2", "depth=3"]
    assert lines[-1] == "g6"


def test_move_with_a_bad_spec_fails_with_the_accepted_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["move", "hill:variant=best"]) == 2
    err = capsys.readouterr().err
    assert "adjacency move: error:" in err
    assert "not one of steepest, sideways, stochastic, restart" in err
