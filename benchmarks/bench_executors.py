"""Benchmark of the executors: local pool vs Ray, games per second, task overhead, split solve.

Measures, on the real path (schedule -> executor -> one SQLite commit per game):

- ``games``: games per second with the local pool (1 and 2 processes) and with
  Ray on a ``ray.cluster_utils.Cluster`` of 1 and 2 one-CPU worker nodes (the
  head has no CPU), for real games (``engine`` at ``--engine-time`` s a move
  against ``greedy``, 8x8, 28 rounds) and for ~2-ms games (random vs greedy,
  8x8, 28 rounds). Each measurement first plays a warm-up batch, so worker
  start-up and imports are excluded.
- ``overhead``: a no-op function through ``map_unordered`` on Ray (1 node):
  tasks per second and the per-task cost, next to the same on the local pool.
- ``solve``: an exact solve of an 8-round opening with ``--plies`` plies left,
  serial (one Engine) vs split over the local pool of 2 (and over Ray with 2
  nodes with ``--ray``), the workers started first by a small split solve.

Run: ``nice -n 5 .venv/bin/python benchmarks/bench_executors.py games|overhead|solve``.
Results vary with the load of other processes on the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from adjacency.arena.runner import create_run, execute
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store
from adjacency.workers import Executor, PoolExecutor

OBJECT_STORE = 80 * 1024 * 1024


@contextlib.contextmanager
def ray_cluster(nodes: int) -> Iterator[Any]:
    """A local cluster: a head without CPUs and ``nodes`` one-CPU worker nodes."""
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 0, "object_store_memory": OBJECT_STORE},
    )
    for _ in range(nodes):
        cluster.add_node(num_cpus=1, object_store_memory=OBJECT_STORE)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level=logging.WARNING, log_to_driver=False)
    try:
        yield cluster
    finally:
        ray.shutdown()  # type: ignore[no-untyped-call]
        cluster.shutdown()  # type: ignore[no-untyped-call]


@contextlib.contextmanager
def executor_for(kind: str, workers: int) -> Iterator[Executor]:
    if kind == "local":
        with PoolExecutor(workers) as executor:
            yield executor
        return
    from adjacency.workers.ray_cluster import RayExecutor

    with ray_cluster(workers), RayExecutor() as executor:
        yield executor


def rate(
    executor: Executor, players: list[str], settings: RunSettings, warm: int
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        warm_run = create_run(store, "match", players, RunSettings(
            rows=settings.rows, cols=settings.cols, rounds=settings.rounds, games=warm,
            time=settings.time, random_plies=2, seed=99,
        ))  # fmt: skip
        execute(store, warm_run, executor)
        run_id = create_run(store, "match", players, settings)
        began, cpu = time.perf_counter(), time.process_time()
        report = execute(store, run_id, executor)
        elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
        games = store.games(run_id)
    assert report.stored == settings.games
    return {
        "games": settings.games,
        "seconds": round(elapsed, 2),
        "games_per_s": round(settings.games / elapsed, 2),
        "driver_cpu_ms_per_game": round(1000 * cpu / settings.games, 2),
        "game_ms": round(1000 * sum(g.seconds for g in games) / len(games), 2),
        "nodes": len({g.node for g in games}),
    }


def bench_games(args: argparse.Namespace) -> None:
    loads = {
        "real": (["engine", "greedy"], RunSettings(rounds=(28,), games=args.real_games,
                                                 time=args.engine_time, random_plies=2)),
        "2ms": (["random", "greedy"], RunSettings(rounds=(28,), games=args.fast_games, time=5.0,
                                                random_plies=2)),
    }  # fmt: skip
    for kind in ("local", "ray"):
        for workers in (1, 2):
            with executor_for(kind, workers) as executor:
                for load, (players, settings) in loads.items():
                    line = rate(executor, players, settings, warm=4 * workers)
                    print(json.dumps({"executor": kind, "workers": workers, "load": load, **line}))


def _noop(value: int) -> int:
    return value


def bench_overhead(args: argparse.Namespace) -> None:
    for kind in ("local", "ray"):
        with executor_for(kind, 1) as executor:
            list(executor.map_unordered(_noop, range(50)))  # warm-up
            began = time.perf_counter()
            list(executor.map_unordered(_noop, range(args.tasks)))
            elapsed = time.perf_counter() - began
            latency = []
            for i in range(20):
                t = time.perf_counter()
                list(executor.map_unordered(_noop, [i]))
                latency.append(time.perf_counter() - t)
        print(json.dumps({
            "executor": kind, "tasks": args.tasks, "tasks_per_s": round(args.tasks / elapsed),
            "ms_per_task": round(1000 * elapsed / args.tasks, 3),
            "round_trip_ms": round(1000 * sorted(latency)[len(latency) // 2], 2),
        }))  # fmt: skip


def opening(plies_left: int) -> Any:
    """The 8-round start after ``16 - plies_left`` plies of a fixed central line (d4 e5 c5 ...)."""
    from adjacency.core import Position

    position = Position.start(8, 8, 8)
    for move in ("d4", "e5", "c5", "f4", "d6", "e3")[: 16 - plies_left]:
        position = position.play(move)
    return position


def bench_solve(args: argparse.Namespace) -> None:
    from adjacency.core import Position
    from adjacency.engine import Engine, warmup
    from adjacency.solving.split import split_solve

    position = opening(args.plies)
    warmup()
    print(json.dumps({"fen": position.fen(), "plies_left": position.plies_left}), flush=True)
    if not args.skip_serial:
        cpu = time.process_time()
        result = Engine(tt_mb=args.tt).solve(position, wld=args.wld)
        print(json.dumps({"how": "serial", "value": result.value, "best": result.best,
                          "nodes": result.nodes, "seconds": round(result.seconds, 2),
                          "cpu_seconds": round(time.process_time() - cpu, 2)}),
              flush=True)  # fmt: skip
    kinds = ["local"] + (["ray"] if args.ray else [])
    for kind in kinds:
        with executor_for(kind, 2) as executor:
            # Start the workers (spawn, imports, kernels from numba's cache, the table) on a
            # 4-ply solve first: its seconds are reported apart, as "warmup_seconds".
            warm = split_solve(Position.start(8, 8, 2), executor, tt_mb=args.tt)
            split = split_solve(position, executor, tt_mb=args.tt, wld=args.wld)
        print(json.dumps({"how": f"split {kind} x2", "value": split.value, "best": split.best,
                          "nodes": split.nodes, "seconds": round(split.seconds, 2),
                          "warmup_seconds": round(warm.seconds, 2), "tasks": len(split.tasks),
                          "task_seconds": round(sum(t.seconds for t in split.tasks), 2),
                          "task_cpu_seconds": round(sum(t.cpu_seconds for t in split.tasks), 2),
                          "exact_cpu_seconds": round(sum(t.cpu_seconds for t in split.tasks
                                                         if t.kind == "exact"), 2)}),
              flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="what", required=True)
    games = commands.add_parser("games")
    games.add_argument("--real-games", type=int, default=24)
    games.add_argument("--fast-games", type=int, default=2000)
    games.add_argument("--engine-time", type=float, default=0.05)
    games.set_defaults(run=bench_games)
    overhead = commands.add_parser("overhead")
    overhead.add_argument("--tasks", type=int, default=2000)
    overhead.set_defaults(run=bench_overhead)
    solve = commands.add_parser("solve")
    solve.add_argument("--plies", type=int, default=14)
    solve.add_argument("--tt", type=float, default=256)
    solve.add_argument("--ray", action="store_true")
    solve.add_argument("--wld", action="store_true", help="win/draw/loss solves only")
    solve.add_argument("--skip-serial", action="store_true")
    solve.set_defaults(run=bench_solve)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
