"""The command line that starts a sandboxed program: :func:`command`.

``prlimit`` (util-linux) sets the per-process limits and executes ``bwrap``
(bubblewrap), which builds the sandbox and executes the program:

- namespaces of its own: user (nested ones disabled), pid, network (no interface
  but a loopback of its own: the host's loopback ports are unreachable), IPC, UTS,
  cgroup; ``--die-with-parent`` and a pid namespace whose init is bubblewrap's, so
  ending bubblewrap ends every process inside; ``--new-session`` (no terminal to
  push input into);
- a file system of its own: the system read-only (``/usr`` and the merged-/usr
  links; of ``/etc`` only the dynamic linker's cache and what a JDK reads), the
  submission read-only at :data:`SUBMISSION`, an optional output folder writable at
  :data:`OUTPUT`, a private ``/tmp`` (tmpfs of ``tmp_bytes``: where the caller gives
  one, a ``noexec`` tmpfs of its own, :mod:`.scratch`), a fresh ``/proc`` of its pid
  namespace and a minimal ``/dev`` (the root and ``/dev`` read-only too); nothing else
  of the host (no /home, /root, /work, /var, /run, nor the host's /tmp); and, but for
  a build, no compiler, assembler or linker (:data:`COMPILERS` hidden);
- an environment of its own (``--clearenv``): PATH, HOME and TMPDIR at ``/tmp``,
  LANG, and what the caller adds.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from .limits import Limits

BWRAP = "/usr/bin/bwrap"
"""Debian's bubblewrap (package ``bubblewrap``)."""

PRLIMIT = "/usr/bin/prlimit"
"""util-linux's prlimit (an essential package on Debian)."""

SUBMISSION = "/box"
"""Where the submission is, read-only; the program's working folder."""

OUTPUT = "/out"
"""Where the optional output folder is, writable (a build's classes)."""

TMP = "/tmp"
"""The private temporary folder (tmpfs), also HOME."""

MERGED = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
"""Top-level folders that merged-/usr systems make links into /usr."""

ETC = ("ld.so.cache", "alternatives", "java-*-openjdk")
"""What of /etc a JDK, Node and Python need: the linker's cache, the alternatives
links (/usr/bin/java points through them), the JDK's configuration."""

COMPILERS = ("/usr/lib/gcc", "/usr/libexec/gcc", "/usr/lib/llvm-*")
"""The folders of the compilers' own programs (GCC's ``cc1``, ``cc1plus``, ``collect2``;
LLVM's): hidden behind an empty folder in a sandbox that is no build, so no program
compiles anything at play."""

BINUTILS = tuple(
    f"{prefix}{name}"
    for prefix in ("", "*-linux-gnu-")
    for name in ("as", "ld", "ld.bfd", "ld.gold", "ld.lld")
)
"""The assembler's and linkers' names in ``/usr/bin``, each hidden the same way (an empty
file in its place; never ``ld.so``, the dynamic loader every program needs)."""

SETPRIV = "/usr/bin/setpriv"
"""util-linux's setpriv: drops root to a sandbox's uid after the process entered its
cgroup (:func:`enter_group`)."""

SHELL = "/bin/sh"

PATH = "/usr/local/bin:/usr/bin:/bin"


