"""The languages a team's program may be written in, one table entry each: :data:`LANGUAGES`.

A language is everything the intake, the manifest, the choice of a project's kind and
the command line need to know of it, in one place (as a judge's table of languages
does): the manifest's word for it, its sources' suffixes (the intake reads those), how
its manifest names the bot (``class`` or ``main``), how its entry file is found, its
check command and its run command inside the sandbox, and its name in words with the
command that runs it on the team's own machine. Nothing outside this table asks which
language a program is: a language added here is read, chosen, checked and run.

What the league does with a program of each language over a game (its build, its
limits, its sandbox's binds) is its kind's, :data:`~.kinds.KINDS`, one entry per
language of this table.

This module is the bottom of the hosting room (the intake and the manifest read it); it
imports nothing of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..sandbox import OUTPUT

HANDSHAKE = "aepok"
"""What an engine-protocol program answers to ``aep``: the mark of an entry file."""

PYTHON = "/usr/bin/python3"
NODE = "/usr/bin/node"
"""Debian's interpreters (packages ``python3`` and ``nodejs``), as the sandbox sees them."""

GXX = "/usr/bin/g++"
"""Debian's C++ compiler (package ``g++``), as the build's sandbox sees it."""

ENGINE = "engine"
"""The program a compiled language's build writes, which is played."""

NODE_HEAP_MB = 256
"""V8's old-space bound (``--max-old-space-size``): a heap that fits its sandbox, as
the JVM's ``-Xmx``."""

Command = Callable[[str, list[str]], list[str]]
"""A command line from a file (as the sandbox or the team sees it) and arguments."""


def operand(path: str) -> str:
    """A file's path as a command line's operand, never an option: an absolute path as
    it is, any other from its folder (``./``), so that no tool reads a team's file named
    ``-x`` or ``@file`` as an option or a file of options (the intake refuses such names
    too: :func:`~.intake.check_operand`). Every command of this table names files so."""
    return path if path.startswith(("/", "./")) else f"./{path}"


@dataclass(frozen=True)
class Language:
    """One language: ``word`` (the manifest's ``language``), ``words`` (its name in prose),
    ``suffixes`` (its sources'), ``names`` (the manifest's key naming the bot: ``class``
    for a Java class, ``main`` for an entry file), ``entry`` (whether its entry file is
    found by the protocol's handshake in its text, :data:`HANDSHAKE`, without a manifest),
    ``texts`` (other files written beside its sources: Node's ``package.json``),
    ``check`` (its check of its sources inside the sandbox: the sources' paths to the
    argv; ``None`` for Java, which the projects' build compiles), ``tool`` (how a refusal
    names that check), ``run`` (the entry file and arguments to the argv that plays it in
    the sandbox; ``None`` for Java, played by the kit's runner) and ``local`` (the entry
    file and arguments to the command line that runs it as it is on the team's machine)."""

    word: str
    words: str
    suffixes: tuple[str, ...]
    names: str
    entry: bool
    texts: tuple[str, ...]
    check: Callable[[list[str]], list[str]] | None
    tool: str
    run: Command | None
    local: Command | None


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


def _gxx_compile(files: list[str]) -> list[str]:
    """``g++ -O2`` of the C++ translation units among ``files`` (its headers are only
    included) into :data:`ENGINE` in the build's output folder."""
    units = [path for path in files if path.endswith((".cpp", ".cc"))]
    return [GXX, "-std=c++17", "-O2", "-o", f"{OUTPUT}/{ENGINE}", *map(operand, units)]


def _compiled_run(engine: str, args: list[str]) -> list[str]:
    """The compiled program itself."""
    return [operand(engine), *args]


def _gxx_local(main: str, args: list[str]) -> list[str]:
    """Compile ``main`` beside itself with ``g++ -O2``, then run it."""
    script = 'g++ -std=c++17 -O2 -o "$0.engine" "$0" && exec "$0.engine" "$@"'
    return ["sh", "-c", script, main, *args]


def _interpreted(interpreter: str) -> Command:
    """The team's own ``interpreter`` running the entry file."""

    def local(main: str, args: list[str]) -> list[str]:
        return [interpreter, main, *args]

    return local


LANGUAGES: dict[str, Language] = {
    "java": Language("java", "Java", (".java",), "class", False, (), None, "javac", None, None),
    "python": Language(
        "python",
        "Python",
        (".py",),
        "main",
        True,
        (),
        _python_check,
        "python3 -m py_compile",
        _python_run,
        _interpreted("python3"),
    ),
    "javascript": Language(
        "javascript",
        "JavaScript",
        (".js", ".mjs", ".cjs"),
        "main",
        True,
        ("package.json",),
        _node_check,
        "node --check",
        _node_run,
        _interpreted("node"),
    ),
    "cpp": Language(
        "cpp",
        "C++",
        (".cpp", ".cc", ".hpp", ".h"),
        "main",
        True,
        (),
        _gxx_compile,
        "g++ -O2",
        _compiled_run,
        _gxx_local,
    ),
}
"""Every language the league builds, by the manifest's word for it."""

PROGRAMS = tuple(name for name, language in LANGUAGES.items() if language.names == "main")
"""The languages of programs named by their entry file (the others name a class)."""


def source_suffixes() -> tuple[str, ...]:
    """Every language's sources' suffixes, in the table's order."""
    return tuple(end for language in LANGUAGES.values() for end in language.suffixes)


def language_of(path: str) -> Language | None:
    """The language of a program whose entry file is ``path`` (by its suffix), or ``None``."""
    return next(
        (LANGUAGES[name] for name in PROGRAMS if path.endswith(LANGUAGES[name].suffixes)), None
    )


def in_words(names: tuple[str, ...] = tuple(LANGUAGES)) -> str:
    """The languages ``names`` in prose: ``Java, Python or JavaScript``."""
    words = [LANGUAGES[name].words for name in names]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
