"""The environment: one game as pure functions on a pytree, a ``pgx.Env``.

:class:`AdjacencyEnv` is a subclass of ``pgx.Env`` and its :class:`State` of
``pgx.State``, so the environment goes wherever pgx expects one (``isinstance`` checks,
pgx's wrappers, ``pgx.api_test``); ``pgx.make`` knows only pgx's own games, so it is
built directly. A :class:`State` holds pgx's public fields and three of the game's own,
public as read-only properties (pgx reserves a state's public attributes to its six):
:attr:`State.board` (``int8`` per square: 1 X, -1 O, 0 empty, the core's square order
``rank * cols + file``), :attr:`State.plies_left` and :attr:`State.x_player`, the player
id that plays X (O is ``1 - x_player``). Player ids are pgx's: ``init`` draws which of
players 0 and 1 moves first from its key, so a learner plays both colours over a batch.
Everything is arrays of fixed shape, so ``jax.jit(jax.vmap(env.step))`` steps any number
of boards at once, on CPU or an accelerator.

pgx's conventions, kept so that code written for a pgx two-player game runs here:

- ``rewards[p]`` is player ``p``'s reward for the last step: at the game's end +1 / -1
  / 0 by the final square count (``reward="margin"``: the margin in squares), else 0;
- an illegal action (an occupied square, or one off the board) ends the game at once,
  -1 to the player that sent it and +1 to the other, the board unchanged;
- a step on a finished state changes nothing and gives zero rewards;
- at the end ``legal_action_mask`` is all True (pgx does this so that normalising a
  policy over it never divides by zero); while the game is on it is the empty squares;
- ``truncated`` is always False: every game ends after exactly ``2 * rounds`` plies.

An action is a square index of an integer dtype. One that is not (``6.7``, a float
array, a bool) raises :class:`~adjacency.core.InvalidSquareError` when ``step`` is
called or traced: its dtype is known even under ``jit``. An integer outside
``[0, rows * cols)`` raises the same error when its value is known (a Python or numpy
integer, a concrete JAX array); inside ``jit`` or ``vmap`` its value is not, and it is
an illegal action as above. That is pgx's rule for illegal actions; pgx's own games do
less for an out-of-range index (``pgx.Env.step`` reads ``legal_action_mask[action]``
with JAX's indexing, which wraps a negative index and clamps one past the end, so the
action is judged, and may be played, as another square).

The observation is the layout of :mod:`adjacency.rl.observation` (float32 ``(rows,
cols, 4)``: own pieces, the opponent's, the empty squares, plies left / plies of the
game) from the observing player's side.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Iterator
from functools import partial
from typing import Any, Literal

import jax
import jax.numpy as jnp
import numpy as np
import pgx
from jax.typing import ArrayLike

from ..core import (
    RULES_VERSION,
    Color,
    InvalidSettingsError,
    InvalidSquareError,
    Position,
    board,
    check_color,
)
from ..core.svg import position_svg
from ..core.text import quote

VERSION = "v0"
"""The environment's version (pgx's ``Env.version``): raised whenever a step, reward or
observation can differ for the same actions, never for a refactoring or a speed-up."""

RewardMode = Literal["outcome", "margin"]
REWARD_MODES: tuple[RewardMode, ...] = ("outcome", "margin")
X_PIECE, O_PIECE, EMPTY = 1, -1, 0
Array = jax.Array

SVG_SQUARE = 48
"""Pixels per square of :meth:`State.to_svg` at ``scale=1`` (the core picture's default)."""


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
class State(pgx.State):  # type: ignore[misc]
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
        """pgx's name for the game of a state (:attr:`AdjacencyEnv.id`)."""
        return "adjacency"

    @property
    def board(self) -> Array:
        """int8 ``(rows * cols,)``: 1 an X piece, -1 an O piece, 0 empty, square ``rank *
        cols + file`` (``a1`` first); the colours, not the players: :attr:`x_player`
        says which player id owns the 1s."""
        return self._board

    @property
    def x_player(self) -> Array:
        """The player id (0 or 1) that plays X; ``1 - x_player`` plays O. Drawn by
        ``init``: X is the first mover's colour when the environment's ``first`` is
        ``"x"``."""
        return self._x_player

    @property
    def plies_left(self) -> Array:
        """The plies still to play (0 once the game has run its length)."""
        return self._plies_left

    def replace(self, **changes: Any) -> State:
        """A copy with ``changes`` (pgx's and flax's ``State.replace``)."""
        return dataclasses.replace(self, **changes)

    def positions(self) -> list[Position]:
        """The board of each game of the state (one for an unbatched state, the batch's
        in order for a batched one) as a core :class:`~adjacency.core.Position`, on the
        host. The board's size is read from the observation's shape."""
        return list(_positions(self))

    def to_svg(
        self, *, color_theme: Literal["light"] | None = None, scale: float | None = None
    ) -> str:
        """pgx's picture of a state: an SVG document of the board (the core's picture,
        :func:`adjacency.core.svg.position_svg`); a batched state's boards side by side in
        rows, as pgx lays a batch out. ``scale`` multiplies the picture's size (1.0: 48
        pixels a square); ``color_theme`` may only be ``"light"`` or None (the core's
        picture has one theme: it reads in greyscale and for colour-blind readers)."""
        if color_theme not in (None, "light"):
            raise InvalidSettingsError(
                f"color_theme must be 'light' or None (the board picture has one theme), "
                f"got {quote(color_theme)}"
            )
        factor = 1.0 if scale is None else scale
        number = isinstance(factor, int | float) and not isinstance(factor, bool)
        if not (number and math.isfinite(factor) and round(SVG_SQUARE * factor) >= 8):
            raise InvalidSettingsError(
                f"scale must be a number that draws squares of at least 8 pixels, got "
                f"{quote(scale)}"
            )
        square = round(SVG_SQUARE * factor)
        pictures = [position_svg(position, square=square) for position in _positions(self)]
        if not pictures:
            raise InvalidSettingsError("a batch of no games has no picture")
        if len(pictures) == 1:
            return pictures[0]
        return _grid(pictures)

    def save_svg(
        self,
        filename: str | os.PathLike[str],
        *,
        color_theme: Literal["light"] | None = None,
        scale: float | None = None,
    ) -> None:
        """Write :meth:`to_svg` to ``filename`` (pgx's ``State.save_svg``; the name must end
        in ``.svg``, as pgx requires)."""
        if not os.fspath(filename).endswith(".svg"):
            raise InvalidSettingsError(f"the file name must end in .svg, got {quote(filename)}")
        picture = self.to_svg(color_theme=color_theme, scale=scale)
        with open(filename, "w", encoding="utf-8") as out:
            out.write(picture)

    def _repr_html_(self) -> str:
        """The picture in a notebook (pgx's ``State._repr_html_``)."""
        return self.to_svg()


class AdjacencyEnv(pgx.Env):  # type: ignore[misc]
    """The game of one board size and length, a ``pgx.Env``.

    ``rows``, ``cols``, ``rounds`` and ``first`` are those of
    :meth:`adjacency.core.Position.start` and are checked by it; ``reward`` is
    ``"outcome"`` (+1 / -1 / 0) or ``"margin"`` (the final margin in squares).
    ``init``, ``step`` and ``observe`` are pgx's, written for speed under ``vmap``
    (selects instead of ``lax.cond``); the game's own ``_init``, ``_step`` and
    ``_observe``, which pgx's base ``Env`` composes, give the same states for every
    legal action.
    """

    def __init__(
        self,
        rows: int = 8,
        cols: int = 8,
        rounds: int = 28,
        first: Color = "x",
        reward: RewardMode = "outcome",
    ) -> None:
        super().__init__()
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
        """pgx's environment id (not one of pgx's ``EnvId``: ``pgx.make`` cannot build it)."""
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
        """One action per square: ``rows * cols`` (pgx's definition: the length of
        ``legal_action_mask``)."""
        return self.size

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """``(rows, cols, 4)`` (pgx's definition: the shape of an observation)."""
        return (self.rows, self.cols, 4)

    # ------------------------------------------------------------------ pgx's functions

    def init(self, key: Array) -> State:
        """The start; ``key`` draws which player id moves first."""
        state = self._init(key)
        return state.replace(observation=self.observe(state))

    def step(self, state: State, action: ArrayLike, key: Array | None = None) -> State:
        """The state after ``action`` (a square index, checked as the module says);
        ``key`` is unused (no chance moves)."""
        action = self._checked_action(action)
        finished = state.terminated | state.truncated
        on_board = (action >= 0) & (action < self.size)
        square = jnp.clip(action, 0, self.size - 1)
        illegal = ~finished & ~(on_board & (state._board[square] == EMPTY))
        played = self._step(state.replace(_step_count=state._step_count + 1), square, key)
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
        return jax.lax.stop_gradient(self._observe(state, player))

    # ------------------------------------------------------- the game (pgx's abstract parts)

    def _init(self, key: Array) -> State:
        """The start without its observation (pgx's ``Env._init``)."""
        first_player = jax.random.bernoulli(key).astype(jnp.int32)
        x_player = first_player if self.first == "x" else 1 - first_player
        board_ = jnp.asarray(self._start)
        return State(
            current_player=first_player,
            observation=jnp.zeros(self.observation_shape, jnp.float32),
            rewards=jnp.zeros(2, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=board_ == EMPTY,
            _step_count=jnp.int32(0),
            _board=board_,
            _plies_left=jnp.int32(self.total_plies),
            _x_player=x_player,
        )

    def _step(self, state: State, action: Array, key: Array | None) -> State:
        """A legal ``action`` played on an unfinished ``state`` whose ``_step_count``
        is already counted (pgx's ``Env._step``): the square taken, its neighbours of the
        other colour converted, the turn passed, the rewards at the end."""
        del key
        me = jnp.where(state.current_player == state._x_player, X_PIECE, O_PIECE).astype(jnp.int8)
        converted = jnp.asarray(self._neighbours)[action] & (state._board == -me)
        board_ = jnp.where(converted, me, state._board).at[action].set(me)
        plies = state._plies_left - 1
        over = plies == 0
        lead = jnp.sum(board_ == X_PIECE) - jnp.sum(board_ == O_PIECE)
        x_reward = jnp.where(
            over, lead if self.reward_mode == "margin" else jnp.sign(lead), 0
        ).astype(jnp.float32)
        return state.replace(
            current_player=1 - state.current_player,
            rewards=self._by_player(x_reward, state._x_player),
            terminated=over,
            legal_action_mask=board_ == EMPTY,
            _board=board_,
            _plies_left=plies,
        )

    def _observe(self, state: State, player_id: Array) -> Array:
        """The planes from ``player_id``'s side (pgx's ``Env._observe``)."""
        own = jnp.where(player_id == state._x_player, X_PIECE, O_PIECE).astype(jnp.int8)
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
        return planes.reshape(self.observation_shape)

    # ------------------------------------------------------------------ helpers

    def _checked_action(self, action: Any) -> Array:
        """``action`` as an int32 array, refused by name when it is not an integer square
        index or, its value known, lies off the board (the module's rules)."""
        if isinstance(action, jax.core.Tracer):
            if not jnp.issubdtype(action.dtype, jnp.integer):
                raise InvalidSquareError(
                    f"an action must be an integer square index, got an array of {action.dtype}"
                )
            if action.ndim != 0:
                raise InvalidSquareError(
                    f"an action must be one square index (shape ()), got shape {action.shape}"
                    " (step a batch under jax.vmap)"
                )
            return action.astype(jnp.int32)
        value = np.asarray(action)
        if value.dtype == np.bool_ or not np.issubdtype(value.dtype, np.integer):
            raise InvalidSquareError(
                f"an action must be an integer square index from 0 to {self.size - 1}, got "
                f"{quote(action)} ({value.dtype})"
            )
        if value.ndim != 0:
            raise InvalidSquareError(
                f"an action must be one square index (shape ()), got shape {value.shape}"
                " (step a batch under jax.vmap)"
            )
        if not 0 <= int(value) < self.size:
            raise InvalidSquareError(
                f"an action must be a square index from 0 to {self.size - 1} on a "
                f"{self.rows}x{self.cols} board, got {int(value)}"
            )
        return jnp.asarray(value, jnp.int32)

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


def _positions(state: State) -> Iterator[Position]:
    """Each game of a state (batched or not, any number of leading axes) as a core
    position, its board size read from the observation's shape."""
    rows, cols = state.observation.shape[-3:-1]
    geometry = board(rows, cols)
    boards = np.asarray(state._board).reshape(-1, rows * cols)
    players = np.asarray(state.current_player).reshape(-1)
    x_players = np.asarray(state._x_player).reshape(-1)
    plies = np.asarray(state._plies_left).reshape(-1)
    for squares, player, x_player, left in zip(boards, players, x_players, plies, strict=True):
        x = sum(1 << int(square) for square in np.flatnonzero(squares == X_PIECE))
        o = sum(1 << int(square) for square in np.flatnonzero(squares == O_PIECE))
        turn: Color = "x" if player == x_player else "o"
        yield Position(geometry, x, o, turn, int(left))


def _grid(pictures: list[str]) -> str:
    """SVG documents of one size side by side, about as many rows as columns (pgx's
    layout of a batch), as one document."""
    size = re.search(r'width="(\d+)" height="(\d+)"', pictures[0])
    assert size is not None, "the core's picture states its size"
    width, height = int(size[1]), int(size[2])
    columns = math.ceil(math.sqrt(len(pictures)))
    rows = math.ceil(len(pictures) / columns)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{columns * width}" '
        f'height="{rows * height}" viewBox="0 0 {columns * width} {rows * height}">'
    ]
    for at, picture in enumerate(pictures):
        row, column = divmod(at, columns)
        placed = picture.replace("<svg ", f'<svg x="{column * width}" y="{row * height}" ', 1)
        parts.append(placed.strip())
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def to_position(env: AdjacencyEnv, state: State) -> Position:
    """One (unbatched) state of ``env`` as a core :class:`~adjacency.core.Position`, on
    the host (:meth:`State.positions` gives a batch's)."""
    if np.ndim(state.current_player) != 0 or state.observation.shape != env.observation_shape:
        raise InvalidSettingsError(
            f"to_position takes one unbatched state of {env!r}, got one whose observation "
            f"has shape {tuple(state.observation.shape)} (State.positions() reads a batch)"
        )
    (position,) = _positions(state)
    return position
