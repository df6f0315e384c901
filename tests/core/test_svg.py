"""The position-to-SVG renderer and the ``svg`` command."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.core import InvalidSquareError, Position
from adjacency.core.svg import O_COLOR, X_COLOR, position_svg

NS = "{http://www.w3.org/2000/svg}"


def _parse(text: str) -> ET.Element:
    return ET.fromstring(text)


@pytest.mark.parametrize(("rows", "cols"), [(8, 8), (5, 7), (4, 4)])
def test_grid_pieces_and_coordinates(rows: int, cols: int) -> None:
    position = Position.start(rows, cols, 2).play("c2" if cols > 3 else "c1")
    root = _parse(position_svg(position, square=40))
    assert root.get("width") == str(cols * 40 + 40) and root.get("height") == str(rows * 40 + 40)
    squares = [r for r in root.iter(f"{NS}rect") if r.get("width") == "40"]
    assert len(squares) == rows * cols
    crosses = [p for p in root.iter(f"{NS}path") if p.get("stroke") == X_COLOR]
    rings = [c for c in root.iter(f"{NS}circle") if c.get("stroke") == O_COLOR]
    x_count, o_count = position.score
    assert (len(crosses), len(rings)) == (x_count, o_count)
    labels = [t.text for t in root.iter(f"{NS}text")]
    assert labels.count("a") == 2 and labels.count(str(rows)) == 2
    assert position.fen() in (root.findtext(f"{NS}title") or "")


def test_last_move_and_converted_marks() -> None:
    before = Position.from_fen("8/8/8/8/8/2o5/1xo5/xx6 x 20")
    flips = before.flips("c1")
    after = before.play("c1")
    root = _parse(position_svg(after, last="c1", converted=flips))
    titles = [t.text for t in root.iter(f"{NS}title")]
    assert titles.count("last move") == 1
    assert titles.count("converted") == len(flips) == 1
    plain = _parse(position_svg(after))
    assert "last move" not in [t.text for t in plain.iter(f"{NS}title")]


def test_bad_squares_are_rejected() -> None:
    with pytest.raises(InvalidSquareError, match="off the 8x8 board"):
        position_svg(Position.start(), last="a9")
    with pytest.raises(InvalidSquareError, match="off the 8x8 board"):
        position_svg(Position.start(), converted=[64])
    with pytest.raises(ValueError, match="square size"):
        position_svg(Position.start(), square=2)


def _heat_cells(root: ET.Element) -> dict[tuple[float, float], str]:
    """The heat map's tinted squares: (left, top) of the square -> the number shown."""
    return {
        (float(r.get("x", 0)) - 1, float(r.get("y", 0)) - 1): r.findtext(f"{NS}title") or ""
        for r in root.iter(f"{NS}rect")
        if (r.get("fill") or "").startswith("rgb(")
    }


def test_heat_map_writes_each_number_on_its_square() -> None:
    position = Position.start(4, 4, 2)
    heat = {"a3": -2, "c1": 5, "d1": 1}
    root = _parse(position_svg(position, square=40, heat=heat))
    # a 20-pixel margin, rank 1 at the bottom: a3 is the second row from the top
    assert _heat_cells(root) == {(20.0, 60.0): "-2", (100.0, 140.0): "5", (140.0, 140.0): "1"}
    fills = {r.findtext(f"{NS}title"): r.get("fill") for r in root.iter(f"{NS}rect")}
    assert fills["5"] == "rgb(239,108,0)" and fills["-2"] == "rgb(144,202,249)"  # warm, cool
    with pytest.raises(InvalidSquareError):
        position_svg(position, heat={"e9": 1})


def test_svg_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.svg"
    assert main(["svg", "--moves", "c3", "f6", "-o", str(out)]) == 0
    root = _parse(out.read_text())
    assert [t.text for t in root.iter(f"{NS}title")].count("last move") == 1
    assert main(["svg", "6oo/6oo/8/8/8/8/xx6/xx6 x 56"]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    assert main(["svg", "not a position"]) == 2
    assert "adjacency svg: error:" in capsys.readouterr().err
