"""The sandboxes' shares of a core by whose work they do (:class:`~adjacency.sandbox.Priority`),
measured by the kernel: a game's program and a check's, each a spinner, held to one CPU
from outside the sandbox (the sandbox may not pin itself) over the same seconds. The
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

SPIN = f"""\
import os, time
while os.sched_getaffinity(0) != {{{FIRST_CPU}}}:
    pass
end = time.monotonic() + 4.0
readings, next_at = [], 0.0
while (now := time.monotonic()) < end:
    if now >= next_at:
        readings.append(f"{{now:.4f}}:{{time.process_time():.6f}}")
        next_at = now + 0.05
print(" ".join(readings))
"""
"""Once held to :data:`FIRST_CPU`, four seconds of wall time computing all along, with
its CPU seconds read every 50 ms: ``MONOTONIC:CPU`` pairs on one line. Only what it
computed held to the one CPU is read (before, the other CPU may run it)."""

OVERLAP = 1.0
"""The fewest seconds both spinners must have computed held to the CPU together."""


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


def _readings(outcome: Outcome) -> list[tuple[float, float]]:
    """A spinner's ``(monotonic, cpu)`` readings from its standard output."""
    pairs = (word.split(":") for word in (outcome.stdout or b"").decode().split())
    return [(float(at), float(cpu)) for at, cpu in pairs]


def _cpu_between(readings: list[tuple[float, float]], start: float, end: float) -> float:
    """The CPU seconds computed from its first reading at or after ``start`` to its last
    at or before ``end`` (0 where it was not run twice between them)."""
    within = [cpu for at, cpu in readings if start <= at <= end]
    return within[-1] - within[0] if within else 0.0


def test_a_game_s_program_outweighs_a_check_s_on_one_cpu(sandbox_box: Path) -> None:
    """On one CPU over the same seconds, the game's spinner computes several times what
    the check's does (weights ten to one); so would it beside a build's. Whatever else
    the CPU runs (other work of the machine's), the two share what is left by weight."""
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
    games, checks = _readings(game), _readings(check)
    start, end = max(games[0][0], checks[0][0]), min(games[-1][0], checks[-1][0])
    assert end - start >= OVERLAP, f"the spinners were held together for {end - start:.2f} s"
    game_cpu, check_cpu = _cpu_between(games, start, end), _cpu_between(checks, start, end)
    assert game_cpu > 0 and game_cpu >= 3 * check_cpu, (game_cpu, check_cpu, end - start)
