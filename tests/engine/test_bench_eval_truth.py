"""``benchmarks/bench_eval_truth.py``, evaluations measured against exact values: its
statistics against a direct computation, its scorer specs and bad input, and a run end
to end whose exact values are the brute-force oracle's and whose scores are the engine's."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.engine import Engine
from oracles import exact_value

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "bench_eval_truth.py"


def bench() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # the script imports position_sets beside it
    try:
        spec = importlib.util.spec_from_file_location("bench_eval_truth", SCRIPT)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module


BENCH = bench()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-64, 64, allow_nan=False), st.integers(-64, 64)),
        min_size=2,
        max_size=30,
    )
)
def test_the_error_statistics_are_the_direct_ones(pairs: list[tuple[float, int]]) -> None:
    values = [v for v, _ in pairs]
    truth = [t for _, t in pairs]
    e = BENCH.errors(values, truth)
    diffs = np.array(values) - np.array(truth)
    assert e.n == len(pairs)
    assert math.isclose(e.rms, float(np.sqrt(np.mean(diffs**2))), abs_tol=1e-9)
    assert math.isclose(e.bias, float(np.mean(diffs)), abs_tol=1e-9)
    assert math.isclose(e.spread, float(np.std(diffs)), abs_tol=1e-9)
    assert math.isclose(e.worst, float(np.max(np.abs(diffs))), abs_tol=1e-9)
    # The bias and the spread make up the RMS.
    assert math.isclose(e.rms**2, e.bias**2 + e.spread**2, rel_tol=1e-9, abs_tol=1e-9)
    if np.std(values) > 1e-3 and np.std(truth) > 1e-3:
        assert math.isclose(e.correlation, float(np.corrcoef(values, truth)[0, 1]), abs_tol=1e-6)
    elif len(set(values)) == 1 or len(set(truth)) == 1:
        assert math.isnan(e.correlation)  # a constant side has no correlation


def test_scorer_specs() -> None:
    assert BENCH.parse_scorer("v4:0") == BENCH.Scorer("v4", 0, None)
    assert BENCH.parse_scorer("v1:6:w.json") == BENCH.Scorer("v1", 6, "w.json")
    assert BENCH.parse_scorer("v4:0:C:/w.json").patterns == "C:/w.json"
    assert BENCH.parse_scorer("v4:2").name == "v4 depth 2"
    for bad in ("v4", "v4:x", "v4:-1", ""):
        with pytest.raises(ValueError, match="PROFILE:DEPTH"):
            BENCH.parse_scorer(bad)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=50,
        cwd=REPO,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scorers", "v9:0"], "profile must be one of"),
        (["--scorers", "v4:0:/no/such/weights.json"], "cannot read pattern weights"),
        (["--scorers", "v4"], "a scorer is PROFILE:DEPTH"),
        (["--plies", "4,x"], "--plies: whole numbers"),
        (["--plies", "1"], "within 2..2*rounds"),
        (["--threads", "0"], "threads must be"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], message: str, tmp_path: Path) -> None:
    out = tmp_path / "truth.jsonl"
    done = run(*args, "--positions", "1", "--out", str(out))
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


def test_a_run_end_to_end_against_the_brute_force_oracle(tmp_path: Path) -> None:
    out = tmp_path / "truth.jsonl"
    done = run(
        "--plies", "4,5", "--positions", "2", "--set", "random", "--seed", "7",
        "--scorers", "v1:0,v4:2", "--threads", "1", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "position set: random, seed 7" in done.stdout
    assert "v1 static" in done.stdout and "v4 depth 2" in done.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["plies"] for r in records] == [4, 4, 5, 5]
    v1, v4 = Engine(tt_mb=4, profile="v1"), Engine(tt_mb=4, profile="v4")
    for record in records:
        position = Position.from_fen(record["fen"])
        assert position.plies_left == record["plies"]
        assert record["exact"] == exact_value(position)
        assert record["v1 static"] == v1.evaluate(position)
        assert record["v4 depth 2"] == v4.search(position, depth=2).value
    # The table's RMS for the static scorer over all positions is the records'.
    rms = math.sqrt(sum((r["v1 static"] - r["exact"]) ** 2 for r in records) / len(records))
    assert f"{rms:.2f}" in done.stdout
