"""The environment: one game as pure functions on a pytree, in pgx's ``Env`` shape.

A :class:`State` holds pgx's public fields and three of the game's own: the board
(``int8`` per square: 1 X, -1 O, 0 empty, the core's square order ``rank * cols +
file``), the plies left and which player id plays X. Player ids are pgx's: ``init``
draws which of players 0 and 1 moves first from its key, so a learner plays both
colours over a batch. Everything is arrays of fixed shape, so ``jax.jit(jax.vmap(
env.step))`` steps any number of boards at once, on CPU or an accelerator.

pgx's conventions, kept so that code written for a pgx two-player game runs here:

- ``rewards[p]`` is player ``p``'s reward for the last step: at the game's end +1 / -1
  / 0 by the final square count (``reward="margin"``: the margin in squares), else 0;
- an illegal action (an occupied square, or one off the board) ends the game at once,
  -1 to the player that sent it and +1 to the other, the board unchanged;
- a step on a finished state changes nothing and gives zero rewards;
- at the end ``legal_action_mask`` is all True (pgx does this so that normalising a
  policy over it never divides by zero); while the game is on it is the empty squares;
- ``truncated`` is always False: every game ends after exactly ``2 * rounds`` plies.

The observation is the layout of :mod:`adjacency.rl.observation` (float32 ``(rows,
cols, 4)``: own pieces, the opponent's, the empty squares, plies left / plies of the
game) from the observing player's side.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any, Literal

import jax
import jax.numpy as jnp
import numpy as np

from ..core import RULES_VERSION, Color, InvalidSettingsError, Position, check_color

VERSION = "v0"
"""The environment's version (pgx's ``Env.version``): raised whenever a step, reward or
observation can differ for the same actions, never for a refactoring or a speed-up."""

RewardMode = Literal["outcome", "margin"]
REWARD_MODES: tuple[RewardMode, ...] = ("outcome", "margin")
X_PIECE, O_PIECE, EMPTY = 1, -1, 0
Array = jax.Array


@partial(
    jax.tree_util.register_dataclass,
    data_fields=[
        "current_player",
        "observation",
        "rewards",
        "terminated",
        "truncated",
        "legal_action_mask",
        "_step_count",
        "_board",
        "_plies_left",
        "_x_player",
    ],
    meta_fields=[],
)
@dataclasses.dataclass(frozen=True)
class State:
    """One game (or, under ``vmap``, a batch of them: every field gains a leading axis).

    ``current_player``: the player id (0 or 1) to move; ``observation``: its view;
    ``rewards``: float32 (2,) by player id; ``terminated`` / ``truncated``: bool;
    ``legal_action_mask``: bool (rows * cols,).
    """

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array
    _board: Array
    _plies_left: Array
    _x_player: Array

    @property
    def env_id(self) -> str:
        """pgx's name for the game of a state."""
        return "adjacency"

    def replace(self, **changes: Any) -> State:
        """A copy with ``changes`` (pgx's and flax's ``State.replace``)."""
        return dataclasses.replace(self, **changes)


