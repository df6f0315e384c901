"""The executor named on the command line (``--executor``, ``--jobs``, ``--ray-address``)."""

from __future__ import annotations

from typing import Any

from .executor import Executor, ExecutorUnavailable
from .pool import PoolExecutor

EXECUTORS = ("local", "ray")
"""The ``--executor`` choices: ``local`` is :class:`~adjacency.workers.pool.PoolExecutor`,
``ray`` is :class:`~adjacency.workers.ray_cluster.RayExecutor`."""


def make_executor(
    name: str,
    jobs: int | None = None,
    address: str | None = None,
    command: str = "",
    runtime_env: dict[str, Any] | None = None,
) -> Executor:
    """The executor chosen on the command line: ``local`` (a pool of ``jobs`` processes)
    or ``ray`` (a private Ray runtime with ``jobs`` CPUs, or the cluster at ``address``:
    ``auto`` or ``HOST:PORT``; ``runtime_env`` is Ray's, for a joined cluster).
    ``command`` names the command in error messages."""
    if name == "local":
        if address is not None:
            raise ExecutorUnavailable("--ray-address applies to --executor ray only")
        return PoolExecutor(jobs)
    if name == "ray":
        from .ray_cluster import RayExecutor

        executor: Executor = RayExecutor(
            address=address,
            concurrency=jobs,
            command=command,
            runtime_env=runtime_env,
        )
        return executor
    raise ExecutorUnavailable(f"executor {name!r} is not one of {', '.join(EXECUTORS)}")
