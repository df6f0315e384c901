"""Taking in a project as a team has it: a folder or a zip, checked before anything is read.

A project is hostile input (it may come from an upload): :func:`take_in` enforces every
limit on the zip's directory or the folder's listing *before* any file's content is read
or anything is written, and refuses with :class:`IntakeRefused` naming the rule (a kept
file's name that a compiler would read as an option, :func:`check_operand`, among them). Only what
is kept is ever read, and only what is kept counts against the size limits, each file
bounded and all of them together (:data:`MAX_KEPT_BYTES`): the sources (every language's
of :data:`~.languages.LANGUAGES`: :data:`SOURCE_SUFFIXES`, and their other texts such as a
``package.json``), the manifest, and a
JavaFX program's resources (FXML, CSS, ``.properties``, an IntelliJ module's ``.iml`` for
its resource roots, and the pictures its sources, FXML or CSS name:
:data:`RESOURCE_SUFFIXES`, :data:`IMAGE_SUFFIXES`). Everything else is named
(:attr:`Intake.left_out`) and never opened: a GitHub Download ZIP of 150 MB with the
JavaFX SDK's jars and DLLs, the PDF report and the screenshots is taken for its few
hundred kilobytes of sources, read from the zip's directory and extracted selectively.
What it returns is in memory only; nothing is extracted to disk here, and nothing a
project lists as a dependency is ever installed.
"""

from __future__ import annotations

import os
import re
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..core.errors import AdjacencyError
from .languages import LANGUAGES, source_suffixes

MAX_ZIP_BYTES = 512 * 1024 * 1024
"""Largest zip accepted, in bytes (as stored): only its directory and kept entries are
read, so a Download ZIP with the JavaFX SDK inside (80-150 MB) is taken."""
MAX_KEPT_BYTES = 4 * 1024 * 1024
"""Largest total size of the kept files, unpacked (sources, manifest, resources): a
course project's are a few hundred kilobytes; packed, they fit an upload."""
MAX_FILE_BYTES = 1024 * 1024
"""Largest kept text file (a source, FXML, CSS, ``.properties``, ``.iml``, manifest)."""
MAX_IMAGE_BYTES = 2 * 1024 * 1024
"""Largest kept picture."""
MAX_FILES = 20_000
"""Most entries (files and folders) in a project (its listing is read, never its
left-out files)."""
MAX_RATIO = 100
"""Largest compression ratio of one zip entry over :data:`BOMB_FLOOR` bytes (a zip bomb's mark)."""
BOMB_FLOOR = 1024 * 1024
"""Entries smaller than this are not held to :data:`MAX_RATIO` (small text compresses well)."""

MANIFEST = "adjacency-bot.json"
"""The file in which a team names its bot (its language, class or main file, arguments)."""

SOURCE_SUFFIXES = source_suffixes()
"""The sources read: every language's the league builds (:data:`~.languages.LANGUAGES`)."""

RESOURCE_SUFFIXES = (".fxml", ".css", ".properties", ".iml", ".mf")
"""A JavaFX program's resources kept as text: its windows (FXML), their styles, its
properties, an IntelliJ module file (which names the resource roots) and a jar's
manifest (which names the main class)."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp")
"""Pictures JavaFX can load: kept when a kept text names them (the program loads them),
each at most :data:`MAX_IMAGE_BYTES`; screenshots no source names are left out."""

ROOTS = ("src", "resources", "src/main/resources", "src/main/java")
"""The folders an IDE takes as source or resource roots without being told."""

TEXTS = frozenset(text for language in LANGUAGES.values() for text in language.texts)
"""Other files read as text, its languages' (:attr:`~.languages.Language.texts`): Node
reads a ``package.json`` (its ``type``), and it is shown to the team; its dependencies
are never installed."""

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
    ``None``), ``resources`` (path -> bytes of the kept resources: :data:`RESOURCE_SUFFIXES`
    and the named pictures), ``left_out`` (every other file's path, unread)."""

    sources: dict[str, bytes] = field(default_factory=dict)
    manifest: tuple[str, bytes] | None = None
    left_out: list[str] = field(default_factory=list)
    resources: dict[str, bytes] = field(default_factory=dict)

    def of(self, *suffixes: str) -> dict[str, bytes]:
        """The sources whose names end with one of ``suffixes`` (``".java"``: a Java build's)."""
        return {path: data for path, data in self.sources.items() if path.endswith(suffixes)}

    @property
    def installed(self) -> list[str]:
        """The left-out files inside :data:`INSTALLED` folders (packages never loaded)."""
        return [p for p in self.left_out if INSTALLED & set(PurePosixPath(p).parts[:-1])]

    def kept(self) -> dict[str, bytes]:
        """Every kept file, path -> bytes: sources, manifest and resources."""
        files = {**self.sources, **self.resources}
        if self.manifest is not None:
            files[self.manifest[0]] = self.manifest[1]
        return files

    def roots(self) -> list[str]:
        """The project's source and resource roots, as an IDE finds them: each of
        :data:`ROOTS` that a kept file lies under (at any depth: ``tubes-main/src``), and
        the folders each kept IntelliJ module (``.iml``) names as source or resource
        folders; sorted, each relative to the project."""
        found: set[str] = set()
        for path in self.kept():
            parents = PurePosixPath(path).parent.parts
            for root in ROOTS:
                wanted = tuple(root.split("/"))
                for start in range(len(parents) - len(wanted) + 1):
                    if parents[start : start + len(wanted)] == wanted:
                        found.add("/".join(parents[: start + len(wanted)]))
                        break
        for path, data in self.resources.items():
            if path.endswith(".iml"):
                found.update(iml_roots(path, data))
        return sorted(found)


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


