"""The pattern evaluation: cross indices against a pure-Python count, symmetry by
construction, the least-squares fit, the weights file, profile v4 and ``train-eval
--kind patterns`` (reproducible for any number of workers)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.bots import make_bot
from adjacency.cli import main
from adjacency.core import Position
from adjacency.core.errors import InvalidSettingsError
from adjacency.engine import Engine
from adjacency.engine.kernels import layout
from adjacency.engine.kernels.evaluate import LEARNED_SHIFT, evaluate
from adjacency.engine.kernels.features import N_FEATURES, feature_vector
from adjacency.engine.kernels.layout import PATTERN, POSITIONAL
from adjacency.engine.kernels.patterns import (
    CANON,
    CLASS,
    N_CANON,
    N_CONFIGS,
    N_INSTANCES,
    N_WEIGHTS,
    OFFSET,
    PARITY,
    configurations,
    expand,
    pattern_sum,
)
from adjacency.engine.symmetry import automorphisms
from adjacency.engine.weights_file import (
    PATTERN_FILE,
    UNITS,
    WeightsError,
    load_patterns,
    save_patterns,
)
from adjacency.training.fit import (
    Chunk,
    Sample,
    fit_pattern_phases,
    load_samples,
    pattern_columns,
    predict,
    ridge_patterns,
)
from engine_positions import random_position

BOARD = Position.start(8, 8, 28).board


def naive_configurations(me: int, opp: int) -> list[int]:
    """Each row's, then each column's configuration counted from the squares' coordinates:
    base-3 digits along the line (from file a / rank 1), classes by distance to the edge."""

    def state(rank: int, file: int) -> int:
        square = rank * 8 + file
        return ((me >> square) & 1) + 2 * ((opp >> square) & 1)

    rows = [sum(state(k, f) * 3**f for f in range(8)) for k in range(8)]
    columns = [sum(state(r, k) * 3**r for r in range(8)) for k in range(8)]
    return [min(k, 7 - k) * 3**8 + index for k, index in enumerate(rows)] + [
        min(k, 7 - k) * 3**8 + index for k, index in enumerate(columns)
    ]


def test_lines_are_grouped_in_four_classes_and_reversal_shares_a_weight() -> None:
    assert N_INSTANCES == 16 and sorted(set(CLASS.tolist())) == [0, 1, 2, 3]
    assert (OFFSET == CLASS * 3**8).all()
    assert N_CONFIGS == 4 * 3**8 == len(CANON)
    assert N_CANON == 4 * (3**8 + 3**4) // 2  # palindromes keep their own weight
    # 0-1-2 read from one end is 2-1-0 read from the other: one weight.
    forward = 0 * 1 + 1 * 3 + 2 * 9
    backward = 2 * 3**5 + 1 * 3**6 + 0 * 3**7
    assert CANON[forward] == CANON[backward] != CANON[forward + 1]
    assert CANON[3**8 + forward] == CANON[3**8 + backward] != CANON[forward]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 2**32))
def test_kernel_indices_and_sum_equal_a_pure_python_count(a: int, b: int, seed: int) -> None:
    me, opp = a & ~b, b & ~a
    got = configurations(me, opp).tolist()
    assert got == naive_configurations(me, opp)
    weights = np.random.default_rng(seed).integers(-500, 500, 2 * layout.PAT_STRIDE)
    expected = sum(int(weights[layout.PAT_STRIDE + x]) for x in got)
    assert pattern_sum(np.uint64(me), np.uint64(opp), weights, layout.PAT_STRIDE) == expected


def test_symmetric_positions_score_the_same_with_tied_weights() -> None:
    rng = np.random.default_rng(3)
    table = expand(rng.integers(-1000, 1000, (1, N_WEIGHTS)))[0]
    untied = rng.integers(-1000, 1000, layout.PAT_STRIDE)
    maps = automorphisms(BOARD)
    assert len(maps) == 8
    prng = random.Random(5)
    broken = 0
    for _ in range(40):
        position = random_position(prng, 8, 8, 60)
        images = [transform.position(position) for transform in maps]
        boards = [(np.uint64(image.mover), np.uint64(image.opponent)) for image in images]
        assert len({pattern_sum(me, opp, table, 0) for me, opp in boards}) == 1, position.fen()
        broken += len({pattern_sum(me, opp, untied, 0) for me, opp in boards}) > 1
    assert broken > 30  # the test can tell: weights that are not tied break the symmetry


def test_conjugate_gradients_equal_a_dense_ridge_solve_and_recover_known_weights() -> None:
    rng = np.random.default_rng(9)
    width, rows = 60, 400
    columns = rng.integers(0, width, (rows, 16))
    features = rng.normal(0, 3, (rows, 3))
    dense = np.zeros((rows, width + 3))
    for i, row in enumerate(columns):
        np.add.at(dense[i], row, 1.0)
    dense[:, width:] = features
    known = rng.normal(0, 100, width + 3)
    labels = dense @ known
    for ridge in (0.5, 10.0):
        expected = np.linalg.solve(dense.T @ dense + ridge * np.eye(width + 3), dense.T @ labels)
        got = ridge_patterns(columns, features, labels, ridge, width)
        assert np.allclose(got, expected, atol=1e-4)
    # Nearly unregularised, the fit finds the weights that made the labels.
    assert np.allclose(ridge_patterns(columns, features, labels, 1e-6, width), known, atol=1e-2)
    # On real positions: the prediction is the sum of the lines' weights and the features'.
    prng = random.Random(4)
    samples = [Sample(random_position(prng, 8, 8, 50).fen(), 0, 0.0, False) for _ in range(5)]
    lines, values = pattern_columns(samples)
    plies = np.array([3, 4, 9, 10, 55])
    w = rng.normal(0, 1, N_WEIGHTS)
    sign = np.array([1, -1, 1, -1, 1])  # the mover makes the last move with odd plies left
    direct = w[lines].sum(axis=1) + values @ w[N_CANON : N_CANON + N_FEATURES] + sign * w[-1]
    assert np.allclose(predict(lines, values, plies, w), direct)
    assert (lines < N_CANON).all() and lines.shape == (5, N_INSTANCES)


def _pattern_file(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    fitted = np.random.default_rng(1).integers(-300, 300, (layout.PAT_PHASES, N_WEIGHTS))
    path = tmp_path / "patterns.json"
    content = save_patterns(fitted, path, 3, {"command": "test"})
    table, version = load_patterns(path)
    assert version == 3 and (table == expand(fitted)).all()
    return path, content


def test_bad_pattern_files_are_clear_errors(tmp_path: Path) -> None:
    _, content = _pattern_file(tmp_path)
    rows = content["weights"]
    assert isinstance(rows, list)
    for name, change in (
        ("missing.json", None),
        ("broken.json", "{"),
        ("learned.json", {"format": "adjacency-eval"}),
        ("crosses.json", {"patterns": "crosses"}),
        ("version.json", {"version": "2"}),
        ("phases.json", {"weights": rows[:-1]}),
        ("row.json", {"weights": [row[:-1] for row in rows]}),
        ("float.json", {"weights": [[0.5] * N_WEIGHTS for _ in rows]}),
        ("terms.json", {"terms": ["tempo"]}),
        ("old-width.json", {"terms": []}),  # before the parity weight: one weight fewer
        ("units.json", {"units": 16}),
        ("board.json", {"board": "6x6"}),
    ):
        path = tmp_path / name
        if isinstance(change, dict):
            path.write_text(json.dumps({**content, **change}))
        elif isinstance(change, str):
            path.write_text(change)
        with pytest.raises(WeightsError, match=f"cannot read pattern weights '{path}'"):
            load_patterns(path)


def test_bad_samples_files_are_clear_errors(tmp_path: Path) -> None:
    work = [Chunk(1, 0, 2, (28,), 2, 4)]
    path = tmp_path / "samples.json"
    path.write_text(json.dumps({"format": "adjacency-samples", "chunks": [], "samples": []}))
    with pytest.raises(WeightsError, match="other settings"):
        load_samples(path, work)
    with pytest.raises(WeightsError, match="cannot read labelled positions"):
        load_samples(tmp_path / "missing.json", work)
    argv = ["train-eval", "--kind", "patterns", "--games", "2", "--out", str(tmp_path / "o")]
    assert main([*argv, "--load-samples", str(path)]) == 2
    assert main([*argv, "--holdout", "1"]) == 2
    assert main([*argv, "--ridge", "0"]) == 2
    assert main([*argv, "--rounds", "31"]) == 2
    assert not (tmp_path / "o").exists()


def test_v4_uses_the_pattern_evaluation_on_8x8_where_v3_uses_the_learned_one() -> None:
    table, version = load_patterns()
    assert version >= 1 and PATTERN_FILE.exists()
    v4 = Engine(tt_mb=1, profile="v4")
    assert v4.profile.learned_spare == 8
    rng = random.Random(12)
    seen = {True: 0, False: 0}
    hand = Engine(tt_mb=1, profile="v1")
    for _ in range(80):
        position = random_position(rng, 8, 8, rng.choice([8, 20, 40, 56]))
        if position.plies_left < 2:
            continue
        v4.search(position, depth=1)
        hand.search(position, depth=1)
        assert v4.S[layout.W + layout.W_MODE] == PATTERN
        me, opp = np.uint64(position.mover), np.uint64(position.opponent)
        row = table[position.plies_left // layout.PAT_PHASE_WIDTH]
        f = feature_vector(position.mover, position.opponent, v4.U)
        total = sum(int(row[x]) for x in configurations(position.mover, position.opponent))
        total += int(f @ row[N_CONFIGS : N_CONFIGS + N_FEATURES])
        total += int(row[PARITY]) * (1 if position.plies_left % 2 else -1)
        long_game = position.empty.bit_count() - position.plies_left < 8
        seen[long_game] += 1
        hand_value = evaluate(me, opp, position.plies_left, hand.U, hand.S)
        expected = total >> LEARNED_SHIFT if long_game else hand_value
        assert evaluate(me, opp, position.plies_left, v4.U, v4.S) == expected, position.fen()
    assert seen[True] > 5 and seen[False] > 5
    v4.search(Position.start(6, 6, 10), depth=2)
    assert v4.S[layout.W + layout.W_MODE] == POSITIONAL
    threaded = Engine(tt_mb=1, profile="v4", threads=2)
    threaded.search(Position.start(8, 8, 28), depth=3)
    assert threaded.helpers is not None
    for S in threaded.helpers.states:
        assert (S[layout.PAT : layout.PAT + layout.PAT_SIZE] == table.reshape(-1)).all()


def test_an_engine_evaluates_with_the_pattern_file_its_settings_name(tmp_path: Path) -> None:
    """``patterns=FILE`` (a candidate's weights, for a match against the shipped ones):
    every search thread holds that file's table, the evaluation uses it, a file
    rewritten in place is read again, and a bad one is a clear error."""
    rng = np.random.default_rng(36)
    fitted = rng.integers(-600, 600, size=(layout.PAT_PHASES, N_WEIGHTS))
    path = tmp_path / "candidate.json"
    save_patterns(fitted, path, 7, {})
    engine = Engine(tt_mb=1, profile="v4", patterns=str(path), threads=2)
    assert engine.pattern_version == 7
    engine.search(Position.start(8, 8, 28), depth=3)
    assert engine.helpers is not None
    for S in (engine.S, *engine.helpers.states):
        assert (S[layout.PAT : layout.PAT + layout.PAT_SIZE] == expand(fitted).reshape(-1)).all()
    rng_positions = random.Random(5)
    position = random_position(rng_positions, 8, 8, 40)
    while position.plies_left < 2 or position.empty.bit_count() - position.plies_left >= 8:
        position = random_position(rng_positions, 8, 8, 40)  # the patterns' games fill the board
    phase = fitted[position.plies_left // layout.PAT_PHASE_WIDTH]
    f = feature_vector(position.mover, position.opponent, engine.U)
    total = sum(int(phase[CANON[x]]) for x in configurations(position.mover, position.opponent))
    total += int(f @ phase[N_CANON : N_CANON + N_FEATURES])
    total += int(phase[-1]) * (1 if position.plies_left % 2 else -1)  # the parity weight
    assert phase[-1] != 0
    me, opp = np.uint64(position.mover), np.uint64(position.opponent)
    assert evaluate(me, opp, position.plies_left, engine.U, engine.S) == total >> LEARNED_SHIFT
    shipped = Engine(tt_mb=1, profile="v4", patterns="shipped")
    assert shipped.pattern_version == load_patterns()[1]
    assert (shipped.S == Engine(tt_mb=1, profile="v4").S).all()

    save_patterns(np.zeros_like(fitted), path, 8, {})  # rewritten in place: read again
    bot = make_bot(f"engine:profile=v4,threads=1,tt=1,patterns={path}")
    assert bot.engine.pattern_version == 8  # type: ignore[attr-defined]
    assert not bot.engine.S[layout.PAT : layout.PAT + layout.PAT_SIZE].any()  # type: ignore[attr-defined]

    missing = tmp_path / "missing.json"
    with pytest.raises(WeightsError, match=f"cannot read pattern weights '{missing}'"):
        Engine(tt_mb=1, profile="v4", patterns=str(missing))
    (tmp_path / "learned.json").write_text(json.dumps({"format": "adjacency-eval"}))
    with pytest.raises(WeightsError, match="cannot read pattern weights"):
        Engine(tt_mb=1, profile="v4", patterns=str(tmp_path / "learned.json"))
    with pytest.raises(InvalidSettingsError, match="patterns must be shipped or a pattern"):
        Engine(tt_mb=1, patterns="")


@pytest.mark.slow
def without_provenance(path: Path) -> Any:
    """A weights file's data less its provenance records (which say when and with which
    settings, ``--jobs`` included, it was made: the rest must be the same)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "provenance"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(json.loads(path.read_bytes()))


