"""``benchmarks/bench_eval_truth.py``, evaluations measured against exact values: its
statistics against a direct computation, its scorer specs and bad input, and a run end
to end whose exact values are the brute-force oracle's and whose scores are the engine's."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.engine import Engine
from cli_helpers import run_script
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
    done = run_script(SCRIPT, *args, "--positions", "1", "--out", str(out))
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


def test_a_run_end_to_end_against_the_brute_force_oracle(tmp_path: Path) -> None:
    out = tmp_path / "truth.jsonl"
    done = run_script(SCRIPT,
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


def test_stored_records_are_scored_again_without_solving(tmp_path: Path) -> None:
    """``--cases`` takes the positions and exact values of earlier records (here the
    brute-force oracle's), keeps those with ``--plies`` plies left, at most
    ``--positions`` each in file order, and scores them as a fresh run would."""
    records = tmp_path / "truth.jsonl"
    positions = [
        Position.from_fen(fen)
        for fen in (
            "xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox/xoxoxoxo/oxox4/xoxoxoxo/oxoxoxox x 4",
            "xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox/xoxo4/oxoxoxox/xoxoxoxo/oxoxoxox o 3",
            "xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox/xoxo4/oxoxoxox x 4",
            "xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox/xoxoxo2/oxoxoxox o 2",
        )
    ]
    lines = [
        json.dumps({"plies": p.plies_left, "fen": p.fen(), "exact": exact_value(p)})
        for p in positions
    ]
    records.write_text("\n".join(lines) + "\n")
    out = tmp_path / "again.jsonl"
    done = run_script(SCRIPT,
        "--cases", str(records), "--plies", "2,4", "--positions", "1",
        "--scorers", "v4:0,v1:1", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"position set: the records of {str(records)!r}" in done.stdout
    again = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["plies"], r["fen"], r["exact"]) for r in again] == [
        (2, positions[3].fen(), exact_value(positions[3])),
        (4, positions[0].fen(), exact_value(positions[0])),
    ]
    v4, v1 = Engine(tt_mb=4, profile="v4"), Engine(tt_mb=4, profile="v1")
    for record in again:
        position = Position.from_fen(record["fen"])
        assert record["v4 static"] == v4.evaluate(position)
        assert record["v1 depth 1"] == v1.search(position, depth=1).value


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "--cases: cannot read"),
        ("not json\n", "line 1 is not a position with its exact value"),
        ('{"fen": "6oo/6oo/8/8/8/8/xx6/xx6 x 8"}\n', "line 1 is not a position"),
        ('{"fen": "nonsense", "exact": 2}\n', "line 1 is not a position"),
        ('{"fen": "6oo/6oo/8/8/8/8/xx6/xx6 x 8", "exact": 1.5}\n', "not a whole number"),
        ('{"fen": "6oo/6oo/8/8/8/8/xx6/xx6 x 8", "exact": 0}\n', "no position with 17 plies left"),
    ],
)
def test_bad_stored_records_are_one_clear_line(
    content: str | None, message: str, tmp_path: Path
) -> None:
    records = tmp_path / "truth.jsonl"
    if content is not None:
        records.write_text(content)
    out = tmp_path / "again.jsonl"
    done = run_script(SCRIPT, "--cases", str(records), "--plies", "17", "--out", str(out))
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    told = [line for line in done.stderr.splitlines() if not line.startswith("provenance ")]
    assert len(told) == 1, done.stderr  # the one line, after the run's provenance
    assert not out.exists()


def test_data_and_stored_records_are_not_both_given(tmp_path: Path) -> None:
    done = run_script(SCRIPT, "--cases", str(tmp_path / "a"), "--data", str(tmp_path))
    assert done.returncode == 2 and "--data and --cases" in done.stderr