OPTION_MARKS = ("@", "-")
"""First characters that make a name an option to a compiler or tool: ``-`` starts an
option, ``@`` names a file of options (``g++``'s, ``javac``'s, ``java``'s response
files). Every tool the league runs gets a team's files as paths that start with ``./``
or ``/`` all the same (:func:`~.languages.operand`); a kept file whose name, or a
folder of whose path, begins with one of these is refused here, so that no such name
reaches a command line at all."""


def check_operand(name: str) -> None:
    """:class:`IntakeRefused` where a part of the kept file ``name`` (a folder of its
    path, or its own name) begins with one of :data:`OPTION_MARKS`, naming the part."""
    for part in PurePosixPath(name).parts:
        if part.startswith(OPTION_MARKS):
            raise IntakeRefused(
                f"rule 'no option-like names': {name!r} has a name beginning with "
                f"{part[0]!r} ({part!r}), which compilers read as an option or a file of "
                "options; rename it (file and folder names start with a letter, a digit, "
                "'_' or '.')"
            )


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


IML_FOLDER = re.compile(
    r"<sourceFolder\b[^>]*\burl=\"file://\$MODULE_DIR\$/([^\"]*)\"[^>]*>", re.IGNORECASE
)
"""A source or resource folder of an IntelliJ module file (its ``url`` under the module's
folder)."""


def iml_roots(path: str, data: bytes) -> set[str]:
    """The folders the IntelliJ module file at ``path`` names as its sources' or
    resources' (test folders included: the IDE puts them on the class path too), relative
    to the project; names that would climb out of it are ignored."""
    home = PurePosixPath(path).parent
    found: set[str] = set()
    for match in IML_FOLDER.finditer(data.decode("utf-8", "replace")):
        folder = (home / match.group(1)).as_posix()
        parts = PurePosixPath(folder).parts
        if ".." not in parts and not PurePosixPath(folder).is_absolute():
            found.add("" if folder == "." else folder)
    return found


def _wanted(name: str) -> str:
    """'source', 'manifest', 'resource', 'image' or 'other' for a path inside the
    project (anything inside an :data:`INSTALLED` or :data:`CACHES` folder is 'other')."""
    path = PurePosixPath(name)
    if (INSTALLED | CACHES) & set(path.parts[:-1]):
        return "other"
    if path.name == MANIFEST:
        return "manifest"
    lower = path.name.lower()
    if path.name.endswith(SOURCE_SUFFIXES) or path.name in TEXTS:
        return "source"
    if lower.endswith(RESOURCE_SUFFIXES):
        return "resource"
    if lower.endswith(IMAGE_SUFFIXES):
        return "image"
    return "other"


class _Budget:
    """The kept files' bytes, checked against their limits before any is read."""

    def __init__(self) -> None:
        self.total = 0

    def take(self, name: str, size: int, kind: str) -> None:
        """Count ``size`` bytes of the kept file ``name``, or :class:`IntakeRefused`."""
        limit = MAX_IMAGE_BYTES if kind == "image" else MAX_FILE_BYTES
        if size > limit:
            raise IntakeRefused(
                f"rule 'kept file size': {name!r} is {size} bytes, more than {limit} "
                f"({'a picture' if kind == 'image' else 'a text file'} the program would read)"
            )
        self.total += size
        if self.total > MAX_KEPT_BYTES:
            raise IntakeRefused(
                f"rule 'kept size': the sources and resources add up to more than "
                f"{MAX_KEPT_BYTES} bytes (at {name!r})"
            )


