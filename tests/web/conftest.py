"""Fixtures shared by the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.web.app import create_app
from browser_helpers import chromium


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The web app on a fresh database, in process (FastAPI's test client)."""
    with TestClient(create_app(tmp_path / "games.sqlite3")) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, one per module of browser tests (:func:`browser_helpers.chromium`)."""
    with chromium() as launched:
        yield launched
