"""Hostile programs against the sandbox's limits: each ends with its reason, within its
bounds, and leaves no process behind (real bubblewrap; the system's Python inside)."""

from __future__ import annotations

import uuid
from pathlib import Path

from adjacency import sandbox
from adjacency.sandbox import identity
from adjacency.sandbox.limits import MIB
from adjacency.sandbox.process import CHUNK, OUTPUT_TAIL
from adjacency.system import proctree
from sandbox_helpers import GUARD, PYTHON, host_pids_with, wait_until, write_program

FORK_BOMB = """\
import os, sys
main = os.getpid()
told = False
while True:
    try:
        os.fork()
    except OSError as exc:
        if os.getpid() == main and not told:
            print("refused", exc.errno, flush=True)
            told = True
"""


def tree_of(process: sandbox.SandboxedProcess) -> list[int]:
    assert process.pid is not None
    return proctree.tree(proctree.snapshot(), process.pid)


def test_a_fork_bomb_stops_at_the_process_limit_and_ends_with_its_cpu_time(
    sandbox_box: Path,
) -> None:
    token = uuid.uuid4().hex
    program = write_program(sandbox_box, "bomb.py", FORK_BOMB)
    limits = sandbox.Limits(processes=24, cpu_seconds=2, wall_seconds=GUARD)
    process = sandbox.SandboxedProcess(
        [PYTHON, program, token], submission=sandbox_box, limits=limits
    )
    process.start()
    try:
        line = process.read_line(GUARD)
        assert line == "refused 11", line  # EAGAIN: the kernel's RLIMIT_NPROC
        # bubblewrap, its init and every fork count against the limit of the user.
        assert len(tree_of(process)) + 1 <= limits.processes
        wait_until(lambda: process.returncode is not None, "the bomb ends at its CPU time")
    finally:
        outcome = process.end()
    assert outcome.reason is sandbox.Reason.CPU, outcome
    assert outcome.cpu_seconds >= limits.cpu_seconds
    assert outcome.leftovers == 0
    wait_until(lambda: not host_pids_with(token), "no process of the bomb is left")


def test_one_allocation_past_the_memory_limit_fails(sandbox_box: Path) -> None:
    program = write_program(
        sandbox_box,
        "big.py",
        "try:\n    b = bytearray(2 << 30)\nexcept MemoryError:\n    print('refused')\n",
    )
    limits = sandbox.Limits(memory_bytes=256 * MIB)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box, limits=limits)
    assert outcome.stdout == b"refused\n" and outcome.returncode == 0, outcome


def test_a_tree_growing_past_the_memory_limit_is_ended(sandbox_box: Path) -> None:
    """Each process stays under its own RLIMIT_DATA; their sum goes past the limit."""
    program = write_program(
        sandbox_box,
        "grow.py",
        "import os, time\n"
        "os.fork(); os.fork()\n"  # four processes
        "chunks = []\n"
        "for _ in range(80):\n"
        "    chunks.append(b'x' * (1 << 20))\n"
        "time.sleep(3600)\n",
    )
    limits = sandbox.Limits(memory_bytes=192 * MIB, wall_seconds=GUARD)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box, limits=limits)
    assert outcome.reason is sandbox.Reason.MEMORY, outcome
    assert outcome.memory_peak > limits.memory_bytes
    assert "memory (192 MiB)" in outcome.describe()


MEMFDS = """\
import os, sys, time
os.fork(); os.fork()  # four processes, each holding memfds it never maps
held = []
for _ in range(100):
    fd = os.memfd_create("hidden")
    for _ in range(8):
        os.write(fd, b"x" * (1 << 20))
    held.append(fd)
print("held", len(held), flush=True)
time.sleep(3600)
"""
"""Four processes, each writing 100 memfds of 8 MiB (3.2 GiB in all) that no process
maps: no resident memory any process shows."""


