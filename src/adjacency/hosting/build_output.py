"""A build's output, bounded while it is written: :func:`bounded` and :func:`unpack`.

Every compiler the league runs on an upload (``javac`` for a course project or a JavaFX
program, ``g++`` or ``gcc`` for a program) writes into the sandbox, and what it writes is
kept on the server as the version's build, counted against its team's quota. A bound
checked after the build (the sum of the class files) is no bound: a build that runs the
team's code (a compiler made to run a script) wrote 1.2 GB in 44 s before anything
looked. So the build writes nowhere but a filesystem whose size is the bound:

- the compiler runs in a sandbox with no writable host folder at all; its output folder
  is :data:`BUILT`, inside the sandbox's private ``/tmp``, a tmpfs of
  :data:`BUILD_BYTES` (``Limits.tmp_bytes``): its scratch files and its output together
  cannot pass it, the kernel refuses the write that would (``ENOSPC``), and the build is
  refused saying so (:func:`past_the_bound`);
- when the compiler has exited, the sandbox's first process (:func:`bounded`'s script)
  ends every other process in the sandbox, then writes the output folder as a tar
  archive on its standard output, which the sandbox counts while it is read
  (``Limits.output_bytes``, :func:`stream_bytes`): the compiler's own messages go to
  standard error;
- the host writes that archive's regular files and folders under the build's folder
  (:func:`unpack`): nothing else (no link, device or name outside it), at most
  :data:`BUILD_BYTES` in all, each file readable by the sandbox's users (a program
  keeps its execute bit).

The compiler's command names its output folder :data:`~adjacency.sandbox.OUTPUT`, as
every build of the league does; in this sandbox that folder is :data:`BUILT`
(:func:`bounded` names it so).
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path, PurePosixPath

from ..sandbox import OUTPUT, TMP
from .java_build import BuildFailed

BUILD_BYTES = 64 << 20
"""The most bytes one build writes, the same for every kind that builds (a Java course
project, a JavaFX program, a compiled program): its output and its compiler's scratch
files together. A course project's classes take a few hundred KiB, the kit's included;
a compiled engine a few MiB. So one build adds at most this much to its team's bytes."""

_bound: ContextVar[int] = ContextVar("build_bytes")
"""The bound of the build this thread makes now (:func:`bounded_to`)."""


def build_bytes() -> int:
    """The most bytes the build this thread makes now may write: its kind's
    (:attr:`~.kinds.ProgramKind.build_bytes`, set by :func:`bounded_to`), else
    :data:`BUILD_BYTES`."""
    return _bound.get(BUILD_BYTES)


@contextmanager
def bounded_to(size: int) -> Iterator[None]:
    """The builds this thread makes inside write at most ``size`` bytes each (its kind's
    bound, :attr:`~.kinds.ProgramKind.build_bytes`)."""
    token = _bound.set(size)
    try:
        yield
    finally:
        _bound.reset(token)


BUILT = f"{TMP}/out"
"""The compiler's output folder inside its sandbox, on the bounded ``/tmp``."""

MESSAGE_BYTES = 4 << 20
"""The most bytes of the compiler's messages (its standard error) kept."""


def stream_bytes() -> int:
    """The most bytes the build's sandbox may write on its standard output and error
    together: its messages (:data:`MESSAGE_BYTES`), the archive of its output and the
    archive's headers (512 bytes a file, a class file some KiB)."""
    return MESSAGE_BYTES + build_bytes() + build_bytes() // 4


FULL = "No space left on device"
"""How a compiler (``javac``, ``gcc``, ``ld``) words the write the bound refused."""

_SCRIPT = (
    'mkdir "$0" || exit 125; '
    '"$@" >&2; status=$?; '
    # Every other process of the sandbox ends before its output is read: kill(-1) signals
    # all of them (never the sandbox's init nor this shell), until none is left.
    "while kill -9 -1 2>/dev/null; do :; done; "
    '[ "$status" -eq 0 ] || exit "$status"; '
    'exec tar -C "$0" -cf - .'
)


def bounded(argv: Sequence[str]) -> list[str]:
    """The sandbox's command that runs the compiler ``argv`` (its output folder named
    :data:`~adjacency.sandbox.OUTPUT`, which becomes :data:`BUILT`) with its output on
    the bounded ``/tmp`` and writes that output as a tar archive on standard output (see
    the module); its exit status is the compiler's."""
    inside = [_inside(word) for word in argv]
    return ["/bin/sh", "-c", _SCRIPT, BUILT, *inside]


def _inside(word: str) -> str:
    """``word`` with the output folder :data:`~adjacency.sandbox.OUTPUT` it names made
    :data:`BUILT` (a path under it, or the folder itself)."""
    if word == OUTPUT or word.startswith(f"{OUTPUT}/"):
        return BUILT + word[len(OUTPUT) :]
    return word


def past_the_bound(messages: str) -> str | None:
    """The refusal's words where a build's ``messages`` say a write was refused for
    space (the bound was reached), else ``None``."""
    if FULL not in messages:
        return None
    return (
        f"the build wrote more than {build_bytes() >> 20} MiB, the most one build may write "
        "(its output and its compiler's scratch files together; a course project's take "
        "well under 1 MiB)"
    )


def unpack(archive: bytes, output: Path) -> None:
    """Write the regular files and folders of the tar ``archive`` (a build's output, as
    :func:`bounded` wrote it) under ``output`` (an empty folder of the server's); links,
    devices and names outside the folder are left out, and an archive holding more than
    :func:`build_bytes` or not readable as one is refused
    (:class:`~adjacency.hosting.java_build.BuildFailed`)."""
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as tar:
            for member in tar:
                parts = [p for p in PurePosixPath(member.name).parts if p not in ("", ".")]
                if not parts or ".." in parts or member.name.startswith("/"):
                    continue
                target = output.joinpath(*parts)
                if member.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                    target.chmod(0o755)
                    continue
                if not member.isreg():
                    continue
                total += member.size
                if total > build_bytes():
                    raise BuildFailed(past_the_bound(FULL) or FULL)
                source = tar.extractfile(member)
                assert source is not None  # a regular file's data
                _folders(output, target.parent)
                target.write_bytes(source.read())
                target.chmod(0o755 if member.mode & 0o111 else 0o644)
    except (tarfile.TarError, OSError) as exc:
        raise BuildFailed(f"the build's output could not be read back: {exc}") from None


def _folders(output: Path, folder: Path) -> None:
    """Make ``folder`` and those between it and ``output``, each searchable by the
    sandbox's users."""
    missing = [p for p in [folder, *folder.parents] if p.is_relative_to(output)]
    for path in reversed(missing):
        if not path.is_dir():
            path.mkdir()
            path.chmod(0o755)
