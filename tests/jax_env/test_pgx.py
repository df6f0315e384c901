"""The JAX environment as a ``pgx.Env``: pgx's own API test, its base class's step, the
rules core ply by ply, the public board and colours, the picture and refused actions."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any, Literal

import jax
import jax.numpy as jnp
import numpy as np
import pgx
import pgx._src.api_test as pgx_api_test
import pytest

from adjacency.core import InvalidSettingsError, InvalidSquareError, Position
from adjacency.core.svg import position_svg
from adjacency.jax import AdjacencyEnv, State, to_position

FAST = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
"""XLA's options for a quick compile (the same results)."""

SVG = "{http://www.w3.org/2000/svg}"


def test_it_is_a_pgx_env_and_passes_pgx_api_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pgx.api_test`` (pgx 2.6's): random games one at a time and in a batch, pgx's
    dtypes, only pgx's public state attributes, ``_step_count``, the all-True mask at the
    end, and ``save_svg`` on a single and a batched state. Two things are adapted, both
    pgx's and not the environment's: its ``EnvId`` list of pgx's own games gains
    ``"adjacency"``, and its random player draws over the last axis (pgx 2.6 draws over
    axis 1, which newer JAX refuses for one game's 1-D mask)."""
    env = AdjacencyEnv(4, 4, 2)
    assert isinstance(env, pgx.Env)
    assert isinstance(env.init(jax.random.PRNGKey(0)), pgx.State)
    monkeypatch.setattr(pgx_api_test, "EnvId", Literal[pgx.EnvId, "adjacency"])  # type: ignore[valid-type]

    def act_randomly(key: jax.Array, mask: jax.Array) -> jax.Array:
        return jax.random.categorical(key, jnp.log(mask.astype(jnp.float32)), axis=-1)

    monkeypatch.setattr(pgx_api_test, "act_randomly", jax.jit(act_randomly))
    pgx.api_test(env, num=3)


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 7), (8, 6)])
def test_num_actions_and_observation_shape_are_pgx_definitions(rows: int, cols: int) -> None:
    env = AdjacencyEnv(rows, cols, 3)
    # pgx's base class computes both from a state: the mask's length, an observation's shape
    assert env.num_actions == pgx.Env.num_actions.fget(env) == rows * cols
    assert env.observation_shape == pgx.Env.observation_shape.fget(env) == (rows, cols, 4)
    assert (env.id, env.version, env.num_players) == ("adjacency", "v0", 2)
    assert env.init(jax.random.PRNGKey(0)).env_id == env.id


def test_every_step_is_pgx_base_step_of_the_games_own_parts() -> None:
    """The environment's fast ``step`` against ``pgx.Env.step`` (pgx's composition of
    the game's ``_step``, its illegal-action penalty and its end-of-game mask) from the
    same states, with actions legal and, one in five, any square at all."""
    env = AdjacencyEnv(5, 5, 5)
    games = 24
    ours = jax.jit(jax.vmap(env.step), compiler_options=FAST)
    base = jax.jit(jax.vmap(lambda s, a: pgx.Env.step(env, s, a)), compiler_options=FAST)
    state = jax.jit(jax.vmap(env.init), compiler_options=FAST)(
        jax.random.split(jax.random.PRNGKey(5), games)
    )
    rng = np.random.default_rng(5)
    illegal_plies = legal_plies = 0
    for _ in range(env.total_plies + 1):  # one step past the end: a finished game stays
        mask = np.asarray(state.legal_action_mask)
        legal = np.argmax(rng.random(mask.shape) * mask, axis=1)
        anything = rng.integers(0, env.num_actions, games)
        action = np.where(rng.random(games) < 0.2, anything, legal).astype(np.int32)
        was_illegal = ~mask[np.arange(games), action]
        mine, theirs = ours(state, jnp.asarray(action)), base(state, jnp.asarray(action))
        for field in ("rewards", "terminated", "truncated", "legal_action_mask"):
            np.testing.assert_array_equal(getattr(mine, field), getattr(theirs, field))
        for game in np.flatnonzero(~was_illegal):
            for name, value in vars(mine).items():
                np.testing.assert_array_equal(value[game], getattr(theirs, name)[game], name)
        # an illegal action: pgx's base keeps what _step made of it; ours, the board
        illegal = was_illegal & ~np.asarray(state.terminated)
        np.testing.assert_array_equal(mine._board[illegal], state._board[illegal])
        illegal_plies += int(illegal.sum())
        legal_plies += int((~was_illegal & ~np.asarray(state.terminated)).sum())
        state = mine
    assert illegal_plies > 0 and legal_plies > games
    assert np.asarray(state.terminated).all()


