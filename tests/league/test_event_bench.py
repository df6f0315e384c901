"""``benchmarks/bench_event.py`` run tiny (3 members, a 4x4 board, a short clock): the
real server plays the double round robin to its end and the page is timed in Chromium;
the JSON it prints counts every game and has every figure. Each benchmark runs in a
process group of its own (:func:`reaper.run_in_group`), so its server and its clients end
with it, also when it is stopped at its bound. Each is handed the suite's Java kit build
(``--java``, the session's ``java_build``): compiling it again in the benchmark was a
large part of its time on a loaded machine."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from browser_helpers import CHROMIUM, MISSING
from league_helpers import REPO, env
from reaper import run_in_group

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_the_event_benchmark_runs_tiny(tmp_path: Path, java_build: Path) -> None:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(MISSING + ": CI must provision it (tools/provision-chromium)")
        pytest.skip(MISSING)
    out = tmp_path / "event.json"
    command = [sys.executable, str(REPO / "benchmarks" / "bench_event.py"), "--members", "3",
               "--rounds", "3", "--size", "4", "--time", "1+0.05", "--draws", "1",
               "--java", str(java_build), "--out", str(out)]  # fmt: skip
    done = run_in_group(command, env=env(), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert json.loads(done.stdout) == result
    assert result["members"] == ["java-alphabeta", "node-ws", "house-greedy"]
    # 3 members: 3 pairings a cycle, two cycles, two games each; 3 rounds a cycle (byes)
    assert result["pairs"] == 6 and result["games"] == result["expected_games"] == 12
    assert result["event_rounds"] == 6
    assert sum(result["terminations"].values()) == 12
    assert result["wall_s"] > 0
    for figure in ("first_draw_ms", "first_answer_ms", "first_render_ms", "api_ms"):
        assert result[figure]["samples"] == 1 and result[figure]["median"] > 0, figure
    assert result["rerender_all_in_ms"]["samples"] >= 1
    assert "games" in done.stderr  # the progress bar


def test_the_kit_clock_benchmark_runs_tiny(tmp_path: Path, java_build: Path) -> None:
    """``benchmarks/bench_kit_clock.py`` on a 4x4 board, 2 rounds: the kits' alpha-beta
    bots (four members) play their 24 games through the real server and ``adjacency
    connect``, and the JSON counts them and lists every time loss (none with time left:
    exit status 0)."""
    out = tmp_path / "clock.json"
    command = [sys.executable, str(REPO / "benchmarks" / "bench_kit_clock.py"), "--rounds",
               "2", "--size", "4", "--time", "5+0.1", "--java", str(java_build),
               "--out", str(out)]  # fmt: skip
    done = run_in_group(command, env=env(), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert result["games"] == 24 and result["setting"] == "4x4, 2 rounds, clock 5+0.1"
    assert result["time_losses_with_time_left"] == []
    assert all(loss["used_s"] >= loss["allowed_s"] - 0.5 for loss in result["time_losses"])
