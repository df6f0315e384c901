"""The AlphaZero example's JAX route (examples/alphazero/alphazero_jax.py: mctx self-play,
one jitted iteration) on a tiny budget: it plays whole games, learns from their results,
resumes to the bit, refuses to resume with other settings, records its provenance and
seeds segment by segment, and evaluates by the SPRT."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "alphazero" / "alphazero_jax.py"
TINY = [
    *("--rows", "4", "--cols", "5", "--rounds", "3", "--games", "8"),
    *("--simulations", "8", "--steps", "5", "--minibatch", "16", "--hidden", "16"),
    *("--explore-plies", "2", "--quick-compile"),
]
"""4x5 boards, 6-ply games, eight at once, the first two plies drawn from the search's
policy: one compile, then iterations in milliseconds."""

pytestmark = pytest.mark.xdist_group("alphazero-jax")
"""The module's tests on one xdist worker: the compile (most of their time) is kept by the
process, so two workers would each pay it."""


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
    # the first two plies drawn from the improved policy: the eight games do not all agree
    assert all(1 < e["distinct_games"] <= 8 for e in entries)
    (record,) = meta["segments"]
    assert record["seeds"] == {"seed": 1} and record["iterations"] == [1, 2]
    assert record["settings"]["rows"] == 4 and record["settings"]["env_version"] == "v0"
    assert record["settings"]["quick_compile"] is True and config.quick_compile
    assert set(record["jax_libraries"]) == {"jax", "jaxlib", "mctx", "optax"}
    assert record["jax_libraries"]["mctx"] is not None
    assert record["source"] and config.rows == 4
    assert record["command"] == [
        "alphazero_jax.py",
        "--checkpoint",
        str(whole),
        "--iterations",
        "2",
        *TINY,
    ]
    # the broken run: one record per segment, each with its own command and iterations
    first, second = resumed_meta["segments"]
    assert (first["iterations"], second["iterations"]) == ([1, 1], [2, 2])
    assert "--resume" not in first["command"] and "--resume" in second["command"]
    for segment in (first, second):
        assert segment["created"] and segment["machine"]["cpu"] and segment["python"]
        assert segment["device"] and "commit" in segment
        assert segment["x64"] is False and isinstance(segment["xla_flags"], str)


def test_a_resume_with_another_setting_is_refused_naming_it(
    az: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "run.npz"
    az.run(["--checkpoint", str(checkpoint), "--iterations", "1", *TINY])
    saved = checkpoint.read_bytes()
    capsys.readouterr()
    for changed, named in (
        (["--no-quick-compile"], "--no-quick-compile (the checkpoint's run: --quick-compile)"),
        (
            ["--simulations", "9", "--seed", "2"],
            "--simulations 9 (the checkpoint's run: --simulations 8); "
            "--seed 2 (the checkpoint's run: --seed 1)",
        ),
    ):
        with pytest.raises(SystemExit) as exited:
            az.run(["--checkpoint", str(checkpoint), "--resume", "--iterations", "2", *changed])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert "cannot resume with other settings than the checkpoint's run: " + named in err
        assert "Traceback" not in err
        assert checkpoint.read_bytes() == saved  # nothing trained, nothing written
    # the settings the run has, given again, are no difference
    az.run(
        [
            "--checkpoint",
            str(checkpoint),
            "--resume",
            "--iterations",
            "2",
            "--rows",
            "4",
            "--quick-compile",
        ]
    )
    assert az.load(checkpoint)[4]["iteration"] == 2


def test_a_checkpoint_that_does_not_record_a_setting_is_not_resumed(
    az: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "run.npz"
    az.run(["--checkpoint", str(checkpoint), "--iterations", "1", *TINY])
    with np.load(checkpoint) as data:
        arrays = {name: data[name] for name in data}
    meta = json.loads(str(arrays["meta"]))
    del meta["config"]["quick_compile"]  # as written before the setting was recorded
    arrays["meta"] = np.array(json.dumps(meta))
    with open(checkpoint, "wb") as out:
        np.savez(out, **arrays)
    capsys.readouterr()
    with pytest.raises(SystemExit):
        az.run(["--checkpoint", str(checkpoint), "--resume", "--iterations", "2"])
    err = capsys.readouterr().err
    assert "the checkpoint does not record --quick-compile" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        az.run(["--checkpoint", str(tmp_path / "none.npz"), "--resume"])
    assert "--resume: no checkpoint at" in capsys.readouterr().err


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
    assert az.load(two)[4]["segments"][0]["seeds"] == {"seed": 6}
    evaluation = last["evaluation"]
    assert evaluation["eval_seed"] == 9 and evaluation["opponent"] == "random"
    pairs = sum(evaluation["pentanomial"])
    assert 1 <= pairs <= 2
    assert evaluation["wins"] + evaluation["draws"] + evaluation["losses"] == 2 * pairs
