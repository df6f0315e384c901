"""The Ray backend of the executor seam: one item (one game) = one Ray task.

:class:`RayExecutor` either starts a private Ray runtime on this machine (no
address; it is shut down with the executor) or joins a running cluster
(``auto`` or ``HOST:PORT``, a cluster started with ``ray start``). Each item is
a task requesting one CPU; at most twice the cluster's CPUs are in flight, and
results stream back as tasks finish (``ray.wait``), so nothing waits for the
slowest of a batch. Only the driver touches the SQLite store.

Faults:

* A worker process or node that dies mid-task is a *system failure*: Ray
  re-runs the task elsewhere, up to :data:`MAX_RETRIES` times. The task is a
  plain value (a planned game carries its game id), so a re-run plays the same
  planned game and the driver stores it once. Results are small values that
  Ray keeps in the driver's memory, so a finished game is never lost with its node.
* A bot that raises, answers illegally or hangs loses the game inside the task,
  exactly as in the local pool (the referee runs in the task's main thread).
* A task that still fails after its retries raises :class:`WorkerError`.

Before the first item, :meth:`RayExecutor.check_nodes` runs a probe on every
alive node and compares the node's :func:`fingerprint` of the adjacency package
with the driver's; every result carries the fingerprint of the process that made
it too, so a node that joins later with other code is caught before its first
result is used.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any, TypeVar

from ..core.errors import InvalidSettingsError
from ..system.provenance import source_hash
from . import ray_auth
from . import reaper as ray_reaper
from .executor import Executor, ExecutorUnavailable, Placement, WorkerError, windowed

T = TypeVar("T")
R = TypeVar("R")

MAX_RETRIES = 3
"""Times Ray re-runs a task whose worker or node died (system failures only; a bot's own
errors are game results, not failures)."""

PRIVATE_OBJECT_STORE = 100 * 1024 * 1024
"""Object store of a private runtime (bytes): results are a few kB, so keep it small."""

PROBE_TIMEOUT = 120.0
"""Seconds to wait for the version probe of every node (a cold worker starts in ~2 s)."""

RESOURCES_REFRESH = 5.0
"""Seconds between reads of the cluster's CPU count (nodes may join or leave)."""

