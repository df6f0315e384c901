"""Exact-solve times side by side: version one's solver against the new one, 1 and 2 threads.

Positions come from the sets of :mod:`position_sets` (``--sets``, default all three): the
fixed self-play suite, games played at run time between two fixed bots, and uniformly random
play, each stopped at the wanted number of plies left; ``--seed`` (default: the current
time, printed) draws the fresh sets. Every solver of ``--solvers`` (``PROFILE:THREADS``, the
first is the reference) solves every position from a cold table, in the same run; per group
the script prints one row per solver with the median and maximum wall seconds, the median
CPU seconds (all threads of the process), the median nodes and the medians' ratios to the
reference, each position's nodes (an outlier shows there, not in the medians), and checks
that every solver found the same values. ``PROFILE:THREADS:FLOOR`` fixes the fewest plies
left of a split node (``Engine.split_floor``; 9 is the split solver's first floor).
``--depth-from-start D`` also times an iterative search from the 8x8 start to depth D.
Wall times (and so the thread speed-up) mean something only on an otherwise idle
machine with a free core per thread; node counts and CPU seconds are stable under load.

    python benchmarks/bench_engine_solve.py                # 16/18/20 empties, 13-ply probe
    python benchmarks/bench_engine_solve.py --quick        # three game positions a group, no 20s
    python benchmarks/bench_engine_solve.py --sets games --seed 1763890000   # repeat a run
    python benchmarks/bench_engine_solve.py --groups 28:18:exact --positions 5 \\
        --solvers v1:1,v4:1,v4:2 --depth-from-start 12
    python benchmarks/bench_engine_solve.py --solvers v1:1,v4:2,v4:2:9   # split floor 9
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from position_sets import SETS, default_seed, describe, draw  # this folder is on the path

from adjacency.core.position import Position
from adjacency.engine import Engine, warmup

GROUPS = "28:16:exact,28:18:exact,28:20:exact,8:13:wld"
QUICK_GROUPS = "28:16:exact,28:18:exact,8:11:wld"


def cpu_seconds() -> float:
    """User and system CPU seconds of this process so far (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def solver_spec(spec: str) -> tuple[str, int, int | None]:
    """``PROFILE:THREADS`` or ``PROFILE:THREADS:FLOOR``: the profile, the threads and the
    fewest plies left of a split node (``Engine.split_floor``; ``None``: chosen per root)."""
    parts = spec.split(":")
    return parts[0], int(parts[1]), int(parts[2]) if len(parts) > 2 else None


def label(profile: str, threads: int, floor: int | None) -> str:
    return f"{profile} {threads} thread(s)" + ("" if floor is None else f", split floor {floor}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", default=None, help="ROUNDS:PLIES_LEFT:exact|wld, ...")
    parser.add_argument("--positions", type=int, default=None, help="per group (default 5)")
    parser.add_argument(
        "--solvers",
        default="v1:1,v4:1,v4:2",
        help="PROFILE:THREADS[:SPLIT_FLOOR], ...; the first is the base",
    )
    parser.add_argument("--tt", type=float, default=64.0)
    parser.add_argument("--depth-from-start", type=int, default=0)
    parser.add_argument(
        "--quick", action="store_true", help=f"groups {QUICK_GROUPS}, 3 game positions each"
    )
    parser.add_argument(
        "--sets", default=None, help=f"position sets, of {', '.join(SETS)} (default all)"
    )
    parser.add_argument("--seed", type=int, default=None, help="of the fresh sets (default: now)")
    args = parser.parse_args()
    sets = (args.sets or ("games" if args.quick else ",".join(SETS))).split(",")
    if unknown := [name for name in sets if name not in SETS]:
        parser.error(f"--sets: unknown {', '.join(unknown)}; choose from {', '.join(SETS)}")
    seed = default_seed() if args.seed is None else args.seed
    groups = args.groups or (QUICK_GROUPS if args.quick else GROUPS)
    count = args.positions or (3 if args.quick else 5)
    solvers = [solver_spec(spec) for spec in args.solvers.split(",")]
    warmup()
    if args.depth_from_start:
        for profile, threads, _ in solvers:
            engine = Engine(tt_mb=args.tt, profile=profile, threads=threads)
            started = time.perf_counter()
            result = engine.search(Position.start(), depth=args.depth_from_start)
            seconds = time.perf_counter() - started
            print(
                f"start depth {result.depth}, {profile} {threads} thread(s): {seconds:.2f} s, "
                f"{engine.nodes:,} nodes",
                flush=True,
            )
    for name in sets:
        print(describe(name, seed), flush=True)
        for group in groups.split(","):
            solve_group(name, group, count, seed, solvers, args.tt)


def solve_group(
    name: str,
    group: str,
    count: int,
    seed: int,
    solvers: list[tuple[str, int, int | None]],
    tt: float,
) -> None:
    """One group of one set: every solver on the same positions, one row each."""
    rounds, plies, kind = group.split(":")
    positions = draw(name, int(rounds), int(plies), count, seed)
    print(
        f"[{name}] {rounds} rounds, {plies} plies left, {kind}, {count} positions",
        flush=True,
    )
    base: tuple[float, float, float] | None = None
    reference: list[int] | None = None
    for profile, threads, floor in solvers:
        walls, cpus, nodes, values = [], [], [], []
        for position in positions:
            engine = Engine(tt_mb=tt, profile=profile, threads=threads)
            engine.split_floor = floor
            cpu, started = cpu_seconds(), time.perf_counter()
            solved = engine.solve(position, wld=kind == "wld")
            walls.append(time.perf_counter() - started)
            cpus.append(cpu_seconds() - cpu)
            nodes.append(engine.nodes)
            values.append(solved.value)
        medians = (statistics.median(walls), statistics.median(cpus), statistics.median(nodes))
        base = base or medians
        reference = reference or values
        ratios = "/".join(f"{m / b:.2f}" if b else "-" for m, b in zip(medians, base, strict=True))
        print(
            f"  {label(profile, threads, floor)}: wall median {medians[0]:.2f} s "
            f"(max {max(walls):.2f}), CPU median {medians[1]:.2f} s, "
            f"nodes median {medians[2] / 1e6:.1f} M; wall/CPU/nodes vs base {ratios}; "
            f"values {values}{'' if values == reference else '  VALUES DIFFER'}; "
            f"nodes (M) {[round(n / 1e6, 1) for n in nodes]}",
            flush=True,
        )


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
