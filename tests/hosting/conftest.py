"""The hosted bots' tests' fixtures: a folder the sandbox's users can reach, and a league
served there with its builder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from league_helpers import make_league, thread_server
from sandbox_helpers import reachable_folder


@pytest.fixture
def folder(sandbox_box: Path) -> Iterator[Path]:
    """A folder for a league file that the sandbox's users can reach (its builds go
    beside it)."""
    with reachable_folder("adjacency-hosted-games-") as where:
        yield where


@pytest.fixture
def built_league(folder: Path) -> Iterator[tuple[str, Path]]:
    """A 6x6, 4-round league (30 s a side) served in a thread with its builder: its URL
    and its file."""
    db = folder / "league.db"
    make_league(db, rows=6, cols=6, rounds=4, base=30.0, increment=0.0)
    with thread_server(db, house_games=False, builds=True) as url:
        yield url, db


@pytest.fixture(scope="session")
def fx_tools() -> None:
    """Debian's OpenJFX and Xvfb are installed (``tools/provision-javafx``, run by
    ``make test``, installs them): a test that needs them fails naming what to install,
    it is never skipped."""
    from adjacency.hosting.fx_build import FX_MODULES
    from adjacency.hosting.fx_run import XVFB

    missing = [p for p in (f"{FX_MODULES}/javafx.controls.jar", XVFB) if not Path(p).exists()]
    if missing:
        pytest.fail(
            f"missing {', '.join(missing)}: install openjfx and xvfb (tools/provision-javafx)"
        )
