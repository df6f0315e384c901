"""The executor seam without a cluster: the local pool's generic map, the command-line
choice, a missing Ray package, and old databases gaining the placement columns."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adjacency.arena.games import play_tasks
from adjacency.arena.runner import create_run, execute
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store
from adjacency.workers import (
    ExecutorUnavailable,
    PoolExecutor,
    SerialExecutor,
    WorkerError,
    make_executor,
)
from arena_fakes import square, worker_pid
from sandbox_helpers import wait_until
from store_helpers import stored_games

HIDE_RAY = "import sys; sys.modules['ray'] = None; from adjacency.cli import main; "


def test_pool_map_unordered_returns_every_value_once() -> None:
    with PoolExecutor(2) as executor:
        pairs = sorted(executor.map_unordered(square, range(30)))
    assert pairs == [(i, i * i) for i in range(30)]


def test_a_worker_killed_between_two_calls_is_a_worker_error_and_the_next_pool_works() -> None:
    """A pool whose worker died while idle refuses new work at once (``BrokenProcessPool``
    from ``submit``): that is a :class:`WorkerError` like a death during the work, so a
    caller that starts a fresh pool on it (the league's house bots) plays on, instead of
    failing every later move (a league once started 29,000 crashed games in 15 minutes)."""
    with PoolExecutor(1) as executor:
        ((_, worker),) = list(executor.map_unordered(worker_pid, [0]))
        os.kill(worker, signal.SIGTERM)
        # The pool's manager marks the pool broken, then reaps its workers: once the dead
        # one is gone (not even a zombie), new work is refused at its submit.
        wait_until(lambda: not Path(f"/proc/{worker}").exists(), "the dead worker reaped")
        with pytest.raises(WorkerError, match="worker process died"):
            list(executor.map_unordered(worker_pid, [1]))
        executor.close()  # what the house does on a WorkerError: the next call starts afresh
        ((_, fresh),) = list(executor.map_unordered(worker_pid, [2]))
    assert fresh != worker


def test_a_ctrl_c_that_reaches_a_worker_is_left_to_the_parent() -> None:
    """A terminal's Ctrl-C reaches the whole process group, the pool's workers too: a
    worker leaves it to the parent, which stops and ends the workers as it chooses, so
    none is interrupted mid-call (where it printed its call's traceback: from inside a
    compiled kernel's callback, one that Python reports as ignored). A worker that took
    it would die, and the pool would refuse the next work."""
    with PoolExecutor(1) as executor:
        ((_, worker),) = list(executor.map_unordered(worker_pid, [0]))
        os.kill(worker, signal.SIGINT)
        assert sorted(executor.map_unordered(worker_pid, [1, 2])) == [(1, worker), (2, worker)]


def test_serial_and_local_games_record_where_they_were_played(tmp_path: Path) -> None:
    settings = RunSettings(rounds=(3,), games=2, time=None, depth=1)
    with Store(tmp_path / "local.db") as store:
        run_id = create_run(store, "match", ["random", "greedy"], settings, "t")
        execute(store, run_id, SerialExecutor())
        games = store.games(run_id)
    assert {g.node for g in games} == {"local"}
    assert all(g.pid > 0 and g.host for g in games)


def test_make_executor_rejects_unknown_names_and_stray_addresses() -> None:
    with pytest.raises(ExecutorUnavailable, match="not one of local, ray"):
        make_executor("slurm", 2)
    with pytest.raises(ExecutorUnavailable, match="--ray-address applies to --executor ray"):
        make_executor("local", 2, "auto")


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "random", "greedy"],
        ["tournament", "random", "greedy", "minimax"],
        ["experiments", "--preset", "original"],
        ["tune", "alphabeta", "--param", "depth=1,1,4"],
    ],
)
def test_executor_ray_without_the_package_names_the_command(
    tmp_path: Path, argv: list[str]
) -> None:
    db = tmp_path / "untouched.db"
    code = HIDE_RAY + f"sys.exit(main({[*argv, '--executor', 'ray', '--db', str(db)]!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3  # a failing environment, not bad input (docs/errors.md)
    assert f"adjacency {argv[0]}: error: --executor ray needs the optional Ray package" in (
        done.stderr
    )
    assert "pip install 'adjacency-game[ray]'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not db.exists()  # nothing was created


@pytest.mark.parametrize(
    ("address", "message", "status"),
    [
        ("127.0.0.1:1", "no Ray cluster answers at '127.0.0.1:1'", 3),  # the environment
        ("nonsense", "expected 'auto' or HOST:PORT", 2),  # bad input
    ],
)
def test_an_unreachable_cluster_fails_fast_and_creates_nothing(
    tmp_path: Path, address: str, message: str, status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    from adjacency.cli import main

    db = tmp_path / "x.db"
    argv = ["match", "random", "greedy", "--executor", "ray", "--ray-address", address]
    assert main([*argv, "--db", str(db)]) == status
    assert message in capsys.readouterr().err
    assert not db.exists()


def test_ray_address_without_executor_ray_is_refused(tmp_path: Path) -> None:
    from adjacency.cli import main

    db = tmp_path / "x.db"
    assert main(["match", "random", "greedy", "--ray-address", "auto", "--db", str(db)]) == 2
    assert not db.exists()


OLD_GAMES = """CREATE TABLE games (
    run_id INTEGER NOT NULL, idx INTEGER NOT NULL, pairing INTEGER NOT NULL,
    pair INTEGER NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL, x TEXT NOT NULL,
    o TEXT NOT NULL, rounds INTEGER NOT NULL, a_is_x INTEGER NOT NULL, result TEXT,
    termination TEXT NOT NULL, detail TEXT NOT NULL, x_score INTEGER NOT NULL,
    o_score INTEGER NOT NULL, plies INTEGER NOT NULL, move_times TEXT NOT NULL,
    record TEXT NOT NULL, seconds REAL NOT NULL, worker TEXT NOT NULL,
    finished TEXT NOT NULL, PRIMARY KEY (run_id, idx))"""


def test_an_old_database_gains_the_placement_columns_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.db"
    settings = RunSettings(rounds=(3,), games=4, time=None, depth=1)
    with Store(db) as store:  # a database as the first release wrote it
        run_id = create_run(store, "match", ["random", "greedy"], settings, "old")
        store.db.execute("DROP TABLE games")
        store.db.execute(OLD_GAMES)
        for result in list(play_tasks(SerialExecutor(), store.pending(run_id)))[:2]:
            task = result.task
            store.db.execute(
                "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, task.index, task.pairing, task.pair, task.a, task.b, task.x, task.o,
                 task.rounds, int(task.a_is_x), result.result, result.termination,
                 result.detail, result.x_score, result.o_score, result.plies, "[]",
                 result.record, result.seconds, result.worker, "2025-01-01"),
            )  # fmt: skip
        store.db.execute("PRAGMA user_version = 0")  # a file from before numbered versions
    with Store(db) as store:  # reopened: migrated, old games intact, resume works
        columns = [row[1] for row in store.db.execute("PRAGMA table_info(games)")]
        assert columns[-3:] == ["node", "host", "pid"]
        old = store.games(run_id)
        assert [(g.idx, g.node, g.pid) for g in old] == [(0, "", 0), (1, "", 0)]
        report = execute(store, run_id, SerialExecutor())
        assert report.status == "finished" and report.played_now == 2
        assert [g.node for g in store.games(run_id)] == ["", "", "local", "local"]
    with sqlite3.connect(db) as conn:  # a second open does not add the columns again
        assert len(conn.execute("PRAGMA table_info(games)").fetchall()) == 24


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's wait is missing


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc (Linux)")
def test_kill_9_of_a_match_leaves_no_pool_worker_running(tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    process = subprocess.Popen(
        [sys.executable, "-m", "adjacency", "match", "random", "greedy", "--games", "2000",
         "--rounds", "8", "--random-plies", "2", "--db", str(db), "--quiet", "-j", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and process.poll() is None:
        workers = [pid for pid in _children(process.pid) if _alive(pid)]
        if len(workers) >= 2 and db.exists():
            break
        time.sleep(0.1)
    assert len(workers) >= 2, "the pool workers never started"
    while stored_games(db) < 2 and time.monotonic() < deadline:  # games are being played
        time.sleep(0.1)
    assert stored_games(db) >= 2, "the pool played no game"
    process.kill()  # SIGKILL: no cleanup in the parent
    process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)], "pool workers outlived the killed match"
