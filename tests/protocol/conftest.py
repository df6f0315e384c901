"""Fixtures shared by the protocol's tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from adjacency.protocol.client import EngineProcess
from protocol_helpers import REPO


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> Iterator[EngineProcess]:
    """A fresh ``adjacency engine`` process over pipes, started with the module's
    ``ENGINE_ARGS`` (none: the default bot), closed after the test."""
    options = getattr(request.module, "ENGINE_ARGS", ())
    process = EngineProcess([sys.executable, "-m", "adjacency", "engine", *options], cwd=str(REPO))
    process.start()
    yield process
    process.close()
