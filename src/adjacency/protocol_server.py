"""The engine side of the protocol: serve any registered bot on a pair of text streams.

``adjacency engine`` runs :func:`serve` on standard input and output. The
calling thread reads commands while a worker thread searches, so ``isready``
is answered and ``stop`` is obeyed in the middle of a search. Every ``go``
gets exactly one ``bestmove``; a command that cannot be parsed, or comes at a
wrong time, changes nothing and is reported as ``info string error: ...``.

It serves bots, so it is a front end above them, apart from :mod:`adjacency.protocol`:
that package (the messages, the transports, the client) imports only the core, and the
``cmd:`` bot below is its client.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from .bots.base import DEFAULT_MOVE_TIME, Bot, BotError, Limit, Thinking
from .bots.lookup import entry, make_bot, parse_spec
from .bots.registry import SEED, Option
from .core import Position
from .core.errors import AdjacencyError
from .core.text import quote
from .protocol.wire import (
    Aep,
    AepOk,
    BestMove,
    Command,
    Go,
    Id,
    Info,
    IsReady,
    NewGame,
    OptionSpec,
    Quit,
    ReadyOk,
    SetOption,
    SetPosition,
    Stop,
    format_message,
    parse_command,
)

AUTHOR = "the adjacency project"
SPIN_RANGE = (-(2**31), 2**31 - 1)
"""Bounds declared for an integer option that has none of its own."""
STOP_RELAY = 0.02
"""Seconds between repeats of a ``stop`` to a bot whose search may not have started yet."""
MAX_LINE_CHARS = 1 << 16
"""Characters of one command line the engine reads; a longer line is skipped and reported
(the longest legal line, a position with every move of a 26x26 game, is about 3 000)."""
MAX_SECONDS = 7 * 24 * 3600.0
"""Longest search a ``go`` can ask for (a week): larger ``movetime`` or clock values are
cut to it, because timers refuse waits beyond ``threading.TIMEOUT_MAX``."""


def option_spec(option: Option) -> OptionSpec:
    """How a registry option is declared in the handshake."""
    if option.choices:
        return OptionSpec(option.name, "combo", str(option.default), choices=option.choices)
    if isinstance(option.default, bool):
        return OptionSpec(option.name, "check", str(option.default).lower())
    if isinstance(option.default, int):
        low = SPIN_RANGE[0] if option.minimum is None else int(option.minimum)
        high = SPIN_RANGE[1] if option.maximum is None else int(option.maximum)
        return OptionSpec(option.name, "spin", str(option.default), low, high)
    return OptionSpec(option.name, "string", str(option.default))


def info_from_thinking(thinking: Thinking) -> Info:
    """Convert a bot's report to an ``info`` message (hundredths of a piece, milliseconds)."""
    millis = int(thinking.seconds * 1000)
    nps = None
    if thinking.nodes is not None and thinking.seconds > 0:
        nps = int(thinking.nodes / thinking.seconds)
    return Info(
        depth=thinking.depth,
        score=None if thinking.score is None else round(thinking.score * 100),
        nodes=thinking.nodes,
        nps=nps,
        time=millis,
        pv=thinking.pv,
        string=thinking.text.replace("\n", " "),
    )


