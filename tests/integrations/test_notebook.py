"""The example notebook runs from top to bottom in a real Jupyter kernel (nbclient)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "notebooks" / "tour.ipynb"


@pytest.mark.slow
def test_the_tour_notebook_runs_and_shows_boards_plots_and_the_arena_score(
    tmp_path: Path,
) -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook,
        timeout=240,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError on any failing cell
    kinds: list[str] = []
    text = ""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error"
            kinds.extend(output.get("data", {}).keys())
            text += output.get("text", "")
    assert "image/svg+xml" in kinds  # the start position
    assert "text/html" in kinds  # a game
    assert kinds.count("image/png") == 2  # the match and the training curve
    match = re.search(r"trained vs random: \+(\d+) =(\d+) -(\d+), score", text)
    assert match is not None, text
    assert sum(map(int, match.groups())) == 40
