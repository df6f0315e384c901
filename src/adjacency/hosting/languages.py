"""The languages a team's program may be written in, one table entry each: :data:`LANGUAGES`.

A language is everything the league needs to know of it, in one place (as a judge's table
of languages does): the manifest's word for it, its name in words, its sources' suffixes
(the intake reads those) and which of them are headers, how its manifest names the bot
(``class`` or ``main``), how its entry file is found, its build (:class:`Checked`,
:class:`Compiled`, or the Java projects' build), its run command inside the sandbox, what
its process may use over a game, the seconds of its start that are free, its starter kit,
and the command that runs it on the team's own machine. Nothing outside this table asks
which language a program is: a language added here is read, chosen, built, checked, run,
timed and named in every message, and its kind (:data:`~.kinds.KINDS`, what the league
does with a program over a game) is made from this entry. Every field is required, so an
entry that leaves one out fails when this module is imported.

This module is the bottom of the hosting room (the intake and the manifest read it); it
imports nothing of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..sandbox import Limits

HANDSHAKE = "aepok"
"""What an engine-protocol program answers to ``aep``: the mark of an entry file."""

PYTHON = "/usr/bin/python3"
NODE = "/usr/bin/node"
"""Debian's interpreters (packages ``python3`` and ``nodejs``), as the sandbox sees them."""

GXX = "/usr/bin/g++"
GCC = "/usr/bin/gcc"
"""Debian's C++ and C compilers (packages ``g++`` and ``gcc``), as the build's sandbox
sees them."""

ENGINE = "engine"
"""The file name of the program a compiled language's build writes (:class:`Compiled`),
which is played."""