class AdjacencyEnv:
    """The game of one board size and length, as pgx's ``Env``.

    ``rows``, ``cols``, ``rounds`` and ``first`` are those of
    :meth:`adjacency.core.Position.start` and are checked by it; ``reward`` is
    ``"outcome"`` (+1 / -1 / 0) or ``"margin"`` (the final margin in squares).
    """

    def __init__(
        self,
        rows: int = 8,
        cols: int = 8,
        rounds: int = 28,
        first: Color = "x",
        reward: RewardMode = "outcome",
    ) -> None:
        if reward not in REWARD_MODES:
            raise InvalidSettingsError(
                f"reward must be one of {', '.join(REWARD_MODES)}, got {reward!r}"
            )
        self.start = Position.start(rows, cols, rounds, check_color(first, "first"))
        self.rows, self.cols = rows, cols
        self.size = rows * cols
        self.total_plies = self.start.plies_left
        self.first: Color = self.start.turn
        self.reward_mode: RewardMode = reward
        geometry = self.start.board
        start = np.zeros(self.size, dtype=np.int8)
        for square in range(self.size):
            if self.start.x >> square & 1:
                start[square] = X_PIECE
            elif self.start.o >> square & 1:
                start[square] = O_PIECE
        neighbours = np.zeros((self.size, self.size), dtype=np.bool_)
        for square, mask in enumerate(geometry.neighbours):
            for other in range(self.size):
                neighbours[square, other] = bool(mask >> other & 1)
        self._start = start
        self._neighbours = neighbours
        # plies left / plies of the game, divided here in float64 and rounded once to
        # float32 (the numpy environments' values to the bit; XLA's float32 division
        # on CPU can differ in the last place)
        self._fractions = (np.arange(self.total_plies + 1) / self.total_plies).astype(np.float32)

    def __repr__(self) -> str:
        return (
            f"AdjacencyEnv({self.rows}x{self.cols}, rounds={self.total_plies // 2}, "
            f"first={self.first!r}, reward={self.reward_mode!r}, version={VERSION!r})"
        )

    # ------------------------------------------------------------------ pgx's properties

    @property
    def id(self) -> str:
        """pgx's environment id."""
        return "adjacency"

    @property
    def version(self) -> str:
        """The environment's version (:data:`VERSION`)."""
        return VERSION

    @property
    def rules_version(self) -> str:
        """The rules' version it plays (:data:`adjacency.core.RULES_VERSION`)."""
        return RULES_VERSION

    @property
    def num_players(self) -> int:
        """Two."""
        return 2

    @property
    def num_actions(self) -> int:
        """One action per square: ``rows * cols``."""
        return self.size

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """``(rows, cols, 4)``."""
        return (self.rows, self.cols, 4)

    # ------------------------------------------------------------------ the functions

    def init(self, key: Array) -> State:
        """The start; ``key`` draws which player id moves first."""
        first_player = jax.random.bernoulli(key).astype(jnp.int32)
        x_player = first_player if self.first == "x" else 1 - first_player
        board = jnp.asarray(self._start)
        state = State(
            current_player=first_player,
            observation=jnp.zeros(self.observation_shape, jnp.float32),
            rewards=jnp.zeros(2, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=board == EMPTY,
            _step_count=jnp.int32(0),
            _board=board,
            _plies_left=jnp.int32(self.total_plies),
            _x_player=x_player,
        )
        return state.replace(observation=self.observe(state))

    def step(self, state: State, action: Array | int, key: Array | None = None) -> State:
        """The state after ``action`` (a square index); ``key`` is unused (no chance moves)."""
        del key
        action = jnp.asarray(action, jnp.int32)
        finished = state.terminated | state.truncated
        on_board = (action >= 0) & (action < self.size)
        square = jnp.clip(action, 0, self.size - 1)
        illegal = ~finished & ~(on_board & (state._board[square] == EMPTY))
        me = jnp.where(state.current_player == state._x_player, X_PIECE, O_PIECE).astype(jnp.int8)
        converted = jnp.asarray(self._neighbours)[square] & (state._board == -me)
        board = jnp.where(converted, me, state._board).at[square].set(me)
        plies = state._plies_left - 1
        over = plies == 0
        lead = jnp.sum(board == X_PIECE) - jnp.sum(board == O_PIECE)
        x_reward = jnp.where(
            over, lead if self.reward_mode == "margin" else jnp.sign(lead), 0
        ).astype(jnp.float32)
        played = State(
            current_player=1 - state.current_player,
            observation=state.observation,
            rewards=self._by_player(x_reward, state._x_player),
            terminated=over,
            truncated=jnp.bool_(False),
            legal_action_mask=state.legal_action_mask,
            _step_count=state._step_count + 1,
            _board=board,
            _plies_left=plies,
            _x_player=state._x_player,
        )
        penalised = state.replace(
            rewards=self._by_player(
                jnp.where(state.current_player == state._x_player, -1.0, 1.0), state._x_player
            ),
            terminated=jnp.bool_(True),
        )
        unchanged = state.replace(rewards=jnp.zeros(2, jnp.float32))
        chosen = _select(finished, unchanged, _select(illegal, penalised, played))
        chosen = chosen.replace(
            legal_action_mask=chosen.terminated | (chosen._board == EMPTY),
        )
        return chosen.replace(observation=self.observe(chosen))

    def observe(self, state: State, player_id: Array | int | None = None) -> Array:
        """float32 ``(rows, cols, 4)``: the position from ``player_id``'s side (default:
        the player to move)."""
        player = state.current_player if player_id is None else jnp.asarray(player_id)
        own = jnp.where(player == state._x_player, X_PIECE, O_PIECE).astype(jnp.int8)
        fraction = jnp.asarray(self._fractions)[state._plies_left]
        planes = jnp.stack(
            [
                state._board == own,
                state._board == -own,
                state._board == EMPTY,
                jnp.ones(self.size, jnp.bool_),
            ],
            axis=-1,
        ).astype(jnp.float32)
        planes = planes.at[:, 3].multiply(fraction)
        return jax.lax.stop_gradient(planes.reshape(self.observation_shape))

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _by_player(x_reward: Array, x_player: Array) -> Array:
        """``rewards`` by player id from X's reward (``0.0 - r``, never ``-0.0``)."""
        o_reward = 0.0 - x_reward
        return jnp.where(
            x_player == 0, jnp.stack([x_reward, o_reward]), jnp.stack([o_reward, x_reward])
        ).astype(jnp.float32)


def _select(condition: Array, if_true: State, if_false: State) -> State:
    """Field by field ``where`` (cheaper than ``lax.cond`` under ``vmap``, where both
    branches run anyway)."""
    picked: State = jax.tree.map(lambda a, b: jnp.where(condition, a, b), if_true, if_false)
    return picked


def to_position(env: AdjacencyEnv, state: State) -> Position:
    """One (unbatched) state as a core :class:`~adjacency.core.Position`, on the host."""
    board = np.asarray(state._board)
    x = sum(1 << int(square) for square in np.flatnonzero(board == X_PIECE))
    o = sum(1 << int(square) for square in np.flatnonzero(board == O_PIECE))
    x_to_move = int(state.current_player) == int(state._x_player)
    turn: Color = "x" if x_to_move else "o"
    return Position(env.start.board, x, o, turn, int(state._plies_left))
