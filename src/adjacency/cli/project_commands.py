"""The ``project`` command: build a course project (a folder or a zip) into a bot.

``adjacency project build PATH`` takes the project as the team has it, says what it left
out, compiles the rest with the Java kit and prints the ``cmd:`` spec that plays the bot;
``adjacency project kit`` prints where the Java kit's sources are, for a bot of one's own.
A program of another language (:data:`adjacency.hosting.languages.PROGRAMS`, chosen as the
league chooses, by its manifest or its files) has nothing to build here: the command
refuses it with the ``adjacency connect`` line that runs it as it is.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..hosting.intake import Intake


def register(commands: Any) -> None:
    """Add the ``project`` subcommand with its ``build`` and ``kit`` actions."""
    from ..hosting.languages import PROGRAMS, in_words

    programs = in_words(PROGRAMS)
    project = commands.add_parser(
        "project",
        help=f"build a Java course project (folder or zip) into a bot; a {programs} "
        "program needs no build here",
        description="Build a course project written for the course's JavaFX game window, "
        "unedited, into a bot that plays over the engine protocol "
        f"(docs/tutorials/course-bot.md). A {programs} program (by its "
        "adjacency-bot.json or its files, as the league chooses) has nothing to build here: "
        "'build' names the 'adjacency connect' line that runs it as it is.",
    )
    actions = project.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser(
        "build",
        help="compile a project and print the cmd: spec that plays its bot",
        description="Take a folder or a .zip (at most 5 MB zipped, 50 MB unpacked, 2000 "
        "files; no links, devices, absolute or '..' names), compile its Java sources "
        "but those that need JavaFX beyond the stand-ins, find the bot (a class with "
        "'int[] move(...)'; adjacency-bot.json or --bot chooses among several) and print "
        "the cmd: spec that plays it. Binaries (jars, DLLs, class files) are never loaded.",
    )
    build.add_argument("path", type=Path, help="the project: a folder or a .zip file")
    build.add_argument(
        "--out",
        type=Path,
        default=Path("adjacency-build"),
        help="folder for the build (src/, classes/); replaced if an earlier build made it",
    )
    build.add_argument("--bot", help="the bot's class (e.g. bots.MinimaxBot), as in the manifest")
    build.add_argument(
        "--arg",
        action="append",
        default=[],
        metavar="VALUE",
        help="an argument of the bot (repeatable; with --bot), as the manifest's 'args'",
    )
    build.set_defaults(handler=run_build)
    kit = actions.add_parser(
        "kit",
        help="print the folder of the Java kit's sources",
        description="Print the folder of the Java kit's sources (the runner adjacency.kit.Main, "
        "the Bot interface, the example bots, the JavaFX stand-ins), to compile a bot of "
        "one's own with them.",
    )
    kit.set_defaults(handler=run_kit)


def run_build(args: argparse.Namespace) -> int:
    """Take the project in, build it, print what was left out and the ``cmd:`` spec."""
    from ..core.errors import InvalidSettingsError
    from ..hosting.fx_build import is_program
    from ..hosting.intake import take_in
    from ..hosting.java_build import BotNotChosen, build

    if args.arg and not args.bot:
        raise InvalidSettingsError("--arg goes with --bot (the manifest has its own 'args')")
    intake = take_in(args.path)
    if not args.bot:
        refuse_program(intake, args.path)
    try:
        built = build(intake, args.out.resolve(), args.bot, args.arg)
    except BotNotChosen as exc:
        if not is_program(intake.of(".java")):
            if "; choose one in " in str(exc):  # this command has --bot besides the manifest
                raise BotNotChosen(f"{exc}\nhere --bot CLASS chooses it too") from None
            raise
        raise BotNotChosen(
            f"{exc}\nthis project is a JavaFX program: a league plays it as it is, through "
            "its own window, where its games are 8x8 from the start (adjacency league "
            "submit URL PROJECT; docs/javafx-driver.md)"
        ) from None
    for path, why in built.selection.left_out:
        print(f"left out {path}: {why}")
    for stand_in in built.selection.stand_ins:
        print(f"stand-in {stand_in.qualified} {stand_in.path}")
    others = len(intake.left_out)
    if others:
        shown = ", ".join(intake.left_out[:8]) + (", ..." if others > 8 else "")
        print(f"left out {others} file(s) that are not Java sources, unread: {shown}")
    print(f"compiled {len(built.selection.kept)} source file(s) into {built.classes}")
    chosen = next((c for c in built.candidates if c.name == built.bot), None)
    print(f"bot {built.bot}: {chosen.detail if chosen else ''}")
    print(built.spec)
    return 0


def refuse_program(intake: Intake, path: Path) -> None:
    """Raise a :class:`~adjacency.hosting.sources.ProjectError` naming how to run the
    project when it is a program named by its entry file (nothing to build); return for a Java
    course project. An undecidable project is refused as the league refuses it."""
    from ..hosting.languages import LANGUAGES
    from ..hosting.scripts import choose
    from ..hosting.sources import ProjectError

    program = choose(intake)
    if program is None:
        return
    language = LANGUAGES[program.language]
    assert language.local is not None  # a program's language runs it as it is
    if path.is_dir():
        main, where = str(path.resolve() / program.main), ""
    else:
        main, where = program.main, f"unpack {path.name} and, in the folder you unpack it into, "
    wait = language.local_handshake
    settings = "" if wait is None else f"[timeout={wait:g}] "
    spec = f"cmd:{settings}" + shlex.join(language.local(main, program.args))
    raise ProjectError(
        f"this is a {language.words} program ({program.main}), not a Java course project: "
        f"nothing to build; {where}run it as it is with `adjacency connect URL {shlex.quote(spec)}`"
    )


def run_kit(args: argparse.Namespace) -> int:
    """Print the folder of the Java kit's sources."""
    from ..hosting.java_build import kit_sources

    print(kit_sources())
    return 0
