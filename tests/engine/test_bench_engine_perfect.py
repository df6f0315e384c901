"""``benchmarks/bench_engine_perfect.py``, distance from perfect play: a run end to end
whose values are the brute-force oracle's, its ``--plies`` choice of positions, and bad
input refused with one line and nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjacency.core import Position
from cli_helpers import run_script
from oracles import exact_value, move_values

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "bench_engine_perfect.py"
BOTS = "random;greedy"


@pytest.mark.parametrize(
    ("plies", "message"),
    [
        ("4,x", "not a list of whole numbers"),
        ("0", "plies left must be 1 to 40"),
        ("", "not a list"),
    ],
)
def test_bad_plies_are_one_clear_line(plies: str, message: str, tmp_path: Path) -> None:
    out = tmp_path / "perfect.jsonl"
    done = run_script(SCRIPT, "--plies", plies, "--positions", "1", "--out", str(out))
    assert done.returncode == 2
    assert "argument --plies" in done.stderr and message in done.stderr
    assert "Traceback" not in done.stderr
    assert not out.exists()


def test_a_run_end_to_end_against_the_brute_force_oracle(tmp_path: Path) -> None:
    out = tmp_path / "perfect.jsonl"
    common = ["--set", "random", "--seed", "7", "--bots", BOTS, "--time", "0.05"]
    common += ["--threads", "1", "--tt", "4", "--out", str(out)]
    done = run_script(SCRIPT, "--plies", "3,4", "--positions", "3", *common)
    assert done.returncode == 0, done.stderr
    assert "position set: random, seed 7" in done.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    # Position i has the (i mod 2)-th of the plies asked for.
    assert [r["plies"] for r in records] == [3, 4, 3]
    for record in records:
        position = Position.from_fen(record["fen"])
        assert position.plies_left == record["plies"]
        assert record["value"] == exact_value(position)
        values = move_values(position)
        for spec in BOTS.split(";"):
            played = record["bots"][spec]
            assert played["value"] == values[played["move"]]
            assert played["loss"] == max(values.values()) - played["value"]
    # A resumed run must ask for the same plies: its positions are those of the file.
    again = run_script(SCRIPT, "--plies", "5", "--positions", "4", "--resume", *common)
    assert again.returncode == 2 and "other --plies" in again.stderr
    assert len(out.read_text().splitlines()) == 3
    more = run_script(SCRIPT, "--plies", "3,4", "--positions", "4", "--resume", *common)
    assert more.returncode == 0, more.stderr
    assert [json.loads(line)["plies"] for line in out.read_text().splitlines()] == [3, 4, 3, 4]
