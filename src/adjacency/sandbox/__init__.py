"""The sandbox for uploaded code: bubblewrap, a uid of its own, limits, accounting.

A program from a submission (a hosted bot, a build of its sources) runs only through
this room: :class:`SandboxedProcess` for a long-lived program talked to over pipes
(it has the methods of the engine protocol's ``Transport``), :func:`run` for a one-shot
command. Both call :func:`check` first, which raises :class:`SandboxUnavailable` (one
line naming the fix) where the sandbox cannot start: nothing runs without it.

- :mod:`~adjacency.sandbox.command_line`: the command line (prlimit, then bubblewrap's
  namespaces, binds and environment);
- :mod:`~adjacency.sandbox.identity`: the uid pool (a user of its own per sandbox when
  run as root) and ending every process of a uid;
- :mod:`~adjacency.sandbox.monitor`: one thread that reads ``/proc`` for every sandbox
  and enforces the tree-wide limits (CPU time, memory, wall time);
- :mod:`~adjacency.sandbox.limits`: :class:`Limits`, :class:`Reason`;
- :mod:`~adjacency.sandbox.available`: :func:`check`;
- :mod:`~adjacency.sandbox.spawner`: every sandbox started from one long-lived thread
  (bubblewrap's death signal is tied to the thread that started it);
- :mod:`~adjacency.sandbox.outputs`: :func:`regular_files`, the only way the host reads
  a build's output folder (no link is followed);
- :mod:`~adjacency.sandbox.cgroup`: a group of its own per sandbox, its CPU counted and
  held to one core, its share of the cores by
  whose work it does (:class:`Priority`: games first, builds last);
- :mod:`~adjacency.sandbox.accounting`: the CPU time of a tree no cgroup counts, and each
  thread's waits for a CPU (:func:`longest_wait` between two readings).
- :mod:`~adjacency.sandbox.pressure`: how long the machine's work has waited for a CPU
  (Linux's pressure stall information), for waits that must not count it.
- :mod:`~adjacency.sandbox.stopping`: :class:`StopScope`, the sandboxes a piece of work
  started, ended together when it is stopped (a stopping server's builds).

It imports only the core's errors and :mod:`adjacency.system` (a service beside the
workers): docs/sandbox.md is its security model.
"""

from __future__ import annotations

from .accounting import Thread, longest_wait
from .available import check
from .cgroup import Priority
from .command_line import OUTPUT, SUBMISSION, TMP
from .errors import SandboxError, SandboxUnavailable
from .limits import Limits, Reason
from .oneshot import run
from .outputs import regular_files
from .process import Heard, Outcome, SandboxedProcess
from .stopping import SandboxStopped, StopScope

__all__ = [
    "OUTPUT",
    "SUBMISSION",
    "TMP",
    "Heard",
    "Limits",
    "Outcome",
    "Priority",
    "Reason",
    "SandboxError",
    "SandboxStopped",
    "SandboxUnavailable",
    "SandboxedProcess",
    "StopScope",
    "Thread",
    "check",
    "longest_wait",
    "regular_files",
    "run",
]
