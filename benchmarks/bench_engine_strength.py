"""Engine strength: a match of the ``engine`` bot against another bot, colours swapped.

Each opening (two seeded random plies from the start, so that deterministic bots
play different games) is played twice, once with each colour, for every number
of rounds given. Prints one line per game and the engine's score (win 1, draw 1/2).

    python benchmarks/bench_engine_strength.py --games 40 --time 1 \
        --opponent alphabeta:depth=6 --rounds 8,28

Long: run it in the background (``nohup ... > strength.log &``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from adjacency.bots import Limit, make_bot
from adjacency.bots.referee import play_game
from adjacency.core import Position


def opening(rng: random.Random, rounds: int) -> Position:
    position = Position.start(8, 8, rounds)
    for _ in range(2):
        position = position.play(rng.choice(position.legal_squares()))
    return position


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="engine", help="engine spec (default engine)")
    parser.add_argument("--opponent", default="alphabeta:depth=6", help="opponent spec")
    parser.add_argument("--games", type=int, default=40, help="games in total (even)")
    parser.add_argument("--time", type=float, default=1.0, help="engine seconds per move")
    parser.add_argument(
        "--opponent-time",
        type=float,
        default=None,
        help="opponent seconds per move (default: no limit)",
    )
    parser.add_argument("--rounds", default="8,28", help="comma-separated round counts")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rounds_list = [int(r) for r in args.rounds.split(",")]
    rng = random.Random(args.seed)
    engine = make_bot(args.engine, seed=1)
    opponent = make_bot(args.opponent, seed=2)
    score = 0.0
    played = 0
    pairs = max(1, args.games // (2 * len(rounds_list)))
    for rounds in rounds_list:
        for _ in range(pairs):
            start = opening(rng, rounds)
            for engine_is_x in (True, False):
                x_bot, o_bot = (engine, opponent) if engine_is_x else (opponent, engine)
                began = time.monotonic()
                # Each side gets its own budget: the referee's limit is the larger; the engine
                # keeps to its own through the time option.
                game = play_game(
                    x_bot,
                    o_bot,
                    start,
                    Limit(time=max(args.time, args.opponent_time or 1e6)),
                    margin=1.0,
                )
                engine_color = "x" if engine_is_x else "o"
                points = (
                    1.0 if game.result == engine_color else 0.5 if game.result == "draw" else 0.0
                )
                score += points
                played += 1
                x, o = game.position.score
                print(
                    f"rounds {rounds:>2} engine={engine_color} result={game.result} "
                    f"score {x}-{o} ({game.termination.value}) {time.monotonic() - began:.0f}s "
                    f"running {score}/{played}",
                    flush=True,
                )
    print(
        f"engine {args.engine} (time {args.time}) vs {args.opponent}: "
        f"{score}/{played} = {100 * score / played:.1f}%"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
