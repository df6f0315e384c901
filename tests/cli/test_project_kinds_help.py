"""The commands that take a team's project say in their help which kinds of project they
take, and those are the intake's: every language of its table
(:data:`adjacency.hosting.languages.LANGUAGES`), so a kind the league builds cannot go
unmentioned (help that said "Java" alone once hid the Python and JavaScript programs).
"""

from __future__ import annotations

import argparse
import re

import pytest

from adjacency.cli import build_parser
from adjacency.hosting.languages import LANGUAGES

WORDS = {name: language.words for name, language in LANGUAGES.items()}
"""Each language of the table as a command's help names it."""

TAKE_A_PROJECT = (("league", "submit"), ("project",))
"""The commands whose argument is a team's project (a folder or a zip)."""


def parser_of(path: tuple[str, ...]) -> argparse.ArgumentParser:
    """The parser of the subcommand ``adjacency PATH...``."""
    parser = build_parser()
    for name in path:
        (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = commands.choices[name]
    return parser


def test_the_words_cover_the_intakes_table_exactly() -> None:
    assert set(WORDS) == set(LANGUAGES)


@pytest.mark.parametrize("path", TAKE_A_PROJECT, ids=" ".join)
def test_a_command_that_takes_a_project_names_every_kind_the_intake_reads(
    path: tuple[str, ...],
) -> None:
    shown = parser_of(path).format_help()
    missing = [
        word for word in WORDS.values() if not re.search(rf"\b{re.escape(word)}(?!\w)", shown)
    ]
    assert not missing, f"adjacency {' '.join(path)} --help does not name {missing}:\n{shown}"
