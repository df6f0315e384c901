"""The JAX environment's pgx conventions, its errors and a pgx user's loop run on it."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from adjacency.core import RULES_VERSION, InvalidSettingsError, Position
from adjacency.jax import VERSION, AdjacencyEnv, State, to_position

FAST = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}


def test_pgx_properties() -> None:
    env = AdjacencyEnv(5, 6, 7, "o", "margin")
    assert (env.id, env.version, env.num_players) == ("adjacency", VERSION, 2)
    assert env.num_actions == 30
    assert env.observation_shape == (5, 6, 4)
    assert "version='v0'" in repr(env)
    assert env.rules_version == RULES_VERSION == "1"


@pytest.mark.parametrize(
    ("settings", "fragment"),
    [
        ({"rows": 3}, "rows must be from 4 to 8"),
        ({"rounds": 29}, "rounds must be a whole number from 1 to 28"),
        ({"first": "z"}, "first"),
        ({"reward": "score"}, "reward must be one of outcome, margin, got 'score'"),
    ],
)
def test_bad_settings_are_refused_by_name(settings: dict[str, object], fragment: str) -> None:
    with pytest.raises(InvalidSettingsError, match=fragment):
        AdjacencyEnv(**settings)  # type: ignore[arg-type]


def test_init_draws_which_player_moves_first_and_starts_at_the_core_start() -> None:
    env = AdjacencyEnv(4, 4, 4, first="o")
    states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(3), 64))
    firsts = np.asarray(states.current_player)
    assert set(firsts.tolist()) == {0, 1}
    # the first mover plays O here: X is the other player id
    np.testing.assert_array_equal(np.asarray(states._x_player), 1 - firsts)
    one = jax.tree.map(lambda field: field[0], states)
    assert to_position(env, one) == Position.start(4, 4, 4, "o")
    assert np.asarray(one.legal_action_mask).sum() == 16 - 8


def test_an_illegal_action_ends_the_game_against_its_sender_the_board_unchanged() -> None:
    env = AdjacencyEnv(4, 4, 4)
    state = env.init(jax.random.PRNGKey(0))
    mover = int(state.current_player)
    step = jax.jit(env.step, compiler_options=FAST)
    # a1 is X's; 16 is off a 4x4 board, -1 too: traced, their values are unknown to step
    for after in (env.step(state, 0), step(state, jnp.int32(16)), step(state, jnp.int32(-1))):
        assert bool(after.terminated)
        assert after.rewards[mover] == -1.0 and after.rewards[1 - mover] == 1.0
        np.testing.assert_array_equal(after._board, state._board)
        assert np.asarray(after.legal_action_mask).all()


def test_a_finished_game_is_left_as_it_is_with_zero_rewards() -> None:
    # 4x4, one round: X plays c2 and takes c3, O plays a4: X wins 6-4
    env = AdjacencyEnv(4, 4, 1)
    state = env.step(env.step(env.init(jax.random.PRNGKey(1)), 6), 12)
    assert to_position(env, state).score == (6, 4)
    assert state.rewards[state._x_player] == 1.0 and state.rewards[1 - state._x_player] == -1.0
    again = env.step(state, 5)
    np.testing.assert_array_equal(again._board, state._board)
    np.testing.assert_array_equal(again.rewards, [0.0, 0.0])
    assert int(again._step_count) == int(state._step_count) == 2


def test_a_draw_gives_plus_zero_to_both_players() -> None:
    # 4x4, one round: X plays c1 (takes nothing), O plays b4 (takes nothing): 5-5
    env = AdjacencyEnv(4, 4, 1)
    state = env.step(env.step(env.init(jax.random.PRNGKey(1)), 2), 13)
    assert to_position(env, state).outcome() == "draw"
    rewards = np.asarray(state.rewards)
    assert (rewards == 0.0).all() and not np.signbit(rewards).any()


def test_observe_from_either_player() -> None:
    env = AdjacencyEnv(4, 5, 3)
    state = env.step(env.init(jax.random.PRNGKey(2)), 7)
    mine = env.observe(state)
    theirs = env.observe(state, 1 - state.current_player)
    np.testing.assert_array_equal(mine[..., 0], theirs[..., 1])
    np.testing.assert_array_equal(mine[..., 2:], theirs[..., 2:])
    np.testing.assert_array_equal(mine, state.observation)


def test_a_pgx_users_batched_loop_runs_on_it() -> None:
    """The loop of pgx's README (jit(vmap(init)), jit(vmap(step)) with keys, random
    legal actions by ``jax.random.categorical``, stop when every game is over)."""
    env = AdjacencyEnv(5, 5, 4)
    init = jax.jit(jax.vmap(env.init), compiler_options=FAST)
    step = jax.jit(jax.vmap(env.step), compiler_options=FAST)
    batch = 32
    key = jax.random.PRNGKey(42)
    key, subkey = jax.random.split(key)
    state: State = init(jax.random.split(subkey, batch))
    returns = jnp.zeros((batch, env.num_players))
    plies = 0
    while not (state.terminated | state.truncated).all():
        key, act_key, step_key = jax.random.split(key, 3)
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        action = jax.random.categorical(act_key, logits, axis=-1)
        state = step(state, action, jax.random.split(step_key, batch))
        returns = returns + state.rewards
        plies += 1
    assert plies == 8
    # two-player zero-sum: every game's returns cancel, and each is +-1 or 0
    np.testing.assert_array_equal(returns.sum(axis=1), 0.0)
    assert set(np.abs(np.asarray(returns)).ravel().tolist()) <= {0.0, 1.0}
