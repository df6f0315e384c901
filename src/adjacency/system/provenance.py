"""Provenance: the record of the code, libraries and machine that produced a result.

Every stored result (a match or tournament run, a report, a solved-table entry, a
puzzle build, a training run, a benchmark) carries one :func:`provenance` record, so a
number in a paper can be traced to the code it came from and rerun:

- ``package``/``version``: the distribution and its version;
- ``commit``: the git commit of the checkout the package is imported from, and
  ``dirty``: whether its sources differ from that commit (``null`` both outside a
  checkout, an installed wheel say);
- ``source``: a hash of the package's Python sources, equal on two machines exactly
  when they run the same code: an installed wheel's build id, and the check that a
  ``dirty`` checkout is the one that produced a result;
- ``python`` and ``libraries`` (numpy, numba: what the compiled engine depends on);
- ``machine``: the CPU model, its logical cores, the operating system;
- ``settings`` and ``seeds``: what the caller ran, as it gives them;
- ``created``: when the record was made (UTC).

The code and machine parts are computed once per process (a git call and a file
hash). The standard library only: the versions are read from the installed metadata,
so recording them imports neither numpy nor numba.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import platform
import subprocess
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

LIBRARIES = ("numpy", "numba")
"""The libraries whose versions every record carries (the engine compiles with numba)."""

UNKNOWN = "unknown"
"""The value of a field that a record made after the fact cannot know (a result stored
before records were kept): written so, never guessed."""

_ROOT = Path(__file__).resolve().parents[1]
"""The package's directory (``src/adjacency`` in a checkout)."""


def provenance(settings: Mapping[str, Any] | None = None, seeds: Any = None) -> dict[str, Any]:
    """A new provenance record (a JSON-ready dictionary, the keys of the module's
    docstring) with the caller's ``settings`` and ``seeds``."""
    return {
        **code(),
        "python": platform.python_version(),
        "libraries": libraries(),
        "machine": machine(),
        "settings": dict(settings or {}),
        "seeds": seeds,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


@cache
def code() -> dict[str, Any]:
    """``package``, ``version``, ``commit``, ``dirty`` and ``source`` of the running code.

    The name and version are the top-level package's (``DISTRIBUTION``, ``__version__``),
    read from the loaded module rather than imported: this room sits below the core,
    which the top-level package imports."""
    top = sys.modules[__name__.split(".")[0]]
    commit, dirty = _git()
    return {
        "package": getattr(top, "DISTRIBUTION", top.__name__),
        "version": getattr(top, "__version__", None),
        "commit": commit,
        "dirty": dirty,
        "source": source_hash(),
    }


@cache
def source_hash() -> str:
    """The first 12 hex digits of a SHA-256 over the package's Python files (their paths
    and bytes, in sorted order)."""
    digest = hashlib.sha256()
    for path in sorted(_ROOT.rglob("*.py")):
        digest.update(path.relative_to(_ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _git() -> tuple[str | None, bool | None]:
    """The commit of the checkout holding the package and whether its sources differ
    from it; ``(None, None)`` when the package is not in a checkout's ``src/`` (an
    installed copy inside some other repository does not count) or git is missing."""

    def run(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(_ROOT), *args],
                capture_output=True, text=True, timeout=10, check=False,
            )  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    top = run("rev-parse", "--show-toplevel")
    if top is None or (Path(top) / "src" / "adjacency").resolve() != _ROOT:
        return None, None
    commit = run("rev-parse", "HEAD")
    status = run("status", "--porcelain", "--untracked-files=no", "--", ".")
    return commit, None if status is None else bool(status)


def versions_of(names: Iterable[str]) -> dict[str, str | None]:
    """The installed version of each distribution in ``names`` (``None`` if not
    installed): what a record, a benchmark or a checkpoint says it ran with."""
    versions: dict[str, str | None] = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


@cache
def libraries() -> dict[str, str | None]:
    """The installed version of each of :data:`LIBRARIES` (``None`` if not installed)."""
    return versions_of(LIBRARIES)


@cache
def machine() -> dict[str, Any]:
    """``cpu`` (the model name), ``cores`` (logical), ``system`` and ``arch``."""
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 1,
        "system": platform.platform(terse=True),
        "arch": platform.machine(),
    }


def cpu_model() -> str:
    """The CPU's model name: ``/proc/cpuinfo``'s on Linux, else what :mod:`platform` says."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        for line in text.splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Hardware", "Processor") and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def describe(record: Mapping[str, Any] | None) -> list[str]:
    """The record as a few lines of text (``adjacency report`` prints them); one line
    saying it is missing for a result stored before records were kept (``None`` or
    empty)."""
    if not record:
        return ["provenance: not recorded (stored by a version that kept none)"]
    commit = record.get("commit")
    if commit == UNKNOWN:
        where = "commit unknown"
    elif commit:
        where = f"commit {commit[:12]}" + (" with local changes" if record.get("dirty") else "")
    else:
        where = "not from a git checkout"
    libs = ", ".join(f"{k} {v or 'absent'}" for k, v in dict(record.get("libraries", {})).items())
    box = dict(record.get("machine", {}))
    lines = [
        f"code: {record.get('package', '?')} {record.get('version', '?')}, {where}, "
        f"source {record.get('source', '?')}",
        f"libraries: Python {record.get('python', '?')}, {libs}",
        f"machine: {box.get('cpu', '?')}, {box.get('cores', '?')} cores, {box.get('system', '?')}",
    ]
    settings = record.get("settings")
    if settings:
        shown = ", ".join(f"{k}={v}" for k, v in dict(settings).items())
        lines.append(f"settings: {shown}")
    if record.get("seeds") is not None:
        lines.append(f"seeds: {record['seeds']}")
    if record.get("created"):
        lines.append(f"recorded: {record['created']}")
    rebuilt = record.get("reconstructed")
    if rebuilt:
        lines.append(
            f"reconstructed from {rebuilt.get('from', '?')}: first committed in "
            f"{str(rebuilt.get('committed_in', '?'))[:12]} ({rebuilt.get('committed', '?')})"
        )
    return lines
