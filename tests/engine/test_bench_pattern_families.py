"""``benchmarks/bench_pattern_families.py``, the measurement that chooses pattern families:
its ``lines`` family is v4's patterns (the kernel's columns, differentially), every
family scores a position and its mirror images alike, its "v4 shipped" column is the
kernel's evaluation, and the script runs end to end on a tiny data job."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.kernels.bits import write_geometry
from adjacency.engine.kernels.evaluate import pattern
from adjacency.engine.kernels.patterns import CANON, N_CANON, configurations
from adjacency.engine.symmetry import automorphisms
from adjacency.training.dataset import JobSettings, generate, start_job
from adjacency.workers import SerialExecutor

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "bench_pattern_families.py"
BOARD = Position.start(8, 8, 28).board


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_pattern_families", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = bench()
FAMILIES = {name: BENCH.Family(name) for name in BENCH.BASES}


def test_family_sizes_follow_from_their_symmetries() -> None:
    sizes = {name: (len(f.instances), f.width) for name, f in FAMILIES.items()}
    # lines: 4 classes of 4 lines, a line and its reverse tied: (3^8 + 3^4) / 2 = 3321
    # corner3: 4 corners, tied by the diagonal reflection: (3^9 + 3^6) / 2 = 10206
    assert sizes == {
        "lines": (16, 4 * 3321),
        "corner3": (4, 10206),
        "edge2x5": (8, 3**10),
        "block2x4": (4, 3321),
    }
    assert FAMILIES["lines"].width == N_CANON


boards = st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)).map(
    lambda pair: (pair[0] & ~pair[1], pair[1])
)


@settings(max_examples=60, deadline=None)
@given(boards)
def test_the_lines_family_is_v4s_columns_and_every_family_is_symmetric(
    pair: tuple[int, int],
) -> None:
    me, opp = pair
    mover, opponent = np.array([me], dtype=np.uint64), np.array([opp], dtype=np.uint64)
    lines = FAMILIES["lines"].columns(mover, opponent)[0]
    assert Counter(lines.tolist()) == Counter(CANON[configurations(me, opp)].tolist())
    for family in FAMILIES.values():
        seen = Counter(family.columns(mover, opponent)[0].tolist())
        for t in automorphisms(BOARD):
            image = family.columns(
                np.array([t.bitboard(me)], dtype=np.uint64),
                np.array([t.bitboard(opp)], dtype=np.uint64),
            )[0]
            assert Counter(image.tolist()) == seen


def tiny_job(directory: Path) -> None:
    settings = JobSettings(
        seed=9, shards=12, shard_games=1, rounds=(28,), depth=2, exact_plies=4, sample=1.0
    )
    job = start_job(directory, settings, resume=False)
    assert len(list(generate(job, SerialExecutor()))) == 12


def test_the_shipped_column_is_the_kernels_evaluation_and_the_script_runs(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "job"
    tiny_job(directory)
    train, held = BENCH.load(directory, 3)
    assert len(train["labels"]) > len(held["labels"]) > 0
    engine = Engine(tt_mb=1, profile="v4", threads=1)
    write_geometry(BOARD, engine.U)
    values = BENCH.shipped(held)
    for i in range(len(values)):
        kernel = pattern(
            np.uint64(held["mover"][i]),
            np.uint64(held["opponent"][i]),
            int(held["plies"][i]),
            engine.U,
            engine.S,
        )
        assert abs(kernel / 16 - values[i]) < 1 / 16  # the kernel rounds to 1/16 piece
    out = tmp_path / "rows.json"
    command = [sys.executable, str(SCRIPT), "--data", str(directory), "--holdout", "3",
               "--sets", "lines,lines+corner3", "--window", "60", "--json", str(out)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = json.loads(out.read_text())
    assert rows[-1]["plies"] == "all" and rows[-1]["n"] == len(held["labels"])
    assert sum(row["n"] for row in rows[:-1]) == rows[-1]["n"]
    for name in ("v4 shipped", "lines", "lines+corner3"):
        assert all(row[name] >= 0 for row in rows)
