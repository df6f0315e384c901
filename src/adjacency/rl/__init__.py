"""Reinforcement-learning environments (extra ``adjacency-game[rl]``): PettingZoo and Gymnasium.

- :func:`env` / :class:`AdjacencyEnv`: the two-player PettingZoo AEC game;
- :class:`AdjacencySingleEnv`: a Gymnasium environment against any registry bot;
- :class:`BatchedEnv`: N self-play boards stepped at once in compiled code (arrays in,
  arrays out), and :class:`AdjacencyVectorEnv`, the same as a Gymnasium vector env.

docs/integrations.md shows both in use. The rules come from the core only.
"""

from __future__ import annotations

from ..core.errors import missing_extra

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is installed in CI
    raise missing_extra("rl", "PettingZoo and Gymnasium", "rl", exc) from exc

from .aec import AdjacencyEnv, env
from .batch import BatchedEnv, Step
from .observation import action_mask, observe, rgb_array
from .single import AdjacencySingleEnv
from .vector import AdjacencyVectorEnv

GYMNASIUM_ID = "adjacency/Adjacency-v0"
"""The Gymnasium id: ``gymnasium.make(GYMNASIUM_ID, opponent="alphabeta:depth=2")``."""

if GYMNASIUM_ID not in gymnasium.registry:
    gymnasium.register(id=GYMNASIUM_ID, entry_point="adjacency.rl.single:AdjacencySingleEnv")

__all__ = [
    "GYMNASIUM_ID",
    "AdjacencyEnv",
    "AdjacencySingleEnv",
    "AdjacencyVectorEnv",
    "BatchedEnv",
    "Step",
    "action_mask",
    "env",
    "observe",
    "rgb_array",
]
