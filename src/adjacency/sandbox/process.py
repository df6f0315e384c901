"""One sandboxed process and everything it starts: :class:`SandboxedProcess`.

A long-lived program (a hosted bot speaking the engine protocol for a whole game) is
started with :meth:`~SandboxedProcess.start`, talked to over its standard input and
output (:meth:`~SandboxedProcess.send_line`, :meth:`~SandboxedProcess.read_line`), charged
with :meth:`~SandboxedProcess.cpu_seconds` and ended with :meth:`~SandboxedProcess.end`,
which returns an :class:`Outcome` saying why it ended. The class has the methods of the
engine protocol's ``Transport``, so a protocol client can drive a sandboxed engine as it
drives any program. A one-shot command (a build) is :func:`adjacency.sandbox.run`.

Ending is total: bubblewrap and every process of its tree get SIGKILL, and bubblewrap's
pid namespace dies with its init, which takes every process inside with it (a
double-forked daemon included: it cannot leave the namespace). Run as root, every process
of the sandbox's own uid is killed too and :meth:`~SandboxedProcess.end` returns only
once none is left.

CPU time is read while the program runs, so that a long-lived bot is charged per move:
from its cgroup where one could be made (:mod:`.cgroup`: every process that ran in it,
reaped or not), else from ``/proc`` through a :class:`~.accounting.Ledger` (every process
seen, by pid and start time). When the program ends by itself, ``wait4`` of bubblewrap
adds what ended between the last reading and the exit; the largest figure is kept.
The program runs under a seccomp filter (:mod:`.seccomp`: no ``ptrace``).
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import fcntl
import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NamedTuple

from ..system import proctree
from . import available, cgroup, command_line, identity, scratch, seccomp, spawner, stopping
from .accounting import Ledger, ReaderWaits, Thread, longest_wait
from .errors import SandboxError
from .limits import Limits, Reason, describe
from .monitor import MONITOR

SAID_KEPT = 8
"""How many of its last writes :meth:`SandboxedProcess.said_since` looks at: a move's
request and the few lines the server may send it before its answer."""

SAID_OPENING = 16
"""How many of a write's first bytes :meth:`SandboxedProcess.said_since` can match."""

QUEUE_LINES = 10_000
"""Lines of standard output buffered before the reader waits (and the program blocks)."""

STDERR_LINES = 200
"""Lines of standard error kept for messages: enough for a Java stack trace with its
causes (a JavaFX one runs to 60 frames and more), which a hosted program's team reads
down to its own cause (:mod:`adjacency.hosting.team_words`)."""

OUTPUT_TAIL = 64 << 10
"""Bytes of a long-lived program's standard error kept: the last ones it wrote (its
prints, its stack traces), for its team to read. That stream is drained whatever it
writes and never counts against the output limit: a program's prints never end it."""

POLL = 1.0
"""Seconds :meth:`SandboxedProcess.read_line` waits at most before it looks whether its
reader ended without room to say so."""

CHUNK = 1 << 16
"""Bytes read from a pipe at a time."""

WRITE_TIMEOUT = 10.0
"""Seconds a line may wait for room in the program's input pipe before the write fails."""

END_WAIT = 5.0
"""Seconds :meth:`SandboxedProcess.end` waits for bubblewrap to be reaped after SIGKILL."""

_EOF = object()


@dataclass
class Outcome:
    """How a sandboxed process ended. ``returncode`` is bubblewrap's exit status (the
    program's own; 128+N when the program was killed by signal N; negative when
    bubblewrap itself was killed, which ending it does). ``stdout`` holds what a
    one-shot command wrote (empty for a long-lived process, whose lines were read),
    ``stderr`` the standard error kept: a one-shot's whole, bounded by the output limit
    with its standard output; else its last :data:`OUTPUT_TAIL` bytes, whatever it
    wrote."""

    reason: Reason
    returncode: int | None
    cpu_seconds: float
    wall_seconds: float
    memory_peak: int
    output_bytes: int
    limits: Limits
    stdout: bytes = b""
    stderr: bytes = b""
    leftovers: int = 0

    def describe(self) -> str:
        """One line: how it ended and, where a limit ended it, which."""
        return describe(self.reason, self.returncode, self.limits)


