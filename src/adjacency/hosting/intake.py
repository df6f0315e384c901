"""Taking in a project as a team has it: a folder or a zip, checked before anything is read.

A project is hostile input (it may come from an upload): :func:`take_in` enforces every
limit on the zip's directory or the folder's listing *before* any file's content is read
or anything is written, and refuses with :class:`IntakeRefused` naming the rule. What it
returns is in memory only: the sources (Java, Python, JavaScript: :data:`SOURCE_SUFFIXES`,
and a ``package.json`` as text) and the manifest (the only files ever read), and the
names of everything left out (jars, native libraries, reports, images, class files,
installed packages: :data:`INSTALLED`), none of which is opened. Nothing is extracted to
disk here, and nothing a project lists as a dependency is ever installed.
"""

from __future__ import annotations

import os
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..core.errors import AdjacencyError

MAX_ZIP_BYTES = 5 * 1024 * 1024
"""Largest zip accepted, in bytes (as stored)."""
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
"""Largest total size of the project's files, unpacked."""
MAX_FILES = 2000
"""Most entries (files and folders) in a project."""
MAX_RATIO = 100
"""Largest compression ratio of one zip entry over :data:`BOMB_FLOOR` bytes (a zip bomb's mark)."""
BOMB_FLOOR = 1024 * 1024
"""Entries smaller than this are not held to :data:`MAX_RATIO` (small text compresses well)."""

MANIFEST = "adjacency-bot.json"
"""The file in which a team names its bot (its language, class or main file, arguments)."""

SOURCE_SUFFIXES = (".java", ".py", ".js", ".mjs", ".cjs")
"""The sources read: Java, Python and JavaScript (the kinds the league builds)."""

TEXTS = frozenset({"package.json"})
"""Other files read as text: Node reads a ``package.json`` (its ``type``), and it is
shown to the team; its dependencies are never installed."""

INSTALLED = frozenset({"node_modules", "site-packages", "dist-packages", ".venv"})
"""Folders of installed packages: left out, never read or loaded (the league installs no
npm or pip package; a program needing one fails its check)."""

CACHES = frozenset({"__pycache__"})
"""Folders of compiled caches (Python's byte code): left out, never read."""

SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn"})
"""Version-control folders of a project folder: not counted, not read (a zip has none to skip)."""

BUILD_MARKER = ".adjacency-build"
"""The file that marks a folder as a build's output: inside a project folder (a build made
there) it is skipped like the version-control folders, so a rebuild never reads its own
output as sources."""


class IntakeRefused(AdjacencyError):
    """A project that breaks an intake rule; the message names the rule and the entry."""


@dataclass
class Intake:
    """What was taken in: ``sources`` (path -> bytes of every source file,
    :data:`SOURCE_SUFFIXES`, and of :data:`TEXTS`), ``manifest`` (path and bytes, or
    ``None``), ``left_out`` (every other file's path, unread)."""

    sources: dict[str, bytes] = field(default_factory=dict)
    manifest: tuple[str, bytes] | None = None
    left_out: list[str] = field(default_factory=list)

    def of(self, *suffixes: str) -> dict[str, bytes]:
        """The sources whose names end with one of ``suffixes`` (``".java"``: a Java build's)."""
        return {path: data for path, data in self.sources.items() if path.endswith(suffixes)}

    @property
    def installed(self) -> list[str]:
        """The left-out files inside :data:`INSTALLED` folders (packages never loaded)."""
        return [p for p in self.left_out if INSTALLED & set(PurePosixPath(p).parts[:-1])]


def check_name(name: str) -> str:
    """A zip entry's name as a safe relative path, or :class:`IntakeRefused`: no absolute
    name, no drive, no ``..``, no backslash tricks, nothing empty."""
    if "\\" in name or "\x00" in name:
        raise IntakeRefused(f"rule 'plain names': the entry {name!r} has a backslash or NUL")
    path = PurePosixPath(name)
    if path.is_absolute() or (len(name) > 1 and name[1] == ":"):
        raise IntakeRefused(f"rule 'no absolute names': the entry {name!r} is absolute")
    if ".." in path.parts:
        raise IntakeRefused(f"rule 'no .. in names': the entry {name!r} climbs out of the project")
    if not path.parts:
        raise IntakeRefused(f"rule 'plain names': the entry {name!r} is empty")
    return path.as_posix()