def test_memory_no_process_maps_is_counted_and_ended_at_the_limit(sandbox_box: Path) -> None:
    """Memfds that are written and never mapped show in no process's resident memory,
    but their pages are the sandbox's: its group's limit (its memory and its /tmp
    together) counts them, the kernel stops the program there, and the outcome says
    its memory ended it. The group never held more than its limit."""
    program = write_program(sandbox_box, "memfds.py", MEMFDS)
    limits = sandbox.Limits(memory_bytes=256 * MIB, tmp_bytes=64 * MIB, wall_seconds=GUARD)
    process = sandbox.SandboxedProcess([PYTHON, program], submission=sandbox_box, limits=limits)
    process.start()
    try:
        wait_until(lambda: process.returncode is not None, "the memfds' program is stopped")
        assert process.reason is sandbox.Reason.MEMORY, process.describe_exit()
    finally:
        outcome = process.end()
    assert outcome.reason is sandbox.Reason.MEMORY, outcome
    assert "memory (256 MiB)" in outcome.describe()
    assert 0 < outcome.memory_peak <= limits.memory_bytes + limits.tmp_bytes, outcome


def test_an_endless_loop_ends_at_its_cpu_time(sandbox_box: Path) -> None:
    program = write_program(sandbox_box, "loop.py", "while True:\n    pass\n")
    limits = sandbox.Limits(cpu_seconds=1, wall_seconds=GUARD)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box, limits=limits)
    assert outcome.reason is sandbox.Reason.CPU, outcome
    assert outcome.cpu_seconds >= 1.0
    assert outcome.describe() == "used up its CPU time (1 s)"


def test_sleeping_for_ever_ends_at_the_wall_cap(sandbox_box: Path) -> None:
    program = write_program(sandbox_box, "sleep.py", "import time\ntime.sleep(10**6)\n")
    limits = sandbox.Limits(cpu_seconds=30, wall_seconds=1)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box, limits=limits)
    assert outcome.reason is sandbox.Reason.WALL, outcome
    assert outcome.wall_seconds >= 1.0 and outcome.cpu_seconds < 30


def test_printing_100_mb_is_cut_at_the_output_limit(sandbox_box: Path) -> None:
    program = write_program(
        sandbox_box,
        "flood.py",
        "import sys\nfor _ in range(100):\n    sys.stdout.buffer.write(b'x' * 999_999 + b'\\n')\n",
    )
    limits = sandbox.Limits(output_bytes=MIB, wall_seconds=GUARD)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box, limits=limits)
    assert outcome.reason is sandbox.Reason.OUTPUT, outcome
    assert len(outcome.stdout) <= limits.output_bytes + CHUNK
    # Served line by line (a hosted bot), the same flood ends the same way.
    process = sandbox.SandboxedProcess([PYTHON, program], submission=sandbox_box, limits=limits)
    process.start()
    try:
        read = 0
        while True:
            try:
                line = process.read_line(GUARD)
            except EOFError:
                break
            assert line is not None, "no line within the guard"
            read += len(line) + 1
        assert read <= limits.output_bytes + CHUNK
    finally:
        outcome = process.end()
    assert outcome.reason is sandbox.Reason.OUTPUT, outcome


ERROR_FLOOD = """\
import sys
for number in range(10_000):
    sys.stderr.buffer.write(b"%d " % number + b"e" * 9_990 + b"\\n")
sys.stderr.buffer.write(b"the last words\\n")
sys.stderr.flush()
print("still here", flush=True)
sys.stdin.readline()
"""


def test_printing_100_mb_on_standard_error_never_ends_a_program(sandbox_box: Path) -> None:
    """A long-lived program's standard error is drained to the end, whatever it prints,
    and never counts against the output limit: the program goes on, and its last
    :data:`OUTPUT_TAIL` bytes are kept (memory bounded by them, not by what it wrote)."""
    program = write_program(sandbox_box, "errors.py", ERROR_FLOOD)
    limits = sandbox.Limits(output_bytes=MIB, wall_seconds=GUARD)
    process = sandbox.SandboxedProcess([PYTHON, program], submission=sandbox_box, limits=limits)
    process.start()
    try:
        assert process.read_line(GUARD) == "still here"
        wait_until(lambda: process.output_tail().endswith(b"the last words\n"), "its words")
        tail = process.output_tail()
        assert len(tail) == OUTPUT_TAIL, len(tail)
        assert b"\n9994 eee" in tail and b"\n9990 " not in tail  # the last lines only
        assert process.stderr_tail()[-1] == "the last words"
        assert process.reason is None
        process.send_line("bye")
    finally:
        outcome = process.end()
    assert outcome.reason is not sandbox.Reason.OUTPUT, outcome
    assert len(outcome.stderr) == OUTPUT_TAIL and outcome.stderr.endswith(b"the last words\n")
    # A one-shot run that asks for its tail alike: not ended, its tail kept.
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box, limits=limits,
                          error_tail=True)  # fmt: skip
    assert outcome.reason is sandbox.Reason.EXITED and outcome.returncode == 0, outcome
    assert outcome.stdout == b"still here\n"
    assert outcome.stderr.endswith(b"the last words\n") and len(outcome.stderr) == OUTPUT_TAIL
    # Kept whole (a build's compiler output), it counts and is cut at the limit.
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box, limits=limits)
    assert outcome.reason is sandbox.Reason.OUTPUT, outcome


