"""The JAX environment against the batched environment and the core, on every board size.

Random games are played inside one jitted ``lax.scan`` per board size (a few compiles per
test, so each test stays well inside its minute); every ply's observation, mask, reward
and end flag is then compared with :class:`adjacency.rl.BatchedEnv` stepped with the same
actions, and every game's last position with :meth:`Position.play` replaying them.
Over the five tests: 25 board sizes x 120 games = 3,000 games, both first movers, both
reward modes, short and full-length games.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from adjacency.core import Color, Position
from adjacency.core.board import MAX_SIDE, MIN_SIDE, board
from adjacency.jax import AdjacencyEnv, RewardMode, State, to_position
from adjacency.rl import BatchedEnv

GAMES = 120


FAST_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
"""XLA's options for a quick compile (the same results; a few compiles per test stay cheap)."""


def random_games(env: AdjacencyEnv, seed: int, games: int) -> tuple[State, dict[str, Any]]:
    """``games`` random games on ``env`` (a uniformly random legal action each ply, drawn
    by numpy), through ``jit(vmap(env.init))`` and ``jit(vmap(env.step))``, with what every
    ply saw (before the action) and gave (after it)."""
    init = jax.jit(jax.vmap(env.init), compiler_options=FAST_COMPILE)
    step = jax.jit(jax.vmap(env.step), compiler_options=FAST_COMPILE)
    state = init(jax.random.split(jax.random.PRNGKey(seed), games))
    rng = np.random.default_rng(seed)
    seen: dict[str, list[np.ndarray]] = {}
    for _ in range(env.total_plies):
        mask = np.asarray(state.legal_action_mask)
        action = np.argmax(rng.random(mask.shape) * mask, axis=1).astype(np.int32)
        after = step(state, jnp.asarray(action))
        for name, value in (
            ("action", action),
            ("player", state.current_player),
            ("observation", state.observation),
            ("mask", mask),
            ("rewards", after.rewards),
            ("terminated", after.terminated),
            ("truncated", after.truncated),
        ):
            seen.setdefault(name, []).append(np.asarray(value))
        state = after
    return jax.tree.map(np.asarray, state), {k: np.stack(v) for k, v in seen.items()}


def check_size(rows: int, cols: int, rounds: int, first: Color, margin: bool, seed: int) -> int:
    """Play and compare one configuration; returns the plies compared."""
    mode: RewardMode = "margin" if margin else "outcome"
    env = AdjacencyEnv(rows, cols, rounds, first, mode)
    final, seen = random_games(env, seed, GAMES)
    batched = BatchedEnv(GAMES, rows, cols, rounds, first, reward=mode)
    x_player = final._x_player
    assert {0, 1} <= set(x_player.tolist()) or GAMES < 8  # both colours drawn for player 0
    for ply in range(env.total_plies):
        planes, mask = batched.observe()
        np.testing.assert_array_equal(seen["observation"][ply], planes)
        np.testing.assert_array_equal(seen["mask"][ply], mask.astype(bool))
        player = seen["player"][ply]
        step = batched.step(seen["action"][ply].astype(np.int64))
        mover_reward = seen["rewards"][ply][np.arange(GAMES), player]
        other_reward = seen["rewards"][ply][np.arange(GAMES), 1 - player]
        np.testing.assert_array_equal(mover_reward, step.reward)
        np.testing.assert_array_equal(other_reward, 0.0 - step.reward)
        assert not np.signbit(seen["rewards"][ply]).any() or (seen["rewards"][ply] < 0).any()
        np.testing.assert_array_equal(seen["terminated"][ply], step.done)
        assert not seen["truncated"][ply].any()
    assert final.terminated.all()
    assert final.legal_action_mask.all()  # pgx: all True once over
    for game in range(GAMES):
        position = Position.start(rows, cols, rounds, first)
        for ply in range(env.total_plies):
            position = position.play(int(seen["action"][ply][game]))
        one = jax.tree.map(lambda field, at=game: field[at], final)
        assert to_position(env, one) == position == batched.final_position(game)
        lead = position.margin("x")
        x_reward = float(lead) if margin else float(np.sign(lead))
        assert seen["rewards"][-1][game][x_player[game]] == x_reward
    return GAMES * env.total_plies


@pytest.mark.parametrize("rows", range(MIN_SIDE, MAX_SIDE + 1))
def test_every_size_plays_as_the_batched_env_and_the_core(rows: int) -> None:
    compared = 0
    for cols in range(MIN_SIDE, MAX_SIDE + 1):
        longest = board(rows, cols).max_rounds()
        index = rows * 10 + cols
        rounds = longest if index % 2 == 0 else max(1, longest // 2)
        first: Color = "x" if index % 3 else "o"
        compared += check_size(rows, cols, rounds, first, margin=index % 4 < 2, seed=index)
    assert compared >= GAMES * 5 * 2
