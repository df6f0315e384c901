"""Benchmark of the pure-Python rules core: how many moves per second Position.play handles.

Plays random games on the 8x8 board (28 rounds) and times ``Position.play`` alone
(the move choice is drawn beforehand), then whole random games including move
generation. Run: ``.venv/bin/python benchmarks/bench_core.py [--seconds 3]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from adjacency import Position


def bench_play(seconds: float, seed: int) -> float:
    """Moves per second of ``Position.play`` on positions from random 8x8 games."""
    rng = random.Random(seed)
    rates = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        # A batch of (position, legal move) pairs from random games.
        batch: list[tuple[Position, int]] = []
        for _ in range(20):
            pos = Position.start()
            while not pos.is_over:
                square = rng.choice(pos.legal_squares())
                batch.append((pos, square))
                pos = pos.play(square)
        started = time.perf_counter()
        for pos, square in batch:
            pos.play(square)
        rates.append(len(batch) / (time.perf_counter() - started))
    return statistics.median(rates)


def bench_games(seconds: float, seed: int) -> tuple[float, float]:
    """(games per second, plies per second) of complete random 8x8 games."""
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        pos = Position.start()
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_squares()))
            plies += 1
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, plies / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    play_rate = bench_play(args.seconds, args.seed)
    games, plies = bench_games(args.seconds, args.seed)
    print(f"Position.play: {play_rate:,.0f} moves/s (median of batches, random 8x8 positions)")
    print(f"random games:  {games:,.0f} games/s, {plies:,.0f} plies/s (incl. move generation)")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
