"""Session-wide fixtures and hooks of the whole suite.

No test is skipped silently (:mod:`skip_guard`), none takes longer than the suite's
time budget (:mod:`time_guard`), and the programs a test starts end with it
(:mod:`reaper`); every run ends with the suite's worker time by kind of test
(:mod:`worker_time`), after ``make test``'s slowest durations. Each test is marked with
what it needs beyond Python (:mod:`needs`: browser, ray, jvm, node, deploy, site), which
``make test-core`` leaves out.

Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE`` (``make test`` sets ``ci``), else
``ci`` when ``CI`` is set, else ``dev``:

- ``ci``: derandomised (the examples are a function of each test's source), so every run
  of ``make test`` on a fresh clone draws exactly the examples CI drew, and a failure in
  CI is reproduced by running the same test again; no deadline (a loaded machine must not
  turn a slow example into a failure: the time guard bounds whole tests instead); no
  explain phase, whose line tracer made one failing example's report take minutes.
- ``dev`` (plain ``pytest``): new random examples on every run, and the blob that
  reproduces a failure printed with it.

One build cache for the session (:mod:`shared_builds`): a program every test builds
alike is compiled once, by whichever process comes first.

The Java starter kit compiled once per pytest process (``java_build``), for the kits'
tests (tests/examples) and the league's end-to-end event (tests/league).

A real multi-node Ray cluster on this machine, shared by every Ray test of the session.

``ray.cluster_utils.Cluster`` starts a head node and worker nodes as separate
raylets, each its own set of processes, exactly as ``ray start`` does on several
machines. The head has no CPU, so every task runs on a worker node. Object stores
are small and the dashboard is off so the cluster fits a 2-core CI machine.

Every test that uses it is in one xdist group (:mod:`groups`), so under ``make
test``'s ``--dist loadgroup`` one worker starts the one cluster, shared by all the
Ray tests and shut down at the end of its session. Its start is tried again, a fresh
cluster each time, when it fails (on a loaded machine Ray's own waits for its GCS or
a raylet can run out), at most :data:`CLUSTER_TRIES` times and never once
:data:`CLUSTER_START_SECONDS` have passed; that and the wait for the nodes to register
stretch with the machine's load. The process is connected to it
(``ray.init``) only for the test modules that use it: tests of other modules (the
local executors, which read ``ray.is_initialized()`` to name where a game ran) never
see a connected Ray.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, settings

import arena_fakes
from adjacency.league.play.hosted import SHARE_FLOOR_ENV
from adjacency.sandbox.pressure import PRESSURE_ENV
from browser_helpers import chromium
from kit_helpers import build_java
from net_helpers import reserved_port
from sandbox_helpers import reachable_folder

pytest_plugins = [
    "skip_guard",
    "time_guard",
    "hang_guard",
    "needs",
    "reaper",
    "groups",
    "worker_time",
    "shared_builds",
    "docs_site",
]

__all__ = ["browser", "held_port", "java_build", "ray_cluster", "sandbox_box"]

# The league servers the suite starts judge absence in wall time, as on a quiet machine.
# The suite keeps the machine's CPU pressure high itself (three workers on two cores), so
# every fresh server's reconnection grace, counted in unstalled time, would stretch toward
# its cap, and each test whose absent bot must lose would wait that out. The waits in
# machine time are tested with readings of their own (tests/league/test_machine_time.py).
os.environ.setdefault(PRESSURE_ENV, "none")
# Nor do they hold new games while the latest hosted moves waited for their cores: the
# suite's other tests are what they waited for, and each hold lasts the 30 s window. The
# hold is tested with a floor of its own (tests/league/test_hosted_share.py).
os.environ.setdefault(SHARE_FLOOR_ENV, "0")

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
)
settings.register_profile("dev", print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium (:func:`browser_helpers.chromium`), one per module of browser
    tests: each test opens its own context (its own cookies and storage) in it."""
    with chromium() as launched:
        yield launched


@pytest.fixture
def sandbox_box() -> Iterator[Path]:
    """A submission folder for the sandbox (adjacency.sandbox) that its users can reach,
    after checking that the sandbox starts here (bubblewrap; a failure names the fix)."""
    from adjacency.sandbox import check

    check()
    with reachable_folder() as folder:
        yield folder


@pytest.fixture
def held_port() -> Iterator[int]:
    """A port of 127.0.0.1 this test holds from start to end
    (:func:`net_helpers.reserved_port`): for a server started, killed and started again
    on the same port, which no other program can take between."""
    with reserved_port() as port:
        yield port


