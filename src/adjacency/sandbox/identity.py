"""Whose processes a sandbox runs as: a uid of its own from a pool when we are root.

The kernel counts ``RLIMIT_NPROC`` per user, and root ignores it, so a process limit
means something only when each sandbox runs under a user of its own with nothing
else running as it. Run as root, each sandbox takes a slot of the pool: uid and gid
``FIRST_UID + slot`` (users no account has; the kernel needs no entry in
/etc/passwd). A slot is held with an exclusive ``flock`` on its lock file, so several
servers and workers on one machine never share one; a slot's leftover processes
(from a server that was killed) are ended before the slot is handed out, which is
safe because nothing else runs as that uid.

Not run as root, a sandbox runs as the caller's own user: its processes then count
against the caller's own process limit, shared with the server and every other
sandbox (docs/sandbox.md says what that covers).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..system import proctree
from .errors import SandboxError

FIRST_UID = 61000
"""The uid (and gid) of slot 0."""

SLOTS = 1000
"""Slots in the pool (sandboxes running at once on one machine)."""

SLOT_DIR_ENV = "ADJACENCY_SANDBOX_SLOTS"
"""An environment variable naming the folder of the slots' lock files."""

END_WAIT = 5.0
"""Seconds to wait for a slot's leftover processes to be gone after SIGKILL."""

CLEAN = b"clean\n"
"""What a slot's lock file holds while no process of its uid is left."""

_lock = threading.Lock()


@dataclass
class Identity:
    """The user a sandbox runs as. ``slot`` is ``None`` for the caller's own user (not
    root); then ``uid`` and ``gid`` are the caller's and ``lock_fd`` is ``None``."""

    uid: int
    gid: int
    slot: int | None
    lock_fd: int | None

    @property
    def private(self) -> bool:
        """True when nothing but this sandbox runs as ``uid`` (a slot of the pool)."""
        return self.slot is not None


def privileged() -> bool:
    """True when this process can run sandboxes under the pool's uids (it is root)."""
    return os.geteuid() == 0


def slot_dir() -> Path:
    """The folder of the slots' lock files: ``$ADJACENCY_SANDBOX_SLOTS``, else
    ``/run/adjacency-sandbox`` where ``/run`` is writable, else under the temporary
    folder. Created owner-only; one owned by another user is refused."""
    named = os.environ.get(SLOT_DIR_ENV)
    if named:
        folder = Path(named)
    elif os.access("/run", os.W_OK):
        folder = Path("/run/adjacency-sandbox")
    else:
        folder = Path(tempfile.gettempdir()) / "adjacency-sandbox-slots"
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700, parents=True)
    if folder.stat().st_uid != os.geteuid():
        raise SandboxError(f"the sandbox's slot folder {folder} belongs to another user")
    return folder


def acquire() -> Identity:
    """A user for one sandbox: a free slot of the pool when root, else the caller's own.
    :class:`SandboxError` when every slot is taken."""
    if not privileged():
        return Identity(os.getuid(), os.getgid(), None, None)
    folder = slot_dir()
    with _lock:
        for slot in range(SLOTS):
            fd = os.open(folder / f"slot-{slot}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            identity = Identity(FIRST_UID + slot, FIRST_UID + slot, slot, fd)
            # A slot released after its processes were gone says so in its lock file;
            # one left by a server that was killed is cleared of leftovers first.
            if os.pread(fd, len(CLEAN), 0) == CLEAN or end_all(identity):
                os.ftruncate(fd, 0)
                return identity
            # A leftover that would not die: the slot is skipped (tried again next time).
            os.close(fd)
    raise SandboxError(f"all {SLOTS} sandbox slots are in use")


def process_limit(identity: Identity, wanted: int) -> int:
    """``RLIMIT_NPROC`` for a sandbox of ``identity`` that may run ``wanted`` processes
    (threads count): ``wanted`` for a slot of the pool; for the caller's own user, the
    threads it already runs plus ``wanted``, since the kernel counts them all."""
    if identity.private:
        return wanted
    processes = proctree.snapshot().values()
    return sum(p.threads for p in processes if p.uid == identity.uid) + wanted


def release(identity: Identity, *, clean: bool = True) -> None:
    """Give the slot back (its lock released); nothing for the caller's own user.
    ``clean``: no process of its uid is left (checked by the caller with
    :func:`end_all`), so the next holder need not look for leftovers."""
    if identity.lock_fd is not None:
        if clean:
            os.pwrite(identity.lock_fd, CLEAN, 0)
        os.close(identity.lock_fd)
        identity.lock_fd = None


def end_all(identity: Identity) -> bool:
    """SIGKILL every process of a private identity's uid and wait (up to
    :data:`END_WAIT` s) until none is left: True when none is. Always True for the
    caller's own user (whose other processes are never touched). Zombies do not count:
    they run nothing and are gone once their parent (this process, for the sandbox's
    bubblewrap) reaps them."""
    if not identity.private:
        return True
    deadline = time.monotonic() + END_WAIT
    while True:
        processes = proctree.snapshot()
        left = [p for p in proctree.owned_by(processes, identity.uid) if processes[p].state != "Z"]
        if not left:
            return True
        if time.monotonic() > deadline:
            return False
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)
