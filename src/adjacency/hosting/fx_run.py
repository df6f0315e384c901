"""A built JavaFX program run in the sandbox through its own window: :func:`fx_bot` plays
it, :func:`dry_run` reads its form.

Each run is one sandbox (:class:`~adjacency.sandbox.SandboxedProcess`) holding a private X
display and the program's JVM: a shell (:func:`command_line`) starts Xvfb with
``-nolisten tcp`` (no network in the sandbox anyway; its socket is in the sandbox's private
``/tmp``, its abstract socket in the sandbox's own network namespace), waits for it to say
its display (``-displayfd``), then runs ``java`` with the driver
(``adjacency.fxdriver.Driver``, a named module read-only at :data:`DRIVER_PATH`:
:func:`~.fx_build.driver_module`), which starts the team's main class (on the class path)
in the same JVM and speaks the engine protocol on the sandbox's standard input and
output. The JVM gets them as descriptors 3 and 4 only: its own standard output is the
sandbox's standard error and its standard input is empty, so that what the team's code
writes to the JVM's standard output never reaches the protocol. JavaFX draws in
software (``prism.order=sw``); the JVM reads ``/etc/fonts`` besides what every sandbox
binds of ``/etc``. The build folder is read-only at :data:`~adjacency.sandbox.SUBMISSION`.

Nothing a program runs writes a folder of the server's: the dry run sends its form and
its window's picture on standard output, and in a game the driver sends a picture of the
game window on the protocol (:data:`BOARD_PNG` lines) when it tells the board at a
failure, and at the first move of a game that hangs. A move that fails carries the last
one (:attr:`~adjacency.bots.base.BotFailure.picture`), which the league keeps for the team.
"""

from __future__ import annotations

import base64
import json
import shlex
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..bots.base import BotFailure, Search
from ..bots.external import CommandSpec, ExternalBot
from ..core import Position
from ..core.game import Termination
from ..protocol.client import EngineClient
from ..protocol.transport import Transport
from ..protocol.wire import BestMove, Info
from ..sandbox import SUBMISSION, Limits, Priority, Reason, SandboxedProcess, run
from .fx_build import (
    DRIVER_MAIN,
    DRIVER_MODULE,
    FX_ADD_MODULES,
    FX_MODULES,
    FxBuild,
    driver_module,
)
from .fx_recipe import Recipe
from .java_build import BuildFailed
from .java_versions import SERVER_JAVA
from .newer_jdk import newer_binds, newer_java_command, newer_jdk, run_java
from .picture import PictureRefused, clean_png
from .sandbox_build import JAVA
from .team_words import STDERR_HEAD, told_stderr

XVFB = "/usr/bin/Xvfb"
"""Debian's virtual X server (package ``xvfb``)."""

DRIVER_PATH = "/fxdriver"
"""Where the driver's compiled module is, read-only, in a driven program's sandbox."""


class _FxBinds(Mapping[str, Path]):
    """What more of the host a driven program's sandbox binds, read-only: the fonts'
    configuration, which JavaFX reads, the driver's module at :data:`DRIVER_PATH`,
    compiled at the first run of the process that asks (:func:`~.fx_build.driver_module`;
    its Java 17 classes run on a later Java too), and the newer Java's runtime at
    :data:`~.newer_jdk.NEWER_JAVA_PATH` where the server has one (:mod:`.newer_jdk`:
    the programs built for it run on it)."""

    _FONTS = "/etc/fonts"

    def __getitem__(self, key: str) -> Path:
        if key == DRIVER_PATH:
            return driver_module()
        if key == self._FONTS:
            return Path(self._FONTS)
        return newer_binds(newer_jdk())[key]

    def _keys(self) -> tuple[str, ...]:
        return (self._FONTS, DRIVER_PATH, *newer_binds(newer_jdk()))

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


FX_BINDS: Mapping[str, Path] = _FxBinds()
"""What more of the host a driven program's sandbox binds (:class:`_FxBinds`)."""

