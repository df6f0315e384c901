"""Fixtures shared by the league's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from league_helpers import make_league, thread_server


@pytest.fixture
def league(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A fresh league served over HTTP without house games: its URL and its database.

    Made with the module's ``LEAGUE`` (keyword arguments of
    :func:`league_helpers.make_league`: ``rules`` and the settings; default: a 60+0
    clock) and served with its ``LEAGUE_SERVER`` (those of
    :func:`league_helpers.thread_server`)."""
    db = tmp_path / "league.db"
    make_league(db, **{"base": 60.0, "increment": 0.0, **getattr(request.module, "LEAGUE", {})})
    options = getattr(request.module, "LEAGUE_SERVER", {})
    with thread_server(db, **{"house_games": False, **options}) as url:
        yield url, db
