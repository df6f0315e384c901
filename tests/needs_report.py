"""What a collection selected, test by test: each test's markers and fixtures.

:func:`described` serves tests/test_needs.py two ways: on the run's own collection, and
as this module loaded as a plugin (``-p needs_report``) by a collection of its own, which
writes the description as JSON to the file ``$NEEDS_REPORT`` names."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable

import pytest


def described(items: Iterable[pytest.Item]) -> dict[str, dict[str, list[str]]]:
    """Each item's node id -> its markers and its fixtures' names, each sorted."""
    return {
        item.nodeid: {
            "markers": sorted({mark.name for mark in item.iter_markers()}),
            "fixtures": sorted(getattr(item, "fixturenames", ())),
        }
        for item in items
    }


def pytest_collection_finish(session: pytest.Session) -> None:
    """As a plugin: the collection's description, written where ``$NEEDS_REPORT`` says."""
    with open(os.environ["NEEDS_REPORT"], "w") as out:
        json.dump(described(session.items), out)
