"""docs/deploy.md says only what is true: every ``adjacency`` command in its blocks is
accepted by the real parser, every file it copies from ``deploy/`` exists, and the
paths it names are the ones the units and the Caddy test use."""

from __future__ import annotations

import re
import shlex

import pytest

from adjacency.cli import build_parser
from deploy_helpers import ADMIN_TOKEN_FILE, DEPLOY, INSTALLED, LEAGUE_DB, REPO, directive

DOC = REPO / "docs" / "deploy.md"
CADDY_ROOT = "caddy/pki/authorities/local/root.crt"
"""Where Caddy keeps its internal authority's root under its data folder (the Caddy test
finds it there under ``XDG_DATA_HOME``; Debian's service has ``/var/lib/caddy/.local/share``)."""


def shell_lines() -> list[str]:
    """The commands of the doc's ``sh`` blocks, continuation lines joined, comments cut."""
    lines: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", DOC.read_text(), flags=re.S):
        joined = block.replace("\\\n", " ")
        for line in joined.splitlines():
            line = line.split(" #", 1)[0].strip()
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


def adjacency_commands() -> list[list[str]]:
    """The arguments of every ``adjacency`` run in the doc's blocks (the installed path
    anywhere in the line, as after ``sudo -u adjacency``, or ``adjacency`` first)."""
    found: list[list[str]] = []
    for line in shell_lines():
        words = shlex.split(line)
        if INSTALLED in words:
            found.append(words[words.index(INSTALLED) + 1 :])
        elif words[0] == "adjacency":
            found.append(words[1:])
    return found


def parsed_commands() -> list[list[str]]:
    """:func:`adjacency_commands` less ``--version`` (argparse prints it and exits)."""
    return [args for args in adjacency_commands() if args != ["--version"]]


def test_the_doc_has_the_commands_a_teacher_needs() -> None:
    actions = {tuple(args[:2]) for args in adjacency_commands()}
    assert {("league", a) for a in ("create", "add-bot", "backup", "restore")} <= actions
    assert ("connect", "https://league.school.example") in actions
    assert ("--version",) in actions


@pytest.mark.parametrize("args", parsed_commands(), ids=" ".join)
def test_every_adjacency_command_of_the_doc_parses(args: list[str]) -> None:
    parsed = build_parser().parse_args(args)  # an unknown flag or action exits here
    assert parsed.handler is not None


def test_the_files_and_paths_it_names_are_the_deployed_ones() -> None:
    text = DOC.read_text()
    for name in re.findall(r"~/deploy/([\w.-]+)", text):
        assert (DEPLOY / name).is_file(), name
    for path in (INSTALLED, LEAGUE_DB, ADMIN_TOKEN_FILE, "/var/lib/adjacency/backups/"):
        assert path in text, path
    unit = DEPLOY / "adjacency-league.service"
    assert LEAGUE_DB in directive(unit, "ExecStart") and INSTALLED in directive(unit, "ExecStart")
    assert f"/var/lib/caddy/.local/share/{CADDY_ROOT}" in text
    backup = directive(DEPLOY / "adjacency-backup.service", "ExecStart")
    assert "/var/lib/adjacency/backups/league-" in backup and "-mtime +14" in directive(
        DEPLOY / "adjacency-backup.service", "ExecStartPost"
    )
