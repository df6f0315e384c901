"""A team's side of submitting code: its project packed as the server keeps it, and the
upload over HTTP (``adjacency league submit``).

:func:`pack` takes a project as the team has it (a folder, or a zip such as GitHub's
Download ZIP) through the projects' intake (:func:`adjacency.hosting.intake.take_in`: its
limits checked before a byte is read; only the sources (Java, Python, JavaScript, a
``package.json``) and the manifest are ever read), and writes those files alone into a
new zip whose bytes depend only on their names and contents (sorted, fixed dates): the
same sources always make the same bytes, so the server's hash names them as the same
version, whatever else the folder holds. The JavaFX SDK's jars and DLLs, the report, the
screenshots, installed packages (``node_modules``, ``site-packages``: the league installs
none) are left out and named (:attr:`Packed.left_out`), never read.

:func:`send` posts such a zip to the league (the team's token as its bearer; TLS verified
against the system's authorities or ``cafile``) and :func:`fetch_versions` lists the
team's versions; a refusal raises :class:`~.wire.LeagueRefused` with the server's own
words, a server that cannot be reached :class:`~.connect.ConnectError`.

:func:`pack_program` packs a course project to be played as its own JavaFX program,
through its window (docs/javafx-driver.md): its FXML and images too, and the manifest
with the team's choice in its form.
"""

from __future__ import annotations

import io
import json
import ssl
import tempfile
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..hosting.fx_intake import take_in_program
from ..hosting.intake import MANIFEST, SOURCE_SUFFIXES, take_in
from .connect import ConnectError
from .wire import MAX_UPLOAD, LeagueRefused

FIXED_DATE = (1980, 1, 1, 0, 0, 0)
"""Every packed entry's date (zip's earliest): the packed bytes depend on the files only."""

SUBMISSIONS_PATH = "/api/league/submissions"


@dataclass(frozen=True)
class Packed:
    """A project packed for upload: the zip's bytes, the files in it, those left out
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


def pack(path: Path) -> Packed:
    """The sources and manifest of the project at ``path`` as a deterministic zip, named
    from the project's own root (a zip's one top folder taken off, so a folder and its
    Download ZIP pack alike); the intake's refusals
    (:class:`~adjacency.hosting.intake.IntakeRefused`) and a project with no source
    (:class:`~.wire.LeagueRefused`) are raised before anything is sent."""
    intake = take_in(path)
    read = dict(intake.sources)
    if intake.manifest is not None:
        read[intake.manifest[0]] = intake.manifest[1]
    if not intake.of(*SOURCE_SUFFIXES):
        raise LeagueRefused(
            f"no source ({', '.join(SOURCE_SUFFIXES)}) in {str(path)!r}: nothing to submit "
            "(a Java course project, or a Python or JavaScript engine-protocol program)"
        )
    top = top_folder([*read, *intake.left_out])
    files = {name.removeprefix(top): data for name, data in read.items()}
    data = _zip(files, "sources")
    left_out = sorted(name.removeprefix(top) for name in intake.left_out)
    installed = sorted(name.removeprefix(top) for name in intake.installed)
    return Packed(data, sorted(files), left_out, installed)


def _zip(files: dict[str, bytes], what: str) -> bytes:
    """``files`` as a deterministic zip (sorted, fixed dates), at most
    :data:`~.wire.MAX_UPLOAD` bytes (else :class:`~.wire.LeagueRefused` naming ``what``)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            entry = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, files[name])
    data = buffer.getvalue()
    if len(data) > MAX_UPLOAD:
        raise LeagueRefused(
            f"the project's {what} pack to {len(data):,} bytes: at most {MAX_UPLOAD:,} are accepted"
        )
    return data


def pack_program(path: Path, choices: dict[str, str]) -> Packed:
    """The project at ``path`` packed to be played as its own JavaFX program, through its
    window: its program's files (:func:`adjacency.hosting.fx_intake.take_in_program`:
    sources, FXML, CSS, ``.properties``, images, ``.iml`` files and manifests, from the
    project's root; nothing else read) and the manifest that asks for it with the team's
    ``choices`` in its window's form (``{"language": "javafx", "choose": ...}``, in place
    of any manifest of its own), as a deterministic zip."""
    with tempfile.TemporaryDirectory(prefix="adjacency-pack-") as where:
        kept = take_in_program(path, Path(where) / "kept")
        files = {name.as_posix(): (Path(where) / "kept" / name).read_bytes() for name in kept}
    if not any(name.endswith(".java") for name in files):
        raise LeagueRefused(f"no Java source in {str(path)!r}: nothing to submit")
    manifest = {"language": "javafx", "choose": choices}
    files[MANIFEST] = (json.dumps(manifest, sort_keys=True) + "\n").encode("utf-8")
    return Packed(_zip(files, "program's files"), sorted(files), [], [])


def _context(url: str, cafile: str | None) -> ssl.SSLContext | None:
    return ssl.create_default_context(cafile=cafile) if url.startswith("https://") else None


def _base(url: str) -> str:
    base = url.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise LeagueRefused(f"league URL {url[:80]!r}: expected http://HOST:PORT or https://...")
    return base


def _call(request: urllib.request.Request, url: str, cafile: str | None) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(request, timeout=60, context=_context(url, cafile)) as got:
            answer: dict[str, Any] = json.loads(got.read())
            return answer
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read()).get("detail", "")
        except (ValueError, AttributeError):
            detail = ""
        raise LeagueRefused(f"the league refused it ({exc.code}): {detail or exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ConnectError(f"cannot reach the league at {url}: {reason}") from None


def send(
    url: str, token: str, packed: Packed, filename: str, cafile: str | None = None
) -> dict[str, Any]:
    """Upload ``packed`` as the team's next version; the server's answer
    (``name``, ``new``, ``submission``)."""
    request = urllib.request.Request(
        _base(url) + SUBMISSIONS_PATH,
        data=packed.data,
        method="POST",
        headers={
            "Content-Type": "application/zip",
            "Authorization": f"Bearer {token}",
            "X-Filename": filename,
        },
    )
    return _call(request, url, cafile)


def fetch_versions(url: str, token: str, cafile: str | None = None) -> dict[str, Any]:
    """The team's versions as the server lists them (``name``, ``submissions``)."""
    request = urllib.request.Request(
        _base(url) + SUBMISSIONS_PATH, headers={"Authorization": f"Bearer {token}"}
    )
    return _call(request, url, cafile)
