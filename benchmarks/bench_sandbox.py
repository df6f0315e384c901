"""The sandbox's start overhead: the same program started with and without it.

For each ``--program`` the same command runs ``--runs`` times in the sandbox
(:class:`adjacency.sandbox.SandboxedProcess`: a uid of the pool when root, prlimit,
bubblewrap) and as a plain child (``subprocess.Popen`` with the sandbox's environment),
in turn (sandboxed, plain, sandboxed, ...) so a drift of the machine's speed hits both
alike. Each run is timed from the call that starts it to its first line of output (a
hosted bot's first answer), and to its end (the sandbox's :meth:`end`, or the plain
child's exit). The table gives the medians, the median difference of the pairs and
their ratio, with the load average before and after. ``--print-command`` prints the
sandbox's command line (with a folder of its own as the submission: point it at one
that exists), to time it from outside, for example with ``/usr/bin/time``.

    python benchmarks/bench_sandbox.py --runs 40
    python benchmarks/bench_sandbox.py --print-command
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from adjacency import sandbox
from adjacency.sandbox import command_line, identity

PROGRAMS = {
    "python": ["/usr/bin/python3", "-S", "-c", "print('ready', flush=True)"],
    "sh": ["/bin/sh", "-c", "echo ready"],
    "node": ["/usr/bin/node", "-e", "console.log('ready')"],
    "java": ["/usr/bin/java", "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-version"],
}
"""Programs that print one line and exit (java -version writes it on standard error)."""


def sandboxed(argv: list[str], box: Path) -> tuple[float, float]:
    """Seconds to the first line and to the end, in the sandbox."""
    began = time.perf_counter()
    process = sandbox.SandboxedProcess(argv, submission=box)
    process.start()
    stderr = argv[-1] == "-version"
    if stderr:
        process.wait(60)
        first = time.perf_counter()
    else:
        line = process.read_line(60)
        first = time.perf_counter()
        assert line == "ready", line
        process.wait(60)
    outcome = process.end()
    assert outcome.returncode == 0, outcome
    return first - began, time.perf_counter() - began


def plain(argv: list[str], box: Path) -> tuple[float, float]:
    """Seconds to the first line and to the end, as a plain child."""
    began = time.perf_counter()
    # The sandbox's own environment, so both start the same way (a variable such as
    # NODE_EXTRA_CA_CERTS alone costs node some 100 ms).
    env = {"PATH": command_line.PATH, "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8"}
    child = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=box,
        env=env,
        start_new_session=True,
    )
    assert child.stdout is not None
    if argv[-1] == "-version":
        child.wait(60)
    else:
        assert child.stdout.readline() == b"ready\n"
    first = time.perf_counter()
    child.communicate(timeout=60)
    assert child.returncode == 0
    return first - began, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="runs of each (default 30)")
    parser.add_argument("--program", choices=sorted(PROGRAMS), action="append")
    parser.add_argument(
        "--print-command", action="store_true", help="print the sandbox's command line and stop"
    )
    args = parser.parse_args()
    programs = args.program or ["python", "sh"]
    box = Path(tempfile.mkdtemp(prefix="bench-sandbox-"))
    box.chmod(0o755)
    try:
        if args.print_command:
            who = identity.acquire()
            identity.release(who)
            for name in programs:
                argv = command_line.command(
                    PROGRAMS[name], submission=box, limits=sandbox.Limits(), processes=128
                )
                drop = f"setpriv --reuid={who.uid} --regid={who.gid} --clear-groups "
                print(name, (drop if who.private else "") + shlex.join(argv))
            return
        sandbox.check()
        print(f"load average before: {os.getloadavg()}; {os.cpu_count()} cores")
        print(
            f"{'program':8} {'what':6} {'sandboxed ms':>13} {'plain ms':>9} "
            f"{'added ms':>9} {'ratio':>6}"
        )
        for name in programs:
            argv = PROGRAMS[name]
            sandboxed(argv, box), plain(argv, box)  # warm the caches
            pairs = [(sandboxed(argv, box), plain(argv, box)) for _ in range(args.runs)]
            for index, what in ((0, "first"), (1, "end")):
                boxed = [s[index] * 1000 for s, _ in pairs]
                bare = [p[index] * 1000 for _, p in pairs]
                added = statistics.median(s - p for s, p in zip(boxed, bare, strict=True))
                ratio = statistics.median(s / p for s, p in zip(boxed, bare, strict=True))
                print(
                    f"{name:8} {what:6} {statistics.median(boxed):13.1f} "
                    f"{statistics.median(bare):9.1f} {added:9.1f} {ratio:6.2f}"
                )
        print(f"load average after: {os.getloadavg()}")
    finally:
        shutil.rmtree(box, ignore_errors=True)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
