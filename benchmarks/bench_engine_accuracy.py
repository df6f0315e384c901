"""Engine accuracy against the exact solver: does the timed move keep the game's value?

For positions with a given number of plies left, taken from engine self-play
games (from two seeded random plies, as in ``bench_engine_strength.py``) or from
a file of game records, the ``engine`` bot moves under the time limit and an
oracle (the same solver with a long budget and a cold table) solves the position
and the position after the move, win/draw/loss. A move *keeps the value* if the
result after it is the position's. In a lost position every move keeps it, so
only positions the mover can win or draw can show a mistake; they are counted
apart.

    python benchmarks/bench_engine_accuracy.py --time 1 --plies 10,11,12 --games 10

Prints one line per position and, per plies left, the mistakes among the
positions that could be won or drawn. Positions the oracle cannot solve within
``--oracle-time`` are skipped and counted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator

from bench_engine_strength import opening  # this folder is on the path when run as a script

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.core.record import games_from_text
from adjacency.engine import Engine, warmup

OUTCOME = {1: "win", 0: "draw", -1: "loss"}


def self_play_positions(games: int, rounds: int, seconds: float, seed: int) -> Iterator[Position]:
    """Every position of ``games`` engine self-play games from two seeded random plies."""
    rng = random.Random(seed)
    bot = make_bot(f"engine:time={seconds}", seed=1)
    for _ in range(games):
        position = opening(rng, rounds)
        bot.new_game()
        while not position.is_over:
            yield position
            position = position.play(bot.choose_move(position, Limit(time=seconds + 1)))


def record_positions(path: str) -> Iterator[Position]:
    """Every position before a move in the game records of ``path``."""
    with open(path, encoding="utf-8") as handle:
        for game in games_from_text(handle.read()):
            position = game.start
            for move in game.moves:
                yield position
                position = position.play(move.square)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="engine seconds per move")
    parser.add_argument("--plies", default="10,11", help="comma-separated plies left to test")
    parser.add_argument("--games", type=int, default=10, help="self-play games (no --records)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of the self-play games")
    parser.add_argument("--records", help="take the positions from these game records instead")
    parser.add_argument("--oracle-time", type=float, default=60.0, help="oracle budget per solve")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    wanted = {int(p) for p in args.plies.split(",")}
    warmup()
    oracle = Engine(tt_mb=256)
    player = make_bot(f"engine:time={args.time}", seed=1)
    source = (
        record_positions(args.records)
        if args.records
        else self_play_positions(args.games, args.rounds, args.time, args.seed)
    )
    tested: Counter[int] = Counter()
    mistakes: Counter[int] = Counter()
    lost: Counter[int] = Counter()
    unsolved: Counter[int] = Counter()

    def solve(position: Position) -> int | None:
        if position.is_over:
            margin = position.margin()
            return (margin > 0) - (margin < 0)
        oracle.clear()
        result = oracle.solve(position, wld=True, seconds=args.oracle_time)
        return result.value if result.complete else None

    for position in source:
        plies = position.plies_left
        if plies not in wanted:
            continue
        began = time.monotonic()
        value = solve(position)
        player.new_game()
        move = player.choose_move(position, Limit(time=args.time + 1))
        after = solve(position.play(move))
        if value is None or after is None:
            unsolved[plies] += 1
            print(f"{plies:>2} plies  {position.fen()}  unsolved", flush=True)
            continue
        kept = -after == value
        if value < 0:
            lost[plies] += 1
        else:
            tested[plies] += 1
            mistakes[plies] += not kept
        print(
            f"{plies:>2} plies  {position.fen()}  {OUTCOME[value]:<4} engine {move:<3} "
            f"{'keeps it' if kept else 'MISTAKE: ' + OUTCOME[-after]}  "
            f"({time.monotonic() - began:.1f}s)",
            flush=True,
        )
    print(f"engine at {args.time} s per move against the exact solver (win/draw/loss):")
    for plies in sorted(wanted):
        print(
            f"  {plies:>2} plies left: {tested[plies] - mistakes[plies]}/{tested[plies]} "
            f"won or drawn positions kept; {lost[plies]} lost positions; "
            f"{unsolved[plies]} unsolved"
        )
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
