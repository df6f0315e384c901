"""The engine's subcommands: solve, analyse and bench (quick settings)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli import main
from adjacency.core import Position
from adjacency.engine.bench import SIGNATURE_DEPTH, SUITE
from oracles import exact_value

ENDGAME = "2oo/xoox/x3/xx2 o 5"


@pytest.mark.parametrize("fen", [ENDGAME, "2oo/2oo/xx2/xx2 x 6", "3oo/3oo/5/xx3/xx3 x 4"])
def test_solve_prints_a_principal_variation_every_step_of_which_is_optimal(
    fen: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line played to the end keeps the value at every ply (checked against the
    brute-force oracle), starts with the best move and ends the game; text and JSON agree."""
    assert main(["solve", fen, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    position = Position.from_fen(fen)
    assert data["pv_complete"] and data["pv"][0] == data["best"]
    current, expected = position, data["value"]
    for move in data["pv"]:
        assert exact_value(current) == expected
        current = current.play(move)
        expected = -expected
    assert current.is_over and len(data["pv"]) == position.plies_left
    x, o = current.score
    assert (x - o if position.turn == "x" else o - x) == data["value"]
    assert main(["solve", fen]) == 0
    assert f"pv {' '.join(data['pv'])}\n" in capsys.readouterr().out


def test_solve_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", ENDGAME, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"value", "best", "pv", "pv_complete", "nodes", "seconds", "provenance"}
    position = Position.from_fen(ENDGAME)
    assert data["value"] == exact_value(position)
    assert data["best"] in position.legal_moves()
    assert main(["solve", ENDGAME, "--wld"]) == 0
    verdict = {1: "win", 0: "draw", -1: "loss"}[(data["value"] > 0) - (data["value"] < 0)]
    assert capsys.readouterr().out.startswith(f"{verdict} for o; best move ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "8/8 x 3"], "position text '8/8 x 3'"),
        (["solve", "xxoo/xxoo/xxoo/xxoo x 0"], "already over"),
        (["analyse", "no-such-file.txt"], "'no-such-file.txt' is neither position text"),
    ],
)
def test_bad_input_is_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"adjacency {argv[0]}: error: ") and message in err


def test_analyse_a_position_and_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", ENDGAME, "--depth", "3", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["best"] in Position.from_fen(ENDGAME).legal_moves() and row["depth"] == 3
    assert row["pv"][0] == row["best"]
    record = tmp_path / "game.txt"
    from adjacency.core.game import Game
    from adjacency.core.record import game_to_text

    game = Game(Position.start(4, 4, 2))
    for move in ("c1", "b3", "d2", "a3"):
        game.play(move)
    record.write_text(game_to_text(game), encoding="utf-8")
    assert main(["analyse", str(record), "--depth", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and lines[0].split()[2] == "c1"


def test_bench_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--no-suite", "--raw-depth", "3", "--timing-moves", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["raw"]["depth"] == 3 and data["raw"]["nodes"] > 0
    assert data["timing"]["moves"] == 3
    # CPU-time rates beside wall-clock ones; the CPU of one thread never exceeds its wall time
    raw = data["raw"]
    assert 0 < raw["cpu_seconds"] <= raw["seconds"] * 1.05 + 0.01
    assert raw["cpu_nps"] == pytest.approx(raw["nodes"] / raw["cpu_seconds"])
    record = data["provenance"]
    assert record["settings"]["raw_depth"] == 3 and record["machine"]["cores"] >= 1
    assert record["libraries"]["numba"] and record["version"]


def test_bench_prints_cpu_rates_and_its_provenance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--no-suite", "--raw-depth", "3", "--timing-moves", "0"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("code: adjacency-game ") and "\nmachine: " in text
    assert "Mn/s wall" in text and "Mn/s CPU" in text


def test_solve_and_analyse_take_threads(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", ENDGAME, "--json", "--threads", "2", "--tt", "8"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["value"] == exact_value(Position.from_fen(ENDGAME))
    # the JSON carries its provenance with every setting that changes a result
    assert solved["provenance"]["settings"]["threads"] == 2
    assert solved["provenance"]["settings"]["tt_mb"] == 8.0
    assert solved["provenance"]["libraries"]["numba"] and solved["provenance"]["source"]
    assert main(["analyse", ENDGAME, "--depth", "3", "--json", "--threads", "2"]) == 0
    analysed = json.loads(capsys.readouterr().out)
    assert analysed["depth"] == 3
    assert analysed["provenance"]["settings"]["threads"] == 2
    assert analysed["provenance"]["settings"]["depth"] == 3
    with pytest.raises(SystemExit) as exited:
        main(["solve", ENDGAME, "--threads", "300"])
    assert exited.value.code == 2 and "must be at most 256, got 300" in capsys.readouterr().err


def test_bench_signature_is_the_suites_total_nodes_and_the_same_every_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The signature a commit changing the search quotes: the sum of the fixed-depth suite's
    node counts, printed as one line, and the same number on a second run."""
    assert main(["bench", "--signature", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [line["name"] for line in data["positions"]] == [name for name, _ in SUITE]
    assert data["signature"] == sum(line["nodes"] for line in data["positions"]) > 0
    searches = [line for line in data["positions"] if line["kind"] == "search"]
    assert {line["depth"] for line in searches} == {SIGNATURE_DEPTH}
    assert all(line["cpu_seconds"] > 0 and line["cpu_nps"] > 0 for line in data["positions"])
    assert main(["bench", "--signature"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"signature: {data['signature']} nodes"
    assert len(lines) == len(SUITE) + 1


MIDDLE = "4oxxo/4ooxo/8/o7/ox2xooo/ox3x1x/ox6/xx2x3 x 40"
"""A middle game of the bench suite: far from the end, so a node limit stops the search."""


def test_analyse_deterministic_gives_the_same_lines_and_nodes_every_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two runs, each with a fresh engine, print the same values, lines, depths and node
    counts (only the seconds differ), for a position and for a record, whatever --threads
    says."""

    def analysed(*argv: str) -> list[dict[str, Any]]:
        assert main(["analyse", *argv, "--deterministic", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        rows = data if isinstance(data, list) else [data]
        for row in rows:
            del row["seconds"]
            assert row.pop("provenance")["settings"]["deterministic"] is True
        return rows

    first = analysed(MIDDLE, "--nodes", "150000", "--threads", "2")
    assert first == analysed(MIDDLE, "--nodes", "150000")
    assert 0 < int(first[0]["nodes"]) <= 150_000 * 1.01 and first[0]["pv"]
    assert not first[0]["exact"]
    from adjacency import Game
    from adjacency.core.record import game_to_text

    game = Game(Position.from_fen(MIDDLE))
    for square in ("c1", "d1", "f1"):
        game.play(square)
    record = tmp_path / "game.txt"
    record.write_text(game_to_text(game), encoding="utf-8")
    rows = analysed(str(record), "--nodes", "40000")
    assert len(rows) == 3 and rows == analysed(str(record), "--nodes", "40000")
    assert main(["analyse", MIDDLE, "--deterministic", "--time", "1"]) == 2
    assert "not time" in capsys.readouterr().err
