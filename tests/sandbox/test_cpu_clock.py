"""A clock no process escapes (real bubblewrap, the system's Python inside): a bot that
ignores ``SIGCHLD`` has its burning children reaped by the kernel, so their time reaches
no living process's ``cutime``; it is still charged what the host saw them burn, counted
by its cgroup where the server can make one, else by the ledger of every process seen.
And ``ptrace`` (the other route to hide work or reach another process) is denied."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from adjacency import sandbox
from adjacency.sandbox import cgroup
from sandbox_helpers import GUARD, PYTHON, write_program

CHILDREN = 3
BURN = 1.0

CHEAT = f"""\
import os, signal, sys, time

signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children reaped by the kernel, unwaited
for _ in range({CHILDREN}):
    pid = os.fork()
    if pid == 0:
        while time.process_time() < {BURN}:
            pass
        print("burned", time.process_time(), flush=True)
        os._exit(0)
    while True:  # one child at a time: after the first, the live tree is only the parent
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
print("done", flush=True)
sys.stdin.readline()
"""
"""Burns {CHILDREN} x {BURN} s in children, one after another, none waited for; each
child prints the CPU time the kernel gave it."""


def _charged_share(sandbox_box: Path) -> tuple[float, float]:
    """(charged, burned) CPU seconds of the cheating bot, read while it still runs."""
    program = write_program(sandbox_box, "cheat.py", CHEAT)
    process = sandbox.SandboxedProcess(
        [PYTHON, program], submission=sandbox_box, limits=sandbox.Limits(cpu_seconds=30.0)
    )
    process.start()
    burned = 0.0
    try:
        while True:
            line = process.read_line(GUARD)
            assert line is not None, "the bot did not finish its burns"
            if line == "done":
                break
            burned += float(line.split()[1])
        charged = process.cpu_seconds()
    finally:
        outcome = process.end()
    assert outcome.reason is sandbox.Reason.ENDED, outcome.describe()
    assert burned >= CHILDREN * BURN
    return charged, burned


def test_children_reaped_by_the_kernel_are_charged_through_the_cgroup(
    sandbox_box: Path,
) -> None:
    assert cgroup.parent() is not None, "this host should let the test make cgroups"
    charged, burned = _charged_share(sandbox_box)
    assert charged >= 0.9 * burned, f"charged {charged:.2f} s of {burned:.2f} s burned"


def test_without_a_cgroup_the_ledger_charges_every_process_seen(
    sandbox_box: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cgroup, "create", lambda *_: None)
    charged, burned = _charged_share(sandbox_box)
    assert charged >= 0.9 * burned, f"charged {charged:.2f} s of {burned:.2f} s burned"


TRACER = """\
import ctypes, os, time

libc = ctypes.CDLL(None, use_errno=True)
pid = os.fork()
if pid == 0:
    time.sleep(30)
    os._exit(0)
for name, call in (
    ("attach", lambda: libc.ptrace(16, pid, 0, 0)),  # PTRACE_ATTACH its own child
    ("seize-init", lambda: libc.ptrace(0x4206, 1, 0, 0)),  # PTRACE_SEIZE the sandbox's init
    ("vm-read", lambda: libc.process_vm_readv(pid, None, 0, None, 0, 0)),
):
    result = call()
    print(name, result, os.strerror(ctypes.get_errno()) if result < 0 else "ok", flush=True)
os.kill(pid, 9)
"""


def test_ptrace_and_reading_another_process_s_memory_are_denied(sandbox_box: Path) -> None:
    program = write_program(sandbox_box, "tracer.py", TRACER)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box)
    lines = outcome.stdout.decode().splitlines()
    assert outcome.returncode == 0, outcome.stderr.decode()
    assert lines == [
        "attach -1 Operation not permitted",
        "seize-init -1 Operation not permitted",
        "vm-read -1 Operation not permitted",
    ]


def test_the_filter_is_built_for_this_machine_and_refuses_an_unknown_one() -> None:
    from adjacency.sandbox import seccomp

    assert len(seccomp.program()) % 8 == 0
    with pytest.raises(sandbox.SandboxUnavailable, match="no seccomp filter"):
        seccomp.program("sparc")


LOWERER = """\
import ctypes, os, threading

libc = ctypes.CDLL(None, use_errno=True)
attr = (ctypes.c_uint32 * 14)(56, 5)  # struct sched_attr: its size, SCHED_IDLE


def attempt(name, call):
    try:
        call()
        print(name, "ok", flush=True)
    except OSError as exc:
        print(name, os.strerror(exc.errno), flush=True)


def syscall(number):
    if libc.syscall(number, 0, ctypes.byref(attr), 0) < 0:
        raise OSError(ctypes.get_errno(), "")