DAEMON = """\
import os, sys, time
token, then = sys.argv[1], sys.argv[2]
ready, up = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.write(up, b"u")
        os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(3600)", token])
    os._exit(0)
os.wait()
os.read(ready, 1)
print("daemon up", flush=True)
if then == "exit":
    sys.exit(0)
time.sleep(3600)
"""


def test_a_double_forked_daemon_does_not_outlive_the_end(sandbox_box: Path) -> None:
    token = uuid.uuid4().hex
    program = write_program(sandbox_box, "daemon.py", DAEMON)
    process = sandbox.SandboxedProcess([PYTHON, program, token, "stay"], submission=sandbox_box)
    process.start()
    try:
        assert process.read_line(GUARD) == "daemon up"
        assert host_pids_with(token), "the daemon runs on the host's side"
    finally:
        outcome = process.end()
    assert outcome.reason is sandbox.Reason.ENDED and outcome.leftovers == 0
    wait_until(lambda: not host_pids_with(token), "the daemon is gone")


def test_a_daemon_ends_with_the_program_that_started_it(sandbox_box: Path) -> None:
    token = uuid.uuid4().hex
    program = write_program(sandbox_box, "daemon.py", DAEMON)
    outcome = sandbox.run([PYTHON, program, token, "exit"], submission=sandbox_box)
    assert outcome.stdout == b"daemon up\n" and outcome.reason is sandbox.Reason.EXITED, outcome
    wait_until(lambda: not host_pids_with(token), "the daemon is gone")


def test_an_exit_mid_conversation_is_reported(sandbox_box: Path) -> None:
    program = write_program(
        sandbox_box,
        "quits.py",
        "import sys\nprint(input(), 'ok', flush=True)\ninput()\n"
        "print('bye', file=sys.stderr)\nsys.exit(3)\n",
    )
    process = sandbox.SandboxedProcess([PYTHON, program], submission=sandbox_box)
    process.start()
    try:
        process.send_line("aep")
        assert process.read_line(GUARD) == "aep ok"
        process.send_line("go")
        wait_until(lambda: process.returncode is not None, "it exits")
        try:
            process.read_line(GUARD)
            raise AssertionError("a line after the exit")
        except EOFError:
            pass
        assert process.describe_exit() == "exited with status 3"
        assert process.stderr_tail(1.0) == ["bye"]
    finally:
        outcome = process.end()
    assert outcome.reason is sandbox.Reason.EXITED and outcome.returncode == 3, outcome


def test_nothing_of_the_sandbox_is_left_after_the_end(sandbox_box: Path) -> None:
    program = write_program(
        sandbox_box, "wait.py", "import os, time\nos.fork()\ntime.sleep(3600)\n"
    )
    process = sandbox.SandboxedProcess([PYTHON, program], submission=sandbox_box)
    process.start()
    wait_until(lambda: len(tree_of(process)) >= 3, "bubblewrap's init, the program and its child")
    processes = proctree.snapshot()
    assert process.pid is not None
    ours = {pid: processes[pid].uid for pid in [process.pid, *tree_of(process)] if pid in processes}
    outcome = process.end()
    assert outcome.leftovers == 0
    if identity.privileged():
        assert all(uid >= identity.FIRST_UID for uid in ours.values())

    def still_there() -> bool:
        # Killed ones are zombies for a moment, until their namespace's end reaps them.
        now = proctree.snapshot()
        return any(pid in now and now[pid].uid == uid for pid, uid in ours.items())

    wait_until(lambda: not still_there(), "no process of the sandbox")


def test_a_program_killed_by_a_signal_is_reported_with_its_name(sandbox_box: Path) -> None:
    outcome = sandbox.run(["/bin/sh", "-c", "kill -SEGV $$"], submission=sandbox_box)
    assert outcome.reason is sandbox.Reason.EXITED, outcome
    assert outcome.describe() == "was killed by SIGSEGV"
