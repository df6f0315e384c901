"""The AlphaZero example (examples/alphazero/alphazero.py) on a tiny budget: one iteration
in seconds, a resumed run identical to an unbroken one, correct gradients, symmetric
data and an SPRT evaluation that counts its pairs."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "alphazero" / "alphazero.py"
TINY = [
    "--rows",
    "4",
    "--cols",
    "5",
    "--rounds",
    "3",
    "--games",
    "3",
    "--simulations",
    "12",
    "--steps",
    "10",
    "--minibatch",
    "32",
    "--hidden",
    "16",
]
"""A run small enough for seconds: 4x5 boards, 6-ply games."""


@pytest.fixture(scope="module")
def az() -> ModuleType:
    spec = importlib.util.spec_from_file_location("alphazero_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_one_iteration_plays_trains_and_checkpoints(az: ModuleType, tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    last = az.run(["--checkpoint", str(checkpoint), "--iterations", "1", *TINY])
    assert last["iteration"] == 1 and last["cpu_seconds"] > 0
    net, buffer, _, state = az.load(checkpoint)
    entry = state["log"][0]
    assert entry["positions"] == 3 * 6  # three games of six plies
    assert len(buffer.zs) == entry["buffer"] == 3 * 6 * 4  # 4 symmetries of a 4x5 board
    assert set(buffer.zs) <= {-1.0, 0.0, 1.0}
    pis = np.array(buffer.pis)
    np.testing.assert_allclose(pis.sum(axis=1), 1.0)
    assert (pis[~np.array(buffer.masks)] == 0).all()  # visits only on legal squares
    assert np.isfinite([entry["policy_loss"], entry["value_loss"]]).all()
    assert net.updates == 10


def test_a_resumed_run_equals_an_unbroken_one(az: ModuleType, tmp_path: Path) -> None:
    straight, broken = tmp_path / "straight.npz", tmp_path / "broken.npz"
    az.run(["--checkpoint", str(straight), "--iterations", "2", *TINY])
    az.run(["--checkpoint", str(broken), "--iterations", "1", *TINY])
    az.run(["--checkpoint", str(broken), "--resume", "--iterations", "2"])
    a, buffer_a, rng_a, state_a = az.load(straight)
    b, buffer_b, rng_b, state_b = az.load(broken)
    for name in a.params:
        np.testing.assert_array_equal(a.params[name], b.params[name])
        np.testing.assert_array_equal(a.moments[f"{name}_m"], b.moments[f"{name}_m"])
    assert buffer_a.zs == buffer_b.zs
    assert rng_a.integers(1 << 60) == rng_b.integers(1 << 60)
    drop = ("cpu_seconds",)
    assert [{k: v for k, v in e.items() if k not in drop} for e in state_a["log"]] == [
        {k: v for k, v in e.items() if k not in drop} for e in state_b["log"]
    ]


def test_the_gradients_match_finite_differences(az: ModuleType) -> None:
    rng = np.random.default_rng(0)
    net = az.Network(az.Config(rows=4, cols=5, hidden=12), rng)
    for name in net.params:
        net.params[name] = net.params[name] + rng.normal(0, 0.3, net.params[name].shape)
    x = rng.random((5, 80))
    mask = rng.random((5, 20)) < 0.6
    mask[:, 0] = True
    pi = rng.random((5, 20)) * mask
    pi /= pi.sum(axis=1, keepdims=True)
    z = np.array([1.0, -1.0, 0.0, 1.0, -1.0])
    _, _, grads = net.gradients(x, mask, pi, z)
    for name, weights in net.params.items():
        index = tuple(int(rng.integers(0, s)) for s in weights.shape)
        old = weights[index]
        weights[index] = old + 1e-6
        up = sum(net.gradients(x, mask, pi, z)[:2])
        weights[index] = old - 1e-6
        down = sum(net.gradients(x, mask, pi, z)[:2])
        weights[index] = old
        assert grads[name][index] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-8)


def test_symmetries_move_the_search_result_with_the_board(az: ModuleType) -> None:
    rng = np.random.default_rng(1)
    planes = rng.random((6, 6, 4)).astype(np.float32)
    mask = rng.random(36) < 0.5
    pi = rng.random(36) * mask
    images = az.symmetries(planes, mask, pi)
    assert len(images) == 8
    assert len({image[0].tobytes() for image in images}) == 8
    for image_planes, image_mask, image_pi in images:
        # the same permutation of the squares moves the planes, the mask and the visits
        order = np.argsort(image_planes[:, :, 0].reshape(-1))
        original = np.argsort(planes[:, :, 0].reshape(-1))
        assert (image_mask[order] == mask[original]).all()
        assert (image_pi[order] == pi[original]).all()
    assert len(az.symmetries(rng.random((4, 5, 4)), rng.random(20) < 0.5, rng.random(20))) == 4


def test_the_evaluation_plays_pairs_and_reports_the_sprt(
    az: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "run.npz"
    az.run(["--checkpoint", str(checkpoint), "--iterations", "1", *TINY])
    capsys.readouterr()
    last = az.run(
        [
            "--checkpoint",
            str(checkpoint),
            "--resume",
            "--iterations",
            "1",
            "--evaluate",
            "2",
            "--opponent",
            "random",
        ]
    )
    result = last["evaluation"]
    pairs = sum(result["pentanomial"])
    assert 1 <= pairs <= 2 and result["wins"] + result["draws"] + result["losses"] == 2 * pairs
    assert result["opponent"] == "random" and result["sprt"].startswith("elo0=0 elo1=50")
    assert result["verdict"] in ("H0", "H1", "undecided")
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == last


def test_checkpoints_carry_provenance_and_the_evaluation_seed_is_an_option(
    az: ModuleType, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "run.npz"
    az.run(["--checkpoint", str(checkpoint), "--iterations", "1", "--seed", "4", *TINY])
    (record,) = az.load(checkpoint)[3]["segments"]
    assert record["seeds"] == {"seed": 4} and record["settings"]["rows"] == 4
    assert record["source"] and record["libraries"]["numpy"]
    assert record["iterations"] == [1, 1] and record["command"][:2] == [
        "alphazero.py",
        "--checkpoint",
    ]
    games = []
    for seed in (3, 3, 11):
        last = az.run(
            [
                *("--checkpoint", str(checkpoint), "--resume", "--iterations", "1"),
                *("--evaluate", "1", "--opponent", "random", "--eval-seed", str(seed)),
            ]
        )
        assert last["evaluation"]["eval_seed"] == seed
        games.append(last["evaluation"])
    # the same seed plays the same pair of games
    assert games[0] == {**games[1], "cpu_seconds": games[0]["cpu_seconds"]}


def test_a_resume_refuses_other_settings_and_appends_a_segment(
    az: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "run.npz"
    az.run(["--checkpoint", str(checkpoint), "--iterations", "1", *TINY])
    saved = checkpoint.read_bytes()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        az.run(["--checkpoint", str(checkpoint), "--resume", "--iterations", "2", "--games", "4"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "Traceback" not in err
    assert "--games 4 (the checkpoint's run: --games 3)" in err
    assert checkpoint.read_bytes() == saved
    az.run(["--checkpoint", str(checkpoint), "--resume", "--iterations", "3", "--games", "3"])
    first, second = az.load(checkpoint)[3]["segments"]
    assert (first["iterations"], second["iterations"]) == ([1, 1], [2, 3])
    assert "--resume" in second["command"] and "--resume" not in first["command"]
    assert first["created"] <= second["created"] and second["machine"] and second["python"]