def _kind(mode: int) -> str | None:
    """What a file mode is when it is not a plain file or folder (``None`` when it is)."""
    if stat.S_ISLNK(mode):
        return "a link"
    for test, kind in (
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return None


def _wanted(name: str) -> str:
    """'source', 'manifest' or 'other' for a path inside the project (anything inside
    an :data:`INSTALLED` or :data:`CACHES` folder is 'other')."""
    path = PurePosixPath(name)
    if (INSTALLED | CACHES) & set(path.parts[:-1]):
        return "other"
    if path.name == MANIFEST:
        return "manifest"
    return "source" if path.name.endswith(SOURCE_SUFFIXES) or path.name in TEXTS else "other"


def _add(intake: Intake, name: str, data: bytes | None) -> None:
    kind = _wanted(name)
    if kind == "source" and data is not None:
        intake.sources[name] = data
    elif kind == "manifest" and data is not None:
        if intake.manifest is not None:
            raise IntakeRefused(
                f"rule 'one manifest': both {intake.manifest[0]!r} and {name!r} are {MANIFEST}"
            )
        intake.manifest = (name, data)
    else:
        intake.left_out.append(name)


def take_in_zip(path: Path) -> Intake:
    """The project in the zip ``path``; every rule checked on its directory first."""
    size = path.stat().st_size
    if size > MAX_ZIP_BYTES:
        raise IntakeRefused(
            f"rule 'zip size': {path.name} is {size} bytes, more than {MAX_ZIP_BYTES}"
        )
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise IntakeRefused(
            f"rule 'a zip file': {path.name} cannot be read as one ({exc})"
        ) from None
    with archive:
        entries = archive.infolist()
        if len(entries) > MAX_FILES:
            raise IntakeRefused(f"rule 'file count': {len(entries)} entries, more than {MAX_FILES}")
        total = 0
        names: set[str] = set()
        for info in entries:
            name = check_name(info.filename).rstrip("/")
            if name in names:
                raise IntakeRefused(
                    f"rule 'unique names': the entry {info.filename!r} is in the zip twice"
                )
            names.add(name)
            mode = info.external_attr >> 16
            if info.create_system == 3 and mode:  # Unix attributes: the file's type
                kind = _kind(mode)
                if kind is not None:
                    raise IntakeRefused(
                        f"rule 'no links or devices': the entry {info.filename!r} is {kind}"
                    )
            total += info.file_size
            if info.file_size > BOMB_FLOOR and info.file_size > MAX_RATIO * max(
                1, info.compress_size
            ):
                raise IntakeRefused(
                    f"rule 'compression ratio': the entry {info.filename!r} unpacks "
                    f"{info.compress_size} bytes into {info.file_size}, more than "
                    f"{MAX_RATIO} to 1"
                )
        if total > MAX_UNPACKED_BYTES:
            raise IntakeRefused(
                f"rule 'unpacked size': the entries add up to {total} bytes, more than "
                f"{MAX_UNPACKED_BYTES}"
            )
        intake = Intake()
        for info in entries:
            if info.is_dir():
                continue
            wanted = _wanted(info.filename) != "other"
            data = None
            if wanted:
                try:
                    data = archive.read(info)  # at most its checked file_size
                except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as exc:
                    raise IntakeRefused(
                        f"rule 'readable entries': {info.filename!r} cannot be read ({exc})"
                    ) from None
            _add(intake, check_name(info.filename), data)
    return intake


def take_in_folder(root: Path) -> Intake:
    """The project in the folder ``root``, walked without following links; links, devices,
    too many files or too many bytes are refused before a file is read."""
    found: list[tuple[str, int]] = []
    total = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in SKIPPED_FOLDERS
            and not (
                (here / d).is_dir()
                and not (here / d).is_symlink()
                and (here / d / BUILD_MARKER).is_file()
            )
        )
        for name in sorted(files) + [d for d in dirs if (here / d).is_symlink()]:
            full = here / name
            mode = full.lstat().st_mode
            relative = full.relative_to(root).as_posix()
            kind = _kind(mode)
            if kind is not None:
                raise IntakeRefused(f"rule 'no links or devices': {relative!r} is {kind}")
            total += full.lstat().st_size
            found.append((relative, mode))
        if len(found) > MAX_FILES:
            raise IntakeRefused(f"rule 'file count': more than {MAX_FILES} files under {root}")
        if total > MAX_UNPACKED_BYTES:
            raise IntakeRefused(
                f"rule 'unpacked size': the files under {root} add up to more than "
                f"{MAX_UNPACKED_BYTES} bytes"
            )
    intake = Intake()
    for relative, _ in found:
        wanted = _wanted(relative) != "other"
        _add(intake, relative, (root / relative).read_bytes() if wanted else None)
    return intake


def take_in(path: Path) -> Intake:
    """A folder or a ``.zip`` as the team has it (see the module's rules)."""
    if path.is_symlink():
        raise IntakeRefused(f"rule 'no links or devices': {str(path)!r} is a link")
    if path.is_dir():
        return take_in_folder(path)
    if path.is_file():
        return take_in_zip(path)
    raise IntakeRefused(f"no project at {str(path)!r}: give a folder or a .zip file")