@pytest.fixture(scope="session")
def java_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Java starter kit (its sources and the adapter example) compiled once per pytest
    process, for the kits' tests and the league's end-to-end event."""
    return build_java(tmp_path_factory.mktemp("java-kit"))


OBJECT_STORE = 80 * 1024 * 1024
WORKER_NODES = 2
CLUSTER_TRIES = 3
"""The most starts of the shared Ray cluster before its tests fail."""
CLUSTER_START_SECONDS = 90.0
"""No new start of the cluster once this many seconds have passed since the first: the
tries fit within the first test's timeout (pytest-timeout's 120 s, setup included). Both
stretch with the machine's load (:func:`hang_guard.guard`)."""
NODES_SECONDS = 30.0
"""Seconds a start waits for each node to register and for its worker nodes to be
ready (Ray's own 30 s, stretched with the load as the tries' are: on a loaded machine a
raylet takes longer)."""
HEALTH_CHECKS = {"health_check_period_ms": 1000}
"""The head's checks of its nodes every second, not every 3 s: a node the tests kill
(its raylet gone, each check refused at once) is known dead after Ray's 5 failed
checks, 5 s rather than 15 s that the next probe of every node waited out. A node that
is only slow still fails a check only after Ray's 10 s without an answer, 5 times."""


@contextlib.contextmanager
def _patient_registration(seconds: float) -> Iterator[None]:
    """Ray's wait for a started node to register with its GCS made ``seconds`` long:
    each node's start (``ray._private.node.Node``) asks ``services.get_node`` until it
    answers and gives up once 30 s have passed, a limit no setting changes. Here each ask
    goes on asking for ``seconds`` before it says the node is unknown, so a raylet that a
    loaded machine starts slowly registers in time, and one that never starts still fails
    the start, after ``seconds``."""
    from ray._private import services

    asked = services.get_node

    def patient(gcs_address: str, node_id: str) -> Any:
        deadline = time.monotonic() + seconds
        while True:
            try:
                return asked(gcs_address, node_id)  # type: ignore[no-untyped-call]
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    services.get_node = patient
    try:
        yield
    finally:
        services.get_node = asked


def _start_cluster() -> Any:
    """A head without CPUs and :data:`WORKER_NODES` one-CPU worker nodes, all registered,
    each node's registration waited for as long as the nodes are
    (:func:`_patient_registration`); whatever a failed start left running is shut down
    before the error goes on."""
    from ray.cluster_utils import Cluster

    from hang_guard import guard  # a plugin of this file's: imported once it is loaded

    cluster = None
    try:
        with _patient_registration(guard(NODES_SECONDS)):
            cluster = Cluster(
                initialize_head=True,
                connect=False,
                head_node_args={
                    "num_cpus": 0,
                    "object_store_memory": OBJECT_STORE,
                    "include_dashboard": False,
                    "_system_config": HEALTH_CHECKS,
                },
            )
            for _ in range(WORKER_NODES):  # not Ray's 30 s for each: the load's stretch
                cluster.add_node(wait=False, num_cpus=1, object_store_memory=OBJECT_STORE)
        cluster.wait_for_nodes(timeout=guard(NODES_SECONDS))
        return cluster
    except BaseException:
        if cluster is not None:
            cluster.shutdown()  # type: ignore[no-untyped-call]
        raise


@pytest.fixture(scope="session")
def _ray_nodes() -> Iterator[Any]:
    """The cluster's processes, started once per pytest process (one worker runs all
    its tests: :mod:`groups`), tried again within :data:`CLUSTER_TRIES` and
    :data:`CLUSTER_START_SECONDS`."""
    import ray.cloudpickle

    from hang_guard import guard  # a plugin of this file's: imported once it is loaded

    # Workers do not have tests/ on their path: ship the fake bots by value.
    ray.cloudpickle.register_pickle_by_value(arena_fakes)  # type: ignore[no-untyped-call]
    began = time.monotonic()
    failures: list[str] = []
    cluster = None
    while cluster is None:
        try:
            cluster = _start_cluster()
        except Exception as exc:
            failures.append(f"{type(exc).__name__}: {exc}")
            spent = time.monotonic() - began
            if len(failures) == CLUSTER_TRIES or spent > guard(CLUSTER_START_SECONDS):
                pytest.fail(
                    f"the Ray cluster did not start in {len(failures)} tries ({spent:.0f} s): "
                    + "; ".join(failures)
                )
    try:
        yield cluster
    finally:
        cluster.shutdown()  # type: ignore[no-untyped-call]


@pytest.fixture(scope="module")
def ray_cluster(_ray_nodes: Any) -> Iterator[Any]:
    """The shared cluster, with this process connected to it for the module's tests."""
    import ray

    ray.init(address=_ray_nodes.address, logging_level=logging.WARNING, log_to_driver=False)
    try:
        yield _ray_nodes
    finally:
        ray.shutdown()  # type: ignore[no-untyped-call]
