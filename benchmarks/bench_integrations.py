"""Speed of the integrations: MCTS simulations per second, environment and OpenSpiel steps.

- ``mcts``: simulations per second of each variant on two 8x8 positions, the start
  (28 rounds, 56 plies to play out) and :data:`MIDGAME` (32 plies left), one
  ``--seconds`` search per variant and position (the kernels are compiled first);
- ``pettingzoo``: steps per second of the AEC environment with two uniformly random
  agents sampling the action mask (whole 8x8 28-round games, ``env()`` with its
  standard wrappers, observations included);
- ``openspiel``: ``apply_action`` per second on the OpenSpiel game (random play),
  and ``pyspiel.random_sim_test`` time.

Run: ``.venv/bin/python benchmarks/bench_integrations.py [--seconds 2] [--steps 20000]``.
The figures depend on the machine's load (one core per measurement); each rate is
also given per CPU second of this process, which contention changes less.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from adjacency import Position
from adjacency.bots import Limit, make_bot
from adjacency.bots.mcts import MctsBot
from adjacency.engine.kernels.mcts import USED

MIDGAME = "5xxo/5oox/1o3xoo/1ox2xox/oxo4x/oox5/oxxox3/xoxxx3 x 32"
"""After 24 plies of alphabeta:depth=2 (x) against greedy (o) (benchmarks/bench_bots.py)."""

VARIANTS = (
    "mcts",
    "mcts:playout=random",
    "mcts:policy=puct",
    "mcts:policy=puct,leaf=eval",
)


def bench_mcts(seconds: float) -> None:
    print("| spec | position | simulations/s | per CPU second | tree nodes |")
    print("| --- | --- | ---: | ---: | ---: |")
    for spec in VARIANTS:
        bot = make_bot(spec, seed=1)
        for label, position in (
            ("start", Position.start()),
            ("midgame", Position.from_fen(MIDGAME)),
        ):
            began, cpu = time.monotonic(), time.process_time()
            bot.choose_move(position, Limit(time=seconds))
            elapsed, cpu = time.monotonic() - began, time.process_time() - cpu
            assert bot.report is not None and bot.report.nodes is not None
            assert isinstance(bot, MctsBot)
            nodes = int(bot.T[USED])
            sims = bot.report.nodes
            print(f"| `{spec}` | {label} | {sims / elapsed:,.0f} | {sims / cpu:,.0f} | {nodes:,} |")


def bench_pettingzoo(steps: int) -> None:
    from adjacency.rl import env

    environment = env()
    rng = np.random.default_rng(0)
    done = 0
    began, cpu = time.monotonic(), time.process_time()
    while done < steps:
        environment.reset()
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
    elapsed, cpu = time.monotonic() - began, time.process_time() - cpu
    print(
        f"pettingzoo AEC, random agents: {done / elapsed:,.0f} steps/s, "
        f"{done / cpu:,.0f} per CPU second ({done} steps)"
    )


def bench_openspiel(steps: int) -> None:
    import pyspiel

    from adjacency.openspiel import load

    game = load()
    rng = np.random.default_rng(0)
    done = 0
    began, cpu = time.monotonic(), time.process_time()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
            done += 1
    elapsed, cpu = time.monotonic() - began, time.process_time() - cpu
    print(
        f"openspiel game, random play: {done / elapsed:,.0f} apply_action/s, "
        f"{done / cpu:,.0f} per CPU second ({done} steps)"
    )
    began = time.monotonic()
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    print(f"pyspiel.random_sim_test, 10 games of 8x8: {time.monotonic() - began:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per MCTS search")
    parser.add_argument("--steps", type=int, default=20000, help="environment steps to time")
    args = parser.parse_args()
    bench_mcts(args.seconds)
    bench_pettingzoo(args.steps)
    bench_openspiel(args.steps // 4)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
