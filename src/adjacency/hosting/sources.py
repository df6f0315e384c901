"""Which of a course project's Java files the build compiles, and the stand-ins it adds.

A course project is a JavaFX program: its window classes (the controllers, the
``Application``) import JavaFX, which the build does not have; its bots use only the
window's ``Button`` (and sometimes ``javafx.util.Pair``), for which the kit ships
stand-ins. :func:`select` reads each file's ``package`` and ``import`` lines and keeps every
file that needs nothing beyond the JDK, the project's own packages and the stand-ins; a
file that does is left out with the reason. The project's ``OutputFrameController``, when
left out, is replaced by a one-line subclass of the kit's ``adjacency.kit.CourseController``
in the same package, so that bots taking the controller compile unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from ..core.errors import AdjacencyError

STAND_INS = frozenset(
    {"javafx.scene.control.Button", "javafx.scene.control.*", "javafx.util.Pair", "javafx.util.*"}
)
"""The JavaFX imports the kit's stand-ins satisfy."""

AVAILABLE = ("java.", "javax.", "jdk.", "org.w3c.", "org.xml.", "org.ietf.", "adjacency.kit.")
"""Packages the build compiles against: the JDK's and the kit's (a bot of one's own
implements ``adjacency.kit.Bot``)."""

RESERVED = ("javafx", "adjacency.kit")
"""Packages the kit provides: a project's own files in them are left out."""

CONTROLLER = "OutputFrameController"

_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)
_IMPORT = re.compile(r"^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;", re.M)


class ProjectError(AdjacencyError):
    """A project the build cannot take as it is (two copies of a class, no Java source)."""


@dataclass(frozen=True)
class Source:
    """One Java file: where it was, its package, its class name (the file's stem), its text."""

    path: str
    package: str
    name: str
    text: str

    @property
    def qualified(self) -> str:
        """The class's full name (``pkg.Bot``, or ``Bot`` in the default package)."""
        return f"{self.package}.{self.name}" if self.package else self.name

    @property
    def target(self) -> str:
        """Where the build writes it: the package's folders and the file's name."""
        return "/".join(
            [*self.package.split("."), f"{self.name}.java"]
            if self.package
            else [f"{self.name}.java"]
        )


@dataclass
class Selection:
    """The files to compile, the stand-ins to add, and every file left out with why."""

    kept: list[Source] = field(default_factory=list)
    stand_ins: list[Source] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)


def decode(data: bytes) -> str:
    """A source file's text: UTF-8 (without a byte-order mark), else Latin-1 as Windows
    editors may save it; the build writes it back as UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.removeprefix("\ufeff")


def strip_comments(text: str) -> str:
    """``text`` with comments blanked and string and char literals emptied, so that the
    ``package`` and ``import`` patterns see code only."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        two = text[i : i + 2]
        if two == "//":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif two == "/*":
            end = text.find("*/", i + 2)
            chunk = text[i : n if end < 0 else end + 2]
            out.append("\n" * chunk.count("\n"))
            i = n if end < 0 else end + 2
        elif text[i] in "\"'":
            quote = text[i]
            if text.startswith('"""', i):
                end = text.find('"""', i + 3)
                i = n if end < 0 else end + 3
                out.append('""')
                continue
            j = i + 1
            while j < n and text[j] != quote and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(quote * 2)
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parse(path: str, data: bytes) -> tuple[Source, list[str]]:
    """The file's :class:`Source` and its imports."""
    text = decode(data)
    code = strip_comments(text)
    package = _PACKAGE.search(code)
    name = PurePosixPath(path).name.removesuffix(".java")
    return Source(path, package.group(1) if package else "", name, text), _IMPORT.findall(code)


def _own(imported: str, packages: set[str]) -> bool:
    """Whether an import names something of the project's own packages."""
    parts = imported.removesuffix(".*").split(".")
    return any(".".join(parts[:k]) in packages for k in range(1, len(parts) + 1))


def _reason(source: Source, imports: list[str], packages: set[str]) -> str | None:
    """Why ``source`` is left out, or ``None`` to compile it."""
    if source.name == "module-info" or source.name == "package-info":
        return "a module or package declaration (the build compiles classes only)"
    if any(source.package == p or source.package.startswith(p + ".") for p in RESERVED):
        return f"in package {source.package}, which the kit provides"
    javafx = sorted(i for i in imports if i.startswith("javafx.") and i not in STAND_INS)
    if javafx:
        return "needs JavaFX beyond the stand-ins: " + ", ".join(javafx)
    foreign = sorted(
        i
        for i in imports
        if not i.startswith(AVAILABLE) and i not in STAND_INS and not _own(i, packages)
    )
    if foreign:
        return "needs a library the build does not have: " + ", ".join(foreign)
    return None


def controller_stand_in(package: str, path: str) -> Source:
    """The ``OutputFrameController`` of ``package``: the kit's controller under the
    project's name, so that bots that import or take it compile unchanged."""
    head = f"package {package};\n\n" if package else ""
    text = (
        f"{head}/** Stands in for the project's {path}, which needs JavaFX: the game's state as "
        "course bots read it (adjacency.kit.CourseController). */\n"
        f"public class {CONTROLLER} extends adjacency.kit.CourseController {{\n}}\n"
    )
    return Source(f"(stand-in for {path})", package, CONTROLLER, text)


def select(sources: dict[str, bytes]) -> Selection:
    """The files to compile out of a project's ``sources`` (path -> bytes); a project with
    no Java file, or with two files of one class, is a :class:`ProjectError`."""
    if not sources:
        raise ProjectError("no .java file in the project: a course project has its sources in it")
    parsed = [parse(path, data) for path, data in sorted(sources.items())]
    packages = {s.package for s, _ in parsed if s.package}
    selection = Selection()
    for source, imports in parsed:
        reason = _reason(source, imports, packages)
        if reason is None:
            selection.kept.append(source)
        else:
            selection.left_out.append((source.path, reason))
            if source.name == CONTROLLER:
                selection.stand_ins.append(controller_stand_in(source.package, source.path))
    seen: dict[str, str] = {}
    for source in [*selection.kept, *selection.stand_ins]:
        other = seen.setdefault(source.qualified, source.path)
        if other != source.path:
            raise ProjectError(
                f"two copies of the class {source.qualified}: {other} and {source.path}; "
                "remove one (or build the folder that holds the one you play)"
            )
    return selection
