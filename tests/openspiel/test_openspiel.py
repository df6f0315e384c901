"""The OpenSpiel game against OpenSpiel's own checks and the core rules; bots both ways."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.get_all_states import get_all_states
from open_spiel.python.observation import make_observation

from adjacency import Position
from adjacency.arena.games import play_task
from adjacency.arena.schedule import RunSettings, plan
from adjacency.bots import BotError, Limit, make_bot
from adjacency.core import InvalidSettingsError
from adjacency.openspiel import SpielBot, load, state_of

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("rows", "cols", "rounds", "first"), [(4, 4, 4, "x"), (5, 7, 6, "o"), (8, 8, 28, "x")]
)
def test_openspiel_random_simulation_checks(rows: int, cols: int, rounds: int, first: str) -> None:
    """OpenSpiel's C++ conformance test: legal actions, cloning, tensors, serialization."""
    game = pyspiel.load_game(f"adjacency(rows={rows},cols={cols},rounds={rounds},first={first})")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_info_follows_the_parameters() -> None:
    game = load(5, 6, 7, "o")
    assert game.num_distinct_actions() == 30
    assert game.max_game_length() == 14
    assert game.observation_tensor_shape() == [4, 5, 6]
    assert game.information_state_tensor_shape() == [4 + 14, 5, 6]
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    state = game.new_initial_state()
    assert state.current_player() == 1  # O moves first; player 1 is O


def naive_reachable(rows: int, cols: int, rounds: int) -> set[str]:
    """Every position reachable from the start, by breadth-first search on core positions."""
    frontier = {Position.start(rows, cols, rounds)}
    seen = set(frontier)
    while frontier:
        frontier = {p.play(m) for p in frontier for m in p.legal_squares()} - seen
        seen |= frontier
    return {str(p) + f"\n{p.turn} {p.plies_left}" for p in seen}


@pytest.mark.slow
def test_exhaustive_enumeration_of_a_small_game_matches_the_core() -> None:
    """Every position of a whole 4x4 game, and every history of a 2-round one."""
    states = get_all_states(
        load(4, 4, 4), to_string=lambda s: f"{s}\n{s.position.turn} {s.position.plies_left}"
    )
    assert set(states) == naive_reachable(4, 4, 4)
    histories = get_all_states(load(4, 4, 2))  # keyed by action history
    assert len(histories) == 1 + 8 + 8 * 7 + 8 * 7 * 6 + 8 * 7 * 6 * 5
    for state in histories.values():
        if state.is_terminal():
            margin = state.position.margin("x")
            assert state.returns() == [float(np.sign(margin)), -float(np.sign(margin))]
            assert state.legal_actions() == []
        else:
            assert state.legal_actions() == state.position.legal_squares()


def test_tensors_show_the_board_and_the_history() -> None:
    game = load(4, 4, 3)
    state = game.new_initial_state()
    for square in (2, 7, 8):  # c1, d2, a3
        state.apply_action(square)
    obs = np.array(state.observation_tensor(0)).reshape(4, 4, 4)
    position = state.position
    for square in range(16):
        r, c = divmod(square, 4)
        piece = position.piece_at(square)
        assert obs[0, r, c] == (piece == "x")
        assert obs[1, r, c] == (piece == "o")
        assert obs[2, r, c] == (piece is None)
    assert np.allclose(obs[3], position.plies_left / 6)
    o_view = np.array(state.observation_tensor(1)).reshape(4, 4, 4)
    assert np.array_equal(o_view[0], obs[1]) and np.array_equal(o_view[1], obs[0])
    info = np.array(state.information_state_tensor(0)).reshape(4 + 6, 4, 4)
    for ply, square in enumerate((2, 7, 8)):
        assert info[4 + ply].sum() == 1 and info[4 + ply, square // 4, square % 4] == 1
    assert info[7:].sum() == 0
    assert state.information_state_string(0) == "x c1 d2 a3"
    # two move orders reaching the same board: same observation, different information state
    other = game.new_initial_state()
    for square in (8, 7, 2):
        other.apply_action(square)
    assert str(other) == str(state)
    assert other.observation_tensor(0) == state.observation_tensor(0)
    assert other.information_state_tensor(0) != state.information_state_tensor(0)
    python_obs = make_observation(game)
    python_obs.set_from(state, 0)
    assert np.array_equal(python_obs.tensor, np.array(state.observation_tensor(0), np.float32))


def test_states_serialize_and_pickle() -> None:
    game = load(6, 6, 8, "o")
    state = game.new_initial_state()
    for action in (20, 3, 17):
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    new_game, new_state = pyspiel.deserialize_game_and_state(text)
    assert str(new_game) == str(game)
    assert new_state.history() == [20, 3, 17]
    assert new_state.position == state.position
    assert pickle.loads(pickle.dumps(state)).position == state.position
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.position != clone.position and len(state.history()) == 3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("adjacency(rows=3)", "rows must be from 4 to 8, got 3"),
        ("adjacency(rounds=29)", "rounds must be a whole number from 1 to 28"),
        ("adjacency(first=z)", "first must be 'x' or 'o'"),
    ],
)
def test_bad_parameters_are_rejected(text: str, expected: str) -> None:
    with pytest.raises((InvalidSettingsError, RuntimeError, pyspiel.SpielError), match=expected):
        pyspiel.load_game(text)


