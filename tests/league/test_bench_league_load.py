"""The league load benchmark (benchmarks/bench_league_load.py) runs end to end with tiny
sizes, so it cannot rot: a league written through the store's schema, a real server,
every public GET answered, bots played, pings answered, people's play pages answered,
the games counted from the database (every one stored finished), abusive sockets
counted."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from league_helpers import env
from net_helpers import reserved_port
from reaper import run_in_group

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_league_load.py"


def test_the_load_benchmark_runs_with_tiny_sizes(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    tiny = ["--games", "400", "--members", "120", "--bots", "4", "--house", "1",
            "--people-played", "20", "--requests", "2", "--playing", "2", "--viewers", "2",
            "--people", "2", "--seconds", "2", "--abusive", "9", "--hold", "1"]  # fmt: skip
    with reserved_port() as port:  # held for the benchmark's server, which binds it
        run = run_in_group(
            [sys.executable, str(SCRIPT), *tiny, "--port", str(port), "--out", str(out)],
            env=env(),
            timeout=120,
        )
    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(out.read_text())
    refused = {
        name: row["status"] for name, row in figures["gets"].items() if row["status"] != [200]
    }
    assert refused == {}
    assert figures["play"]["pings"] > 0 and figures["play"]["ping"]["p95_ms"] is not None
    play = figures["play"]
    assert play["me_polls"] > 0 and play["me_statuses"] == {"200": play["me_polls"]}
    assert play["games_stored_aborted"] == 0 and play["health_status"] == 200
    assert figures["abuse"]["connections"] == 9
    assert "/standings" in run.stdout and "abusive connections" in run.stdout
