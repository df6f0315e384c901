"""Reviews of one game, repeated: the marks are the same every time, under load too.

Plays one 8x8 game of 28 rounds (56 plies) between two seeded bots (``greedy`` with a
random move 30% of the time, from ``--seed``), then reviews it ``--runs`` times
(:func:`adjacency.lab.review.review`, the web app's review), the last ``--loaded``
runs beside a CPU burner process, and prints per run the wall-clock time, the load
average, the marks (ply, mark, loss, exact or the search depth), a digest of every
event the review emitted, and the per-player summary. Exit status 1 if any two runs
differ.

    python benchmarks/bench_review.py --runs 5 --loaded 2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import time
from typing import Any

from adjacency import Position
from adjacency.bots import Limit, make_bot
from adjacency.lab.review import Emit, Stopper, review


def a_game(seed: int) -> tuple[list[Position], list[str]]:
    """The seeded game: greedy moves, a random one 30% of the time."""
    rng = random.Random(seed)
    greedy = make_bot(f"greedy:seed={seed}")
    positions, moves = [Position.start(8, 8, 28)], []
    while not positions[-1].is_over:
        position = positions[-1]
        if rng.random() < 0.3:
            move = rng.choice(position.legal_moves())
        else:
            move = greedy.choose_move(position, Limit(time=None))
        moves.append(move)
        positions.append(position.play(move))
    return positions, moves


def collector(events: list[tuple[str, dict[str, Any]]]) -> Emit:
    """An ``emit`` that appends every event to ``events``."""

    def emit(event: str, data: dict[str, Any]) -> None:
        events.append((event, data))

    return emit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--loaded", type=int, default=2, help="last runs beside a CPU burner")
    args = parser.parse_args()
    positions, moves = a_game(args.seed)
    print(f"game (seed {args.seed}): {' '.join(moves)}")
    digests = set()
    for run in range(1, args.runs + 1):
        loaded = run > args.runs - args.loaded
        burner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if loaded else None
        events: list[tuple[str, dict[str, Any]]] = []
        started = time.perf_counter()
        try:
            review(positions, moves, collector(events), Stopper())
        finally:
            if burner is not None:
                burner.kill()
                burner.wait()
        seconds = time.perf_counter() - started
        with open("/proc/loadavg") as file:
            load = file.read().split()[0]
        marks = [
            (d["ply"], d["mark"], d["loss"], "exact" if d["exact"] else f"depth {d['depth']}")
            for e, d in events
            if e == "move" and d["mark"]
        ]
        digest = hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()[:16]
        digests.add(digest)
        beside = " beside a CPU burner" if loaded else ""
        print(
            f"run {run}{beside}: {seconds:.1f} s, load average {load}, {len(marks)} marks, "
            f"events sha256 {digest}"
        )
        print("  marks:", sorted(marks))
        summary = next(d for e, d in events if e == "summary")
        print("  summary:", json.dumps(summary))
    print("identical" if len(digests) == 1 else f"DIFFERENT: {len(digests)} distinct reviews")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
