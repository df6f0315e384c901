"""The ``cmd:`` bot: any program speaking the engine protocol plays behind the Bot interface.

Spec syntax (docs/protocol.md has the details)::

    cmd:COMMAND LINE
    cmd:[SETTING=VALUE;SETTING=VALUE;...] COMMAND LINE

The command line is split like a POSIX shell would (``shlex``), without a
shell. Settings, all optional:

``dir``      working directory of the program (the command is looked up there too)
``name``     the name shown for the bot (default: the engine's ``id name``)
``timeout``  seconds allowed for the handshake and for ``readyok`` (default 10)
``margin``   seconds past the move's budget before ``stop`` is sent (default 0.05)
``grace``    seconds after ``stop`` before the process group is killed (default 0.5)
``opt.ID``   sends ``setoption name ID value VALUE`` after the handshake

For example ``cmd:[dir=~/bots;opt.Hash=64] java -jar mybot.jar``.

How the engine is reached is injectable: ``ExternalBot(text, connect=...)``
takes a function from the parsed :class:`CommandSpec` to a
:class:`~adjacency.protocol.transport.Transport` (by default a process running
the command), so tests can play a scripted
:class:`~adjacency.protocol.mock.MockTransport` without any process.

Failures become :class:`~adjacency.bots.base.BotFailure` so a referee records
them: end of output or exit -> disconnection; no ``bestmove`` within the
budget plus ``margin`` -> ``stop``, ``grace``, then the process group is
killed -> time forfeit (for a move on a clock that its owner judges,
``Limit.clock``, the engine is told the budget but ``stop`` waits for the
clock's end, and an answer to ``stop`` within ``grace`` is its move: the clock's
owner decides whether it came in time); an occupied, off-board or malformed
answer -> illegal move quoting the text. A program that cannot start or finish the handshake
raises :class:`~adjacency.bots.base.BotError` (naming the command and quoting
its stderr) when the bot is made; after a failure the next game (``new_game``) restarts it.
"""

from __future__ import annotations

import contextlib
import math
import os
import shlex
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core import Position
from ..core.errors import AdjacencyError
from ..core.game import Termination
from ..core.text import is_ascii_decimal, quote
from ..protocol.client import EngineClient
from ..protocol.errors import EngineDisconnected, EngineError, EngineStarved, EngineTimeout
from ..protocol.transport import SubprocessTransport, Transport
from ..protocol.wire import BestMove, Go, Info, says_stand_in
from .base import Bot, BotError, BotFailure, BotStarved, Search, Thinking
from .registry import register

SETTINGS = ("dir", "name", "timeout", "margin", "grace")


@dataclass(frozen=True)
class CommandSpec:
    """A parsed ``cmd:`` spec: the program, its directory, timings and options to set."""

    argv: tuple[str, ...]
    cwd: str | None = None
    name: str | None = None
    timeout: float = 10.0
    margin: float = 0.05
    grace: float = 0.5
    options: dict[str, str] = field(default_factory=dict)


def parse_command_spec(text: str) -> CommandSpec:
    """Parse the text after ``cmd:``; raise :class:`BotError` quoting what is wrong."""
    usage = "expected 'cmd:COMMAND' or 'cmd:[dir=PATH;name=NAME;opt.ID=VALUE;...] COMMAND'"
    rest = text.strip()
    settings: dict[str, str] = {}
    options: dict[str, str] = {}
    if rest.startswith("["):
        close = rest.find("]")
        if close < 0:
            raise BotError(
                f"cmd spec {quote(text)}: the settings block has no closing ']'; {usage}"
            )
        block, rest = rest[1:close], rest[close + 1 :]
        for item in filter(None, (part.strip() for part in block.split(";"))):
            key, eq, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key:
                raise BotError(f"cmd spec {quote(text)}: expected SETTING=VALUE, got {quote(item)}")
            if key.startswith("opt.") and len(key) > 4:
                options[key[4:]] = value
            elif key in SETTINGS:
                settings[key] = value
            else:
                raise BotError(
                    f"cmd spec {quote(text)}: unknown setting {quote(key)}; accepted: "
                    f"{', '.join(SETTINGS)}, opt.<option id>"
                )
    try:
        argv = tuple(shlex.split(rest))
    except ValueError as exc:
        raise BotError(f"cmd spec {quote(text)}: cannot split the command line: {exc}") from None
    if not argv:
        raise BotError(f"cmd spec {quote(text)} names no program; {usage}")
    cwd = None
    if "dir" in settings:
        cwd = os.path.expanduser(settings["dir"])
        if not os.path.isdir(cwd):
            raise BotError(
                f"cmd spec {quote(text)}: dir {quote(settings['dir'])} is not a directory"
            )
    timings: dict[str, float] = {}
    for key in ("timeout", "margin", "grace"):
        if key in settings:
            seconds = float(settings[key]) if is_ascii_decimal(settings[key]) else math.nan
            if not (math.isfinite(seconds) and seconds >= 0 and (seconds > 0 or key != "timeout")):
                raise BotError(
                    f"cmd spec {quote(text)}: {key} must be a number of seconds"
                    f"{' above 0' if key == 'timeout' else ' from 0'}, got {quote(settings[key])}"
                )
            timings[key] = seconds
    return CommandSpec(argv, cwd, settings.get("name"), options=options, **timings)


