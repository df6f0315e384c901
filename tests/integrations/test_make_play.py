"""``make play`` passes ``adjacency play``'s options from make's command line: ``PORT=``,
``DB=``, ``NO_BROWSER=1`` and anything else as ``ARGS=``; run for real (the game served
on that port, its saved games in that file), with this interpreter's ``adjacency``."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
MAKE = ["make", "--no-print-directory", "-C", str(ROOT), "-o", ".venv/.installed-run"]
"""make in the checkout, its install step taken as done (this interpreter's environment
has the package) and ``BIN`` on the command line."""


def dry_run(*assignments: str, extra_env: dict[str, str] | None = None) -> str:
    """The command ``make play`` would run with these variables."""
    done = subprocess.run(
        [*MAKE, "-n", "play", f"BIN={BIN}", *assignments],
        capture_output=True, text=True, timeout=60, env={**os.environ, **(extra_env or {})},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_make_play_passes_port_db_no_browser_and_args() -> None:
    assert dry_run() == f"{BIN}/adjacency play"
    line = dry_run("PORT=8800", "DB=it's mine.db", "NO_BROWSER=1", "ARGS=--host 0.0.0.0")
    assert line == (
        f"{BIN}/adjacency play --port '8800' --db 'it'\\''s mine.db' --no-browser --host 0.0.0.0"
    )
    # a PORT or DB that happens to be in the environment is not taken for them
    assert dry_run(extra_env={"PORT": "9", "DB": "x.db"}) == f"{BIN}/adjacency play"


def test_make_play_serves_on_the_port_and_saves_in_the_db_given(
    tmp_path: Path, held_port: int
) -> None:
    port, db = held_port, tmp_path / "my games.sqlite3"
    log = tmp_path / "play.log"
    with log.open("wb") as handle:
        process = subprocess.Popen(
            [*MAKE, "play", f"BIN={BIN}", f"PORT={port}", f"DB={db}", "NO_BROWSER=1"],
            stdout=handle, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 50  # a guard against a hang only
        while f"127.0.0.1:{port}" not in log.read_text() and process.poll() is None:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        assert process.poll() is None, log.read_text()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        assert db.exists()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
    assert "--no-browser" in log.read_text()


def test_the_readme_set_up_keeps_its_two_commands_and_names_the_options() -> None:
    readme = (ROOT / "README.md").read_text()
    setup = readme[readme.index("## Set up") : readme.index("\n## ", readme.index("## Set up"))]
    block = setup[setup.index("```sh") + 5 : setup.index("```", setup.index("```sh") + 5)]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make play", "make test"]
    assert "make play PORT=8800 DB=games.sqlite3 NO_BROWSER=1" in setup and "ARGS=" in setup
