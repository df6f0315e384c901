"""The search-lab notebook runs from top to bottom in a real Jupyter kernel and draws each
panel (nbclient)."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "notebooks" / "lab.ipynb"


def test_the_lab_notebook_draws_every_panel(tmp_path: Path) -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook,
        timeout=240,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError on any failing cell
    svgs: list[str] = []
    htmls: list[str] = []
    text = ""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error"
            data = output.get("data", {})
            svgs.extend([data["image/svg+xml"]] if "image/svg+xml" in data else [])
            htmls.extend([data["text/html"]] if "text/html" in data else [])
            text += output.get("text", "")
    # the position, the tree, depth vs cost, the climb, its heat map, the generations
    assert len(svgs) == 6
    assert any("step 1, uphill: chose e4</title>" in svg for svg in svgs)
    assert any("nodes</title>" in svg for svg in svgs)
    assert any("seconds by depth" in svg for svg in svgs)
    assert any("fitness per generation" in svg for svg in svgs)
    assert len(htmls) == 2 and "<table>" in htmls[0]  # the counts, the engine's view
    assert "table hit rate" in htmls[1]
    assert "5 e4 ('e4', 'c2', 'b3') 725 nodes" in text
