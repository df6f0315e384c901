"""The suite's xdist groups (:mod:`groups`), run on a small suite of its own in a child
pytest with two xdist workers and ``--dist loadgroup``, as ``make test`` runs."""

from __future__ import annotations

from pathlib import Path

from plugin_suite import run_plugin_suite

SUITE = """
import os
from pathlib import Path

import pytest

@pytest.fixture(scope="session")
def _ray_nodes():
    return "the shared cluster"

@pytest.fixture
def ray_cluster(_ray_nodes):
    return _ray_nodes

def ran(name):
    (Path(__file__).parent / f"ran-{name}").write_text(os.environ["PYTEST_XDIST_WORKER"])

@pytest.mark.xdist_group("browser")
@pytest.mark.parametrize("i", range(6))
def test_grouped(i):
    ran(f"grouped-{i}")

@pytest.mark.parametrize("i", range(6))
def test_on_the_cluster(i, ray_cluster):
    ran(f"cluster-{i}")

@pytest.mark.xdist_group("other")
def test_on_the_cluster_in_another_group_too(ray_cluster):
    ran("cluster-6")

@pytest.mark.parametrize("i", range(12))
def test_free(i):
    ran(f"free-{i}")
"""


def test_a_group_and_the_clusters_tests_each_run_on_one_worker(tmp_path: Path) -> None:
    run = run_plugin_suite(
        tmp_path, "groups", SUITE, None, PYTEST_ADDOPTS="-p xdist -n 2 --dist loadgroup"
    )
    assert run.returncode == 0, run.stdout + run.stderr
    workers = {p.name.removeprefix("ran-"): p.read_text() for p in tmp_path.glob("ran-*")}
    assert len(workers) == 6 + 7 + 12, workers
    assert set(workers.values()) == {"gw0", "gw1"}, workers  # two workers shared the run
    grouped = {workers[f"grouped-{i}"] for i in range(6)}
    cluster = {workers[f"cluster-{i}"] for i in range(7)}
    assert len(grouped) == 1 and len(cluster) == 1, workers
