"""The hosted bots' Swiss benchmark (benchmarks/bench_hosted.py --swiss) runs end to end
at its smallest size (``--tiny``), so it cannot rot: two course projects of different
shapes uploaded to a real league server, built and checked in the sandbox, a bot's start
timed sandboxed and plain, two ``greedy`` bots connected through ``adjacency connect``
alone, the hosted bots' Swiss played by a real ``league serve`` process, and the same bots
connected through ``adjacency connect`` in the same Swiss. Every figure is printed, and
every game of both Swisses ended on the board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_helpers import run_script
from league_helpers import REPO, env

pytestmark = [pytest.mark.slow, pytest.mark.jvm]

SCRIPT = REPO / "benchmarks" / "bench_hosted.py"


def test_the_hosted_swiss_benchmark_runs_tiny_with_every_figure(tmp_path: Path) -> None:
    # Its league server ends with the benchmark, also when the benchmark times out.
    run = run_script(SCRIPT, "--tiny", env=env(), cwd=tmp_path, timeout=58)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert re.search(r"build and check of a submission, s \(2\): median \d+\.\d+", out), out
    assert re.search(r"sandboxed \d+, plain \d+: the sandbox adds -?\d+", out), out
    # a Swiss of 2 in 1 round: one board, a colour-swapped pair of games, hosted and connected
    assert re.search(r"Swiss of 2 hosted bots.*: 2 games in .*endings \{'normal': 2\}", out), out
    assert re.search(r"the same bots connected: 2 games in .*endings \{'normal': 2\}", out), out
    assert re.search(r"hosted / connected: \d+\.\d+", out), out
    memory = re.search(r"sandbox, MiB \((\d+) samples\): median (\d+\.\d+)", out)
    assert memory and int(memory[1]) > 0 and float(memory[2]) > 0, out
    server = re.search(r"the server, hosted Swiss: (\d+\.\d) CPU s .* peak RSS (\d+) MiB", out)
    assert server and int(server[2]) > 0, out
    alone = re.search(r"p95 (\d+\.\d+) with no hosted game", out)
    assert alone and float(alone[1]) > 0, out


def test_the_loaded_comparison_names_each_verdict_and_loss_the_load_added() -> None:
    """``--loaded``'s verdict (benchmarks/bench_hosted.py): of two runs' tallies, each
    team whose verdict differs, or that lost more games on time, at its start or by a
    crash beside the load, is named; the same runs are "none"."""
    import importlib.util
    import sys
    from collections import Counter
    from types import SimpleNamespace

    sys.path.insert(0, str(SCRIPT.parent))  # the script imports ports beside it
    try:
        spec = importlib.util.spec_from_file_location("bench_hosted", SCRIPT)
        assert spec and spec.loader
        bench_hosted = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench_hosted)
    finally:
        sys.path.remove(str(SCRIPT.parent))

    def run(status: str, **losses: int) -> dict[str, object]:
        teams = {"a": Counter({"won": 2}), "b": Counter(losses)}
        return {
            "shapes": {"a": "kit", "b": "project"},
            "verdicts": {"a": ("accepted", ""), "b": (status, "")},
            "teams": teams,
        }

    quiet = run("accepted", **{"lost by time forfeit": 1})
    assert bench_hosted.differences(quiet, quiet) == []
    loaded = run("refused", **{"lost by time forfeit": 2, "lost by disconnection": 1})
    assert bench_hosted.differences(quiet, loaded) == [
        "b: accepted quiet, refused loaded",
        "b: 1 more lost by time forfeit loaded",
        "b: 1 more lost by disconnection loaded",
    ]
    game = SimpleNamespace(
        x_id=1, o_id=2, status="finished", result="o", termination="time forfeit"
    )
    assert bench_hosted.tally([game], {1: "a", 2: "b"}) == {
        "a": Counter({"lost": 1, "lost by time forfeit": 1}),
        "b": Counter({"won": 1}),
    }
    same = {("a", "b", 1): "x 9-7", ("b", "a", 2): "draw 8-8"}
    assert bench_hosted.event_differences(same, dict(same)) == []
    other = {("a", "b", 1): "o 7-9 (time forfeit)", ("a", "c", 2): "x 10-6"}
    assert bench_hosted.event_differences(same, other) == [
        "round 1 a-b: x 9-7 quiet, o 7-9 (time forfeit) loaded",
        "round 2 a-c: not played quiet, x 10-6 loaded",
        "round 2 b-a: draw 8-8 quiet, not played loaded",
    ]