RAY_MISSING = (
    "--executor ray needs the optional Ray package; install it with: "
    "pip install 'adjacency-game[ray]'"
)


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`ExecutorUnavailable` with the install command."""
    try:
        import ray
    except ImportError:
        raise ExecutorUnavailable(RAY_MISSING) from None
    return ray


def fingerprint() -> str:
    """The package version and a hash of its Python sources: equal on two machines
    exactly when they run the same adjacency code."""
    from .. import __version__

    return f"{__version__}+{source_hash()}"


def cpu_nodes(ray: ModuleType) -> list[dict[str, Any]]:
    """The alive nodes that offer CPUs, from the node table (``ray.nodes()``) of the
    cluster ``ray`` is connected to: each its ``NodeID``, ``NodeManagerAddress`` and
    ``Resources`` (``CPU`` among them)."""
    return [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU")]


def _probe() -> tuple[str, Placement]:
    """The version probe run on each node."""
    return fingerprint(), Placement.here()


def _run(fn: Callable[[Any], Any], item: Any) -> tuple[Any, str]:
    """The body of every task: the item's value and the worker's code fingerprint."""
    return fn(item), fingerprint()


class RayExecutor(Executor):
    """Runs each item as a Ray task on a private runtime or an existing cluster.

    ``address``: ``None`` starts a private runtime with ``concurrency`` CPUs
    (default: this machine's cores); ``"auto"`` or ``"HOST:PORT"`` joins a
    cluster. If Ray is already initialised in this process (a test's cluster),
    it is used as is and left running. ``runtime_env`` is passed to
    ``ray.init`` when joining (see docs/distributed.md for shipping the package).
    """

    def __init__(
        self,
        address: str | None = None,
        concurrency: int | None = None,
        runtime_env: dict[str, Any] | None = None,
        command: str = "",
        max_retries: int = MAX_RETRIES,
    ) -> None:
        self.ray = import_ray()
        source_hash.cache_clear()  # the code as it is now (an editable install may change)
        self.max_retries = max_retries
        self._owner = False
        self._checked: set[str] = set()
        self._remote: Any = None
        self._cpus_read = 0.0
        self._reaper: Any = None
        if not self.ray.is_initialized():
            self._start(address, concurrency, runtime_env, command)
        self.concurrency = self._cluster_cpus()

    def _start(
        self,
        address: str | None,
        concurrency: int | None,
        runtime_env: dict[str, Any] | None,
        command: str,
    ) -> None:
        options: dict[str, Any] = {
            "logging_level": "WARNING",
            "log_to_driver": False,
            "include_dashboard": False,
        }
        if address is None:
            cpus = max(1, concurrency or os.cpu_count() or 1)
            # "local" starts a new runtime even where RAY_ADDRESS names a running cluster.
            options.update(address="local", num_cpus=cpus, object_store_memory=PRIVATE_OBJECT_STORE)
            ray_auth.quiet_private_runtime(self.ray)
        else:
            _check_reachable(address, command)
            self._check_authentication(address, command)
            options.update(address=address, runtime_env=runtime_env)
            options.pop("include_dashboard")
        before = ray_reaper.children(os.getpid()) if address is None else set()
        reaper = ray_reaper.start() if address is None else None
        try:
            self.ray.init(**options)
        except Exception as exc:  # ConnectionError, RuntimeError, ValueError from ray.init
            what = (
                "cannot start a private Ray runtime"
                if address is None
                else f"cannot join the Ray cluster at {address!r} (start one with `ray start "
                "--head`)"
            )
            raise ExecutorUnavailable(
                f"{command + ': ' if command else ''}{what}: {_first_line(exc)}"
            ) from None
        finally:
            if reaper is not None:
                started = ray_reaper.children(os.getpid()) - before - {reaper.pid}
                self._guard(reaper, started)
        self._owner = True

    def _check_authentication(self, address: str, command: str) -> None:
        """Join in token mode where a token is available; refuse at once, in one line,
        a cluster that rejects this process's credentials (:mod:`.ray_auth`)."""
        ray_auth.use_token_if_available(self.ray)
        if address == "auto" or address.startswith("ray://"):
            return  # Ray resolves "auto" itself; the Ray Client protocol has no GCS to ask
        reason = ray_auth.refusal(self.ray, address)
        if reason is not None:
            raise ExecutorUnavailable(f"{command + ': ' if command else ''}{reason}")

    def _guard(self, reaper: Any, pids: set[int]) -> None:
        """Hand the runtime's processes to the watchdog (or stop it if there are none)."""
        assert reaper.stdin is not None
        try:
            reaper.stdin.write((" ".join(map(str, sorted(pids))) + "\n").encode())
            reaper.stdin.flush()
        except OSError:
            pass  # the watchdog is gone: nothing to hand over
        self._reaper = reaper
        if not pids:
            self._release_reaper()

    def _release_reaper(self) -> None:
        reaper, self._reaper = self._reaper, None
        if reaper is None:
            return
        with contextlib.suppress(OSError):
            reaper.stdin.close()
        with contextlib.suppress(Exception):
            reaper.wait(timeout=ray_reaper.GRACE + 3)

    def _cluster_cpus(self) -> int:
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            raise ExecutorUnavailable("the Ray cluster has no CPU to run tasks on")
        self._cpus_read = time.monotonic()
        return cpus

    def _window(self) -> int:
        if time.monotonic() - self._cpus_read > RESOURCES_REFRESH:
            # With every node gone for now, keep the last count: Ray waits for nodes.
            with contextlib.suppress(ExecutorUnavailable):
                self.concurrency = self._cluster_cpus()
        return 2 * self.concurrency

    def check_nodes(self) -> list[Placement]:
        """Probe every alive node that has CPUs; raise :class:`ExecutorUnavailable` if one
        cannot import adjacency or runs other code than the driver. Returns the probes.

        Each answer is judged as it comes: the first node with other code refuses the
        cluster at once, without waiting for the rest (a node that died since the table
        listed it answers only when Ray notices, seconds later)."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        probe = self.ray.remote(num_cpus=1, max_retries=0)(_probe)
        nodes = cpu_nodes(self.ray)
        refs = {
            probe.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)
            ).remote(): n
            for n in nodes
        }
        expected = fingerprint()
        found: list[Placement] = []
        gone = (self.ray.exceptions.TaskUnschedulableError, self.ray.exceptions.NodeDiedError)
        pending = list(refs)
        deadline = time.monotonic() + PROBE_TIMEOUT
        while pending:
            left = max(0.0, deadline - time.monotonic())
            done, pending = self.ray.wait(pending, num_returns=1, timeout=left)
            if not done:
                hosts = ", ".join(refs[r].get("NodeManagerAddress", "?") for r in pending)
                raise ExecutorUnavailable(
                    f"no answer from Ray node(s) at {hosts} within {PROBE_TIMEOUT:g} s"
                )
            found.extend(self._judge(done, refs, expected, gone))
        return found

    def _judge(
        self,
        done: list[Any],
        refs: dict[Any, dict[str, Any]],
        expected: str,
        gone: tuple[type[BaseException], ...],
    ) -> list[Placement]:
        """The placements of the probes ``done`` (their nodes in ``refs``) that answered
        with the ``expected`` fingerprint, each node marked checked; a node that died
        (``gone``) is skipped; a node that cannot run adjacency, or runs other code,
        raises :class:`ExecutorUnavailable`."""
        found: list[Placement] = []
        for ref in done:
            node = refs[ref]
            try:
                version, where = self.ray.get(ref)
            except gone:
                continue  # the node died since it was listed: it will run nothing
            except self.ray.exceptions.RayError as exc:
                raise ExecutorUnavailable(
                    f"Ray node {node['NodeID'][:12]} at {node.get('NodeManagerAddress')} cannot "
                    f"run adjacency ({_first_line(exc)}); install the package there or pass a "
                    "runtime_env (docs/distributed.md)"
                ) from None
            if version != expected:
                raise ExecutorUnavailable(
                    f"Ray node {where.node[:12]} on {where.host} runs adjacency {version}, the "
                    f"driver {expected}; install the same version on every node "
                    "(docs/distributed.md)"
                )
            self._checked.add(where.node)
            found.append(where)
        return found

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        ray = self.ray
        if not self._checked:
            self.check_nodes()
        if self._remote is None:
            self._remote = ray.remote(num_cpus=1, max_retries=self.max_retries)(_run)
        remote = self._remote
        expected = fingerprint()

        def wait(refs: list[Any]) -> list[Any]:
            while True:
                done, _ = ray.wait(refs, num_returns=1, timeout=1.0)
                if done:
                    return list(done)

        def collect(ref: Any) -> R:
            try:
                value, version = ray.get(ref)
            except ray.exceptions.RayTaskError as exc:
                raise exc.as_instanceof_cause() from None
            except ray.exceptions.RayError as exc:
                raise WorkerError(
                    f"a Ray task failed after {self.max_retries} retries: {_first_line(exc)}"
                ) from None
            if version != expected:
                raise WorkerError(
                    f"a Ray worker runs adjacency {version}, the driver {expected}; install "
                    "the same version on every node (docs/distributed.md)"
                )
            return value  # type: ignore[no-any-return]

        def cancel(refs: list[Any]) -> None:
            for ref in refs:
                ray.cancel(ref, force=True)

        return windowed(
            items, lambda item: remote.remote(fn, item), wait, collect, cancel, self._window
        )

    def close(self) -> None:
        """Shut down the private runtime (or leave the joined cluster); idempotent."""
        if self._owner and self.ray.is_initialized():
            self.ray.shutdown()
        self._owner = False
        self._release_reaper()  # ends what shutdown left behind (the raylet's agents)


CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a TCP connection to a cluster's address before giving up
(``ray.init`` itself retries for minutes)."""


def _check_reachable(address: str, command: str) -> None:
    """Fail fast with a clear message if ``HOST:PORT`` does not accept connections."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        if address != "auto":
            raise InvalidSettingsError(
                f"--ray-address {address!r}: expected 'auto' or HOST:PORT, e.g. 10.0.0.5:6379"
            )
        return
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except (OSError, ValueError) as exc:
        raise ExecutorUnavailable(
            f"{command + ': ' if command else ''}no Ray cluster answers at {address!r} "
            f"({exc}); start one with `ray start --head` or check the address"
        ) from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
