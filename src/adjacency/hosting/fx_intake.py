"""A course project taken in for its own program: only what the program is made of is kept,
whatever else the project holds: :func:`take_in_program`.

Real projects arrive as GitHub's Download ZIP: the repository under one top folder, with
the JavaFX SDK's jars and native libraries (the SDK's web library alone is some 80 MB), the
team's report as a PDF and screenshots beside the sources. None of that is the program,
so none of it counts: the zip's directory is read (opening a zip reads nothing else), the
entries that are kept (:func:`kept`: sources, FXML, CSS, ``.properties``, images, IntelliJ
``.iml`` files and manifests, outside build outputs and test folders) are checked and
extracted one by one, each read no further than its bound, and every other entry (jar,
DLL, ``.so``, ``.class``, executables, documents) is neither stored nor opened. The limits
(:data:`MAX_KEPT_FILES`, :data:`MAX_KEPT_FILE`, :data:`MAX_KEPT_BYTES`, the compression
ratio) count only what is kept. A zip's single top folder is dropped, so the same project
from a folder or from its zip is the same files. A folder is read the same way, without
following links.
"""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path, PurePosixPath

from .intake import BOMB_FLOOR, MAX_RATIO, IntakeRefused, check_name

KEPT_SUFFIXES = (
    ".java",
    ".fxml",
    ".css",
    ".properties",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".bmp",
    ".iml",
    ".mf",
)
"""What of a project is its program: sources, what the program loads, the IDE's module
files (they name the resource roots) and manifests (they name the main class)."""

SKIPPED = frozenset(
    {".git", ".idea", "out", "bin", "build", "target", "node_modules", "test", "__MACOSX"}
)
"""Folders never read: version control, outputs of IDEs and build tools, test sources
(they need test libraries a course program's build does not have), archivers' debris."""

MAX_ZIP_BYTES = 1 << 30
"""Largest zip looked at (its directory only is read; the upload's own bound is the
server's)."""

MAX_ENTRIES = 100_000
"""Most entries in a zip's directory."""

MAX_KEPT_FILES = 2000
"""Most files kept."""

MAX_KEPT_FILE = 2 << 20
"""Largest kept file, in bytes."""

MAX_KEPT_BYTES = 20 << 20
"""Largest total of the kept files, in bytes."""


IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".bmp")
"""Images: one larger than :data:`MAX_KEPT_FILE` (a screenshot in the documentation) is
left out unread rather than refused."""


def kept(name: str) -> bool:
    """Whether the project's file ``name`` (a relative path) is part of its program."""
    path = PurePosixPath(name)
    if SKIPPED & set(path.parts[:-1]):
        return False
    return path.name.lower().endswith(KEPT_SUFFIXES)


def _large_image(name: str, size: int) -> bool:
    return name.lower().endswith(IMAGES) and size > MAX_KEPT_FILE


def _top_folder(names: list[str]) -> str:
    """The one top folder every name is under (GitHub's ``repo-main/``), or ``""``."""
    tops = {PurePosixPath(n).parts[0] for n in names}
    if len(tops) == 1 and all(len(PurePosixPath(n).parts) > 1 for n in names):
        return tops.pop() + "/"
    return ""


def _write(out: Path, name: str, data: bytes) -> None:
    target = out / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    target.chmod(0o644)


def _open_folders(out: Path) -> None:
    """Every folder under ``out`` searchable by the sandbox's users."""
    out.chmod(0o755)
    for folder in (p for p in out.rglob("*") if p.is_dir()):
        folder.chmod(0o755)


def _bound(count: int, total: int, name: str, size: int) -> None:
    if count > MAX_KEPT_FILES:
        raise IntakeRefused(f"rule 'file count': more than {MAX_KEPT_FILES} files are kept")
    if size > MAX_KEPT_FILE:
        raise IntakeRefused(
            f"rule 'file size': {name!r} is {size} bytes, more than {MAX_KEPT_FILE}"
        )
    if total > MAX_KEPT_BYTES:
        raise IntakeRefused(
            f"rule 'kept size': the kept files add up to more than {MAX_KEPT_BYTES} bytes"
        )


def _from_zip(path: Path, out: Path) -> list[str]:
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
        entries = [info for info in archive.infolist() if not info.is_dir()]
        if len(entries) > MAX_ENTRIES:
            raise IntakeRefused(
                f"rule 'file count': {len(entries)} entries, more than {MAX_ENTRIES}"
            )
        top = _top_folder([info.filename for info in entries])
        chosen = []
        total = 0
        for info in entries:
            name = info.filename.removeprefix(top)
            if not kept(name) or _large_image(name, info.file_size):
                continue  # never opened, never stored
            name = check_name(name)
            mode = info.external_attr >> 16
            if info.create_system == 3 and stat.S_IFMT(mode) not in (0, stat.S_IFREG):
                raise IntakeRefused(
                    f"rule 'no links or devices': the entry {info.filename!r} is not a plain file"
                )
            if info.file_size > BOMB_FLOOR and info.file_size > MAX_RATIO * max(
                1, info.compress_size
            ):
                raise IntakeRefused(
                    f"rule 'compression ratio': the entry {info.filename!r} unpacks "
                    f"{info.compress_size} bytes into {info.file_size}, more than {MAX_RATIO} to 1"
                )
            total += info.file_size
            chosen.append((name, info))
            _bound(len(chosen), total, name, info.file_size)
        names = set()
        for name, info in chosen:
            if name in names:
                raise IntakeRefused(f"rule 'unique names': {name!r} is in the zip twice")
            names.add(name)
            try:
                with archive.open(info) as entry:
                    data = entry.read(MAX_KEPT_FILE + 1)  # never past the bound, whatever it says
            except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as exc:
                raise IntakeRefused(
                    f"rule 'readable entries': {info.filename!r} cannot be read ({exc})"
                ) from None
            _bound(len(names), 0, name, len(data))
            _write(out, name, data)
    return sorted(names)


def _from_folder(root: Path, out: Path) -> list[str]:
    chosen: list[str] = []
    total = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not (here / d).is_symlink())
        for file in sorted(files):
            full = here / file
            name = full.relative_to(root).as_posix()
            if not kept(name) or _large_image(name, full.lstat().st_size):
                continue
            mode = full.lstat().st_mode
            if not stat.S_ISREG(mode):
                raise IntakeRefused(f"rule 'no links or devices': {name!r} is not a plain file")
            total += full.lstat().st_size
            chosen.append(name)
            _bound(len(chosen), total, name, full.lstat().st_size)
    for name in chosen:
        with (root / name).open("rb") as source:
            data = source.read(MAX_KEPT_FILE + 1)
        _bound(len(chosen), 0, name, len(data))
        _write(out, name, data)
    return chosen


def take_in_program(path: Path, out: Path) -> list[PurePosixPath]:
    """The program of the project at ``path`` (a folder, or a ``.zip`` such as GitHub's
    Download ZIP) written under ``out`` (a new folder of the server's, readable by the
    sandbox's users): the kept files' paths. :class:`~.intake.IntakeRefused` names the
    rule a kept file breaks; nothing else of the project is read."""
    if path.is_symlink():
        raise IntakeRefused(f"rule 'no links or devices': {str(path)!r} is a link")
    out.mkdir(parents=True, exist_ok=True)
    if path.is_dir():
        names = _from_folder(path, out)
    elif path.is_file():
        names = _from_zip(path, out)
    else:
        raise IntakeRefused(f"no project at {str(path)!r}: give a folder or a .zip file")
    _open_folders(out)
    return [PurePosixPath(name) for name in sorted(names)]
