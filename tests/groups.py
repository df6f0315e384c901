"""A pytest plugin (loaded by tests/conftest.py): ``make test``'s ``--dist loadgroup``
keeps each xdist group on one worker under pytest 9, and every test of the shared Ray
cluster is in one group.

pytest-xdist's ``loadgroup`` sends all the tests of a group to one worker: on each
worker it appends ``@group`` to a grouped test's node id, which the scheduler reads.
pytest 9 keeps a node's id in ``_id`` and no longer reads the ``_nodeid`` that xdist
3.8 writes, so the ``xdist_group`` marker had no effect; :func:`pytest_collection_modifyitems`
writes the suffix where pytest reads it (only where xdist's own did not take).

A session fixture lives once per worker. The Ray cluster (``conftest._ray_nodes``)
would start on each worker that runs one of its tests, two clusters then competing for
the machine's cores (and a start timing out under that load). Every test that uses it is
in the group :data:`RAY_GROUP`, even one marked with a group of its own, so one worker
starts the one cluster and runs them all, while the other worker runs the rest of the
suite.
"""

from __future__ import annotations

import pytest
from _pytest.nodeid import NodeId

RAY_GROUP = "ray-cluster"
"""The xdist group of every test that uses the shared Ray cluster."""

CLUSTER_FIXTURE = "_ray_nodes"
"""The session fixture of the shared Ray cluster (tests/conftest.py)."""


def marked_group(item: pytest.Item) -> str | None:
    """The xdist group of ``item`` as xdist names it from its markers (their names,
    sorted, joined by ``_``), or ``None`` for a test in no group."""
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    }
    return "_".join(sorted(names)) or None


def group_of(item: pytest.Item) -> str | None:
    """The xdist group ``item`` runs in: :data:`RAY_GROUP` for every test of the shared
    Ray cluster, whatever other group it is marked with (xdist would name a test in two
    groups by both, a group of its own that may go to the other worker and start a
    second cluster there); otherwise its markers' group."""
    if CLUSTER_FIXTURE in getattr(item, "fixturenames", ()):
        return RAY_GROUP
    return marked_group(item)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker under ``--dist loadgroup``: each grouped test's node id ends
    with ``@`` and its :func:`group_of`, as xdist's scheduler expects (in place of the
    suffix xdist itself may have written from the markers)."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        group = group_of(item)
        if group is None or item.nodeid.endswith(f"@{group}"):
            continue
        nodeid = item.nodeid.removesuffix(f"@{marked_group(item)}")
        item._id = NodeId.parse(f"{nodeid}@{group}")
