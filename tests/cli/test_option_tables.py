"""Options as data: a table's titled group shows its options under its title, in the
table's order, and a one-of group inside it still refuses two of its options; the
league's settings and rules are such groups."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.cli.arguments import Group, OneOf, Option, add_all


def test_a_group_shows_its_title_description_and_options_in_order() -> None:
    parser = argparse.ArgumentParser(prog="t")
    add_all(
        parser,
        (
            Option(("--alone",), {"help": "outside"}),
            Group(
                "the group's title",
                (
                    Option(("--first",), {"help": "first inside"}),
                    OneOf((Option(("--this",)), Option(("--that",)))),
                ),
                "what the group is for",
            ),
        ),
    )
    before, after = parser.format_help().split("the group's title:\n  what the group is for")
    assert "--alone ALONE  outside" in before
    assert "--first" not in before.split("options:")[1]
    first, this, that = (after.index(f"  --{name} ") for name in ("first", "this", "that"))
    assert first < this < that
    assert vars(parser.parse_args(["--first", "1", "--that", "2"])) == {
        "alone": None,
        "first": "1",
        "this": None,
        "that": "2",
    }


def test_a_one_of_inside_a_group_refuses_two(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="t")
    add_all(parser, (Group("g", (OneOf((Option(("--this",)), Option(("--that",)))),)),))
    with pytest.raises(SystemExit) as caught:
        parser.parse_args(["--this", "1", "--that", "2"])
    assert caught.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("action", ["create", "serve"])
def test_league_settings_and_rules_are_titled_groups(
    action: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["league", action, "--help"])
    assert caught.value.code == 0
    text = capsys.readouterr().out
    others, groups = text.split("league settings (")
    settings, rules = groups.split("league rules (")
    assert "  --db DB " in others and "--rows" not in others.split("options:")[1]
    assert settings.index("  --rows ") < settings.index("  --course ")
    assert "  --people " in rules and "  --team-mib " in rules and "--rows" not in rules


def test_league_create_refuses_a_clock_and_a_move_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    with pytest.raises(SystemExit) as caught:
        main(["league", "create", "--db", str(db), "--clock", "60+1", "--move-time", "5"])
    assert caught.value.code == 2
    assert "--move-time: not allowed with argument --clock" in capsys.readouterr().err
    assert not db.exists()
