"""The game for JAX (extra ``adjacency-game[jax]``): pure functions on pytrees, jit/vmap-able.

:class:`AdjacencyEnv` is a ``pgx.Env`` (``init(key)``, ``step(state, action, key)``,
``observe``, ``id``, ``version``, ``num_players``, ``num_actions``,
``observation_shape``) and its :class:`State` a ``pgx.State`` (``current_player``,
``observation``, ``rewards``, ``terminated``, ``truncated``, ``legal_action_mask``,
``save_svg``; the game's ``board``, ``x_player`` and ``plies_left``), so it goes
wherever pgx expects an environment and a loop written for a pgx two-player board game
runs on it unchanged. The rules come from the core's board geometry; the batched and one-board
environments of :mod:`adjacency.rl` are the same game (a differential test holds them
equal). docs/integrations.md shows it in use, with mctx.
"""

from __future__ import annotations

from ..core.errors import missing_extra

try:
    import jax  # noqa: F401
    import pgx  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is installed in CI
    raise missing_extra("jax", "JAX and pgx", "jax", exc) from exc

from .env import REWARD_MODES, VERSION, AdjacencyEnv, RewardMode, State, to_position

__all__ = ["REWARD_MODES", "VERSION", "AdjacencyEnv", "RewardMode", "State", "to_position"]