FX_JVM_OPTIONS = (
    "-Xmx256m",
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-Xshare:auto",
    "-Dprism.order=sw",
    "-Djava.awt.headless=true",
    "-Dprism.verbose=false",
    "-XX:+DisplayVMOutputToStderr",
    "-XX:ErrorFile=/tmp/java-error.log",
)
"""The JVM's options: a bounded heap, one collector thread, a quick start, JavaFX drawn in
software, AWT (the PNG writer of the dry run) without a display, and the JVM's own
messages (a fatal error's report included) on standard error, never on the protocol's
standard output."""

FX_ENV = {"NO_AT_BRIDGE": "1", "GDK_BACKEND": "x11"}
"""GTK without the accessibility bus (there is no session bus in the sandbox)."""

FX_LIMITS = Limits(
    cpu_seconds=600.0,
    wall_seconds=3600.0,
    memory_bytes=1024 << 20,
    processes=160,
    file_bytes=8 << 20,
    tmp_bytes=64 << 20,
    output_bytes=4 << 20,
)
"""What a driven program may use over one game: the JVM with JavaFX's threads (some 30 to
50) and the team's, and the X server, whose memory the tree's bound counts too. Its
output bound is the driver's protocol's (standard output); the program's own prints go
to standard error, drained and never counted (its last 64 KiB kept)."""

DRY_RUN_LIMITS = Limits(
    cpu_seconds=60.0,
    wall_seconds=90.0,
    memory_bytes=1024 << 20,
    processes=160,
    file_bytes=8 << 20,
    tmp_bytes=64 << 20,
    output_bytes=1 << 20,
)
"""What a dry run may use (the program started, its form read, a picture taken)."""

HANDSHAKE_SECONDS = 30.0
"""Seconds a driven program has to answer the handshake (the display and the JVM start)."""


MAX_PICTURE = 256 << 10
"""Largest picture of a board kept, in bytes (a game window's PNG is some 10 to 60 KiB)."""

PNG = b"\x89PNG\r\n\x1a\n"
"""How every PNG file begins."""

BOARD_PNG = "board-png"
"""The first word of the ``info string`` lines carrying a picture of the game window:
``board-png K/N BASE64``, its K-th part of N."""


