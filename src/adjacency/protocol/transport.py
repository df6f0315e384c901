"""The line channel between the controller and one engine: :class:`Transport`.

:class:`~adjacency.protocol.client.EngineClient` needs only what
:class:`Transport` declares, so the conversation can run over:

- :class:`SubprocessTransport`, a program run in its own process group (so a
  terminal's Ctrl-C does not reach it and everything it spawns can be killed
  at once), its standard output fed to a bounded queue by a reader thread and
  the last lines of its standard error kept in a ring buffer by another;
- :class:`~adjacency.protocol.mock.MockTransport`, a scripted engine without
  any process, for tests.

:meth:`SubprocessTransport.kill` kills the process group and, on Linux, every
other descendant the engine has at that moment (found through ``/proc``), so a
grandchild that left the group on purpose (``setsid``) dies too. Only a
descendant already orphaned before the kill (its parent exited, so it now
belongs to init) is beyond reach. Writes never block for long: a line that
finds no room in the engine's input pipe for :data:`WRITE_TIMEOUT` seconds (an
engine that stopped reading its input) raises :class:`TimeoutError`.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, Protocol

from ..system import proctree
from .errors import EngineError

STDERR_LINES = 20
"""Lines of the engine's standard error kept for error messages."""

QUEUE_LINES = 10_000
"""Lines of output buffered before the reader stops reading (and the engine blocks)."""

MAX_LINE = 1 << 16
"""Bytes after which an overlong output line is cut into pieces."""

EXIT_WAIT = 2.0
"""Seconds to wait for a failing process to exit and for its last stderr lines."""

POLL = 0.05
"""Seconds between checks that the engine process is still running while waiting."""

WRITE_TIMEOUT = 10.0
"""Seconds a line may wait for room in the engine's input pipe before the write fails."""


class Transport(Protocol):
    """A line channel to one engine: what the client
    (:class:`~adjacency.protocol.client.EngineClient`) needs and nothing more.

    Contract: lines are text without their line ending. :meth:`read_line`
    returns ``None`` when nothing came within ``timeout`` seconds and raises
    :class:`EOFError` once the engine's output has ended (and on every call
    after that); :meth:`send_line` raises :class:`OSError` (or
    :class:`ValueError`) when the engine can no longer receive,
    :class:`TimeoutError` (an :class:`OSError`) when it stopped reading, and
    :class:`EngineError` before :meth:`start`. :meth:`send_line` and
    :meth:`kill` may be called from any thread; the rest from the one thread
    that drives the conversation. :meth:`kill` is idempotent and leaves
    nothing running.
    """

    @property
    def command(self) -> str:
        """How the engine is named in messages (a command line as a shell shows it)."""
        ...

    @property
    def pid(self) -> int | None:
        """The engine's process (and process group) id, if it has one."""
        ...

    @property
    def returncode(self) -> int | None:
        """The exit status once the engine has exited (negative: killed by that signal)."""
        ...

    @property
    def alive(self) -> bool:
        """True once started, while the engine runs and its output has not ended."""
        ...

    @property
    def closed(self) -> bool:
        """True once :meth:`kill` has run: nothing more is sent or read."""
        ...

    def start(self) -> None:
        """Start the engine; raise :class:`EngineError` if it cannot be started."""
        ...

    def send_line(self, text: str) -> None:
        """Send one line (``text`` has no newline)."""
        ...

    def read_line(self, timeout: float | None) -> str | None:
        """The next output line; ``None`` after ``timeout`` seconds; :class:`EOFError` at end."""
        ...

    def wait(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the engine to exit; its exit status or ``None``."""
        ...

    def kill(self) -> None:
        """End the engine (and everything it started) at once and release its resources."""
        ...

    def stderr_tail(self, wait: float = 0.0) -> list[str]:
        """Its last standard error lines; if it exited, first wait up to ``wait`` s for them."""
        ...

    def describe_exit(self) -> str:
        """How the engine ended, e.g. 'exited with status 3' (may wait briefly for the exit)."""
        ...


def descendants(pid: int) -> list[int]:
    """The processes descended from ``pid`` now, children first (Linux ``/proc``; elsewhere
    none are found). A process that left its parent's group or session still counts."""
    return proctree.tree(proctree.snapshot(), pid)


def describe_returncode(code: int | None) -> str:
    """'exited with status N', 'was killed by SIGKILL' or, for ``None``, still running."""
    if code is None:
        return "closed its output but is still running"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-code).name}"
    return f"exited with status {code}"


_EOF = object()


