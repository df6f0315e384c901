"""``benchmarks/bench_accelerator.py``, the accelerator route's prepared run, on a CPU at
its tiny size: both games stepped in the shared harness, the AlphaZero iteration timed,
and every figure written with its provenance and the device that made it."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "bench_accelerator.py"


def test_the_tiny_run_writes_every_figure_with_its_provenance(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_accelerator", SCRIPT)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    out = tmp_path / "accelerator.json"
    assert bench.main(["--tiny", "--iterations", "1", "--out", str(out)]) == 0
    result = json.loads(out.read_text())

    record = result["provenance"]
    assert re.fullmatch("[0-9a-f]{40}", record["commit"]) and record["source"]
    assert record["python"] and record["libraries"]["numba"] and record["machine"]["cores"]
    assert record["created"].startswith("20")
    assert record["settings"]["benchmark"] == "bench_accelerator.py"
    assert record["settings"]["arguments"] == ["--tiny", "--iterations", "1", "--out", str(out)]
    assert record["settings"]["boards"] == [8] and record["settings"]["tiny"] is True
    assert result["jax_stack"]["jax"] and result["jax_stack"]["pgx"] and result["jax_stack"]["mctx"]
    assert result["device"]["platform"] == "cpu" and result["device"]["count"] >= 1

    (row,) = result["environment"]["boards"].values()
    for game in ("adjacency.jax", "pgx othello"):
        assert row[game]["plies"] > 0 and row[game]["plies_per_wall_second"] > 0
    assert row["ratio (adjacency.jax / pgx othello, different games, same harness)"] > 0
    assert result["environment"]["not_measured"] is None

    az = result["alphazero"]
    assert az["config"]["rows"] == 4 and az["config"]["quick_compile"] is True
    assert az["iterations"] == 1 and az["iterations_per_second"] > 0
    assert az["self_play_positions_per_second"] > 0 and az["first_call_seconds"] > 0