def limit_from_go(go: Go, position: Position) -> Limit:
    """The budget a ``go`` command gives for ``position``.

    ``movetime`` wins; otherwise the mover's clock (``xtime``/``otime``) is
    shared evenly over its remaining moves (at most 80% of it on one move);
    ``infinite``, or only ``depth``/``nodes``, means no time limit; a bare
    ``go`` gets the default of 5 seconds. Times are cut to :data:`MAX_SECONDS`.
    """
    clock = go.xtime if position.turn == "x" else go.otime
    seconds: float | None
    if go.movetime is not None:
        seconds = go.movetime / 1000
    elif go.infinite:
        seconds = None
    elif clock is not None:
        moves_left = max(1, (position.plies_left + 1) // 2)
        seconds = min(clock / moves_left, 0.8 * clock) / 1000
    elif go.depth is not None or go.nodes is not None:
        seconds = None
    else:
        seconds = DEFAULT_MOVE_TIME
    if seconds is not None:
        seconds = min(max(seconds, 0.001), MAX_SECONDS)
    return Limit(time=seconds, depth=go.depth or None, nodes=go.nodes or None)


class EngineServer:
    """Serves one bot spec over the protocol, writing replies to ``output``."""

    def __init__(self, spec: str, output: IO[str], seed: int | None = None) -> None:
        parsed = parse_spec(spec)
        self.name = parsed.name
        self.settings: dict[str, str] = dict(parsed.options)
        self.seed = seed
        self.output = output
        self.options = () if parsed.raw is not None else (*entry(self.name).options, SEED)
        self.bot: Bot = make_bot(spec, seed)
        self.bot.warm()  # before the handshake: the first go's time is the search's alone
        self.position = Position.start()
        self._write_lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._stopped = threading.Event()
        self._searching = threading.Event()
        self._closed = False
        self._finished = False

    # ------------------------------------------------------------------ output

    def send(self, line: str) -> None:
        """Write one line and flush; a closed output ends the session quietly."""
        with self._write_lock:
            self._write(line)

    def _write(self, line: str) -> None:
        if self._closed:
            return
        try:
            self.output.write(line + "\n")
            self.output.flush()
        except (OSError, ValueError):
            self._closed = True

    def report(self, text: str) -> None:
        """Send ``text`` to the controller as the string of an ``info`` message (newlines become
        spaces)."""
        self.send(format_message(Info(string=text.replace("\n", " "))))

    # ------------------------------------------------------------------ input

    @property
    def searching(self) -> bool:
        """True from ``go`` until its ``bestmove`` has been written."""
        return self._searching.is_set()

    def run(self, lines: Iterable[str]) -> None:
        """Handle every line until ``quit`` or the end of input; then stop and clean up."""
        try:
            for line in lines:
                if not self.handle(line) or self._closed:
                    break
        finally:
            self.finish()

    def handle(self, line: str) -> bool:
        """Handle one command line; ``False`` once the session should end."""
        try:
            command = parse_command(line)
        except AdjacencyError as exc:
            self.report(f"error: {exc}")
            return True
        if command is None:
            return True
        if isinstance(command, Quit):
            return False
        try:
            self._dispatch(command)
        except AdjacencyError as exc:
            self.report(f"error: {exc}")
        except Exception as exc:  # a bug must not end the session: report it and go on
            self.report(f"error: internal error on {quote(line.strip())}: {type(exc).__name__}")
        return True

    def _dispatch(self, command: Command) -> None:
        if isinstance(command, IsReady):
            self.send(format_message(ReadyOk()))
        elif isinstance(command, Stop):
            self._stopped.set()
            self.bot.stop()
        elif isinstance(command, Aep):
            self._handshake()
        elif isinstance(command, SetPosition):
            self.position = command.position
        elif self.searching:
            raise BotError(f"{line_name(command)} ignored while searching; send 'stop' first")
        elif isinstance(command, Go):
            self._go(command)
        elif isinstance(command, NewGame):
            self.bot.new_game()
        elif isinstance(command, SetOption):
            self._set_option(command)

    def _handshake(self) -> None:
        self.send(format_message(Id("name", f"adjacency {self.bot.spec}")))
        self.send(format_message(Id("author", AUTHOR)))
        for option in self.options:
            self.send(format_message(option_spec(option)))
        self.send(format_message(AepOk()))

    def _set_option(self, command: SetOption) -> None:
        wanted = command.name.lower()
        for option in self.options:
            if option.name.lower() == wanted:
                break
        else:
            known = ", ".join(o.name for o in self.options) or "none"
            raise BotError(f"{self.name} has no option {quote(command.name)}; options: {known}")
        option.parse(command.value, self.name)  # raises BotError, changing nothing
        settings = {**self.settings, option.name: command.value}
        spec = self.name + ":" + ",".join(f"{k}={v}" for k, v in settings.items())
        bot = make_bot(spec, self.seed)
        bot.warm()
        self.bot.close()
        self.bot, self.settings = bot, settings

    def _go(self, go: Go) -> None:
        position = self.position
        limit = limit_from_go(go, position)
        if self._worker is not None:
            self._worker.join()  # it has written its bestmove and is returning
        self._stopped.clear()
        self._searching.set()
        self._worker = threading.Thread(
            target=self._search, args=(position, limit, go.infinite), name="search", daemon=True
        )
        self._worker.start()

    def _search(self, position: Position, limit: Limit, infinite: bool) -> None:
        """The worker: choose a move, report thinking, answer exactly one ``bestmove``."""
        move: str | None
        if position.is_over:
            self.report(f"error: the game is over in {position.fen()!r}; no move to make")
            move = None
        else:
            done = threading.Event()
            relay = threading.Thread(target=self._relay_stop, args=(done,), daemon=True)
            relay.start()
            try:
                move = self.bot.choose_move(position, limit, self._publish)
            except Exception as exc:  # the answer must come: fall back to a legal move
                move = position.legal_moves()[0]
                self.report(f"error: {self.bot.spec} failed ({exc}); playing {move}")
            finally:
                done.set()
        if infinite:
            self._stopped.wait()
        with self._write_lock:  # no command may see the search over before its bestmove
            self._searching.clear()
            self._write(format_message(BestMove(move)))

    def _relay_stop(self, done: threading.Event) -> None:
        """Pass a ``stop`` on to the bot until its search returns.

        ``choose_move`` clears the bot's stop flag when it starts, so a ``stop``
        that arrives between ``go`` and that start (a controller that sends both
        at once) would be lost and an infinite search would never end.
        """
        while not done.is_set():
            if self._stopped.wait(STOP_RELAY):
                self.bot.stop()
                done.wait(STOP_RELAY)

    def _publish(self, thinking: Thinking) -> None:
        self.send(format_message(info_from_thinking(thinking)))

    def finish(self) -> None:
        """Stop any search, wait for its ``bestmove``, and release the bot (once)."""
        if self._finished:
            return
        self._finished = True
        self._stopped.set()
        self.bot.stop()
        if self._worker is not None:
            self._worker.join()
        self.bot.close()


def line_name(command: Command) -> str:
    """The command word of ``command`` (for messages)."""
    return type(command).__name__.lower().replace("setposition", "position")


def bounded_lines(
    stream: IO[str], overlong: Callable[[int], None], limit: int = MAX_LINE_CHARS
) -> Iterator[str]:
    """The lines of ``stream``, each at most ``limit`` characters.

    A longer line is read to its end in ``limit``-sized pieces and dropped (a
    cut line could parse as another command); ``overlong`` gets its length.
    """
    while True:
        line = stream.readline(limit)
        if not line:
            return
        if len(line) < limit or line.endswith("\n"):
            yield line
            continue
        length = len(line)
        while line and not line.endswith("\n"):
            line = stream.readline(limit)
            length += len(line)
        overlong(length)


def serve(spec: str, lines: Iterable[str], output: IO[str], seed: int | None = None) -> None:
    """Serve ``spec`` on ``lines`` (e.g. standard input) until ``quit`` or end of input."""
    EngineServer(spec, output, seed).run(lines)
