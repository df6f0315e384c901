"""The sandboxes' shares of a core by whose work they do (:class:`~adjacency.sandbox.Priority`),
measured by the kernel: a game's program and a check's, each a spinner, held to one CPU
from outside the sandbox (the sandbox may not pin itself) for the same seconds. The
game's gets the core, the check's what is left: the league's own work never takes a
thinking program's core."""

from __future__ import annotations

import contextlib
import os
import threading
import uuid
from pathlib import Path

from adjacency import sandbox
from adjacency.sandbox import Outcome, Priority
from load_helpers import FIRST_CPU
from sandbox_helpers import PYTHON, write_program

SPIN = """\
import time
end = time.monotonic() + 3.0
while time.monotonic() < end:
    pass
"""
"""Three seconds of wall time, computing all along."""


def _pin_marked(marker: str, done: threading.Event) -> None:
    """Hold every thread of each process whose command line names ``marker`` (the
    test's own programs, by their unique file name) to :data:`FIRST_CPU` until
    ``done``."""
    while not done.wait(0.02):
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            with contextlib.suppress(OSError):
                if marker.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes():
                    continue
                for thread in os.listdir(f"/proc/{pid}/task"):
                    with contextlib.suppress(OSError):
                        os.sched_setaffinity(int(thread), {FIRST_CPU})


def test_a_game_s_program_outweighs_a_check_s_on_one_cpu(sandbox_box: Path) -> None:
    """On one CPU for the same three seconds, the game's spinner computes several times
    what the check's does (weights ten to one); so would it beside a build's."""
    marker = f"spin-{uuid.uuid4().hex}.py"
    program = write_program(sandbox_box, marker, SPIN)
    done = threading.Event()
    pinner = threading.Thread(target=_pin_marked, args=(marker, done), daemon=True)
    outcomes: dict[Priority, Outcome] = {}

    def spin(priority: Priority) -> None:
        outcomes[priority] = sandbox.run(
            [PYTHON, program], submission=sandbox_box, priority=priority
        )

    runs = [threading.Thread(target=spin, args=(p,)) for p in (Priority.GAME, Priority.CHECK)]
    pinner.start()
    try:
        for run in runs:
            run.start()
        for run in runs:
            run.join()
    finally:
        done.set()
        pinner.join()
    game, check = outcomes[Priority.GAME], outcomes[Priority.CHECK]
    assert game.returncode == 0 and check.returncode == 0, (game.describe(), check.describe())
    assert game.cpu_seconds >= 3 * check.cpu_seconds, (game.cpu_seconds, check.cpu_seconds)
