"""The command line starts light: building its parser (each run's first step) and printing
a help imports neither the web framework nor the engine's compiler.
FastAPI is imported where an app is made or mounts its files, numba where a bot or the
engine runs; a student's ``adjacency league submit`` or ``connect`` then pays for the
imports only its own work needs (0.5 s of CPU for a ``--help``, 0.2 s with them left out:
``/usr/bin/time -f %U+%S adjacency move --help``, quiet)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("fastapi", "starlette", "numba")
"""Packages a parser does not need."""


def test_the_parser_and_its_helps_import_no_web_framework_nor_compiler() -> None:
    script = f"""
import contextlib, io, sys
from adjacency.cli import main
for argv in (["--help"], ["move", "--help"], ["connect", "--help"], ["league", "--help"]):
    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
        main(argv)
print(sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r})))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=50
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"the parser imported {done.stdout.strip()}"
