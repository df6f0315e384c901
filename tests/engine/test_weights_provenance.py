"""The shipped weights files say how they were fitted: the command, its figures and a
provenance record in which nothing is ``None`` (unknown fields say ``"unknown"``),
printed by ``adjacency weights`` and carried by its ``--json``."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.engine.weights_file import (
    DEFAULT_FILE,
    PATTERN_FILE,
    WeightsError,
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


def test_weights_prints_and_its_json_carries_the_records(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["weights"]) == 0
    shown = capsys.readouterr().out
    for training in shipped_training().values():
        assert f"fitted by {training['command']}" in shown
    assert shown.count("commit unknown") == 2 and "seeds: 1" in shown
    assert main(["weights", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == shipped_training()


def test_a_file_without_a_training_section_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "bare.json"
    path.write_text('{"format": "adjacency-eval"}')
    with pytest.raises(WeightsError, match=r"bare\.json.*training"):
        training_record(path)
