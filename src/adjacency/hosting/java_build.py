"""Building a course project into a bot: sources in, a ``cmd:`` spec out.

One implementation for a student's own machine (``adjacency project build``) and for a
server that builds uploads: :func:`build` takes a project already taken in
(:mod:`.intake`), selects its sources (:mod:`.sources`), compiles them with the kit's
runner and stand-ins (package data under ``projects/java``) with ``javac``, then asks the
runner (``adjacency.kit.Main --inspect``, Java reflection on the compiled classes, which it
loads without running them) which classes are course bots and how it would call each. The
bot is the one the manifest (``adjacency-bot.json``: ``{"class": ..., "args": [...]}``) or
the caller names, else the only one found; with several and no choice, the build lists them
all and refuses to guess.

Where ``javac`` and the runner run is a :class:`Toolchain`: :class:`LocalToolchain` runs
them as processes of this machine (a student's own project); a server runs them in its
sandbox (:class:`adjacency.hosting.sandbox_build.SandboxToolchain`), with the same command lines
(:func:`javac_arguments`, :func:`inspect_arguments`) and the same reading of the answer
(:func:`read_inspection`).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Protocol

from ..core.errors import AdjacencyError, AdjacencyRuntimeError
from . import manifest
from .intake import BUILD_MARKER as MARKER
from .intake import MANIFEST, Intake
from .sources import Selection, select

RUNNER = "adjacency.kit.Main"
"""The kit's protocol runner: ``java -cp CLASSES adjacency.kit.Main CLASS ARGS...``."""
COMPILE_SECONDS = 60.0
"""The most CPU seconds ``javac`` may use on one project: the course's real projects
build in 2 to 5 s (kit included), so a minute is twelve times the slowest, room for a
slow or loaded machine, while a source crafted to make ``javac`` work exponentially
holds a builder thread for a minute at most, not five."""
INSPECT_SECONDS = 60.0


class BuildFailed(AdjacencyError):
    """The project does not compile, or no bot can be chosen; the message says why
    (the compiler's output verbatim, or the classes found)."""


class BotNotChosen(BuildFailed):
    """The project compiles, no manifest or option names its bot, and the inspection
    cannot choose one: none found, none playable as it is, or several."""


@dataclass(frozen=True)
class Candidate:
    """A class the runner could play (``ok``) or not, with how it calls it or why not."""

    name: str
    ok: bool
    detail: str


@dataclass
class Built:
    """A build's result: the class path, the chosen bot, its arguments, the ``cmd:`` spec."""

    classes: Path
    bot: str
    args: list[str]
    selection: Selection
    candidates: list[Candidate] = field(default_factory=list)

    def command(self) -> list[str]:
        """The command line that runs the bot (``java`` from the PATH)."""
        return ["java", "-cp", str(self.classes), RUNNER, self.bot, *self.args]

    @property
    def spec(self) -> str:
        """The bot spec that plays it: ``cmd:`` and the command line."""
        return "cmd:" + shlex.join(self.command())


def kit_sources() -> Path:
    """The folder of the kit's Java sources (runner, bots, stand-ins) in the installed package."""
    return Path(str(resources.files("adjacency.hosting") / "java"))


def tool(name: str) -> str:
    """The path of ``javac`` or ``java``; :class:`AdjacencyRuntimeError` if it is missing."""
    path = shutil.which(name)
    if path is None:
        raise AdjacencyRuntimeError(
            f"{name} is not on the PATH: building a Java bot needs a JDK 17"
        )
    return path


def read_manifest(intake: Intake) -> tuple[str, list[str]] | None:
    """The bot the project's manifest names (class, arguments), or ``None`` without one;
    :class:`BuildFailed` for a manifest that is wrong or names a program of another
    language (:mod:`.manifest`)."""
    if intake.manifest is None:
        return None
    try:
        chosen = manifest.read(*intake.manifest)
    except manifest.ManifestError as exc:
        raise BuildFailed(str(exc)) from None
    if chosen.bot is None:
        raise BuildFailed(
            f"{chosen.where}: it names a {chosen.language} program ({chosen.main}), not a Java bot"
        )
    return chosen.bot, chosen.args


def prepare(out: Path) -> None:
    """Make ``out`` an empty build folder: a new one, or one an earlier build made; a folder
    with other files is refused (a build never deletes what it did not write)."""
    if out.exists():
        if not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file()):
            raise BuildFailed(
                f"{out} exists and is not a build folder: give --out a new or empty folder"
            )
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text("written by adjacency project build; replaced by the next\n")


