"""The builds of each kind in the sandbox: :func:`build_java` and :func:`build_program`.

:func:`~.kinds.build_submission` takes an uploaded zip through the intake
(:func:`adjacency.hosting.intake.take_in`: every limit checked on its directory before a
byte is read; only sources and the manifest read), chooses its kind
(:func:`adjacency.hosting.scripts.choose`: the manifest, else the files) and calls that
kind's build here. A program named by its entry file is written to a folder of its own
and checked in the sandbox by its language's check (:func:`check_program`: Python's
byte-compiler, ``node --check``, :class:`~.languages.Checked`; their errors
verbatim): nothing is installed, and the program is played from that folder; a compiled
language's program is compiled there instead (:func:`build_compiled`). A Java
course project goes through the projects' one build (:mod:`adjacency.hosting.java_build`),
whose two commands run here in the sandbox (:class:`SandboxToolchain`; :func:`javac` is
the one ``javac`` in the sandbox, :func:`compile_java` the one build of Java sources,
a JavaFX program's too: ``javac`` 17, then :func:`ecj` for the newer Java where the
sources need one that the server has (:mod:`.newer_jdk`), and
:func:`compile_in_sandbox` the one compiler run, a C++ program's too):

- ``javac`` with the build folder read-only at :data:`~adjacency.sandbox.SUBMISSION`, the
  kit's sources read-only at :data:`KIT`, and its class folder
  (:data:`~adjacency.sandbox.OUTPUT`) on the sandbox's bounded ``/tmp``, the only
  writable place, read back into the build's class folder once it has exited
  (:mod:`.build_output`);
- the runner's ``--inspect`` with the classes read-only: it loads the team's classes to
  read their constructors and ``move`` methods, so it is the team's code too; on the
  newer runtime where the classes were built for it, as the bot then plays
  (:func:`build_java`: the build's Java before its arguments, :func:`~.newer_jdk.on_java`).

The build folder is the server's (the intake's output, written by this process); the
class folder, what the team's compiler run wrote (its regular files only), is read back
only by the sandboxed runner. The limits (:data:`BUILD_LIMITS`) bound a hostile build's
CPU, memory, processes, files and output, its output's total while it is written.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..sandbox import OUTPUT, SUBMISSION, Limits, Outcome, Reason, run
from .build_output import (
    BUILD_BYTES,
    bounded,
    build_bytes,
    past_the_bound,
    stream_bytes,
    unpack,
)
from .intake import Intake
from .java_build import (
    COMPILE_SECONDS,
    INSPECT_SECONDS,
    BuildFailed,
    Candidate,
    build,
    inspect_arguments,
    javac_arguments,
    kit_sources,
    read_inspection,
)
from .java_versions import SERVER_JAVA, newer_java
from .languages import ENGINE, LANGUAGES, Compiled
from .newer_jdk import (
    ECJ_LEVEL,
    ECJ_MAIN,
    NEWER_JAVA,
    NEWER_JAVA_PATH,
    NewerJdk,
    jdk_for,
    newer_binds,
    newer_jdk,
    on_java,
)
from .scripts import CHECK_ENV, Program, check_command, write_program

KIT = "/kit"
"""Where the kit's Java sources are, read-only, in the compiler's sandbox."""

JAVAC = "/usr/bin/javac"
JAVA = "/usr/bin/java"
"""Debian's JDK commands (package ``openjdk-17-jdk-headless``), as the sandbox sees them."""

