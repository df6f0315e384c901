"""An arena game's record counts the same rounds as its CSV, JSON and tables."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from adjacency.arena.store import Store
from adjacency.cli import main
from adjacency.core.record import games_from_text


def test_records_csv_and_json_say_the_rounds_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.db"
    argv = ["match", "greedy", "random", "--games", "4", "--rounds", "8", "--random-plies", "2"]
    assert main([*argv, "--time", "1", "--db", str(db), "--concurrency", "1", "--quiet"]) == 0
    files = {name: tmp_path / name for name in ("g.csv", "r.json", "g.txt")}
    argv = ["report", str(db), "--no-report", "--csv", str(files["g.csv"])]
    assert main([*argv, "--json", str(files["r.json"]), "--records", str(files["g.txt"])]) == 0
    capsys.readouterr()
    with Store(db) as store:
        games = store.games(store.run().id)
    records = games_from_text(files["g.txt"].read_text(encoding="utf-8"))
    rows = list(csv.DictReader(files["g.csv"].open(encoding="utf-8")))
    exported = json.loads(files["r.json"].read_text(encoding="utf-8"))
    assert len(records) == len(rows) == len(games) == 4
    assert {g.rounds for g in games} == {int(r["rounds"]) for r in rows} == {8}
    assert {g["rounds"] for g in exported["games"]} == {8}
    assert [r["rounds"] for r in exported["summaries"]] == [8, None]  # the setting, all
    for game, record in zip(games, records, strict=True):
        assert '[Rounds "8"]' in game.record
        assert record.rounds == 8 and record.start.plies_left == 14  # 2 random plies played
        assert len(record.moves) == game.plies == 14
