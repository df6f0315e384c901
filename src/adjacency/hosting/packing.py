"""A project packed as the league keeps it: :func:`pack`.

A project as the team has it (a folder, or a zip such as GitHub's Download ZIP of any
size) goes through the intake (:func:`~.intake.take_in`: its limits checked before a
byte is read; only the kept files are read: sources, manifest, a JavaFX program's
resources), and those files alone are written into a new zip whose bytes depend only on
their names and contents (sorted, fixed dates, the zip's one top folder taken off, so a
folder and its Download ZIP pack alike): the same sources always make the same bytes, so
the league's hash names them as the same version, whatever else the project holds. The
team's machine packs before it uploads (``adjacency league submit``) and the server
packs what its page receives, with this one function: one project is one version by
either route. The JavaFX SDK's jars and DLLs, the report, the screenshots, installed
packages (``node_modules``, ``site-packages``: the league installs none) are left out
and named (:attr:`Packed.left_out`), never read or stored.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .intake import MANIFEST, SOURCE_SUFFIXES, IntakeRefused, take_in
from .languages import PROGRAMS, in_words

FIXED_DATE = (1980, 1, 1, 0, 0, 0)
"""Every packed entry's date (zip's earliest): the packed bytes depend on the files only."""

PACKED = b"adjacency: packed kept files"
"""The packed zip's comment: a zip that carries it is packed already, so its one top
folder, if any, is the project's own (``src/``) and stays; packing it again gives the same
bytes (the server packs what ``league submit`` packed)."""

MAX_PACKED = 5 * 1024 * 1024
"""Largest packed project, in bytes: the kept files' limit
(:data:`~.intake.MAX_KEPT_BYTES`) keeps every project under it."""


PROGRAM_SKIPPED = frozenset(
    {".git", ".idea", "out", "bin", "build", "target", "node_modules", "test", "__MACOSX"}
)
"""Folders whose files are no part of a program played through its window: version
control, outputs of IDEs and build tools, test sources (they need test libraries a course
program's build does not have), archivers' debris."""


@dataclass(frozen=True)
class Packed:
    """A project packed for the league: the zip's bytes, the files in it, those left out
    (``installed``: those of them in installed packages' folders, which the league never
    installs or loads)."""

    data: bytes
    files: list[str]
    left_out: list[str]
    installed: list[str]


def top_folder(names: list[str]) -> str:
    """The one folder every name lies in (``tubes-main/``, as GitHub's Download ZIP wraps
    a project), or ``""`` when there is none."""
    tops = {name.split("/", 1)[0] for name in names}
    if len(tops) != 1 or any("/" not in name for name in names):
        return ""
    return f"{tops.pop()}/"


def _packed(path: Path) -> bool:
    """Whether ``path`` is a zip this module packed (its comment is :data:`PACKED`)."""
    if not path.is_file():
        return False
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.comment == PACKED
    except (zipfile.BadZipFile, OSError):
        return False


def pack(path: Path) -> Packed:
    """The kept files of the project at ``path`` as a deterministic zip, named from the
    project's own root; the intake's refusals (:class:`~.intake.IntakeRefused`), also
    for a project with neither a source nor a manifest, are raised before anything is
    sent or stored (a manifest's own errors are the build's to tell)."""
    files, left_out, installed = _kept(path)
    return Packed(pack_files(files), sorted(files), left_out, installed)


def _kept(path: Path) -> tuple[dict[str, bytes], list[str], list[str]]:
    """The project's kept files (path from its own root -> bytes), the files left out and
    those of them in installed packages' folders (:func:`pack`'s refusals raised)."""
    intake = take_in(path)
    kept = intake.kept()
    if not intake.of(*SOURCE_SUFFIXES) and intake.manifest is None:
        raise IntakeRefused(
            f"rule 'a source': no source ({', '.join(SOURCE_SUFFIXES)}) in {path.name!r}: "
            f"nothing to submit (a Java course project, or a {in_words(PROGRAMS)} "
            "engine-protocol program)"
        )
    top = "" if _packed(path) else top_folder([*kept, *intake.left_out])
    files = {name.removeprefix(top): data for name, data in kept.items()}
    left_out = sorted(name.removeprefix(top) for name in intake.left_out)
    installed = sorted(name.removeprefix(top) for name in intake.installed)
    return files, left_out, installed


def program_files(path: Path) -> tuple[dict[str, bytes], list[str], list[str]]:
    """The files of the program of the project at ``path`` (a folder, its Download ZIP,
    or a packed zip), to be played through its window: its kept files as :func:`pack`
    keeps them (one intake, one set of limits), less those in folders that are no part of
    the program (:data:`PROGRAM_SKIPPED`) and less any manifest; every file of the
    project not in the program, sorted; and those of them in installed packages' folders.
    :class:`~.intake.IntakeRefused` for a project without a Java source."""
    files, left_out, installed = _kept(path)
    program = {
        name: data
        for name, data in files.items()
        if not PROGRAM_SKIPPED & set(PurePosixPath(name).parts[:-1])
        and PurePosixPath(name).name != MANIFEST
    }
    if not any(name.endswith(".java") for name in program):
        raise IntakeRefused(f"rule 'a source': no Java source in {path.name!r}: no program to play")
    skipped = set(files) - set(program) - {MANIFEST}
    return program, sorted([*left_out, *skipped]), installed


def pack_program(path: Path, choices: dict[str, str]) -> Packed:
    """The project at ``path`` packed to be played as its own JavaFX program, through its
    window (docs/javafx-driver.md): its program's files (:func:`program_files`) and the
    manifest that asks for it with the team's ``choices`` in its window's form
    (``{"language": "javafx", "choose": ...}``, in place of any manifest of its own).
    Packing the result again gives the same bytes."""
    files, left_out, installed = program_files(path)
    files[MANIFEST] = program_manifest(choices)
    return Packed(pack_files(files), sorted(files), left_out, installed)


def program_manifest(choices: dict[str, str]) -> bytes:
    """The manifest that asks for a program to be played through its window with the
    team's ``choices`` in its form: ``{"language": "javafx", "choose": ...}``."""
    manifest = {"language": "javafx", "choose": choices}
    return (json.dumps(manifest, sort_keys=True) + "\n").encode("utf-8")


def pack_files(files: dict[str, bytes]) -> bytes:
    """``files`` as a deterministic zip (sorted, fixed dates, marked :data:`PACKED`), at
    most :data:`MAX_PACKED` bytes (else :class:`~.intake.IntakeRefused` naming the rule)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.comment = PACKED
        for name in sorted(files):
            entry = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, files[name])
    data = buffer.getvalue()
    if len(data) > MAX_PACKED:
        raise IntakeRefused(
            f"rule 'packed size': the project's kept files pack to {len(data):,} bytes, "
            f"more than {MAX_PACKED:,}"
        )
    return data
