"""The Ray executor on a real multi-node cluster (head + two 1-CPU worker nodes, conftest).

Games must spread over the nodes, match the local executor game for game with
seeded bots, survive a node that dies mid-run (every planned game stored exactly
once), record misbehaving bots as losses, and refuse nodes running other code.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from adjacency.arena.runner import create_run, execute
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store
from adjacency.workers import ExecutorUnavailable, SerialExecutor
from adjacency.workers import ray_cluster as ray_backend
from adjacency.workers.ray_cluster import RayExecutor
from arena_fakes import factory, square
from store_helpers import stored_games

pytestmark = pytest.mark.slow

PLAYERS = ["random", "greedy", "alphabeta:depth=2"]
SETTINGS = RunSettings(rounds=(4, 6), games=4, time=None, depth=2, random_plies=2, seed=5)


def test_map_unordered_runs_any_function_on_the_cluster(ray_cluster: Any) -> None:
    with RayExecutor() as executor:
        assert executor.concurrency == 2  # the two worker nodes' CPUs (the head has none)
        pairs = sorted(executor.map_unordered(square, range(20)))
    assert pairs == [(i, i * i) for i in range(20)]


def test_tournament_spreads_over_nodes_and_equals_the_local_executor(
    ray_cluster: Any, tmp_path: Path
) -> None:
    with Store(tmp_path / "ray.db") as store:
        run_id = create_run(store, "round-robin", PLAYERS, SETTINGS, "ray")
        with RayExecutor() as executor:
            report = execute(store, run_id, executor)
        ray_games = store.games(run_id)
    with Store(tmp_path / "local.db") as store:
        run_id = create_run(store, "round-robin", PLAYERS, SETTINGS, "local")
        execute(store, run_id, SerialExecutor())
        local_games = store.games(run_id)
    planned = 3 * 2 * 4  # pairings x rounds settings x games
    assert report.status == "finished" and report.stored == report.planned == planned
    assert [g.idx for g in ray_games] == list(range(planned))
    worker_nodes = {n.node_id for n in ray_cluster.worker_nodes}
    used = {g.node for g in ray_games}
    assert used <= worker_nodes and len(used) >= 2  # played on both worker nodes
    assert all(g.pid > 0 and g.host for g in ray_games)
    # Seeded bots: the same game, move for move, wherever it was played.
    for ray_game, local_game in zip(ray_games, local_games, strict=True):
        assert (ray_game.result, ray_game.x_score, ray_game.o_score) == (
            local_game.result,
            local_game.x_score,
            local_game.o_score,
        )
        assert _moves(ray_game.record) == _moves(local_game.record)


def _moves(record: str) -> list[str]:
    from adjacency.core.record import game_from_text

    return [m.square for m in game_from_text(record).moves]


def test_misbehaving_bots_in_ray_workers_are_recorded_losses(
    ray_cluster: Any, tmp_path: Path
) -> None:
    faulty = ["sleepy", "random", "occupied", "random", "raiser", "random", "hang", "random"]
    expected = {
        "sleepy": "time forfeit",
        "occupied": "illegal move",
        "raiser": "disconnection",
        "hang": "time forfeit",
    }
    settings = RunSettings(rounds=(4,), games=2, time=1.0, margin=0.1)  # no correct bot runs out
    with Store(tmp_path / "faults.db") as store:
        run_id = create_run(store, "pairs", faulty, settings, "faults", factory)
        with RayExecutor() as executor:
            report = execute(store, run_id, executor, factory=factory)
        games = store.games(run_id)
    assert report.status == "finished" and report.stored == 8
    for game in games:
        assert game.termination == expected[game.a]
        assert game.loser == game.a


def test_a_node_that_dies_mid_run_loses_no_game_and_duplicates_none(
    ray_cluster: Any, tmp_path: Path
) -> None:
    extra = ray_cluster.add_node(num_cpus=1, object_store_memory=80 * 1024 * 1024)
    ray_cluster.wait_for_nodes()
    settings = RunSettings(rounds=(8,), games=24, time=1.0, random_plies=2, seed=9)
    stored_on_extra = threading.Event()

    arrivals: list[float] = []

    def watch(result: Any) -> None:
        arrivals.append(time.monotonic())
        if result.node == extra.node_id:
            stored_on_extra.set()

    removed: list[float] = []

    def remove_when_busy() -> None:
        stored_on_extra.wait(timeout=120)
        ray_cluster.remove_node(extra, allow_graceful=False)  # like a machine that vanished
        removed.append(time.monotonic())

    with Store(tmp_path / "node-death.db") as store:
        run_id = create_run(store, "match", ["slow", "slow2"], settings, "node death", factory)
        killer = threading.Thread(target=remove_when_busy, daemon=True)
        killer.start()
        with RayExecutor() as executor:
            report = execute(store, run_id, executor, on_result=watch, factory=factory)
        killer.join(timeout=60)
        games = store.games(run_id)
        rows = store.db.execute("SELECT COUNT(*), COUNT(DISTINCT idx) FROM games").fetchone()
    assert removed, "the extra node was never removed"
    assert report.status == "finished" and report.stored == report.planned == 24
    assert rows == (24, 24)
    assert [g.idx for g in games] == list(range(24))  # each planned game exactly once
    on_extra = [g for g in games if g.node == extra.node_id]
    assert on_extra  # some games finished there before it died, and were kept
    after = [t for t in arrivals if t > removed[0]]
    assert after  # the run went on without the node (its in-flight games re-ran elsewhere)


def test_a_node_running_other_code_is_refused_before_the_first_game(
    ray_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ray_backend, "fingerprint", lambda: "0.0.0+other")
    with RayExecutor() as executor, pytest.raises(ExecutorUnavailable, match="runs adjacency"):
        list(executor.map_unordered(square, [1]))


def test_the_cli_joins_a_cluster_and_the_report_shows_games_per_node(
    ray_cluster: Any, tmp_path: Path
) -> None:
    db = tmp_path / "cli.db"
    env = dict(os.environ)
    common = ["--rounds", "4", "--time", "0", "--depth", "1", "--random-plies", "2"]
    played = subprocess.run(
        [sys.executable, "-m", "adjacency", "tournament", "random", "greedy", "minimax:depth=1",
         "--games", "4", *common, "--db", str(db), "--executor", "ray",
         "--ray-address", ray_cluster.address, "--quiet"],
        capture_output=True, text=True, timeout=180, env=env,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "12 of 12 planned games stored" in played.stdout
    report = subprocess.run(
        [sys.executable, "-m", "adjacency", "report", str(db), "--no-report", "--nodes"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    with Store(db) as store:
        nodes = {g.node for g in store.games()}
    assert len(nodes) >= 2
    for node in nodes:
        assert node[:12] in report.stdout


def test_kill_9_of_a_driver_leaves_no_private_ray_process(tmp_path: Path) -> None:
    """A private runtime (``--executor ray``, no address) plays quietly: Ray picks token
    authentication for it and would warn that it did, but the executor names the mode
    itself, so nothing about authentication is printed by the time games are stored (Ray
    warns at ``ray.init``). Its driver killed with ``kill -9`` leaves none of its
    processes behind."""
    from adjacency.workers.reaper import _same, descendants

    db = tmp_path / "private.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(tmp_path), RAY_USAGE_STATS_ENABLED="0")  # no saved token, no mode
    with (tmp_path / "stderr.txt").open("w+") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "adjacency", "match", "random", "greedy", "--games", "100000",
             "--rounds", "28", "--random-plies", "2", "--db", str(db), "--quiet",
             "--executor", "ray", "-j", "1"],
            stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True, env=env,
        )  # fmt: skip
    deadline = time.monotonic() + 120
    while stored_games(db) < 3 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    printed = (tmp_path / "stderr.txt").read_text(errors="replace")
    assert process.poll() is None and stored_games(db) >= 3, printed
    assert "authentication" not in printed.lower(), printed
    tree = descendants(process.pid)
    assert len(tree) >= 5  # GCS, raylet, agents, workers, the watchdog
    process.kill()  # SIGKILL: the driver cannot shut Ray down itself
    process.wait(timeout=10)
    deadline = time.monotonic() + 15
    while any(_same(*p) for p in tree) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid, start in tree if _same(pid, start)], "Ray processes outlived it"


def test_a_tuning_batch_on_the_cluster_equals_the_local_one(ray_cluster: Any) -> None:
    from adjacency.tuning.spsa import Schedule, parse_param, run_batch

    params = [parse_param("depth=1,1,4,1,0.1", "alphabeta")]
    schedule = Schedule(pairs=8, big_a=0.8)
    settings = RunSettings(rows=6, cols=6, rounds=(6,), games=16, time=None, random_plies=2)
    args = ("alphabeta", params, schedule, settings, (1.0,), 0, 0, 4)
    with RayExecutor() as executor:
        remote = run_batch(executor, *args)
    local = run_batch(SerialExecutor(), *args)
    assert remote == local  # same games, same step
    assert remote.wins + remote.draws + remote.losses == 8
