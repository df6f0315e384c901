"""A pytest plugin: a hung test's limit grows with the machine's load (loaded by
tests/conftest.py).

pytest-timeout ends a test that runs past its limit (``timeout`` in pyproject.toml, or a
test's own ``timeout`` mark): a guard against a hang, never a judgement of speed
(:mod:`time_guard` holds each test to its budget, and CI fails a run over it). Beside
other work, a test that is not hung takes longer in proportion to the load: the suite
keeps about :data:`OWN_LOAD` tasks a core ready to run by itself, so a test that starts
while the machine's load a core (``os.getloadavg``'s one-minute figure) is above that
has its limit multiplied by the ratio, at most :data:`MOST` times. At a load of 20 on 2
cores a test may run 5 times its limit (10 minutes for the 2 minutes of a quiet
machine) before it is taken for hung; on the suite's own load nothing changes. The
suite's own waits against a hang (``wait_until``'s deadline, ``run_in_group``'s
timeout) are stretched the same way (:func:`guard`).

>>> stretch(2.0), stretch(5.0), stretch(10.0), stretch(50.0)
(1.0, 2.5, 5.0, 5.0)
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from pytest_timeout import _get_item_settings  # type: ignore[import-untyped]

OWN_LOAD = 2.0
"""Tasks a core ready to run that the suite keeps by itself (three workers on two cores,
with their browsers, JVMs and servers): on that load a test's limit is its own."""

MOST = 5.0
"""The most a test's limit is multiplied by."""

LOAD_VARIABLE = "ADJACENCY_TEST_LOAD"
"""Overrides the machine's load a core (a number): the guard's own tests set it."""


def load_per_core() -> float:
    """The machine's one-minute load average a core, or :data:`LOAD_VARIABLE`'s value."""
    text = os.environ.get(LOAD_VARIABLE, "")
    if text:
        try:
            return float(text)
        except ValueError:
            raise pytest.UsageError(f"{LOAD_VARIABLE}={text!r} is not a number") from None
    return os.getloadavg()[0] / (os.cpu_count() or 1)


def stretch(per_core: float) -> float:
    """How many times its limit a test starting at a load of ``per_core`` a core gets."""
    return min(MOST, max(1.0, per_core / OWN_LOAD))


def guard(seconds: float) -> float:
    """A test's wait of ``seconds`` against a hang (a poll's deadline, a child's
    timeout), stretched by the machine's load now as a test's limit is."""
    return seconds * stretch(load_per_core())


def pytest_configure(config: pytest.Config) -> None:
    load_per_core()  # a bad override is a usage error before any test runs


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Before pytest-timeout reads the test's limit: that limit times :func:`stretch`,
    as a mark of the test's own (its method and scope kept)."""
    factor = stretch(load_per_core())
    settings = _get_item_settings(item)
    if factor > 1 and settings.timeout is not None and settings.timeout > 0:
        item.add_marker(
            pytest.mark.timeout(
                settings.timeout * factor, method=settings.method, func_only=settings.func_only
            ),
            append=False,  # the closest mark: before the test's own
        )
    yield
