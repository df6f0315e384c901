"""Fixtures shared by the web tests."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.web.app import create_app
from web_helpers import JOURNEY_LIMITS, live_server, new_tab

DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SHOTS_ENV = "ADJACENCY_SCREENSHOTS"
"""Set to 1, the browser tests write their screenshots into :data:`DOCS_SHOTS` (the
pictures of the docs); otherwise into a temporary folder."""


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The web app in a real uvicorn server on a fresh database, one per test module, with
    the module's ``LIVE_SERVER`` options (keyword arguments of
    :func:`web_helpers.live_server`; a module without it gets the defaults), its limits
    :data:`web_helpers.JOURNEY_LIMITS` unless the module sets its own."""
    options = {"limits": JOURNEY_LIMITS, **getattr(request.module, "LIVE_SERVER", {})}
    with live_server(tmp_path_factory.mktemp("web") / "games.sqlite3", **options) as url:
        yield url


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A tab of the API's client on :func:`server` in a fresh context of Chromium, with the
    module's ``PAGE`` options (those of :func:`web_helpers.new_tab`); the test fails if
    the page logged a console error or raised."""
    tab = new_tab(browser, server, **getattr(request.module, "PAGE", {}))
    yield tab
    tab.context.close()
    assert tab.console_errors == [], f"console errors: {tab.console_errors}"


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a module's browser tests write their screenshots (:data:`SHOTS_ENV`)."""
    if os.environ.get(SHOTS_ENV) == "1":
        DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
        return DOCS_SHOTS
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The path of a fresh database of the web app (not created yet)."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def app(db: Path) -> Any:
    """The web app on :func:`db`, for tests that open several clients on one server."""
    return create_app(db)


@pytest.fixture
def browsers(request: pytest.FixtureRequest, app: Any) -> Iterator[dict[str, TestClient]]:
    """Several browsers (each with its own cookies) on one server (:func:`app`), named by
    the module's ``BROWSERS``."""
    with contextlib.ExitStack() as stack:
        yield {name: stack.enter_context(TestClient(app)) for name in request.module.BROWSERS}


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """The web app on :func:`db`, in process (FastAPI's test client)."""
    with TestClient(create_app(db)) as test_client:
        yield test_client
