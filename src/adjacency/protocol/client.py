"""The controller side of the engine protocol: one external engine, over a transport.

:class:`EngineClient` holds the conversation (docs/protocol.md): the handshake,
``isready`` with a timeout, options, positions, ``go`` and ``stop``, reading
lines and messages with timeouts, and errors that name the engine and quote
its standard error. It talks to the engine through a :class:`Transport`, a
small line channel with two implementations:

- :class:`SubprocessTransport` runs a program in its own process group (so a
  terminal's Ctrl-C does not reach it and everything it spawns can be killed
  at once), feeds its standard output to a queue from a reader thread and
  keeps the last lines of its standard error in a bounded ring buffer from
  another thread.
- :class:`~adjacency.protocol.mock.MockTransport` plays a scripted engine
  without any process, for tests.

:class:`EngineProcess` is an :class:`EngineClient` over a
:class:`SubprocessTransport`, built from a command line. No call ever blocks
without a bound except reading with ``timeout=None``, which ends at end of
file.

Every failure raises an :class:`EngineError` naming the command and quoting
the last lines of its standard error. :meth:`EngineClient.close` (also run by
``with`` and, for a process, as a safety net at interpreter exit) asks the
engine to quit, then kills its whole process group. A grandchild that leaves
the group on purpose (``setsid``) is beyond reach; closing its standard input
still tells any well-behaved program to exit.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Protocol

from ..core import Position
from ..core.errors import AdjacencyError
from .wire import (
    AepOk,
    Command,
    EngineMessage,
    Go,
    Id,
    NewGame,
    OptionSpec,
    ReadyOk,
    SetOption,
    SetPosition,
    Stop,
    format_command,
    parse_engine_line,
)

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


class EngineError(AdjacencyError):
    """An external engine failed: could not start, broke the protocol, stalled or died."""


class EngineTimeout(EngineError):
    """The engine did not send an expected answer in time."""


class EngineDisconnected(EngineError):
    """The engine's output ended or its process exited."""


@dataclass(frozen=True)
class EngineIdentity:
    """What the engine said about itself in the handshake."""

    name: str = ""
    author: str = ""
    options: dict[str, OptionSpec] = field(default_factory=dict)


