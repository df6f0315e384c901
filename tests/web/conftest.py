"""Fixtures shared by the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from adjacency.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The web app on a fresh database, in process (FastAPI's test client)."""
    with TestClient(create_app(tmp_path / "games.sqlite3")) as test_client:
        yield test_client
