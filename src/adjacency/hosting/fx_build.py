"""A course project's own JavaFX program built as the student ran it: :func:`build_fx`;
and the driver that plays it, built once a process: :func:`driver_module`.

The team's sources are compiled untouched by ``javac`` against Debian's OpenJFX
(:data:`FX_MODULES`, ``--module-path`` with ``javafx.controls`` and ``javafx.fxml``),
with no stand-in class of ours for the skeleton; sources that need a later Java than the
server's are compiled by ``ecj`` for a newer runtime, and run on it, where the server has
one (:mod:`.newer_jdk`). The driver of :mod:`.fx_run` is no part
of the build: it is a named module of its own (``adjacency.fxdriver``, Java sources as
package data next to this module), compiled once a process by :func:`driver_module` and
put beside the build when the program runs, so that every build runs this server's driver
and the team's classes, on the class path, can reach none of the driver's. The program's
resources (FXML, CSS, ``.properties``, images: :data:`RESOURCES`)
are copied by this process to a folder of their own, each under its path from its resource
root, as an IDE puts them beside the classes: the roots are the sources' own roots (a
file's folder less its package), ``src``, ``resources``, ``src/main/resources`` and the
folders an IntelliJ ``.iml`` names. The main class is the manifest's ``Main-Class``, else
the one class that extends ``Application`` (where several do, the one with a ``main``).

``javac`` runs in the sandbox (:func:`~.sandbox_build.javac`, as a course project's) with
the kept files (:func:`write_program`: sources, resources, ``.iml`` files, manifests;
written to a tree of the build folder) read-only and the class folder the only writable
place: nothing of the team's is ever executed outside the sandbox. The driver's module is
compiled in the sandbox too, its sources read-only at :data:`DRIVER_SOURCES`.

A compile is kept in the build cache (:mod:`.build_cache`) under the SHA-256 of the
program's kept files and the toolchain (:func:`fx_toolchain`): the same files built again
by the same toolchain are copied from it, the very files the compile wrote
(:data:`BUILT`); the driver's module so too, where the cache's folder is named for the
process.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from ..sandbox import SUBMISSION, available
from . import build_cache
from .build_output import build_bytes
from .intake import IntakeRefused
from .java_build import BuildFailed
from .java_versions import SERVER_JAVA
from .newer_jdk import ECJ_LEVEL, newer_jdk, on_java
from .packing import program_files
from .sandbox_build import BUILD_LIMITS, JAVAC, JVM_OPTIONS, compile_java, javac

FX_MODULES = "/usr/share/openjfx/lib"
"""Debian's OpenJFX (package ``openjfx``): the modules' jars."""

FX_ADD_MODULES = "javafx.controls,javafx.fxml"
"""The modules a course program uses (``javafx.graphics`` and ``javafx.base`` come with them)."""

DRIVER_SOURCES = "/driver"
"""Where the driver's sources are, read-only, in the compiler's sandbox."""

DRIVER_MODULE = "adjacency.fxdriver"
"""The driver's module: it exports and opens no package."""

DRIVER_MAIN = "adjacency.fxdriver.Driver"
"""The driver's main class."""

RESOURCES = (".fxml", ".css", ".properties", ".png", ".jpg", ".jpeg", ".gif", ".bmp")
"""What of a project is a resource its program loads."""

BUILD_FILE = "fx.json"
"""The file of a build folder naming its main class and the Java that built it and runs
it (:func:`load_fx`)."""

_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
_APPLICATION = re.compile(r"\bclass\s+(\w+)\s+extends\s+(?:javafx\.application\.)?Application\b")
_MAIN = re.compile(r"\bstatic\s+void\s+main\s*\(")


@dataclass(frozen=True)
class FxBuild:
    """A built JavaFX program: its build ``folder`` (``classes/`` and ``resources/``
    below it), its ``main`` class and the ``java`` it was built for and runs on (the
    server's, else the newer runtime's: :mod:`.newer_jdk`)."""

    folder: Path
    main: str
    java: int = SERVER_JAVA

    def run_args(self) -> list[str]:
        """What goes before the driver's arguments to run it on its Java: nothing on the
        server's, else :data:`~.newer_jdk.JAVA_ARG` with its version
        (:func:`~.newer_jdk.on_java`)."""
        return on_java(self.java, [])

    @property
    def classes(self) -> Path:
        """The compiled classes' folder (the class path's first entry)."""
        return self.folder / "classes"

    @property
    def resources(self) -> Path:
        """The copied resources' folder, laid out from each resource root."""
        return self.folder / "resources"


