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
from browser_helpers import SHOTS_ENV, chromium
from web_helpers import JOURNEY_LIMITS, live_server, new_tab

DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
"""Where the browser tests write their screenshots with :data:`SHOTS_ENV` set to 1."""


HERE = Path(__file__).resolve().parent


class SharedChromium:
    """One Chromium (:func:`browser_helpers.chromium`) for a run of consecutive browser
    tests of this folder, whatever their module: a launch (Playwright's driver, the
    browser, its first context) costs seconds, a fresh context per test a fraction of one.

    It is launched by the first test that asks for :func:`browser` and closed as soon as
    the next test to run does not ask for it (or lies outside this folder, or there is
    none): a live Playwright holds an event loop of its own in this thread, under which
    ``asyncio.run`` (the other tests' servers and clients) refuses to start. Each test
    still gets its own context (cookies, storage); the contexts a module left open are
    closed when the next test lies in another module."""

    def __init__(self) -> None:
        self._stack: contextlib.ExitStack | None = None
        self._browser: Any = None

    def get(self) -> Any:
        """The running Chromium, launched now if none is."""
        if self._browser is None:
            with contextlib.ExitStack() as stack:
                self._browser = stack.enter_context(chromium())
                self._stack = stack.pop_all()
        return self._browser

    def after(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        """Called after ``item``'s teardown: close what ``nextitem`` does not need."""
        if self._browser is None:
            return
        if nextitem is None or not (
            "browser" in getattr(nextitem, "fixturenames", ())
            and nextitem.path.resolve().is_relative_to(HERE)
        ):
            self.close()
        elif nextitem.path != item.path:
            for context in list(self._browser.contexts):
                context.close()

    def close(self) -> None:
        """Close the browser and its Playwright, if running."""
        stack, self._stack, self._browser = self._stack, None, None
        if stack is not None:
            stack.close()


SHARED_CHROMIUM = SharedChromium()


@pytest.fixture
def browser() -> Any:
    """Debian's Chromium, shared by consecutive browser tests of this folder
    (:class:`SharedChromium`): each test opens its own context in it."""
    return SHARED_CHROMIUM.get()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a test's own teardown, close the shared Chromium unless the next test uses it."""
    try:
        return (yield)
    finally:
        SHARED_CHROMIUM.after(item, nextitem)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A run cut short (``-x``, an interrupt) closes the shared Chromium too."""
    SHARED_CHROMIUM.close()


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