class SubprocessTransport:
    """A :class:`Transport` to a program run in its own process group.

    Its standard output is read into a bounded queue by one thread, its
    standard error into a ring buffer of :data:`STDERR_LINES` lines by
    another. :meth:`kill` kills the whole process group and every other
    descendant with SIGKILL and is registered to run at interpreter exit while
    the program runs. Its standard input is non-blocking: :meth:`send_line`
    waits at most ``write_timeout`` seconds for room in the pipe.
    """

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        write_timeout: float = WRITE_TIMEOUT,
    ) -> None:
        if not argv:
            raise EngineError("an engine command must name a program")
        self.argv = list(argv)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.write_timeout = write_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue(QUEUE_LINES)
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._threads: list[threading.Thread] = []
        self._write_lock = threading.Lock()
        self._closing = threading.Event()
        self._eof = False

    @property
    def command(self) -> str:
        """The command line as a shell shows it (``argv`` joined and quoted)."""
        return shlex.join(self.argv)

    @property
    def pid(self) -> int | None:
        """The process (and process group) id once started, else ``None``."""
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has exited (negative: killed by that signal), else
        ``None``."""
        return self._process.poll() if self._process is not None else None

    @property
    def alive(self) -> bool:
        """True once started, while the process runs and its output has not ended."""
        return self._process is not None and self.returncode is None and not self._eof

    @property
    def closed(self) -> bool:
        """True once :meth:`kill` has begun: nothing more is sent or read."""
        return self._closing.is_set()

    def start(self) -> None:
        """Run the program in a session of its own, with piped streams read by daemon threads,
        killed at interpreter exit; :class:`EngineError` if already started or it cannot be run."""
        if self._process is not None:
            raise EngineError(f"engine {self.command!r} was already started")
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,
            )
        except OSError as exc:
            where = f" in {self.cwd!r}" if self.cwd else ""
            raise EngineError(
                f"cannot start engine {self.command!r}{where}: {exc.strerror or exc}"
            ) from None
        atexit.register(self.kill)
        process = self._process
        assert process.stdin is not None
        assert process.stdout is not None and process.stderr is not None
        os.set_blocking(process.stdin.fileno(), False)
        for target, stream in (
            (self._read_stdout, process.stdout),
            (self._read_stderr, process.stderr),
        ):
            thread = threading.Thread(
                target=target, args=(stream,), name=f"engine-{process.pid}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    def kill(self) -> None:
        """Kill the process group and every other descendant; release the pipes and threads."""
        process = self._process
        if process is None or self._closing.is_set():
            return
        self._closing.set()
        atexit.unregister(self.kill)
        # Listed before the group dies: a descendant outside the group (setsid) is
        # found through its parent, which must still exist.
        strays = descendants(process.pid) if process.poll() is None else []
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        for pid in strays:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            process.wait(5)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        for thread, stream in zip(self._threads, (process.stdout, process.stderr), strict=False):
            thread.join(1.0)
            # A reader still blocked means a process we could not kill (orphaned before
            # the kill) holds the pipe open; closing the stream would wait for the
            # reader's lock, so it is left to the reader, which ends when the pipe does.
            if stream is not None and not thread.is_alive():
                with contextlib.suppress(OSError):
                    stream.close()

    def wait(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the process to exit; its exit status, or ``None``
        if it still runs or was never started."""
        if self._process is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout)
        return self._process.returncode

    def _offer(self, item: object) -> bool:
        """Queue ``item``, waiting while the queue is full; False once the transport closes."""
        while not self._closing.is_set():
            try:
                self._lines.put(item, timeout=POLL)
                return True
            except queue.Full:
                continue
        return False

    def _read_stdout(self, stream: IO[bytes]) -> None:
        try:
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                if not self._offer(raw.decode("utf-8", errors="replace").rstrip("\r\n")):
                    return
        except (OSError, ValueError):
            pass
        self._offer(_EOF)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                self._stderr.append(raw.decode("utf-8", errors="replace").rstrip("\r\n"))

    def stderr_tail(self, wait: float = 0.0) -> list[str]:
        """Its last standard error lines (at most :data:`STDERR_LINES`); if the process has
        exited, first wait up to ``wait`` seconds for the reader to collect them."""
        if wait > 0 and len(self._threads) > 1 and self.returncode is not None:
            self._threads[1].join(wait)  # collect the stderr of a process that exited
        return list(self._stderr)

    def describe_exit(self) -> str:
        """How the process ended (:func:`describe_returncode`), after waiting up to
        :data:`EXIT_WAIT` seconds for it; ``was never started`` before :meth:`start`."""
        if self._process is None:
            return "was never started"
        return describe_returncode(self.wait(EXIT_WAIT))

    def send_line(self, text: str) -> None:
        """Write ``text`` and a newline to the process's input. :class:`EngineError` if it was
        never started; ``TimeoutError`` if the pipe has no room for ``write_timeout`` seconds
        (the engine stopped reading); ``OSError`` or ``ValueError`` once the pipe is broken or
        closed."""
        process = self._process
        if process is None or process.stdin is None:
            raise EngineError(f"engine {self.command!r} is not running")
        data = memoryview(text.encode() + b"\n")
        with self._write_lock:
            fd = process.stdin.fileno()  # ValueError once closed
            deadline = time.monotonic() + self.write_timeout
            while data:
                try:
                    data = data[os.write(fd, data) :]
                    continue
                except BlockingIOError:
                    pass
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(
                        f"no room in its input pipe for {self.write_timeout:g}s: "
                        "it stopped reading its input"
                    )
                select.select([], [fd], [], min(left, POLL))

    def read_line(self, timeout: float | None) -> str | None:
        """The next output line; also :class:`EOFError` once the process has exited.

        The end comes once the process has exited and everything it wrote has
        been read, so a grandchild holding the pipe open does not hide a crash.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._eof:
                raise EOFError
            wait = POLL if deadline is None else min(POLL, deadline - time.monotonic())
            try:
                item = self._lines.get(timeout=max(0.0, wait))
            except queue.Empty:
                if self.returncode is not None and self._lines.empty():
                    # The process exited. Its last lines may still be on their way
                    # through the reader thread; if that thread does not finish, a
                    # grandchild holds the pipe open and the output is over anyway.
                    self._threads[0].join(0.2)
                    if self._lines.empty():
                        self._eof = True
                    continue
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                continue
            if item is _EOF:
                self._eof = True
                continue
            assert isinstance(item, str)
            return item
