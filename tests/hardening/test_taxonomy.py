"""One error taxonomy (docs/errors.md): bad input is a ValueError, a failing engine,
worker or store a RuntimeError, each mapped to its CLI exit status and HTTP status."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from adjacency.arena.store import Store, StoreError
from adjacency.bots.base import BotError, BotFailure
from adjacency.core import errors as core_errors
from adjacency.core.errors import AdjacencyError, AdjacencyRuntimeError
from adjacency.core.game import Termination
from adjacency.protocol.errors import EngineDisconnected, EngineError, EngineTimeout
from adjacency.protocol.wire import ProtocolError
from adjacency.serving.handlers import install_error_handlers
from adjacency.workers import ExecutorUnavailable, WorkerError

BAD_INPUT = [
    *(
        kind
        for kind in vars(core_errors).values()
        if isinstance(kind, type) and issubclass(kind, AdjacencyError)
    ),
    BotError,
    ProtocolError,
]
RUNTIME = [EngineError, EngineTimeout, EngineDisconnected, WorkerError, ExecutorUnavailable,
           StoreError]  # fmt: skip


@pytest.mark.parametrize("kind", BAD_INPUT)
def test_bad_input_errors_are_value_errors(kind: type[Exception]) -> None:
    assert issubclass(kind, AdjacencyError) and issubclass(kind, ValueError)
    assert not issubclass(kind, RuntimeError)


@pytest.mark.parametrize("kind", [*RUNTIME, BotFailure])
def test_runtime_failures_are_not_value_errors(kind: type[Exception]) -> None:
    assert issubclass(kind, AdjacencyRuntimeError) and issubclass(kind, RuntimeError)
    assert not issubclass(kind, ValueError)  # an `except ValueError` no longer swallows them


def test_http_statuses_follow_the_taxonomy() -> None:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/bad")
    def bad() -> None:
        raise core_errors.InvalidPositionError("bad position text")

    @app.get("/engine")
    def engine() -> None:
        raise EngineDisconnected("engine 'x' exited with status 1")

    @app.get("/failure")
    def failure() -> None:
        raise BotFailure(Termination.DISCONNECTION, "the bot died")

    client = TestClient(app)
    assert client.get("/bad").status_code == 400
    response = client.get("/engine")
    assert (response.status_code, response.json()) == (
        503,
        {"detail": "engine 'x' exited with status 1", "code": "unavailable"},
    )
    assert client.get("/failure").status_code == 503


def test_a_read_only_database_is_a_store_error(tmp_path: Path) -> None:
    with Store(tmp_path / "ro.db") as store:
        store.db.execute("PRAGMA query_only = ON")  # what a read-only file does to writes
        with pytest.raises(StoreError, match="attempt to write a readonly database"):
            store.set_status(1, "finished")
