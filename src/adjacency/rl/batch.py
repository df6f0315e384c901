"""The batched environment: N boards stepped at once in compiled code, a plain array API.

Self-play, as in pgx and OpenSpiel's vectorised games: every board has one action a
step, for whichever side is to move there, and every array is from that side's view.
The state is four arrays of length N (the side to move's bitboard, the opponent's,
plies left, whose turn), stepped by :func:`adjacency.engine.kernels.boards.step`, the
engine's own move code; observations and masks are
:func:`adjacency.engine.kernels.planes.write_planes`, the layout of the one-board
environments (:mod:`adjacency.rl.observation`). A game that ends is reset in the same
step (its last position stays readable in ``final``), so a loop of
``env.step(policy(env.observe()))`` never stops.

The game has no chance moves: a seed only drives :meth:`BatchedEnv.sample_actions`.
The arrays a call returns are the environment's own buffers, overwritten by the next
call (copy them to keep them); that is what makes a step allocation-free.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import (
    RULES_VERSION,
    Color,
    IllegalMoveError,
    InvalidSettingsError,
    Position,
    check_color,
)
from ..engine.kernels import boards as kb
from ..engine.kernels.bits import write_geometry
from ..engine.kernels.layout import NBR
from ..engine.kernels.mcts import seed_state
from ..engine.kernels.planes import empty_buffers, write_planes
from .aec import REWARD_MODES, RewardMode, check_choice

VERSION = "v0"
"""The batched environment's version: raised whenever the same actions (and seed) could
give a different step, reward, reset or random action; never for a speed-up. The
observation layout has its own, :data:`adjacency.rl.observation.VERSION`."""

MAX_BOARDS = 1 << 22
"""The most boards one environment holds (4 million: about 100 MB of state and buffers)."""

_Boards = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""The seven arrays that :attr:`BatchedEnv._boards` names."""


@dataclass(frozen=True)
class Step:
    """What :meth:`BatchedEnv.step` returns (views of the environment's buffers).

    ``reward[i]``: float32, for the side that just played on board ``i`` (+1 / -1 / 0 at
    the game's end, the margin in squares with ``reward="margin"``, -1 for an illegal
    action in lenient mode, else 0). ``done[i]``: the game ended and board ``i`` is back
    at the start. ``illegal[i]``: that game ended by an illegal action (lenient mode).
    """

    reward: np.ndarray
    done: np.ndarray
    illegal: np.ndarray


