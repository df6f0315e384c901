"""Time losses, illegal moves and crashes are recorded with reasons and the run completes."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.arena.runner import create_run, execute
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store
from adjacency.arena.summary import summarize
from adjacency.cli import main
from adjacency.core.record import game_from_text
from adjacency.ratings.stats import Sprt
from adjacency.workers import PoolExecutor, SerialExecutor, WorkerError
from arena_fakes import factory
from protocol_helpers import fake_spec

FAULTY = ["sleepy", "random", "occupied", "random", "disconnect", "random", "raiser", "random"]
FAULTY += ["hang", "random"]
EXPECTED = {
    "sleepy": ("time forfeit", "sleepy took"),
    "occupied": ("illegal move", "is occupied by"),
    "disconnect": ("disconnection", "fake engine exited with status 139"),
    "raiser": ("disconnection", "raiser crashed: RuntimeError: division by zero"),
    "hang": ("time forfeit", "hang did not answer within 2.100s for a 1s budget"),
}
# A budget no correct bot comes near even on a loaded machine: only the sleepy bot (which
# answers past budget and margin) and the hanging one run out of it, whatever the load.
GENEROUS = RunSettings(rounds=(4,), games=2, time=1.0, margin=0.1)


def test_misbehaving_bots_lose_with_reasons_and_the_run_completes(tmp_path: Path) -> None:
    with Store(tmp_path / "faults.db") as store:
        run_id = create_run(store, "pairs", FAULTY, GENEROUS, "faults", factory)
        with PoolExecutor(2) as executor:
            report = execute(store, run_id, executor, factory=factory)
        assert report.status == "finished" and report.stored == 10
        games = store.games(run_id)
    for game in games:
        termination, detail = EXPECTED[game.a]
        assert game.termination == termination
        assert detail in game.detail
        assert game.loser == game.a  # the misbehaving side lost, the other won
        assert game.a_points == 0.0
        record = game_from_text(game.record)  # the reason is in the record too
        assert record.termination.value == termination and detail in record.termination_detail
    totals = {s.a: s for s in summarize(games) if s.rounds is None}
    assert totals["sleepy"].faults_a["time"] == 2
    assert totals["occupied"].faults_a["illegal"] == 2
    assert totals["disconnect"].faults_a["crash"] == 2
    assert totals["raiser"].faults_a["crash"] == 2
    assert totals["hang"].faults_a["time"] == 2
    assert all(sum(s.faults_b.values()) == 0 for s in totals.values())


def test_sprt_stops_a_lopsided_match_early(tmp_path: Path) -> None:
    settings = RunSettings(rounds=(4,), games=400, time=1.0)
    sprt = Sprt(0, 10)
    with Store(tmp_path / "sprt.db") as store:
        run_id = create_run(store, "match", ["greedy", "occupied"], settings, "sprt", factory)
        report = execute(store, run_id, SerialExecutor(), sprt, factory=factory)
        assert report.verdict == "H1" and report.status == "sprt"
        assert report.llr is not None and report.llr >= sprt.upper
        assert report.stored < 400
        # after acceptance, resuming plays nothing more
        again = execute(store, run_id, SerialExecutor(), sprt, factory=factory)
        assert again.played_now == 0 and again.verdict == "H1"


def test_sprt_is_stored_with_the_run_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = RunSettings(rounds=(4,), games=400, time=1.0, sprt=(0.0, 10.0, 0.05, 0.05))
    with Store(tmp_path / "sprt.db") as store:
        run_id = create_run(store, "match", ["greedy", "occupied"], settings, "sprt", factory)
        assert store.run(run_id).settings.sprt == (0.0, 10.0, 0.05, 0.05)
        report = execute(store, run_id, SerialExecutor(), factory=factory)  # no sprt argument
        assert report.verdict == "H1" and report.status == "sprt" and report.stored < 400
    assert main(["report", str(tmp_path / "sprt.db"), "--no-report"]) == 0
    assert f"LLR {report.llr:.2f} [-2.94, 2.94], H1 accepted" in capsys.readouterr().out


def test_misbehaving_external_engines_through_the_cli(tmp_path: Path) -> None:
    """The protocol's fake engines (real processes behind ``cmd:``) in a gauntlet.

    The budget is generous (a correct answer never runs out of it, even on a loaded
    machine); only the engine that never answers forfeits on time."""
    engines = {
        "hang-on-go": "time forfeit",
        "occupied": "illegal move",
        "crash-after-moves": "disconnection",
    }
    specs = [fake_spec(mode) for mode in engines]
    db = tmp_path / "engines.db"
    argv = ["tournament", "greedy", *specs, "--gauntlet", "--games", "2", "--rounds", "4"]
    argv += ["--time", "2", "--concurrency", "2", "--db", str(db), "--quiet"]
    assert main(argv) == 0
    with Store(db) as store:
        run = store.run()
        games = store.games(run.id)
    assert run.status == "finished" and len(games) == 6
    for game in games:
        mode = next(m for m in engines if m in game.b)
        assert game.termination == engines[mode], (mode, game.detail)
        assert game.loser == game.b and game.detail


def test_a_dead_worker_stops_the_run_resumably(tmp_path: Path) -> None:
    settings = RunSettings(rounds=(4,), games=4, time=1.0)
    with Store(tmp_path / "dead.db") as store:
        run_id = create_run(store, "match", ["suicide", "random"], settings, "dead", factory)
        with PoolExecutor(1) as executor, pytest.raises(WorkerError, match="died"):
            execute(store, run_id, executor, factory=factory)
        assert store.run(run_id).status == "stopped"
        assert store.resumable().id == run_id
        assert store.count(run_id) == 0