class Pictures:
    """The parts of a picture of the game window as the driver sends them
    (:data:`BOARD_PNG` lines), put together: :attr:`last` is the last whole picture, a
    PNG of at most :data:`MAX_PICTURE` bytes; parts that do not fit are dropped."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.last: bytes | None = None

    def heard(self, text: str) -> bool:
        """Take ``text`` (an ``info string``) if it is a part of a picture: whether it was."""
        words = text.split(" ", 2)
        if len(words) != 3 or words[0] != BOARD_PNG:
            return False
        number, _, total = words[1].partition("/")
        if not (number.isdecimal() and total.isdecimal()):
            self.parts = []  # no part of a picture: dropped, with those before it
            return True
        if int(number) != len(self.parts) + 1:
            self.parts = []  # out of order: start again at the next part 1
            if int(number) != 1:
                return True
        self.parts.append(words[2])
        if sum(map(len, self.parts)) > MAX_PICTURE * 4 // 3 + 4:
            self.parts = []
        elif len(self.parts) == int(total):
            try:
                data = base64.b64decode("".join(self.parts), validate=True)
            except ValueError:
                data = b""
            self.parts = []
            if data.startswith(PNG) and len(data) <= MAX_PICTURE:
                self.last = data
        return True


def command_line(main: str, driver_args: list[str]) -> list[str]:
    """The command inside the sandbox (the build folder at
    :data:`~adjacency.sandbox.SUBMISSION`, the driver's module at :data:`DRIVER_PATH`):
    the display, then the JVM with the driver starting the program's class ``main``, the
    protocol on descriptors 3 (out) and 4 (in) and the JVM's standard output on standard
    error (``--fds``; ``java.io`` opened to the driver alone, which names those
    descriptors). The team's classes see the JDK's modules as a program on the class path
    does (``ALL-DEFAULT``) and JavaFX's. A build for a newer Java
    (:meth:`~.fx_build.FxBuild.run_args`: ``driver_args`` begin with
    :data:`~.newer_jdk.JAVA_ARG`, :func:`~.newer_jdk.run_java`) runs on the newer runtime
    (:func:`~.newer_jdk.newer_java_command`), any other on the server's ``java``."""
    on, driver_args = run_java(driver_args)
    newer = on != SERVER_JAVA
    java = [
        *(newer_java_command() if newer else [JAVA]),
        *FX_JVM_OPTIONS,
        "--module-path",
        f"{FX_MODULES}:{DRIVER_PATH}",
        "--add-modules",
        f"ALL-DEFAULT,{FX_ADD_MODULES}",
        "--add-opens",
        f"java.base/java.io={DRIVER_MODULE}",
        "-cp",
        f"{SUBMISSION}/classes:{SUBMISSION}/resources",
        "-m",
        f"{DRIVER_MODULE}/{DRIVER_MAIN}",
        "--fds",
        *driver_args,
        "--",
        main,
    ]
    script = (
        "mkfifo /tmp/display || exit 1; "
        f"{XVFB} -nolisten tcp -displayfd 3 -screen 0 1280x1024x24 3>/tmp/display "
        "</dev/null >/dev/null 2>&1 & "
        "read number </tmp/display || exit 1; "
        'export DISPLAY=":$number"; '
        f"exec {shlex.join(java)} 3>&1 4<&0 1>&2 0</dev/null"
    )
    return ["/bin/sh", "-c", script]


def game_command(main: str, driver_args: list[str]) -> list[str]:
    """The command of one game of the program ``main`` (:func:`command_line`), its
    driver sending its board's pictures (:class:`Pictures`)."""
    return command_line(main, [*driver_args, "--pictures"])


def fx_bot(build: FxBuild, recipe: Recipe, limits: Limits = FX_LIMITS) -> ExternalBot:
    """The program of ``build``, played through its window by ``recipe``: a ``cmd:`` bot
    whose every game is a sandbox of its own (one game per program start). Raises what
    :class:`~adjacency.bots.external.ExternalBot` raises."""

    def connect(command: CommandSpec) -> Transport:
        return SandboxedProcess(
            command.argv, submission=build.folder, limits=limits, binds=FX_BINDS, env=FX_ENV
        )

    argv = game_command(build.main, [*build.run_args(), *recipe.driver_args()])
    settings = f"[timeout={HANDSHAKE_SECONDS:g}]"
    return DrivenBot(f"{settings} {shlex.join(argv)}", connect)


@dataclass(frozen=True)
class DryRun:
    """What a dry run saw: the input window's ``form`` (the driver's ``form.json``: its
    title and controls) and a PNG ``picture`` of that window."""

    form: dict[str, object]
    picture: bytes

    def keep(self, out: Path) -> None:
        """Keep the form and the picture in ``out`` (``form.json``, ``window.png``)."""
        out.mkdir(parents=True, exist_ok=True)
        (out / "form.json").write_text(json.dumps(self.form), encoding="utf-8")
        (out / "window.png").write_bytes(self.picture)


MARKED = "a square that was not empty"
"""The driver's words for a mark its program's bot put on a square that was not empty."""

SAID = "fxdriver: "
"""How each line the driver writes to standard error begins."""

BOARD_ROWS = 8
"""The rows of the board the driver writes after its heading (8x8)."""


def marked_board(engine: EngineClient, wait: float = 1.0) -> list[str]:
    """What the driver said of a mark its program's bot put on a square that was not
    empty: that square, then the board as the program's window shows it, a line a row
    (its own marks, ``.`` for empty), from the program's last lines of standard error
    (``engine``'s), without the driver's prefix; empty where it said nothing of the
    kind. Those lines come on another pipe than the ``bestmove``: it waits up to
    ``wait`` seconds for the board's last row."""
    deadline = time.monotonic() + wait
    while True:
        tail = engine.stderr_tail()
        marks = [i for i, line in enumerate(tail) if line.startswith(SAID) and MARKED in line]
        since = tail[marks[-1] :] if marks else []
        said = [line.removeprefix(SAID) for line in since if line.startswith(SAID)]
        if len(said) >= 2 + BOARD_ROWS or (len(said) == 2 and "could not be read" in said[1]):
            return said[: 2 + BOARD_ROWS]
        if time.monotonic() >= deadline:
            return said
        time.sleep(0.02)


class DrivenBot(ExternalBot):
    """A program played through its own window: an :class:`ExternalBot` whose illegal
    answer (a mark on a square that was not empty) is refused in the referee's words,
    then with what the driver told of it (:func:`marked_board`), so that the team reads
    its board at that move, in a check's refusal and in a game's end alike. A failed move
    carries the picture of its board the driver sent in that move (:class:`Pictures`;
    also kept as :attr:`picture`); the pictures' lines are never published as the
    search's progress."""

    picture: bytes | None = None
    """The picture the last failed move carried."""

    _pictures: Pictures
    """The pictures the driver sent in the move being made (a new one at each move's
    start, before any ``info`` line of it is heard)."""

    span: BotSpan | None = None
    """What the driver said the program's bot took at this move (:data:`SPAN`), or
    ``None``."""

    thinking: str | None = None
    """Where the driver last said, in this move, that the program was thinking
    (:data:`WHERE`: ``at its clock's end, its JavaFX thread was RUNNABLE in the program at
    MiniMax.java:130``), or ``None``."""

    def _choose(self, position: Position, search: Search) -> str:
        self._pictures = Pictures()  # this move's
        self.thinking = None
        self.span = None
        try:
            return super()._choose(position, search)
        except BotFailure as failure:
            told = failure
            thinking = self.thinking
            if thinking is not None and (
                failure.termination is Termination.TIME_FORFEIT or self._stopped_for_cpu()
            ):
                told = BotFailure(failure.termination, _with_thinking(failure.detail, thinking))
            told.picture = self.picture = self._pictures.last
            raise told from None

    def _stopped_for_cpu(self) -> bool:
        """Whether its sandbox ended it for its CPU."""
        transport = self.engine.transport if self.engine is not None else None
        return isinstance(transport, SandboxedProcess) and transport.reason is Reason.CPU

    def _heard(self, info: Info, search: Search) -> None:
        word, _, rest = info.string.partition(" ")
        if word == WHERE and rest:
            self.thinking = rest
        elif word == SPAN:
            self.span = _span(rest)
        elif not self._pictures.heard(info.string):
            super()._heard(info, search)

    def _judge(self, engine: EngineClient, position: Position, answer: BestMove) -> str:
        try:
            return super()._judge(engine, position, answer)
        except BotFailure as failure:
            told = marked_board(engine)
            if not told:
                raise
            raise BotFailure(failure.termination, "\n".join([failure.detail, *told])) from None


WHERE = "javafx-thread"
"""The first word of the ``info string`` the driver sends, while the program's bot is to
move, of where the program is thinking, worded as a lost move tells it: when (``3 s
into its move``, and ``at its clock's end`` at a ``stop``), then its JavaFX thread where
that runs the program's code, else another thread that does (``its JavaFX thread was
RUNNABLE in the program at MiniMax.java:130``, ``its thread 'pool-2-thread-1' was ...``).
Sent on the protocol, as the program's prints on standard error may bury the driver's own
lines there."""


@dataclass(frozen=True)
class BotSpan:
    """What a program's driver timed of its bot at a move, inside its sandbox
    (:data:`SPAN`): the seconds it took (:attr:`~.move_clock.MoveTime.span`) and, where
    measured, the seconds of them it waited for a CPU
    (:attr:`~.move_clock.MoveTime.span_waited`)."""

    seconds: float
    waited: float | None = None


SPAN = "bot-span"
"""The first word of the ``info string`` the driver sends before its ``bestmove``: the
seconds the program's bot took at that move (``bot-span 1.2345``), timed inside its JVM as
the course's window times a move: the time in which the program was calling its team's bot
(its threads' stacks sampled), between its showing the opponent's move and its showing its
bot's (listeners on the board's squares); the whole time between the two where the program
has no class named for a bot (docs/javafx-driver.md). The program's handling of the click
before, a pause it makes before it calls its bot, and the driver's reading after, are left
out. Where the span is the bot's calls, the driver adds the seconds in them that the
program waited for a CPU (``bot-span 0.1234 waited 0.0100``, :data:`WAITED`). The clock
uses the span as the move's wall time where it is less
(:attr:`~.move_clock.MoveTime.span`), never charging less than the CPU the program's
sandbox used: the team's code shares that JVM, and the sandbox's group stays the bound."""


WAITED = "waited"
"""The word of a :data:`SPAN` line before the seconds of the span in which the program
waited for a CPU, as its driver measured them in its sandbox
(:attr:`~.move_clock.MoveTime.span_waited`)."""


def bot_span(bot: object) -> BotSpan | None:
    """The seconds ``bot``'s driver timed its last move (:data:`SPAN`), where it is
    a program played through its window and its driver told them; else ``None``."""
    return bot.span if isinstance(bot, DrivenBot) else None


def _span(text: str) -> BotSpan | None:
    """A :data:`SPAN` line's rest (``S``, or ``S waited W``), or ``None`` where a figure is
    not a finite, non-negative number or the words are not those.

    >>> _span("1.5 waited 0.25")
    BotSpan(seconds=1.5, waited=0.25)
    >>> _span("1.5"), _span("soon"), _span("1.5 waited")
    (BotSpan(seconds=1.5, waited=None), None, None)
    """
    words = text.split()
    if len(words) == 1:
        seconds = _seconds(words[0])
        return None if seconds is None else BotSpan(seconds)
    if len(words) == 3 and words[1] == WAITED:
        seconds, waited = _seconds(words[0]), _seconds(words[2])
        if seconds is not None and waited is not None:
            return BotSpan(seconds, waited)
    return None


def _seconds(text: str) -> float | None:
    """``text`` as seconds, or ``None`` where it is not a finite, non-negative number."""
    try:
        seconds = float(text)
    except ValueError:
        return None
    return seconds if 0.0 <= seconds < float("inf") else None


def _with_thinking(detail: str, thinking: str) -> str:
    """``detail`` (a failed move's) with where the program was thinking
    (:attr:`DrivenBot.thinking`) added to its first part, before the quoted standard
    error."""
    head, quoted, tail = detail.partition(STDERR_HEAD)
    return f"{head}; {thinking}{quoted}{tail}"


def dry_run(build: FxBuild, out: Path, look: list[str] | None = None) -> DryRun:
    """Start the program, follow its windows to its board, filled by the driver's options
    ``look`` (:meth:`~.fx_recipe.Recipe.look_args`; none: as they show), and read their
    form and take the picture of its input window, which the driver sends on standard
    output (``form BASE64-JSON``, ``window BASE64-PNG``: the sandbox writes no file); the
    server keeps them in ``out`` (a new folder of its own) as ``form.json`` and
    ``window.png``, the picture decoded and drawn again (:func:`~.picture.clean_png`),
    the form with the options it was read under (``look``: what
    :meth:`~.fx_recipe.Recipe.fits` reads the bot's own move, ``bot_seen``, under).
    :class:`~adjacency.hosting.java_build.BuildFailed` saying why no form was read (the
    driver's words, the program's last lines)."""
    outcome = run(
        command_line(build.main, [*build.run_args(), *(look or []), "--dry-run"]),
        submission=build.folder,
        binds=FX_BINDS,
        env=FX_ENV,
        limits=DRY_RUN_LIMITS,
        error_tail=True,  # its prints never refuse it; the form and picture are counted
        priority=Priority.CHECK,  # read before the version plays: a check's share
    )
    said = (outcome.stderr or b"").decode("utf-8", "replace").strip()
    if outcome.reason is not Reason.EXITED or outcome.returncode != 0:
        raise BuildFailed(
            f"the program's window could not be read ({outcome.describe()}):\n{told_stderr(said)}"
        )
    sent: dict[bytes, bytes] = {}
    for line in (outcome.stdout or b"").splitlines():
        name, _, value = line.partition(b" ")
        if name in (b"form", b"window"):
            sent[name] = value
    try:
        form = json.loads(base64.b64decode(sent[b"form"], validate=True).decode("utf-8"))
        picture = base64.b64decode(sent[b"window"], validate=True)
    except (KeyError, ValueError) as exc:  # binascii.Error is a ValueError
        raise BuildFailed(f"the dry run sent no form ({exc!r}):\n{said}") from None
    if not isinstance(form, dict) or not picture.startswith(PNG):
        raise BuildFailed(f"the dry run sent no form:\n{said}")
    try:
        picture = clean_png(picture)
    except PictureRefused as exc:
        raise BuildFailed(f"the dry run's picture of the window is refused: {exc}") from None
    form["look"] = list(look or [])  # what the recipe's fit reads its bot's move under
    seen = DryRun(form, picture)
    seen.keep(out)
    return seen
