"""SPSA tuning: the schedules, the update rule, a tiny real run that fixes a bad option,
and a run killed mid-way that resumes from its checkpoint to the very same values."""

from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.arena.schedule import RunSettings
from adjacency.bots import BotError, make_bot
from adjacency.bots.lookup import parse_spec
from adjacency.cli import main
from adjacency.core.errors import InvalidSettingsError
from adjacency.tuning.spsa import (
    R_END,
    Param,
    Schedule,
    parse_param,
    plan_batch,
    tuned_values,
    update,
    with_options,
)
from adjacency.tuning.store import TuneStore

# alphabeta at depth 1 loses clearly to deeper searches: a deliberately bad start.
TINY = ["alphabeta", "--param", "depth=1,1,4,1,0.1", "--rounds", "6", "--size", "6x6"]
TINY += ["--time", "0", "--random-plies", "2", "--batch", "4", "-j", "2", "--quiet"]


def test_schedules_end_at_c_end_and_r_end_like_fishtest() -> None:
    param = Param("t0", 2.0, 0.0, 10.0, c_end=0.5, r_end=0.01)
    schedule = Schedule(pairs=1000, big_a=100)
    last = schedule.pairs
    assert math.isclose(schedule.c_k(param, last), 0.5)
    assert math.isclose(schedule.a_k(param, last) / schedule.c_k(param, last) ** 2, 0.01)
    assert schedule.c_k(param, 1) > schedule.c_k(param, 500) > schedule.c_k(param, 1000)
    assert schedule.a_k(param, 1) > schedule.a_k(param, 1000)


def test_update_moves_toward_the_winning_side_and_stays_in_bounds() -> None:
    params = [Param("a", 5.0, 0.0, 10.0, 1.0, 0.5), Param("b", 5.0, 0.0, 10.0, 1.0, 0.5)]
    schedule = Schedule(pairs=10, big_a=0)
    # The plus copy (a up, b down) won both games: a rises, b falls, by the same step.
    new = update(params, schedule, (5.0, 5.0), 10, (1, -1), 2)
    assert new[0] > 5.0 > new[1] and math.isclose(new[0] - 5.0, 5.0 - new[1])
    step = schedule.a_k(params[0], 10) / schedule.c_k(params[0], 10) * 2
    assert math.isclose(new[0], 5.0 + step)
    assert update(params, schedule, (5.0, 5.0), 10, (1, 1), 0) == (5.0, 5.0)  # a tied pair
    assert update(params, schedule, (9.9, 0.1), 1, (1, -1), 2) == (10.0, 0.0)  # clipped


def test_plan_batch_perturbs_each_pair_symmetrically() -> None:
    params = [parse_param("t0=2,0.1,10,0.5", "anneal"), parse_param("radius=3,1,7", "anneal")]
    schedule = Schedule(pairs=20, big_a=2)
    plans = plan_batch("anneal", params, schedule, (2.0, 3.0), 0, 0, 6, seed=1)
    assert [p.number for p in plans] == list(range(6))
    c = schedule.c_k(params[0], 1)
    for plan in plans:
        plus = parse_spec(plan.plus).options
        minus = parse_spec(plan.minus).options
        assert math.isclose(float(plus["t0"]), 2.0 + c * plan.flip[0], rel_tol=1e-5)
        assert math.isclose(float(minus["t0"]), 2.0 - c * plan.flip[0], rel_tol=1e-5)
        assert {plus["radius"], minus["radius"]} == {"2", "4"}  # whole numbers, c_end >= 1
        make_bot(plan.plus).close()
    assert plans == plan_batch("anneal", params, schedule, (2.0, 3.0), 0, 0, 6, seed=1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("depth", "expected NAME=START,MIN,MAX"),
        ("nope=1,0,2", "has no option 'nope'"),
        ("order=1,0,1", "is bool, not a number"),
        ("depth=1,0,x", "must be a number"),
        ("depth=5,1,4", "MIN <= START <= MAX"),
        ("depth=1,1,99", "cannot go above 64"),
        ("depth=1,1,4,0", "must be positive"),
    ],
)
def test_bad_parameters_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidSettingsError, match=message):
        parse_param(text, "alphabeta")


def test_defaults_follow_fishtest() -> None:
    param = parse_param("t0=2,0.5,10.5", "anneal")
    assert (param.c_end, param.r_end, param.integer) == (0.5, R_END, False)
    assert parse_param("depth=1,1,4", "alphabeta").c_end == 1.0  # whole numbers: at least 1


