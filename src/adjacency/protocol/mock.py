"""A scripted engine without a process, for testing controllers (docs/protocol.md).

:class:`MockTransport` is a :class:`~adjacency.protocol.transport.Transport`
that plays an engine from a script, as python-chess's ``MockTransport`` does
for UCI. The script is a list of steps, run in order:

- :meth:`~MockTransport.expect` ``(line, answers)``: the controller must send
  ``line`` next (a string, or a compiled regular expression that must match
  the whole line); the engine then answers ``answers``.
- :meth:`~MockTransport.say`: the engine writes lines unprompted.
- :meth:`~MockTransport.stderr`: the engine writes lines to its standard error.
- :meth:`~MockTransport.exit`: the engine exits (a crash when the status is
  not 0); its output ends after the lines already written.

Steps other than ``expect`` take effect as soon as the step before them has
(at :meth:`~MockTransport.start` for the leading ones), so ``expect("go",
[]).exit(1)`` is an engine that dies on ``go``. An ``expect`` without answers
followed by nothing is an engine that never answers. ``delay`` holds lines
back for that many (real) seconds after the step takes effect; lines always
come out in script order.

A line the script does not expect raises :class:`MockScriptError` (an
:class:`AssertionError`) in the sending thread and is remembered, so
:meth:`~MockTransport.assert_done` fails too even if the controller swallowed
it; ``assert_done`` also fails while steps remain. Example::

    mock = MockTransport()
    mock.expect("aep", ["id name Mock", "aepok"]).expect("isready", ["readyok"])
    with EngineClient(mock) as client:
        client.start()
        client.handshake(1.0)
        client.sync(1.0)
        mock.expect("quit")
    mock.assert_done()
"""

from __future__ import annotations

import collections
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import EngineError
from .transport import STDERR_LINES, describe_returncode

KILLED = -9
"""The status a killed mock engine reports (as if killed by SIGKILL)."""


class MockScriptError(AssertionError):
    """The controller did not follow a :class:`MockTransport`'s script."""


@dataclass(frozen=True)
class _Expect:
    line: str | re.Pattern[str]

    def matches(self, text: str) -> bool:
        if isinstance(self.line, str):
            return text == self.line
        return self.line.fullmatch(text) is not None

    def __str__(self) -> str:
        return repr(self.line) if isinstance(self.line, str) else f"/{self.line.pattern}/"


@dataclass(frozen=True)
class _Say:
    lines: tuple[str, ...]
    delay: float


@dataclass(frozen=True)
class _Stderr:
    lines: tuple[str, ...]


@dataclass(frozen=True)
class _Exit:
    status: int
    delay: float


_Step = _Expect | _Say | _Stderr | _Exit
_EOF = None


def _as_lines(lines: str | Sequence[str]) -> tuple[str, ...]:
    return (lines,) if isinstance(lines, str) else tuple(lines)


