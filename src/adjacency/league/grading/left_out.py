"""What an upload left out, named with sizes: :func:`summary`.

The league keeps a version's kept files only (packed: :func:`adjacency.hosting.packing.pack`),
so what the team's zip held besides (the JavaFX SDK's jars and DLLs, IntelliJ's class
files, the report) is gone from the stored zip. The server notes it when it receives the
upload, from the zip's directory (never a byte of those entries read), so that the code
view can say what was dropped: counts and sizes by kind, and the first paths. An upload
packed on the team's machine (``league submit``) arrives without them: that machine
named them when it packed. The note also keeps the SHA-256 and size of the zip as it was
received (:func:`received`): the stored zip is the upload repacked, its own bytes, so
the code view lists both.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

KINDS = {
    ".jar": "jar",
    ".dll": "native library",
    ".so": "native library",
    ".dylib": "native library",
    ".jnilib": "native library",
    ".class": "class file",
}
"""Kinds named by a file's suffix (any other file is ``other``)."""

MOST_PATHS = 200
"""The most left-out paths noted (an SDK has hundreds of files: its kinds count them all)."""


def kind_of(path: str) -> str:
    """The kind a left-out file is counted under."""
    return KINDS.get(PurePosixPath(path).suffix.lower(), "other")


def _digest(upload: Path) -> dict[str, Any]:
    """The SHA-256 (hex) and size in bytes of the file ``upload``, read in chunks."""
    digest = hashlib.sha256()
    with upload.open("rb") as data:
        while chunk := data.read(1 << 20):
            digest.update(chunk)
    return {"sha256": digest.hexdigest(), "bytes": upload.stat().st_size}


def summary(upload: Path, left_out: list[str]) -> str:
    """The note kept with a version (JSON text): the zip ``upload`` as ``received``
    (its ``sha256`` and ``bytes``), and what packing left out of it: the ``kinds``
    (each ``kind``, ``count`` and ``bytes``, unpacked) and the first :data:`MOST_PATHS`
    ``files`` (path and bytes), from its directory; ``left_out`` are the paths packing
    left out (without the zip's top folder, which packing took off)."""
    received = _digest(upload)
    if not left_out:
        return json.dumps({"kinds": [], "files": [], "received": received}, separators=(",", ":"))
    wanted = set(left_out)
    sizes: dict[str, int] = {}
    try:
        with zipfile.ZipFile(upload) as archive:
            for entry in archive.infolist():
                name = entry.filename
                tail = name.split("/", 1)[1] if "/" in name else name
                for key in (name, tail):
                    if key in wanted and not entry.is_dir():
                        sizes[key] = entry.file_size
    except (zipfile.BadZipFile, OSError):
        return json.dumps({"kinds": [], "files": [], "received": received}, separators=(",", ":"))
    kinds: dict[str, list[int]] = {}
    for path in left_out:
        found = kinds.setdefault(kind_of(path), [0, 0])
        found[0] += 1
        found[1] += sizes.get(path, 0)
    note: dict[str, Any] = {
        "kinds": [{"kind": k, "count": c, "bytes": b} for k, (c, b) in sorted(kinds.items())],
        "files": [[path, sizes.get(path, 0)] for path in left_out[:MOST_PATHS]],
        "received": received,
    }
    return json.dumps(note, separators=(",", ":"))


def read(note: str) -> dict[str, Any]:
    """A kept note as :func:`summary` wrote it: its ``kinds`` and ``files`` (empty lists
    for none or a note it cannot read) and what was ``received`` (:func:`received`)."""
    try:
        found = json.loads(note) if note else {}
        kept = {"kinds": list(found["kinds"]), "files": list(found["files"])}
    except (ValueError, KeyError, TypeError):
        kept = {"kinds": [], "files": []}
    return {**kept, "received": received(note)}


def received(note: str) -> tuple[str, int] | None:
    """The SHA-256 and size of the zip as its team sent it, from a kept note; ``None``
    for a version noted before they were kept (or a note it cannot read)."""
    try:
        found = json.loads(note)["received"]
        return str(found["sha256"]), int(found["bytes"])
    except (ValueError, KeyError, TypeError):
        return None
