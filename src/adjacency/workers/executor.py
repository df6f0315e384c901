"""The executor interface: where work runs, and the in-process backend.

An :class:`Executor` calls a function on many items in worker processes and
yields each ``(item, value)`` as soon as it finishes, in any order
(:meth:`Executor.map_unordered`). It knows nothing of what the work is: the
arena plays games through it (:func:`adjacency.arena.games.play_tasks`), the
split solver (:mod:`adjacency.solving.split`) solves subtrees and the tuner
plays its batches.

Backends: :class:`SerialExecutor` (the calling process, one item at a time:
tests and debugging), :class:`~adjacency.workers.pool.PoolExecutor` (worker
processes on this machine; the default, ``--executor local``) and
:class:`~adjacency.workers.ray_cluster.RayExecutor` (one task per item on a Ray
cluster, ``--executor ray``). :func:`adjacency.workers.choice.make_executor`
builds one from the command-line choice. :func:`windowed` is the streaming
loop the process backends share.
"""

from __future__ import annotations

import os
import socket
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core.errors import AdjacencyRuntimeError
from ..system.closing import Closing

T = TypeVar("T")
R = TypeVar("R")
H = TypeVar("H")

LOCAL_NODE = "local"
"""The node name of work done outside a Ray cluster."""


@dataclass(frozen=True)
class Placement:
    """Where a piece of work ran: the Ray node id (or ``"local"``), the host and the process."""

    node: str
    host: str
    pid: int

    @classmethod
    def here(cls) -> Placement:
        """The calling process's placement (its Ray node when it is a Ray worker)."""
        node = LOCAL_NODE
        ray = sys.modules.get("ray")
        if ray is not None and ray.is_initialized():
            node = ray.get_runtime_context().get_node_id()
        return cls(node, socket.gethostname(), os.getpid())

    def __str__(self) -> str:
        if self.node == LOCAL_NODE:
            return f"pid {self.pid}"
        return f"node {self.node[:12]} ({self.host}) pid {self.pid}"


class WorkerError(AdjacencyRuntimeError):
    """A worker process died (killed, out of memory) or could not finish its work."""


class ExecutorUnavailable(AdjacencyRuntimeError):
    """The chosen executor cannot start: its package is missing, or its cluster cannot be
    reached or runs another version of adjacency."""


class Executor(Closing, ABC):
    """Runs work in workers and yields results as they finish (any order).

    ``concurrency`` is how many items run at once (for a cluster: its CPUs when
    the executor started).
    """

    concurrency: int = 1

    @abstractmethod
    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        """Call ``fn(item)`` in a worker for every item; yield ``(item, value)`` as each ends.

        ``fn`` and the items must be picklable (a module-level function, plain values).
        An exception raised by ``fn`` is re-raised here; a worker that dies raises
        :class:`WorkerError`. Closing the iterator early cancels what is pending.
        """

    def close(self) -> None:
        """Release workers."""


def windowed(
    items: Iterable[T],
    submit: Callable[[T], H],
    wait: Callable[[list[H]], list[H]],
    collect: Callable[[H], R],
    cancel: Callable[[list[H]], None],
    window: Callable[[], int],
) -> Iterator[tuple[T, R]]:
    """Stream ``items`` through a backend, keeping at most ``window()`` of them submitted.

    ``submit`` starts one item and returns its handle, ``wait`` blocks until some
    handles are done and returns those, ``collect`` returns a done handle's value
    (or raises), and ``cancel`` is given the handles still pending when the
    consumer stops early or an error escapes. A bounded window means an early stop
    (SPRT, Ctrl-C) wastes at most the work in flight.
    """
    pending: dict[H, T] = {}
    queue = iter(items)
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < window():
                item = next(queue, _END)
                if item is _END:
                    exhausted = True
                else:
                    pending[submit(item)] = item  # type: ignore[arg-type]
            if not pending:
                return
            for handle in wait(list(pending)):
                item = pending.pop(handle)
                yield item, collect(handle)
    finally:
        if pending:
            cancel(list(pending))


_END: Any = object()


class SerialExecutor(Executor):
    """Runs everything in the calling process, one item after another."""

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        for item in items:
            yield item, fn(item)
