"""The AlphaZero notebook runs from top to bottom in a real Jupyter kernel (nbclient)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.slow
def test_the_alphazero_notebook_searches_trains_saves_and_evaluates(tmp_path: Path) -> None:
    # the notebook finds the example beside its own folder, as in a checkout
    shutil.copytree(EXAMPLES / "alphazero", tmp_path / "alphazero")
    (tmp_path / "notebooks").mkdir()
    notebook = nbformat.read(EXAMPLES / "notebooks" / "alphazero.ipynb", as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path / "notebooks")}},
    )
    client.execute()  # raises CellExecutionError on any failing cell
    text = "".join(
        output.get("text", "") for cell in notebook.cells for output in cell.get("outputs", [])
    )
    assert "batches:" in text and "largest: 8" in text
    iterations = re.findall(r"^(\d) (\d+) (\d+) \{", text, re.M)
    assert [int(i) for i, _, _ in iterations] == [1, 2, 3]
    assert all(int(positions) == 8 * 8 for _, positions, _ in iterations)  # 8 games, 8 plies
    assert "vs random:" in text
    assert (tmp_path / "notebooks" / "notebook-run.npz").exists()
