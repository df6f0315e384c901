"""Training targets from the end of the game (``train-eval --data DIR --target``,
:func:`adjacency.training.dataset.target_labels`): on small generated shards the outcome
and TD(lambda) labels equal a brute-force recomputation from the positions themselves
(every later position of the game walked in play order, the side to move read from each
position), whatever the order of the rows; the command fits toward them, the fit equals
the in-memory fit of the brute-force labels, and bad combinations are one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.cli import main
from adjacency.engine.kernels.patterns import expand
from adjacency.engine.weights_file import load_patterns
from adjacency.training.dataset import (
    JobSettings,
    ShardTask,
    make_shard,
    open_job,
    positions,
    split,
    target_labels,
)
from adjacency.training.fit import Sample, fit_patterns

SETTINGS = JobSettings(
    seed=11, shards=2, shard_games=4, rounds=(10,), depth=3, exact_plies=4, sample=0.6
)
"""Two shards of four 10-round games, 60% of the positions kept, exact with 4 plies left."""


@pytest.fixture(scope="module")
def shards() -> list[dict[str, np.ndarray]]:
    """The job's two shards, and a copy of the first in which one game has lost its exact
    labels (as if its last positions had all been dropped)."""
    made = [make_shard(ShardTask(SETTINGS, i)) for i in range(SETTINGS.shards)]
    lost = {name: array.copy() for name, array in made[0].items()}
    lost["exact"][lost["game"] == 1] = False
    return [*made, lost]


def brute_force(arrays: dict[str, np.ndarray], weight: float) -> list[float]:
    """Each row's TD(``weight``) label by its definition: the row's game's later rows
    (fewer plies left) in play order up to the first exact one, the sum
    ``(1 - w) s_i + (1 - w) w s_1 + ... + w^k v_exact``, each term's sign that of the
    row's side to move (read from the positions); a row with no exact row ahead, or
    exact itself, keeps its label."""
    found = positions(arrays)
    labels, exact, game = arrays["label"], arrays["exact"], arrays["game"]
    result = []
    for i, position in enumerate(found):
        later = sorted(
            (
                j
                for j in range(len(found))
                if game[j] == game[i] and found[j].plies_left < position.plies_left
            ),
            key=lambda j: -found[j].plies_left,
        )
        ahead = next((n for n, j in enumerate(later) if exact[j]), None)
        if exact[i] or ahead is None:
            result.append(float(labels[i]))
            continue
        total, factor = (1 - weight) * float(labels[i]), weight
        for j in later[: ahead + 1]:
            sign = 1.0 if found[j].turn == position.turn else -1.0
            if exact[j]:
                total += factor * sign * float(labels[j])
            else:
                total += factor * (1 - weight) * sign * float(labels[j])
                factor *= weight
        result.append(total)
    return result


def test_outcome_labels_are_the_first_exact_value_ahead_for_the_side_to_move(
    shards: list[dict[str, np.ndarray]],
) -> None:
    for arrays in shards:
        outcome = target_labels(arrays, "outcome")
        assert outcome.tolist() == pytest.approx(brute_force(arrays, 1.0), abs=1e-9)
        assert target_labels(arrays, "search").tolist() == arrays["label"].tolist()
        # exact values are whole pieces: an outcome label is one, up to its sign
        anchored = np.isin(arrays["game"], arrays["game"][arrays["exact"]])
        assert (outcome[anchored] == np.round(outcome[anchored])).all()
    # both sides to move occur among the relabelled rows, so the sign is exercised
    movers = {
        bool(m) for m, e in zip(shards[0]["x_to_move"], shards[0]["exact"], strict=True) if not e
    }
    assert movers == {True, False}
    # the game without exact labels keeps its search labels
    lost = shards[2]
    alone = lost["game"] == 1
    assert target_labels(lost, "outcome")[alone].tolist() == lost["label"][alone].tolist()


@settings(max_examples=25, deadline=None)
@given(weight=st.floats(0.0, 1.0), seed=st.integers(0, 2**32 - 1), which=st.integers(0, 2))
def test_blend_labels_are_the_td_lambda_return_in_any_row_order(
    shards: list[dict[str, np.ndarray]], weight: float, seed: int, which: int
) -> None:
    arrays = shards[which]
    order = np.random.default_rng(seed).permutation(len(arrays["label"]))
    shuffled = {name: array[order] for name, array in arrays.items()}
    expected = brute_force(shuffled, weight)
    assert target_labels(shuffled, "blend", weight).tolist() == pytest.approx(expected, abs=1e-9)
    assert (
        target_labels(shuffled, "blend", 1.0).tolist()
        == target_labels(shuffled, "outcome").tolist()
    )
    assert target_labels(shuffled, "blend", 0.0).tolist() == pytest.approx(
        shuffled["label"].tolist()
    )


ARGV = [
    "train-eval", "--kind", "patterns", "--games", "24", "--chunk-games", "2",
    "--rounds", "10", "--depth", "3", "--exact-plies", "4", "--sample", "1", "--seed", "3",
]  # fmt: skip
"""A tiny job made by the command: 12 shards of two 10-round games, every position kept."""


def test_the_command_fits_toward_the_target_and_refuses_bad_combinations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "job"
    assert main([*ARGV, "--data", str(directory), "--no-fit", "--jobs", "1"]) == 0
    capsys.readouterr()
    out = tmp_path / "outcome.json"
    fit = ["--holdout", "4", "--window", "10", "--ridge", "100", "--out", str(out)]
    for target, weight, extra in (("outcome", 1.0, []), ("blend", 0.4, ["--lambda", "0.4"])):
        argv = [*ARGV, "--data", str(directory), "--fit-only", "--target", target, *extra, *fit]
        assert main(argv) == 0
        summary = json.loads(capsys.readouterr().out.splitlines()[0])
        job = open_job(directory)
        train, held = split(job, 4)
        samples = []
        for i in train:
            arrays = job.read(i)
            for position, label in zip(positions(arrays), brute_force(arrays, weight), strict=True):
                samples.append(Sample(position.fen(), position.plies_left, label, False))
        expected, _ = fit_patterns(samples, 10, 100.0)
        assert np.array_equal(load_patterns(out)[0], expand(expected))
        command = json.loads(out.read_text())["training"]["command"]
        assert command.endswith(f"--target {target}" + (" --lambda 0.4" if extra else ""))
        assert summary["held_out_rms_pieces"]["all"]["n"] == sum(
            job.done[i]["positions"] for i in held
        )

    def fails(*argv: str) -> str:
        assert main([*ARGV, *argv]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        return err

    assert "--target" in fails("--target", "outcome", "--kind", "patterns")
    assert "--lambda" in fails("--data", str(directory), "--fit-only", "--lambda", "0.5", *fit)
    bad = ("--data", str(directory), "--fit-only", "--target", "blend", "--lambda", "1.5")
    assert "0-1" in fails(*bad, *fit)
