"""The learned evaluation: features against a naive count, the dot product, the weights file,
the fallback on other boards, and ``adjacency train-eval`` end to end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from adjacency.cli import main
from adjacency.core import Position
from adjacency.core.board import iter_squares
from adjacency.engine import Engine
from adjacency.engine.kernels import layout
from adjacency.engine.kernels.bits import write_geometry
from adjacency.engine.kernels.evaluate import LEARNED_SHIFT, evaluate
from adjacency.engine.kernels.features import N_FEATURES, NAMES, feature_vector
from adjacency.engine.kernels.layout import LEARNED, POSITIONAL
from adjacency.engine.weights_file import (
    DEFAULT_FILE,
    WeightsError,
    file_weights_sha256,
    load_weights,
)
from adjacency.training.fit import data_record, label_positions, self_play_positions
from engine_positions import random_position


def naive_features(position: Position) -> list[int]:
    """The features counted square by square from the core's neighbour table."""
    board, me, opp, empty = position.board, position.mover, position.opponent, position.empty

    def open_count(pieces: int) -> int:
        return sum(1 for sq in iter_squares(pieces) if board.neighbours[sq] & empty)

    def best(target: int) -> int:
        return max(
            ((board.neighbours[s] & target).bit_count() for s in iter_squares(empty)), default=0
        )

    mine_open, theirs_open = open_count(me), open_count(opp)
    return [
        mine_open,
        theirs_open,
        me.bit_count() - mine_open,
        opp.bit_count() - theirs_open,
        best(opp),
        best(me),
        1,
    ]


@pytest.mark.parametrize(("rows", "cols"), [(8, 8), (5, 7), (4, 4)])
def test_features_equal_a_naive_count(rows: int, cols: int) -> None:
    rng = random.Random(rows * cols)
    U = np.zeros(layout.TT, dtype=np.uint64)
    write_geometry(Position.start(rows, cols, 1).board, U)
    for _ in range(60):
        position = random_position(rng, rows, cols, rows * cols)
        got = feature_vector(position.mover, position.opponent, U)
        assert got.tolist() == naive_features(position), position.fen()
    assert len(NAMES) == N_FEATURES <= layout.PW_STRIDE


def test_learned_evaluation_is_the_dot_product_and_falls_back_off_8x8() -> None:
    engine = Engine(tt_mb=1, profile="v2")
    assert engine.learned
    table, version = load_weights()
    assert version >= 1 and table[2:, :N_FEATURES].any()
    rng = random.Random(4)
    for _ in range(30):
        position = random_position(rng, 8, 8, 50)
        engine.search(position, depth=1)  # writes the geometry and picks the mode
        assert engine.S[layout.W + layout.W_MODE] == LEARNED
        value = evaluate(
            np.uint64(position.mover), np.uint64(position.opponent), position.plies_left,
            engine.U, engine.S,
        )  # fmt: skip
        if position.plies_left >= 2:
            f = feature_vector(position.mover, position.opponent, engine.U)
            assert value == int(f @ table[position.plies_left, :N_FEATURES]) >> LEARNED_SHIFT
    engine.search(Position.start(6, 6, 10), depth=2)
    assert engine.S[layout.W + layout.W_MODE] == POSITIONAL
    assert not Engine(tt_mb=1, profile="v1").learned
    assert not Engine(tt_mb=1, evaluation="material").learned


def test_bad_weights_files_are_clear_errors(tmp_path: Path) -> None:
    content = json.loads(DEFAULT_FILE.read_text())
    for name, change in (
        ("missing.json", None),
        ("features.json", {"features": ["x"]}),
        ("row.json", {"weights": {"9": [1, 2]}}),
        ("broken.json", "{"),
    ):
        path = tmp_path / name
        if isinstance(change, dict):
            path.write_text(json.dumps({**content, **change}))
        elif isinstance(change, str):
            path.write_text(change)
        with pytest.raises(WeightsError, match=f"cannot read evaluation weights '{path}'"):
            load_weights(path)


@pytest.mark.slow
def test_train_eval_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eval.json"
    argv = ["train-eval", "--games", "12", "--depth", "2", "--exact-plies", "4"]
    assert main([*argv, "--window", "10", "--version", "7", "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[0])
    assert summary["positions"] > 300 and summary["exact_labels"] > 0
    table, version = load_weights(out)
    assert version == 7 and table[10, :N_FEATURES].any()
    # the file names its data by hash: the same seed's positions, made again, hash the same
    training = json.loads(out.read_text())["training"]
    again = label_positions(self_play_positions(random.Random(1), 12), 2, 4)
    assert training["data"] == data_record(again)
    assert training["data"]["positions"] == summary["positions"]
    assert training["weights_sha256"] == file_weights_sha256(out)
    assert data_record(again[1:])["sha256"] != training["data"]["sha256"]
    assert main(["train-eval", "--games", "1", "--out", str(out), "--window", "0"]) == 2
    assert "too few positions" in capsys.readouterr().err


def test_v2_solver_ordering_keeps_exact_values() -> None:
    from adjacency.engine.bench import SUITE
    from engine_positions import random_endgame
    from oracles import exact_value

    rng = random.Random(16)
    engine = Engine(tt_mb=2, profile="v2")
    assert engine.S[layout.CFG + layout.CFG_SOLVE_TEMPO] == 0
    for _ in range(8):
        position = random_endgame(rng, 6, 6, 8)
        assert engine.solve(position).value == exact_value(position), position.fen()
    end14 = Position.from_fen(dict(SUITE)["end14-1"])
    assert Engine(tt_mb=8, profile="v2").solve(end14).value == Engine(tt_mb=8).solve(end14).value


def test_v3_uses_the_learned_evaluation_only_where_the_board_will_fill() -> None:
    """v3 (``learned_spare=8``): the learned dot product when fewer than 8 squares will be
    left empty at the end, the hand-tuned score otherwise; v2 is learned everywhere."""
    table, _ = load_weights()
    v2, v3 = Engine(tt_mb=1, profile="v2"), Engine(tt_mb=1, profile="v3")
    assert v3.S[layout.W + layout.W_LEARNED_SPARE] == 8
    assert v2.S[layout.W + layout.W_LEARNED_SPARE] == 0
    rng = random.Random(12)
    seen = {True: 0, False: 0}
    for _ in range(80):
        position = random_position(rng, 8, 8, rng.choice([8, 20, 40, 56]))
        if position.plies_left < 2:
            continue
        me, opp = np.uint64(position.mover), np.uint64(position.opponent)
        for engine in (v2, v3):
            engine.search(position, depth=1)
        f = feature_vector(position.mover, position.opponent, v3.U)
        dot = int(f @ table[position.plies_left, :N_FEATURES]) >> LEARNED_SHIFT
        hand = Engine(tt_mb=1, profile="v1")
        hand.search(position, depth=1)
        long_game = position.empty.bit_count() - position.plies_left < 8
        seen[long_game] += 1
        expected = dot if long_game else evaluate(me, opp, position.plies_left, hand.U, hand.S)
        assert evaluate(me, opp, position.plies_left, v3.U, v3.S) == expected, position.fen()
        assert evaluate(me, opp, position.plies_left, v2.U, v2.S) == dot
    assert seen[True] > 5 and seen[False] > 5
