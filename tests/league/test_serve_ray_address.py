"""``league serve --ray-address`` joins a Ray cluster for its hosted games and house bots;
without ``--executor ray`` it is refused in one line before anything is created."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import run


def test_a_ray_address_without_the_ray_executor_is_refused_before_the_file_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "class.db"
    args = ["league", "serve", "--db", str(db), "--port", "0", "--ray-address", "10.0.0.2:6379"]
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert err.strip() == "adjacency league: error: --ray-address needs --executor ray"
    assert not db.exists()
