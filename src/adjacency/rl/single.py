"""A Gymnasium environment: one agent plays one colour against a bot of the registry.

The opponent is any bot spec (``"alphabeta:depth=2"``, ``"engine"``,
``"mcts:simulations=200"``...) and moves inside :meth:`~AdjacencySingleEnv.step`
under ``opponent_limit``, so the agent sees only its own turns. Observation and
action are those of the PettingZoo environment (:mod:`adjacency.rl.observation`):
a square index and a dict with the ``action_mask``. The reward comes at the end:
+1/0/-1, or the final margin with ``reward="margin"``.

Gymnasium environments must accept any action of their action space (the
checker steps with unmasked random samples), so an illegal action does not
raise here: it ends the episode as a loss (reward -1, or minus the number of
squares with ``reward="margin"``), ``info["illegal_move"]`` names it, and the
position is left as it was.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot, Limit, make_bot
from ..core import Color, IllegalMoveError, Position, check_color
from .aec import RENDER_MODES, REWARD_MODES, RenderMode, RewardMode, check_choice, render
from .observation import Observation, observation_space, observe

DEFAULT_OPPONENT_LIMIT = Limit(time=1.0)
"""The opponent's budget per move unless ``opponent_limit`` is given."""


class AdjacencySingleEnv(gym.Env[Observation, np.int64]):
    """Play ``color`` against ``opponent``; see the module notes."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (Gymnasium reads it from the class)
        "render_modes": list(RENDER_MODES),
        "render_fps": 2,
    }

    def __init__(
        self,
        opponent: str = "greedy",
        color: Color = "x",
        rows: int = 8,
        cols: int = 8,
        rounds: int = 28,
        first: Color = "x",
        reward: RewardMode = "outcome",
        opponent_limit: Limit | None = None,
        render_mode: RenderMode | None = None,
    ) -> None:
        super().__init__()
        self.start = Position.start(rows, cols, rounds, check_color(first, "first"))
        self.color: Color = check_color(color, "color")
        check_choice(reward, REWARD_MODES, "reward")
        if render_mode is not None:
            check_choice(render_mode, RENDER_MODES, "render_mode")
        self.reward_mode: RewardMode = reward
        self.render_mode: RenderMode | None = render_mode
        self.opponent_spec = opponent
        self.opponent_limit = opponent_limit or DEFAULT_OPPONENT_LIMIT
        self.opponent: Bot = make_bot(opponent, seed=0)  # checks the spec now
        self.observation_space = observation_space(self.start.board)  # type: ignore[assignment]
        self.action_space = spaces.Discrete(self.start.board.size)
        self.position = self.start

    def _observation(self) -> Observation:
        return observe(self.position, self.color, self.start.plies_left)

    def _reply(self) -> None:
        """Let the opponent move while it is its turn."""
        while not self.position.is_over and self.position.turn != self.color:
            move = self.opponent.choose_move(self.position, self.opponent_limit)
            self.position = self.position.play(move)

    def _final_reward(self) -> float:
        margin = self.position.margin(self.color)
        if self.reward_mode == "outcome":
            return float((margin > 0) - (margin < 0))
        return float(margin)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """The start position, after the opponent's first move if it moves first.

        The opponent bot is rebuilt with a seed drawn from ``seed``, so a seeded
        reset replays the same opponent."""
        super().reset(seed=seed)
        self.opponent.close()
        bot_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.opponent = make_bot(self.opponent_spec, seed=bot_seed)
        self.opponent.new_game()
        self.position = self.start
        self._reply()
        return self._observation(), {}

    def step(self, action: np.int64) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self.position.is_over:
            raise IllegalMoveError("step() called after the episode ended; call reset() first")
        try:
            square = int(action)
            self.position = self.position.play(square)
        except (IllegalMoveError, TypeError, ValueError) as exc:
            loss = -1.0 if self.reward_mode == "outcome" else -float(self.start.board.size)
            return self._observation(), loss, True, False, {"illegal_move": str(exc)}
        self._reply()
        if self.position.is_over:
            return self._observation(), self._final_reward(), True, False, {}
        return self._observation(), 0.0, False, False, {}

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (the method sb3-contrib's MaskablePPO calls)."""
        return self._observation()["action_mask"].astype(bool)

    def render(self) -> str | np.ndarray | None:  # type: ignore[override]
        if self.render_mode is None:
            gym.logger.warn("render() was called without a render_mode; pass render_mode='ansi'")
            return None
        return render(self.position, self.render_mode)

    def close(self) -> None:
        self.opponent.close()
