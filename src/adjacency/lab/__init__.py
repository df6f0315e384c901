"""The search lab: what the classic bots and the engine do on one position, as plain data.

Each panel of the web app's Lab tab has a function here returning dataclasses
(with ``to_dict()`` for JSON) captured from the real bots through their optional
trace hooks, never from second implementations:

- :func:`search_tree` (:mod:`.tree`): the game tree of ``minimax`` / ``alphabeta``,
  counted and drawn as textbook minimax / alpha-beta (cut-offs at every ply);
- :func:`compare_techniques` (:mod:`.compare`): nodes (at the depth and over the whole
  iterative deepening) and time of minimax, alpha-beta, ordering and the transposition
  table side by side, textbook counts, and the bots' bulk-leaves shortcut as its own row;
- :func:`deepening_trace` (:mod:`.deepening`): depth against cost for alpha-beta and the
  engine's iterative deepening;
- :func:`climb_trace` (:mod:`.climb`): the steps of ``hill`` (every variant) and ``anneal``,
  and the candidates' values as a heat map on the board (:meth:`ClimbTrace.heat_map`);
- :func:`evolution_trace` (:mod:`.generations`): the generations of ``genetic``, ``gatree`` and
  the reports' presets;
- :func:`engine_view` (:mod:`.engine_view`): the engine's iteration reports and, within the
  solver's reach, every move's exact value.
- :func:`~.review.review` (:mod:`.review`): a game's every move judged against the best
  (the solver's exact values in the last plies), marked and scored: the web app's game
  review and the league's report card of a team's version.

Bot-based traces are seeded and run without a time limit, so they replay; a
:class:`Cancel` stops a lab search from another thread.

Bounds on depths, caps and sizes are in :mod:`.limits`. The traces draw themselves
in Jupyter as SVG (:mod:`.drawing`). This package sits between the bots (and the
engine) and the front ends: the web app imports it; it imports only bots, engine and
core.
"""

from __future__ import annotations

from .climb import ClimbTrace, HeatMap, climb_trace
from .compare import Comparison, TechniqueCount, compare_techniques
from .deepening import DeepeningTrace, deepening_trace
from .engine_view import EngineView, engine_view
from .generations import EvolutionTrace, evolution_trace
from .limits import LabError
from .running import Cancel
from .tree import SearchTree, TreeNode, search_tree

__all__ = [
    "Cancel",
    "ClimbTrace",
    "Comparison",
    "DeepeningTrace",
    "EngineView",
    "EvolutionTrace",
    "HeatMap",
    "LabError",
    "SearchTree",
    "TechniqueCount",
    "TreeNode",
    "climb_trace",
    "compare_techniques",
    "deepening_trace",
    "engine_view",
    "evolution_trace",
    "search_tree",
]