NODE_HEAP_MB = 256
"""V8's old-space bound (``--max-old-space-size``): a heap that fits its sandbox, as
the JVM's ``-Xmx``."""

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
at most 140 s of its own thinking; the CPU cap leaves room for the JVM's own threads).
The output bound is its protocol's (standard output); its standard error, where the Java
kit sends its prints too, is drained and never counted (its last 64 KiB kept)."""

Command = Callable[[str, list[str]], list[str]]
"""A command line from a file (as the sandbox or the team sees it) and arguments."""


def operand(path: str) -> str:
    """A file's path as a command line's operand, never an option: an absolute path as
    it is, any other from its folder (``./``), so that no tool reads a team's file named
    ``-x`` or ``@file`` as an option or a file of options (the intake refuses such names
    too: :func:`~.intake.check_operand`). Every command of this table names files so."""
    return path if path.startswith(("/", "./")) else f"./{path}"


@dataclass(frozen=True)
class Checked:
    """The build of a language played from its sources as they are: ``command`` (the
    sources' paths inside the sandbox to the argv of its check, such as Python's
    byte-compiler), whose failure refuses the program with its words verbatim; nothing
    is written."""

    command: Callable[[list[str]], list[str]]


@dataclass(frozen=True)
class Compiled:
    """The build of a compiled language: ``command`` (its translation units' paths,
    named from their folder, and the path of the program to write, to the compiler's
    argv). Its output contract: the command writes one program at the path it is given
    (:data:`ENGINE` in the build's one writable folder), which is what is played; a run
    that exits 0 without writing it is refused, as a compile error is. Its headers
    (:attr:`Language.headers`) are only included, never compiled alone."""

    command: Callable[[list[str], str], list[str]]


@dataclass(frozen=True)
class Language:
    """One language: ``word`` (the manifest's ``language``), ``words`` (its name in prose),
    ``suffixes`` (its sources', headers included), ``headers`` (those of its suffixes
    that name files only included: never an entry file nor compiled alone; two languages
    may share one, ``.h``), ``names`` (the manifest's key naming the bot: ``class`` for a Java
    class, ``main`` for an entry file), ``entry`` (whether its entry file is found by the
    protocol's handshake in its text, :data:`HANDSHAKE`, without a manifest), ``texts``
    (other files written beside its sources: Node's ``package.json``), ``build``
    (:class:`Checked`, :class:`Compiled`, or ``None`` for Java, which the projects' build
    compiles), ``tool`` (how a refusal names that build's command), ``run`` (the entry
    file, or the compiled program, and arguments to the argv that plays it in the
    sandbox; ``None`` for Java, played by the kit's runner), ``local`` (the entry file
    and arguments to the command line that runs it as it is on the team's machine),
    ``limits`` (what its process may use over one game), ``start`` (the seconds of its
    start, from its sandbox's start to its answer to the handshake, that are free: what
    its runtime needs, :func:`~.move_clock.start_charge`) and ``kit`` (its starter kit's
    entry file, or folder, under ``examples/engines/``)."""

    word: str
    words: str
    suffixes: tuple[str, ...]
    names: str
    entry: bool
    texts: tuple[str, ...]
    headers: tuple[str, ...]
    build: Checked | Compiled | None
    tool: str
    run: Command | None
    local: Command | None
    limits: Limits
    start: float
    kit: str

    @property
    def local_handshake(self) -> float | None:
        """The handshake's timeout its :attr:`local` command line needs, ``None`` for the
        usual one: a compiled language's first start waits for its compiler
        (:data:`LOCAL_COMPILE_SECONDS`)."""
        return LOCAL_COMPILE_SECONDS if isinstance(self.build, Compiled) else None

    @property
    def entries(self) -> tuple[str, ...]:
        """The suffixes of the files that may be its entry file (or compiled alone): its
        sources' but its headers'."""
        return tuple(end for end in self.suffixes if end not in self.headers)


def _python_check(files: list[str]) -> list[str]:
    """Python's byte-compiler (``py_compile``, its cache in the private ``/tmp``: the
    program's folder is read-only)."""
    return [PYTHON, "-m", "py_compile", *map(operand, files)]


def _node_check(files: list[str]) -> list[str]:
    """``node --check`` for each JavaScript file (all checked, failing if one fails)."""
    script = 'status=0; for f do "$0" --check "$f" || status=1; done; exit $status'
    return ["/bin/sh", "-c", script, NODE, *map(operand, files)]


def _python_run(main: str, args: list[str]) -> list[str]:
    """Python unbuffered (a program that forgets to flush still answers), writing no byte
    code, without the user's site folder."""
    return [PYTHON, "-u", "-B", "-s", operand(main), *args]


def _node_run(main: str, args: list[str]) -> list[str]:
    """Node with its heap bounded (:data:`NODE_HEAP_MB`)."""
    return [NODE, f"--max-old-space-size={NODE_HEAP_MB}", operand(main), *args]


def _compiled_run(engine: str, args: list[str]) -> list[str]:
    """The compiled program itself."""
    return [operand(engine), *args]


LOCAL_COMPILE_SECONDS = 120.0
"""The handshake's timeout of the command line that compiles a program on the team's
machine before it runs it (:func:`_compile_locally`): its first start waits for the
compiler (an optimising compile of a large file on a slow laptop, or on a busy
machine, takes far more than a start's 10 s)."""


def _compile_locally(compiler: str) -> Command:
    """Compile ``main`` beside itself with ``compiler`` (its flags included) unless its
    program is newer than it, then run it."""

    def local(main: str, args: list[str]) -> list[str]:
        script = (
            f'[ "$0.engine" -nt "$0" ] || {compiler} -o "$0.engine" "$0" && exec "$0.engine" "$@"'
        )
        return ["sh", "-c", script, main, *args]

    return local


def _interpreted(interpreter: str) -> Command:
    """The team's own ``interpreter`` running the entry file."""

    def local(main: str, args: list[str]) -> list[str]:
        return [interpreter, main, *args]

    return local


def _gnu(
    word: str,
    words: str,
    sources: tuple[tuple[str, ...], tuple[str, ...]],
    compiler: tuple[str, str],
    kit: str,
    *libraries: str,
) -> Language:
    """A language compiled by GNU's ``compiler`` (its path and the ``-std`` standard) at
    ``-O2``: its ``sources``' suffixes (its translation units', then its headers'), its
    units linked with ``libraries``, the program it writes played as it is, under the
    game's limits with Python's start allowance (a compiled program's start was not
    measured); on the team's machine compiled beside its entry file first."""
    path, standard = compiler
    name = path.rsplit("/", 1)[-1]

    def command(units: list[str], output: str) -> list[str]:
        files = map(operand, units)
        return [path, f"-std={standard}", "-O2", "-o", operand(output), *files, *libraries]

    units, headers = sources
    return Language(
        word=word,
        words=words,
        suffixes=units + headers,
        headers=headers,
        names="main",
        entry=True,
        texts=(),
        build=Compiled(command),
        tool=f"{name} -O2",
        run=_compiled_run,
        local=_compile_locally(f"{name} -std={standard} -O2"),
        limits=GAME_LIMITS,
        start=1.0,
        kit=kit,
    )


# The start allowances were measured in the sandbox on the 2-core development machine at a
# load of 9 to 12 and given room for a loaded machine: Python 0.13 to 0.32 s of wall time
# (0.05 s of CPU), Node 0.26 to 0.75 s (0.12 s), a JVM with the kit's runner 0.19 to 0.35 s
# (0.09 s); a compiled C or C++ program is given Python's (its start was not measured).
LANGUAGES: dict[str, Language] = {
    "java": Language(
        word="java",
        words="Java",
        suffixes=(".java",),
        headers=(),
        names="class",
        entry=False,
        texts=(),
        build=None,
        tool="javac",
        run=None,
        local=None,
        limits=GAME_LIMITS,
        start=1.5,
        kit="java/",
    ),
    "python": Language(
        word="python",
        words="Python",
        suffixes=(".py",),
        headers=(),
        names="main",
        entry=True,
        texts=(),
        build=Checked(_python_check),
        tool="python3 -m py_compile",
        run=_python_run,
        local=_interpreted("python3"),
        limits=GAME_LIMITS,
        start=1.0,
        kit="python/engine.py",
    ),
    # Node's writable memory bound is larger: each worker thread is a V8 isolate with a
    # heap of its own (the JavaScript kit thinks in a worker and replaces a busy one with a
    # fresh one, so two may live at once), besides the main one and V8's code space; its
    # old space is bounded by NODE_HEAP_MB all the same.
    "javascript": Language(
        word="javascript",
        words="JavaScript",
        suffixes=(".js", ".mjs", ".cjs"),
        headers=(),
        names="main",
        entry=True,
        texts=("package.json",),
        build=Checked(_node_check),
        tool="node --check",
        run=_node_run,
        local=_interpreted("node"),
        limits=replace(GAME_LIMITS, memory_bytes=1024 << 20),
        start=1.5,
        kit="javascript/engine.js",
    ),
    "cpp": _gnu("cpp", "C++", ((".cpp", ".cc"), (".hpp", ".h")), (GXX, "c++17"), "cpp/main.cpp"),
    # C's <math.h> needs the mathematics library, -lm, which C++'s does not.
    "c": _gnu("c", "C", ((".c",), (".h",)), (GCC, "c11"), "c/greedy_engine.c", "-lm"),
}
"""Every language the league builds, by the manifest's word for it."""

PROGRAMS = tuple(name for name, language in LANGUAGES.items() if language.names == "main")
"""The languages of programs named by their entry file (the others name a class)."""


def source_suffixes() -> tuple[str, ...]:
    """Every language's sources' suffixes, in the table's order, each once (two languages may
    share a header's suffix)."""
    return tuple(dict.fromkeys(end for language in LANGUAGES.values() for end in language.suffixes))


def language_of(path: str) -> Language | None:
    """The language of a program whose entry file is ``path`` (by its suffix: a header is
    no entry file), or ``None``."""
    return next(
        (LANGUAGES[name] for name in PROGRAMS if path.endswith(LANGUAGES[name].entries)), None
    )


def in_words(names: tuple[str, ...] = tuple(LANGUAGES)) -> str:
    """The languages ``names`` in prose: ``Java, Python or JavaScript``."""
    words = [LANGUAGES[name].words for name in names]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
