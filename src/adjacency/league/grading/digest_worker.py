"""A version's digest (:mod:`.version_digest`: its kept files highlighted, its
fingerprints) made in a process of its own, with its own CPU budget: :func:`made_apart`.

Why: a digest is pure Python over text a team chose. Made in the server's process, its
CPU competed with the threads that answer requests (the GIL is one, whatever pool a
thread is in), and a digest in hand kept a stopping server waiting. Made apart:

- the worker's CPU is its own: it runs at a lower priority (:data:`NICE`), and where the
  sandbox's cgroups are delegated, in the checks' folder, below the games
  (:attr:`~adjacency.sandbox.cgroup.Priority.CHECK`), its memory capped at
  :data:`MEMORY`; the server's process only waits for its answer, holding no CPU. Not
  in the builds' folder, which runs on what everything else leaves: the version plays
  from its verdict on (stored first), but its builder thread takes the next upload
  only once the digest is made, so on a busy machine the next verdicts would wait for
  an idle core (measured when the verdict still waited for its digest: a suite's
  live-game test of three hostile teams took 61 s there, 29 s before the digest moved
  apart);
- its budget is :func:`budget` CPU seconds for the whole digest (each file is also held
  to its own, :func:`~.lexing.budget`): once spent, every file left is shown plain
  (:func:`~.lexing.cpu_budget`); past :data:`MARGIN` more, the kernel stops the worker
  (``RLIMIT_CPU``) and the digest is made again with every file plain, which costs no
  lexing at all;
- a stopping server ends the workers in hand (:func:`stop_all`) at once: their digests
  are made when first asked for after the next start.

The worker reads the version's zip on its standard input and writes, on its standard
output, the packed prints' length (8 bytes, big-endian), the packed prints, then the
packed code (:func:`make`'s two results).
"""

from __future__ import annotations

import json
import math
import os
import resource
import signal
import sys
import time
import zlib
from typing import Any

from ...core.errors import AdjacencyError
from ...sandbox import cgroup
from ..league_file import LeagueError
from .apart import Children
from .fingerprints import pack, project_prints
from .lexing import MIB, cpu_budget
from .lexing import SECONDS_PER_MIB as LEXING_SECONDS_PER_MIB
from .version_code import Kept, highlighted, kept_files

BASE_SECONDS = 5.0
"""CPU seconds any digest may take, besides :data:`SECONDS_PER_MIB`."""

SECONDS_PER_MIB = 2 * LEXING_SECONDS_PER_MIB
"""CPU seconds a digest may take per MiB of its kept text: each file is lexed twice
(highlighted, then fingerprinted), each within its own budget a MiB."""

MARGIN = 5.0
"""CPU seconds past its budget (its start, the zip read, the JSON written) at which the
kernel stops a worker: a digest that ran on outside the lexers."""

NICE = 10
"""How much nicer than the server a worker runs (where the cgroup is not delegated)."""

MEMORY = 1 << 30
"""Bytes a worker may hold, where its cgroup can be capped."""

LENGTH_BYTES = 8
"""The bytes of the packed prints' length at the start of a worker's answer."""

UNREADABLE = 3
"""A worker's exit status for a zip the intake refuses (the reason on its stderr)."""


class DigestStopped(AdjacencyError):
    """The digest was not made: the server is stopping (:func:`stop_all`)."""


def budget(characters: int) -> float:
    """The CPU seconds a digest of ``characters`` of kept text may take (see the module)."""
    return BASE_SECONDS + SECONDS_PER_MIB * characters / MIB


def make(
    data: bytes, what: str = "the version", seconds: float | None = None
) -> tuple[bytes, bytes]:
    """The digest of a version's zip ``data``, in this thread: its packed prints and its
    packed code (the kept files, each path with its highlighted lines, and the zip's
    other entries named), within ``seconds`` of CPU (``None``: :func:`budget`; ``0``:
    every file plain, unlexed). :class:`~.league_file.LeagueError` for a zip the intake
    refuses."""
    kept = _kept(data, what)
    return _digest(kept, _budget_of(kept) if seconds is None else seconds)


def _kept(data: bytes, what: str) -> Kept:
    try:
        return kept_files(data)
    except AdjacencyError as exc:
        raise LeagueError(f"{what} cannot be read: {exc}") from None


def _budget_of(kept: Kept) -> float:
    return budget(sum(len(text) for text in kept.shown.values()))


def _digest(kept: Kept, seconds: float) -> tuple[bytes, bytes]:
    with cpu_budget(seconds):
        head = {"pictures": kept.pictures, "left_out": kept.left_out}
        files = [{"path": p, "lines": highlighted(p, t)} for p, t in kept.shown.items()]
        prints = pack(project_prints(kept.files))
    text = _json(head) + "\n" + _json(files)
    return prints, zlib.compress(text.encode(), 6)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


_children = Children()
"""The workers of this process making a digest now."""


def made_apart(data: bytes, what: str = "the version") -> tuple[bytes, bytes]:
    """:func:`make` of ``data`` in a worker process (see the module); a worker stopped
    by its CPU limit gives the digest with every file plain. Raises
    :class:`~.league_file.LeagueError` for a zip the intake refuses and
    :class:`DigestStopped` when :func:`stop_all` ended it."""
    argv = [sys.executable, "-m", __name__, what]
    ended = _children.run(argv, data, cgroup.Priority.CHECK, MEMORY)
    if ended.stopped:
        raise DigestStopped(f"the digest of {what} was not made: the server is stopping")
    if ended.returncode == UNREADABLE:
        raise LeagueError(ended.err.decode(errors="replace").strip())
    if ended.returncode in (-signal.SIGXCPU, -signal.SIGKILL):  # past its CPU limit
        return make(data, what, seconds=0.0)
    out = ended.out
    if ended.returncode != 0 or len(out) < LENGTH_BYTES:
        raise LeagueError(
            f"the digest of {what} failed (status {ended.returncode}): "
            + ended.err.decode(errors="replace").strip()[-500:]
        )
    length = int.from_bytes(out[:LENGTH_BYTES], "big")
    return out[LENGTH_BYTES : LENGTH_BYTES + length], out[LENGTH_BYTES + length :]


def running() -> list[int]:
    """The process ids of this process's workers making a digest now."""
    return _children.running()


def stop_all() -> int:
    """End every worker of this process (a stopping server); how many were ended. Their
    callers raise :class:`DigestStopped`."""
    return _children.stop_all()


def main() -> int:
    """The worker (see the module): the digest of the zip on standard input (its first
    argument names it in an error)."""
    os.nice(NICE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a worker stopped leaves no core
    data = sys.stdin.buffer.read()
    try:
        kept = _kept(data, sys.argv[1] if len(sys.argv) > 1 else "the version")
    except LeagueError as exc:
        print(exc, file=sys.stderr)
        return UNREADABLE
    seconds = _budget_of(kept)
    limit = math.ceil(time.process_time() + seconds + MARGIN)
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))  # SIGXCPU, then SIGKILL
    prints, code = _digest(kept, seconds)
    out = sys.stdout.buffer
    out.write(len(prints).to_bytes(LENGTH_BYTES, "big") + prints + code)
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
