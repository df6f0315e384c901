"""Balanced opening books for engine-vs-engine matches (the books behind the SPRTs).

Why: from two random plies, colour-swapped pairs between two engines of similar
strength almost always split. At 28 rounds O, the second mover, wins about 93% of
engine games by 2 to 8 pieces (100 games of engine vs engine at 0.1 s a move: X won
none), so each side wins the pair's game it plays as O, and a pair only tells the
engines apart when one of them turns a lost position around. Fishtest and cutechess
users play from books filtered by an evaluation for the same reason. Here a
position's evaluation does not know the second mover's edge (a depth-8 search
gives the side to move +1 to +3 pieces whoever it is), so the filter is a played
game: each candidate (4, 6 or 8 uniformly random plies from the start, seeded) is
played out by the engine against itself at a fixed depth (``--depth``), and the
candidates that end in a draw or a win for X by 2 are played out again at
``--confirm-depth`` and kept if that game is a draw. (A filter at depth 6 alone is
not enough: from its draws, engines at 0.1 s a move still won 85% of the games with
O.) The engine is deterministic at a fixed depth, so the book is a function of the
arguments.

    python benchmarks/make_balanced_openings.py --rounds 28 --candidates 1500 \
        --confirm-depth 8 --out benchmarks/openings/balanced-28.txt

The books in ``benchmarks/openings/`` were made this way (the command is in each
file's header); use them with ``adjacency match ... --openings FILE``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from collections import Counter
from pathlib import Path

from adjacency.core.position import Position
from adjacency.engine import Engine, warmup

RANDOM_PLIES = (4, 6, 8)
"""Candidates' random plies: a spread of openings, all leaving most of the game to play."""

_engine: Engine | None = None


def candidate(rounds: int, plies: int, index: int) -> Position:
    """The ``index``-th candidate with ``plies`` random plies (seeded by all three)."""
    rng = random.Random(f"balanced:{rounds}:{plies}:{index}")
    position = Position.start(rounds=rounds)
    for _ in range(plies):
        position = position.play(rng.choice(position.legal_squares()))
    return position


def self_play_margin(job: tuple[str, int]) -> tuple[str, int]:
    """The opening's text and X's final margin when the engine plays it out against
    itself at ``depth`` (one engine per worker process, table cleared per game)."""
    text, depth = job
    global _engine
    if _engine is None:
        warmup()
        _engine = Engine(tt_mb=16, profile="v1")
    start = Position.from_fen(text)
    position = start
    _engine.clear()
    while position.plies_left > 0:
        position = position.play(_engine.search(position, depth=depth).move)
    return start.fen(), position.x.bit_count() - position.o.bit_count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=28)
    parser.add_argument("--candidates", type=int, default=1500)
    parser.add_argument("--depth", type=int, default=6, help="self-play search depth")
    parser.add_argument(
        "--confirm-depth", type=int, default=8, help="second self-play depth (0: none)"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    texts = [
        candidate(args.rounds, RANDOM_PLIES[i % len(RANDOM_PLIES)], i // len(RANDOM_PLIES)).fen()
        for i in range(args.candidates)
    ]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(self_play_margin, [(text, args.depth) for text in texts], chunksize=8)
        margins = Counter(margin for _, margin in results)
        kept = [text for text, margin in results if margin == 0]
        if args.confirm_depth:
            close = [(text, args.confirm_depth) for text, margin in results if margin in (0, 2)]
            confirmed = pool.map(self_play_margin, close, chunksize=2)
            kept = [text for text, margin in confirmed if margin == 0]
    header = (
        f"# {len(kept)} of {len(results)} candidates drawn in engine self-play "
        f"(depth {args.depth}, confirmed at {args.confirm_depth}), {args.rounds} rounds\n"
        f"# python benchmarks/make_balanced_openings.py --rounds {args.rounds} "
        f"--candidates {args.candidates} --depth {args.depth} "
        f"--confirm-depth {args.confirm_depth} --out {args.out}\n"
        f"# X's margins at depth {args.depth}: {dict(sorted(margins.items()))}\n"
    )
    args.out.write_text(header + "".join(text + "\n" for text in kept), encoding="utf-8")
    print(header, end="")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
