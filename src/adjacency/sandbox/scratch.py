"""A sandbox's private ``/tmp`` that runs nothing: :func:`make` and :func:`remove`.

A sandboxed program may write only its ``/tmp`` (and a build its output folder). Were
that folder executable, a program could write a native library or a program there
(its bytes in its source, or compiled on the spot) and load it: a JVM's
``System.load`` then runs code that writes on the protocol's descriptor behind the
driver's back, and a Python program's ``ctypes`` does the same. bubblewrap's own tmpfs
cannot be mounted ``noexec``, so where this process may mount (root), each sandbox gets
a tmpfs of its own on the host, mounted ``noexec,nosuid,nodev`` with the sandbox's size
and owned by its user, and bubblewrap binds it as ``/tmp`` (a bind keeps the mount's
``noexec``): nothing written there can be executed or mapped executable. Its pages are
charged to the sandbox's memory group, as they are written by its processes.

Where no tmpfs can be mounted here (a server that is not root), :func:`make` returns
``None`` and the sandbox falls back to bubblewrap's tmpfs, which can run what it holds;
the log says so once.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import logging
import os
import threading
from pathlib import Path

FOLDER = Path("/run/adjacency-scratch")
"""Where the sandboxes' tmpfs are mounted (searchable by the sandboxes' users, who open
their own as bubblewrap binds it; each is readable by its own user only)."""

MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
MNT_DETACH = 2

log = logging.getLogger(__name__)

_libc = ctypes.CDLL(None, use_errno=True)
_counter = itertools.count()
_lock = threading.Lock()
_said: list[bool] = []
_swept: list[bool] = []


def make(size: int, uid: int, gid: int) -> Path | None:
    """A new tmpfs of ``size`` bytes, ``noexec``, owned by ``uid``:``gid`` (mode 0700),
    or ``None`` where this process cannot mount one."""
    with _lock:
        if _said:
            return None
        try:
            FOLDER.mkdir(mode=0o711, exist_ok=True)
            FOLDER.chmod(0o711)
        except OSError as exc:
            _cannot(exc)
            return None
        if not _swept:
            _swept.append(True)
            _sweep()
    target = FOLDER / f"tmp-{os.getpid()}-{next(_counter)}"
    try:
        target.mkdir(mode=0o700)
    except OSError as exc:
        _cannot(exc)
        return None
    options = f"size={size},mode=0700,uid={uid},gid={gid}".encode()
    flags = MS_NOEXEC | MS_NOSUID | MS_NODEV
    if _libc.mount(b"tmpfs", str(target).encode(), b"tmpfs", flags, options) != 0:
        error = OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        with contextlib.suppress(OSError):
            target.rmdir()
        with _lock:
            _cannot(error)
        return None
    return target


def remove(target: Path) -> None:
    """Unmount ``target`` (detached: whatever still holds it lets go) and remove its
    folder; its files are gone with the mount."""
    _libc.umount2(str(target).encode(), MNT_DETACH)
    with contextlib.suppress(OSError):
        target.rmdir()


def _cannot(exc: OSError) -> None:
    """Say once that no tmpfs can be mounted here (and try no more)."""
    if not _said:
        _said.append(True)
        log.warning(
            "sandbox: cannot mount a noexec /tmp for the sandboxes under %s (%s): each "
            "sandbox's /tmp is bubblewrap's, which can run what a program writes there",
            FOLDER,
            exc,
        )
    return None


def _sweep() -> None:
    """Unmount the tmpfs a process that is gone left (one killed before it could)."""
    for target in FOLDER.glob("tmp-*-*"):
        try:
            os.kill(int(target.name.split("-")[1]), 0)
        except ProcessLookupError:
            remove(target)
        except (ValueError, PermissionError):
            continue