def driver_sources() -> Path:
    """The folder of the driver's Java sources (package data): ``module-info.java`` and
    the package ``adjacency/fxdriver/``."""
    return Path(__file__).resolve().parent / "javafx"


LISTING = ".adjacency-sources"
"""The compiler's argument file, written to a build's ``tree`` (what it compiles)."""

BUILT = ("classes", "resources", BUILD_FILE, f"tree/{LISTING}")
"""What a build writes to its folder beyond its program's files (:func:`write_program`):
an entry of the build cache (:mod:`.build_cache`)."""

_BUILD_CODE = (
    "fx_build.py",
    "sandbox_build.py",
    "java_build.py",
    "build_output.py",
    "newer_jdk.py",
    "build_cache.py",
)
"""This package's modules whose code decides what a build writes: part of its toolchain."""

_digests: dict[tuple[str, int, int], str] = {}


def _digest(path: Path) -> str:
    """SHA-256 of the file ``path`` (links followed), read again only once it changed
    (its size or time); ``missing`` where it cannot be read."""
    try:
        found = path.stat()
    except OSError:
        return "missing"
    mark = (str(path), found.st_size, found.st_mtime_ns)
    if mark not in _digests:
        try:
            _digests[mark] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return "missing"
    return _digests[mark]


def fx_toolchain() -> str:
    """All that a JavaFX build's output depends on beyond its sources, in words (the
    build cache's key, :mod:`.build_cache`): the server's ``javac`` (its JDK's ``release``
    file: version and vendor), OpenJFX's modules (each file's SHA-256), the newer runtime
    and ``ecj`` where the server has them (:mod:`.newer_jdk`), the options, the limits
    (a build within them may fail within lower ones), the driver's sources and this
    package's code that builds. Read at each build (files hashed again
    only once changed), so a toolchain installed or changed is seen at once."""
    javac_home = Path(JAVAC).resolve().parent.parent
    lines = [
        f"javac {javac_home} {_digest(javac_home / 'release')}",
        f"options {FX_MODULES} {FX_ADD_MODULES} {ECJ_LEVEL} {SERVER_JAVA} {JVM_OPTIONS}",
        f"limits {BUILD_LIMITS!r} {build_bytes()}",
    ]
    fx = Path(FX_MODULES)
    lines += [f"openjfx {p.name} {_digest(p)}" for p in sorted(fx.iterdir())] if fx.is_dir() else []
    jdk = newer_jdk()
    if jdk is not None:
        lines.append(f"newer {jdk.home} {jdk.java} {_digest(jdk.home / 'release')}")
        lines.append(f"ecj {jdk.ecj} {_digest(jdk.ecj)}")
    here = Path(__file__).resolve().parent
    lines += [f"code {name} {_digest(here / name)}" for name in _BUILD_CODE]
    sources = driver_sources()
    lines += [
        f"driver {p.relative_to(sources).as_posix()} {_digest(p)}"
        for p in sorted(sources.rglob("*.java"))
    ]
    return "\n".join(lines)


_driver_lock = threading.Lock()
_driver: Path | None = None


def _remove(root: Path, owner: int) -> None:
    """Remove the driver's folder ``root`` at the exit of the process ``owner`` that made
    it (never at a forked child's)."""
    if os.getpid() == owner:
        shutil.rmtree(root, ignore_errors=True)


def driver_module() -> Path:
    """The driver's compiled module (an exploded module: ``module-info.class`` and its
    package), compiled in the sandbox at the first call of this process into a folder of
    its own (removed at the process's exit), readable by the sandbox's users.
    :class:`~adjacency.hosting.java_build.BuildFailed` with ``javac``'s words where it does
    not compile; :class:`~adjacency.sandbox.SandboxUnavailable` where no sandbox starts."""
    global _driver
    with _driver_lock:
        if _driver is not None and _driver.is_dir():
            return _driver
        root = Path(tempfile.mkdtemp(prefix="adjacency-fxdriver-"))
        owner = os.getpid()
        atexit.register(_remove, root, owner)
        os.chmod(root, 0o755)
        module = root / "module"
        sources = driver_sources()
        java = sorted(sources.rglob("*.java"))
        cache = build_cache.cache_folder(None)
        files = {p.relative_to(sources).as_posix(): p.read_bytes() for p in java}
        key = build_cache.build_key("fxdriver", fx_toolchain(), files)
        if not build_cache.restore(cache, key, root, ["module"]):
            module.mkdir()
            inside = [f"{DRIVER_SOURCES}/{p.relative_to(sources).as_posix()}" for p in java]
            javac(
                inside,
                root,
                module,
                "sources.txt",
                options=("--module-path", FX_MODULES),
                binds={DRIVER_SOURCES: sources},
            )
            for path in [module, *module.rglob("*")]:
                path.chmod(0o755 if path.is_dir() else 0o644)
            build_cache.keep(cache, key, root, ["module"])
        _driver = module
        return module


