"""A hosted bot is charged, move by move, the CPU time of its whole process tree: its own,
a child's it waited for, and an orphan's that the namespace's init reaped (real
bubblewrap, the system's Python inside)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency import sandbox
from sandbox_helpers import GUARD, PYTHON, write_program

BOT = """\
import os, sys, time

def burn(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass

for line in sys.stdin:
    word = line.strip()
    if word == "self":
        burn(0.3)
    elif word == "long":
        burn(3.0)
    elif word == "child":
        pid = os.fork()
        if pid == 0:
            burn(0.3)
            os._exit(0)
        os.waitpid(pid, 0)
    elif word == "orphan":
        ready, done = os.pipe()
        if os.fork() == 0:
            if os.fork() == 0:
                burn(0.3)
                os.write(done, b"x")
                os._exit(0)
            os._exit(0)
        os.wait()
        os.read(ready, 1)
    print("done", word, flush=True)
"""
"""A bot whose every move burns 0.3 s of CPU: itself, in a child it waits for, or in an
orphan (its parent exits first) that only the pid namespace's init reaps; ``long``
burns 3 s itself."""


@pytest.mark.parametrize("where", ["self", "child", "orphan"])
def test_each_move_is_charged_the_cpu_time_of_the_whole_tree(sandbox_box: Path, where: str) -> None:
    program = write_program(sandbox_box, "bot.py", BOT)
    process = sandbox.SandboxedProcess([PYTHON, program], submission=sandbox_box)
    process.start()
    try:
        charges = []
        for _ in range(2):
            before = process.cpu_seconds()
            process.send_line(where)
            assert process.read_line(GUARD) == f"done {where}"
            charges.append(process.cpu_seconds() - before)
        # 0.3 s each, read in clock ticks (10 ms); counted once, never twice.
        assert all(0.28 <= charge < 0.6 for charge in charges), charges
    finally:
        outcome = process.end()
    assert outcome.cpu_seconds >= 0.58


def test_a_cpu_cap_ends_the_tree_once_it_has_used_that_much(sandbox_box: Path) -> None:
    """A move capped at what its clock has left (:meth:`SandboxedProcess.cap_cpu`): the
    monitor ends the program, reason CPU, once its tree has passed the cap, at a tick
    before its burn of 3 s ends (on a loaded machine the monitor's ticks come late, and
    the program computes meanwhile at its share of a core, so only the order of the two
    is the rule); lifted, a burn runs to its end."""
    program = write_program(sandbox_box, "bot.py", BOT)
    process = sandbox.SandboxedProcess([PYTHON, program], submission=sandbox_box)
    process.start()
    try:
        process.cap_cpu(None)
        process.send_line("self")  # 0.3 s uncapped: answered
        assert process.read_line(GUARD) == "done self"
        used = process.cpu_seconds()
        process.cap_cpu(used + 0.05)
        process.send_line("long")  # 3 s against 0.05 s left: ended
        with pytest.raises(EOFError):
            process.read_line(GUARD)
        assert process.reason is sandbox.Reason.CPU
        assert used + 0.05 < process.cpu_seconds() < used + 3.0
    finally:
        process.end()
