"""A built JavaFX program run in the sandbox through its own window: :func:`fx_bot` plays
it, :func:`dry_run` reads its form.

Each run is one sandbox (:class:`~adjacency.sandbox.SandboxedProcess`) holding a private X
display and the program's JVM: a shell (:func:`command_line`) starts Xvfb with
``-nolisten tcp`` (no network in the sandbox anyway; its socket is in the sandbox's private
``/tmp``, its abstract socket in the sandbox's own network namespace), waits for it to say
its display (``-displayfd``), then runs ``java`` with the driver
(``adjacency.fxdriver.Driver``), which starts the team's main class in the same JVM and
speaks the engine protocol on the sandbox's standard input and output. JavaFX draws in
software (``prism.order=sw``); the JVM reads ``/etc/fonts`` besides what every sandbox
binds of ``/etc``. The build folder is read-only at :data:`~adjacency.sandbox.SUBMISSION`.
"""

from __future__ import annotations

import json
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

from ..bots.base import BotFailure
from ..bots.external import CommandSpec, ExternalBot
from ..core import Position
from ..protocol.client import EngineClient
from ..protocol.transport import Transport
from ..protocol.wire import BestMove
from ..sandbox import OUTPUT, SUBMISSION, Limits, Reason, SandboxedProcess, regular_files, run
from .fx_build import DRIVER_MAIN, FX_ADD_MODULES, FX_MODULES, FxBuild
from .fx_recipe import Recipe
from .java_build import BuildFailed
from .sandbox_build import JAVA

XVFB = "/usr/bin/Xvfb"
"""Debian's virtual X server (package ``xvfb``)."""

FX_BINDS = {"/etc/fonts": Path("/etc/fonts")}
"""What more of the host the JVM's JavaFX reads, read-only: the fonts' configuration."""

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
50) and the team's, and the X server, whose memory the tree's bound counts too."""

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


def command_line(main: str, driver_args: list[str]) -> list[str]:
    """The command inside the sandbox (the build folder at
    :data:`~adjacency.sandbox.SUBMISSION`): the display, then the JVM with the driver
    starting the program's class ``main``."""
    java = [
        JAVA,
        *FX_JVM_OPTIONS,
        "--module-path",
        FX_MODULES,
        "--add-modules",
        FX_ADD_MODULES,
        "-cp",
        f"{SUBMISSION}/classes:{SUBMISSION}/resources",
        DRIVER_MAIN,
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
        f"exec {shlex.join(java)}"
    )
    return ["/bin/sh", "-c", script]


def fx_bot(build: FxBuild, recipe: Recipe, limits: Limits = FX_LIMITS) -> ExternalBot:
    """The program of ``build``, played through its window by ``recipe``: a ``cmd:`` bot
    whose every game is a sandbox of its own (one game per program start). Raises what
    :class:`~adjacency.bots.external.ExternalBot` raises."""

    def connect(command: CommandSpec) -> Transport:
        return SandboxedProcess(
            command.argv, submission=build.folder, limits=limits, binds=FX_BINDS, env=FX_ENV
        )

    argv = command_line(build.main, recipe.driver_args())
    settings = f"[timeout={HANDSHAKE_SECONDS:g}]"
    return DrivenBot(f"{settings} {shlex.join(argv)}", connect)


@dataclass(frozen=True)
class DryRun:
    """What a dry run saw: the input window's ``form`` (the driver's ``form.json``: its
    title and controls) and a PNG ``picture`` of that window."""

    form: dict[str, object]
    picture: bytes


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
    its board at that move, in a check's refusal and in a game's end alike."""

    def _judge(self, engine: EngineClient, position: Position, answer: BestMove) -> str:
        try:
            return super()._judge(engine, position, answer)
        except BotFailure as failure:
            told = marked_board(engine)
            if not told:
                raise
            raise BotFailure(failure.termination, "\n".join([failure.detail, *told])) from None


def dry_run(build: FxBuild, out: Path) -> DryRun:
    """Start the program, read its input window's form and take its picture (into ``out``,
    a new folder of the server's); :class:`~adjacency.hosting.java_build.BuildFailed` saying why no
    form was read (the driver's words, the program's last lines)."""
    out.mkdir(parents=True, exist_ok=True)
    outcome = run(
        command_line(build.main, ["--dry-run", OUTPUT]),
        submission=build.folder,
        output=out,
        binds=FX_BINDS,
        env=FX_ENV,
        limits=DRY_RUN_LIMITS,
    )
    said = (outcome.stderr or b"").decode("utf-8", "replace").strip()
    if outcome.reason is not Reason.EXITED or outcome.returncode != 0:
        raise BuildFailed(f"the program's window could not be read ({outcome.describe()}):\n{said}")
    written = {path.as_posix() for path in regular_files(out)}  # never follows a link
    if not {"form.json", "window.png"} <= written:
        raise BuildFailed(f"the dry run wrote no form:\n{said}")
    form_file, picture_file = out / "form.json", out / "window.png"
    try:
        form = json.loads(form_file.read_text(encoding="utf-8"))
        picture = picture_file.read_bytes()
    except (OSError, ValueError) as exc:
        raise BuildFailed(f"the dry run wrote no form ({exc}):\n{said}") from None
    return DryRun(form, picture)
