"""The controller side of the engine protocol: the conversation with one external engine.

:class:`EngineClient` holds the conversation (docs/protocol.md): the handshake,
``isready`` with a timeout, options, positions, ``go`` and ``stop``, reading
lines and messages with timeouts, and errors that name the engine and quote
its standard error. It talks to the engine through a
:class:`~adjacency.protocol.transport.Transport`
(:class:`~adjacency.protocol.transport.SubprocessTransport` for a program,
:class:`~adjacency.protocol.mock.MockTransport` for tests).

:class:`EngineProcess` is an :class:`EngineClient` over a
:class:`~adjacency.protocol.transport.SubprocessTransport`, built from a command
line. No call ever blocks without a bound except reading with ``timeout=None``,
which ends at end of file.

Every failure raises an :class:`~adjacency.protocol.errors.EngineError` naming
the command and quoting the last lines of its standard error.
:meth:`EngineClient.close` (also run by ``with`` and, for a process, as a
safety net at interpreter exit) asks the engine to quit, then kills its whole
process group.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..core import Position
from ..system.closing import Closing
from .errors import EngineDisconnected, EngineError, EngineStarved, EngineTimeout
from .transport import EXIT_WAIT, SubprocessTransport, Transport
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

STRETCH = 3.0
"""How many times its timeout a handshake is waited for at most, where the engine's
transport says how long the machine kept it from running
(:meth:`EngineClient.stalled_seconds`): its wait stretches by that time, up to this."""

STDERR_CHARS = 200
"""Characters of one standard-error line that an error message repeats."""


def cut(line: str, limit: int = STDERR_CHARS) -> str:
    """``line`` cut to ``limit`` characters (an engine may write megabytes on one line)."""
    return line if len(line) <= limit else f"{line[:limit]}... ({len(line)} characters)"


@dataclass(frozen=True)
class EngineIdentity:
    """What the engine said about itself in the handshake."""

    name: str = ""
    author: str = ""
    options: dict[str, OptionSpec] = field(default_factory=dict)


class EngineClient(Closing):
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

    # ------------------------------------------------------------------ messages

    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote to its standard error."""
        return self.transport.stderr_tail()

    def describe_exit(self) -> str:
        """How the process ended, e.g. 'exited with status 3' (waits briefly for the exit)."""
        return self.transport.describe_exit()

    def failure(self, what: str, kind: type[EngineError] = EngineError) -> EngineError:
        """An error naming the command, saying ``what`` happened and quoting its stderr."""
        tail = [cut(line) for line in self.transport.stderr_tail(EXIT_WAIT)]
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
        except TimeoutError as exc:
            raise self.failure(f"could not be sent {text!r}: {exc}", EngineTimeout) from None
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

    def _died_in_handshake(self) -> EngineError:
        return self.failure(
            f"{self.describe_exit()} during the handshake (before 'aepok')", EngineDisconnected
        )

    def stalled_seconds(self) -> float | None:
        """Seconds so far during which its transport's program was ready to run and the
        machine ran something else (a sandboxed program's group says,
        :meth:`~adjacency.sandbox.SandboxedProcess.stalled_seconds`); ``None`` where its
        transport does not measure it."""
        reader = getattr(self.transport, "stalled_seconds", None)
        value = reader() if callable(reader) else None
        return float(value) if isinstance(value, (int, float)) else None

    def handshake(self, timeout: float) -> EngineIdentity:
        """Send ``aep`` and collect ``id`` and ``option`` lines until ``aepok``, within
        ``timeout`` seconds of the engine's own: where the transport measures how long
        the machine kept it from running (:meth:`stalled_seconds`), the wait stretches
        by that, up to :data:`STRETCH` times ``timeout``; an engine still short of its
        own ``timeout`` then is :class:`~.errors.EngineStarved` (the server's failure)."""
        name = author = ""
        options: dict[str, OptionSpec] = {}
        # An engine that exits at once may be gone before 'aep' is written or after it:
        # either way it died during the handshake, and that is what is said.
        try:
            self.send("aep")
        except EngineDisconnected:
            raise self._died_in_handshake() from None
        began = time.monotonic()
        stalled_before = self.stalled_seconds()
        deadline = began + timeout
        while True:
            try:
                message = self.read_message(max(0.0, deadline - time.monotonic()))
            except EngineDisconnected:
                raise self._died_in_handshake() from None
            if message is None:
                stalled = self.stalled_seconds()
                taken = 0.0 if stalled is None else stalled - (stalled_before or 0.0)
                stretched = min(began + timeout + taken, began + STRETCH * timeout)
                if stretched > time.monotonic() + 0.01:
                    deadline = stretched
                    continue
                raise self._late_handshake(timeout, time.monotonic() - began, taken)
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

    def _late_handshake(self, timeout: float, wall: float, taken: float) -> EngineError:
        """The failure of a handshake that had no answer: the engine's own, or where the
        machine kept it from running for more than the stretch allows, the server's."""
        said = f"sent no 'aepok' within {timeout:g}s of 'aep'"
        if taken < 0.005:
            return self.failure(said, EngineTimeout)
        own = wall - taken
        figures = (
            f"{said} ({own:.1f} s of its own in {wall:.1f} s of wall time: the machine kept "
            f"it waiting for a CPU {taken:.1f} s)"
        )
        if own < timeout:
            return self.failure(figures, EngineStarved)
        return self.failure(figures, EngineTimeout)

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
