"""The docs site that ``make test`` builds beside the tests (a pytest plugin, loaded by
tests/conftest.py, and the helpers of tests/docs/test_site.py).

``make test`` runs ``make test-site`` (``mkdocs build --strict`` into
``.test-site/site``, about a minute of CPU) at the same time as pytest, and names the
folder in :data:`PREBUILT`. The build writes :data:`BUILT` beside the folder when it
has finished, or :data:`FAILED` when it failed. The tests that read the site wait for
one of them (:func:`built_site`), and they run last (:func:`pytest_collection_modifyitems`),
so that by then the build has long finished and no test's time holds the wait. Without
:data:`PREBUILT`, tests/docs/test_site.py builds the site itself.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from web_helpers import wait_until

PREBUILT = "ADJACENCY_TEST_SITE"
"""Where ``make test`` builds the site beside the tests (its log beside it, as
``.test-site.log``)."""

BUILT = "built"
"""The file, beside the site's folder, that the build writes once it has finished."""

FAILED = "failed"
"""The file, beside the site's folder, that the build writes when it failed."""

BUILD_SECONDS = 600.0
"""The longest wait for the build (a hang's guard; it takes about a minute quiet)."""

READERS = Path(__file__).resolve().parent / "docs" / "test_site.py"
"""The tests that read the built site."""


def prebuilt() -> str | None:
    """The folder the site is built in beside the tests (:data:`PREBUILT`), if any."""
    return os.environ.get(PREBUILT) or None


def built_site(folder: Path) -> Path:
    """``folder`` once the build beside the tests has finished writing it; a test fails
    with the build's last lines where it failed."""
    marks = folder.parent
    wait_until(
        lambda: (marks / BUILT).exists() or (marks / FAILED).exists(),
        BUILD_SECONDS,
        f"make test-site to finish the docs site in {folder}",
    )
    log = folder.parent.with_suffix(".log")
    text = log.read_text(encoding="utf-8") if log.exists() else ""
    assert not (marks / FAILED).exists(), f"make test-site failed:\n{text[-8000:]}"
    assert "WARNING" not in text, text
    return folder


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With the site built beside the tests, the tests that read it go last (each a
    unit of its own under ``--dist loadgroup``, which schedules those in this order)."""
    if prebuilt() is None:
        return
    late = [item for item in items if item.path == READERS]
    if late:
        first = [item for item in items if item.path != READERS]
        items[:] = first + late