def system_binds() -> list[str]:
    """bubblewrap's arguments for the read-only system, from what this host has."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in MERGED:
        host = Path("/") / name
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), f"/{name}"]
        elif host.is_dir():
            args += ["--ro-bind", str(host), f"/{name}"]
    for pattern in ETC:
        for path in sorted(glob.glob(f"/etc/{pattern}")):
            args += ["--ro-bind", path, path]
    return args


def no_compilers() -> list[str]:
    """bubblewrap's arguments hiding :data:`COMPILERS` and :data:`BINUTILS` that this
    host has."""
    args: list[str] = []
    for pattern in COMPILERS:
        for path in sorted(glob.glob(pattern)):
            if os.path.isdir(path):
                args += ["--tmpfs", path]
    for pattern in BINUTILS:
        for path in sorted(glob.glob(f"/usr/bin/{pattern}")):
            if os.path.isfile(path):
                args += ["--ro-bind", "/dev/null", path]
    return args


def rlimits(limits: Limits, processes: int) -> list[str]:
    """prlimit's arguments (soft = hard, so the program cannot raise them): ``processes``
    is ``RLIMIT_NPROC`` as counted for the sandbox's user."""
    cpu = int(limits.cpu_seconds) + 2  # a backstop: the monitor ends the tree first
    return [
        PRLIMIT,
        f"--nproc={processes}:{processes}",
        f"--data={limits.memory_bytes}:{limits.memory_bytes}",
        f"--fsize={limits.file_bytes}:{limits.file_bytes}",
        f"--cpu={cpu}:{cpu}",
        f"--nofile={limits.open_files}:{limits.open_files}",
        "--core=0:0",
        "--",
    ]


def command(
    argv: Sequence[str],
    *,
    submission: Path,
    limits: Limits,
    processes: int,
    output: Path | None = None,
    binds: Mapping[str, Path] | None = None,
    env: Mapping[str, str] | None = None,
    seccomp_fd: int | None = None,
    tmp: Path | None = None,
    compilers: bool = True,
) -> list[str]:
    """The whole command line: prlimit, bubblewrap with the sandbox, then ``argv``
    (run in :data:`SUBMISSION`). ``binds`` adds read-only folders or files (a target
    inside the sandbox -> a host path); ``env`` adds environment variables;
    ``seccomp_fd`` is an open file of a seccomp program bubblewrap installs last
    (:mod:`.seccomp`); ``tmp`` a host folder bound as its ``/tmp`` (a ``noexec``
    tmpfs of its own, :mod:`.scratch`; ``None``: bubblewrap's tmpfs); without
    ``compilers``, no compiler, assembler or linker is there (:func:`no_compilers`)."""
    args = [
        BWRAP,
        "--unshare-user",
        "--disable-userns",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "sandbox",
        *system_binds(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        *(
            ["--bind", str(tmp), TMP]
            if tmp is not None
            else ["--size", str(limits.tmp_bytes), "--tmpfs", TMP]
        ),
        "--ro-bind",
        str(submission),
        SUBMISSION,
        *([] if compilers else no_compilers()),
    ]
    if output is not None:
        args += ["--bind", str(output), OUTPUT]
    for target, source in sorted((binds or {}).items()):
        args += ["--ro-bind", str(source), target]
    # The root and /dev are tmpfs that bubblewrap made (without a size): read-only once
    # every mount point is in place, so /tmp is the only place it writes (and /out).
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--chdir", SUBMISSION, "--clearenv"]
    variables = {"PATH": PATH, "HOME": TMP, "TMPDIR": TMP, "LANG": "C.UTF-8", **(env or {})}
    for name, value in variables.items():
        args += ["--setenv", name, value]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    return [*rlimits(limits, processes), *args, "--", *argv]


def enter_group(
    argv: Sequence[str], procs: Sequence[Path], user: tuple[int, int] | None
) -> list[str]:
    """``argv`` started inside a cgroup: a shell writes its own pid into each of
    ``procs`` (the group's ``cgroup.procs``, and its v1 ``cpu`` group's where it has
    one) before anything of the sandbox exists, then executes
    ``argv``, through :data:`SETPRIV` as ``user`` (uid, gid; no other groups) when given
    (a root parent: the write needs root, so the drop comes after it). Every process
    of the sandbox is then born in the group. A write that fails ends it with status
    125 before the sandbox starts."""
    drop = (
        [SETPRIV, f"--reuid={user[0]}", f"--regid={user[1]}", "--clear-groups"]
        if user is not None
        else []
    )
    script = (
        'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; '
        'n=$((n - 1)); done; exec "$@"'
    )
    return [
        SHELL,
        "-c",
        script,
        "adjacency-sandbox",
        str(len(procs)),
        *map(str, procs),
        *drop,
        *argv,
    ]
