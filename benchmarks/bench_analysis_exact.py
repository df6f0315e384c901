"""The analysis board's exact result: time to the value and to every move checked.

For ``--positions`` positions with ``--plies`` plies left (the solve suite's
``position_sets.suite_position(28, plies, seed)``, seeds 0 upward), side by side in
one run, each with a fresh engine:

* **every move solved** (the analysis's first method): one exact solve per move
  on one thread, 16 MB table;
* **value alone**: one exact solve of the position on the analysis engine
  (:data:`adjacency.web.analysis.THREADS` threads, 64 MB);
* **value and every move checked**: :func:`adjacency.web.analysis.exact_result`
  (the solve, then one null-window probe per other move).

Both ways must agree on the value and the moves that keep it (checked).

    python benchmarks/bench_analysis_exact.py --positions 20 --plies 18
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench_engine_solve import cpu_seconds  # this folder is on the path as a script
from position_sets import suite_position

from adjacency.core import Position
from adjacency.engine import Engine, warmup
from adjacency.web.analysis import TABLE_MB, THREADS, Stopper, exact_result


def every_move_solved(position: Position) -> tuple[int, list[str]]:
    """The old way: every move's child solved exactly on one thread."""
    engine = Engine(tt_mb=16, threads=1)
    mover = position.turn
    values = {}
    for move in position.legal_moves():
        child = position.play(move)
        values[move] = child.margin(mover) if child.is_over else -engine.solve(child).value
    best = max(values.values())
    return best, sorted(m for m, v in values.items() if v == best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--plies", type=int, default=18)
    args = parser.parse_args()
    warmup()
    old_wall, value_wall, new_wall, new_cpu = [], [], [], []
    for seed in range(args.positions):
        position = suite_position(28, args.plies, seed)
        started = time.monotonic()
        value, keeps = every_move_solved(position)
        old_wall.append(time.monotonic() - started)
        started = time.monotonic()
        alone = Engine(tt_mb=TABLE_MB, threads=THREADS).solve(position)
        value_wall.append(time.monotonic() - started)
        started, cpu = time.monotonic(), cpu_seconds()
        found = exact_result(Engine(tt_mb=TABLE_MB, threads=THREADS), position, 600.0, Stopper())
        new_wall.append(time.monotonic() - started)
        new_cpu.append(cpu_seconds() - cpu)
        assert found is not None and found[2]
        assert (found[0], sorted(found[1])) == (value, keeps) == (alone.value, keeps)
        print(
            f"{seed:3d}: value {value:+d}, {len(keeps)} keep it; every move solved "
            f"{old_wall[-1]:.2f} s; value alone {value_wall[-1]:.2f} s; value and every "
            f"move checked {new_wall[-1]:.2f} s ({new_cpu[-1]:.2f} s CPU)",
            flush=True,
        )
    for name, times in (
        ("every move solved", old_wall),
        ("value alone", value_wall),
        ("value and every move checked", new_wall),
    ):
        within = sum(t <= 2.0 for t in times)
        print(
            f"{name}: median {statistics.median(times):.2f} s, max {max(times):.2f} s, "
            f"{within} of {len(times)} within 2 s"
        )
    print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