def test_random_plies_through_jit_and_vmap_follow_the_rules_core() -> None:
    """Random legal plies on a batch, each compared with :meth:`Position.play` through
    the public ``board``, ``x_player`` and ``plies_left``: the squares, whose turn, the
    legal squares and, at the end, the rewards from the core's outcome."""
    env = AdjacencyEnv(5, 6, 6, first="o", reward="margin")
    games = 16
    step = jax.jit(jax.vmap(env.step), compiler_options=FAST)
    state = jax.jit(jax.vmap(env.init), compiler_options=FAST)(
        jax.random.split(jax.random.PRNGKey(11), games)
    )
    positions = [Position.start(5, 6, 6, "o") for _ in range(games)]
    rng = np.random.default_rng(11)
    for _ in range(env.total_plies):
        x_player = np.asarray(state.x_player)
        for game, position in enumerate(positions):
            board = np.asarray(state.board[game])
            assert [np.flatnonzero(board == 1).tolist(), np.flatnonzero(board == -1).tolist()] == [
                [s for s in range(30) if position.x >> s & 1],
                [s for s in range(30) if position.o >> s & 1],
            ]
            mover = int(state.current_player[game])
            assert position.turn == ("x" if mover == x_player[game] else "o")
            assert int(state.plies_left[game]) == position.plies_left
            assert np.flatnonzero(state.legal_action_mask[game]).tolist() == sorted(
                position.legal_squares()
            )
        mask = np.asarray(state.legal_action_mask)
        action = np.argmax(rng.random(mask.shape) * mask, axis=1).astype(np.int32)
        positions = [p.play(int(a)) for p, a in zip(positions, action, strict=True)]
        state = step(state, jnp.asarray(action))
    assert state.positions() == positions
    for game, position in enumerate(positions):
        x = int(state.x_player[game])
        assert float(state.rewards[game, x]) == position.margin("x")
        assert float(state.rewards[game, 1 - x]) == position.margin("o")


def test_x_player_names_which_player_id_plays_x() -> None:
    for first in ("x", "o"):
        env = AdjacencyEnv(4, 4, 2, first=first)  # type: ignore[arg-type]
        states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(1), 32))
        movers, x_players = np.asarray(states.current_player), np.asarray(states.x_player)
        assert set(movers.tolist()) == {0, 1}
        expected = movers if first == "x" else 1 - movers
        np.testing.assert_array_equal(x_players, expected)
        assert states.board.dtype == jnp.int8 and states.board.shape == (32, 16)


@pytest.mark.parametrize(
    ("action", "fragment"),
    [
        (6.7, r"an action must be an integer square index from 0 to 15, got 6\.7 \(float64\)"),
        (np.float32(6), r"got np\.float32\(6\.0\) \(float32\)"),
        (True, r"integer square index from 0 to 15, got True \(bool\)"),
        ("a1", r"integer square index from 0 to 15, got 'a1'"),
        (16, r"a square index from 0 to 15 on a 4x4 board, got 16"),
        (-1, r"a square index from 0 to 15 on a 4x4 board, got -1"),
        (np.int64(99), r"on a 4x4 board, got 99"),
        (jnp.int32(16), r"on a 4x4 board, got 16"),
        (np.array([1, 2]), r"one square index \(shape \(\)\), got shape \(2,\)"),
    ],
)
def test_an_action_off_the_action_space_is_refused_by_name(action: Any, fragment: str) -> None:
    env = AdjacencyEnv(4, 4, 2)
    state = env.init(jax.random.PRNGKey(0))
    with pytest.raises(InvalidSquareError, match=fragment):
        env.step(state, action)


