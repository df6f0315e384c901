"""Programs as bots: which language a project is, and its entry file.

A project is a Java course project (built by :mod:`.java_build`), or a program that speaks
the engine protocol itself in one of the languages named by an entry file
(:data:`~.languages.PROGRAMS`: the starter kits, or a program of one's own such as
``examples/engines/minimal_engine.py``): :func:`choose`. The manifest (:mod:`.manifest`)
decides when it names a language; without one, the project's files do:

- an *entry file* is a source of a language whose entry is found so
  (:attr:`~.languages.Language.entry`) that answers the protocol's handshake (its text
  holds ``aepok``, the answer to ``aep``), as the kits' ``engine.py`` and ``engine.js``
  and every protocol program do;
- one entry file and no Java source: that program, with no arguments (a kit plays its
  default bot); Java sources and no entry file: the Java build;
- anything else (several entry files, Java beside one, a program's sources but no entry
  file) is refused with what was found and the manifest that would choose.

A program is played as the files of its language (and its other texts, such as a
``package.json``) written to a folder (:func:`write_program`), which the sandbox mounts
read-only: nothing is installed, so a program that needs an npm or pip package fails its
check (:func:`packages_note` says why). :func:`check_command` and :func:`run_command` are
its language's command lines inside the sandbox (:class:`~.languages.Language`).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .intake import MANIFEST, Intake
from .languages import HANDSHAKE, LANGUAGES, PROGRAMS, Checked, in_words, language_of
from .manifest import Manifest, ManifestError, read
from .sources import ProjectError, decode

ENTRIES = tuple(name for name in PROGRAMS if LANGUAGES[name].entry)
"""The languages whose entry file is found by its handshake, without a manifest."""

_MISSING = re.compile(r"Cannot find (?:module|package) '([^'./][^']*)'|No module named '([^']+)'")


@dataclass(frozen=True)
class Program:
    """A program to play: its ``language`` (a word of :data:`~.languages.LANGUAGES`), its
    ``main`` file (path in the project) and ``args``."""

    language: str
    main: str
    args: list[str]

    def label(self) -> str:
        """How verdicts name it: ``python engine.py alphabeta``."""
        return shlex.join([self.language, self.main, *self.args])


def _suffixes(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(end for name in names for end in LANGUAGES[name].suffixes)


def entry_files(intake: Intake) -> list[str]:
    """The sources of the languages found by their entry file (:data:`ENTRIES`) that
    answer the protocol's handshake, sorted (a header is never one: it may quote the
    handshake its program answers)."""
    ends = tuple(end for name in ENTRIES for end in LANGUAGES[name].entries)
    return sorted(path for path, data in intake.of(*ends).items() if HANDSHAKE in decode(data))


def _language(path: str) -> str:
    found = language_of(path)
    assert found is not None  # an entry file is a program's source
    return found.word


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
        if LANGUAGES[chosen.language].names == "class":
            return None
        assert chosen.main is not None  # a program's manifest names its main file
        if chosen.main not in intake.sources:
            same = sorted(intake.of(*LANGUAGES[chosen.language].suffixes))
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
    scripts = sorted(intake.of(*_suffixes(ENTRIES)))
    if not entries and not scripts:
        programs = " or ".join(
            f"{LANGUAGES[name].words} ({', '.join(LANGUAGES[name].suffixes)})" for name in ENTRIES
        )
        raise ProjectError(
            "no source in the project: a Java course project (.java), or a "
            f"{programs} program speaking the engine protocol"
        )
    found = "".join(f"\n  {path}: speaks the engine protocol" for path in entries)
    if java:
        found += f"\n  {len(java)} Java files ({java[0]}, ...)"
    if not entries:
        found += "".join(f"\n  {path}" for path in scripts[:20])
        raise ProjectError(
            f"no {in_words(ENTRIES)} file speaks the engine protocol (none answers 'aep' "
            "with 'aepok'); found:" + found + "\n" + _manifest_hint(scripts)
        )
    raise ProjectError(
        "the project holds more than one bot; found:" + found + "\n" + _manifest_hint(entries)
    )


def write_program(intake: Intake, program: Program, folder: Path) -> list[Path]:
    """Write ``program``'s language's sources and any ``package.json`` of ``intake``
    under ``folder`` (made here), keeping their paths; the sources written (the files
    to check: a ``package.json`` is not one)."""
    language = LANGUAGES[program.language]
    wanted = intake.of(*language.suffixes)
    wanted |= {p: d for p, d in intake.sources.items() if PurePosixPath(p).name in language.texts}
    written = []
    for path, data in sorted(wanted.items()):
        target = folder.joinpath(*PurePosixPath(path).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if path.endswith(language.suffixes):
            written.append(target)
    return written


def check_command(language: str, files: list[str]) -> list[str]:
    """The check of ``files`` (paths as the sandbox sees them) of a program in
    ``language``: its table entry's (:class:`~.languages.Checked`), such as Python's
    byte-compiler or ``node --check`` for each JavaScript file."""
    build = LANGUAGES[language].build
    assert isinstance(build, Checked), f"{language} programs are not checked alone"
    return build.command(files)


CHECK_ENV = {"PYTHONPYCACHEPREFIX": "/tmp/pycache"}
"""The check's environment: Python writes its byte code to the private ``/tmp``."""


def run_command(language: str, main: str, args: list[str]) -> list[str]:
    """The program's command line (``main``: its entry file as the sandbox sees it): its
    language's table entry's (:attr:`~.languages.Language.run`)."""
    run = LANGUAGES[language].run
    assert run is not None, f"{language} programs are not run by their entry file"
    return run(main, args)


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
