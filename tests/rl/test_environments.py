"""The PettingZoo and Gymnasium environments, checked by their libraries' own tests and
against the core rules."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from adjacency.bots import BotError
from adjacency.core import IllegalMoveError, InvalidSettingsError, board
from adjacency.rl import GYMNASIUM_ID, AdjacencyEnv, AdjacencySingleEnv, env
from naive_rules import NaiveGame

# PettingZoo's test suggests Box observations and agents named like "player_0"; the issue
# asks for agents x and o, and the dict observation is that of PettingZoo's own classic games.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo")


@pytest.mark.parametrize(
    ("rows", "cols", "rounds", "first"), [(4, 4, 4, "x"), (5, 8, 9, "o"), (8, 8, 28, "x")]
)
def test_pettingzoo_api_test(rows: int, cols: int, rounds: int, first: str) -> None:
    api_test(env(rows=rows, cols=cols, rounds=rounds, first=first), num_cycles=200)


def test_pettingzoo_seed_and_render_tests() -> None:
    seed_test(lambda: env(rows=6, cols=6, rounds=8), num_cycles=50)
    render_test(lambda render_mode=None: env(rows=5, cols=5, rounds=6, render_mode=render_mode))


def test_random_games_follow_the_naive_rules_and_reward_the_winner() -> None:
    rng = random.Random(4)
    for game in range(10):
        rows, cols = rng.randint(4, 8), rng.randint(4, 8)
        rounds = rng.randint(1, (rows * cols - 8) // 2)
        first = rng.choice(("x", "o"))
        reward = "margin" if game % 2 else "outcome"
        e = AdjacencyEnv(rows, cols, rounds, first, reward=reward)  # type: ignore[arg-type]
        naive = NaiveGame(rows, cols, rounds, first)
        totals = {"x": 0.0, "o": 0.0}
        for agent in e.agent_iter():
            obs, rew, term, trunc, _ = e.last()
            totals[agent] += rew
            if term or trunc:
                e.step(None)
                continue
            assert agent == naive.turn
            legal = np.flatnonzero(obs["action_mask"])
            names = [board(rows, cols).name(int(a)) for a in legal]
            assert sorted(names) == sorted(naive.empties())
            action = int(rng.choice(list(legal)))
            naive.play(board(rows, cols).name(action))
            e.step(action)
            assert e.position.fen() == naive.fen()
        x, o = naive.score()
        expected = float(x - o) if reward == "margin" else float(np.sign(x - o))
        assert totals == {"x": expected, "o": -expected}


def test_observation_planes_show_the_position_from_the_observers_side() -> None:
    e = AdjacencyEnv(5, 6, 7, "x")
    for action in (2, 14, 20):
        e.step(action)
    position = e.position
    for agent in ("x", "o"):
        planes = e.observe(agent)["observation"]
        assert planes.shape == (5, 6, 4) and planes.dtype == np.float32
        flat = planes.reshape(-1, 4)
        for square in range(30):
            piece = position.piece_at(square)
            assert flat[square, 0] == (piece == agent)
            assert flat[square, 1] == (piece not in (None, agent))
            assert flat[square, 2] == (piece is None)
        assert np.allclose(flat[:, 3], position.plies_left / 14)
        assert e.observe(agent)["action_mask"].tolist() == [
            int(position.piece_at(sq) is None) for sq in range(30)
        ]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = AdjacencyEnv(4, 4, 2)
    before = e.position
    with pytest.raises(IllegalMoveError, match="a1 is occupied by x"):
        e.step(0)
    with pytest.raises(IllegalMoveError, match="off the 4x4 board"):
        e.step(16)
    with pytest.raises(IllegalMoveError, match="an action must be a square index"):
        e.step(2.5)
    assert e.position == before and e.agent_selection == "x"


def test_bad_settings_are_rejected_with_the_value() -> None:
    with pytest.raises(InvalidSettingsError, match="rounds must be a whole number from 1 to 4"):
        AdjacencyEnv(4, 4, 5)
    with pytest.raises(InvalidSettingsError, match="reward must be one of outcome, margin"):
        AdjacencyEnv(reward="score")  # type: ignore[arg-type]
    with pytest.raises(InvalidSettingsError, match="render_mode must be one of human, ansi, rgb"):
        AdjacencyEnv(render_mode="svg")  # type: ignore[arg-type]
    with pytest.raises(BotError, match="unknown bot 'alphabet'"):
        AdjacencySingleEnv(opponent="alphabet")


def test_rendering(capsys: pytest.CaptureFixture[str]) -> None:
    assert AdjacencyEnv(4, 4, 1, render_mode="human").render() is None
    assert "x to move, 2 plies left" in capsys.readouterr().out
    e = AdjacencyEnv(4, 5, 2, render_mode="ansi")
    text = e.render()
    assert isinstance(text, str) and "x to move, 4 plies left" in text and "a b c d e" in text
    picture = AdjacencyEnv(4, 5, 2, render_mode="rgb_array").render()
    assert isinstance(picture, np.ndarray)
    assert picture.shape == (4 * 24, 5 * 24, 3) and picture.dtype == np.uint8
    # X's corner (a1, bottom-left) has red pixels, O's corner (e4, top-right) blue ones
    a1 = picture[3 * 24 :, :24].reshape(-1, 3)
    e4 = picture[:24, 4 * 24 :].reshape(-1, 3)
    assert any(tuple(p) == (198, 40, 40) for p in a1)
    assert any(tuple(p) == (21, 101, 192) for p in e4)


@pytest.mark.parametrize("color", ["x", "o"])
def test_gymnasium_env_checker(color: str) -> None:
    check_env(
        AdjacencySingleEnv(opponent="alphabeta:depth=2", color=color, rows=6, cols=6, rounds=6),  # type: ignore[arg-type]
        skip_render_check=True,
    )
    made = gymnasium.make(GYMNASIUM_ID, opponent="greedy", rounds=4, render_mode="ansi")
    check_env(made.unwrapped)


def test_the_single_agent_env_plays_whole_games_against_its_opponent() -> None:
    e = AdjacencySingleEnv(opponent="greedy", color="o", rows=5, cols=5, rounds=6)
    obs, _ = e.reset(seed=3)
    assert e.position.ply_count == 1  # X, the opponent, moved first
    rng = np.random.default_rng(0)
    done = False
    reward = 0.0
    steps = 0
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert e.action_masks()[action]
        obs, reward, done, truncated, info = e.step(np.int64(action))
        steps += 1
        assert not truncated and "illegal_move" not in info
    assert steps == 6 and e.position.is_over
    assert reward == float(np.sign(e.position.margin("o")))
    with pytest.raises(IllegalMoveError, match="call reset"):
        e.step(np.int64(0))


def test_an_illegal_action_ends_a_gymnasium_episode_as_a_loss() -> None:
    e = AdjacencySingleEnv(opponent="random", rows=4, cols=4, rounds=3, reward="margin")
    e.reset(seed=1)
    before = e.position
    _, reward, done, _, info = e.step(np.int64(0))  # a1: X's own piece
    assert done and reward == -16.0 and "occupied" in info["illegal_move"]
    assert e.position == before


def test_a_seeded_reset_replays_the_same_opponent() -> None:
    def episode(seed: int) -> list[str]:
        e = AdjacencySingleEnv(opponent="random", rows=6, cols=6, rounds=5, color="o")
        obs, _ = e.reset(seed=seed)
        while not e.position.is_over:
            obs, *_ = e.step(np.int64(int(np.flatnonzero(obs["action_mask"])[0])))
        return [e.position.fen()]

    assert episode(8) == episode(8)
