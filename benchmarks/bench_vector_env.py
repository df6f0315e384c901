"""Plies per second of every way to step the game, side by side, with each library's version.

Every figure is plies played (one move on one board) per second of this process's CPU
time (``time.process_time``, all its threads), in one run, random legal moves on 8x8
boards of 28 rounds (whole games, reset on the spot); the JAX figures also give plies per
wall second, the figure that counts on an accelerator:

- ``batched compiled``: :meth:`BatchedEnv.run_random`, choosing and playing the moves of
  every board for many steps in one compiled call (no observations);
- ``batched step``: a Python loop of ``env.step(env.sample_actions())``, one compiled call
  each for the choice and the move (no observations);
- ``batched step + observe``: the same plus ``env.observe()`` every step, which writes
  the float32 planes and the int8 masks of every board;
- ``agent loop``: what an agent's loop does: ``observe()``, a random legal square per
  board chosen from the mask with numpy, ``step()``;
- ``gymnasium vector``: :class:`AdjacencyVectorEnv`, random legal actions from the masks
  it returns (observations copied out every step, as the interface asks);
- ``pettingzoo``: ``adjacency.rl.env()`` (one board, its standard wrappers), two random
  agents sampling the action mask, as in ``bench_integrations.py``;
- ``jax env``: :class:`adjacency.jax.AdjacencyEnv` under ``jit(vmap(step))``, in pgx's
  harness: ``--jax-steps`` plies of random legal actions (``jax.random.categorical``
  over the mask) in one jitted ``lax.scan``, finished games reset by ``init`` (pgx's
  ``auto_reset``, written here so that both games run the same code); its step computes
  the observation, as pgx's does; measured at every board count of ``--jax-boards``;
- ``pgx othello``: pgx's Othello in the very same harness, when ``pgx`` imports (the
  ``jax`` extra installs it: ``adjacency.jax`` subclasses its ``Env``).

The like-for-like ratio, the one to quote: ``batched step + observe`` over ``jax env``
at the same board count on the same CPU: the same game, observations computed, random
legal actions, one step per call (see docs/integrations.md, "Speed"). The other ratios
compare different work (no observations, another game) and are labelled so.

Run: ``python benchmarks/bench_vector_env.py --boards 1024 [--seconds 2] [--json]``;
``--only-jax --wall`` measures the JAX rows alone, each for ``--seconds`` of wall time
(on an accelerator, where the process mostly waits for the device). Compilation (or
loading numba's cache) happens before the clock starts.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from adjacency.system.provenance import versions_of

ROWS = COLS = 8
ROUNDS = 28
LIBRARIES = ("numpy", "numba", "gymnasium", "pettingzoo", "jax", "jaxlib", "pgx")
"""Every library a figure depends on; its version goes with the figures."""
JAX_BOARDS = (1, 16, 256, 4096, 65536)


BUDGET_CLOCK = {"clock": time.process_time}
"""The clock of each figure's budget: CPU time, or wall time with ``--wall`` (on an
accelerator the process mostly waits, and its CPU time would barely move)."""


def timed(work: Callable[[], int], seconds: float) -> dict[str, float]:
    """Call ``work`` (returns plies played) until ``seconds`` of the budget clock (CPU time
    unless ``--wall``) have passed."""
    plies = 0
    clock = BUDGET_CLOCK["clock"]
    began, cpu, start = time.monotonic(), time.process_time(), clock()
    while clock() - start < seconds:
        plies += work()
    spent = time.process_time() - cpu
    wall = time.monotonic() - began
    return {
        "plies": plies,
        "cpu_seconds": round(spent, 3),
        "wall_seconds": round(wall, 3),
        "plies_per_cpu_second": round(plies / spent),
        "plies_per_wall_second": round(plies / wall),
    }


def batched_compiled(boards: int, seconds: float) -> dict[str, float]:
    from adjacency.rl import BatchedEnv

    batch = BatchedEnv(boards, ROWS, COLS, ROUNDS, seed=1)
    batch.run_random(2)
    steps = max(1, 200_000 // boards)

    def work() -> int:
        batch.run_random(steps)
        return steps * boards

    return timed(work, seconds)


def batched_step(boards: int, seconds: float, with_observations: bool) -> dict[str, float]:
    from adjacency.rl import BatchedEnv

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


def agent_loop(boards: int, seconds: float) -> dict[str, float]:
    """Observe, choose a random legal square per board from the mask in numpy, step."""
    from adjacency.rl import BatchedEnv

    batch = BatchedEnv(boards, ROWS, COLS, ROUNDS, seed=1)
    rng = np.random.default_rng(1)

    def work() -> int:
        for _ in range(10):
            _, mask = batch.observe()
            keys = np.where(mask > 0, rng.random(mask.shape, dtype=np.float32), -1.0)
            batch.step(keys.argmax(axis=1))
        return 10 * boards

    work()
    return timed(work, seconds)


def gymnasium_vector(boards: int, seconds: float) -> dict[str, float]:
    from adjacency.rl import AdjacencyVectorEnv

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
    from adjacency.rl import env

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


def pgx_harness(
    game: Any, boards: int, seconds: float, steps: int, options: dict[str, Any] | None = None
) -> dict[str, float]:
    """``steps`` plies of random legal actions on ``boards`` boards of a pgx-API ``game``
    per jitted call (``vmap`` over the boards, ``lax.scan`` over the plies), finished
    games reset by ``game.init``; compiled (with XLA's compiler ``options``, if any: a
    quick compile for tiny test runs) before the clock starts."""
    import jax
    import jax.numpy as jnp

    def ply(state: Any, key: Any) -> tuple[Any, None]:
        act_key, reset_key = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(act_key, logits, axis=1)
        stepped = jax.vmap(game.step)(state, action)
        fresh = jax.vmap(game.init)(jax.random.split(reset_key, boards))
        over = stepped.terminated | stepped.truncated

        def pick(new: Any, old: Any) -> Any:
            return jnp.where(over.reshape(over.shape + (1,) * (old.ndim - 1)), new, old)

        return jax.tree.map(pick, fresh, stepped), None

    def run(state: Any, key: Any) -> Any:
        return jax.lax.scan(ply, state, jax.random.split(key, steps))[0]

    run_jit = jax.jit(run, compiler_options=options)
    start = jax.jit(jax.vmap(game.init), compiler_options=options)
    holder = {
        "state": start(jax.random.split(jax.random.PRNGKey(1), boards)),
        "key": jax.random.PRNGKey(2),
    }

    def work() -> int:
        holder["key"], sub = jax.random.split(holder["key"])
        holder["state"] = run_jit(holder["state"], sub)
        jax.block_until_ready(holder["state"])
        return steps * boards

    work()  # compile
    return timed(work, seconds)


def jax_env(
    boards: int, seconds: float, steps: int, options: dict[str, Any] | None = None
) -> dict[str, float] | None:
    """:class:`adjacency.jax.AdjacencyEnv` (8x8, 28 rounds) in :func:`pgx_harness`."""
    try:
        from adjacency.jax import AdjacencyEnv
    except ImportError as exc:
        PGX_MISSING.append(str(exc))
        return None
    return pgx_harness(AdjacencyEnv(ROWS, COLS, ROUNDS), boards, seconds, steps, options)


def pgx_othello(
    boards: int, seconds: float, steps: int, options: dict[str, Any] | None = None
) -> dict[str, float] | None:
    """pgx's Othello in :func:`pgx_harness`; None when pgx does not import."""
    try:
        import pgx  # type: ignore[import-not-found]
    except ImportError as exc:
        PGX_MISSING.append(str(exc))
        return None
    return pgx_harness(pgx.make("othello"), boards, seconds, steps, options)