def subprocess_transport(command: CommandSpec) -> Transport:
    """The default way to reach an engine: run its command line in its directory."""
    return SubprocessTransport(command.argv, command.cwd)


Connect = Callable[[CommandSpec], Transport]
"""Makes the transport to an engine from its spec; called again for each restart."""


def thinking_from_info(info: Info) -> Thinking:
    """Convert an ``info`` line (hundredths of a piece, milliseconds) to a Thinking report."""
    return Thinking(
        depth=info.depth,
        score=None if info.score is None else info.score / 100,
        nodes=info.nodes,
        pv=info.pv,
        seconds=(info.time or 0) / 1000,
        text=info.string,
    )


@register(
    "cmd",
    "an external program speaking the engine protocol: cmd:[dir=..;opt.ID=..] COMMAND",
    "external",
    raw=True,
)
class ExternalBot(Bot):
    """A :class:`Bot` played by an external engine process (see the module docstring)."""

    def __init__(self, text: str, connect: Connect = subprocess_transport) -> None:
        super().__init__()
        self.command = parse_command_spec(text)
        self.connect = connect
        self.engine: EngineClient | None = None
        self._searching = False
        self._stop_sent = False
        self._stop_lock = threading.Lock()
        self._new_game = False
        try:
            self._start()
        except EngineStarved as exc:
            raise BotStarved(str(exc)) from None
        except EngineError as exc:
            raise BotError(str(exc)) from None

    @property
    def name(self) -> str:
        """The configured name, else the engine's ``id name``, else the command."""
        identity = self.engine.identity.name if self.engine is not None else ""
        return self.command.name or identity or shlex.join(self.command.argv)

    def _start(self) -> None:
        """Start the program, shake hands and set the options; raise EngineError."""
        engine = EngineClient(self.connect(self.command))
        self.engine = engine
        engine.start()
        try:
            identity = engine.handshake(self.command.timeout)
            for option, value in self.command.options.items():
                if option not in identity.options:
                    declared = ", ".join(identity.options) or "none"
                    raise EngineError(
                        f"engine {engine.command!r} has no option {option!r} "
                        f"(it declares: {declared})"
                    )
                engine.set_option(option, value)
            engine.sync(self.command.timeout)
        except BaseException:
            engine.kill()
            raise

    def _restart(self) -> None:
        """Start a dead engine again for a new game; in mid-game its death is a loss."""
        dead = self.engine
        if dead is not None:
            if not self._new_game:
                failure = dead.failure(f"{dead.describe_exit()} between moves", EngineError)
                dead.kill()
                raise BotFailure(Termination.DISCONNECTION, str(failure))
            dead.kill()
        try:
            self._start()
        except EngineStarved as exc:  # the machine's failure: no result
            raise BotFailure(Termination.ABANDONED, str(exc)) from None
        except EngineError as exc:
            raise BotFailure(Termination.DISCONNECTION, str(exc)) from None

    def _choose(self, position: Position, search: Search) -> str:
        if self.engine is None or not self.engine.alive:
            self._restart()
        engine = self.engine
        assert engine is not None
        limit = search.limit
        soft = None if limit.time is None else search.started + limit.time + self.command.margin
        if limit.clock is not None:  # the clock's owner judges the time: stop at its end
            soft = search.started + limit.clock
        try:
            if self._new_game:
                engine.new_game()
                self._new_game = False
            engine.position(position)
            left = self.command.timeout if soft is None else soft - time.monotonic()
            try:
                engine.sync(max(0.0, left))
            except EngineTimeout:
                engine.kill()
                what = f"sent no 'readyok' before its move's deadline; {_killed(engine)}"
                raise BotFailure(Termination.TIME_FORFEIT, str(engine.failure(what))) from None
            movetime = None
            if limit.time is not None:
                movetime = max(1, int((limit.time - search.elapsed() - self.safety) * 1000))
            infinite = limit.time is None and limit.depth is None and limit.nodes is None
            self._stop_sent = False
            self._searching = True
            engine.go(Go(movetime, limit.depth, limit.nodes, infinite=infinite))
            answer = self._await_bestmove(engine, search, soft)
        except EngineTimeout as exc:  # it stopped reading its input
            engine.kill()
            raise BotFailure(Termination.TIME_FORFEIT, f"while choosing a move, {exc}") from None
        except EngineDisconnected as exc:
            engine.kill()  # whatever it left behind in its process group goes too
            raise BotFailure(Termination.DISCONNECTION, f"while choosing a move, {exc}") from None
        except BaseException as exc:
            # Interrupted mid-exchange (Ctrl-C, a referee's alarm): the engine's state is
            # unknown, so it is killed; a BotFailure has already dealt with it.
            if not isinstance(exc, BotFailure):
                engine.kill()
            raise
        finally:
            self._searching = False
        return self._judge(engine, position, answer)

    def _await_bestmove(self, engine: EngineClient, search: Search, soft: float | None) -> BestMove:
        """Read until ``bestmove``, publishing ``info``; enforce the deadline with stop and kill."""
        hard: float | None = None
        late = False
        while True:
            now = time.monotonic()
            if hard is None and (self._stop.is_set() or (soft is not None and now >= soft)):
                late = not self._stop.is_set()
                self._send_stop(engine)
                hard = now + self.command.grace
            if hard is not None and now >= hard:
                engine.kill()
                budget, clock = search.limit.time, search.limit.clock
                within = ""
                if late and clock is not None:
                    within = f"its clock's {clock:g}s and "
                elif late:
                    within = f"its {budget:g}s budget + {self.command.margin:g}s margin and "
                what = (
                    f"sent no bestmove within {within}{self.command.grace:g}s after 'stop'; "
                    f"{_killed(engine)}"
                )
                raise BotFailure(Termination.TIME_FORFEIT, str(engine.failure(what)))
            wait = (hard if hard is not None else soft if soft is not None else now + 0.1) - now
            message = engine.read_message(max(0.001, wait))
            if isinstance(message, Info):
                self._heard(message, search)
            elif isinstance(message, BestMove):
                if late and search.limit.clock is None:
                    raise BotFailure(
                        Termination.TIME_FORFEIT,
                        f"engine {engine.command!r} answered only after 'stop', "
                        f"{search.elapsed():.3f}s into a {search.limit.time:g}s budget",
                    )
                return message

    def _heard(self, info: Info, search: Search) -> None:
        """An ``info`` line of the engine during a search: its progress published (a
        stand-in mark noted: the answer to come is not the bot's own)."""
        if says_stand_in(info.string):
            self.stand_in = True
        search.publish(thinking_from_info(info))

    def _judge(self, engine: EngineClient, position: Position, answer: BestMove) -> str:
        """Return the canonical name of a legal answer; else raise an illegal-move failure."""
        text = f"bestmove {answer.move}" if answer.move is not None else "bestmove"
        if answer.move is None:
            raise BotFailure(
                Termination.ILLEGAL_MOVE,
                f"engine {engine.command!r} answered {quote(text)}: no square given",
            )
        try:
            index = position.board.square(answer.move)
            position.play(answer.move)
        except AdjacencyError as exc:
            raise BotFailure(
                Termination.ILLEGAL_MOVE, f"engine {engine.command!r} answered {quote(text)}: {exc}"
            ) from None
        return position.board.name(index)

    def _send_stop(self, engine: EngineClient) -> None:
        """Send ``stop`` once per search, whichever thread (stop() or the reader) asks first."""
        with self._stop_lock:
            if self._stop_sent:
                return
            self._stop_sent = True
        engine.stop()

    def stop(self) -> None:
        super().stop()
        if self._searching and self.engine is not None:
            with contextlib.suppress(EngineError):  # the waiting thread sees a disconnection
                self._send_stop(self.engine)

    def new_game(self) -> None:
        self._new_game = True

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


def _killed(engine: EngineClient) -> str:
    """How a killed engine is described: its process group, if it has one."""
    if engine.pid is None:
        return "it was killed"
    return f"its process group {engine.pid} was killed"
