"""Helpers of the deployment tests: the shipped files of deploy/ run as they are, with
only their paths, ports and names replaced by the test's own (each replaced text must
appear in the file exactly once, so a test fails when the file it checks changes)."""

from __future__ import annotations

import shlex
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEPLOY = REPO / "deploy"
INSTALLED = "/opt/adjacency/venv/bin/adjacency"
"""Where docs/deploy.md installs the command (the units' ExecStart)."""
LEAGUE_DB = "/var/lib/adjacency/league.db"
ADMIN_TOKEN_FILE = "/etc/adjacency/admin-token"
LEAGUE_PORT = "8780"
"""The port the unit serves on and the Caddyfiles forward to."""


def replaced(text: str, replacements: dict[str, str]) -> str:
    """``text`` with each key replaced by its value; each key must appear exactly once."""
    for old, new in replacements.items():
        assert text.count(old) == 1, f"{old!r} appears {text.count(old)} times, not once"
        text = text.replace(old, new)
    return text


def directive(unit: Path, key: str) -> str:
    """The value of the one ``key=`` line of a systemd unit file."""
    values = [
        line.split("=", 1)[1]
        for line in unit.read_text().splitlines()
        if line.startswith(f"{key}=")
    ]
    assert len(values) == 1, (unit, key, values)
    return values[0]


def league_command(db: Path, port: int, token_file: Path) -> list[str]:
    """The league unit's ExecStart as the arguments of ``adjacency``, serving ``db`` on
    ``port`` with the admin token of ``token_file``."""
    argv = shlex.split(directive(DEPLOY / "adjacency-league.service", "ExecStart"))
    assert argv[0] == INSTALLED, argv
    swap = {LEAGUE_DB: str(db), LEAGUE_PORT: str(port), ADMIN_TOKEN_FILE: str(token_file)}
    assert all(argv.count(old) == 1 for old in swap), argv
    return [swap.get(arg, arg) for arg in argv[1:]]
