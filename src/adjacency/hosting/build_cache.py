"""Finished builds kept by their content: a build whose every input was built before is
copied from the kept output instead of compiled again (:func:`restore`, :func:`keep`).

An entry's name is :func:`build_key`: SHA-256 over :data:`FORMAT`, the build's kind, its
toolchain in words (the compiler's and the libraries' identities, the options: the
caller's, whatever the output depends on) and every file the build may read, path and
bytes. Any change of one of them is another entry, so a hit gives exactly the files the
build would write, and a different toolchain never finds an older one's output.

Only the server's own process writes an entry, by copying what a finished build wrote to
its build folder (the compiler's output read back from its sandbox, :mod:`.build_output`);
a sandbox never sees the cache, which is read by copying into a new build folder. An
entry appears whole or not at all: it is written to a temporary folder in the cache,
then renamed to its key, so processes sharing the cache (a league's builders, a test
session's workers) never read a half-written one; one removed while it is copied is a
miss (the build runs). The cache holds at most :data:`MAX_ENTRIES` entries and
:data:`MAX_BYTES` bytes: past either, the least recently used go (:func:`evict`).

Where it is: :data:`CACHE_ENV` where set (a session's folder shared by every process, or
empty for none), else the folder the caller names (the league's: :data:`CACHE_FOLDER`
beside its version folders), else none (every build runs).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

CACHE_ENV = "ADJACENCY_BUILD_CACHE"
"""The environment variable naming the cache's folder for every build of the process and
its children (empty: no cache), over the caller's."""

CACHE_FOLDER = "build-cache"
"""The cache's folder among a league's version folders (whose names are
``MEMBER-VERSION``, so never this)."""

FORMAT = 1
"""The entries' format: raised whenever what a build writes changes in a way its inputs
do not show (a new output file, another layout), so older entries are never used."""

MAX_ENTRIES = 200
"""The most entries kept."""

MAX_BYTES = 256 << 20
"""The most bytes the entries take together."""

STALE_SECONDS = 3600.0
"""Age after which a temporary folder left by a process that died while writing is
removed."""

_TEMPORARY = (".new-", ".old-")


def cache_folder(default: Path | None) -> Path | None:
    """The cache's folder: :data:`CACHE_ENV`'s where set (``None`` where empty), else
    ``default``."""
    named = os.environ.get(CACHE_ENV)
    if named is not None:
        return Path(named) if named.strip() else None
    return default


def build_key(kind: str, toolchain: str, files: Mapping[str, bytes]) -> str:
    """The entry of a build of ``kind`` by ``toolchain`` (words naming all of the build's
    tools and options) reading ``files`` (path -> bytes): a SHA-256 in hex over
    :data:`FORMAT` and them, each part length-prefixed so no two inputs run together."""
    digest = hashlib.sha256()
    parts: list[bytes] = [f"adjacency-build {FORMAT}".encode(), kind.encode(), toolchain.encode()]
    for name in sorted(files):
        parts += [name.encode("utf-8", "surrogateescape"), files[name]]
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def _is_key(name: str) -> bool:
    return len(name) == 64 and all(c in "0123456789abcdef" for c in name)


def _copy(source: Path, target: Path) -> None:
    """Copy the file or folder ``source`` to ``target`` with its modes (no links
    followed: a build folder holds none)."""
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True)
    else:
        shutil.copy2(source, target, follow_symlinks=False)


def remove(folder: Path, names: Iterable[str]) -> None:
    """Remove ``names`` (files or folders) of ``folder`` where they are."""
    for name in names:
        path = folder / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def restore(cache: Path | None, key: str, folder: Path, names: Iterable[str]) -> bool:
    """Copy the entry ``key``'s ``names`` (files or folders, relative paths) into the
    build folder ``folder``, where each must not exist yet (their parents must): whether
    it was there. A copy that fails midway (the entry evicted meanwhile) removes what it
    copied and is a miss. A hit makes the entry the most recently used."""
    if cache is None or not _is_key(key):  # never a folder still being written
        return False
    entry = cache / key
    if not entry.is_dir():
        return False
    copied: list[str] = []
    try:
        for name in names:
            copied.append(name)
            _copy(entry / name, folder / name)
        os.utime(entry)
    except OSError:
        remove(folder, copied)
        return False
    return True


def keep(cache: Path | None, key: str, folder: Path, names: Iterable[str]) -> None:
    """Keep ``names`` of the finished build folder ``folder`` as the entry ``key``
    (written whole, then renamed: :mod:`.build_cache`), then :func:`evict`. An entry
    another process kept first stays; a cache that cannot be written is no cache (the
    build stands, unkept)."""
    if cache is None or not _is_key(key):
        return
    try:
        cache.mkdir(parents=True, exist_ok=True)
        if (cache / key).is_dir():
            os.utime(cache / key)
            return
        new = Path(tempfile.mkdtemp(prefix=_TEMPORARY[0], dir=cache))
    except OSError:
        return
    try:
        for name in names:
            (new / name).parent.mkdir(parents=True, exist_ok=True)
            _copy(folder / name, new / name)
        new.rename(cache / key)
    except OSError:  # kept by another process first, or no room
        shutil.rmtree(new, ignore_errors=True)
        return
    evict(cache)


def _bytes(folder: Path) -> int:
    """The bytes of the files below ``folder``."""
    total = 0
    for path in folder.rglob("*"):
        try:
            found = path.lstat()
        except OSError:
            continue
        total += found.st_size if stat.S_ISREG(found.st_mode) else 0
    return total


def evict(cache: Path, entries: int = MAX_ENTRIES, most: int = MAX_BYTES) -> None:
    """Remove the least recently used entries of ``cache`` past ``entries`` or ``most``
    bytes, and the temporary folders older than :data:`STALE_SECONDS`. An entry is
    renamed away before it is removed, so no reader finds it half removed."""
    found: list[tuple[float, Path]] = []
    now = time.time()
    try:
        listing = list(cache.iterdir())
    except OSError:
        return
    for path in listing:
        try:
            when = path.stat().st_mtime
        except OSError:
            continue
        if _is_key(path.name):
            found.append((when, path))
        elif path.name.startswith(_TEMPORARY) and now - when > STALE_SECONDS:
            shutil.rmtree(path, ignore_errors=True)
    found.sort(reverse=True)
    total = 0
    for count, (_, path) in enumerate(found, start=1):
        total += _bytes(path)
        if count <= entries and total <= most:
            continue
        gone = cache / f"{_TEMPORARY[1]}{path.name}-{os.getpid()}-{time.monotonic_ns()}"
        try:
            path.rename(gone)
        except OSError:
            continue  # removed by another process
        shutil.rmtree(gone, ignore_errors=True)
