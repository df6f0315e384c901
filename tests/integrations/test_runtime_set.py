"""The runtime set is enough: with every optional library made unimportable (the
extras' packages and the test tools), every module outside the extras' own
packages imports, and a match, its report and the statistics run through the CLI.

The wheel test pins the declared requirements; this one checks that the code keeps
to them (no module-level ``import scipy`` or ``import matplotlib`` creeping back).
A meta-path finder raising ImportError is exactly what a missing package looks like.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

OPTIONAL = (
    "matplotlib", "scipy", "ray", "pettingzoo", "gymnasium", "pyspiel", "open_spiel",
    "pytest", "hypothesis", "httpx", "playwright", "schemathesis", "nbclient", "IPython",
)  # fmt: skip
"""Top-level packages of the extras plots, ray, rl, openspiel and dev."""

EXTRA_PACKAGES = ("adjacency.rl", "adjacency.openspiel")
"""Our packages that exist only for an extra (they say so when it is missing)."""

BLOCKER = f"""
import importlib, importlib.abc, pkgutil, sys

class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {OPTIONAL!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Missing())
"""


def run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_every_module_imports_without_the_optional_libraries() -> None:
    done = run(f"""
        import adjacency
        names = [m.name for m in pkgutil.walk_packages(adjacency.__path__, "adjacency.")]
        names = [n for n in names if not n.startswith({EXTRA_PACKAGES!r})
                 and not n.endswith(".__main__")]
        for name in names:
            importlib.import_module(name)
        assert not [m for m in sys.modules if m.split(".")[0] in {OPTIONAL!r}]
        print(len(names))
        """)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 60


def test_a_match_and_its_report_run_on_the_runtime_set(tmp_path: Path) -> None:
    db, out = tmp_path / "m.db", tmp_path / "report"
    done = run(f"""
        from adjacency.cli import main
        argv = ["match", "greedy", "random", "--games", "4", "--rounds", "3", "--time", "1",
                "--concurrency", "1", "--quiet", "--db", {str(db)!r}]
        assert main(argv) == 0
        assert main(["report", {str(db)!r}, "--out", {str(out)!r}]) == 0
        assert "scipy" not in sys.modules and "matplotlib" not in sys.modules
        """)
    assert done.returncode == 0, done.stderr
    assert "plots skipped" in done.stdout and "adjacency-game[plots]" in done.stdout
    report = (out / "report.md").read_text()
    assert "Elo" in report and "LOS" in report  # the statistics, computed without SciPy