def test_an_options_file_is_loaded_by_any_spec(tmp_path: Path) -> None:
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"t0": 3.5, "radius": 3}), encoding="utf-8")
    assert str(parse_spec(f"anneal:@{path}")) == "anneal:t0=3.5,radius=3"  # the file's order
    path.write_text(json.dumps({"radius": 3, "t0": 3.5}), encoding="utf-8")
    assert str(parse_spec(f"anneal:@{path}")) == "anneal:radius=3,t0=3.5"
    assert parse_spec(f"anneal:@{path},t0=1").options["t0"] == "1"  # later options win
    assert with_options("anneal:seed=4", {"t0": "2"}) == "anneal:seed=4,t0=2"
    path.write_text(json.dumps({"t0": -1}), encoding="utf-8")
    with pytest.raises(BotError, match="out of range"):
        parse_spec(f"anneal:@{path}")
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(BotError, match="must hold a JSON object"):
        parse_spec(f"anneal:@{path}")
    with pytest.raises(BotError, match="cannot be read"):
        parse_spec(f"anneal:@{tmp_path / 'missing.json'}")


@pytest.mark.slow
def test_a_tiny_tuning_run_moves_a_bad_depth_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tuned.json"
    args = [*TINY, "--games", "24", "--db", str(tmp_path / "t.db"), "--out", str(out)]
    assert main(["tune", *args]) == 0
    _check_verification_match(capsys.readouterr().out)
    assert json.loads(out.read_text())["depth"] >= 2
    with TuneStore(tmp_path / "t.db") as store:
        run = store.run()
    assert run.status == "finished" and run.pairs_done == 12 and len(run.batches) == 3
    assert run.theta[0] > 1.5  # the deeper copy won more pairs than it lost
    assert (tmp_path / "tuned-plot.png").stat().st_size > 1000
    match = make_bot(f"alphabeta:@{out}")  # the file loads into a spec
    assert match.spec.startswith("alphabeta:depth=")


_HELD_AFTER_THIRD_CHECKPOINT = """
import sys, time
from adjacency.cli import main
from adjacency.tuning.store import TuneStore
checkpoint, done = TuneStore.checkpoint, []
def held(self, run_id, outcome):
    checkpoint(self, run_id, outcome)
    done.append(outcome)
    if len(done) == 3:
        print("held", flush=True)
        time.sleep(600)
TuneStore.checkpoint = held
sys.exit(main(sys.argv[1:]))
"""
"""``adjacency tune`` that stops after its third batch is stored, so that the test kills
it between two checkpoints however the machine schedules the two processes (polling the
file from the test raced the run: a test held off its core saw the run finish first)."""