@dataclass
class _Usage:
    cpu: float = 0.0
    memory: int = 0
    memory_peak: int = 0
    output: int = 0


class Heard(NamedTuple):
    """The last time a program's standard output said something: ``at``
    (``time.monotonic``, as its reader read it) and ``waited``, the seconds its reader
    waited for a CPU between the chunk's arrival and that reading (the server's part of
    the answer's way, which the program could only take for its own time; 0 for a chunk
    that filled its pipe, whose waits are in :meth:`SandboxedProcess.held_seconds`)."""

    at: float
    waited: float


class SandboxedProcess:
    """A program run in the sandbox (:mod:`adjacency.sandbox.command_line`) under ``limits``.

    ``submission`` is the folder it runs in, read-only (with the pool's uids, it and
    every folder above it must be searchable by others, its files readable by
    others). ``output``, if given, is a fresh empty folder it may write (a build's
    classes; with the pool's uids it is given to the sandbox's user): its contents are
    the program's, so the caller reads them with
    :func:`~adjacency.sandbox.regular_files`, which follows no link.
    ``binds`` adds read-only host paths (target inside -> host path), ``env``
    environment variables. ``capture`` keeps standard output as bytes (a one-shot
    command) instead of serving it line by line, and its standard error whole unless
    ``error_tail``; its standard output (and its standard error when kept whole) count
    against ``limits.output_bytes``. Otherwise, and with ``error_tail``, its standard
    error is drained, never counted, and its last :data:`OUTPUT_TAIL` bytes kept
    (:meth:`output_tail`): what a program prints never ends it.

    Thread safety: :meth:`send_line`, :meth:`cpu_seconds` and :meth:`end` may be called
    from any thread, :meth:`read_line` from the one thread that reads. Call :meth:`end`
    once done, whatever happened (it gives the sandbox's uid back); one not ended runs
    on to its wall cap and is ended at the interpreter's exit.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        submission: Path,
        limits: Limits | None = None,
        output: Path | None = None,
        binds: Mapping[str, Path] | None = None,
        env: Mapping[str, str] | None = None,
        capture: bool = False,
        write_timeout: float = WRITE_TIMEOUT,
        error_tail: bool = False,
        priority: cgroup.Priority = cgroup.Priority.GAME,
    ) -> None:
        if not argv:
            raise SandboxError("a sandboxed command must name a program")
        self.argv = list(argv)
        # Absolute: bubblewrap runs in / and resolves relative paths there.
        self.submission = Path(submission).absolute()
        self.limits = limits or Limits()
        self.output = Path(output).absolute() if output is not None else None
        self.binds = {target: Path(source).absolute() for target, source in (binds or {}).items()}
        self.env = dict(env or {})
        self.capture = capture
        self.error_tail = error_tail or not capture
        self.write_timeout = write_timeout
        self.priority = priority
        self._popen: subprocess.Popen[bytes] | None = None
        self._identity: identity.Identity | None = None
        self._lock = threading.Lock()
        self._reap_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._end_lock = threading.Lock()
        self._reason: Reason | None = None
        self._returncode: int | None = None
        self._rusage_cpu = 0.0
        self._usage = _Usage()
        self._started = 0.0
        self._began = 0.0
        self._ended_at: float | None = None
        self._lines: queue.Queue[object] = queue.Queue(QUEUE_LINES)
        self._stdout = bytearray()
        self._stderr = bytearray()
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._threads: list[threading.Thread] = []
        self._closing = threading.Event()
        self._exited = threading.Event()
        self._stdout_done = threading.Event()
        self._killed: list[tuple[int, int]] = []
        self._eof = False
        self._outcome: Outcome | None = None
        self._cpu_cap: float | None = None
        self._group: cgroup.Group | None = None
        self._tmp: Path | None = None
        self.heard = Heard(0.0, 0.0)
        """When its standard output last said something and how long its reader waited
        for a CPU to hear it (:class:`Heard`): a move's answer came then, whatever the
        server's threads took to act on it."""
        self._said: collections.deque[tuple[float, bytes]] = collections.deque(maxlen=SAID_KEPT)
        self._readers: list[ReaderWaits] = []
        self._ledger = Ledger()
        self._scope: stopping.StopScope | None = None

    # -- the Transport interface -------------------------------------------------------

    @property
    def command(self) -> str:
        """The program's command line as a shell shows it."""
        return shlex.join(self.argv)

    @property
    def pid(self) -> int | None:
        """bubblewrap's pid (outside the sandbox) once started."""
        return self._popen.pid if self._popen is not None else None

    @property
    def began(self) -> float | None:
        """When its sandbox's first process (bubblewrap) began, as the kernel records it
        (``time.monotonic``, a clock tick early at most), once started: the server's
        preparation of the sandbox before it (its folders, its identity, its filter,
        the fork of a loaded server) is not the program's."""
        return self._began if self._popen is not None else None

    @property
    def returncode(self) -> int | None:
        """bubblewrap's exit status once it has ended, else ``None``."""
        self._reap(block=False)
        return self._returncode

    @property
    def alive(self) -> bool:
        """True once started, while it runs and its output has not ended."""
        return self._popen is not None and self.returncode is None and not self._eof

    @property
    def closed(self) -> bool:
        """True once it is being ended: nothing more is sent or read."""
        return self._closing.is_set()

    @property
    def ended_at(self) -> float | None:
        """When it was stopped (``time.monotonic``: the moment the first reason was
        recorded, the server's kill or a limit's) or found to have exited; ``None`` while
        it runs. What it took to die and be reaped comes after."""
        return self._ended_at

    @property
    def reason(self) -> Reason | None:
        """Why it ended (or is being ended), ``None`` while it runs."""
        return self._reason

    def start(self) -> None:
        """Start the program in the sandbox; :class:`SandboxUnavailable` where the sandbox
        cannot start here, :class:`SandboxError` for a folder it cannot use."""
        if self._popen is not None:
            raise SandboxError(f"sandboxed {self.command!r} was already started")
        scope = stopping.current()
        if scope is not None:
            scope.check(self.command)
        available.check()
        _check_folder(self.submission, "submission")
        if self.output is not None:
            _check_folder(self.output, "output")
        who = identity.acquire()
        try:
            if who.private:
                _check_reachable(self.submission)
                if self.output is not None:
                    _check_reachable(self.output)
                    os.chown(self.output, who.uid, who.gid)
            processes = identity.process_limit(who, self.limits.processes)
            filter_fd = seccomp.filter_fd()
            try:
                self._popen = self._spawn(who, processes, filter_fd)
            finally:
                os.close(filter_fd)
        except OSError as exc:
            self._drop_group()
            identity.release(who)
            raise SandboxError(f"cannot start sandboxed {self.command!r}: {exc}") from None
        except BaseException:
            self._drop_group()
            identity.release(who, clean=False)
            raise
        self._identity = who
        self._started = time.monotonic()
        spawned = proctree.read(self._popen.pid, owner=False)
        self._began = self._started if spawned is None else proctree.began(spawned)
        popen = self._popen
        assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None
        os.set_blocking(popen.stdin.fileno(), False)
        for target, stream in (
            (self._read_stdout, popen.stdout),
            (self._read_stderr, popen.stderr),
        ):
            thread = threading.Thread(
                target=target, args=(stream,), name=f"sandbox-{popen.pid}", daemon=True
            )
            thread.start()
            self._threads.append(thread)
        MONITOR.add(self)
        # A server that exits normally ends its sandboxes; one killed takes them along
        # through bubblewrap's --die-with-parent.
        atexit.register(self.kill)
        self._scope = scope
        if scope is not None:  # its work stopped together: :mod:`.stopping`
            scope.add(self)

    def _spawn(
        self, who: identity.Identity, processes: int, filter_fd: int
    ) -> subprocess.Popen[bytes]:
        """Start the command line: in a cgroup of its own where one can be made (then
        charged by the group, :mod:`.cgroup`), else as it is (charged from ``/proc``)."""
        owner = (who.uid, who.gid) if who.private else (os.getuid(), os.getgid())
        self._tmp = scratch.make(self.limits.tmp_bytes, *owner)
        argv = command_line.command(
            self.argv,
            submission=self.submission,
            limits=self.limits,
            processes=processes,
            output=self.output,
            binds=self.binds,
            env=self.env,
            seccomp_fd=filter_fd,
            tmp=self._tmp,
            compilers=self.priority is cgroup.Priority.BUILD,
        )
        drop: dict[str, object] = (
            {"user": who.uid, "group": who.gid, "extra_groups": []} if who.private else {}
        )
        if os.access(command_line.SETPRIV, os.X_OK) or not who.private:
            self._group = cgroup.create(self.priority)
        if self._group is not None:
            # Every page it holds, its /tmp's files and memfds included, counted together.
            self._group.cap_memory(self.limits.memory_bytes + self.limits.tmp_bytes)
            user = (who.uid, who.gid) if who.private else None
            argv = command_line.enter_group(argv, self._group.entries, user)
            drop = {}
        return spawner.popen(
            args=argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd="/",
            env={"PATH": command_line.PATH},
            start_new_session=True,
            close_fds=True,
            pass_fds=(filter_fd,),
            **drop,
        )

    def _drop_group(self) -> None:
        """Remove its cgroup and unmount its ``/tmp`` (once its processes are gone)."""
        if self._group is not None:
            self._group.remove()
        if self._tmp is not None:
            scratch.remove(self._tmp)
            self._tmp = None

    def send_line(self, text: str) -> None:
        """Write one line to its standard input; :class:`OSError` once it cannot receive,
        :class:`TimeoutError` when it stopped reading for ``write_timeout`` seconds."""
        self.send_bytes((text + "\n").encode())

    def send_bytes(self, data: bytes) -> None:
        """Write ``data`` to its standard input (see :meth:`send_line`)."""
        popen = self._popen
        if popen is None or popen.stdin is None:
            raise SandboxError(f"sandboxed {self.command!r} was not started")
        if self._closing.is_set():
            raise BrokenPipeError(f"sandboxed {self.command!r} has ended")
        fd = popen.stdin.fileno()
        view = memoryview(data)
        deadline = time.monotonic() + self.write_timeout
        with self._write_lock:
            began = time.monotonic()
            while view:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"sandboxed {self.command!r} stopped reading its input")
                _, ready, _ = select.select([], [fd], [], min(left, 0.1))
                if not ready:
                    continue
                with contextlib.suppress(BlockingIOError):
                    # Read before the write: the program, woken by it, may run at once
                    # (on this CPU too) while this thread waits to read the clock.
                    began = time.monotonic()
                    view = view[os.write(fd, view) :]
            self._said.append((began, bytes(data[:SAID_OPENING])))

    def said_since(self, moment: float, opening: bytes = b"") -> float | None:
        """When the first write to its standard input made at or after ``moment``
        (``time.monotonic``) that began with ``opening`` (its first
        :data:`SAID_OPENING` bytes at most) was completed: the moment its last part was
        handed to the pipe, before which the program could not have read it all;
        ``None`` if none was. Of the last :data:`SAID_KEPT` writes."""
        return next(
            (at for at, head in list(self._said) if at >= moment and head.startswith(opening)),
            None,
        )

    def close_input(self) -> None:
        """Close its standard input (it reads end of file)."""
        if self._popen is not None and self._popen.stdin is not None:
            with contextlib.suppress(OSError):
                self._popen.stdin.close()

    def read_line(self, timeout: float | None) -> str | None:
        """The next line of its standard output (without the line end), ``None`` after
        ``timeout`` seconds, :class:`EOFError` once its output has ended."""
        if self._eof:
            raise EOFError
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            # Woken by a line, the reader's end mark, or the deadline; only a reader that
            # ended without room for its mark is looked for by the poll, seldom.
            left = POLL if deadline is None else min(POLL, deadline - time.monotonic())
            try:
                item = self._lines.get(timeout=max(left, 0))
                break
            except queue.Empty:
                # The reader ended without room for its end mark (a full queue when
                # it was ended): once the queue is drained, that is the end.
                if self._stdout_done.is_set() and self._lines.empty():
                    item = _EOF
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    return None
        if item is _EOF:
            self._eof = True
            raise EOFError
        assert isinstance(item, str)
        return item

    def wait(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for it to end; bubblewrap's exit status or ``None``."""
        if self._popen is None:
            return None
        deadline = time.monotonic() + timeout
        while self.returncode is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._exited.wait(min(left, 0.005))
        return self._returncode

    def kill(self) -> None:
        """End it and everything it started (:meth:`end`); idempotent."""
        if self._popen is not None:
            self.end()

    def stderr_tail(self, wait: float = 0.0) -> list[str]:
        """Its last standard error lines; if it ended, first wait up to ``wait`` s for them."""
        if wait and self.wait(wait) is not None:
            for thread in self._threads[1:]:
                thread.join(wait)
        return list(self._stderr_tail)

    def output_tail(self) -> bytes:
        """The last :data:`OUTPUT_TAIL` bytes of its standard error (where it is kept as a
        tail: a long-lived program's, or with ``error_tail``), so far."""
        with self._lock:
            return bytes(self._stderr)

    def describe_exit(self) -> str:
        """How it ended, naming the limit it reached (may wait briefly for the exit)."""
        self.wait(1.0)
        reason = self._reason or (Reason.EXITED if self._returncode is not None else None)
        if reason is None:
            return "closed its output but is still running"
        return describe(reason, self._returncode, self.limits)

    # -- accounting and ending ---------------------------------------------------------

    def cpu_seconds(self) -> float:
        """CPU time its whole tree has used so far (read now from ``/proc``: its own tree
        only, :func:`~adjacency.system.proctree.subtree`, where the kernel lists
        children, so a hosted bot's reading after each move does not cost a pass over
        every process of the machine; a process of the tree that reading missed is
        counted by the next one)."""
        popen = self._popen
        if popen is None:
            return 0.0
        if self._outcome is not None:
            return self._outcome.cpu_seconds
        tree = proctree.subtree(popen.pid)
        self._measure(tree if tree is not None else proctree.snapshot(owners=False))
        return max(self._usage.cpu, self._rusage_cpu)

    def thread_waits(self, pending: bool = True) -> dict[Thread, int]:
        """Nanoseconds each of its threads, of every process it ran, has waited for a CPU
        so far while ready to run (the kernel's run delay, with ``pending`` a wait still
        going on included: :meth:`~.accounting.Ledger.thread_waits`, kept per thread at
        every monitor tick and before the tree is killed, so a thread that ended still
        counts what it waited while it was seen). Unlike its group's pressure, whose
        total the kernel averages over the CPUs a thread moved between, this counts
        every second a thread waited; :func:`~.accounting.longest_wait` of two readings
        is what a move waited."""
        if self._popen is None:
            return {}
        return self._ledger.thread_waits(self._tree().values(), pending=pending)

    def stalled_seconds(self) -> float | None:
        """Seconds so far its most-waiting thread waited for a CPU (:meth:`thread_waits`,
        :func:`~.accounting.longest_wait` since its start); ``None`` before it starts."""
        if self._popen is None:
            return None
        return longest_wait({}, self.thread_waits())

    def _tree(self) -> dict[int, proctree.ProcessInfo]:
        """Its processes now: bubblewrap and its descendants (every process of the
        sandbox: a double-forked one is its pid namespace init's child)."""
        popen = self._popen
        assert popen is not None
        tree = proctree.subtree(popen.pid)
        if tree is not None:
            return tree
        snapshot = proctree.snapshot(owners=False)
        return {
            pid: snapshot[pid]
            for pid in [popen.pid, *proctree.tree(snapshot, popen.pid)]
            if pid in snapshot
        }

    @property
    def cores(self) -> float | None:
        """The cores its processes get at most together, as the kernel holds them (its
        cgroup's cap, :data:`~.cgroup.CORES`); ``None`` where none holds."""
        return self._group.quota() if self._group is not None else None

    @property
    def counted_by_group(self) -> bool:
        """True when a cgroup of its own counts its CPU time (every process, reaped or
        not); False when it is read from ``/proc`` (:class:`~.accounting.Ledger`)."""
        return self._group is not None

    def cap_cpu(self, total: float | None) -> None:
        """End it (reason :attr:`~Reason.CPU`) once its tree has used ``total`` CPU seconds
        over its life, below its limit's (``None``: its limit's only). The monitor enforces
        it at its next tick: a hosted bot's move is capped at what its clock has left
        without a watcher of its own."""
        self._cpu_cap = total

    def end(self) -> Outcome:
        """End it (if it still runs) and everything it started; release its identity.
        Returns how it ended (the same :class:`Outcome` on every later call, from any
        thread)."""
        if self._popen is None:
            raise SandboxError(f"sandboxed {self.command!r} was not started")
        with self._end_lock:
            if self._outcome is None:
                self._outcome = self._end()
            return self._outcome

    def _end(self) -> Outcome:
        """:meth:`end`'s work, done once."""
        if self._reap(block=False) is None:
            self._stop(Reason.ENDED)
            if self._reap(block=True) is None:  # not reaped within END_WAIT: bubblewrap again
                popen = self._popen
                assert popen is not None  # end() checked it
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(popen.pid, signal.SIGKILL)
                self._reap(block=True)
        else:
            # It exited by itself: its namespace's end took every process inside along.
            self._closing.set()
        MONITOR.remove(self)
        atexit.unregister(self.kill)
        if self._scope is not None:
            self._scope.discard(self)
        if self._group is not None:
            self._group.kill()  # anything that left the tree but not the group
            self._usage.cpu = max(self._usage.cpu, self._group.cpu_seconds())
            self._usage.memory_peak = max(self._usage.memory_peak, self._group.memory_peak())
        who = self._identity
        assert who is not None
        leftovers = self._leftovers()
        if identity.end_all(who) and not leftovers:
            identity.release(who)
        else:
            # Leftovers that would not die: the slot stays locked (unused) for the life
            # of this process rather than be handed to another sandbox.
            processes = proctree.snapshot()
            leftovers = max(leftovers, len(proctree.owned_by(processes, who.uid)))
        self.close_input()
        for thread in self._threads:
            thread.join(END_WAIT)
        popen = self._popen
        assert popen is not None
        for stream in (popen.stdout, popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._drop_group()
        with self._reap_lock:
            ended = self._ended_at or time.monotonic()
            return Outcome(
                reason=self._reason or Reason.ENDED,
                returncode=self._returncode,
                cpu_seconds=max(self._usage.cpu, self._rusage_cpu),
                wall_seconds=ended - self._started,
                memory_peak=self._usage.memory_peak,
                output_bytes=self._usage.output,
                limits=self.limits,
                stdout=bytes(self._stdout),
                stderr=bytes(self._stderr),
                leftovers=leftovers,
            )

    def _leftovers(self) -> int:
        """How many of the processes :meth:`_stop` killed still run after up to
        :data:`END_WAIT` s (a pid now owned by another user is another process)."""
        deadline = time.monotonic() + END_WAIT
        while True:
            processes = proctree.snapshot()
            left = [
                pid
                for pid, uid in self._killed
                if pid in processes and processes[pid].uid == uid and processes[pid].state != "Z"
            ]
            if not left or time.monotonic() > deadline:
                return len(left)
            time.sleep(0.01)

    def check(self, processes: Mapping[int, proctree.ProcessInfo], now: float) -> bool:
        """The monitor's tick: reap it if it exited, else measure and enforce the limits.
        False once it needs no more watching."""
        if self._reap(block=False) is not None:
            return False
        usage = self._measure(processes)
        cap = self.limits.cpu_seconds
        if self._cpu_cap is not None:
            cap = min(cap, self._cpu_cap)
        if usage.cpu > cap:
            self._stop(Reason.CPU)
        elif usage.memory > self.limits.memory_bytes or self._out_of_memory():
            self._stop(Reason.MEMORY)
        elif now - self._started > self.limits.wall_seconds:
            self._stop(Reason.WALL)
        return True

    def _measure(self, processes: Mapping[int, proctree.ProcessInfo]) -> _Usage:
        """Fold one ``/proc`` reading of its tree into the usage (CPU never decreases)."""
        popen = self._popen
        assert popen is not None
        members = [popen.pid, *proctree.tree(processes, popen.pid)]
        infos = [processes[pid] for pid in members if pid in processes]
        group = self._group
        # What a thread waited for a CPU is read while it lives, at every reading (no
        # group keeps it afterwards); without a group, what a process used too.
        self._ledger.thread_waits(infos)
        charged = self._ledger.add(infos) if group is None else group.cpu_seconds()
        with self._lock:
            usage = self._usage
            usage.cpu = max(usage.cpu, charged)
            if infos:
                usage.memory = proctree.resident_bytes(infos)
                usage.memory_peak = max(usage.memory_peak, usage.memory)
            return usage

    def _out_of_memory(self) -> bool:
        """Whether the kernel killed a process of its group for the group's memory
        limit (:meth:`~.cgroup.Group.oom_kills`)."""
        return self._group is not None and self._group.oom_kills() > 0

    def _stop(self, reason: Reason) -> None:
        """Record ``reason`` (the first one wins) and SIGKILL bubblewrap and its tree;
        does not wait."""
        popen = self._popen
        assert popen is not None
        with self._lock:
            if self._reason is None and self._returncode is None:
                self._reason = reason
                self._ended_at = time.monotonic()
            first = not self._closing.is_set()
            self._closing.set()
        if not first:
            return
        # bubblewrap's tree as it is now (read before bubblewrap dies, while the parent
        # links still hold; never an older reading, whose pids may have been reused),
        # then bubblewrap: its pid namespace's init dies with it (--die-with-parent)
        # and takes every process inside along.
        processes = proctree.snapshot()
        members = proctree.tree(processes, popen.pid)
        # Their last waits for a CPU, read before they die (the move's account).
        self._ledger.thread_waits(
            (processes[pid] for pid in [popen.pid, *members] if pid in processes), pending=True
        )
        who = self._identity
        if who is not None and who.private:
            # Everything of its own uid, whatever its parent.
            members += proctree.owned_by(processes, who.uid)
        self._killed = [(pid, processes[pid].uid) for pid in members if pid in processes]
        for pid in [*members, popen.pid]:
            if self._returncode is None or pid != popen.pid:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        if self._group is not None:
            self._group.kill()

    def _reap(self, *, block: bool) -> int | None:
        """Collect bubblewrap's exit status and resource usage (``wait4``) once it ended."""
        popen = self._popen
        if popen is None:
            return None
        with self._reap_lock:
            if self._returncode is not None:
                return self._returncode
            deadline = time.monotonic() + END_WAIT
            while True:  # never a blocking wait4: a bubblewrap that outlives SIGKILL
                try:  # would hold its caller for ever, past END_WAIT
                    pid, status, usage = os.wait4(popen.pid, os.WNOHANG)
                except ChildProcessError:
                    pid, status, usage = popen.pid, 0, None
                if pid:
                    break
                if not block or time.monotonic() > deadline:
                    return None
                time.sleep(0.005)
            code = os.waitstatus_to_exitcode(status)
            self._returncode = code
            popen.returncode = code  # so Popen never waits for it again
            if usage is not None:
                self._rusage_cpu = usage.ru_utime + usage.ru_stime
            if self._reason is None:
                # SIGXCPU (128+24): the kernel's per-process backstop of the CPU limit; a
                # kill by its group's memory limit: its memory.
                self._reason = (
                    Reason.CPU
                    if code == 128 + signal.SIGXCPU
                    else Reason.MEMORY
                    if self._out_of_memory()
                    else Reason.EXITED
                )
                self._ended_at = time.monotonic()
            self._exited.set()
            return code

    # -- the readers -------------------------------------------------------------------

    def _count(self, size: int) -> bool:
        """Add ``size`` bytes of output; False (and the process ended) once past the limit."""
        with self._lock:
            self._usage.output += size
            over = self._usage.output > self.limits.output_bytes
        if over:
            self._stop(Reason.OUTPUT)
        return not over

    def _chunks(self, stream: IO[bytes], counted: bool = True) -> Iterator[bytes]:
        """What ``stream`` yields, chunk by chunk, until its end or (where ``counted``) the
        output limit."""
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                return
            if not chunk or (counted and not self._count(len(chunk))):
                return
            yield chunk

    def _read_stdout(self, stream: IO[bytes]) -> None:
        partial = bytearray()
        waits = self._reader_waits(stream)
        try:
            for chunk in self._chunks(stream):
                # Its wait for a CPU once the chunk woke it: what the server added to the
                # program's answer, never what it waited on lines heard before.
                waited = waits.read(len(chunk))
                self.heard = Heard(time.monotonic(), waited)
                if self.capture:
                    self._stdout += chunk
                else:
                    partial += chunk
                    *lines, rest = partial.split(b"\n")
                    partial = bytearray(rest)
                    for line in lines:
                        if not self._offer(line.rstrip(b"\r").decode("utf-8", "replace")):
                            return
                waits.rest()
        finally:
            if partial and not self.capture:
                self._offer(partial.decode("utf-8", "replace"))
            self._offer(_EOF)
            self._stdout_done.set()

    def _reader_waits(self, stream: IO[bytes]) -> ReaderWaits:
        """The :class:`~.accounting.ReaderWaits` of the calling thread, the reader of
        ``stream``, kept for :meth:`held_seconds`."""
        waits = ReaderWaits(_full_read(stream))
        with self._lock:
            self._readers.append(waits)
        return waits

    def held_seconds(self) -> float:
        """Seconds so far its readers waited for a CPU while its pipes were full
        (:attr:`~.accounting.ReaderWaits.held`): its writes were held all that while by
        the server, not by its own choice."""
        with self._lock:
            readers = list(self._readers)
        return sum(reader.held for reader in readers) / 1e9

    def _offer(self, item: object) -> bool:
        """Queue ``item``, waiting while the queue is full; False once it is being ended."""
        while True:
            try:
                self._lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                if self._closing.is_set():
                    return False

    def _read_stderr(self, stream: IO[bytes]) -> None:
        partial = b""
        waits = self._reader_waits(stream)
        for chunk in self._chunks(stream, counted=not self.error_tail):
            waits.read(len(chunk))
            with self._lock:
                self._stderr += chunk
                if self.error_tail and len(self._stderr) > OUTPUT_TAIL:
                    del self._stderr[: len(self._stderr) - OUTPUT_TAIL]  # a ring: its tail
            *lines, partial = (partial + chunk).split(b"\n")
            partial = partial[-CHUNK:]
            for line in lines[-STDERR_LINES:]:
                self._stderr_tail.append(line.decode("utf-8", "replace")[:1000])
            waits.rest()
        if partial:
            self._stderr_tail.append(partial.decode("utf-8", "replace")[:1000])


def _full_read(stream: IO[bytes]) -> int:
    """The size of a read of ``stream`` that found its pipe full (its writer blocked):
    :data:`CHUNK`, or the pipe's capacity where it is less."""
    try:
        return min(CHUNK, fcntl.fcntl(stream.fileno(), fcntl.F_GETPIPE_SZ))
    except OSError:
        return CHUNK


def _check_folder(path: Path, what: str) -> None:
    if not path.is_dir():
        raise SandboxError(f"the sandbox's {what} folder {str(path)!r} is not a folder")


def _check_reachable(path: Path) -> None:
    """The pool's users are not the folder's owner: it and every folder above it must be
    searchable by others (bubblewrap opens it as the sandbox's user)."""
    for folder in [path.resolve(), *path.resolve().parents]:
        if not folder.stat().st_mode & 0o001:
            raise SandboxError(
                f"the sandbox's user cannot reach {str(path)!r}: {str(folder)!r} is not "
                f"searchable by others (chmod o+x {folder})"
            )