def _named(name: str, texts: list[bytes]) -> bool:
    """Whether a picture's file name appears in one of the kept ``texts`` (its sources,
    FXML or CSS load it by that name)."""
    needle = PurePosixPath(name).name.encode("utf-8", "replace")
    return any(needle in text for text in texts)


def _pictures(names: list[tuple[str, int]], texts: list[bytes]) -> tuple[set[str], list[str]]:
    """Which of the pictures ``names`` (each with its size) the kept ``texts`` name: the
    kept ones, and the rest (left out)."""
    kept = {name for name, _ in names if _named(name, texts)}
    return kept, [name for name, _ in names if name not in kept]


def _add(intake: Intake, name: str, data: bytes | None) -> None:
    kind = _wanted(name)
    if kind == "source" and data is not None:
        intake.sources[name] = data
    elif kind in ("resource", "image") and data is not None:
        intake.resources[name] = data
    elif kind == "manifest" and data is not None:
        if intake.manifest is not None:
            raise IntakeRefused(
                f"rule 'one manifest': both {intake.manifest[0]!r} and {name!r} are {MANIFEST}"
            )
        intake.manifest = (name, data)
    else:
        intake.left_out.append(name)


def take_in_zip(path: Path) -> Intake:
    """The project in the zip ``path``; every rule checked on its directory first, then
    only the kept entries read (texts first, then the pictures they name)."""
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
        names: set[str] = set()
        texts: list[zipfile.ZipInfo] = []
        images: list[tuple[str, int]] = []
        by_name: dict[str, zipfile.ZipInfo] = {}
        left_out: list[str] = []
        budget = _Budget()
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
            if info.is_dir():
                continue
            wanted = _wanted(name)
            if wanted == "other":
                left_out.append(name)
                continue
            check_operand(name)
            if info.file_size > BOMB_FLOOR and info.file_size > MAX_RATIO * max(
                1, info.compress_size
            ):
                raise IntakeRefused(
                    f"rule 'compression ratio': the entry {info.filename!r} unpacks "
                    f"{info.compress_size} bytes into {info.file_size}, more than "
                    f"{MAX_RATIO} to 1"
                )
            by_name[name] = info
            if wanted == "image":
                images.append((name, info.file_size))
            else:
                budget.take(name, info.file_size, wanted)
                texts.append(info)
        intake = Intake(left_out=left_out)
        for info in texts:
            _add(intake, check_name(info.filename), _read_entry(archive, info))
        kept, unnamed = _pictures(images, [*intake.kept().values()])
        intake.left_out.extend(unnamed)
        for name, picture_size in images:
            if name in kept:
                budget.take(name, picture_size, "image")
                _add(intake, name, _read_entry(archive, by_name[name]))
    intake.left_out.sort()
    return intake


def _read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A kept entry's bytes (at most its checked ``file_size``), or :class:`IntakeRefused`."""
    try:
        return archive.read(info)
    except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as exc:
        raise IntakeRefused(
            f"rule 'readable entries': {info.filename!r} cannot be read ({exc})"
        ) from None


def take_in_folder(root: Path) -> Intake:
    """The project in the folder ``root``, walked without following links; links, devices,
    too many files or kept files too large are refused before a file is read, and only
    the kept files are read."""
    found: list[tuple[str, int]] = []
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
            status = full.lstat()
            relative = full.relative_to(root).as_posix()
            kind = _kind(status.st_mode)
            if kind is not None:
                raise IntakeRefused(f"rule 'no links or devices': {relative!r} is {kind}")
            found.append((relative, status.st_size))
        if len(found) > MAX_FILES:
            raise IntakeRefused(f"rule 'file count': more than {MAX_FILES} files under {root}")
    budget = _Budget()
    images: list[tuple[str, int]] = []
    intake = Intake()
    texts: list[str] = []
    for relative, size in found:
        wanted = _wanted(relative)
        if wanted == "other":
            intake.left_out.append(relative)
            continue
        check_operand(relative)
        if wanted == "image":
            images.append((relative, size))
        else:
            budget.take(relative, size, wanted)
            texts.append(relative)
    for relative in texts:
        _add(intake, relative, (root / relative).read_bytes())
    kept, unnamed = _pictures(images, [*intake.kept().values()])
    intake.left_out.extend(unnamed)
    for relative, size in images:
        if relative in kept:
            budget.take(relative, size, "image")
            _add(intake, relative, (root / relative).read_bytes())
    intake.left_out.sort()
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
