"""The batched environment against the core: the same games, rewards, observations and
masks as :meth:`Position.play` and the one-board observation, on every board size."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency.core import (
    RULES_VERSION,
    Color,
    IllegalMoveError,
    InvalidSettingsError,
    Position,
    board,
)
from adjacency.rl import AdjacencyVectorEnv, BatchedEnv, action_mask, observe
from core_strategies import settings


def outcome_for(position: Position, mover: Color, margin: bool) -> float:
    lead = position.margin(mover)
    return float(lead) if margin else float((lead > 0) - (lead < 0))


def replay_against_core(
    rows: int, cols: int, rounds: int, first: Color, seed: int, boards: int, margin: bool
) -> int:
    """Random games on ``boards`` boards, each checked after every step against its own
    core position; returns the games finished."""
    env = BatchedEnv(
        boards, rows, cols, rounds, first, reward="margin" if margin else "outcome", seed=seed
    )
    start = Position.start(rows, cols, rounds, first)
    positions = [start] * boards
    rng = random.Random(seed)
    finished = 0
    for _ in range(2 * rounds * 2 + 1):
        if rng.random() < 0.5:
            actions = env.sample_actions().copy()
        else:
            actions = np.array([rng.choice(p.legal_squares()) for p in positions], dtype=np.int64)
        assert all(a in p.legal_squares() for a, p in zip(actions, positions, strict=True))
        result = env.step(actions)
        for i in range(boards):
            mover = positions[i].turn
            after = positions[i].play(int(actions[i]))
            if after.is_over:
                assert result.done[i]
                assert result.reward[i] == outcome_for(after, mover, margin)
                assert env.final_position(i) == after
                positions[i] = start
                finished += 1
            else:
                assert not result.done[i] and result.reward[i] == 0.0
                positions[i] = after
            assert env.position(i) == positions[i]
        planes, mask = env.observe()
        for i in range(boards):
            expected = observe(positions[i], positions[i].turn, 2 * rounds)
            np.testing.assert_array_equal(planes[i], expected["observation"])
            np.testing.assert_array_equal(mask[i], action_mask(positions[i]))
    return finished


@hsettings(max_examples=60, deadline=None)
@given(settings(), st.integers(0, 2**31), st.integers(1, 5), st.booleans())
def test_random_games_on_random_sizes_match_the_core(
    setting: tuple[int, int, int, Color], seed: int, boards: int, margin: bool
) -> None:
    rows, cols, rounds, first = setting
    assert replay_against_core(rows, cols, rounds, first, seed, boards, margin) >= boards


def test_every_board_size_the_core_allows_matches_it() -> None:
    for rows in range(4, 9):
        for cols in range(4, 9):
            rounds = board(rows, cols).max_rounds()
            finished = replay_against_core(rows, cols, rounds, "o", rows * 10 + cols, 3, False)
            assert finished >= 3


def test_a_strict_step_refuses_an_illegal_action_and_changes_no_board() -> None:
    env = BatchedEnv(3, 5, 5, 4)
    before = [env.position(i) for i in range(3)]
    with pytest.raises(IllegalMoveError, match=r"illegal action 0 on board 1: a1 is occupied"):
        env.step(np.array([12, 0, 12]))
    with pytest.raises(IllegalMoveError, match=r"board 2: squares run from 0 to 24"):
        env.step(np.array([12, 12, 25]))
    with pytest.raises(IllegalMoveError, match=r"3 integer square indices"):
        env.step([1.5, 2.0, 3.0])
    assert [env.position(i) for i in range(3)] == before


def test_a_lenient_step_ends_an_illegal_game_as_a_loss_and_resets_it() -> None:
    env = BatchedEnv(2, 5, 5, 4, strict=False)
    result = env.step(np.array([12, 0]))
    assert list(result.done) == [False, True] and list(result.illegal) == [False, True]
    assert list(result.reward) == [0.0, -1.0]
    assert env.position(1) == Position.start(5, 5, 4)
    assert env.position(0) == Position.start(5, 5, 4).play(12)


def test_settings_are_checked_with_clear_errors() -> None:
    with pytest.raises(InvalidSettingsError, match="boards must be a whole number"):
        BatchedEnv(0)
    with pytest.raises(InvalidSettingsError, match="rounds must be a whole number"):
        BatchedEnv(2, 4, 4, 9)
    with pytest.raises(InvalidSettingsError, match="reward must be one of"):
        BatchedEnv(2, reward="score")  # type: ignore[arg-type]
    with pytest.raises(InvalidSettingsError, match="5x5 board"):
        BatchedEnv(2, 6, 6, 4).set_position(0, Position.start(5, 5, 4))


def test_a_finished_position_is_refused_by_name_and_changes_no_board() -> None:
    env = BatchedEnv(2, 4, 4, 1)
    finished = Position.start(4, 4, 1).play("c2").play("a4")
    before = env.position(0)
    with pytest.raises(InvalidSettingsError, match=r"the position is finished \(no plies left\)"):
        env.set_position(0, finished)
    assert env.position(0) == before
    env.set_position(1, Position.start(4, 4, 1).play("c2"))  # one ply left: accepted
    assert env.step(np.array([2, 12])).done.tolist() == [False, True]


def test_the_sampler_state_saves_and_restores_the_random_actions() -> None:
    env = BatchedEnv(16, 6, 6, 6, seed=5)
    env.step(env.sample_actions())
    saved, boards = env.sampler_state(), env.mover.copy()
    first = [env.sample_actions().copy() for _ in range(3)]
    env.set_sampler_state(saved)
    assert [env.sample_actions().copy().tolist() for _ in range(3)] == [a.tolist() for a in first]
    for bad in (np.zeros(1, np.uint64), np.ones(2, np.uint64), np.array([1.5]), "seed"):
        with pytest.raises(InvalidSettingsError, match="a sampler state is what sampler_state"):
            env.set_sampler_state(bad)
    np.testing.assert_array_equal(env.mover, boards)  # sampling moves no board


def test_the_environment_and_the_observation_carry_versions() -> None:
    from adjacency.rl import observation

    assert BatchedEnv.version == BatchedEnv(1).version == "v0"
    assert observation.VERSION == "v0"
    assert BatchedEnv(1).rules_version == RULES_VERSION == "1"


def test_seeds_repeat_random_actions() -> None:
    def run(seed: int) -> list[int]:
        env = BatchedEnv(8, 6, 6, 6, seed=seed)
        played: list[int] = []
        for _ in range(20):
            actions = env.sample_actions()
            played.extend(int(a) for a in actions)
            env.step(actions)
        return played

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_run_random_plays_whole_games_compiled() -> None:
    env = BatchedEnv(16, 4, 4, 4, seed=1)
    assert env.run_random(8 * 5) == 16 * 5  # 8 plies a game
    assert all(env.position(i) == Position.start(4, 4, 4) for i in range(16))


def test_the_vector_env_is_a_gymnasium_vector_env_with_same_step_reset() -> None:
    envs = AdjacencyVectorEnv(4, rows=4, cols=5, rounds=2)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    observation, info = envs.reset(seed=5)
    assert observation in envs.observation_space
    assert observation["observation"].shape == (4, 4, 5, 4)
    assert list(info["turn"]) == [0, 0, 0, 0]
    rng = np.random.default_rng(0)
    for _ in range(4):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in observation["action_mask"]])
        observation, reward, terminated, truncated, info = envs.step(actions)
        assert observation in envs.observation_space and not truncated.any()
    assert terminated.all()
    assert all(final is not None for final in info["final_obs"])
    assert info["_final_obs"].all() and set(reward) <= {-1.0, 0.0, 1.0}
    assert observation["action_mask"].sum() == 4 * (20 - 8)  # all back at the start
    # the final observation is the last position from the side that would move
    assert int(info["final_obs"][0]["action_mask"].sum()) == 0
    for i, final in enumerate(info["final_obs"]):
        position = envs.batch.final_position(i)
        assert position.is_over
        expected = observe(position, position.turn, 4)
        np.testing.assert_array_equal(final["observation"], expected["observation"])
        np.testing.assert_array_equal(final["action_mask"], expected["action_mask"])
    _, reward, terminated, _, info = envs.step(np.array([0, 7, 7, 7]))  # a1 is X's
    assert list(terminated) == [True, False, False, False] and reward[0] == -1.0
    assert list(info["illegal_move"]) == [True, False, False, False]
