"""The system calls a sandboxed program may not make: a seccomp filter for bubblewrap.

bubblewrap installs the filter read from ``--seccomp FD`` last, just before it executes
the program, so it holds for the program and every process it starts, and cannot be
removed (seccomp filters only ever add up). :func:`program` is a classic BPF program
(``struct sock_filter`` entries, built here with :mod:`struct`) that answers ``EPERM``
to :data:`DENIED` and allows everything else:

- ``ptrace``: a program tracing its own sandbox's processes (bubblewrap's init in the
  pid namespace included) could hide work from the CPU clock or change what another
  process of the game does;
- ``process_vm_readv`` and ``process_vm_writev``: the same reach into another
  process's memory without ptrace's attach;
- ``setpriority``, ``sched_setscheduler`` and ``sched_setattr``: a thread that lowers
  its own priority (``nice 19``, ``SCHED_IDLE``, allowed to any user) runs only when
  nothing else would, so its sandbox looks starved by the server while it computes; a
  program's threads all keep the priority they started with. ``EPERM`` is what an
  unprivileged program already expects from a refused priority change, so a program
  that tries it (a JVM's thread priorities, a library's ``nice``) still runs;
- ``sched_setaffinity``: threads pinned to one CPU wait for each other and for whatever
  else the machine runs there, so its sandbox looks starved while its other core is
  free; a program's threads run where the kernel puts them (``sched_getaffinity`` is
  allowed: a runtime sizing its thread pools reads it);
- ``ioprio_set``: the same for its disk's share;
- ``io_uring_setup``, ``io_uring_enter`` and ``io_uring_register``: work the kernel does
  for it on threads of the kernel's own, outside its group's clock and filter; no
  runtime the league plays needs them (each falls back to plain reads and writes);
- ``keyctl``, ``add_key`` and ``request_key``: the kernel's key rings are shared by
  every process of a user, a store outside the sandbox's limits;
- ``personality`` but its query (argument ``0xffffffff``): a changed execution domain
  (no address randomisation, another ABI's quirks) for the programs it starts.

The filter first checks the architecture field: a call made through another ABI of the
same machine (32-bit x86 on x86-64, or x32's numbers) is denied outright, since its
numbers differ. :func:`filter_fd` writes the program into an anonymous file for
bubblewrap to read. A machine whose architecture is not in :data:`ARCHES` has no
filter: :func:`program` raises :class:`~adjacency.sandbox.SandboxUnavailable` rather
than run uploads without it.
"""

from __future__ import annotations

import errno
import os
import platform
import struct

from .errors import SandboxUnavailable

DENIED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "setpriority",
    "sched_setscheduler",
    "sched_setattr",
    "sched_setaffinity",
    "ioprio_set",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
)
"""The system calls answered ``EPERM``."""

QUERY_ONLY = "personality"
"""The system call allowed only with its query argument, :data:`QUERY`; ``EPERM``
otherwise."""

QUERY = 0xFFFFFFFF
"""``personality``'s query: its argument that changes nothing."""

ARCHES: dict[str, tuple[int, dict[str, int]]] = {
    "x86_64": (
        0xC000003E,
        {
            "ptrace": 101,
            "process_vm_readv": 310,
            "process_vm_writev": 311,
            "setpriority": 141,
            "sched_setscheduler": 144,
            "sched_setattr": 314,
            "sched_setaffinity": 203,
            "ioprio_set": 251,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "keyctl": 250,
            "add_key": 248,
            "request_key": 249,
            "personality": 135,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "ptrace": 117,
            "process_vm_readv": 270,
            "process_vm_writev": 271,
            "setpriority": 140,
            "sched_setscheduler": 119,
            "sched_setattr": 274,
            "sched_setaffinity": 122,
            "ioprio_set": 30,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "keyctl": 219,
            "add_key": 217,
            "request_key": 218,
            "personality": 92,
        },
    ),
}
"""Per machine (``platform.machine()``): its ``AUDIT_ARCH_*`` value and the numbers of
:data:`DENIED` (Linux's ``unistd.h`` of that ABI)."""

X32_BIT = 0x40000000
"""Set in the system call numbers of the x32 ABI (x86-64 only)."""

# Classic BPF: the instruction classes and fields of linux/filter.h and seccomp.h.
_LD_W_ABS = 0x00 | 0x00 | 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x05 | 0x10 | 0x00  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x05 | 0x30 | 0x00  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06 | 0x00  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
_ERRNO = 0x00050000  # SECCOMP_RET_ERRNO | errno
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (the first argument's low
# 32 bits on a little-endian machine, which both of ARCHES are)


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def program(machine: str | None = None) -> bytes:
    """The filter for ``machine`` (default this one's) as bytes of ``sock_filter``."""
    name = machine or platform.machine()
    if name not in ARCHES:
        raise SandboxUnavailable(
            f"the sandbox cannot start: no seccomp filter for the architecture {name!r} "
            f"(known: {', '.join(ARCHES)})"
        )
    arch, numbers = ARCHES[name]
    denied = [numbers[call] for call in DENIED]
    # 0 arch check, 1 load nr, 2 x32 check, one jump per denied call, the query-only
    # call's jump, allow; then its argument's check, allow, deny.
    body = [_op(_LD_W_ABS, _ARCH)]
    allow_at = 5 + len(denied)  # the first allow (after the query-only call's jump)
    query_at = allow_at + 1  # load the query-only call's argument
    deny_at = query_at + 3  # after that load, its check and the second allow
    body.append(_op(_JEQ_K, arch, 0, deny_at - 2))
    body.append(_op(_LD_W_ABS, _NR))
    body.append(_op(_JGE_K, X32_BIT, deny_at - 4, 0))
    for i, number in enumerate(denied):
        here = 4 + i
        body.append(_op(_JEQ_K, number, deny_at - here - 1, 0))
    here = 4 + len(denied)
    body.append(_op(_JEQ_K, numbers[QUERY_ONLY], query_at - here - 1, 0))
    body.append(_op(_RET_K, _ALLOW))
    body.append(_op(_LD_W_ABS, _ARG0))
    body.append(_op(_JEQ_K, QUERY, 0, 1))
    body.append(_op(_RET_K, _ALLOW))
    body.append(_op(_RET_K, _ERRNO | errno.EPERM))
    return b"".join(body)


def filter_fd() -> int:
    """An anonymous file holding :func:`program`, at its start, inheritable: the caller
    passes it to bubblewrap (``--seccomp FD``) and closes it once bubblewrap started."""
    fd = os.memfd_create("adjacency-seccomp", 0)
    data = program()
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