def test_train_eval_patterns_is_the_same_for_one_and_two_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["train-eval", "--kind", "patterns", "--games", "12", "--chunk-games", "3"]
    argv += ["--depth", "1", "--exact-plies", "4", "--window", "10", "--holdout", "4"]
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"patterns-{jobs}.json"
        samples = tmp_path / f"samples-{jobs}.json"
        assert main([*argv, "--jobs", jobs, "--out", str(out), "--save-samples", str(samples)]) == 0
        outs.append(without_provenance(out))
        summary = json.loads(capsys.readouterr().out.splitlines()[0])
        assert summary["positions"] == 9 * 55 and summary["held_out_positions"] == 3 * 55
        assert summary["held_out_rms_pieces"]["all"]["n"] == 3 * 55
    assert outs[0] == outs[1]
    assert (tmp_path / "samples-1.json").read_bytes() == (tmp_path / "samples-2.json").read_bytes()
    again = tmp_path / "again.json"
    loaded = ["--load-samples", str(tmp_path / "samples-1.json"), "--out", str(again)]
    assert main([*argv, *loaded]) == 0
    assert without_provenance(again) == outs[0]
    table, version = load_patterns(again)
    assert version == 1 and table.any()


def test_files_from_before_the_parity_weight_read_with_parity_zero(tmp_path: Path) -> None:
    """The shipped v4 weights (version 1) and any file without ``terms`` hold one weight
    fewer a phase: they read as fitted, with a parity weight of 0."""
    fitted = np.random.default_rng(2).integers(-300, 300, (layout.PAT_PHASES, N_WEIGHTS))
    path = tmp_path / "new.json"
    content = save_patterns(fitted, path, 4, {})
    assert content["terms"] == ["parity"]
    old = {k: v for k, v in content.items() if k != "terms"}
    old["weights"] = [row[:-1] for row in content["weights"]]
    (tmp_path / "old.json").write_text(json.dumps(old))
    table, version = load_patterns(tmp_path / "old.json")
    without = fitted.copy()
    without[:, -1] = 0
    assert version == 4 and (table == expand(without)).all() and not table[:, PARITY].any()
    assert (load_patterns(path)[0][:, PARITY] == fitted[:, -1]).all()
    shipped = json.loads(PATTERN_FILE.read_text())
    if "terms" not in shipped:
        assert not load_patterns()[0][:, PARITY].any()


