"""A hosted bot as a :class:`~adjacency.bots.Bot`: :func:`hosted_bot`.

The ``cmd:`` bot (:class:`~adjacency.bots.external.ExternalBot`: the engine protocol, its
timing, its judgement of answers) over a transport that runs the built submission in the
sandbox: one :class:`~adjacency.sandbox.SandboxedProcess` for a whole game, its class
folder (a Java build) or its program's folder (Python, JavaScript) read-only, under its
kind's limits and command (:data:`~.kinds.KINDS`). A hosted
bot never gets a stand-in move: a late answer is the referee's time loss, a crash a
crash (the kit's runner sends nothing for a bot that has not answered).

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
from ..protocol.transport import Transport
from ..sandbox import Limits, Priority, SandboxedProcess
from .kinds import KINDS, command_line
from .sandbox_build import HostedBuild

HANDSHAKE_SECONDS = 20.0
"""Seconds a hosted bot has to start its JVM and answer the handshake."""


def hosted_bot(
    classes: Path,
    bot: str,
    args: list[str],
    limits: Limits | None = None,
    kind: str = "java",
    priority: Priority = Priority.GAME,
) -> ExternalBot:
    """The bot of a built submission (its folder ``classes``: a Java build's classes,
    or a program's files; ``bot``: the runner's class, or the program's entry file; with
    ``args``), each game in a sandbox of its own (its kind's limits, :data:`~.kinds.KINDS`, unless
    told), doing ``priority``'s work (a game's, or a check's: its share of the cores).
    Raises :class:`~adjacency.bots.BotError` when it cannot start or shake hands,
    and :class:`~adjacency.sandbox.SandboxUnavailable` where no sandbox can start."""
    bounds = KINDS[kind].limits if limits is None else limits

    def connect(command: CommandSpec) -> Transport:
        return SandboxedProcess(
            command.argv,
            submission=classes,
            limits=bounds,
            binds=KINDS[kind].binds,
            env=KINDS[kind].env,
            priority=priority,
        )

    settings = f"[timeout={HANDSHAKE_SECONDS:g}]"
    player = KINDS[kind].player
    return player(f"{settings} {shlex.join(command_line(bot, args, kind))}", connect)


CHOICE = "bot.json"
"""The file of a build folder naming its kind, its class or program folder, bot and
arguments."""


@dataclass(frozen=True)
class Choice:
    """What an accepted build plays: its folder (classes, or a program's files), the
    runner's bot class or the program's entry file, arguments, and its ``kind``
    (``java``, ``python``, ``javascript``)."""

    classes: Path
    bot: str
    args: list[str]
    kind: str = "java"

    @classmethod
    def of(cls, built: HostedBuild) -> Choice:
        """What a build in the sandbox plays."""
        return cls(built.folder, built.bot, built.args, built.kind)

    def bot_now(self, priority: Priority = Priority.GAME) -> ExternalBot:
        """Its bot, started now (:func:`hosted_bot`), for a game unless told
        (``priority``)."""
        return hosted_bot(self.classes, self.bot, self.args, kind=self.kind, priority=priority)

    def bot_checked(self) -> ExternalBot:
        """Its bot, started now for the check before it plays (a check's share of the
        cores, :attr:`~adjacency.sandbox.Priority.CHECK`)."""
        return self.bot_now(Priority.CHECK)


def save_choice(folder: Path, choice: Choice) -> None:
    """Keep ``choice`` in ``folder`` (the build folder its class or program folder is in)."""
    classes = choice.classes.relative_to(folder).as_posix()
    data = {"kind": choice.kind, "classes": classes, "bot": choice.bot, "args": choice.args}
    (folder / CHOICE).write_text(json.dumps(data), encoding="utf-8")


def load_choice(folder: Path) -> Choice | None:
    """The choice kept in ``folder``, or ``None`` when the folder holds no build (removed,
    or a league file restored on another machine)."""
    try:
        data = json.loads((folder / CHOICE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    classes = folder / str(data["classes"])
    kind = str(data.get("kind", "java"))  # builds kept before other kinds were built
    if not classes.is_dir() or kind not in KINDS:
        return None
    return Choice(classes, str(data["bot"]), [str(a) for a in data["args"]], kind)
