"""A hosted bot as a :class:`~adjacency.bots.Bot`: :func:`hosted_bot`.

The ``cmd:`` bot (:class:`~adjacency.bots.external.ExternalBot`: the engine protocol, its
timing, its judgement of answers) over a transport that runs the built submission in the
sandbox: one :class:`~adjacency.sandbox.SandboxedProcess` for a whole game, its class
folder read-only, under :data:`GAME_LIMITS`. A hosted bot never gets a stand-in move: a
late answer is the referee's time loss, a crash a crash (the kit's runner sends nothing
for a bot that has not answered).

A build folder keeps the bot its build chose in :data:`CHOICE` (:func:`save_choice`,
written by the server, never by the team's code), so a server that restarts plays an
accepted version without building it again (:func:`load_choice`).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..bots.external import CommandSpec, ExternalBot
from ..projects.java_build import RUNNER, Built
from ..protocol.transport import Transport
from ..sandbox import SUBMISSION, Limits, SandboxedProcess
from .sandbox_build import JAVA, JVM_OPTIONS

GAME_LIMITS = Limits(
    cpu_seconds=600.0,
    wall_seconds=3600.0,
    memory_bytes=768 << 20,
    processes=64,
    file_bytes=8 << 20,
    tmp_bytes=32 << 20,
    output_bytes=4 << 20,
)
"""What a hosted bot's process may use over one game (a 28-round game at 5 s a move is
at most 140 s of its own thinking; the CPU cap leaves room for the JVM's own threads)."""

HANDSHAKE_SECONDS = 20.0
"""Seconds a hosted bot has to start its JVM and answer the handshake."""


def command_line(bot: str, args: list[str]) -> list[str]:
    """The built bot's command inside its sandbox (its classes at :data:`SUBMISSION`)."""
    return [JAVA, *JVM_OPTIONS, "-cp", SUBMISSION, RUNNER, bot, *args]


def hosted_bot(
    classes: Path, bot: str, args: list[str], limits: Limits = GAME_LIMITS
) -> ExternalBot:
    """The bot of a built submission (its class folder ``classes``, the runner's class
    ``bot`` with ``args``), each game in a sandbox of its own
    (:data:`GAME_LIMITS` unless told). Raises :class:`~adjacency.bots.BotError` when it
    cannot start or shake hands, and :class:`~adjacency.sandbox.SandboxUnavailable` where
    no sandbox can start."""

    def connect(command: CommandSpec) -> Transport:
        return SandboxedProcess(command.argv, submission=classes, limits=limits)

    settings = f"[timeout={HANDSHAKE_SECONDS:g}]"
    return ExternalBot(f"{settings} {shlex.join(command_line(bot, args))}", connect)


CHOICE = "bot.json"
"""The file of a build folder naming its class folder, bot and arguments."""


@dataclass(frozen=True)
class Choice:
    """What an accepted build plays: its class folder, the runner's bot class, arguments."""

    classes: Path
    bot: str
    args: list[str]


def save_choice(folder: Path, built: Built) -> None:
    """Keep ``built``'s choice in ``folder`` (the build folder its class folder is in)."""
    classes = built.classes.relative_to(folder).as_posix()
    data = {"classes": classes, "bot": built.bot, "args": list(built.args)}
    (folder / CHOICE).write_text(json.dumps(data), encoding="utf-8")


def load_choice(folder: Path) -> Choice | None:
    """The choice kept in ``folder``, or ``None`` when the folder holds no build (removed,
    or a league file restored on another machine)."""
    try:
        data = json.loads((folder / CHOICE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    classes = folder / str(data["classes"])
    if not classes.is_dir():
        return None
    return Choice(classes, str(data["bot"]), [str(a) for a in data["args"]])