def _package(text: str) -> str:
    found = _PACKAGE.search(text)
    return found.group(1) if found else ""


def source_roots(tree: Path, sources: list[PurePosixPath]) -> list[PurePosixPath]:
    """The roots of ``sources``: each file's folder less its package's folders."""
    roots: list[PurePosixPath] = []
    for source in sources:
        package = _package((tree / source).read_text(encoding="utf-8", errors="replace"))
        parts = source.parent.parts
        depth = len(package.split(".")) if package else 0
        if depth and parts[len(parts) - depth :] == tuple(package.split(".")):
            root = PurePosixPath(*parts[: len(parts) - depth])
        else:
            root = source.parent
        if root not in roots:
            roots.append(root)
    return roots


def iml_roots(tree: Path, files: list[PurePosixPath]) -> list[PurePosixPath]:
    """The source and resource folders an IntelliJ ``.iml`` of ``files`` names."""
    roots: list[PurePosixPath] = []
    for iml in (f for f in files if f.suffix == ".iml"):
        try:
            document = ElementTree.parse(tree / iml)
        except ElementTree.ParseError:
            continue
        for folder in document.iter("sourceFolder"):
            url = folder.get("url", "")
            if url.startswith("file://$MODULE_DIR$/") and folder.get("isTestSource") != "true":
                root = iml.parent / url.removeprefix("file://$MODULE_DIR$/")
                if ".." not in root.parts:
                    roots.append(root)
    return roots


def resource_roots(tree: Path, files: list[PurePosixPath]) -> list[PurePosixPath]:
    """Where resources are looked up from, as the IDE would: the sources' roots, ``src``,
    ``resources``, ``src/main/resources`` and the roots an ``.iml`` names (those that
    exist)."""
    sources = [f for f in files if f.suffix == ".java"]
    found = [*source_roots(tree, sources), *iml_roots(tree, files)]
    found += [PurePosixPath(p) for p in ("src", "resources", "src/main/resources")]
    roots: list[PurePosixPath] = []
    for root in found:
        if (tree / root).is_dir() and root not in roots:
            roots.append(root)
    return roots


def is_program(sources: Mapping[str, bytes]) -> bool:
    """Whether the Java ``sources`` (path -> bytes) hold a JavaFX program: a class that
    extends ``Application`` (what :func:`main_class` starts)."""
    return any(_APPLICATION.search(data.decode("utf-8", "replace")) for data in sources.values())


def main_class(tree: Path, files: list[PurePosixPath]) -> str:
    """The program's main class: a manifest's ``Main-Class``, else the one class that
    extends ``Application`` (of several, the one with a ``main``); :class:`BuildFailed`
    naming what was found otherwise."""
    for manifest in (f for f in files if f.name.upper() == "MANIFEST.MF"):
        for line in (tree / manifest).read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith("main-class:"):
                return line.split(":", 1)[1].strip()
    applications: list[tuple[str, bool]] = []
    for source in (f for f in files if f.suffix == ".java"):
        text = (tree / source).read_text(encoding="utf-8", errors="replace")
        for found in _APPLICATION.finditer(text):
            package = _package(text)
            name = f"{package}.{found.group(1)}" if package else found.group(1)
            applications.append((name, bool(_MAIN.search(text))))
    with_main = [name for name, has_main in applications if has_main]
    if len(applications) == 1:
        return applications[0][0]
    if len(with_main) == 1:
        return with_main[0]
    if not applications:
        raise BuildFailed(
            "no class extends javafx.application.Application: the program's window cannot "
            "be started (name it with a Main-Class line in META-INF/MANIFEST.MF)"
        )
    names = ", ".join(name for name, _ in applications)
    raise BuildFailed(
        f"several JavaFX Application classes ({names}): name the one the program starts "
        "with a Main-Class line in META-INF/MANIFEST.MF"
    )


