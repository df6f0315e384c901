"""What the sharded training-data job (``train-eval --data``) costs per labelled position.

Plays ``--games`` games as the job does (:func:`adjacency.training.dataset.shard_positions`,
default players and openings, every position kept) and labels each position alone
with :func:`adjacency.training.fit.label_positions` (a depth-``--depth`` v1 search, or
the exact solver with at most ``--exact-plies`` left), timing each label in CPU seconds
of this process (one core; the engine searches with one thread) and in wall seconds.
The fixed cost of a ``label_positions`` call (its engine's table) is measured apart and
subtracted. It prints, as JSON: the self-play cost, the search labels' rate per core,
the exact labels' mean cost per plies left, and for each exact-plies limit the mean
cost of a position of the job's mix (28-round games: about one position per plies
left from 56 down to 2, as many kept of each with ``--sample``) with the CPU-hours that
5 million positions would take, and the wall hours on 2 and on 16 cores (shards run one
per core and share nothing, so the job scales with the cores). CPU time is less
disturbed by other processes than wall time, but not immune: give the load with it.

    python benchmarks/bench_training_data.py --games 3 --exact-plies 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict

from adjacency.engine import warmup
from adjacency.training.dataset import JobSettings, ShardTask, shard_positions
from adjacency.training.fit import label_positions

TARGET = 5_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--exact-plies", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warmup()
    settings = JobSettings(
        seed=args.seed, shards=args.games, shard_games=1, sample=1.0,
        depth=args.depth, exact_plies=args.exact_plies,
    )  # fmt: skip
    started = time.process_time()
    positions = [p for i in range(args.games) for p in shard_positions(ShardTask(settings, i))[0]]
    play = (time.process_time() - started) / len(positions)
    overhead = min(_timed(lambda: label_positions([]))[0] for _ in range(5))
    search: list[float] = []
    exact: dict[int, list[float]] = defaultdict(list)
    wall = 0.0
    for position in positions:
        cpu, seconds = _timed(
            lambda p=position: label_positions([p], args.depth, args.exact_plies)  # type: ignore[misc]
        )
        wall += seconds
        cost = max(cpu - overhead, 0.0)
        if position.plies_left <= args.exact_plies:
            exact[position.plies_left].append(cost)
        else:
            search.append(cost)
    per_plies = {p: statistics.mean(exact[p]) for p in sorted(exact)}
    search_cost = statistics.mean(search)
    mix = {}
    for limit in sorted({8, 12, 14, 16, 18, args.exact_plies}):
        if limit > args.exact_plies:
            continue
        costs = [per_plies.get(p, search_cost) if p <= limit else search_cost for p in range(2, 57)]
        mean = statistics.mean(costs) + play / 0.5  # self-play of the positions not kept too
        hours = TARGET * mean / 3600
        mix[limit] = {
            "cpu_s_per_position": round(mean, 4),
            "positions_per_s_per_core": round(1 / mean, 1),
            "cpu_hours_5M": round(hours, 1),
            "wall_hours_5M_2_cores": round(hours / 2, 1),
            "wall_hours_5M_16_cores": round(hours / 16, 1),
        }
    print(json.dumps({
        "positions": len(positions),
        "self_play_cpu_s_per_position": round(play, 5),
        "search_labels": len(search),
        "search_positions_per_s_per_core": round(1 / search_cost, 1),
        "exact_labels": sum(len(v) for v in exact.values()),
        "exact_cpu_s_by_plies_left": {p: round(c, 4) for p, c in per_plies.items()},
        "exact_positions_per_s_per_core": round(
            sum(len(v) for v in exact.values()) / sum(sum(v) for v in exact.values()), 1
        ),
        "label_wall_s": round(wall, 1),
        "job_mix_sample_0.5_by_exact_plies": mix,
    }, indent=1))  # fmt: skip


def _timed(call: object) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.monotonic()
    call()  # type: ignore[operator]
    return time.process_time() - cpu, time.monotonic() - wall


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
