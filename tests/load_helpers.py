"""CPU load a test makes itself, outside the league, to show that a verdict does not
depend on it: :func:`busy_loops` (the machine's other work, as a class's server meets
it) and :func:`heavier_load` (work weighed above the games on the one CPU the test
holds a program to, the one way left to starve a game's program, for the paths that
excuse a starved move, while the server itself runs on the other CPU).

Each loop is a process of the test's own, ended (and waited for) when the block ends:
the test watches only what it started.
"""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from adjacency.sandbox import cgroup
from adjacency.system import proctree

LOOP = ["sh", "-c", "while :; do :; done"]
"""One busy loop."""

BUSY_LOOPS = 16
"""The busy loops of a loaded machine: a load of about 16 beyond the tests' own on this
2-core machine."""


@contextlib.contextmanager
def busy_loops(count: int = BUSY_LOOPS) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` busy loops, each in a session of its own (the scheduler shares the cores
    between sessions' groups, so together they weigh ``count`` plain processes: the
    hardest case for the games beside them)."""
    started = [subprocess.Popen(LOOP, start_new_session=True) for _ in range(count)]
    try:
        yield started
    finally:
        _end(started)


@contextlib.contextmanager
def heavier_load(targets: Callable[[], Iterable[int]], per_cpu: int = 2) -> Iterator[None]:
    """Busy loops, ``per_cpu`` of them, on the machine's first CPU, in a cgroup of the
    test's own weighed far above the games' (v1 ``cpu.shares`` 262144, v2
    ``cpu.weight`` 10000, next to the folder of the sandboxes); and every thread of the
    processes ``targets`` names (read again every :data:`PIN_EVERY` seconds, so a
    program started meanwhile is caught at its start) held to that CPU from outside.
    Such a program then gets next to no core however it is weighed, while the server
    (the test's own process) runs on the other CPUs. The test's group is removed at
    the end."""
    folder = _load_group()
    started: list[subprocess.Popen[bytes]] = []
    done = threading.Event()
    pinner = threading.Thread(target=_pin, args=(targets, done), daemon=True)
    try:
        for _ in range(per_cpu):
            started.append(
                subprocess.Popen(
                    ["sh", "-c", 'echo $$ > "$1/cgroup.procs" && exec sh -c "$2"', "load",
                     str(folder), LOOP[2]],
                    start_new_session=True,
                )
            )  # fmt: skip
        for process in started:
            os.sched_setaffinity(process.pid, {FIRST_CPU})
        pinner.start()
        yield
    finally:
        done.set()
        if pinner.is_alive():
            pinner.join()
        _end(started)
        with contextlib.suppress(OSError):
            folder.rmdir()


FIRST_CPU = min(os.sched_getaffinity(0))
"""The CPU :func:`heavier_load` holds its loops and its targets to."""

PIN_EVERY = 0.05
"""Seconds between two passes of :func:`heavier_load` over its targets' threads."""


def _pin(targets: Callable[[], Iterable[int]], done: threading.Event) -> None:
    """Hold every thread of ``targets``' processes to :data:`FIRST_CPU` until ``done``."""
    while not done.wait(PIN_EVERY):
        for pid in targets():
            with contextlib.suppress(OSError):
                for thread in os.listdir(f"/proc/{pid}/task"):
                    with contextlib.suppress(OSError):
                        os.sched_setaffinity(int(thread), {FIRST_CPU})


def tree_of(root: Callable[[], int | None]) -> Callable[[], list[int]]:
    """The pids of the process ``root`` names (``None``: none yet) and its descendants,
    read anew at each call: a :func:`heavier_load` target."""

    def pids() -> list[int]:
        pid = root()
        if pid is None:
            return []
        return list(proctree.subtree(pid) or {})

    return pids


def _load_group() -> Path:
    """A fresh cgroup beside the sandboxes' folder, weighed as heavy as the kernel
    allows, in the hierarchy that holds the ``cpu`` controller here."""
    top = cgroup._cpu_v1_folder()  # a hybrid host: the v1 cpu hierarchy weighs
    name = f"test-load-{os.getpid()}"
    if top is not None:
        folder = top.parent / name
        folder.mkdir(exist_ok=True)
        (folder / "cpu.shares").write_text("262144")
        return folder
    top = cgroup.parent()
    assert top is not None, "this host should let the test make cgroups"
    folder = top.parent / name
    folder.mkdir(exist_ok=True)
    (folder / "cpu.weight").write_text("10000")
    return folder


def _end(started: list[subprocess.Popen[bytes]]) -> None:
    for process in started:
        process.kill()
    for process in started:
        process.wait()


@contextlib.contextmanager
def no_collection() -> Iterator[None]:
    """Python's cycle collector held off in the block: a full collection in a pytest
    worker that has run thousands of tests costs the thread a second or more of CPU,
    which a lexer's budget of the thread's CPU time counts, so a text well within it
    would be cut where it is not in a fresh process (a server's digest worker)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
