"""A stored version's code as the teacher (or its own team) reads it: the files kept,
highlighted, and the difference between two versions.

:func:`kept_files` opens a version's zip through the projects' intake (its limits
checked on the zip's directory before a byte is read; only the sources and the manifest
are ever read, :func:`adjacency.hosting.intake.take_in`), the same files the build used: what
else the zip held is named, never opened. :func:`highlighted` colours a file with
Pygments on the server (HTML-escaped, one self-contained string of ``<span>`` per line,
so that the page needs no script of its own to colour code and a line can stand alone
in a diff); :func:`diff` compares two versions' kept files with :mod:`difflib`, in
hunks with :data:`CONTEXT` lines around each change: every kept file, the sources, the
manifest and the resources a JavaFX program loads (FXML, CSS, properties), each named
added, removed, changed or the same, and the kept pictures by their bytes (named, no
lines).
"""

from __future__ import annotations

import difflib
import hashlib
import io
import tempfile
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from pygments.formatters import HtmlFormatter

from ...hosting.intake import RESOURCE_SUFFIXES, take_in
from ...hosting.sources import decode
from .lexing import lexed

CONTEXT = 3
"""Unchanged lines shown around each change of a diff."""
MOST_LINES = 20_000
"""The most lines of one file highlighted (a longer file's rest is shown plain)."""


@dataclass(frozen=True)
class Kept:
    """A version's files as the build read them: ``files``, its sources and manifest
    (path to text: what is compared for similarity); ``resources``, the kept resources
    that are text (FXML, CSS, properties, an IntelliJ module, a jar's manifest: what a
    JavaFX program loads); ``pictures``, the kept pictures' paths (binary: named, not
    shown); and the paths of the zip's other entries, left unread; ``picture_sums``,
    each kept picture's SHA-256 (what a diff compares them by)."""

    files: dict[str, str]
    left_out: list[str] = field(default_factory=list)
    resources: dict[str, str] = field(default_factory=dict)
    pictures: list[str] = field(default_factory=list)
    picture_sums: dict[str, str] = field(default_factory=dict)

    @property
    def shown(self) -> dict[str, str]:
        """Every kept file that is text, sources and resources, in path order."""
        return dict(sorted({**self.files, **self.resources}.items()))


def kept_files(data: bytes) -> Kept:
    """The kept files of the zip ``data`` (a stored version), the texts decoded; the
    intake's refusal (:class:`~adjacency.hosting.intake.IntakeRefused`) for a zip it refuses."""
    with tempfile.TemporaryDirectory(prefix="adjacency-version-") as folder:
        path = Path(folder) / "version.zip"
        path.write_bytes(data)
        intake = take_in(path)
    files = {name: decode(raw) for name, raw in intake.sources.items()}
    if intake.manifest is not None:
        files[intake.manifest[0]] = decode(intake.manifest[1])
    texts = {n: decode(raw) for n, raw in intake.resources.items() if n.endswith(RESOURCE_SUFFIXES)}
    pictures = sorted(set(intake.resources) - set(texts))
    sums = {path: hashlib.sha256(intake.resources[path]).hexdigest() for path in pictures}
    return Kept(
        dict(sorted(files.items())),
        sorted(intake.left_out),
        dict(sorted(texts.items())),
        pictures,
        sums,
    )


_FORMATTER = HtmlFormatter(nowrap=True)


def highlighted(path: str, text: str) -> list[str]:
    """The lines of ``text`` as HTML (escaped, coloured by the ``<span>`` classes of
    Pygments' lexer for ``path``), one string a line, each closing its own spans; in time
    linear in the text (:func:`~.lexing.lexed`: what its lexer does not read within its
    budget is shown plain)."""
    lines = text.splitlines()
    head = "\n".join(lines[:MOST_LINES]) + "\n"
    page = io.StringIO()
    _FORMATTER.format(((kind, value) for _, kind, value in lexed(path, head)), page)
    out: list[str] = page.getvalue().split("\n")[: min(len(lines), MOST_LINES)]
    return out + [escape(line, quote=False) for line in lines[MOST_LINES:]]


@dataclass(frozen=True)
class Line:
    """A line of a diff: ``op`` is ``" "`` (in both), ``"-"`` (only the older) or ``"+"``
    (only the newer); its numbers in each version (``None`` where it is absent); its
    HTML (:func:`highlighted`)."""

    op: str
    a: int | None
    b: int | None
    html: str


@dataclass(frozen=True)
class FileDiff:
    """One file's difference: ``status`` ``added``, ``removed``, ``changed`` or
    ``same``; its hunks of :class:`Line` (none when the file is the same, nor for a
    ``picture``: a kept picture is compared by its bytes and named, never shown)."""

    path: str
    status: str
    hunks: list[list[Line]]
    picture: bool = False


def _hunks(path: str, old: str, new: str) -> list[list[Line]]:
    a_lines, b_lines = old.splitlines(), new.splitlines()
    a_html, b_html = highlighted(path, old), highlighted(path, new)
    matcher = difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False)
    hunks = []
    for group in matcher.get_grouped_opcodes(CONTEXT):
        hunk: list[Line] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                hunk += [Line(" ", i + 1, j1 + i - i1 + 1, a_html[i]) for i in range(i1, i2)]
                continue
            hunk += [Line("-", i + 1, None, a_html[i]) for i in range(i1, i2)]
            hunk += [Line("+", None, j + 1, b_html[j]) for j in range(j1, j2)]
        hunks.append(hunk)
    return hunks


def _status(before: object, after: object) -> str:
    """A path's status from its content in the older and the newer version (``None``:
    not kept there)."""
    if before == after:
        return "same"
    return "added" if before is None else "removed" if after is None else "changed"


def diff(old: Kept, new: Kept) -> list[FileDiff]:
    """Two versions' kept files compared, every path of either in order: the texts
    (sources, manifest, resources: :attr:`Kept.shown`) line by line, the pictures by
    their bytes (:attr:`Kept.picture_sums`)."""
    a_texts, b_texts = old.shown, new.shown
    a_sums, b_sums = old.picture_sums, new.picture_sums
    out = []
    for path in sorted(a_texts.keys() | b_texts.keys() | a_sums.keys() | b_sums.keys()):
        if path in a_sums or path in b_sums:
            status = _status(a_sums.get(path), b_sums.get(path))
            out.append(FileDiff(path, status, [], picture=True))
            continue
        before, after = a_texts.get(path), b_texts.get(path)
        status = _status(before, after)
        hunks = [] if status == "same" else _hunks(path, before or "", after or "")
        out.append(FileDiff(path, status, hunks))
    return out
