"""The shipped weights files say how they were fitted: the command, its figures, a
provenance record in which nothing is ``None`` (unknown fields say ``"unknown"``), their
training data's SHA-256 (or ``"not recorded"`` and why) and their weights' own SHA-256,
which must match the weights the file holds; printed by ``adjacency weights`` and carried
by its ``--json``."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.engine.weights_file import (
    DEFAULT_FILE,
    NOT_RECORDED,
    PATTERN_FILE,
    SHIPPED_FILES,
    WeightsError,
    file_weights_sha256,
    shipped_training,
    training_record,
)
from adjacency.system.provenance import UNKNOWN


def nones(value: object) -> int:
    if isinstance(value, dict):
        return sum(nones(v) for v in value.values())
    if isinstance(value, list):
        return sum(nones(v) for v in value)
    return int(value is None)


def test_every_shipped_weights_file_has_provenance_with_nothing_left_none() -> None:
    records = shipped_training()
    assert set(records) == {DEFAULT_FILE.name, PATTERN_FILE.name}
    for name, training in records.items():
        record = training["provenance"]
        assert nones(record) == 0, name
        # the settings are the recorded command's own options, the seed among them
        words = shlex.split(training["command"])
        settings = record["settings"]
        assert settings["command"] == training["command"]
        assert "--seed" in words and record["seeds"] == settings["seed"]
        assert str(settings["games"]) == words[words.index("--games") + 1]
        assert record["commit"] == record["machine"]["cpu"] == UNKNOWN
        assert len(record["reconstructed"]["committed_in"]) == 40


def test_every_shipped_weights_file_records_its_data_and_its_weights_own_hash(
    tmp_path: Path,
) -> None:
    folder = DEFAULT_FILE.parent
    assert {p.name for p in folder.iterdir()} == {p.name for p in SHIPPED_FILES}
    for path in SHIPPED_FILES:
        training = training_record(path)
        assert training["weights_sha256"] == file_weights_sha256(path), path.name
        data = training["data"]
        if data["sha256"] == NOT_RECORDED:
            assert len(data["why"]) > 40, path.name  # a reason, not a word
            continue
        assert re.fullmatch(r"[0-9a-f]{64}", data["sha256"]), path.name
        fitted = training["positions"] + training.get("held_out_positions", 0)
        assert data["positions"] == fitted, path.name
        # made again by the recorded command, at a recorded commit, with the file's seed
        again = data["made_again"]["provenance"]
        assert re.fullmatch(r"[0-9a-f]{40}", again["commit"]), path.name
        assert again["seeds"] == training["provenance"]["seeds"], path.name
    # a weight changed, and the recorded hash no longer matches the file
    content = json.loads(DEFAULT_FILE.read_text())
    content["weights"]["30"][0] += 1
    changed = tmp_path / DEFAULT_FILE.name
    changed.write_text(json.dumps(content))
    assert file_weights_sha256(changed) != content["training"]["weights_sha256"]
    with pytest.raises(WeightsError, match=r"bare\.json"):
        file_weights_sha256(tmp_path / "bare.json")


def test_weights_prints_and_its_json_carries_the_records(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["weights"]) == 0
    shown = capsys.readouterr().out
    for training in shipped_training().values():
        assert f"fitted by {training['command']}" in shown
    assert shown.count("commit unknown") == 2 and "seeds: 1" in shown
    assert shown.count("(matches the file)") == 2 and shown.count("training data: sha256") == 2
    assert main(["weights", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == shipped_training()


def test_a_file_without_a_training_section_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "bare.json"
    path.write_text('{"format": "adjacency-eval"}')
    with pytest.raises(WeightsError, match=r"bare\.json.*training"):
        training_record(path)
