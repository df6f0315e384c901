"""Nodes per second of the pattern evaluation (profile v4) against the learned one (v3).

Both profiles search the same positions, alternately, (28-round 8x8 games, where both use their
trained evaluation: 9 to 40 plies left after random play from the start) to the same
fixed depth, each position from an empty table; the script prints each profile's
nodes, seconds and nodes per second, and the ratio v4 / v3. The trees differ (other
values, other cut-offs), so compare nodes per second, not nodes. It also times the
static evaluation alone (``evaluate`` called in a compiled loop over the positions,
nanoseconds per call). Run it on a quiet machine (or under ``nice -n 19`` and say so):

    python benchmarks/bench_engine_patterns.py --positions 40 --depth 7
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numba
import numpy as np

from adjacency.core.position import Position
from adjacency.engine import Engine, warmup
from adjacency.engine.kernels.evaluate import evaluate

REPEAT = 200


@numba.njit(cache=False)
def evaluate_all(me: Any, opp: Any, plies: Any, U: Any, S: Any) -> int:
    """Evaluate every position ``REPEAT`` times; the sum keeps the calls alive."""
    total = 0
    for _ in range(REPEAT):
        for i in range(len(me)):
            total += evaluate(me[i], opp[i], plies[i], U, S)
    return total


def sample(count: int, seed: int) -> list[Position]:
    """``count`` positions of 28-round games after 16 to 47 random plies."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.start(8, 8, 28)
        for _ in range(rng.randint(16, 47)):
            position = position.play(rng.choice(position.legal_squares()))
        found.append(position)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warmup()
    positions = sample(args.positions, args.seed)
    engines = {p: Engine(tt_mb=16, profile=p, threads=1) for p in ("v3", "v4")}
    totals = {p: [0, 0.0] for p in engines}
    for engine in engines.values():
        engine.search(positions[0], depth=3)  # compile and load outside the clock
    for position in positions:  # alternate the profiles, so that load changes hit both
        for name, engine in engines.items():
            engine.clear()
            started = time.perf_counter()
            engine.search(position, depth=args.depth)
            totals[name][1] += time.perf_counter() - started
            totals[name][0] += engine.nodes
    result: dict[str, dict[str, float]] = {
        name: {"nodes": nodes, "seconds": round(seconds, 2), "nps": round(nodes / seconds)}
        for name, (nodes, seconds) in totals.items()
    }
    me = np.array([p.mover for p in positions], dtype=np.uint64)
    opp = np.array([p.opponent for p in positions], dtype=np.uint64)
    plies = np.array([p.plies_left for p in positions], dtype=np.int64)
    for name, engine in engines.items():
        evaluate_all(me, opp, plies, engine.U, engine.S)  # compile outside the clock
        started = time.perf_counter()
        evaluate_all(me, opp, plies, engine.U, engine.S)
        elapsed = time.perf_counter() - started
        result[name]["eval_ns"] = round(elapsed / (REPEAT * len(positions)) * 1e9, 1)
    ratio = result["v4"]["nps"] / result["v3"]["nps"]
    print(json.dumps({**result, "nps_ratio_v4_v3": round(ratio, 3)}))


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