JVM_OPTIONS = ("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
"""A JVM that fits its sandbox: a bounded heap, one collector thread, quick start."""

BUILD_LIMITS = Limits(
    cpu_seconds=COMPILE_SECONDS,
    wall_seconds=2 * COMPILE_SECONDS,  # CPU is the cap; wall time allows for a busy server
    memory_bytes=1536 << 20,
    processes=96,
    file_bytes=32 << 20,
    tmp_bytes=BUILD_BYTES,
    output_bytes=stream_bytes(),
)
"""What one build may use (javac is a JVM: its heap, threads and class files): all it
writes, output and scratch files, on its ``/tmp`` of :data:`~.build_output.BUILD_BYTES`,
read back as an archive on its standard output (:mod:`.build_output`)."""

INSPECT_LIMITS = Limits(
    cpu_seconds=INSPECT_SECONDS,
    wall_seconds=INSPECT_SECONDS,
    memory_bytes=1024 << 20,
    processes=64,
    output_bytes=1 << 20,
)
"""What the runner's inspection may use."""

SYNTAX_LIMITS = Limits(
    cpu_seconds=60.0,
    wall_seconds=60.0,
    memory_bytes=1024 << 20,
    processes=64,
    file_bytes=8 << 20,
    tmp_bytes=64 << 20,
    output_bytes=1 << 20,
)
"""What a program's check may use (an interpreter per
file at most; Python's byte code goes to the private ``/tmp``)."""


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _judge(tool: str, outcome: Outcome) -> None:
    """Raise :class:`~adjacency.hosting.java_build.BuildFailed` naming ``tool`` where its
    run was stopped or failed, with its output verbatim (``javac``'s after which later
    Java its sources need, where its errors say so: :mod:`.java_versions`)."""
    if outcome.reason is not Reason.EXITED:
        raise BuildFailed(f"{tool} was stopped: {outcome.describe()}")
    if outcome.returncode != 0:
        text = _text(outcome.stdout) + _text(outcome.stderr)
        newer = newer_java(text) if tool == "javac" else None  # say which Java, first
        raise BuildFailed((f"{newer}\n" if newer else "") + f"{tool} failed:\n" + text)


def compile_in_sandbox(
    argv: list[str], tool: str, source: Path, output: Path, binds: Mapping[str, Path] | None = None
) -> None:
    """Run the compiler ``argv`` in the sandbox under :data:`BUILD_LIMITS`: ``source``
    read-only at :data:`~adjacency.sandbox.SUBMISSION` (its working folder), ``binds``
    more of the host read-only; what it writes in its output folder
    (:data:`~adjacency.sandbox.OUTPUT` in ``argv``) is bounded while it is written and
    lands in ``output`` once it has exited (:mod:`.build_output`).
    :class:`~adjacency.hosting.java_build.BuildFailed` naming ``tool`` where it was
    stopped or failed, with its output verbatim (``javac``'s after which later Java its
    sources need, where its errors say so: :mod:`.java_versions`), and saying so where
    it wrote more than its kind's bound (:func:`~.build_output.build_bytes`)."""
    limits = replace(BUILD_LIMITS, tmp_bytes=build_bytes(), output_bytes=stream_bytes())
    outcome = run(bounded(argv), submission=source, binds=binds, limits=limits)
    if outcome.reason is Reason.EXITED and outcome.returncode != 0:
        messages = _text(outcome.stdout) + _text(outcome.stderr)
        past = past_the_bound(messages)
        if past is not None:
            raise BuildFailed(f"{past}; {tool} failed:\n{messages}")
    _judge(tool, outcome)
    unpack(outcome.stdout, output)


def _write_listing(sources: list[str], workdir: Path, listing: str) -> list[str]:
    """Write the argument file ``listing`` into ``workdir`` (readable in the sandbox) for
    ``sources`` (:func:`~.java_build.javac_arguments`); ``javac``'s arguments naming it."""
    arguments, text = javac_arguments(sources, OUTPUT, f"{SUBMISSION}/{listing}")
    (workdir / listing).write_text(text, encoding="utf-8")
    (workdir / listing).chmod(0o644)
    return arguments


def javac(
    sources: list[str],
    workdir: Path,
    classes: Path,
    listing: str,
    *,
    options: tuple[str, ...] = (),
    binds: Mapping[str, Path] | None = None,
) -> None:
    """``javac`` of ``sources`` (paths as the sandbox sees them) in the sandbox
    (:func:`compile_in_sandbox`): ``workdir`` read-only, the argument file ``listing``
    written there first (:func:`~.java_build.javac_arguments`), ``classes`` the class
    folder, ``options`` before the arguments (a module path), ``binds`` as there."""
    arguments = _write_listing(sources, workdir, listing)
    argv = [JAVAC, *(f"-J{option}" for option in JVM_OPTIONS), *options, *arguments]
    compile_in_sandbox(argv, "javac", workdir, classes, binds)


def ecj(
    sources: list[str],
    workdir: Path,
    classes: Path,
    listing: str,
    jdk: NewerJdk,
    *,
    options: tuple[str, ...] = (),
    binds: Mapping[str, Path] | None = None,
) -> None:
    """Debian's ``ecj`` (run by Java 17) compiling ``sources`` for the newer runtime of
    ``jdk`` (bound read-only at :data:`~.newer_jdk.NEWER_JAVA_PATH`, its library the
    ``--system``) at :data:`~.newer_jdk.ECJ_LEVEL`, in the sandbox as :func:`javac`
    (the same listing, ``javac``'s options that ``ecj`` shares, ``options`` before,
    ``binds`` beside the runtime's)."""
    _write_listing(sources, workdir, listing)
    level = (f"-{ECJ_LEVEL}", "--system", NEWER_JAVA_PATH)
    shared = ("-encoding", "UTF-8", "-parameters", "-proc:none", "-nowarn", "-d", OUTPUT)
    argv = [JAVA, *JVM_OPTIONS, "-cp", str(jdk.ecj), ECJ_MAIN, *level, *options, *shared]
    argv.append(f"@{SUBMISSION}/{listing}")
    runtime = {**(binds or {}), **newer_binds(jdk)}
    compile_in_sandbox(argv, "ecj", workdir, classes, runtime)


def compile_java(
    sources: list[str],
    workdir: Path,
    classes: Path,
    listing: str,
    *,
    options: tuple[str, ...] = (),
    binds: Mapping[str, Path] | None = None,
) -> NewerJdk | None:
    """Compile Java ``sources`` into ``classes`` (the arguments as :func:`javac`'s): the
    newer Java the classes were built for, or ``None`` for the server's
    (:data:`~.java_versions.SERVER_JAVA`). ``javac`` 17 first; where its refusal names a
    later Java's feature that the server's newer runtime has
    (:func:`~.newer_jdk.jdk_for`), ``ecj`` builds them again for that runtime
    (:func:`ecj`). :class:`~adjacency.hosting.java_build.BuildFailed` with
    ``javac``'s refusal where there is no such runtime (it names the feature), and with
    ``ecj``'s after it where that fails too (a later Java's language than ``ecj``'s
    :data:`~.newer_jdk.ECJ_LEVEL`, or the team's own error)."""
    try:
        javac(sources, workdir, classes, listing, options=options, binds=binds)
    except BuildFailed as refused:
        jdk = jdk_for(str(refused), newer_jdk())
        if jdk is None:
            raise
        shutil.rmtree(classes)
        classes.mkdir()
        try:
            ecj(sources, workdir, classes, listing, jdk, options=options, binds=binds)
        except BuildFailed as also:
            raise BuildFailed(
                f"{refused}\nbuilt for Java {jdk.java} with ecj at Java {ECJ_LEVEL}'s "
                f"language, it failed too:\n{also}"
            ) from None
        return jdk
    return None


class SandboxToolchain:
    """The projects' :class:`~adjacency.hosting.java_build.Toolchain` in the sandbox;
    ``jdk``: the newer Java its compile built for (:func:`compile_java`; ``None``: the
    server's), which its inspection runs on."""

    own = False

    def __init__(self) -> None:
        self.jdk: NewerJdk | None = None

    @property
    def java(self) -> int:
        """The Java its classes need: the server's, or the newer one it built for."""
        return SERVER_JAVA if self.jdk is None else self.jdk.java

    def compile(self, files: list[Path], classes: Path, workdir: Path) -> None:
        """The kit and ``files`` compiled in the sandbox (:func:`compile_java`: ``javac``
        17, else ``ecj`` for the newer Java): ``workdir`` read-only at
        :data:`~adjacency.sandbox.SUBMISSION`, the kit at :data:`KIT`, its classes written
        to ``classes`` (:func:`compile_in_sandbox`)."""
        kit = kit_sources()
        sources = [f"{KIT}/{p.relative_to(kit).as_posix()}" for p in sorted(kit.rglob("*.java"))]
        home = workdir.resolve()  # the sources' paths are resolved where they are written
        sources += [f"{SUBMISSION}/{p.resolve().relative_to(home).as_posix()}" for p in files]
        classes.mkdir(parents=True, exist_ok=True)
        self.jdk = compile_java(sources, workdir, classes, "sources.txt", binds={KIT: kit})

    def inspect(self, classes: Path, choice: list[str] | None) -> list[Candidate]:
        """The runner's inspection in the sandbox, ``classes`` read-only, on the Java they
        were built for."""
        java, binds = (JAVA, None) if self.jdk is None else (NEWER_JAVA, newer_binds(self.jdk))
        outcome = run(
            [java, *JVM_OPTIONS, *inspect_arguments(SUBMISSION, choice)],
            submission=classes,
            binds=binds,
            limits=INSPECT_LIMITS,
        )
        if outcome.reason is not Reason.EXITED:
            raise BuildFailed(f"looking for the bot was stopped: {outcome.describe()}")
        return read_inspection(_text(outcome.stdout), _text(outcome.stderr), outcome.returncode)


def check_program(program: Program, folder: Path, files: list[Path]) -> None:
    """Check ``files`` (written under ``folder``) of ``program`` in the sandbox, ``folder``
    read-only at :data:`~adjacency.sandbox.SUBMISSION`:
    :class:`~adjacency.hosting.java_build.BuildFailed` with the checker's output verbatim."""
    inside = [f"{SUBMISSION}/{path.relative_to(folder).as_posix()}" for path in files]
    outcome = run(
        check_command(program.language, inside),
        submission=folder,
        limits=SYNTAX_LIMITS,
        env=CHECK_ENV,
    )
    tool = LANGUAGES[program.language].tool
    _judge(tool, outcome)


@dataclass(frozen=True)
class HostedBuild:
    """A built submission: what it plays (its ``kind``: a name of
    :data:`~.kinds.KINDS`; its ``folder``: the classes or the program's files; ``bot``: the
    runner's class or the entry file; ``args``), how verdicts name it (``label``) and the
    files the intake left out, unread (``installed``: those inside installed packages'
    folders). :class:`~.player.Choice` plays it."""

    kind: str
    folder: Path
    bot: str
    args: list[str]
    label: str
    left_out: list[str]
    installed: list[str]


def build_java(intake: Intake, program: Program | None, out: Path) -> HostedBuild:
    """Build a Java course project taken in as ``intake`` into ``out`` (the projects' one
    build, :func:`~.java_build.build`, its two commands in the sandbox): the bot its
    inspection chose. ``program`` is ``None`` for this kind (no entry file). Sources that
    need a later Java than the server's are built for its newer one where it has one
    (:func:`compile_java`): their run arguments then begin with that Java
    (:func:`~.newer_jdk.on_java`), which the kind's command reads to run them on it, and
    its ``label`` says it (``bot Bot on Java 25``)."""
    tools = SandboxToolchain()
    built = build(intake, out, toolchain=tools)
    label = "bot " + " ".join([built.bot, *built.args])
    if tools.jdk is not None:
        label += f" on Java {tools.java}"
    _readable(out)
    return HostedBuild(
        "java",
        built.classes,
        built.bot,
        on_java(tools.java, list(built.args)),
        label,
        sorted(intake.left_out),
        intake.installed,
    )


def build_program(intake: Intake, program: Program | None, out: Path) -> HostedBuild:
    """Write a ``program`` named by its entry file, taken in as ``intake`` to ``out/src`` and
    check its syntax in the sandbox (:func:`check_program`): nothing is installed, and it
    is played from that folder."""
    assert program is not None, "a program's kind is chosen by its entry file"
    out.mkdir()
    files = write_program(intake, program, out / "src")
    _readable(out)
    check_program(program, out / "src", files)
    return HostedBuild(
        program.language,
        out / "src",
        program.main,
        program.args,
        program.label(),
        sorted(intake.left_out),
        intake.installed,
    )


def build_compiled(intake: Intake, program: Program | None, out: Path) -> HostedBuild:
    """Write a compiled language's ``program`` taken in as ``intake`` to ``out/src`` and
    compile its translation units (its sources but its headers,
    :attr:`~.languages.Language.entries`) in the sandbox by its language's compiler
    (:class:`~.languages.Compiled`) into ``out/bin``, the only writable place, under
    :data:`BUILD_LIMITS`: the sources are named from their folder, so the compiler's
    refusal names the team's file and line and no path of the server's. The compiler is
    told to write the program at :data:`~.languages.ENGINE` there, which is played; a
    compiler that exits 0 without writing it as a regular file is refused for it."""
    assert program is not None, "a program's kind is chosen by its entry file"
    language = LANGUAGES[program.language]
    assert isinstance(language.build, Compiled), f"{language.word} programs are not compiled"
    out.mkdir()
    source = out / "src"
    files = write_program(intake, program, source)
    _readable(out)
    binary = out / "bin"
    binary.mkdir()
    units = [path.relative_to(source).as_posix() for path in files]
    units = [path for path in units if path.endswith(language.entries)]
    argv = language.build.command(units, f"{OUTPUT}/{ENGINE}")
    compile_in_sandbox(argv, language.tool, source, binary)
    written = binary / ENGINE
    if written.is_symlink() or not written.is_file():
        raise BuildFailed(f"{language.tool} wrote no program: {ENGINE} is not in its output")
    return HostedBuild(
        program.language,
        binary,
        ENGINE,
        program.args,
        program.label(),
        sorted(intake.left_out),
        intake.installed,
    )


def _readable(out: Path) -> None:
    """Let the sandbox's own users read a program's written files (its folders searchable,
    its files readable; a Java build's class folder is written by the sandboxed compiler
    itself)."""
    for path in (out, out / "src", *(p for p in (out / "src").rglob("*") if p.is_dir())):
        if path.exists():
            os.chmod(path, 0o755)
    for path in (p for p in (out / "src").rglob("*") if p.is_file()):
        os.chmod(path, 0o644)
