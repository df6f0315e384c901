"""matplotlib is the optional ``plots`` extra: without it the commands that draw as a
by-product (report, experiments, tune) still write their tables and say how to get
the plots; ``solutions plot``, which only draws, fails with a clear error.

matplotlib is hidden the way a missing package looks to Python: ``sys.modules``
maps it to ``None``, so every ``import matplotlib`` raises ImportError.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.plotting import INSTALL, SKIPPED, PlotsUnavailableError, plots_available
from adjacency.plotting import pyplot as lazy_pyplot


@pytest.fixture
def no_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)


def test_the_helper_names_the_extra(no_matplotlib: None) -> None:
    assert not plots_available()
    with pytest.raises(PlotsUnavailableError, match=r"pip install 'adjacency-game\[plots\]'"):
        lazy_pyplot()
    assert INSTALL in SKIPPED


def test_the_helper_draws_with_matplotlib_installed() -> None:
    assert plots_available()
    assert lazy_pyplot().get_backend().lower() == "agg"


def _one_line(out: str) -> None:
    assert [line for line in out.splitlines() if line == SKIPPED] == [SKIPPED]


def test_report_writes_tables_and_csv_without_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_matplotlib: None
) -> None:
    db = tmp_path / "m.db"
    argv = ["match", "greedy", "random", "--games", "2", "--rounds", "3", "--time", "1"]
    assert main([*argv, "--db", str(db), "--concurrency", "1", "--quiet"]) == 0
    capsys.readouterr()
    out, csv = tmp_path / "report", tmp_path / "g.csv"
    assert main(["report", str(db), "--out", str(out), "--csv", str(csv)]) == 0
    printed = capsys.readouterr().out
    _one_line(printed)
    assert "Arena report" in printed  # the pairing table
    assert len(csv.read_text().splitlines()) == 3
    report = (out / "report.md").read_text()
    assert "## Results per pairing" in report and f"`{INSTALL}`" in report
    assert "![score-by-rounds]" not in report
    assert sorted(p.name for p in out.iterdir()) == ["final-position.svg", "report.md"]
    assert main(["report", str(db), "--out", str(out), "--html"]) == 0
    page = (out / "report.html").read_text()
    assert "<table>" in page and '<img src="score-by-rounds' not in page
    assert "matplotlib is not installed" in page


def test_experiments_write_their_report_without_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_matplotlib: None
) -> None:
    argv = ["experiments", "--preset", "original", "--games", "2", "--rounds", "2"]
    argv += ["--time", "1", "--concurrency", "1", "--db", str(tmp_path / "e.db")]
    argv += ["--out", str(tmp_path / "out")]
    for role in ("alphabeta", "hill", "anneal", "genetic", "gatree", "engine"):
        argv += ["--bot", f"{role}=greedy"]
    assert main(argv) == 0
    _one_line(capsys.readouterr().out)
    assert "Plots skipped" in (tmp_path / "out" / "report.md").read_text()
    assert not list((tmp_path / "out").glob("*.png"))


def test_tune_writes_its_values_without_the_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_matplotlib: None
) -> None:
    out = tmp_path / "tuned.json"
    argv = ["tune", "alphabeta", "--param", "depth=1,1,3,1,0.1", "--rounds", "3"]
    argv += ["--size", "4x4", "--time", "0", "--games", "4", "--batch", "4", "-j", "1"]
    assert main([*argv, "--quiet", "--db", str(tmp_path / "t.db"), "--out", str(out)]) == 0
    _one_line(capsys.readouterr().out)
    assert set(json.loads(out.read_text())) == {"depth"}
    assert not (tmp_path / "tuned-plot.png").exists()


def test_solutions_plot_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_matplotlib: None
) -> None:
    db = str(tmp_path / "s.db")
    argv = ["solutions", "run", "--db", db, "--sizes", "4x4", "--rounds-max", "1"]
    assert main([*argv, "--jobs", "1", "--tt", "4", "--quiet"]) == 0
    capsys.readouterr()
    out = tmp_path / "plots"
    assert main(["solutions", "plot", "--db", db, "--out", str(out)]) == 3
    err = capsys.readouterr().err
    assert INSTALL in err and "Traceback" not in err
    assert not out.exists()
