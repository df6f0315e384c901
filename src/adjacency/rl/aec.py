"""The PettingZoo AEC environment: two agents, ``x`` and ``o``, taking turns.

Follows PettingZoo's classic board games (chess, connect four): an action is a
square index in ``Discrete(rows * cols)``; the observation is the dict of
:mod:`adjacency.rl.observation` with the ``action_mask`` of empty squares; the
rewards come at the end: +1 to the winner, -1 to the loser, 0 each for a draw,
or with ``reward="margin"`` each side's final margin in pieces. An illegal
action (an occupied square, an index off the board) raises
:class:`~adjacency.core.errors.IllegalMoveError` and changes nothing, as in
PettingZoo's classic games without the ``TerminateIllegalWrapper``.

The rules are the core's: every step is :meth:`adjacency.core.Position.play`.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core import Color, IllegalMoveError, InvalidSettingsError, Position, check_color
from .observation import Observation, observation_space, observe, rgb_array

RenderMode = Literal["human", "ansi", "rgb_array"]
RewardMode = Literal["outcome", "margin"]
RENDER_MODES: tuple[RenderMode, ...] = ("human", "ansi", "rgb_array")
"""``human`` prints the text diagram of ``ansi`` to standard output."""
REWARD_MODES: tuple[RewardMode, ...] = ("outcome", "margin")


def check_choice(value: object, allowed: tuple[str, ...], what: str) -> None:
    """Raise :class:`InvalidSettingsError` unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise InvalidSettingsError(f"{what} must be one of {', '.join(allowed)}, got {value!r}")


def final_rewards(position: Position, mode: RewardMode) -> dict[str, float]:
    """Each side's reward for a finished game."""
    margin = position.margin("x")
    if mode == "outcome":
        margin = (margin > 0) - (margin < 0)
    return {"x": float(margin), "o": float(-margin)}


def square_of(action: Any, position: Position) -> int:
    """The square index of an action; raises :class:`IllegalMoveError` quoting it."""
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise IllegalMoveError(
            f"an action must be a square index from 0 to {position.board.size - 1}, got {action!r}"
        )
    return int(action)


class AdjacencyEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """Adjacency as a PettingZoo AEC game. Use :func:`env` for the wrapped version."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo reads it from the class)
        "render_modes": list(RENDER_MODES),
        "name": "adjacency_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rows: int = 8,
        cols: int = 8,
        rounds: int = 28,
        first: Color = "x",
        reward: RewardMode = "outcome",
        render_mode: RenderMode | None = None,
    ) -> None:
        super().__init__()
        self.start = Position.start(rows, cols, rounds, check_color(first, "first"))
        check_choice(reward, REWARD_MODES, "reward")
        if render_mode is not None:
            check_choice(render_mode, RENDER_MODES, "render_mode")
        self.reward_mode: RewardMode = reward
        self.render_mode = render_mode
        self.possible_agents = ["x", "o"]
        geometry = self.start.board
        self.observation_spaces = {a: observation_space(geometry) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(geometry.size) for a in self.possible_agents}
        self.position = self.start
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Observation:
        return observe(self.position, check_color(agent, "agent"), self.start.plies_left)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Back to the start position. The game has no chance moves; ``seed`` seeds
        ``np_random`` for agents that want one."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.position = self.start
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.position.turn

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        after = self.position.play(square_of(action, self.position))
        self._cumulative_rewards[agent] = 0.0
        self.position = after
        if after.is_over:
            self.rewards = final_rewards(after, self.reward_mode)
            self.terminations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        self.agent_selection = after.turn
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() was called without a render_mode; pass render_mode='ansi'")
            return None
        return render(self.position, self.render_mode)

    def close(self) -> None:
        pass


def render(position: Position, mode: RenderMode) -> str | np.ndarray | None:
    """The picture of ``position`` in a render mode (``human``: printed, returns None)."""
    if mode == "rgb_array":
        return rgb_array(position)
    if mode == "human":
        print(render(position, "ansi"), end="")
        return None
    x, o = position.score
    state = f"{position.outcome()} wins" if position.is_over else f"{position.turn} to move"
    if position.outcome() == "draw":
        state = "draw"
    return f"{position}\nX {x}  O {o}  {state}, {position.plies_left} plies left\n"


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment with PettingZoo's standard checks (out-of-bounds actions, call order)."""
    wrapped: Any = AdjacencyEnv(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)  # type: ignore[no-any-return]
