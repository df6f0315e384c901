"""The hosted bots' tests' fixture: a folder the sandbox's users can reach."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox_helpers import reachable_folder


@pytest.fixture
def folder(sandbox_box: Path) -> Iterator[Path]:
    """A folder for a league file that the sandbox's users can reach (its builds go
    beside it)."""
    with reachable_folder("adjacency-hosted-games-") as where:
        yield where
