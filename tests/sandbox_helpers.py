"""Helpers of the sandbox's tests: a submission folder the sandbox's user can reach,
programs written into it, and the host's view of the processes a sandbox left."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

PYTHON = "/usr/bin/python3"
"""The system's Python, the one the sandbox binds (not this venv's)."""

GUARD = 50.0
"""Seconds any wait of a test may take: a guard against hangs only."""


@contextmanager
def reachable_folder(prefix: str = "adjacency-sandbox-test-") -> Iterator[Path]:
    """A fresh folder under the host's temporary folder that the pool's users can reach
    (mode 755), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_program(folder: Path, name: str, text: str) -> str:
    """Write a program into the submission ``folder``; its path inside the sandbox."""
    path = folder / name
    path.write_text(text)
    path.chmod(0o644)
    return f"/box/{name}"


def host_pids_with(token: str) -> list[int]:
    """The host's processes whose command line holds ``token`` (zombies aside)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if token.encode() in command and state != "Z":
            found.append(int(entry))
    return found


@contextmanager
def sightings(*tokens: str) -> Iterator[set[str]]:
    """Watch the host's processes (:func:`host_pids_with`) from a thread while the block
    runs; yields the set of ``tokens`` seen so far in some process's command line. A test
    that waits until no process holds a token shows with it that one did: an attack whose
    processes never started would pass the wait alone."""
    seen: set[str] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set() and len(seen) < len(tokens):
            seen.update(token for token in tokens if host_pids_with(token))
            done.wait(0.05)

    watcher = threading.Thread(target=watch, name="sightings", daemon=True)
    watcher.start()
    try:
        yield seen
    finally:
        done.set()
        watcher.join(GUARD)


def wait_until(condition: Callable[[], bool], what: str, bound: float = GUARD) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``bound`` seconds."""
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"not within {bound} s: {what}"
        time.sleep(0.02)


def own_sandboxes() -> list[int]:
    """The sandboxed processes this test process started that still run: below it by
    parent links, run by a sandbox pool's user or bubblewrap itself (the sandboxes of
    other test processes on the same machine are not counted; a process inside cannot
    leave its sandbox's tree, whose pid namespace ends with it)."""
    from adjacency.sandbox.identity import FIRST_UID, SLOTS
    from adjacency.system import proctree

    processes = proctree.snapshot()
    found = []
    for pid in proctree.tree(processes, os.getpid()):
        info = processes.get(pid)
        if info is None or info.state == "Z":
            continue
        if FIRST_UID <= info.uid < FIRST_UID + SLOTS or b"bwrap" in _command(pid):
            found.append(pid)
    return found


def _command(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
