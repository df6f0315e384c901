"""The batched environment as a Gymnasium vector environment (self-play, same-step reset).

:class:`AdjacencyVectorEnv` wraps :class:`~adjacency.rl.batch.BatchedEnv` in lenient mode
behind Gymnasium's ``VectorEnv`` interface: ``num_envs`` boards, one action each per
step for the side to move there, observations the dict of
:mod:`adjacency.rl.observation` batched (``"observation"`` float32
``(num_envs, rows, cols, 4)`` and ``"action_mask"`` int8 ``(num_envs, rows * cols)``),
each from its board's side to move. Rewards go to the side that played; an illegal action
ends that board's game as its loss (reward -1, ``infos["illegal_move"]``), as in the
one-agent Gymnasium environment. Games reset in the same step
(``AutoresetMode.SAME_STEP``): ``infos["final_obs"]`` holds the last observation of each
finished game (``None`` elsewhere) and ``infos["_final_obs"]`` marks them;
``infos["turn"]`` says who moves next on each board (0: X, 1: O).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core import Color
from ..engine.kernels.planes import empty_buffers, write_planes
from .aec import RewardMode
from .batch import BatchedEnv
from .observation import Observation, observation_space


class AdjacencyVectorEnv(VectorEnv[Observation, np.ndarray, np.ndarray]):  # type: ignore[misc]
    """``num_envs`` self-play games of one size in compiled code; see the module notes."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (Gymnasium reads it from the class)
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        rows: int = 8,
        cols: int = 8,
        rounds: int = 28,
        first: Color = "x",
        reward: RewardMode = "outcome",
    ) -> None:
        self.batch = BatchedEnv(num_envs, rows, cols, rounds, first, reward, strict=False)
        self.num_envs = num_envs
        self.single_observation_space = observation_space(self.batch.board)
        self.single_action_space = spaces.Discrete(self.batch.board.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Every board to the start. A seed (an int, or the first of a list) seeds
        ``action_space`` and the batch's random actions; the game has no chance moves."""
        first_seed = seed[0] if isinstance(seed, list) else seed
        if first_seed is not None:
            self._np_random_seed = first_seed
            self.action_space.seed(first_seed)
        self.batch.reset(first_seed)
        return self._observation(), {"turn": self.batch.turn.copy()}

    def step(
        self, actions: Any
    ) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        result = self.batch.step(np.asarray(actions).astype(np.int64, copy=False))
        infos: dict[str, Any] = {"turn": self.batch.turn.copy()}
        if result.done.any():
            infos["final_obs"] = self._final_observations(result.done)
            infos["_final_obs"] = result.done.copy()
        if result.illegal.any():
            infos["illegal_move"] = result.illegal.copy()
            infos["_illegal_move"] = result.illegal.copy()
        terminated = result.done.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observation(), result.reward.copy(), terminated, truncated, infos

    def _final_observations(self, done: np.ndarray) -> np.ndarray:
        """The last observation of each finished game (from the side that would move), in
        one compiled call for all of them; ``None`` for the boards still playing."""
        index = np.flatnonzero(done)
        final = self.batch.final[index]
        o_to_move = final[:, 3] == 1
        mover = np.where(o_to_move, final[:, 1], final[:, 0])
        opponent = np.where(o_to_move, final[:, 0], final[:, 1])
        plies = final[:, 2].astype(np.int64)
        planes, mask = empty_buffers(len(index), self.batch.board.rows, self.batch.board.cols)
        write_planes(mover, opponent, plies, self.batch.total_plies, len(index), planes, mask)
        observations = np.full(self.num_envs, None, dtype=object)
        for k, board in enumerate(index):
            observations[board] = {"observation": planes[k], "action_mask": mask[k]}
        return observations

    def _observation(self) -> Observation:
        planes, mask = self.batch.observe()
        return {"observation": planes.copy(), "action_mask": mask.copy()}
