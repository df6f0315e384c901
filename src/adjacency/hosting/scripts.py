"""Python and JavaScript programs as bots: which kind a project is, and its entry file.

A project is one of three kinds (:func:`choose`): a Java course project (built by
:mod:`.java_build`), or a Python or JavaScript program that speaks the engine protocol
itself (the Python and JavaScript starter kits, or a program of one's own such as
``examples/engines/minimal_engine.py``). The manifest (:mod:`.manifest`) decides when it
names a language; without one, the project's files do:

- an *entry file* is a Python or JavaScript source that answers the protocol's handshake
  (its text holds ``aepok``, the answer to ``aep``), as the kits' ``engine.py`` and
  ``engine.js`` and every protocol program do;
- one entry file and no Java source: that program, with no arguments (a kit plays its
  default bot); Java sources and no entry file: the Java build;
- anything else (several entry files, Java beside one, Python or JavaScript files but no
  entry file) is refused with what was found and the manifest that would choose.

A program is played as the files of its language (and a ``package.json``) written to a
folder (:func:`write_program`), which the sandbox mounts read-only: nothing is installed,
so a program that needs an npm or pip package fails its check (:func:`packages_note`
says why). :func:`check_command` and :func:`run_command` are the command lines inside
the sandbox, the program's folder at ``root``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .intake import MANIFEST, TEXTS, Intake
from .manifest import LANGUAGES, Manifest, ManifestError, read
from .sources import ProjectError, decode

HANDSHAKE = "aepok"
"""What an engine-protocol program answers to ``aep``: the mark of an entry file."""

PYTHON = "/usr/bin/python3"
NODE = "/usr/bin/node"
"""Debian's interpreters (packages ``python3`` and ``nodejs``), as the sandbox sees them."""

NODE_HEAP_MB = 256
"""V8's old-space bound (``--max-old-space-size``): a heap that fits its sandbox, as
the JVM's ``-Xmx``."""

SCRIPT_LANGUAGES = ("python", "javascript")

_MISSING = re.compile(r"Cannot find (?:module|package) '([^'./][^']*)'|No module named '([^']+)'")


@dataclass(frozen=True)
class Program:
    """A Python or JavaScript program to play: its ``language``, its ``main`` file (path
    in the project) and ``args``."""

    language: str
    main: str
    args: list[str]

    def label(self) -> str:
        """How verdicts name it: ``python engine.py alphabeta``."""
        return shlex.join([self.language, self.main, *self.args])


def entry_files(intake: Intake) -> list[str]:
    """The Python and JavaScript sources that answer the protocol's handshake, sorted."""
    ends = LANGUAGES["python"] + LANGUAGES["javascript"]
    return sorted(path for path, data in intake.of(*ends).items() if HANDSHAKE in decode(data))


def _language(path: str) -> str:
    return next(name for name in SCRIPT_LANGUAGES if path.endswith(LANGUAGES[name]))


def _manifest_hint(entries: list[str]) -> str:
    example = entries[0] if entries else "engine.py"
    return (
        f'name it in {MANIFEST}: {{"language": "{_language(example)}", '
        f'"main": "{example}", "args": []}} (a Java bot: {{"class": "pkg.Bot"}})'
    )


def choose(intake: Intake) -> Program | None:
    """The program ``intake`` plays, or ``None`` for a Java course project (see the
    module's rules); :class:`~.sources.ProjectError` when it cannot decide, listing what
    it found, and :class:`~.manifest.ManifestError` for a manifest it cannot follow."""
    chosen: Manifest | None = None if intake.manifest is None else read(*intake.manifest)
    if chosen is not None:
        if chosen.language == "java":
            return None
        assert chosen.main is not None  # a program's manifest names its main file
        if chosen.main not in intake.sources:
            same = sorted(intake.of(*LANGUAGES[chosen.language]))
            raise ManifestError(
                f"{chosen.where}: 'main' {chosen.main!r} is not in the project; "
                f"{chosen.language} files found: {', '.join(same) or 'none'}"
            )
        return Program(chosen.language, chosen.main, chosen.args)
    entries = entry_files(intake)
    java = sorted(intake.of(".java"))
    if len(entries) == 1 and not java:
        return Program(_language(entries[0]), entries[0], [])
    if not entries and java:
        return None
    scripts = sorted(intake.of(*LANGUAGES["python"], *LANGUAGES["javascript"]))
    if not entries and not scripts:
        raise ProjectError(
            "no source in the project: a Java course project (.java), or a Python (.py) or "
            "JavaScript (.js, .mjs) program speaking the engine protocol"
        )
    found = "".join(f"\n  {path}: speaks the engine protocol" for path in entries)
    if java:
        found += f"\n  {len(java)} Java files ({java[0]}, ...)"
    if not entries:
        found += "".join(f"\n  {path}" for path in scripts[:20])
        raise ProjectError(
            "no Python or JavaScript file speaks the engine protocol (none answers 'aep' "
            "with 'aepok'); found:" + found + "\n" + _manifest_hint(scripts)
        )
    raise ProjectError(
        "the project holds more than one bot; found:" + found + "\n" + _manifest_hint(entries)
    )


def write_program(intake: Intake, program: Program, folder: Path) -> list[Path]:
    """Write ``program``'s language's sources and any ``package.json`` of ``intake``
    under ``folder`` (made here), keeping their paths; the sources written (the files
    to check: a ``package.json`` is not one)."""
    wanted = intake.of(*LANGUAGES[program.language])
    if program.language == "javascript":
        wanted |= {p: d for p, d in intake.sources.items() if PurePosixPath(p).name in TEXTS}
    written = []
    for path, data in sorted(wanted.items()):
        target = folder.joinpath(*PurePosixPath(path).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if path.endswith(LANGUAGES[program.language]):
            written.append(target)
    return written


def check_command(language: str, files: list[str]) -> list[str]:
    """The syntax check of ``files`` (paths as the sandbox sees them): Python's
    byte-compiler (``py_compile``, its cache in the private ``/tmp``: the program's
    folder is read-only), ``node --check`` for each JavaScript file."""
    if language == "python":
        return [PYTHON, "-m", "py_compile", *files]
    script = 'status=0; for f do "$0" --check "$f" || status=1; done; exit $status'
    return ["/bin/sh", "-c", script, NODE, *files]


CHECK_ENV = {"PYTHONPYCACHEPREFIX": "/tmp/pycache"}
"""The check's environment: Python writes its byte code to the private ``/tmp``."""


def run_command(language: str, main: str, args: list[str]) -> list[str]:
    """The program's command line (``main``: its entry file as the sandbox sees it):
    Python unbuffered (a program that forgets to flush still answers), writing no byte
    code, without the user's site folder; Node with its heap bounded (:data:`NODE_HEAP_MB`)."""
    if language == "python":
        return [PYTHON, "-u", "-B", "-s", main, *args]
    return [NODE, f"--max-old-space-size={NODE_HEAP_MB}", main, *args]


def packages_note(detail: str) -> str:
    """A note for a check's failure that names a missing package (Node's ``Cannot find
    module``, Python's ``No module named``): the league installs none; else ``""``."""
    found = _MISSING.search(detail)
    if found is None:
        return ""
    name = found.group(1) or found.group(2)
    return (
        f"\nthe program needs the package {name!r}, which is not installed here: the league "
        "installs no npm or pip package (node_modules and site-packages are left out, never "
        "loaded); a hosted program uses its language's standard library and its own files"
    )
