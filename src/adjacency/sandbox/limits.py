"""What a sandboxed process may use (:class:`Limits`) and why it ended (:class:`Reason`).

Each limit is enforced by the kernel where a per-process or per-file limit exists
(``setrlimit``, the size of the private tmpfs) and by the sandbox's monitor for the
whole process tree (CPU time, resident memory, wall time), which reads ``/proc`` every
:data:`~adjacency.sandbox.monitor.TICK` seconds and ends the tree with the reason.
"""

from __future__ import annotations

import enum
import signal
from dataclasses import dataclass

from .errors import SandboxError

MIB = 1 << 20


class Reason(enum.StrEnum):
    """Why a sandboxed process ended (the first cause seen wins)."""

    EXITED = "exited"
    """It exited by itself (its status says how)."""
    CPU = "cpu"
    """Its process tree used up its CPU time."""
    WALL = "wall"
    """It ran past its wall-time cap (a process that sleeps or waits)."""
    MEMORY = "memory"
    """Its process tree's resident memory went past the limit."""
    OUTPUT = "output"
    """It wrote more than its output limit on standard output and error."""
    ENDED = "ended"
    """The caller ended it (the game is over)."""


@dataclass(frozen=True)
class Limits:
    """Bounds on one sandboxed process and everything it starts.

    ``cpu_seconds`` and ``wall_seconds`` hold for its whole life (a hosted bot's whole
    game; the caller charges moves from :meth:`SandboxedProcess.cpu_seconds`).
    ``memory_bytes`` is each process's ``RLIMIT_DATA`` (its writable private memory:
    heap, anonymous maps, thread stacks; address space that is only reserved does not
    count, which is why a JVM runs under it where ``RLIMIT_AS`` would stop it at start)
    and also the bound on the tree's resident memory, checked by the monitor.
    ``processes`` is ``RLIMIT_NPROC`` (threads count: a JVM needs some 20 to 40).
    ``file_bytes`` is ``RLIMIT_FSIZE`` (the largest file it may write), ``tmp_bytes`` the
    size of its private ``/tmp``, ``open_files`` ``RLIMIT_NOFILE``, ``output_bytes`` what
    it may write on standard output over its life (and on standard error where that is
    kept whole, a one-shot build's; elsewhere standard error is drained and never
    counted, :data:`~.process.OUTPUT_TAIL`).
    """

    cpu_seconds: float = 60.0
    wall_seconds: float = 600.0
    memory_bytes: int = 1024 * MIB
    processes: int = 128
    file_bytes: int = 16 * MIB
    tmp_bytes: int = 64 * MIB
    open_files: int = 256
    output_bytes: int = 8 * MIB

    def __post_init__(self) -> None:
        for name in ("cpu_seconds", "wall_seconds"):
            value = getattr(self, name)
            if not 0 < value <= 86_400:
                raise SandboxError(f"sandbox limit {name}={value!r}: must be in (0, 86400]")
        for name in (
            "memory_bytes",
            "processes",
            "file_bytes",
            "tmp_bytes",
            "open_files",
            "output_bytes",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise SandboxError(f"sandbox limit {name}={value!r}: must be a positive integer")
        if self.open_files < 16:
            raise SandboxError(f"sandbox limit open_files={self.open_files}: at least 16")


def describe(reason: Reason, returncode: int | None, limits: Limits) -> str:
    """One line on how a sandboxed process ended, naming the limit it reached."""
    if reason is Reason.CPU:
        return f"used up its CPU time ({limits.cpu_seconds:g} s)"
    if reason is Reason.WALL:
        return f"ran past its wall-time cap ({limits.wall_seconds:g} s)"
    if reason is Reason.MEMORY:
        return f"used more than its memory ({limits.memory_bytes // MIB} MiB)"
    if reason is Reason.OUTPUT:
        return f"wrote more than its output limit ({limits.output_bytes} bytes)"
    if reason is Reason.ENDED:
        return "was ended by the caller"
    if returncode is None:
        return "is still running"
    if returncode < 0 or returncode > 128:
        # Negative: bubblewrap itself was killed; above 128: bubblewrap's status for a
        # program killed by signal (status - 128).
        number = -returncode if returncode < 0 else returncode - 128
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"was killed by {name}"
    return f"exited with status {returncode}"