def write_sources(selection: Selection, folder: Path) -> list[Path]:
    """Writes the kept sources and the stand-ins under ``folder`` by package; their paths.

    Every file lands inside ``folder`` or nothing is written past the refusal
    (:func:`contained`): a package's folders are created one by one, none may be a link,
    and each file is created new (never through a link, never over another file)."""
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    for source in [*selection.kept, *selection.stand_ins]:
        target = contained(folder, source.target)
        _make_folders(folder, target.parent)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(target, flags, 0o644)
        except OSError as exc:
            raise BuildFailed(f"cannot write {source.path} as {source.target}: {exc}") from None
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(source.text)
        written.append(target)
    return written


def contained(folder: Path, relative: str) -> Path:
    """``folder / relative`` once it is certain to lie inside ``folder``: a relative
    path of plain names (no empty, ``.`` or ``..`` part) that, resolved, is under the
    resolved ``folder``; else :class:`BuildFailed` naming it."""
    parts = relative.split("/")
    if relative.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise BuildFailed(f"refused to write {relative!r}: not a plain path inside the build")
    base = folder.resolve()
    target = base.joinpath(*parts)
    if not target.resolve().is_relative_to(base):
        raise BuildFailed(f"refused to write {relative!r}: it leads out of the build folder")
    return target


def _make_folders(base: Path, folder: Path) -> None:
    """Create ``folder`` (inside ``base``) one level at a time, refusing any level that
    is a link or not a folder: a package path through a link is never followed."""
    current = base.resolve()
    for part in folder.relative_to(current).parts:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            raise BuildFailed(f"refused to write under {current}: it is a link or not a folder")
        current.mkdir(exist_ok=True)


def javac_arguments(sources: Sequence[str], classes: str, argfile: str) -> tuple[list[str], str]:
    """``javac``'s arguments (after the program) that compile ``sources`` into ``classes``
    with the parameters' names kept (the adapter reads them), the sources listed in
    ``argfile``; and that file's text."""
    arguments = [
        "-encoding",
        "UTF-8",
        "-parameters",
        "-proc:none",
        "-nowarn",
        "-Xmaxerrs",
        "1000",
        "-d",
        classes,
        f"@{argfile}",
    ]
    return arguments, "".join(argfile_quote(source) + "\n" for source in sources)


_ARGFILE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\f": "\\f"}


def argfile_quote(argument: str) -> str:
    """``argument`` as one argument of a ``javac`` @-file: in double quotes, with
    backslash, the quote and the line and space controls escaped by a backslash (javac's
    tokenizer reads ``\\n``, ``\\r``, ``\\t``, ``\\f`` as those characters and any other
    escaped character as itself inside quotes; an unescaped line end ends the argument
    even inside quotes). A file name with a quote or a line end thus stays one file name,
    never options of the team's choosing."""
    return '"' + "".join(_ARGFILE_ESCAPES.get(c, c) for c in argument) + '"'


def inspect_arguments(classes: str, choice: list[str] | None = None) -> list[str]:
    """The runner's arguments (after ``java``) that list the course bots of ``classes``,
    or judge the chosen class (``[CLASS, ARGS...]``)."""
    return ["-cp", classes, RUNNER, "--inspect", *(choice or [])]


def read_inspection(stdout: str, stderr: str, returncode: int | None) -> list[Candidate]:
    """The candidates the runner's ``--inspect`` printed (one ``bot NAME ok|no DETAIL``
    line each); :class:`BuildFailed` quoting its error output when it printed none and
    failed."""
    found = []
    for line in stdout.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4 and parts[0] == "bot":
            found.append(Candidate(parts[1], parts[2] == "ok", parts[3]))
    if not found and returncode != 0 and stderr.strip():
        raise BuildFailed("inspecting the classes failed:\n" + stderr)
    return found


class Toolchain(Protocol):
    """Where a build's ``javac`` and the runner's inspection run; ``own`` where the
    person who reads its refusals runs it (their ``cmd:`` lines name their folders: a
    league's refusal names no folder of its server)."""

    own: bool

    def compile(self, files: list[Path], classes: Path, workdir: Path) -> None:
        """Compile the kit and ``files`` into ``classes`` (``workdir`` holds both and may
        take an argument file); :class:`BuildFailed` with the compiler's output."""

    def inspect(self, classes: Path, choice: list[str] | None) -> list[Candidate]:
        """The runner's candidates in ``classes`` (:func:`read_inspection`)."""


