"""Plugin bots come from packaging entry points (the group ``adjacency.bots``): a bot that
another installed distribution declares is named among the plugin bots without being
imported, registered when a spec first names it, and plays; one whose module cannot be
imported is one error line with the command that installs what it needs.

The distribution is a real one on the path of a real ``adjacency`` process: a
``.dist-info`` folder with its ``entry_points.txt``, as pip would install it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cli_helpers import run_process

SHOUT = '''"""A bot installed by another distribution."""
from adjacency.bots.baseline import GreedyBot
from adjacency.bots.registry import register


@register("shout", "greedy, from the fakebots distribution", "plugin")
class ShoutBot(GreedyBot):
    """Greedy under another name."""
'''


@pytest.fixture
def fakebots(tmp_path: Path) -> Path:
    """A folder holding the installed distribution ``fakebots``: two plugin bots, ``shout``
    (plays) and ``broken`` (its module imports a library that is not installed)."""
    info = tmp_path / "fakebots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakebots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[adjacency.bots]\n"
        "shout = fakebots_shout:ShoutBot\n"
        "broken = fakebots_broken:Nothing [fast]\n"
    )
    (tmp_path / "fakebots_shout.py").write_text(SHOUT)
    (tmp_path / "fakebots_broken.py").write_text("import no_such_library_anywhere\n")
    return tmp_path


def adjacency(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``adjacency ARGS`` with ``path`` first on the import path."""
    return run_process(*args, env={**os.environ, "PYTHONPATH": str(path), "COLUMNS": "200"})


def test_a_plugin_bot_of_another_distribution_is_listed_then_plays(fakebots: Path) -> None:
    listed = adjacency(fakebots, "bots")
    assert listed.returncode == 0, listed.stderr
    cells = [
        [cell.strip() for cell in line.split("│")[1:-1]] for line in listed.stdout.splitlines()
    ]
    rows = {row[0]: row[1:] for row in cells if len(row) == 3}  # the plugin table: 3 columns
    assert rows["openspiel"] == [
        "the openspiel extra (adjacency.openspiel)",
        "installed; options: adjacency bots --plugins",
    ]
    assert rows["shout"] == [
        "fakebots_shout, from fakebots",
        "installed; options: adjacency bots --plugins",
    ]
    assert rows["broken"] == [
        "the fast extra (fakebots_broken), from fakebots",
        "not checked (no package metadata); options: adjacency bots --plugins",
    ]
    assert "greedy, from the fakebots distribution" not in listed.stdout  # not imported

    played = adjacency(fakebots, "move", "shout:seed=3", "2oo/2oo/xx2/xx2 x 8")
    assert played.returncode == 0, played.stderr
    greedy = adjacency(fakebots, "move", "greedy:seed=3", "2oo/2oo/xx2/xx2 x 8")
    assert played.stdout == greedy.stdout  # the plugin's class is greedy's, seeded alike

    loaded = adjacency(fakebots, "bots", "--plugins")
    assert "greedy, from the fakebots distribution" in loaded.stdout


def test_a_plugin_that_cannot_be_imported_is_one_line_with_its_install_command(
    fakebots: Path,
) -> None:
    done = adjacency(fakebots, "move", "broken")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "adjacency move: error: bot 'broken' needs the fast extra"
        " (No module named 'no_such_library_anywhere'): pip install 'fakebots[fast]'"
    ]
