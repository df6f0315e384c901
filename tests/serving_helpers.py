"""Both servers' apps in one test: the browser game's and a fresh league's, as the
shared-serving tests (the page frame, the shared files) compare them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient

from adjacency.league.http.app import create_app as league_app
from adjacency.web.app import create_app as web_app
from league_helpers import make_league


@contextmanager
def both_apps(folder: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """``(web, league)`` clients of apps whose files are in ``folder`` (a new league with
    its teacher, ``league_helpers.make_league``), both started and stopped with it."""
    make_league(folder / "league.db")
    with (
        TestClient(web_app(folder / "web.db")) as web,
        TestClient(league_app(folder / "league.db")) as league,
    ):
        yield web, league
