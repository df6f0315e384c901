"""Benchmark of the arena: games per second, random vs greedy, 8x8, 28 rounds.

Runs the real path (schedule -> process-pool executor -> SQLite commit per game)
with concurrency 1 and 2 and reports games per second, the scaling ratio, and
the parent process's CPU time per game (to show whether it is the bottleneck).
Each measurement starts a fresh pool and first plays a warm-up batch (worker
start-up and imports are excluded from the timing). Results vary with the load
from other processes: a 2-core machine shared with other work cannot scale 2x.

Run: ``.venv/bin/python benchmarks/bench_arena.py [--games 400] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from adjacency.arena.runner import create_run, execute
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store
from adjacency.workers import PoolExecutor


def games_per_second(concurrency: int, games: int, seed: int) -> tuple[float, float]:
    """(games per second, parent CPU ms per game) of random-vs-greedy games, after a warm-up."""
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        warm = create_run(store, "match", ["random", "greedy"], RunSettings(games=4 * concurrency))
        settings = RunSettings(rounds=(28,), games=games, time=5.0, seed=seed)
        run_id = create_run(store, "match", ["random", "greedy"], settings)
        with PoolExecutor(concurrency) as executor:
            execute(store, warm, executor)
            began, cpu = time.perf_counter(), time.process_time()
            report = execute(store, run_id, executor)
            elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
        assert report.stored == games
    return games / elapsed, 1000 * cpu / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per measurement (even)")
    parser.add_argument("--repeat", type=int, default=3, help="measurements per concurrency")
    args = parser.parse_args()
    print(f"random vs greedy, 8x8, 28 rounds, {args.games} games, cores: {os.cpu_count()}")
    rates: dict[int, float] = {}
    for concurrency in (1, 2):
        runs = [games_per_second(concurrency, args.games, seed) for seed in range(args.repeat)]
        rates[concurrency] = statistics.median(r for r, _ in runs)
        spread = ", ".join(f"{r:.1f}" for r, _ in runs)
        parent = statistics.median(c for _, c in runs)
        print(
            f"concurrency {concurrency}: {rates[concurrency]:.1f} games/s (median of {spread}); "
            f"parent process {parent:.2f} ms CPU per game"
        )
    print(f"scaling ratio (2 vs 1): {rates[2] / rates[1]:.2f}")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
