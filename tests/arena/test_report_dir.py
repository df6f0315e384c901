"""docs/arena.md names the directory ``adjacency report DB`` writes to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjacency.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "arena.md"


def test_the_doc_names_the_report_directory_the_code_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    claim = re.search(r"`([\w.-]+)/` for `([\w.-]+\.db)`", text)
    assert claim is not None, "docs/arena.md no longer says where the report goes"
    directory, db_name = claim.groups()
    db = tmp_path / db_name
    argv = ["match", "greedy", "random", "--games", "2", "--rounds", "3", "--time", "1"]
    assert main([*argv, "--db", str(db), "--concurrency", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(db)]) == 0
    assert (tmp_path / directory / "report.md").is_file()
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == [directory]
