"""Imports every module that registers bots, so the registry is complete.

Each bot family adds its module here, one import per line. Only
:mod:`adjacency.bots.lookup` imports this module; a bot module never does (this module
imports it), and reads other bots through :func:`~adjacency.bots.registry.registered`.
"""
# ruff: noqa: I001  (one import per line, in registration order, on purpose)

from . import baseline  # noqa: F401
from . import minimax  # noqa: F401
from . import external  # noqa: F401
from . import local  # noqa: F401
from . import genetic  # noqa: F401
from . import gametree  # noqa: F401
from . import course_reports  # noqa: F401
from . import engine_bot  # noqa: F401
from . import mcts  # noqa: F401
from . import python_file  # noqa: F401
