"""Exact-solve times and Lazy SMP speed-up: the issue's solve and threads targets.

Positions are reproducible: self-play games of the engine (seeded random first plies,
then depth-4 moves of the frozen v1 profile), stopped at the wanted number of plies
left. For each group the script solves every position from a cold table with 1 and
with 2 threads (``--threads``) and prints the median and maximum seconds and nodes;
``--depth-from-start D`` also times an iterative search from the 8x8 start to depth D.
Run it on an otherwise idle machine: the threads' speed-up is only visible with a
free core for each thread.

    python benchmarks/bench_engine_solve.py --groups 28:18:exact,28:20:exact,8:13:wld \
        --positions 5 --threads 1,2 --depth-from-start 12
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from adjacency.core.position import Position
from adjacency.engine import Engine, warmup


def endgame(rounds: int, plies_left: int, seed: int) -> Position:
    """A position of a ``rounds``-round self-play game with ``plies_left`` plies left."""
    rng = random.Random(f"solve:{rounds}:{plies_left}:{seed}")
    engine = Engine(tt_mb=8, profile="v1")
    position = Position.start(rounds=rounds)
    for _ in range(4):
        position = position.play(rng.choice(position.legal_squares()))
    while position.plies_left > plies_left:
        position = position.play(engine.search(position, depth=4).move)
    return position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--groups",
        default="28:18:exact,28:20:exact,8:13:wld",
        help="ROUNDS:PLIES_LEFT:exact|wld, comma-separated",
    )
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--profile", default="v1")
    parser.add_argument("--tt", type=float, default=64.0)
    parser.add_argument("--depth-from-start", type=int, default=0)
    args = parser.parse_args()
    warmup()
    threads = [int(t) for t in args.threads.split(",")]
    if args.depth_from_start:
        for count in threads:
            engine = Engine(tt_mb=args.tt, profile=args.profile, threads=count)
            started = time.perf_counter()
            result = engine.search(Position.start(), depth=args.depth_from_start)
            seconds = time.perf_counter() - started
            print(
                f"start depth {result.depth}, {count} thread(s): {seconds:.2f} s, "
                f"{engine.nodes:,} nodes",
                flush=True,
            )
    for group in args.groups.split(","):
        rounds, plies, kind = group.split(":")
        positions = [endgame(int(rounds), int(plies), seed) for seed in range(args.positions)]
        for count in threads:
            times, nodes, values = [], [], []
            for position in positions:
                engine = Engine(tt_mb=args.tt, profile=args.profile, threads=count)
                started = time.perf_counter()
                solved = engine.solve(position, wld=kind == "wld")
                times.append(time.perf_counter() - started)
                nodes.append(engine.nodes)
                values.append(solved.value)
            print(
                f"{rounds} rounds, {plies} plies left, {kind}, {count} thread(s): "
                f"median {statistics.median(times):.2f} s, max {max(times):.2f} s, "
                f"median {statistics.median(nodes) / 1e6:.1f} M nodes; values {values}; "
                f"seconds {[round(t, 2) for t in times]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
