"""Building a submission in the sandbox: :func:`build_submission`.

The zip a team uploaded goes through the projects' intake
(:func:`adjacency.projects.take_in`: every limit checked on its directory before a byte
is read; only Java sources and the manifest read) and the projects' one build
(:mod:`adjacency.projects.java_build`),
whose two commands run here in the sandbox (:class:`SandboxToolchain`):

- ``javac`` with the build folder read-only at :data:`~adjacency.sandbox.SUBMISSION`, the
  kit's sources read-only at :data:`KIT`, and the class folder the only writable place
  (:data:`~adjacency.sandbox.OUTPUT`);
- the runner's ``--inspect`` with the classes read-only: it loads the team's classes to
  read their constructors and ``move`` methods, so it is the team's code too.

The build folder is the server's (the intake's output, written by this process); the
class folder, written by the team's compiler run, is read back only by the sandboxed
runner. The limits (:data:`BUILD_LIMITS`) bound a hostile build's CPU, memory, processes,
files and output.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..projects import Built, build, kit_sources, take_in
from ..projects.java_build import (
    COMPILE_SECONDS,
    INSPECT_SECONDS,
    BuildFailed,
    Candidate,
    inspect_arguments,
    javac_arguments,
    read_inspection,
)
from ..sandbox import OUTPUT, SUBMISSION, Limits, Reason, run

KIT = "/kit"
"""Where the kit's Java sources are, read-only, in the compiler's sandbox."""

JAVAC = "/usr/bin/javac"
JAVA = "/usr/bin/java"
"""Debian's JDK commands (package ``openjdk-17-jdk-headless``), as the sandbox sees them."""

JVM_OPTIONS = ("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
"""A JVM that fits its sandbox: a bounded heap, one collector thread, quick start."""

BUILD_LIMITS = Limits(
    cpu_seconds=COMPILE_SECONDS,
    wall_seconds=COMPILE_SECONDS,
    memory_bytes=1536 << 20,
    processes=96,
    file_bytes=32 << 20,
    tmp_bytes=64 << 20,
    output_bytes=4 << 20,
)
"""What one build may use (javac is a JVM: its heap, threads and class files)."""

INSPECT_LIMITS = Limits(
    cpu_seconds=INSPECT_SECONDS,
    wall_seconds=INSPECT_SECONDS,
    memory_bytes=1024 << 20,
    processes=64,
    output_bytes=1 << 20,
)
"""What the runner's inspection may use."""


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


class SandboxToolchain:
    """The projects' :class:`~adjacency.projects.java_build.Toolchain` in the sandbox."""

    def compile(self, files: list[Path], classes: Path, workdir: Path) -> None:
        """``javac`` in the sandbox: ``workdir`` read-only at
        :data:`~adjacency.sandbox.SUBMISSION`, the kit at :data:`KIT`, ``classes`` writable
        at :data:`~adjacency.sandbox.OUTPUT`."""
        kit = kit_sources()
        sources = [f"{KIT}/{p.relative_to(kit).as_posix()}" for p in sorted(kit.rglob("*.java"))]
        sources += [f"{SUBMISSION}/{p.relative_to(workdir).as_posix()}" for p in files]
        arguments, listing = javac_arguments(sources, OUTPUT, f"{SUBMISSION}/sources.txt")
        (workdir / "sources.txt").write_text(listing, encoding="utf-8")
        classes.mkdir(parents=True, exist_ok=True)
        outcome = run(
            [JAVAC, *(f"-J{option}" for option in JVM_OPTIONS), *arguments],
            submission=workdir,
            output=classes,
            binds={KIT: kit},
            limits=BUILD_LIMITS,
        )
        if outcome.reason is not Reason.EXITED:
            raise BuildFailed(f"javac was stopped: {outcome.describe()}")
        if outcome.returncode != 0:
            raise BuildFailed("javac failed:\n" + _text(outcome.stdout) + _text(outcome.stderr))

    def inspect(self, classes: Path, choice: list[str] | None) -> list[Candidate]:
        """The runner's inspection in the sandbox, ``classes`` read-only."""
        outcome = run(
            [JAVA, *JVM_OPTIONS, *inspect_arguments(SUBMISSION, choice)],
            submission=classes,
            limits=INSPECT_LIMITS,
        )
        if outcome.reason is not Reason.EXITED:
            raise BuildFailed(f"looking for the bot was stopped: {outcome.describe()}")
        return read_inspection(_text(outcome.stdout), _text(outcome.stderr), outcome.returncode)


@dataclass(frozen=True)
class HostedBuild:
    """A built submission: the projects' :class:`~adjacency.projects.Built` (its class
    folder, the bot and its arguments) and the files the intake left out, unread."""

    built: Built
    left_out: list[str]


def build_submission(data: bytes, folder: Path) -> HostedBuild:
    """Build the uploaded zip ``data`` under ``folder`` (a new, empty folder of the
    server's: ``folder/upload.zip``, ``folder/build``): the intake's refusals
    (:class:`~adjacency.projects.IntakeRefused`) and the build's
    (:class:`~adjacency.projects.BuildFailed`, the compiler's output verbatim) are raised;
    :class:`~adjacency.sandbox.SandboxUnavailable` where no sandbox can start."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)  # the sandbox's own users read the build below it
    upload = folder / "upload.zip"
    upload.write_bytes(data)
    intake = take_in(upload)
    out = folder / "build"
    built = build(intake, out, toolchain=SandboxToolchain())
    for path in (out, out / "src", *(p for p in (out / "src").rglob("*") if p.is_dir())):
        os.chmod(path, 0o755)
    return HostedBuild(built, sorted(intake.left_out))
