"""The share of a cheating bot's CPU time its sandbox is charged.

The bot ignores ``SIGCHLD`` (so the kernel reaps its children and their time reaches no
living process's ``cutime``) and burns ``--burn`` CPU seconds in each of ``--children``
children, one after another; each child prints the CPU time the kernel gave it. The
table gives what the host saw (their sum), what the sandbox charged
(:meth:`adjacency.sandbox.SandboxedProcess.cpu_seconds`, read while the bot still runs),
the share, how the sandbox counted (its cgroup, or ``/proc``; ``--proc`` forces the
latter) and the load average before and after. It runs on any version of the sandbox, so
the same command measures before and after a change.

    python benchmarks/bench_cheating_bot.py
    python benchmarks/bench_cheating_bot.py --proc
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from adjacency import sandbox

CHEAT = """\
import os, signal, sys, time

signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for _ in range({children}):
    pid = os.fork()
    if pid == 0:
        while time.process_time() < {burn}:
            pass
        print("burned", time.process_time(), flush=True)
        os._exit(0)
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
print("done", flush=True)
sys.stdin.readline()
"""


def measure(children: int, burn: float) -> tuple[float, float, str]:
    """(burned, charged, how counted) for one run of the cheating bot."""
    folder = Path(tempfile.mkdtemp(prefix="bench-cheat-"))
    folder.chmod(0o755)
    try:
        program = folder / "cheat.py"
        program.write_text(CHEAT.format(children=children, burn=burn))
        program.chmod(0o644)
        limits = sandbox.Limits(cpu_seconds=children * burn * 4 + 10)
        process = sandbox.SandboxedProcess(
            ["/usr/bin/python3", "/box/cheat.py"], submission=folder, limits=limits
        )
        process.start()
        burned = 0.0
        try:
            while True:
                line = process.read_line(children * burn * 20 + 30)
                if line is None or line == "done":
                    break
                burned += float(line.split()[1])
            charged = process.cpu_seconds()
            how = "cgroup" if getattr(process, "counted_by_group", False) else "/proc"
        finally:
            process.end()
        return burned, charged, how
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--children", type=int, default=3)
    parser.add_argument("--burn", type=float, default=1.5, help="CPU seconds per child")
    parser.add_argument("--proc", action="store_true", help="no cgroup: the /proc fallback")
    args = parser.parse_args()
    if args.proc:
        os.environ["ADJACENCY_SANDBOX_CGROUP"] = "none"
    before = os.getloadavg()[0]
    burned, charged, how = measure(args.children, args.burn)
    after = os.getloadavg()[0]
    print("| burned (host) | charged | share | counted by | load before / after |")
    print("| --- | --- | --- | --- | --- |")
    print(
        f"| {burned:.2f} s | {charged:.2f} s | {charged / burned:.0%} | {how} "
        f"| {before:.1f} / {after:.1f} |"
    )


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
