"""Whether the sandbox can start here: :func:`check`.

It runs the real sandbox (the same command line as every sandboxed program) around
``/bin/true`` once per process; a failure raises
:class:`~adjacency.sandbox.errors.SandboxUnavailable` with one line that names the fix.
Callers refuse uploaded code on that error: nothing runs without the sandbox. Only
success is remembered, so a machine fixed while a server runs is seen at the next try.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from pathlib import Path

from . import command_line, identity
from .errors import SandboxUnavailable
from .limits import Limits

CHECK_TIMEOUT = 30.0
"""Seconds the trial sandbox may take."""

USERNS_FIX = (
    "enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and "
    "user.max_user_namespaces=15000; Ubuntu: kernel.apparmor_restrict_unprivileged_userns=0;"
    " under systemd, allow them: RestrictNamespaces=user pid net ipc uts mnt cgroup)"
)

_lock = threading.Lock()
_ok: set[tuple[str, str]] = set()


def check(bwrap: str | None = None, prlimit: str | None = None) -> None:
    """Return if a sandbox starts here, else raise :class:`SandboxUnavailable` naming the
    fix in one line. ``bwrap`` and ``prlimit`` default to the programs the sandbox runs
    (:data:`~adjacency.sandbox.command_line.BWRAP`,
    :data:`~adjacency.sandbox.command_line.PRLIMIT`)."""
    key = (bwrap or command_line.BWRAP, prlimit or command_line.PRLIMIT)
    with _lock:
        if key in _ok:
            return
        _trial(*key)
        _ok.add(key)


def _trial(bwrap: str, prlimit: str) -> None:
    if not os.access(bwrap, os.X_OK):
        raise SandboxUnavailable(
            f"the sandbox cannot start: bubblewrap is not installed at {bwrap}; "
            "fix: apt-get install bubblewrap"
        )
    if not os.access(prlimit, os.X_OK):
        raise SandboxUnavailable(
            f"the sandbox cannot start: prlimit is not installed at {prlimit}; "
            "fix: apt-get install util-linux"
        )
    who = identity.acquire()
    try:
        with tempfile.TemporaryDirectory(prefix="adjacency-sandbox-check-") as empty:
            os.chmod(empty, 0o755)
            argv = command_line.command(
                ["/bin/true"],
                submission=Path(empty),
                limits=Limits(),
                processes=identity.process_limit(who, Limits().processes),
            )
            argv[0], argv[argv.index(command_line.BWRAP)] = prlimit, bwrap
            drop: dict[str, object] = (
                {"user": who.uid, "group": who.gid, "extra_groups": []} if who.private else {}
            )
            try:
                done = subprocess.run(  # type: ignore[call-overload]
                    argv,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    cwd="/",
                    env={"PATH": command_line.PATH},
                    timeout=CHECK_TIMEOUT,
                    **drop,
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise SandboxUnavailable(
                    f"the sandbox cannot start: {exc}; fix: see docs/sandbox.md"
                ) from None
    finally:
        identity.release(who, clean=identity.end_all(who))
    if done.returncode == 0:
        return
    said = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["(nothing)"])[-1]
    namespaces = ("namespace", "uid map", "gid map", "setgroups")
    userns = said.startswith("bwrap:") and any(word in said for word in namespaces)
    fix = USERNS_FIX if userns else "see docs/sandbox.md"
    raise SandboxUnavailable(f"the sandbox cannot start: {said[:300]}; fix: {fix}")