def write_program(project: Path, tree: Path) -> list[PurePosixPath]:
    """The program's files of ``project`` (:func:`~.packing.program_files`: its kept
    files, through the one intake and its limits) written under ``tree`` (a new folder of
    the server's), readable by the sandbox's users: their paths, sorted. Every name has
    passed the intake's rules (relative, no ``..``), so each lands inside ``tree``."""
    files, _, _ = program_files(project)
    tree.mkdir(parents=True, exist_ok=True)
    root = tree.resolve()
    for name, data in files.items():
        target = tree / name
        if not target.resolve().is_relative_to(root):
            raise IntakeRefused(f"rule 'no .. in names': {name!r} lies outside the project")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        target.chmod(0o644)
    for sub in [tree, *(p for p in tree.rglob("*") if p.is_dir())]:
        sub.chmod(0o755)
    return sorted(PurePosixPath(name) for name in files)


def build_fx(project: Path, folder: Path, cache: Path | None = None) -> FxBuild:
    """Build the JavaFX program of ``project`` (a folder or a zip, taken in by
    :func:`write_program`) under ``folder`` (new, the server's):
    :class:`~.intake.IntakeRefused` for a kept file that breaks a rule,
    :class:`~adjacency.hosting.java_build.BuildFailed` with ``javac``'s output verbatim or
    naming what is missing; :class:`~adjacency.sandbox.SandboxUnavailable` where no
    sandbox can start. Sources that ``javac`` 17 refuses for a later Java's feature are
    built again by ``ecj`` for the newer runtime where this server has one that has the
    feature (:func:`~.sandbox_build.compile_java`, the one build of Java sources),
    recorded in :data:`BUILD_FILE`; where that fails too, both refusals are told.

    A build of the same files by the same toolchain (:func:`fx_toolchain`) is copied from
    the build cache instead (:mod:`.build_cache`, its folder
    :func:`~.build_cache.cache_folder` of ``cache``: :data:`BUILT`, the same files a
    compile writes); a finished build is kept there. The intake and the main class are
    read each time: they are what refuses a project before its compile; where no sandbox
    can start, nothing is copied either (its program could not run)."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    tree = folder / "tree"
    files = write_program(project, tree)
    sources = [f for f in files if f.suffix == ".java"]
    if not sources:
        raise BuildFailed("the project has no Java sources")
    main = main_class(tree, files)
    cache = build_cache.cache_folder(cache)
    read = {name.as_posix(): (tree / name).read_bytes() for name in files}
    key = build_cache.build_key("javafx", fx_toolchain(), read)
    available.check()  # a kept compile is not a way around a sandbox that cannot start
    if build_cache.restore(cache, key, folder, BUILT):
        kept = load_fx(folder)
        if kept is not None and kept.main == main:
            return kept
        build_cache.remove(folder, BUILT)  # not what this build writes: built afresh
    built = _compile(tree, files, sources, main, folder)
    build_cache.keep(cache, key, folder, BUILT)
    return built


def _compile(
    tree: Path,
    files: list[PurePosixPath],
    sources: list[PurePosixPath],
    main: str,
    folder: Path,
) -> FxBuild:
    """Compile the program's ``sources`` of ``tree`` (its kept ``files``) into
    ``folder`` and copy its resources there (:func:`build_fx`)."""
    inside = [f"{SUBMISSION}/{source}" for source in sources]
    classes = folder / "classes"
    classes.mkdir()
    modules = ("--module-path", FX_MODULES, "--add-modules", FX_ADD_MODULES)
    jdk = compile_java(inside, tree, classes, LISTING, options=modules)
    java = SERVER_JAVA if jdk is None else jdk.java
    resources = folder / "resources"
    resources.mkdir()
    resources.chmod(0o755)
    for root in resource_roots(tree, files):
        for relative in files:
            if relative.suffix.lower() not in RESOURCES or not relative.is_relative_to(root):
                continue
            target = resources / relative.relative_to(root)
            if target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tree / relative, target)
            target.chmod(0o644)
    for sub in [p for p in resources.rglob("*") if p.is_dir()]:
        sub.chmod(0o755)
    (folder / BUILD_FILE).write_text(json.dumps({"main": main, "java": java}), encoding="utf-8")
    return FxBuild(folder, main, java)


def load_fx(folder: Path) -> FxBuild | None:
    """The build kept in ``folder``, or ``None`` where there is none."""
    try:
        data = json.loads((folder / BUILD_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    java = data.get("java", SERVER_JAVA)
    build = FxBuild(folder, str(data["main"]), java if isinstance(java, int) else SERVER_JAVA)
    return build if build.classes.is_dir() else None
