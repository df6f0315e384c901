"""OpenSpiel integration (extra ``adjacency-game[openspiel]``): the game and bots both ways.

Importing this package registers the game ``"adjacency"`` with pyspiel and the
``openspiel`` bot with our registry. docs/integrations.md shows them in use.
"""

from __future__ import annotations

from ..core.errors import missing_extra

try:
    import pyspiel  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is installed in CI
    raise missing_extra("openspiel", "OpenSpiel", "openspiel", exc) from exc

from .bots import OpenSpielBot, SpielBot, state_of
from .spiel_game import SHORT_NAME, AdjacencyGame, AdjacencyState, load, register

register()

__all__ = [
    "SHORT_NAME",
    "AdjacencyGame",
    "AdjacencyState",
    "OpenSpielBot",
    "SpielBot",
    "load",
    "register",
    "state_of",
]
