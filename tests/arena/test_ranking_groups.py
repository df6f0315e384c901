"""Rankings only within groups of players connected by games, each group named: the
terminal tables, the report and the JSON export of ``adjacency report``."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from adjacency.arena.store import GameRow
from adjacency.arena.summary import connected_players, ranking_groups
from adjacency.cli import main


def row(idx: int, a: str, b: str, a_points: float) -> GameRow:
    result = {1.0: "x", 0.0: "o", 0.5: "draw"}[a_points]
    return GameRow(
        run_id=1, idx=idx, pairing=0, pair=idx // 2, a=a, b=b, x=a, o=b, rounds=4,
        a_is_x=True, result=result, termination="normal", detail="", x_score=5, o_score=4,
        plies=8, move_times=[0.1], record="", seconds=1.0,
    )  # fmt: skip


def test_groups_are_the_connected_components() -> None:
    games = [row(0, "a", "b", 1.0), row(1, "c", "d", 0.5), row(2, "b", "e", 0.0)]
    assert connected_players(games) == [["a", "b", "e"], ["c", "d"]]
    groups = ranking_groups(games)
    assert [g.name for g in groups] == ["group 1", "group 2"]
    assert sorted(groups[1].players) == ["c", "d"]
    # each group is fitted alone: its own mean 0, not a shared scale through the prior
    for group in groups:
        assert abs(sum(r.elo for r in group.ratings)) < 1e-6
    assert [g.name for g in ranking_groups(games[:1])] == ["all players"]


def test_report_ranks_two_unconnected_matches_apart(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    common = ["--games", "2", "--rounds", "3", "--size", "5x5", "--time", "1"]
    common += ["--random-plies", "2", "--concurrency", "1", "--db", str(db), "--quiet"]
    quiet = io.StringIO()
    with contextlib.redirect_stdout(quiet):
        assert main(["match", "greedy", "random", *common]) == 0
        assert main(["match", "greedy:seed=5", "random:seed=9", *common]) == 0
    out = tmp_path / "report"
    exported = tmp_path / "results.json"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        argv = ["report", str(db), "--all-runs", "--json", str(exported), "--out", str(out)]
        assert main(argv) == 0
    text = " ".join(printed.getvalue().split())
    assert "Ranking, group 1 of 2 (not connected to the others by games)" in text
    assert "Ranking, group 2 of 2" in text
    data = json.loads(exported.read_text())
    assert {g["name"]: sorted(g["players"]) for g in data["groups"]} == {
        "group 1": ["greedy", "random"],
        "group 2": ["greedy:seed=5", "random:seed=9"],
    }
    for group in data["groups"]:
        ranked = [r for r in data["ratings"] if r["group"] == group["name"]]
        assert sorted(r["player"] for r in ranked) == sorted(group["players"])
        assert abs(sum(r["elo"] for r in ranked)) < 1e-6
    report = (out / "report.md").read_text()
    assert "## Ranking, group 1 of 2" in report and "## Ranking, group 2 of 2" in report
    assert "likelihood ratio" in report