class BatchedEnv:
    """``boards`` games of one size and length, stepped together.

    ``rows``, ``cols``, ``rounds`` and ``first`` are those of
    :meth:`adjacency.core.Position.start` and are checked by it. ``strict=True`` (the
    default) makes :meth:`step` raise :class:`IllegalMoveError` for an illegal action,
    changing no board; ``strict=False`` ends that board's game as a loss for the side that
    sent it (the Gymnasium convention: every action of the space is accepted).
    """

    version = VERSION
    """:data:`VERSION` (pgx's ``Env.version``)."""
    rules_version = RULES_VERSION
    """The rules' version it plays (:data:`adjacency.core.RULES_VERSION`)."""

    def __init__(
        self,
        boards: int,
        rows: int = 8,
        cols: int = 8,
        rounds: int = 28,
        first: Color = "x",
        reward: RewardMode = "outcome",
        strict: bool = True,
        seed: int | None = None,
    ) -> None:
        if isinstance(boards, bool) or not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS:
            raise InvalidSettingsError(
                f"boards must be a whole number from 1 to {MAX_BOARDS}, got {boards!r}"
            )
        check_choice(reward, REWARD_MODES, "reward")
        self.start = Position.start(rows, cols, rounds, check_color(first, "first"))
        self.board = self.start.board
        self.num_boards = boards
        self.total_plies = self.start.plies_left
        self.reward_mode: RewardMode = reward
        self.strict = strict
        self.U = np.zeros(NBR + 64, dtype=np.uint64)
        write_geometry(self.board, self.U)
        turn = 0 if self.start.turn == "x" else 1
        self._start = np.array(
            [self.start.mover, self.start.opponent, self.total_plies, turn], dtype=np.uint64
        )
        self.mover = np.zeros(boards, dtype=np.uint64)
        """Board i's side to move's pieces (bitboards, the core's layout)."""
        self.opponent = np.zeros(boards, dtype=np.uint64)
        """Board i's other side's pieces."""
        self.plies_left = np.zeros(boards, dtype=np.int64)
        """Plies left in board i's game (always > 0: finished games are reset)."""
        self.turn = np.zeros(boards, dtype=np.int8)
        """Whose move board i is: 0 for X, 1 for O."""
        self.final = np.zeros((boards, 4), dtype=np.uint64)
        """Rows (x, o, plies left, turn) of the last position of each board's last finished
        game (meaningful where the last step's ``done`` is set)."""
        self._actions = np.zeros(boards, dtype=np.int64)
        self._reward = np.zeros(boards, dtype=np.float32)
        self._done = np.zeros(boards, dtype=np.bool_)
        self._illegal = np.zeros(boards, dtype=np.bool_)
        self._planes, self._mask = empty_buffers(boards, self.board.rows, self.board.cols)
        self._random = seed_state(0)
        self.reset(seed)

    # ------------------------------------------------------------------ the array API

    def reset(self, seed: int | None = None) -> None:
        """Every board back to the start; ``seed`` (if given) reseeds :meth:`sample_actions`."""
        if seed is not None:
            self._random = seed_state(seed)
        self.mover[:] = self._start[0]
        self.opponent[:] = self._start[1]
        self.plies_left[:] = int(self._start[2])
        self.turn[:] = int(self._start[3])
        self._done[:] = False
        self._reward[:] = 0.0

    @property
    def _boards(self) -> _Boards:
        """What both step kernels (one step, random steps) take first, in their order:
        every board's mover, opponent, plies left and turn, the actions, the geometry and
        the start position."""
        return (
            self.mover,
            self.opponent,
            self.plies_left,
            self.turn,
            self._actions,
            self.U,
            self._start,
        )

    def step(self, actions: Any) -> Step:
        """Play ``actions[i]`` (a square index, ``rank * cols + file``) on every board ``i``."""
        self._actions[:] = self._checked(actions)
        mode = kb.STRICT if self.strict else kb.LENIENT
        if mode == kb.LENIENT:
            self._mark_illegal()
        bad = kb.step(
            *self._boards,
            mode,
            self.reward_mode == "margin",
            self._reward,
            self._done,
            self.final,
        )
        if bad >= 0:
            raise IllegalMoveError(self._illegal_text(int(bad), int(self._actions[bad])))
        if mode == kb.STRICT:
            self._illegal[:] = False
        return Step(self._reward, self._done, self._illegal)

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        """``(planes, mask)`` of every board from its side to move: float32
        ``(boards, rows, cols, 4)`` and int8 ``(boards, rows * cols)``
        (:mod:`adjacency.engine.kernels.planes`)."""
        write_planes(
            self.mover,
            self.opponent,
            self.plies_left,
            self.total_plies,
            self.num_boards,
            self._planes,
            self._mask,
        )
        return self._planes, self._mask

    def sampler_state(self) -> np.ndarray:
        """A copy of :meth:`sample_actions`'s random state (for :meth:`set_sampler_state`:
        a run saved with it and the boards draws the same actions when restored)."""
        return self._random.copy()

    def set_sampler_state(self, state: Any) -> None:
        """Restore a state from :meth:`sampler_state`; anything else is refused by name."""
        array = np.asarray(state)
        if array.shape != (1,) or array.dtype != np.uint64 or int(array[0]) == 0:
            raise InvalidSettingsError(
                "a sampler state is what sampler_state() returns: one non-zero uint64, "
                f"got an array of shape {array.shape} and type {array.dtype}"
            )
        self._random = array.copy()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per board (compiled; seeded by :meth:`reset`)."""
        kb.sample(self.mover, self.opponent, self.plies_left, self.U, self._random, self._actions)
        return self._actions

    def run_random(self, steps: int) -> int:
        """``steps`` steps of random legal actions on every board in one compiled call (for
        rollouts and benchmarks); returns the number of games finished."""
        return int(
            kb.run_random(
                *self._boards,
                self._random,
                int(steps),
                self._reward,
                self._done,
                self.final,
            )
        )

    # ------------------------------------------------------------------ the core's view

    def position(self, index: int) -> Position:
        """Board ``index`` as a core :class:`~adjacency.core.Position`."""
        mover, opponent = int(self.mover[index]), int(self.opponent[index])
        x, o = (mover, opponent) if self.turn[index] == 0 else (opponent, mover)
        turn: Color = "x" if self.turn[index] == 0 else "o"
        return Position(self.board, x, o, turn, int(self.plies_left[index]))

    def final_position(self, index: int) -> Position:
        """The last position of board ``index``'s last finished game."""
        x, o, plies, turn = (int(v) for v in self.final[index])
        return Position(self.board, x, o, "x" if turn == 0 else "o", plies)

    def set_position(self, index: int, position: Position) -> None:
        """Put ``position`` (of this environment's board size, a game still in play) on
        board ``index``."""
        if position.board != self.board:
            raise InvalidSettingsError(
                f"the position is on a {position.board.dimensions} board, "
                f"this environment's boards are {self.board.dimensions}"
            )
        if position.is_over:
            raise InvalidSettingsError(
                f"the position is finished (no plies left): a board holds a game in play, "
                f"and a finished one is reset by the step that ends it ({position.fen()!r})"
            )
        self.mover[index] = position.mover
        self.opponent[index] = position.opponent
        self.plies_left[index] = position.plies_left
        self.turn[index] = 0 if position.turn == "x" else 1

    # ------------------------------------------------------------------ checks

    def _checked(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_boards,) or array.dtype.kind not in "iu":
            raise IllegalMoveError(
                f"actions must be {self.num_boards} integer square indices (one per board), "
                f"got an array of shape {array.shape} and type {array.dtype}"
            )
        return array

    def _mark_illegal(self) -> None:
        """Set ``_illegal`` for the boards whose action is illegal (before the step)."""
        actions = self._actions
        on_board = (actions >= 0) & (actions < self.board.size)
        square = np.left_shift(np.uint64(1), np.where(on_board, actions, 0).astype(np.uint64))
        occupied = ((self.mover | self.opponent) & square) != 0
        self._illegal[:] = ~on_board | occupied

    def _illegal_text(self, index: int, action: int) -> str:
        position = self.position(index)
        if not 0 <= action < self.board.size:
            why = f"squares run from 0 to {self.board.size - 1}"
        else:
            name = self.board.name(action)
            why = f"{name} is occupied by {position.piece_at(action)}"
        return f"illegal action {action} on board {index}: {why} (no board was changed)"
