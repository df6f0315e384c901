"""``adjacency solutions run --executor ray`` on the real multi-node cluster (conftest):
the entries solved on the Ray worker nodes are the ones a local run stores, value for
value, move for move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli import main
from adjacency.workers.ray_cluster import RayExecutor

pytestmark = pytest.mark.slow

RUN = ["--sizes", "4x4,4x5", "--rounds-max", "3", "--tt", "4", "--quiet"]
"""Two lanes of three rounds each (4x5 also derives 5x4 and every O-first entry)."""

SAME = ("status", "value", "optimal", "first_moves", "move_values", "pv", "nodes", "root_moves")


def _stored(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[tuple[Any, ...], Any]:
    capsys.readouterr()
    assert main(["solutions", "show", "--db", str(db), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    return {(r["rows"], r["cols"], r["rounds"], r["first"]): r for r in rows}


def test_solutions_on_the_ray_cluster_store_what_a_local_run_stores(
    ray_cluster: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    done_on_ray: list[Any] = []
    real_map = RayExecutor.map_unordered

    def counted(self: RayExecutor, fn: Any, items: Any) -> Any:
        for result in real_map(self, fn, items):
            done_on_ray.append(result)
            yield result

    monkeypatch.setattr(RayExecutor, "map_unordered", counted)
    ray_db, local_db = tmp_path / "ray.db", tmp_path / "local.db"
    assert main(["solutions", "run", "--db", str(ray_db), "--executor", "ray", *RUN]) == 0
    assert len(done_on_ray) == 6  # every solve went through the Ray executor
    assert main(["solutions", "run", "--db", str(local_db), "--jobs", "1", *RUN]) == 0
    on_ray, local = _stored(ray_db, capsys), _stored(local_db, capsys)
    expected = {(r, c, n, f) for r, c in ((4, 4), (4, 5), (5, 4)) for n in (1, 2, 3) for f in "xo"}
    assert set(on_ray) == set(local) == expected
    for key, row in local.items():
        assert {k: on_ray[key][k] for k in SAME} == {k: row[k] for k in SAME}, key
    solved = [row for row in on_ray.values() if row["status"] == "solved"]
    assert len(solved) == 6 and all(row["nodes"] > 0 for row in solved)