attempt("nice", lambda: os.nice(19))
attempt("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, 0, 19))
attempt("idle", lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)))
attempt("batch", lambda: os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0)))
attempt("setattr", lambda: syscall({"x86_64": 314, "aarch64": 274}[os.uname().machine]))
thread = threading.Thread(
    target=attempt,
    args=("thread-idle", lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))),
)
thread.start()
thread.join()
print("still", os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0), flush=True)
"""
"""Tries every way to lower its own priority (the process, then a thread of its own),
then says its niceness and scheduling policy."""


def test_lowering_its_own_priority_is_refused_and_the_program_runs_on(sandbox_box: Path) -> None:
    """A thread of lowered priority runs only when nothing else would, so its sandbox
    would look starved by the server; each way to lower it is answered ``EPERM`` (a
    refusal an unprivileged program expects), and the program carries on at the
    priority it started with. Through ``nice -n 19`` too: the command runs, not niced."""
    program = write_program(sandbox_box, "lowerer.py", LOWERER)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box)
    assert outcome.returncode == 0, outcome.stderr.decode()
    refused = "Operation not permitted"
    assert outcome.stdout.decode().splitlines() == [
        f"nice {refused}",
        f"setpriority {refused}",
        f"idle {refused}",
        f"batch {refused}",
        f"setattr {refused}",
        f"thread-idle {refused}",
        "still 0 0",  # niceness 0, SCHED_OTHER
    ]
    niced = sandbox.run(
        ["/usr/bin/nice", "-n", "19", PYTHON, "-c", "import os; print(os.getpriority(0, 0))"],
        submission=sandbox_box,
    )
    assert niced.returncode == 0, niced.stderr.decode()
    assert niced.stdout.decode().split() == ["0"]
    assert "cannot set niceness" in niced.stderr.decode()


CALLS = """\
import ctypes, os

libc = ctypes.CDLL(None, use_errno=True)
NUMBERS = {
    "x86_64": {"io_uring_setup": 425, "ioprio_set": 251, "keyctl": 250, "add_key": 248,
               "personality": 135},
    "aarch64": {"io_uring_setup": 425, "ioprio_set": 30, "keyctl": 219, "add_key": 217,
                "personality": 92},
}[os.uname().machine]
params = (ctypes.c_uint32 * 30)()


def attempt(name, call):
    try:
        call()
        print(name, "ok", flush=True)
    except OSError as exc:
        print(name, os.strerror(exc.errno), flush=True)


def syscall(name, *args):
    result = libc.syscall(NUMBERS[name], *args)
    if result < 0:
        raise OSError(ctypes.get_errno(), "")
    return result


attempt("affinity", lambda: os.sched_setaffinity(0, {0}))
attempt("affinity-read", lambda: os.sched_getaffinity(0))
attempt("io_uring", lambda: syscall("io_uring_setup", 4, ctypes.byref(params)))
attempt("ioprio", lambda: syscall("ioprio_set", 1, 0, (3 << 13)))  # IOPRIO_CLASS_IDLE
attempt("keyctl", lambda: syscall("keyctl", 0, -3, 0))  # KEYCTL_GET_KEYRING_ID, user's
attempt("add_key", lambda: syscall("add_key", b"user", b"k", b"v", 1, -3))
attempt("personality-query", lambda: syscall("personality", 0xFFFFFFFF))
attempt("personality-change", lambda: syscall("personality", 0x0040000))  # ADDR_NO_RANDOMIZE
"""
"""Tries each call the sandbox denies beside the priority changes, and the two it allows
(reading its affinity, querying its personality)."""


def test_pinning_io_uring_key_rings_and_personality_changes_are_refused(
    sandbox_box: Path,
) -> None:
    """Threads pinned to one CPU would wait for each other and for the machine's other
    work there, so the sandbox would look starved while its other core is free; io_uring
    works on the kernel's threads, outside its group's clock; key rings and a changed
    personality reach past the sandbox's limits. Each is answered ``EPERM`` and the
    program runs on; reading its affinity and querying its personality still work."""
    program = write_program(sandbox_box, "calls.py", CALLS)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box)
    assert outcome.returncode == 0, outcome.stderr.decode()
    refused = "Operation not permitted"
    assert outcome.stdout.decode().splitlines() == [
        f"affinity {refused}",
        "affinity-read ok",
        f"io_uring {refused}",
        f"ioprio {refused}",
        f"keyctl {refused}",
        f"add_key {refused}",
        "personality-query ok",
        f"personality-change {refused}",
    ]


SPREADER = """\
import os, sys, time

sys.stdin.readline()  # go
os.fork()  # two processes of one program, each burning a core if it could
end = time.monotonic() + 3.0
while time.monotonic() < end:
    pass
"""


def test_a_program_thinking_on_two_cores_is_held_to_one(sandbox_box: Path) -> None:
    """A sandbox's processes share one core (its cgroup's cap, as the kernel reads it
    back): a program burning on two for 3 s of wall time is charged at most about one
    CPU second per wall second, from the group's own figures."""
    assert cgroup.parent() is not None, "this host should let the test make cgroups"
    program = write_program(sandbox_box, "spreader.py", SPREADER)
    process = sandbox.SandboxedProcess(
        [PYTHON, program], submission=sandbox_box, limits=sandbox.Limits(cpu_seconds=30.0)
    )
    process.start()
    try:
        assert process.cores == cgroup.CORES == 1.0
        before = process.cpu_seconds()
        started = time.monotonic()
        process.send_line("go")
        assert process.wait(GUARD) == 0
        wall = time.monotonic() - started
        used = process.cpu_seconds() - before
    finally:
        process.end()
    assert used > 0.0
    assert used / wall <= 1.05, f"{used:.2f} s of CPU in {wall:.2f} s of wall time"
