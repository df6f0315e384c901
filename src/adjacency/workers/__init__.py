"""Workers: where work runs, with no knowledge of what the work is.

An :class:`Executor` calls a picklable function on many items in worker
processes and yields each ``(item, value)`` as it finishes. Backends:
:class:`SerialExecutor` (in process, :mod:`.executor`), :class:`PoolExecutor`
(processes on this machine, :mod:`.pool`) and :class:`RayExecutor` (tasks on a
Ray cluster, :mod:`.ray_cluster`, with the watchdog of a private runtime in
:mod:`.reaper`). :func:`make_executor` (:mod:`.choice`) builds the one named on
the command line. Failures are :class:`WorkerError` (a worker died) and
:class:`ExecutorUnavailable` (the backend cannot start); both are runtime errors.

Games, solver subtrees and tuning batches are work the layers above hand in
(:mod:`adjacency.arena.games`, :mod:`adjacency.solving.split`,
:mod:`adjacency.tuning.spsa`); nothing here imports bots or the engine. The ``ray``
package itself is imported only when a :class:`RayExecutor` is built.
"""

from __future__ import annotations

from .choice import EXECUTORS, make_executor
from .executor import (
    LOCAL_NODE,
    Executor,
    ExecutorUnavailable,
    Placement,
    SerialExecutor,
    WorkerError,
)
from .pool import PoolExecutor
from .ray_cluster import RayExecutor

__all__ = [
    "EXECUTORS",
    "LOCAL_NODE",
    "Executor",
    "ExecutorUnavailable",
    "Placement",
    "PoolExecutor",
    "RayExecutor",
    "SerialExecutor",
    "WorkerError",
    "make_executor",
]
