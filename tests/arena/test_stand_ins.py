"""Stand-in moves counted apart, through ``adjacency match`` in a process of its own
and a real engine program over pipes: an engine that says one answer of each game is
a stand-in (``info string stand-in``, docs/protocol.md) gets that move played and
counted in the results table's ``stand-in`` column (its side's count, the other's
nought), and each game's stored record names the ply in its ``StandIns`` tag."""

from __future__ import annotations

import sys
from pathlib import Path

from adjacency.arena.store import Store
from adjacency.core.record import game_from_text
from adjacency.core.stand_ins import game_counts
from cli_helpers import run_process

ENGINE = Path(__file__).resolve().parents[1] / "stand_in_engine.py"


def test_a_match_counts_an_engines_stand_ins_in_a_column_and_the_records(
    tmp_path: Path,
) -> None:
    db = tmp_path / "arena.db"
    spec = f"cmd:{sys.executable} {ENGINE}"
    done = run_process(
        "match", spec, "greedy", "--games", "2", "--rounds", "4", "--size", "6x6",
        "--time", "2", "--db", str(db),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "stand-in" in done.stdout and "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    head = [c.strip() for c in next(x for x in lines if "┃ A" in x).split("┃")[1:-1]]
    row = next(x for x in lines if x.startswith("│") and "stand_in_engine" in x)
    cells = dict(zip(head, (c.strip() for c in row.split("│")[1:-1]), strict=True))
    assert cells["stand-in"] == "2/0", done.stdout  # one a game, the marking side's
    assert cells["W-D-L"] != "" and cells["crash"] == "0/0"
    with Store(db) as store:
        (run,) = store.runs()
        games = store.games(run.id)
    assert len(games) == 2
    for game in games:
        record = game_from_text(game.record)
        x, o = game_counts(record)  # the engine is the pairing's A
        assert record.tags["StandIns"] in ("1", "2")
        assert (x, o) == ((1, 0) if game.a_is_x else (0, 1))