def test_the_fit_learns_the_parity_weight_apart_from_the_patterns() -> None:
    """Labels that are a known pattern sum plus 3 pieces for the last mover (minus 3 for
    the other): the fit gives the parity its 3 pieces and the patterns their own."""
    rng = np.random.default_rng(21)
    rows = 3000
    columns = rng.integers(0, 40, (rows, N_INSTANCES))  # few weights: no interpolation
    features = rng.normal(0, 2, (rows, N_FEATURES))
    plies = rng.integers(8, 12, rows)  # phase 2 with window 0: both parities
    known = np.zeros(N_WEIGHTS)
    known[:N_CANON] = rng.normal(0, 40, N_CANON)
    known[N_CANON : N_CANON + N_FEATURES] = rng.normal(0, 40, N_FEATURES)
    known[-1] = 3 * UNITS
    labels = predict(columns, features, plies, known)

    def phase_rows(phase: int, window: int) -> tuple[np.ndarray, ...]:
        del window
        if phase != 2:
            return columns[:0], features[:0], labels[:0], plies[:0]
        return columns, features, labels, plies

    fit = fit_pattern_phases
    table, _ = fit(phase_rows, rows, window=0, ridge=1e-3, parity=True)  # type: ignore[arg-type]
    assert table.shape[1] == N_WEIGHTS and abs(table[2, -1] - 3 * UNITS) <= 0.05 * UNITS
    fitted = predict(columns, features, plies, table[2].astype(float))
    assert np.sqrt(np.mean((fitted - labels) ** 2)) < 0.1 * UNITS
    # Without the term the same labels cannot be fitted: the parity is left as error.
    table, _ = fit(phase_rows, rows, window=0, ridge=1e-3)  # type: ignore[arg-type]
    assert table.shape[1] == N_WEIGHTS - 1
    fitted = predict(columns, features, plies, table[2].astype(float))
    assert np.sqrt(np.mean((fitted - labels) ** 2)) > 2 * UNITS