def _killed_after_third_checkpoint(args: list[str], cwd: Path | None = None) -> None:
    """Run ``adjacency ARGS`` and kill it, and its workers, with SIGKILL once its third
    batch is stored, as ``kill -9`` would between two checkpoints."""
    process = subprocess.Popen(
        [sys.executable, "-c", _HELD_AFTER_THIRD_CHECKPOINT, *args],
        cwd=cwd, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    try:
        assert process.stdout.readline() == "held\n", "the run ended before 3 checkpoints"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        process.stdout.close()


@pytest.mark.slow
def test_a_killed_run_resumes_from_its_checkpoint_to_the_same_values(tmp_path: Path) -> None:
    games = ["--games", "64", "--batch", "2", "--seed", "4"]
    reference = tmp_path / "reference.db"
    reference_out = ["--out", str(tmp_path / "r.json")]
    assert main(["tune", *TINY, *games, "--db", str(reference), *reference_out]) == 0

    killed = tmp_path / "killed.db"
    out = tmp_path / "k.json"
    _killed_after_third_checkpoint(["tune", *TINY, *games, "--db", str(killed), "--out", str(out)])
    with TuneStore(killed) as store:
        before = store.run()
    assert before.status == "running" and 3 <= len(before.batches) < 16

    assert main(["tune", "--resume", "--db", str(killed), "--out", str(out), "-j", "2"]) == 0
    with TuneStore(killed) as store, TuneStore(reference) as ref:
        resumed, expected = store.run(), ref.run()
    assert resumed.batches[: len(before.batches)] == before.batches  # checkpoints untouched
    assert resumed.status == "finished" and resumed.pairs_done == 32
    assert [b.batch for b in resumed.batches] == list(range(16))  # each batch once
    assert resumed.batches == expected.batches  # same games, same steps, same values
    assert json.loads(out.read_text()) == json.loads((tmp_path / "r.json").read_text())


@pytest.mark.slow
def test_a_resumed_run_writes_its_own_out_and_plot_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--resume`` writes the run's own --out and plot, never tuned.json and tuned-plot.png
    in the working directory (which would overwrite another run's)."""
    started, elsewhere = tmp_path / "run", tmp_path / "elsewhere"
    started.mkdir()
    elsewhere.mkdir()
    (elsewhere / "tuned.json").write_text('{"depth": 9}\n')  # another run's result
    games = ["--games", "24", "--batch", "2", "--seed", "4"]
    db = started / "t.db"
    files = ["--out", "mine.json", "--plot", "curves.png"]
    _killed_after_third_checkpoint(["tune", *TINY, *games, "--db", "t.db", *files], started)
    (started / "mine.json").unlink()  # the resumed run must write it again

    monkeypatch.chdir(elsewhere)
    assert main(["tune", "--resume", "--db", str(db), "-j", "2", "--quiet"]) == 0
    with TuneStore(db) as store:
        run = store.run()
    assert run.status == "finished" and run.pairs_done == 12
    assert (run.out, run.plot) == (started / "mine.json", started / "curves.png")
    final = json.loads((started / "mine.json").read_text())
    assert final == tuned_values(run.params, run.theta)
    assert (started / "curves.png").stat().st_size > 1000
    assert sorted(p.name for p in elsewhere.iterdir()) == ["tuned.json"]
    assert json.loads((elsewhere / "tuned.json").read_text()) == {"depth": 9}


def test_a_run_stored_before_the_files_were_kept_still_opens(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "CREATE TABLE tune_runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT "
            "NULL, bot TEXT NOT NULL, params TEXT NOT NULL, schedule TEXT NOT NULL, settings "
            "TEXT NOT NULL, batch_pairs INTEGER NOT NULL, command TEXT NOT NULL DEFAULT '', "
            "status TEXT NOT NULL DEFAULT 'running')"
        )
    conn.close()
    with TuneStore(db) as store:
        params = [parse_param("depth=1,1,4", "alphabeta")]
        first = store.create(
            "alphabeta", params, Schedule(4, 0.4, 0.602, 0.101), RunSettings(), 2, ""
        )
        store.db.execute("UPDATE tune_runs SET out = NULL, plot = NULL WHERE id = ?", (first,))
        assert (store.run(first).out, store.run(first).plot) == (None, None)
        second = store.create(
            "alphabeta",
            params,
            Schedule(4, 0.4, 0.602, 0.101),
            RunSettings(),
            2,
            "",
            Path("v.json"),
        )
        assert store.run(second).out == Path.cwd() / "v.json"
        assert store.run(second).plot is None


def test_tune_refuses_bad_runs_and_resume_without_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.db"
    assert main(["tune", "alphabeta", "--db", str(db)]) == 2  # no --param
    monkeypatch.chdir(tmp_path)  # the default --db, tune.db, is not made for bad input
    assert main(["tune", "alphabeta", "--param", "depth=1,1,4", "--games", "3"]) == 2
    assert not db.exists() and not (tmp_path / "tune.db").exists()
    assert main(["tune", "--resume", "--db", str(db)]) == 3  # a store failure (docs/errors.md)


def _check_verification_match(printed: str) -> None:
    """The SPRT match ``tune`` prints plays to a verdict, with the tuning run's kind of games."""
    import shlex

    from adjacency.cli import build_parser
    from adjacency.cli.arena_commands import SPRT_GAMES, match_settings
    from adjacency.ratings.stats import parse_sprt

    lines = printed.splitlines()
    command = lines[lines.index("verify against the start values with an SPRT match:") + 1]
    argv = shlex.split(command)
    assert argv[:2] == ["adjacency", "match"]
    args = build_parser().parse_args(argv[1:])
    settings = match_settings(args, parse_sprt(args.sprt))
    assert settings.games == SPRT_GAMES and settings.sprt == (0.0, 10.0, 0.05, 0.05)
    assert settings.random_plies == 2 and settings.rounds == (6,)
    assert (settings.rows, settings.cols) == (6, 6) and settings.time is None
