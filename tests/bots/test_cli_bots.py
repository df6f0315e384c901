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


def test_bots_lists_the_plugin_bots_without_importing_them() -> None:
    """In a fresh process (no test has loaded the plugin yet): the openspiel row says
    what it needs and that CI installed it, and pyspiel is never imported."""
    import os
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import sys
        from adjacency.cli import main
        assert main(["bots"]) == 0
        assert "pyspiel" not in sys.modules and "adjacency.openspiel" not in sys.modules
        """)
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if "│ openspiel" in line)
    assert "the openspiel extra (adjacency.openspiel)" in row
    assert "installed; options: adjacency bots --plugins" in row


def test_bots_plugins_loads_installed_plugins_and_lists_their_options(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["bots", "--plugins"]) == 0
    out = capsys.readouterr().out
    assert "simulations=1000" in out and "uct_c=2.0" in out  # the openspiel bot's options
    assert "loaded: options listed above" in out


def test_a_missing_extra_is_shown_with_its_install_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from importlib import metadata

    from adjacency.bots import registry
    from adjacency.cli import bot_commands

    real = metadata.distribution

    def without_open_spiel(name: str) -> metadata.Distribution:
        if name == "open-spiel":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "distribution", without_open_spiel)
    monkeypatch.setenv("COLUMNS", "200")
    assert bot_commands.extra_installed("openspiel") is False
    assert bot_commands.extra_installed("ray") is True
    assert bot_commands.extra_installed("no-such-extra") is None
    monkeypatch.delitem(registry._REGISTRY, "openspiel", raising=False)
    assert main(["bots", "--plugins"]) == 0  # nothing to load: it is not installed
    out = capsys.readouterr().out
    assert "not installed: pip install 'adjacency-game[openspiel]'" in out
    assert "simulations=1000" not in out
