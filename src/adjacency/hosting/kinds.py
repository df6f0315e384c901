"""The kinds of program the league hosts, one table entry each: :data:`KINDS`.

A submitted program's kind says everything the server does with it, in one place: how
its sources are built in the sandbox (:attr:`ProgramKind.build`), the command that runs
the built program inside its sandbox, its folder read-only at
:data:`~adjacency.sandbox.SUBMISSION` (:attr:`ProgramKind.command`), what its process may
use over one game (:attr:`ProgramKind.limits`) and the seconds of its start that are free
(:attr:`ProgramKind.start`, which the move clock reads). The kind of each language is
made from that language's one entry (:data:`~.languages.LANGUAGES`: its sources, its
manifest's word, its entry file, its build, run command, limits, start allowance and
kit), so a language added there is a kind here with nothing else written. The check before
a version plays is the same for every kind (:mod:`.check`) but for a program played
through its window (:attr:`ProgramKind.window`), whose check is a short game with each
colour (:mod:`.fx_check`).

- ``java``: a course project compiled with ``javac`` against the kit, the bot chosen by
  the runner's inspection; played by the kit's runner with that class. Sources that
  need a later Java than the server's 17 are built and played on its newer Java where
  it has one (:mod:`.newer_jdk`).
- each language named by an entry file (:data:`~.languages.PROGRAMS`): a program speaking
  the engine protocol (the kits, one's own), checked by its language's check; played by
  its language's run command from its entry file.
- ``javafx``: a course project's own JavaFX program (its manifest asks for it, or it has
  none and its league plays windows: 8x8 games from the start), compiled against OpenJFX
  and played through its own window by the driver (:mod:`.fx_kind`).

A course project with no manifest is a program: the league plays what the team ran, its
window, where the league's games can be played there (:func:`build_submission`'s
``windows``), so no move is credited that the team's own program would not make (a
skeleton's leftover placeholder bot beside the team's is never chosen). Elsewhere (another
board, games from openings) its bot is played through the kit's adapter.

Which kind an upload is: :func:`~.scripts.choose` (its manifest, else its files);
:func:`build_submission` takes an uploaded zip through the intake to its kind's build.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..bots.external import ExternalBot
from ..sandbox import SUBMISSION, Limits
from .build_output import BUILD_BYTES, bounded_to
from .fx_build import is_program
from .fx_kind import BUILD, LANGUAGE, build_fx_submission, fx_choices, fx_command, keep_form
from .fx_run import FX_BINDS, FX_ENV, FX_LIMITS, DrivenBot
from .intake import MANIFEST, Intake, take_in
from .java_build import RUNNER, BuildFailed
from .java_versions import SERVER_JAVA
from .languages import LANGUAGES, Compiled, Language
from .newer_jdk import NEWER_BINDS, NEWER_JAVA, run_java
from .sandbox_build import JAVA, JVM_OPTIONS, HostedBuild, build_compiled, build_java, build_program
from .scripts import Program, choose, run_command


@dataclass(frozen=True)
class ProgramKind:
    """One kind of hosted program: its ``build`` (the intake's files, the chosen
    :class:`~.scripts.Program` or ``None`` for a Java project, and the output folder, to
    a :class:`~.sandbox_build.HostedBuild`; raises the build's refusal; ``None`` for a
    kind built from the whole upload, ``javafx``), its ``command`` (the built bot and its
    arguments to the argv inside its sandbox), its ``limits`` over one game, ``start``
    (the seconds of its start, from its sandbox's start to its answer to the handshake,
    that are free: what its runtime needs, :func:`~.move_clock.start_charge`), and what
    more of the host its sandbox binds read-only (``binds``), its environment (``env``)
    and the bot that plays it (``player``: a driven program's tells its board at an
    illegal answer, and carries a picture of it at a failure); ``window``: whether it is
    played through its own window (checked by a game with each colour, from the start
    position only, its window's picture kept with a refusal); ``opening``: the seconds of
    its first move that are free (the opening of its game before its bot thinks; a
    program that speaks the protocol itself opens nothing); ``build_bytes``: the most bytes
    one build of it writes, its output and its compiler's scratch files together, bounded
    while they are written (:mod:`.build_output`; the same for every kind, and nothing
    for a kind whose build writes nothing). A kind that leaves out one of the fields
    without a default fails when this module is imported."""

    name: str
    build: Callable[[Intake, Program | None, Path], HostedBuild] | None
    command: Callable[[str, list[str]], list[str]]
    limits: Limits
    start: float
    binds: Mapping[str, Path] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    player: type[ExternalBot] = ExternalBot
    window: bool = False
    opening: float = 0.0
    build_bytes: int = BUILD_BYTES


def _java_command(bot: str, args: list[str]) -> list[str]:
    """The kit's runner playing the class ``bot`` of the build at :data:`SUBMISSION`, on
    the Java it was built for (:func:`~.newer_jdk.run_java`: the server's ``java``, or the
    newer runtime's that the kind binds, :data:`~.newer_jdk.NEWER_BINDS`)."""
    java, own = run_java(args)
    runtime = JAVA if java == SERVER_JAVA else NEWER_JAVA
    return [runtime, *JVM_OPTIONS, "-cp", SUBMISSION, RUNNER, bot, *own]


def _script_command(language: str) -> Callable[[str, list[str]], list[str]]:
    """The run command of ``language`` (:attr:`~.languages.Language.run`) playing the
    entry file ``bot`` of the program's folder at :data:`SUBMISSION`."""

    def command(bot: str, args: list[str]) -> list[str]:
        return run_command(language, f"{SUBMISSION}/{bot}", args)

    return command


def _language_kind(language: Language) -> ProgramKind:
    """The kind of ``language``'s programs, made from its entry alone: a Java course
    project built by the projects' build and played by the kit's runner; a program built
    by its language's check (:class:`~.languages.Checked`) or compiler
    (:class:`~.languages.Compiled`) and played by its run command."""
    if language.build is None:
        return ProgramKind(
            language.word,
            build_java,
            _java_command,
            language.limits,
            language.start,
            NEWER_BINDS,  # the runtime of a build for the newer Java
        )
    build = build_compiled if isinstance(language.build, Compiled) else build_program
    command = _script_command(language.word)
    return ProgramKind(language.word, build, command, language.limits, language.start)


KINDS: dict[str, ProgramKind] = {
    **{name: _language_kind(language) for name, language in LANGUAGES.items()},
    # A course project's own JavaFX program, played through its window by the driver
    # under a private X display (fx_kind.py): built from the whole upload, not the intake.
    # Its start (a JVM with JavaFX, a display and the program's input window) took 5.5 to
    # 6.1 s of wall time (1.7 s of CPU, benchmarks/bench_fx_driver.py) in the sandbox on
    # the 2-core development machine at a load of 9 to 12. Its opening (the driver
    # following its forms, the program loading and drawing its board under its display),
    # measured on the course projects of benchmarks/bench_course_population.py whose bots
    # answer at once: their longest answer, the first included, took 0.39 to 0.69 s of
    # CPU (8 projects, a load of 2 to 5 on 2 cores), so the opening takes at most that.
    LANGUAGE: ProgramKind(
        LANGUAGE,
        None,
        fx_command,
        FX_LIMITS,
        8.0,
        FX_BINDS,
        FX_ENV,
        DrivenBot,
        window=True,
        opening=1.0,
    ),
}
"""Every kind the league hosts, by name (the name is stored with each build): one per
language of :data:`~.languages.LANGUAGES`, made from its entry, and ``javafx``."""

WINDOWS = tuple(name for name, kind in KINDS.items() if kind.window)
"""The kinds played through their own window (an upload's ``X-Program`` names one)."""


def through_window(kind: str) -> bool:
    """Whether a build of ``kind`` is played through its own window."""
    return kind in KINDS and KINDS[kind].window


def command_line(bot: str, args: list[str], kind: str = "java") -> list[str]:
    """The built bot's command inside its sandbox, its folder at :data:`SUBMISSION`
    (its kind's :attr:`ProgramKind.command`)."""
    return KINDS[kind].command(bot, args)


def build_submission(
    data: bytes, folder: Path, *, windows: bool, cache: Path | None = None
) -> HostedBuild:
    """Build the uploaded zip ``data`` under ``folder`` (a new, empty folder of the
    server's: ``folder/upload.zip``, ``folder/build``) by its kind's build: the intake's
    refusals (:class:`~adjacency.hosting.intake.IntakeRefused`), the choice of the kind's
    (:class:`~adjacency.hosting.sources.ProjectError`, a manifest's error) and the build's
    (:class:`~adjacency.hosting.java_build.BuildFailed`, the compiler's or checker's output
    verbatim) are raised; :class:`~adjacency.sandbox.SandboxUnavailable` where no sandbox
    can start. ``windows``: whether the league can play a program through its window (its
    games are 8x8 from the start); a JavaFX program without a manifest is then played so
    (:func:`_window`), else its bot through the kit's adapter (:func:`_adapter`).
    ``cache``: the build cache's folder (:mod:`.build_cache`) where a program played
    through its window keeps its compile, or finds it compiled."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)  # the sandbox's own users read the build below it
    upload = folder / "upload.zip"
    upload.write_bytes(data)
    choices = fx_choices(upload)
    if choices is not None:
        with bounded_to(KINDS[LANGUAGE].build_bytes):
            return build_fx_submission(upload, folder / BUILD, choices, cache)
    intake = take_in(upload)
    program = choose(intake)
    if program is None and intake.manifest is None and is_program(intake.of(".java")):
        if windows:
            with bounded_to(KINDS[LANGUAGE].build_bytes):
                return _window(upload, intake, folder / BUILD, cache)
        with bounded_to(KINDS["java"].build_bytes):
            return _adapter(intake, folder / BUILD)
    kind = "java" if program is None else program.language
    build = KINDS[kind].build
    assert build is not None  # only a program played through its window is built whole
    with bounded_to(KINDS[kind].build_bytes):
        return build(intake, program, folder / BUILD)


WINDOWS_ONLY = (
    "a program's own window is played only in a league of 8x8 games from the start, and "
    "this league's are not (its teacher switches an 8x8 league that has no games yet with "
    "`adjacency league settings --db FILE --from-start`)"
)
"""Why a JavaFX program in a league that plays no window is played by the adapter: the
first words of its refusal there, with the command that makes the league play windows."""


def _window(upload: Path, intake: Intake, out: Path, cache: Path | None) -> HostedBuild:
    """A JavaFX program with no manifest, in a league that plays windows: the program
    through its own window with its form's defaults (kind ``javafx``: the team changes its
    choice in its form, on its page). A program whose window cannot be built or read is
    refused with the window's reason and what the kit's adapter finds in the project:
    the bot a manifest would name to play it so, or the adapter's own reason."""
    try:
        return build_fx_submission(upload, out, {}, cache)
    except BuildFailed as window:
        keep_form(out, out.parent)  # its team chooses again in its form
        shutil.rmtree(out, ignore_errors=True)
        found = _adapter_finds(intake, out)
        raise BuildFailed(f"its own window cannot be played: {window}\n{found}") from None


def _adapter_finds(intake: Intake, out: Path) -> str:
    """What the kit's adapter makes of a project whose window cannot be played, in the
    words of a refusal: the manifest that plays the bot it chooses, or why it chooses
    none. Its build in ``out`` is removed."""
    try:
        built = build_java(intake, None, out)
    except BuildFailed as direct:
        return f"nor can the kit's adapter play its bot: {direct}"
    finally:
        shutil.rmtree(out, ignore_errors=True)
    _, args = run_java(built.args)  # the team's own, without the Java it runs on
    manifest = json.dumps({"class": built.bot, "args": args} if args else {"class": built.bot})
    return (
        f"the kit's adapter can play its {built.label}: to play that bot instead, put "
        f"{MANIFEST} in the project with {manifest}"
    )


def _adapter(intake: Intake, out: Path) -> HostedBuild:
    """A JavaFX program with no manifest, in a league that plays no window: its bot
    through the kit's adapter (kind ``java``); where the adapter chooses none, the
    refusal (none chosen, or a build that needs more of JavaFX than the kit's stand-ins)
    says why its window is not played instead (:data:`WINDOWS_ONLY`)."""
    try:
        return build_java(intake, None, out)
    except BuildFailed as direct:  # the same kind of refusal, with the window's note
        raise type(direct)(
            f"{WINDOWS_ONLY}; the kit's adapter played its bot instead, and: {direct}"
        ) from None
