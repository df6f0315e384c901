"""Exact-solve times side by side: version one's solver against the new one, 1 and 2 threads.

Positions are reproducible: self-play games of the engine (seeded random first plies,
then depth-4 moves of the frozen v1 profile), stopped at the wanted number of plies
left. Every solver of ``--solvers`` (``PROFILE:THREADS``, the first is the reference)
solves every position from a cold table, in the same run; per group the script prints
one row per solver with the median and maximum wall seconds, the median CPU seconds
(all threads of the process), the median nodes and the medians' ratios to the
reference, and checks that every solver found the same values.
``--depth-from-start D`` also times an iterative search from the 8x8 start to depth D.
Wall times (and so the thread speed-up) mean something only on an otherwise idle
machine with a free core per thread; node counts and CPU seconds are stable under load.

    python benchmarks/bench_engine_solve.py                # 16/18/20 empties, 13-ply probe
    python benchmarks/bench_engine_solve.py --quick        # three positions a group, no 20s
    python benchmarks/bench_engine_solve.py --groups 28:18:exact --positions 5 \\
        --solvers v1:1,v4:1,v4:2 --depth-from-start 12
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from adjacency.core.position import Position
from adjacency.engine import Engine, warmup

GROUPS = "28:16:exact,28:18:exact,28:20:exact,8:13:wld"
QUICK_GROUPS = "28:16:exact,28:18:exact,8:11:wld"


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


def cpu_seconds() -> float:
    """User and system CPU seconds of this process so far (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", default=None, help="ROUNDS:PLIES_LEFT:exact|wld, ...")
    parser.add_argument("--positions", type=int, default=None, help="per group (default 5)")
    parser.add_argument(
        "--solvers", default="v1:1,v4:1,v4:2", help="PROFILE:THREADS, ...; the first is the base"
    )
    parser.add_argument("--tt", type=float, default=64.0)
    parser.add_argument("--depth-from-start", type=int, default=0)
    parser.add_argument(
        "--quick", action="store_true", help=f"groups {QUICK_GROUPS}, 3 positions each"
    )
    args = parser.parse_args()
    groups = args.groups or (QUICK_GROUPS if args.quick else GROUPS)
    count = args.positions or (3 if args.quick else 5)
    solvers = [(spec.split(":")[0], int(spec.split(":")[1])) for spec in args.solvers.split(",")]
    warmup()
    if args.depth_from_start:
        for profile, threads in solvers:
            engine = Engine(tt_mb=args.tt, profile=profile, threads=threads)
            started = time.perf_counter()
            result = engine.search(Position.start(), depth=args.depth_from_start)
            seconds = time.perf_counter() - started
            print(
                f"start depth {result.depth}, {profile} {threads} thread(s): {seconds:.2f} s, "
                f"{engine.nodes:,} nodes",
                flush=True,
            )
    for group in groups.split(","):
        rounds, plies, kind = group.split(":")
        positions = [endgame(int(rounds), int(plies), seed) for seed in range(count)]
        print(f"{rounds} rounds, {plies} plies left, {kind}, {count} positions", flush=True)
        base: tuple[float, float, float] | None = None
        reference: list[int] | None = None
        for profile, threads in solvers:
            walls, cpus, nodes, values = [], [], [], []
            for position in positions:
                engine = Engine(tt_mb=args.tt, profile=profile, threads=threads)
                cpu, started = cpu_seconds(), time.perf_counter()
                solved = engine.solve(position, wld=kind == "wld")
                walls.append(time.perf_counter() - started)
                cpus.append(cpu_seconds() - cpu)
                nodes.append(engine.nodes)
                values.append(solved.value)
            medians = (statistics.median(walls), statistics.median(cpus), statistics.median(nodes))
            base = base or medians
            reference = reference or values
            ratios = "/".join(
                f"{m / b:.2f}" if b else "-" for m, b in zip(medians, base, strict=True)
            )
            print(
                f"  {profile} {threads} thread(s): wall median {medians[0]:.2f} s "
                f"(max {max(walls):.2f}), CPU median {medians[1]:.2f} s, "
                f"nodes median {medians[2] / 1e6:.1f} M; wall/CPU/nodes vs base {ratios}; "
                f"values {values}{'' if values == reference else '  VALUES DIFFER'}",
                flush=True,
            )


if __name__ == "__main__":
    main()