class LocalToolchain:
    """``javac`` and ``java`` of this machine, run as they are (a student's own build)."""

    own = True

    def compile(self, files: list[Path], classes: Path, workdir: Path) -> None:
        """``javac`` of this machine (:meth:`Toolchain.compile`)."""
        kit = sorted(kit_sources().rglob("*.java"))
        argfile = workdir / "sources.txt"
        sources = [p.as_posix() for p in [*kit, *files]]
        arguments, listing_text = javac_arguments(sources, str(classes), str(argfile))
        argfile.write_text(listing_text)
        try:
            done = subprocess.run(
                [tool("javac"), *arguments],
                capture_output=True,
                text=True,
                timeout=COMPILE_SECONDS,
                cwd=workdir,
            )
        except subprocess.TimeoutExpired:
            raise BuildFailed(f"javac ran longer than {COMPILE_SECONDS:g} s") from None
        if done.returncode != 0:
            raise BuildFailed("javac failed:\n" + done.stdout + done.stderr)

    def inspect(self, classes: Path, choice: list[str] | None) -> list[Candidate]:
        """``java`` of this machine runs the inspection (:meth:`Toolchain.inspect`)."""
        command = [tool("java"), *inspect_arguments(str(classes), choice)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=INSPECT_SECONDS)
        except subprocess.TimeoutExpired:
            raise BuildFailed(
                f"looking for the bot took longer than {INSPECT_SECONDS:g} s"
            ) from None
        return read_inspection(done.stdout, done.stderr, done.returncode)


def listing(candidates: list[Candidate], classes: Path | None) -> str:
    """Every class found, with the command that plays it (where ``classes`` is given: a
    build of one's own) or why it cannot be played."""
    lines = []
    for c in candidates:
        if c.ok and classes is None:
            lines.append(f"  {c.name}: {c.detail}")
        elif c.ok:
            spec = "cmd:" + shlex.join(["java", "-cp", str(classes), RUNNER, c.name])
            lines.append(f"  {c.name}: {c.detail}\n    {spec}")
        else:
            lines.append(f"  {c.name}: cannot be played: {c.detail}")
    return "\n".join(lines)


def _noted(selection: Selection, error: BuildFailed) -> BuildFailed:
    """``error`` with the files left out appended: a bot left out for its imports is the
    usual reason a build finds none, or fails to compile a class that uses it."""
    if not selection.left_out:
        return error
    lines = "".join(f"\n  {path}: {why}" for path, why in selection.left_out)
    return type(error)(f"{error}\nleft out of the build:{lines}")


def build(
    intake: Intake,
    out: Path,
    bot: str | None = None,
    args: list[str] | None = None,
    toolchain: Toolchain | None = None,
) -> Built:
    """Compile ``intake`` into ``out`` (``out/src``: the sources compiled, ``out/classes``:
    the class path) and choose its bot: ``bot`` and ``args`` if given, else the manifest's,
    else the only course bot found. ``toolchain`` runs ``javac`` and the runner (default:
    :class:`LocalToolchain`)."""
    tools: Toolchain = LocalToolchain() if toolchain is None else toolchain
    selection = select(intake.of(".java"))
    chosen = (bot, list(args or [])) if bot else read_manifest(intake)
    prepare(out)
    try:
        return _compile_and_choose(selection, chosen, out, tools)
    except BuildFailed as error:
        raise _noted(selection, error) from None


def _compile_and_choose(
    selection: Selection, chosen: tuple[str, list[str]] | None, out: Path, tools: Toolchain
) -> Built:
    classes = out / "classes"
    files = write_sources(selection, out / "src")
    tools.compile(files, classes, out)
    shown = classes if tools.own else None  # no server folder in a league's refusal
    if chosen is not None:
        found = tools.inspect(classes, [chosen[0], *chosen[1]])
        if not found or not found[0].ok:
            why = found[0].detail if found else "it is not in the project"
            every = tools.inspect(classes, None)
            raise BuildFailed(
                f"the bot {chosen[0]} with arguments {chosen[1]} cannot be played: {why}\n"
                f"course bots found:\n{listing(every, shown) or '  none'}"
            )
        return Built(classes, chosen[0], chosen[1], selection, found)
    found = tools.inspect(classes, None)
    playable = [c for c in found if c.ok]
    if len(playable) == 1:
        return Built(classes, playable[0].name, [], selection, found)
    if not found:
        raise BotNotChosen(
            "no bot in the project: no class has a method 'int[] move(...)' "
            "or implements adjacency.kit.Bot"
        )
    if not playable:
        raise BotNotChosen(f"no course bot can be played as it is:\n{listing(found, shown)}")
    raise BotNotChosen(
        f"{len(playable)} bots in the project; choose one in {MANIFEST} "
        '({"class": "pkg.MyBot", "args": []}):\n' + listing(found, shown)
    )
