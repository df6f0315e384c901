"""End-to-end tests of the core's subcommands through the real ``adjacency`` entry point."""

from __future__ import annotations

from pathlib import Path

from adjacency import Game
from adjacency.core.record import game_to_json, game_to_text
from cli_helpers import run_process

PLAIN = {"COLUMNS": "100", "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
"""A terminal 100 columns wide without colours: the tables' layout is fixed."""


def test_help_lists_the_commands() -> None:
    result = run_process("--help", env=PLAIN)
    assert result.returncode == 0
    for command in ("show", "replay", "bots", "move"):
        assert command in result.stdout


def test_show_prints_the_board_after_moves() -> None:
    result = run_process("show", "--moves", "c2", "g6", env=PLAIN)
    assert result.returncode == 0, result.stderr
    assert "6oo/6oo/6o1/8/8/8/xxx5/xx6 x 54" in result.stdout
    assert "X to move" in result.stdout and "X 5 - O 5" in result.stdout


def test_show_rejects_bad_position_text_with_a_clear_error() -> None:
    result = run_process("show", "6oo/6oo/8 x 56", env=PLAIN)
    assert result.returncode == 2
    assert "error: position text '6oo/6oo/8 x 56' has 3 rank(s)" in result.stderr
    assert "Traceback" not in result.stderr


def test_show_rejects_an_illegal_move() -> None:
    result = run_process("show", "--moves", "a1", env=PLAIN)
    assert result.returncode == 2
    assert "a1 is occupied by x" in result.stderr


def test_replay_validates_text_and_json_records(tmp_path: Path) -> None:
    game = Game.new(4, 4, 1, x_name="Ann", o_name="Bob")
    game.play("c2")
    game.play("b3")
    text_file = tmp_path / "game.txt"
    text_file.write_text(game_to_text(game))
    json_file = tmp_path / "game.json"
    json_file.write_text(game_to_json(game))
    for path in (text_file, json_file):
        result = run_process("replay", str(path), env=PLAIN)
        assert result.returncode == 0, result.stderr
        assert "Ann (X) vs Bob (O)" in result.stdout
        assert "Result 0-1 (normal)" in result.stdout
    text_file.write_text(game_to_text(game).replace("b3", "c2"))
    result = run_process("replay", str(text_file), env=PLAIN)
    assert result.returncode == 2 and "occupied" in result.stderr


def test_no_help_text_shows_a_doubled_percent_sign() -> None:
    """argparse %-formats help strings but not descriptions: a ``%%`` there prints as is."""
    import argparse

    from adjacency.cli import build_parser

    def helps(parser: argparse.ArgumentParser) -> dict[str, str]:
        found = {parser.prog: parser.format_help()}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for subparser in action.choices.values():
                    found.update(helps(subparser))
        return found

    texts = helps(build_parser())
    assert "adjacency train-eval" in texts and "adjacency solutions show" in texts
    assert [prog for prog, text in texts.items() if "%%" in text] == []
