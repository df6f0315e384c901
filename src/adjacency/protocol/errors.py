"""Errors of the controller side of the engine protocol (all are ``ValueError`` subclasses)."""

from __future__ import annotations

from ..core.errors import AdjacencyError


class EngineError(AdjacencyError):
    """An external engine failed: could not start, broke the protocol, stalled or died."""


class EngineTimeout(EngineError):
    """The engine did not send an expected answer in time."""


class EngineDisconnected(EngineError):
    """The engine's output ended or its process exited."""