def test_a_non_integer_action_is_refused_when_traced_too() -> None:
    env = AdjacencyEnv(4, 4, 2)
    state = env.init(jax.random.PRNGKey(0))
    with pytest.raises(InvalidSquareError, match="integer square index, got an array of float32"):
        jax.jit(env.step)(state, 6.7)
    batch = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 3))
    with pytest.raises(InvalidSquareError, match="got an array of float32"):
        jax.vmap(env.step)(batch, jnp.array([2.0, 3.0, 6.7]))
    # integers of any width are square indices: numpy's and Python's
    for action in (2, np.int64(2), np.uint8(2), jnp.int16(2)):
        np.testing.assert_array_equal(env.step(state, action).board, env.step(state, 2).board)


def test_save_svg_draws_the_core_picture_of_a_state_and_of_a_batch(tmp_path: Path) -> None:
    env = AdjacencyEnv(4, 5, 2)
    state = env.step(env.init(jax.random.PRNGKey(3)), 7)
    one = tmp_path / "one.svg"
    state.save_svg(one)
    assert one.read_text(encoding="utf-8") == position_svg(to_position(env, state))
    assert state._repr_html_() == state.to_svg()
    root = ElementTree.fromstring(state.to_svg(scale=2.0))
    assert (root.get("width"), root.get("height")) == (str(5 * 96 + 96), str(4 * 96 + 96))

    batch = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(4), 5))
    many = tmp_path / "many.svg"
    batch.save_svg(many)
    grid = ElementTree.fromstring(many.read_text(encoding="utf-8"))
    boards = grid.findall(f"{SVG}svg")
    assert len(boards) == 5  # three a row: two rows
    assert {(b.get("x"), b.get("y")) for b in boards} == {
        ("0", "0"), ("288", "0"), ("576", "0"), ("0", "240"), ("288", "240"),
    }  # fmt: skip
    assert (grid.get("width"), grid.get("height")) == ("864", "480")
    assert [p.fen() for p in batch.positions()] == [
        to_position(env, jax.tree.map(lambda f, i=i: f[i], batch)).fen() for i in range(5)
    ]


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda s, d: s.save_svg(d / "board.png"), "must end in .svg, got"),
        (lambda s, d: s.to_svg(color_theme="dark"), "color_theme must be 'light' or None"),
        (lambda s, d: s.to_svg(scale=0.1), "scale must be a number that draws squares"),
        (lambda s, d: s.to_svg(scale=float("nan")), "scale must be a number"),
    ],
)
def test_bad_picture_settings_are_refused_and_write_nothing(
    call: Any, fragment: str, tmp_path: Path
) -> None:
    state: State = AdjacencyEnv(4, 4, 2).init(jax.random.PRNGKey(0))
    with pytest.raises(InvalidSettingsError, match=fragment):
        call(state, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_empty_batch_has_no_picture(tmp_path: Path) -> None:
    env = AdjacencyEnv(4, 4, 2)
    empty = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 0))
    with pytest.raises(InvalidSettingsError, match="a batch of no games has no picture"):
        empty.save_svg(tmp_path / "none.svg")
    assert list(tmp_path.iterdir()) == []


def test_to_position_refuses_a_batch_by_name() -> None:
    env = AdjacencyEnv(4, 4, 2)
    batch = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 2))
    with pytest.raises(InvalidSettingsError, match=r"State\.positions\(\) reads a batch"):
        to_position(env, batch)
