"""Engine strength: a match of the ``engine`` bot against another bot, colours swapped.

Each opening (two seeded random plies from the start, so that deterministic bots
play different games) is played twice, once with each colour, for every number
of rounds given. Prints one line per game and the engine's score (win 1, draw 1/2).

    python benchmarks/bench_engine_strength.py --games 40 --time 1 \
        --opponent alphabeta:depth=6 --rounds 8,28

``--jobs 2`` plays two games at a time in separate processes (only on idle
cores: the engine's depth depends on the CPU it gets). ``--records FILE``
writes every game's record. Long: run it in the background
(``nohup ... > strength.log &``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from adjacency.bots import Bot, Limit, make_bot
from adjacency.bots.referee import play_game
from adjacency.core import Position
from adjacency.core.record import game_to_text


def opening(rng: random.Random, rounds: int) -> Position:
    position = Position.start(8, 8, rounds)
    for _ in range(2):
        position = position.play(rng.choice(position.legal_squares()))
    return position


@dataclass(frozen=True)
class Task:
    engine: str
    opponent: str
    engine_time: float
    opponent_time: float | None
    start: Position
    rounds: int
    engine_is_x: bool


@dataclass(frozen=True)
class Outcome:
    rounds: int
    engine_color: str
    result: str
    score: tuple[int, int]
    termination: str
    seconds: float
    record: str


_BOTS: dict[str, Bot] = {}


def _bot(spec: str, seed: int) -> Bot:
    """One bot per spec and process, as in a single-process run."""
    if spec not in _BOTS:
        _BOTS[spec] = make_bot(spec, seed=seed)
    return _BOTS[spec]


def play(task: Task) -> Outcome:
    engine = _bot(task.engine, 1)
    opponent = _bot(task.opponent, 2)
    x_bot, o_bot = (engine, opponent) if task.engine_is_x else (opponent, engine)
    began = time.monotonic()
    # Each side gets its own budget: the referee's limit is the larger; the engine
    # keeps to its own through the time option.
    game = play_game(
        x_bot,
        o_bot,
        task.start,
        Limit(time=max(task.engine_time, task.opponent_time or 1e6)),
        margin=1.0,
    )
    return Outcome(
        rounds=task.rounds,
        engine_color="x" if task.engine_is_x else "o",
        result=game.result or "",
        score=game.position.score,
        termination=game.termination.value,
        seconds=time.monotonic() - began,
        record=game_to_text(game),
    )


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
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--records", help="write every game's record to this file")
    args = parser.parse_args(argv)
    rounds_list = [int(r) for r in args.rounds.split(",")]
    rng = random.Random(args.seed)
    pairs = max(1, args.games // (2 * len(rounds_list)))
    tasks = [
        Task(args.engine, args.opponent, args.time, args.opponent_time, start, rounds, engine_is_x)
        for rounds in rounds_list
        for start in [opening(rng, rounds) for _ in range(pairs)]
        for engine_is_x in (True, False)
    ]
    score = 0.0
    played = 0
    records: list[str] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for outcome in pool.map(play, tasks):
            color = outcome.engine_color
            score += 1.0 if outcome.result == color else 0.5 if outcome.result == "draw" else 0.0
            played += 1
            records.append(outcome.record)
            x, o = outcome.score
            print(
                f"rounds {outcome.rounds:>2} engine={color} result={outcome.result} "
                f"score {x}-{o} ({outcome.termination}) {outcome.seconds:.0f}s "
                f"running {score}/{played}",
                flush=True,
            )
    if args.records:
        with open(args.records, "w", encoding="utf-8") as out:
            out.write("\n".join(records))
    print(
        f"engine {args.engine} (time {args.time}) vs {args.opponent}: "
        f"{score}/{played} = {100 * score / played:.1f}%"
    )
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
