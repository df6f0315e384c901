"""The review's accuracy of random play and of the engine's, over many reviewed games.

Plays ``--games`` 8x8 games of ``--rounds`` rounds between uniformly random moves (from
the game's seed) and the engine (``--engine``, a bot spec), the engine X in even games
and O in odd ones, reviews each with the web app's review
(:func:`adjacency.lab.review.review`, its default depth and solver budget) and prints,
per game, the seconds the review took, the final score and each side's accuracy and
blunders; at the end, per side, the mean, median, least and most accuracy, the mean loss
per move (squares, where the solver judged and where the search did) and the marks.
``--json`` writes every game's summary and moves.

    nice -n 5 .venv/bin/python benchmarks/bench_accuracy.py --games 100
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from bench_review import collector  # this folder is on the path

from adjacency import Position
from adjacency.bots import Limit, make_bot
from adjacency.lab.review import Stopper, review


def a_game(
    seed: int, engine: str, engine_color: str, rounds: int
) -> tuple[list[Position], list[str]]:
    """One game: the engine on ``engine_color``, uniformly random moves (from ``seed``) on
    the other side."""
    rng = random.Random(seed)
    bot = make_bot(engine)
    positions, moves = [Position.start(8, 8, rounds)], []
    while not positions[-1].is_over:
        position = positions[-1]
        if position.turn == engine_color:
            move = bot.choose_move(position, Limit(time=None))
        else:
            move = rng.choice(position.legal_moves())
        moves.append(move)
        positions.append(position.play(move))
    return positions, moves


def figures(games: list[dict[str, Any]], side: str) -> dict[str, Any]:
    """The accuracy, losses and marks of ``side`` ("engine" or "random") over ``games``."""
    accuracies = [game[side]["accuracy"] for game in games]
    moves = [move for game in games for move in game["moves"] if move["side"] == side]
    exact = [move["loss"] for move in moves if move["exact"]]
    searched = [move["loss"] for move in moves if not move["exact"]]
    return {
        "games": len(games),
        "accuracy mean": round(statistics.mean(accuracies), 1),
        "accuracy median": round(statistics.median(accuracies), 1),
        "accuracy least": min(accuracies),
        "accuracy most": max(accuracies),
        "loss per move (solver)": round(statistics.mean(exact), 2) if exact else None,
        "loss per move (search)": round(statistics.mean(searched), 2) if searched else None,
        "moves": len(moves),
        "inaccuracies": sum(game[side]["inaccuracies"] for game in games),
        "mistakes": sum(game[side]["mistakes"] for game in games),
        "blunders": sum(game[side]["blunders"] for game in games),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=28)
    parser.add_argument("--engine", default="engine:depth=6")
    parser.add_argument("--json", help="write every game's summary and moves here")
    args = parser.parse_args()
    games: list[dict[str, Any]] = []
    for seed in range(args.games):
        engine_color = "x" if seed % 2 == 0 else "o"
        random_color = "o" if engine_color == "x" else "x"
        positions, moves = a_game(seed, args.engine, engine_color, args.rounds)
        events: list[tuple[str, dict[str, Any]]] = []
        started = time.perf_counter()
        review(positions, moves, collector(events), Stopper())
        seconds = time.perf_counter() - started
        summary = next(data for event, data in events if event == "summary")
        judged = [
            {**data, "side": "engine" if data["mover"] == engine_color else "random"}
            for event, data in events
            if event == "move"
        ]
        game = {
            "seed": seed,
            "score": positions[-1].score,
            "engine": summary[engine_color],
            "random": summary[random_color],
            "moves": judged,
        }
        games.append(game)
        print(
            f"game {seed}: engine {engine_color}, score {game['score']}, review {seconds:.1f} s;"
            f" accuracy engine {game['engine']['accuracy']} random {game['random']['accuracy']};"
            f" blunders engine {game['engine']['blunders']} random {game['random']['blunders']}",
            flush=True,
        )
        if args.json:
            with open(args.json, "w") as file:
                json.dump(games, file)
    with open("/proc/loadavg") as file:
        load = file.read().split()[0]
    for side in ("engine", "random"):
        print(side, json.dumps(figures(games, side)))
    print(f"load average at the end: {load}")
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
