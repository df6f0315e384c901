"""The AlphaZero example's JAX route (examples/alphazero/alphazero_jax.py: mctx self-play,
one jitted iteration) on a tiny budget: it plays whole games, learns from their results,
resumes to the bit, records its provenance and seeds, and evaluates by the SPRT."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "alphazero" / "alphazero_jax.py"
TINY = [
    *("--rows", "4", "--cols", "5", "--rounds", "3", "--games", "8"),
    *("--simulations", "8", "--steps", "5", "--minibatch", "16", "--hidden", "16"),
    "--quick-compile",
]
"""4x5 boards, 6-ply games, eight at once: one compile, then iterations in milliseconds."""


@pytest.fixture(scope="module")
def az() -> ModuleType:
    spec = importlib.util.spec_from_file_location("alphazero_jax_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_resumed_run_is_the_unbroken_run_and_records_its_provenance(
    az: ModuleType, tmp_path: Path
) -> None:
    whole, split = tmp_path / "whole.npz", tmp_path / "split.npz"
    az.run(["--checkpoint", str(whole), "--iterations", "2", *TINY])
    az.run(["--checkpoint", str(split), "--iterations", "1", *TINY])
    last = az.run(["--checkpoint", str(split), "--resume", "--iterations", "2", "--quick-compile"])
    assert last["iteration"] == 2
    config, params, _, key, meta = az.load(whole)
    _, resumed, _, resumed_key, resumed_meta = az.load(split)
    for name, value in params.items():
        np.testing.assert_array_equal(value, resumed[name])
    np.testing.assert_array_equal(
        np.asarray(az.jax.random.key_data(key)), np.asarray(az.jax.random.key_data(resumed_key))
    )
    entries = [{k: v for k, v in e.items() if k != "seconds"} for e in meta["log"]]
    assert entries == [{k: v for k, v in e.items() if k != "seconds"} for e in resumed_meta["log"]]
    # whole games: every ply of every game kept, each with its player's result
    assert entries[0]["positions"] == 8 * 6
    assert 0.0 <= entries[0]["first_mover_score"] <= 1.0
    record = meta["provenance"]
    assert record["seeds"] == {"seed": 1}
    assert record["settings"]["rows"] == 4 and record["settings"]["env_version"] == "v0"
    assert set(record["jax_libraries"]) == {"jax", "jaxlib", "mctx", "optax"}
    assert record["jax_libraries"]["mctx"] is not None
    assert record["source"] and config.rows == 4


def test_the_seed_changes_the_run_and_the_evaluation_counts_its_pairs(
    az: ModuleType, tmp_path: Path
) -> None:
    one, two = tmp_path / "one.npz", tmp_path / "two.npz"
    az.run(["--checkpoint", str(one), "--iterations", "1", "--seed", "5", *TINY])
    last = az.run(
        [
            *("--checkpoint", str(two), "--iterations", "1", "--seed", "6", *TINY),
            *("--evaluate", "2", "--opponent", "random", "--eval-seed", "9"),
        ]
    )
    first, second = az.load(one)[1], az.load(two)[1]
    assert not np.array_equal(first["w1"], second["w1"])
    assert az.load(two)[4]["provenance"]["seeds"] == {"seed": 6}
    evaluation = last["evaluation"]
    assert evaluation["eval_seed"] == 9 and evaluation["opponent"] == "random"
    pairs = sum(evaluation["pentanomial"])
    assert 1 <= pairs <= 2
    assert evaluation["wins"] + evaluation["draws"] + evaluation["losses"] == 2 * pairs