class Transport(Protocol):
    """A line channel to one engine: what :class:`EngineClient` needs and nothing more.

    Contract: lines are text without their line ending. :meth:`read_line`
    returns ``None`` when nothing came within ``timeout`` seconds and raises
    :class:`EOFError` once the engine's output has ended (and on every call
    after that); :meth:`send_line` raises :class:`OSError` (or
    :class:`ValueError`) when the engine can no longer receive, and
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
    another. :meth:`kill` kills the whole process group with SIGKILL and is
    registered to run at interpreter exit while the program runs.
    """

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if not argv:
            raise EngineError("an engine command must name a program")
        self.argv = list(argv)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue(QUEUE_LINES)
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._threads: list[threading.Thread] = []
        self._write_lock = threading.Lock()
        self._closing = threading.Event()
        self._eof = False

    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        return self._process.poll() if self._process is not None else None

    @property
    def alive(self) -> bool:
        return self._process is not None and self.returncode is None and not self._eof

    @property
    def closed(self) -> bool:
        return self._closing.is_set()

    def start(self) -> None:
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
        assert process.stdout is not None and process.stderr is not None
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
        """Kill the whole process group at once and release the pipes and threads."""
        process = self._process
        if process is None or self._closing.is_set():
            return
        self._closing.set()
        atexit.unregister(self.kill)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            process.wait(5)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        for thread in self._threads:
            thread.join(1.0)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def wait(self, timeout: float) -> int | None:
        if self._process is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout)
        return self._process.returncode

    def _read_stdout(self, stream: IO[bytes]) -> None:
        try:
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                while not self._closing.is_set():
                    try:
                        self._lines.put(line, timeout=POLL)
                        break
                    except queue.Full:
                        continue
                if self._closing.is_set():
                    return
        except (OSError, ValueError):
            pass
        while not self._closing.is_set():
            try:
                self._lines.put(_EOF, timeout=POLL)
                return
            except queue.Full:
                continue

    def _read_stderr(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                self._stderr.append(raw.decode("utf-8", errors="replace").rstrip("\r\n"))

    def stderr_tail(self, wait: float = 0.0) -> list[str]:
        if wait > 0 and len(self._threads) > 1 and self.returncode is not None:
            self._threads[1].join(wait)  # collect the stderr of a process that exited
        return list(self._stderr)

    def describe_exit(self) -> str:
        if self._process is None:
            return "was never started"
        return describe_returncode(self.wait(EXIT_WAIT))

    def send_line(self, text: str) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise EngineError(f"engine {self.command!r} is not running")
        with self._write_lock:
            process.stdin.write(text.encode() + b"\n")
            process.stdin.flush()

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


class EngineClient:
    """The conversation with one engine over a :class:`Transport` (docs/protocol.md).

    Use as a context manager or call :meth:`close`. Methods are meant for one
    controlling thread, except :meth:`send` (and so ``stop``), which is
    thread-safe if the transport's ``send_line`` is.
    """

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.identity = EngineIdentity()
        self._started = False

    # ------------------------------------------------------------------ lifecycle

    @property
    def command(self) -> str:
        """The command line as a shell would show it."""
        return self.transport.command

    @property
    def pid(self) -> int | None:
        """The engine's process id (also its process group id), once started."""
        return self.transport.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has exited (negative: killed by a signal)."""
        return self.transport.returncode

    @property
    def alive(self) -> bool:
        """True while the process runs and its output has not ended."""
        return self.transport.alive

    def start(self) -> None:
        """Start the engine; raise :class:`EngineError` if it cannot be run."""
        self.transport.start()
        self._started = True

    def close(self, grace: float = 0.25) -> None:
        """Send ``quit``, wait up to ``grace`` seconds for the exit, then kill the group.

        Safe to call more than once and on an engine that already died.
        """
        if not self._started or self.transport.closed:
            return
        if self.transport.returncode is None:
            with contextlib.suppress(EngineError):
                self.send("quit")
            self.transport.wait(grace)
        self.kill()

    def kill(self) -> None:
        """Kill the engine (its whole process group) at once and release its resources."""
        self.transport.kill()

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ messages

    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote to its standard error."""
        return self.transport.stderr_tail()

    def describe_exit(self) -> str:
        """How the process ended, e.g. 'exited with status 3' (waits briefly for the exit)."""
        return self.transport.describe_exit()

    def failure(self, what: str, kind: type[EngineError] = EngineError) -> EngineError:
        """An error naming the command, saying ``what`` happened and quoting its stderr."""
        tail = self.transport.stderr_tail(EXIT_WAIT)
        text = f"engine {self.command!r} {what}"
        if tail:
            text += "; last lines of its stderr:\n  " + "\n  ".join(tail)
        else:
            text += " (it wrote nothing to stderr)"
        return kind(text)

    def send(self, line: str | Command) -> None:
        """Write one line (a text or a :mod:`~adjacency.protocol.wire` command)."""
        text = line if isinstance(line, str) else format_command(line)
        try:
            self.transport.send_line(text)
        except EngineError:
            raise
        except (OSError, ValueError):
            raise self.failure(
                f"{self.describe_exit()} (could not send {text!r})", EngineDisconnected
            ) from None

    def read_line(self, timeout: float | None) -> str | None:
        """The next output line, or ``None`` if none came within ``timeout`` seconds.

        Raises :class:`EngineDisconnected` at end of output or once the
        process has exited and everything it wrote has been read.
        """
        try:
            return self.transport.read_line(timeout)
        except EOFError:
            raise self.failure(self.describe_exit(), EngineDisconnected) from None

    def read_message(self, timeout: float | None) -> EngineMessage | None:
        """The next meaningful message (blank and unknown lines skipped), or ``None`` on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self.read_line(left)
            if line is None:
                return None
            message = parse_engine_line(line)
            if message is not None:
                return message

    # ------------------------------------------------------------------ requests

    def handshake(self, timeout: float) -> EngineIdentity:
        """Send ``aep`` and collect ``id`` and ``option`` lines until ``aepok``."""
        name = author = ""
        options: dict[str, OptionSpec] = {}
        self.send("aep")
        deadline = time.monotonic() + timeout
        while True:
            try:
                message = self.read_message(deadline - time.monotonic())
            except EngineDisconnected:
                raise self.failure(
                    f"{self.describe_exit()} during the handshake (before 'aepok')",
                    EngineDisconnected,
                ) from None
            if message is None:
                raise self.failure(f"sent no 'aepok' within {timeout:g}s of 'aep'", EngineTimeout)
            if isinstance(message, Id):
                if message.field == "name":
                    name = message.value
                else:
                    author = message.value
            elif isinstance(message, OptionSpec):
                options[message.name] = message
            elif isinstance(message, AepOk):
                self.identity = EngineIdentity(name, author, options)
                return self.identity

    def sync(self, timeout: float | None) -> None:
        """Send ``isready`` and discard everything until ``readyok``.

        Used before each search, this drops anything the engine said late
        (extra ``info`` or a second ``bestmove`` after ``stop``).
        """
        self.send("isready")
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            message = self.read_message(left)
            if isinstance(message, ReadyOk):
                return
            if message is None:
                raise self.failure(
                    f"sent no 'readyok' within {timeout:g}s of 'isready'", EngineTimeout
                )

    def set_option(self, name: str, value: str) -> None:
        """Send ``setoption name <name> value <value>``."""
        self.send(SetOption(name, value))

    def new_game(self) -> None:
        """Send ``newgame``."""
        self.send(NewGame())

    def position(self, start: Position, moves: Sequence[str] = ()) -> None:
        """Send ``position fen <start> [moves ...]``."""
        self.send(SetPosition(start, tuple(moves)))

    def go(self, go: Go) -> None:
        """Send ``go ...``; read the answer with :meth:`read_message`."""
        self.send(go)

    def stop(self) -> None:
        """Send ``stop`` (thread-safe: may be called while another thread reads)."""
        self.send(Stop())


class EngineProcess(EngineClient):
    """An :class:`EngineClient` over a :class:`SubprocessTransport`: one engine program.

    ``argv`` is run directly (no shell) in ``cwd`` with ``env``; :meth:`start` starts it.
    """

    transport: SubprocessTransport

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(SubprocessTransport(argv, cwd, env))
        self.argv = self.transport.argv
        self.cwd = cwd
        self.env = self.transport.env

    def __enter__(self) -> EngineProcess:
        return self
