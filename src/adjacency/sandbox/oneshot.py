"""A one-shot command in the sandbox (a build): :func:`run`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from .cgroup import Priority
from .limits import Limits
from .process import Outcome, SandboxedProcess


def run(
    argv: Sequence[str],
    *,
    submission: Path,
    limits: Limits | None = None,
    output: Path | None = None,
    binds: Mapping[str, Path] | None = None,
    env: Mapping[str, str] | None = None,
    stdin: bytes = b"",
    error_tail: bool = False,
    priority: Priority = Priority.BUILD,
) -> Outcome:
    """Run ``argv`` in the sandbox to its end (or its limits') and return the
    :class:`Outcome` with its standard output and error (bounded by
    ``limits.output_bytes``; with ``error_tail``, its standard error drained and only its
    tail kept, uncounted: a program whose prints must not end it). ``stdin`` is written,
    then closed. A one-shot command is a build's step unless told (``priority``: it
    runs on what games and checks leave). Arguments as for :class:`SandboxedProcess`;
    raises what its ``start`` raises."""
    process = SandboxedProcess(
        argv,
        submission=submission,
        limits=limits,
        output=output,
        binds=binds,
        env=env,
        capture=True,
        error_tail=error_tail,
        priority=priority,
    )
    process.start()
    try:
        if stdin:
            process.send_bytes(stdin)
        process.close_input()
        limit = process.limits.wall_seconds + 10.0
        process.wait(limit)
    except OSError:
        pass  # it stopped reading its input: it runs on to its end or its limits
    finally:
        outcome = process.end()
    return outcome
