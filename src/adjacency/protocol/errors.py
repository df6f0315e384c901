"""Errors of the controller side of the engine protocol.

An engine that fails is a run-time failure, not bad input, so these derive from
:class:`~adjacency.core.errors.AdjacencyRuntimeError` (a ``RuntimeError``, as in
python-chess); see docs/errors.md.
"""

from __future__ import annotations

from ..core.errors import AdjacencyRuntimeError


class EngineError(AdjacencyRuntimeError):
    """An external engine failed: could not start, broke the protocol, stalled or died."""


class EngineTimeout(EngineError):
    """The engine did not send an expected answer in time."""


class EngineDisconnected(EngineError):
    """The engine's output ended or its process exited."""


class EngineStarved(EngineTimeout):
    """The engine had no answer in time because the machine did not run it: its wait
    stretched by every second it was ready and not run, to its end, and still it had
    not had its time (the server's failure, not the engine's)."""
