"""The class benchmark (benchmarks/bench_class.py) runs end to end with tiny settings, so
it cannot rot: a real server with its rate limits on for this machine, bots speaking
the WebSocket protocol from three addresses (named by X-Forwarded-For through the
server's --forwarded-allow-ips), a Swiss and a round robin created and started
through the CLI, viewers on the events' pages; its JSON line has every figure, every
event game ended on the board, and the games the bots saw end are the games stored
finished."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from league_helpers import REPO, env
from reaper import run_in_group

pytestmark = pytest.mark.slow

SCRIPT = REPO / "benchmarks" / "bench_class.py"


def test_the_class_benchmark_runs_tiny_with_every_game_on_the_board(tmp_path: Path) -> None:
    tiny = ["--bots", "6", "--swiss-rounds", "2", "--rr-members", "4", "--size", "6",
            "--rounds", "4", "--time", "4+0.1", "--min-game", "0", "--viewers", "4",
            "--poll", "0.5", "--reload", "3", "--timeout", "50", "--addresses", "3",
            "--json"]  # fmt: skip
    run = run_in_group([sys.executable, str(SCRIPT), *tiny], env=env(), cwd=tmp_path, timeout=90)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1, run.stdout  # the JSON line alone; the table goes to stderr
    result = json.loads(lines[0])
    assert "games per minute" in run.stderr and "class-swiss" in run.stderr
    swiss, robin = result["events"]["class-swiss"], result["events"]["class-round-robin"]
    # a Swiss of 6 in 2 rounds: 3 boards a round; a round robin of 4: 3 rounds of 2
    # boards; each board a colour-swapped pair of games
    assert (swiss["members"], swiss["event_rounds"], swiss["expected_games"]) == (6, 2, 12)
    assert (robin["members"], robin["event_rounds"], robin["expected_games"]) == (4, 3, 12)
    for event in (swiss, robin):
        assert event["games_stored_finished"] == event["expected_games"]
        assert event["games_stored_other"] == 0
        assert event["terminations"] == {"normal": event["expected_games"]}
    assert result["event_games"] == result["expected_games"] == 24
    assert result["event_games_seen_ended_by_bots"] == result["event_games"]
    assert result["forfeits_not_on_board"] == 0
    assert result["bot_errors"] == 0 and result["bot_error_details"] == []
    assert result["ok"] is True
    assert result["wall_s"] > 0 and result["games_per_minute"] > 0
    for figure in ("page_ms", "events_api_ms", "move_relay_ms", "bot_think_ms"):
        assert result[figure]["samples"] > 0 and result[figure]["p95_ms"] is not None, figure
    assert set(result["viewer_statuses"]) == {"200"}
    assert result["settings"]["addresses"] == 3
    trips = result["move_round_trip_server_ms"]
    assert trips["samples"] > 0 and trips["p95_ms"] >= trips["p50_ms"] > 0
    rss = result["server_rss_mb"]
    assert 0 < rss["start"] <= rss["peak"] and rss["end"] <= rss["peak"]
    assert result["server_cpu"]["cpu_seconds"] >= 0
    assert len(result["load_start"]) == len(result["load_end"]) == 3


def test_the_class_benchmark_refuses_a_round_robin_larger_than_the_class() -> None:
    run = run_in_group(
        [sys.executable, str(SCRIPT), "--bots", "4", "--rr-members", "5"], env=env(), timeout=60
    )
    assert run.returncode == 2
    assert "--rr-members: 2 to --bots (4)" in run.stderr
    assert "Traceback" not in run.stderr
