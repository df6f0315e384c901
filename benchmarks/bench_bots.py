"""Benchmark of the classic bots: seconds per move, nodes, and search depth in the budget.

Every bot at its defaults (plus a few notable variants) is asked for a move
``--repeat`` times, with seeds 0, 1, ..., on two 8x8 positions: the start
(28 rounds) and a mid-game position (:data:`MIDGAME`, 16 rounds left), each
with the default 5-second budget. It prints a Markdown table: median and
maximum seconds per move, median nodes (as each bot counts them) and the
median depth (plies) the bot reported; for ``minimax`` and ``alphabeta`` that
is the deepest iteration completed inside the budget. The machine's load
changes the figures (the bots are pure Python on one core).

With ``--games N`` it instead plays every bot against ``greedy`` (N games,
colours alternating, full 28-round 8x8 games at ``--time`` seconds per move)
and prints each bot's score: a rough strength ladder, not a rating.

Run: ``.venv/bin/python benchmarks/bench_bots.py [--time 5] [--repeat 3] [--bots SPEC ...]``
or ``.venv/bin/python benchmarks/bench_bots.py --games 20 --time 0.1``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from adjacency import Position
from adjacency.bots import Limit, make_bot
from adjacency.bots.referee import play_game

MIDGAME = "5xxo/5oox/1o3xoo/1ox2xox/oxo4x/oox5/oxxox3/xoxxx3 x 32"
"""After 24 plies of alphabeta:depth=2 (x) against greedy (o), seeds 1 and 2."""

BOTS = (
    "random",
    "greedy",
    "minimax",
    "alphabeta",
    "hill",
    "hill:variant=sideways",
    "hill:variant=stochastic",
    "hill:neighbourhood=area,score=gain",
    "hill:neighbourhood=area,variant=restart,score=gain",
    "report-a:minimax",
    "report-a:localsearch",
    "report-a:genetic",
    "report-b:minimax",
    "report-b:localsearch",
    "report-b:genetic",
    "anneal",
    "genetic",
    "gatree",
)


def measure(spec: str, position: Position, seconds: float, repeat: int) -> list[str]:
    """One table row: the bot's figures on ``position`` over ``repeat`` seeded moves."""
    times: list[float] = []
    nodes: list[int] = []
    depths: list[int] = []
    for seed in range(repeat):
        bot = make_bot(spec, seed=seed)
        began = time.perf_counter()
        bot.choose_move(position, Limit(time=seconds))
        times.append(time.perf_counter() - began)
        report = bot.report
        if report is not None and report.nodes is not None:
            nodes.append(report.nodes)
        if report is not None and report.depth is not None:
            depths.append(report.depth)
    return [
        f"{statistics.median(times):.3f}",
        f"{max(times):.3f}",
        f"{int(statistics.median(nodes)):,}" if nodes else "-",
        f"{statistics.median(depths):g}" if depths else "-",
    ]


def score_against_greedy(spec: str, games: int, seconds: float) -> tuple[float, float]:
    """Points per game (win 1, draw 0.5) and mean final margin of ``spec`` against greedy."""
    points = margin = 0.0
    for number in range(games):
        bot, rival = make_bot(spec, seed=number), make_bot("greedy", seed=1000 + number)
        bot_is_x = number % 2 == 0
        x_bot, o_bot = (bot, rival) if bot_is_x else (rival, bot)
        game = play_game(x_bot, o_bot, Position.start(), Limit(time=seconds), margin=1.0)
        mine = "x" if bot_is_x else "o"
        points += 1.0 if game.result == mine else 0.5 if game.result == "draw" else 0.0
        margin += game.position.margin(mine)
    return points / games, margin / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=5.0, help="seconds per move (default 5)")
    parser.add_argument("--repeat", type=int, default=3, help="moves per bot and position")
    parser.add_argument(
        "--bots", nargs="+", default=list(BOTS), metavar="SPEC", help="bot specs, space-separated"
    )
    parser.add_argument("--games", type=int, default=0, help="play N games against greedy")
    args = parser.parse_args()
    if args.games:
        print(f"against greedy: {args.games} games each, 8x8, 28 rounds, {args.time:g} s/move")
        print("| bot | score | mean margin |")
        print("|---|---|---|")
        for spec in args.bots:
            score, margin = score_against_greedy(spec, args.games, args.time)
            print(f"| `{spec}` | {score:.0%} | {margin:+.1f} |", flush=True)
        return
    positions = {"start": Position.start(), "mid-game": Position.from_fen(MIDGAME)}
    header = ["bot", "position", "median s", "max s", "nodes", "depth"]
    print(f"budget {args.time:g} s per move, {args.repeat} move(s) per cell, 8x8")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for spec in args.bots:
        for label, position in positions.items():
            row = [f"`{spec}`", label, *measure(spec, position, args.time, args.repeat)]
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
