"""One build cache for the whole test session (:mod:`adjacency.hosting.build_cache`):
the same course-shaped program built by many tests, in this process, its xdist workers
and the league servers they start, is compiled once.

The first pytest process (the controller under xdist) makes a folder and names it in
:data:`~adjacency.hosting.build_cache.CACHE_ENV` before its workers start, so they and
every server they start inherit it; that process removes it at its end. Where the
variable is already set (a worker, or a developer who keeps a cache between runs, or
sets it empty for none), it is left as it is.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from adjacency.hosting.build_cache import CACHE_ENV

_made: list[Path] = []


def pytest_configure(config: pytest.Config) -> None:
    if CACHE_ENV in os.environ:
        return
    made = Path(tempfile.mkdtemp(prefix="adjacency-build-cache-"))
    os.environ[CACHE_ENV] = str(made)
    _made.append(made)


def pytest_unconfigure(config: pytest.Config) -> None:
    while _made:
        shutil.rmtree(_made.pop(), ignore_errors=True)
        os.environ.pop(CACHE_ENV, None)
