"""Plies per CPU second of the batched environment beside the PettingZoo environment.

Every figure is plies played (one move on one board) per second of this process's CPU
time (``time.process_time``), in one run on one core, random legal moves on 8x8 boards
of 28 rounds (whole games, reset on the spot):

- ``batched compiled``: :meth:`BatchedEnv.run_random`, choosing and playing the moves of
  every board for many steps in one compiled call (no observations);
- ``batched step``: a Python loop of ``env.step(env.sample_actions())``, one compiled call
  each for the choice and the move (no observations);
- ``batched step + observe``: the same plus ``env.observe()`` every step, which writes
  the float32 planes and the int8 masks of every board;
- ``gymnasium vector``: :class:`AdjacencyVectorEnv`, random legal actions from the masks
  it returns (observations copied out every step, as the interface asks);
- ``pettingzoo``: ``adjacency.rl.env()`` (one board, its standard wrappers), two random
  agents sampling the action mask, as in ``bench_integrations.py``;
- ``pgx othello``: pgx's Othello on JAX's CPU backend (``JAX_PLATFORMS=cpu``), random
  legal actions, reset by pgx's ``auto_reset``, only when ``pgx`` and ``jax`` import.
  They are not dependencies of this project; to compare without touching its environment,
  install them into a folder of their own and put it on the path::

      pip install --target /tmp/pgxlib --no-deps jax jaxlib pgx ml_dtypes opt_einsum svgwrite
      JAX_PLATFORMS=cpu PYTHONPATH=/tmp/pgxlib python benchmarks/bench_vector_env.py --json

Run: ``python benchmarks/bench_vector_env.py --boards 1024 [--seconds 2] [--json]``.
Compilation (or loading numba's cache) happens before the clock starts.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable

import numpy as np

from adjacency.rl import AdjacencyVectorEnv, BatchedEnv, env

ROWS = COLS = 8
ROUNDS = 28


def timed(work: Callable[[], int], seconds: float) -> dict[str, float]:
    """Call ``work`` (returns plies played) until ``seconds`` of CPU time have passed."""
    plies = 0
    began, cpu = time.monotonic(), time.process_time()
    while time.process_time() - cpu < seconds:
        plies += work()
    spent = time.process_time() - cpu
    return {
        "plies": plies,
        "cpu_seconds": round(spent, 3),
        "wall_seconds": round(time.monotonic() - began, 3),
        "plies_per_cpu_second": round(plies / spent),
    }


def batched_compiled(boards: int, seconds: float) -> dict[str, float]:
    batch = BatchedEnv(boards, ROWS, COLS, ROUNDS, seed=1)
    batch.run_random(2)
    steps = max(1, 200_000 // boards)

    def work() -> int:
        batch.run_random(steps)
        return steps * boards

    return timed(work, seconds)


def batched_step(boards: int, seconds: float, with_observations: bool) -> dict[str, float]:
    batch = BatchedEnv(boards, ROWS, COLS, ROUNDS, seed=1)
    batch.step(batch.sample_actions())
    batch.observe()

    def work() -> int:
        for _ in range(10):
            batch.step(batch.sample_actions())
            if with_observations:
                batch.observe()
        return 10 * boards

    return timed(work, seconds)


def gymnasium_vector(boards: int, seconds: float) -> dict[str, float]:
    envs = AdjacencyVectorEnv(boards, ROWS, COLS, ROUNDS)
    observation, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    state = {"observation": observation}

    def work() -> int:
        mask = state["observation"]["action_mask"].astype(bool)
        # a random legal square per board: the largest random key among the legal squares
        keys = np.where(mask, rng.random(mask.shape, dtype=np.float32), -1.0)
        state["observation"], *_ = envs.step(keys.argmax(axis=1))
        return boards

    return timed(work, seconds)


def pettingzoo(seconds: float) -> dict[str, float]:
    environment = env(rows=ROWS, cols=COLS, rounds=ROUNDS)
    rng = np.random.default_rng(0)

    def work() -> int:
        plies = 0
        environment.reset()
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                plies += 1
        return plies

    return timed(work, seconds)


PGX_MISSING: list[str] = []
"""Why pgx was not measured (the ImportError's text), for the output."""


def pgx_othello(boards: int, seconds: float) -> dict[str, float] | None:
    """pgx's Othello, random legal actions, finished games reset with pgx's own
    ``auto_reset``; None when pgx or jax does not import."""
    try:
        import jax  # type: ignore[import-not-found]
        import pgx  # type: ignore[import-not-found]
        from pgx.experimental import auto_reset  # type: ignore[import-not-found]
    except ImportError as exc:
        PGX_MISSING.append(str(exc))
        return None
    game = pgx.make("othello")
    init = jax.jit(jax.vmap(game.init))

    def play(state: object, key: object) -> object:
        key_act, key_step = jax.random.split(key)
        mask = state.legal_action_mask  # type: ignore[attr-defined]
        logits = jax.numpy.where(mask, 0.0, -jax.numpy.inf)
        action = jax.random.categorical(key_act, logits, axis=1)
        return jax.vmap(auto_reset(game.step, game.init))(
            state, action, jax.random.split(key_step, boards)
        )

    play_jit = jax.jit(play)
    holder = {
        "state": init(jax.random.split(jax.random.PRNGKey(1), boards)),
        "key": jax.random.PRNGKey(2),
    }

    def work() -> int:
        for _ in range(10):
            holder["key"], sub = jax.random.split(holder["key"])
            holder["state"] = play_jit(holder["state"], sub)
        jax.block_until_ready(holder["state"])
        return 10 * boards

    work()  # compile
    return timed(work, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures: dict[str, dict[str, float] | None] = {
        "batched compiled": batched_compiled(args.boards, args.seconds),
        "batched step": batched_step(args.boards, args.seconds, False),
        "batched step + observe": batched_step(args.boards, args.seconds, True),
        "gymnasium vector": gymnasium_vector(args.boards, args.seconds),
        "pettingzoo": pettingzoo(args.seconds),
        "pgx othello": pgx_othello(args.boards, args.seconds),
    }
    base = figures["pettingzoo"]
    assert base is not None
    result = {
        "boards": args.boards,
        "board": f"{ROWS}x{COLS}, {ROUNDS} rounds",
        "load_average": os.getloadavg(),
        "pgx_not_measured": PGX_MISSING[0] if PGX_MISSING else None,
        "figures": figures,
        "versus_pettingzoo": {
            name: round(f["plies_per_cpu_second"] / base["plies_per_cpu_second"], 1)
            for name, f in figures.items()
            if f is not None
        },
    }
    pgx = figures["pgx othello"]
    if pgx is not None:
        result["versus_pgx"] = {
            name: round(f["plies_per_cpu_second"] / pgx["plies_per_cpu_second"], 1)
            for name, f in figures.items()
            if f is not None
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.boards} boards, {result['board']}, load average {result['load_average']}")
    print("| environment | plies per CPU second | x PettingZoo | x pgx |")
    print("| --- | ---: | ---: | ---: |")
    for name, figure in figures.items():
        if figure is None:
            print(f"| {name} | not measured: {PGX_MISSING[0]} | |")
        else:
            ratio = result["versus_pettingzoo"][name]  # type: ignore[index]
            versus_pgx = result.get("versus_pgx", {}).get(name, "")  # type: ignore[attr-defined]
            print(f"| {name} | {figure['plies_per_cpu_second']:,} | {ratio} | {versus_pgx} |")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