def test_openspiel_mcts_plays_a_full_game_in_the_arena() -> None:
    settings = RunSettings(rows=5, cols=5, rounds=(5,), games=2, time=3.0, seed=1)
    tasks = plan(["openspiel:algo=mcts,simulations=200", "greedy"], "match", settings)
    for task in tasks:
        result = play_task(task)
        assert result.termination == "normal", result.detail
        assert result.plies == 10
        assert result.x_score + result.o_score == 8 + 10


def test_openspiel_bots_through_the_command_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "adjacency",
            "move",
            "openspiel:algo=random,seed=3",
            "4oo/4oo/6/6/xx4/xx4 x 8",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] in Position.from_fen("4oo/4oo/6/6/xx4/xx4 x 8").legal_moves()


def test_our_bots_play_inside_openspiel_evaluation_loops() -> None:
    game = load(5, 5, 6)
    wins = 0
    for seed in range(4):
        bots = [SpielBot("greedy", seed=seed), pyspiel.make_uniform_random_bot(1, seed)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert returns[0] == -returns[1] and returns[0] in (-1.0, 0.0, 1.0)
        wins += returns[0] == 1.0
    assert wins >= 3  # greedy beats uniform random nearly always
    engine = SpielBot("alphabeta:depth=2", Limit(time=1.0))
    mcts_bot = SpielBot("mcts:simulations=300", seed=1)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [engine, mcts_bot], 0)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_state_can_hold_any_position_of_its_board() -> None:
    position = Position.from_fen("4oo/4oo/6/2x3/xx4/xx4 o 5")
    state = state_of(position)
    assert state.current_player() == 1
    assert state.legal_actions() == position.legal_squares()
    bot = make_bot("openspiel:simulations=100", seed=1)
    assert bot.choose_move(position, Limit(time=2.0)) in position.legal_moves()


def test_the_registry_imports_openspiel_only_on_demand() -> None:
    code = (
        "import sys\n"
        "from adjacency.bots import make_bot, entries\n"
        "make_bot('greedy'); entries()\n"
        "assert 'adjacency.openspiel' not in sys.modules and 'pyspiel' not in sys.modules\n"
        "make_bot('openspiel:algo=random')\n"
        "assert 'adjacency.openspiel' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_missing_extra_is_a_clear_bot_error() -> None:
    code = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"
        "from adjacency.bots import make_bot, BotError\n"
        "try:\n"
        "    make_bot('openspiel')\n"
        "except BotError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "bot 'openspiel' needs the openspiel extra" in done.stdout
    assert "pip install 'adjacency-game[openspiel]'" in done.stdout


def test_unknown_openspiel_options_name_what_is_accepted() -> None:
    with pytest.raises(BotError, match=r"algo='alphazero'.*not one of mcts, random"):
        make_bot("openspiel:algo=alphazero")


def test_wrong_boards_and_observer_parameters_are_adjacency_errors() -> None:
    """Bad input from OpenSpiel's side is bad input in the taxonomy (docs/errors.md)."""
    from adjacency.core import InvalidPositionError

    game = load(4, 4, 2)
    with pytest.raises(InvalidPositionError, match="is not on the game's 4x4 board"):
        game.new_initial_state(Position.start(5, 5, 2))
    with pytest.raises(InvalidSettingsError, match="observation parameters are not supported"):
        game.make_py_observer(None, {"shape": 1})


def test_openspiel_mcts_stops_at_its_time_however_many_simulations_it_may_run() -> None:
    """100,000 simulations take minutes; the move's time ends the search long before
    (the bot reports the simulations it ran as its nodes)."""
    bot = make_bot("openspiel:simulations=100000", seed=2)
    position = Position.start(8, 8, 28)
    move = bot.choose_move(position, Limit(time=0.2))
    assert move in position.legal_moves()
    assert bot.report is not None and bot.report.nodes is not None
    assert 2 <= bot.report.nodes < 100_000


def test_openspiel_mcts_stopped_from_another_thread_answers_from_its_tree() -> None:
    import threading

    bot = make_bot("openspiel:simulations=100000", seed=3)
    position = Position.start(8, 8, 28)
    threading.Timer(0.3, bot.stop).start()
    move = bot.choose_move(position, Limit(time=600.0))  # only the stop can end it soon
    assert move in position.legal_moves()
    assert bot.report is not None and bot.report.nodes is not None
    assert bot.report.nodes < 100_000