class MockTransport:
    """A scripted engine; see the module docstring. All methods are thread-safe.

    ``command`` and ``pid`` are what error messages show. ``start_error``
    makes :meth:`start` fail as a program that cannot be run does. A read
    without a timeout that would wait more than ``idle_limit`` seconds for
    output the script never gives raises :class:`MockScriptError` instead of
    hanging the test. ``sent`` lists the lines the controller sent and
    ``transcript`` the whole exchange (``> `` sent, ``< `` read).
    """

    def __init__(
        self,
        command: str = "mock-engine",
        pid: int | None = None,
        start_error: str | None = None,
        idle_limit: float = 5.0,
    ) -> None:
        self._command = command
        self._pid = pid
        self._start_error = start_error
        self.idle_limit = idle_limit
        self.sent: list[str] = []
        self.transcript: list[str] = []
        self._steps: collections.deque[_Step] = collections.deque()
        self._output: collections.deque[tuple[float, str | None]] = collections.deque()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._exit: tuple[float, int] | None = None
        self._violation: MockScriptError | None = None
        self._started = self._eof = self._killed = False
        self._matched = 0
        self._condition = threading.Condition()

    # ------------------------------------------------------------------ the script

    def expect(
        self,
        line: str | re.Pattern[str],
        answers: str | Sequence[str] = (),
        *,
        delay: float = 0.0,
    ) -> MockTransport:
        """The controller must send ``line`` next; then the engine answers ``answers``."""
        with self._condition:
            self._steps.append(_Expect(line))
        if answers:
            self.say(*_as_lines(answers), delay=delay)
        return self

    def say(self, *lines: str, delay: float = 0.0) -> MockTransport:
        """The engine writes ``lines``, ``delay`` seconds after the previous step."""
        return self._add(_Say(lines, delay))

    def stderr(self, *lines: str) -> MockTransport:
        """The engine writes ``lines`` to its standard error."""
        return self._add(_Stderr(lines))

    def exit(self, status: int = 0, *, delay: float = 0.0) -> MockTransport:
        """The engine exits with ``status`` (``delay`` seconds after the previous step)."""
        return self._add(_Exit(status, delay))

    def assert_done(self) -> None:
        """Raise :class:`MockScriptError` if the script was broken or not fully consumed."""
        with self._condition:
            if self._violation is not None:
                raise MockScriptError(str(self._violation))
            if self._steps:
                left = ", ".join(str(s) for s in self._steps if isinstance(s, _Expect))
                raise MockScriptError(
                    f"mock engine {self._command!r}: the controller stopped after "
                    f"{self._matched} expected lines; still expected: {left}"
                )

    def _add(self, step: _Step) -> MockTransport:
        with self._condition:
            self._steps.append(step)
            if self._started and not any(isinstance(s, _Expect) for s in self._steps):
                self._advance()
        return self

    def _advance(self) -> None:
        """Apply the steps up to the next ``expect`` (the lock is held)."""
        now = time.monotonic()
        while self._steps and not isinstance(self._steps[0], _Expect):
            step = self._steps.popleft()
            assert not isinstance(step, _Expect)
            if isinstance(step, _Stderr):
                self._stderr.extend(step.lines)
                continue
            if self._exit is not None:
                continue  # nothing is written after the exit
            after = max(now + step.delay, self._output[-1][0] if self._output else now)
            if isinstance(step, _Say):
                self._output.extend((after, line) for line in step.lines)
            else:
                self._exit = (after, step.status)
                self._output.append((after, _EOF))
        self._condition.notify_all()

    def _violate(self, what: str) -> MockScriptError:
        error = MockScriptError(f"mock engine {self._command!r}: {what}")
        if self._violation is None:
            self._violation = error
        return error

    # ------------------------------------------------------------------ the Transport

    @property
    def command(self) -> str:
        """The ``command`` given to the constructor (what error messages show)."""
        return self._command

    @property
    def pid(self) -> int | None:
        """The ``pid`` given to the constructor (``None``: none)."""
        return self._pid

    @property
    def returncode(self) -> int | None:
        """The scripted exit status once the mock engine has exited (negative: killed), else
        ``None``."""
        with self._condition:
            return self._returncode()

    def _returncode(self) -> int | None:
        if self._exit is not None and time.monotonic() >= self._exit[0]:
            return self._exit[1]
        return None

    @property
    def alive(self) -> bool:
        """True once started, until the script's output ends or the mock engine exits or is
        killed."""
        with self._condition:
            return self._started and not self._eof and self._returncode() is None

    @property
    def closed(self) -> bool:
        """True once :meth:`kill` has run."""
        return self._killed

    def start(self) -> None:
        """Start running the script; :class:`EngineError` if already started, or with
        ``start_error``."""
        with self._condition:
            if self._started:
                raise EngineError(f"engine {self._command!r} was already started")
            if self._start_error is not None:
                raise EngineError(f"cannot start engine {self._command!r}: {self._start_error}")
            self._started = True
            self._advance()

    def send_line(self, text: str) -> None:
        """Send one line, which must be the line the script expects next (else
        :class:`MockScriptError`); :class:`EngineError` before :meth:`start`, ``BrokenPipeError``
        once the engine has exited or was killed."""
        with self._condition:
            if not self._started:
                raise EngineError(f"engine {self._command!r} is not running")
            if self._killed or self._returncode() is not None:
                raise BrokenPipeError(f"mock engine {self._command!r} has exited")
            if not self._steps:
                raise self._violate(f"got {text!r} after the end of the script")
            expected = self._steps[0]
            assert isinstance(expected, _Expect)
            if not expected.matches(text):
                after = f" after {self.sent[-1]!r}" if self.sent else ""
                raise self._violate(f"expected {expected}{after}, got {text!r}")
            self.sent.append(text)
            self.transcript.append("> " + text)
            self._matched += 1
            self._steps.popleft()
            self._advance()

    def read_line(self, timeout: float | None) -> str | None:
        """The next scripted output line, once its time has come; ``None`` after ``timeout``
        seconds; :class:`EOFError` at the end of the script's output or after :meth:`kill`.
        Waiting without a timeout for output the script never gives raises
        :class:`MockScriptError` after ``idle_limit`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        idle_end = time.monotonic() + self.idle_limit
        with self._condition:
            while True:
                if self._eof or self._killed:
                    self._eof = True
                    raise EOFError
                now = time.monotonic()
                if self._output and self._output[0][0] <= now:
                    line = self._output.popleft()[1]
                    if line is None:
                        self._eof = True
                        raise EOFError
                    self.transcript.append("< " + line)
                    return line
                if deadline is not None and now >= deadline:
                    return None
                ends = [] if deadline is None else [deadline]
                if self._output:
                    ends.append(self._output[0][0])
                if deadline is None and not self._output:
                    if now >= idle_end:
                        raise self._violate(
                            f"the controller waited {self.idle_limit:g}s without a timeout "
                            f"for output the script never gives (after {self.transcript[-1:]})"
                        )
                    ends.append(idle_end)
                self._condition.wait(max(0.0, min(ends) - now))

    def wait(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the scripted exit; the exit status, or ``None`` if
        the engine still runs."""
        with self._condition:
            if self._exit is not None:
                self._condition.wait_for(
                    lambda: self._returncode() is not None,
                    max(0.0, min(timeout, self._exit[0] - time.monotonic())),
                )
            return self._returncode()

    def kill(self) -> None:
        """End the mock engine at once: it exits as killed (unless it had exited), its unread
        output is dropped and waiting readers wake."""
        with self._condition:
            if self._returncode() is None:
                self._exit = (time.monotonic(), KILLED)
            self._killed = True
            self._output.clear()
            self._condition.notify_all()

    def stderr_tail(self, wait: float = 0.0) -> list[str]:
        """The scripted standard error lines (``wait`` is not needed: they are all there)."""
        with self._condition:
            return list(self._stderr)

    def describe_exit(self) -> str:
        """How the mock engine ended, in the words of :func:`describe_returncode`, or
        ``was never started``."""
        if not self._started:
            return "was never started"
        return describe_returncode(self.returncode)
