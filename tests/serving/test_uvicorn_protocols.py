"""The socket guard's adapter to uvicorn's private protocol classes
(``serving/uvicorn_protocols.py``): every method the guard overrides and every attribute
it reads is there in the installed uvicorn, each check failing with the name of what a
uvicorn release changed; the bounds in ``pyproject.toml`` are the tested series.
(What the guard does with them, under a real server: ``test_sockets.py``.)"""

from __future__ import annotations

import asyncio
import inspect
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from uvicorn.protocols.http import h11_impl
from uvicorn.server import ServerState

from adjacency.serving.uvicorn_protocols import (
    CYCLE_RELIED_ON,
    HTTP_RELIED_ON,
    TESTED,
    UNANSWERED,
    WEBSOCKET_RELIED_ON,
    HTTPProtocol,
    WebSocketProtocol,
    response_pending,
)

PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


class _Transport(asyncio.Transport):
    """A connection from 127.0.0.1:5000 to 127.0.0.1:8000 that goes nowhere."""

    def __init__(self) -> None:
        super().__init__()
        self.closing = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def write(self, data: Any) -> None:
        pass


async def _app(scope: Any, receive: Any, send: Any) -> None:
    pass


@pytest.fixture
def connected() -> Any:
    """Each protocol class constructed as uvicorn constructs it, with a connection made."""
    loop = asyncio.new_event_loop()
    config = uvicorn.Config(_app, lifespan="off", log_config=None)  # see web_helpers
    config.load()
    made = []
    for kind in (HTTPProtocol, WebSocketProtocol):
        protocol = kind(config, ServerState(), {}, _loop=loop)
        protocol.connection_made(_Transport())
        made.append(protocol)
    yield made
    for protocol in made:
        protocol.connection_lost(None)
    loop.close()


@pytest.mark.parametrize(
    ("kind", "relied_on"),
    [(HTTPProtocol, HTTP_RELIED_ON), (WebSocketProtocol, WEBSOCKET_RELIED_ON)],
    ids=["http", "websocket"],
)
def test_every_method_the_guard_overrides_is_uvicorns(kind: type, relied_on: Any) -> None:
    for method in relied_on["methods"]:
        assert callable(getattr(kind, method, None)), (
            f"uvicorn {uvicorn.__version__}'s {kind.__name__} has no method {method!r}: "
            f"the socket guard overrides it (tested with uvicorn {TESTED[0]} to {TESTED[1]})"
        )


def test_every_attribute_the_guard_reads_is_set(connected: list[Any]) -> None:
    for protocol, relied_on in zip(connected, (HTTP_RELIED_ON, WEBSOCKET_RELIED_ON), strict=True):
        for name in relied_on["attributes"]:
            assert hasattr(protocol, name), (
                f"uvicorn {uvicorn.__version__}'s {type(protocol).__name__} sets no {name!r} "
                f"on a connection: the socket guard reads it (tested with uvicorn {TESTED[0]} "
                f"to {TESTED[1]})"
            )
    http, websocket = connected
    assert http.cycle is None and not response_pending(http)  # no request yet
    assert websocket.handshake_complete is False and websocket.initial_response is None


def test_the_request_cycle_says_when_its_response_is_complete() -> None:
    source = inspect.getsource(h11_impl.RequestResponseCycle)
    for name in CYCLE_RELIED_ON:
        assert f"self.{name} =" in source, (
            f"uvicorn {uvicorn.__version__}'s RequestResponseCycle sets no {name!r}: the "
            "socket guard reads it to leave a request being answered alone"
        )


def test_the_unanswered_handshake_line_is_uvicorns() -> None:
    source = inspect.getsource(WebSocketProtocol)
    assert f'"{UNANSWERED}' in source, (
        f"uvicorn {uvicorn.__version__} no longer logs {UNANSWERED!r}: the socket guard "
        "keeps that line quiet for a refused handshake"
    )


def test_the_bounds_are_the_tested_series_and_the_installed_one_is_in_range() -> None:
    """pyproject admits the first tested release up to the last one's minor series."""
    dependencies = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    (bounds,) = [d for d in dependencies if d.startswith("uvicorn")]
    major, minor = _version(TESTED[1])[:2]
    assert bounds == f"uvicorn>={TESTED[0]},<{major}.{minor + 1}"
    assert _version(TESTED[0]) <= _version(uvicorn.__version__) < (major, minor + 1)