def ratio(figures: dict[str, Any], top: str, bottom: str) -> float | None:
    """``top``'s plies per CPU second over ``bottom``'s (None if either is missing)."""
    a, b = figures.get(top), figures.get(bottom)
    if a is None or b is None:
        return None
    return round(a["plies_per_cpu_second"] / b["plies_per_cpu_second"], 2)


def jax_device() -> str | None:
    """JAX's default device (None without JAX)."""
    try:
        import jax
    except ImportError:
        return None
    return str(jax.devices()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    parser.add_argument(
        "--jax-boards",
        default=",".join(map(str, JAX_BOARDS)),
        help="board counts of the JAX rows (comma-separated)",
    )
    parser.add_argument("--jax-steps", type=int, default=64, help="plies per jitted call")
    parser.add_argument("--only-jax", action="store_true", help="the JAX rows alone")
    parser.add_argument("--wall", action="store_true", help="budget each figure in wall time")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    boards, seconds, steps = args.boards, args.seconds, args.jax_steps
    if args.wall:
        BUDGET_CLOCK["clock"] = time.monotonic
    figures: dict[str, dict[str, float] | None] = {}
    if not args.only_jax:
        figures["batched compiled"] = batched_compiled(boards, seconds)
        figures["batched step"] = batched_step(boards, seconds, False)
        figures["batched step + observe"] = batched_step(boards, seconds, True)
        figures["agent loop"] = agent_loop(boards, seconds)
        figures["gymnasium vector"] = gymnasium_vector(boards, seconds)
        figures["pettingzoo"] = pettingzoo(seconds)
    figures["jax env"] = jax_env(boards, seconds, steps)
    figures["pgx othello"] = pgx_othello(boards, seconds, steps)
    scaling: dict[str, dict[int, dict[str, float] | None]] = {"jax env": {}, "pgx othello": {}}
    for count in sorted({int(n) for n in args.jax_boards.split(",")} - {boards}):
        scaling["jax env"][count] = jax_env(count, seconds, steps)
        scaling["pgx othello"][count] = pgx_othello(count, seconds, steps)
    for name in scaling:
        scaling[name][boards] = figures[name]
    device = jax_device()
    result: dict[str, Any] = {
        "boards": boards,
        "board": f"{ROWS}x{COLS}, {ROUNDS} rounds",
        "load_average": os.getloadavg(),
        "versions": versions_of(LIBRARIES),
        "jax_device": device,
        "jax_steps_per_call": steps,
        "not_measured": sorted(set(PGX_MISSING)) or None,
        "figures": figures,
        "jax_scaling": {
            name: {str(n): rows[n] for n in sorted(rows)} for name, rows in scaling.items()
        },
        "ratios": {
            "like for like (batched step + observe / jax env, same game, same CPU)": ratio(
                figures, "batched step + observe", "jax env"
            ),
            "agent loop / jax env": ratio(figures, "agent loop", "jax env"),
            "jax env / pgx othello (different games, same harness)": ratio(
                figures, "jax env", "pgx othello"
            ),
            "batched step + observe / pgx othello (different games)": ratio(
                figures, "batched step + observe", "pgx othello"
            ),
            "batched compiled / pgx othello (no observations, different games)": ratio(
                figures, "batched compiled", "pgx othello"
            ),
            "batched step + observe / pettingzoo": ratio(
                figures, "batched step + observe", "pettingzoo"
            ),
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)


def print_table(result: dict[str, Any]) -> None:
    """The figures as a markdown table, then the ratios."""
    figures = result["figures"]
    print(f"{result['boards']} boards, {result['board']}, load average {result['load_average']}")
    print(f"versions: {result['versions']}; JAX device: {result['jax_device']}")
    print("| environment | plies per CPU second | plies per wall second |")
    print("| --- | ---: | ---: |")
    for name, figure in figures.items():
        if figure is None:
            print(f"| {name} | not measured | |")
        else:
            cpu, wall = figure["plies_per_cpu_second"], figure["plies_per_wall_second"]
            print(f"| {name} | {cpu:,} | {wall:,} |")
    for name, rows in result["jax_scaling"].items():
        for count, figure in rows.items():
            if figure is not None:
                wall = figure["plies_per_wall_second"]
                print(f"| {name}, {count} boards | {figure['plies_per_cpu_second']:,} | {wall:,} |")
    for label, value in result["ratios"].items():
        print(f"{label}: {value}")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
