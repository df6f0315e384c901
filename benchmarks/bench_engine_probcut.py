"""How well a shallow search predicts a deeper one: the data behind ProbCut's margin.

ProbCut (``engine:probcut=m``, :mod:`adjacency.engine.kernels.search`) cuts a node of depth
``d`` when a search of depth ``d - PROBCUT_REDUCTION`` is at least ``m`` above beta
(or below alpha). ``m`` should be about two standard deviations of
``value(d) - value(d - PROBCUT_REDUCTION)``. This script samples positions from
self-play games of the engine (random first plies, then depth-``--play-depth``
moves), searches each at both depths without ProbCut, and prints the mean and
standard deviation of the difference, and the fraction of positions where it exceeds
candidate margins, per depth and game phase.

    python benchmarks/bench_engine_probcut.py --positions 200 --depths 6,8,10
"""

from __future__ import annotations

import argparse
import random
import statistics

from adjacency.core.position import Position
from adjacency.engine import Engine, warmup
from adjacency.engine.kernels.layout import SCALE
from adjacency.engine.kernels.search import PROBCUT_REDUCTION


def positions(count: int, rounds: int, play_depth: int, seed: int, profile: str) -> list[Position]:
    """``count`` positions from self-play games of ``rounds`` rounds: four random plies,
    then the engine's depth-``play_depth`` moves; every position of every game is kept
    until ``count`` is reached, skipping the last 16 plies (the solver's range)."""
    engine = Engine(tt_mb=16, profile=profile, probcut=0)
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.start(rounds=rounds)
        for _ in range(4):
            position = position.play(rng.choice(position.legal_squares()))
        engine.clear()
        while position.plies_left > 16 and len(found) < count:
            found.append(position)
            position = position.play(engine.search(position, depth=play_depth).move)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=28)
    parser.add_argument("--depths", default="6,8,10", help="deep depths, comma-separated")
    parser.add_argument("--play-depth", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", default="v1", help="engine profile (the figures in docs/engine.md: v1)"
    )
    args = parser.parse_args()
    warmup()
    sample = positions(args.positions, args.rounds, args.play_depth, args.seed, args.profile)
    engine = Engine(tt_mb=64, profile=args.profile, probcut=0)
    margins = (8, 12, 16, 24, 32)
    print(f"{len(sample)} positions of {args.rounds}-round games; differences in 1/{SCALE} piece")
    print("depth  shallow  mean   stdev  " + "  ".join(f"|d|>{m}" for m in margins))
    for deep in (int(d) for d in args.depths.split(",")):
        shallow = deep - PROBCUT_REDUCTION
        diffs = []
        for position in sample:
            engine.clear()
            low = engine.search(position, depth=shallow).value
            engine.clear()
            high = engine.search(position, depth=deep).value
            diffs.append(round((high - low) * SCALE))
        spread = statistics.pstdev(diffs)
        tails = "  ".join(f"{sum(abs(d) > m for d in diffs) / len(diffs):6.1%}" for m in margins)
        print(f"{deep:5}  {shallow:7}  {statistics.mean(diffs):5.1f}  {spread:6.1f}  {tails}")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
