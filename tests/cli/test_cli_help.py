"""Every option of every subcommand says what it does and, where it has one, its default."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from adjacency.cli import build_parser


def parsers(
    parser: argparse.ArgumentParser, name: str = "adjacency"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``parser`` and every subcommand's parser below it, with their command names."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helped = {choice.dest for choice in action._choices_actions if choice.help}
            for sub, child in action.choices.items():
                assert sub in helped, f"{name} {sub} has no help line in {name} --help"
                yield from parsers(child, f"{name} {sub}")


def options() -> list[tuple[str, argparse.ArgumentParser, argparse.Action]]:
    return [
        (name, parser, action)
        for name, parser in parsers(build_parser())
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction)
    ]


def has_default(action: argparse.Action) -> bool:
    """True for an option that takes a value and has one when omitted."""
    return bool(action.option_strings) and action.nargs != 0 and action.default not in (
        None, argparse.SUPPRESS, [], (), "",
    )  # fmt: skip


def shown_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help text of ``action`` as ``--help`` prints it."""
    formatter = parser._get_formatter()
    return formatter._expand_help(action) if action.help is not None or has_default(action) else ""


def test_every_option_has_help_and_shows_its_default() -> None:
    missing, hidden = [], []
    for name, parser, action in options():
        label = f"{name} {'/'.join(action.option_strings) or action.dest}"
        text = shown_help(parser, action).strip()
        if not text:
            missing.append(label)
        elif has_default(action) and "default" not in text:
            hidden.append(f"{label} (default {action.default!r})")
    assert not missing, f"options without help: {missing}"
    assert not hidden, f"options whose help hides the default: {hidden}"


@pytest.mark.parametrize(
    ("command", "option", "words"),
    [
        ("adjacency experiments", "--preset", ("full", "1760 games")),
        ("adjacency experiments", "--seed", ("default 1",)),
        ("adjacency experiments", "--db", ("experiments.db",)),
        ("adjacency analyse", "--driver", ("pvs", "mtdf", "default")),
        ("adjacency bench", "--seconds", ("seconds", "default 5")),
        ("adjacency tune", "--db", ("tune.db",)),
    ],
)
def test_options_once_without_help_explain_themselves(
    command: str, option: str, words: tuple[str, ...]
) -> None:
    found = [
        shown_help(parser, action)
        for name, parser, action in options()
        if name == command and option in action.option_strings
    ]
    assert len(found) == 1
    for word in words:
        assert word in found[0]


def test_a_bare_experiments_says_what_it_is_about_to_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from adjacency.cli import main

    assert main(["experiments", "--list"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert printed.startswith("Experiments (full): 11 pairings x 4 rounds settings x 40 games")
    assert "= 1760 games (about 26 min on 2 cores)" in printed
