"""Hosted bots, as far as they run today: a submission's build and check in the sandbox,
and one built bot's whole game in its sandbox against the same bot run as a plain child.

For ``--projects`` course-shaped projects (the example course project of
``examples/engines/java/course-project``, its search depth varied so no two are the same
bytes) each is built from its zip (:func:`adjacency.hosting.sandbox_build.build_submission`:
intake, ``javac`` and the runner's inspection in the sandbox) and checked
(:func:`adjacency.hosting.check.check_bot`, 4 positions of the league's board). Then the
first built bot plays ``--games`` colour-swapped games on 8x8 against ``greedy`` in its
sandbox (one sandboxed process a game, :func:`adjacency.hosting.player.hosted_bot`), and
as many as a plain ``cmd:`` child of the same classes, in turn: each game's wall seconds,
the bot's CPU seconds (the sandbox's accounting of its whole process tree) and its peak
resident memory. Figures are medians and maxima, with the load average before and after.

    python benchmarks/bench_hosted.py --projects 6 --games 4

Not measured here: hosted games on the league's clock (the league does not play accepted
versions yet), games per minute per core against connected bots, a connected bot's move
round trip beside hosted games, and the server's own memory with 30 hosted bots.
"""

from __future__ import annotations

import argparse
import io
import os
import shlex
import statistics
import tempfile
import time
import zipfile
from functools import partial
from pathlib import Path

from adjacency.bots import Limit, make_bot
from adjacency.bots.external import CommandSpec, ExternalBot
from adjacency.bots.referee import play_game
from adjacency.core import Position
from adjacency.hosting.check import check_bot
from adjacency.hosting.player import GAME_LIMITS, command_line, hosted_bot
from adjacency.hosting.sandbox_build import build_submission
from adjacency.protocol.transport import Transport
from adjacency.sandbox import SandboxedProcess

REPO = Path(__file__).resolve().parents[1]
COURSE = REPO / "examples" / "engines" / "java" / "course-project" / "src"


def project(depth: int) -> bytes:
    """The course project with its search depth set to ``depth``, zipped."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for source in sorted(COURSE.glob("*.java")):
            text = source.read_text(encoding="utf-8")
            text = text.replace("DEPTH = 3;", f"DEPTH = {depth};")
            archive.writestr(f"tubes/src/{source.name}", text)
    return buffer.getvalue()


def stats(values: list[float]) -> str:
    return f"median {statistics.median(values):.2f}, max {max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--projects", type=int, default=6, help="projects built (default 6)")
    parser.add_argument("--games", type=int, default=4, help="games each way (default 4)")
    parser.add_argument("--rounds", type=int, default=28, help="rounds a game (default 28)")
    parser.add_argument("--time", type=float, default=0.2, help="seconds a move (default 0.2)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}; {os.cpu_count()} cores")
    work = Path(tempfile.mkdtemp(prefix="bench-hosted-"))
    work.chmod(0o755)
    builds, checks = [], []
    built = None
    for index in range(args.projects):
        began = time.perf_counter()
        hosted = build_submission(project(2 + index % 3), work / f"build-{index}")
        builds.append(time.perf_counter() - began)
        began = time.perf_counter()
        item = hosted.built
        make = partial(hosted_bot, item.classes, item.bot, item.args)
        verdict = check_bot(make, 8, 8, 28, 5.0)
        checks.append(time.perf_counter() - began)
        assert verdict.accepted, verdict.detail
        built = built or hosted.built
    assert built is not None
    print(f"build of a submission, s ({args.projects}): {stats(builds)}")
    print(f"check of a built bot, s ({args.projects}): {stats(checks)}")

    processes: list[SandboxedProcess] = []

    def sandboxed(command: CommandSpec) -> Transport:
        process = SandboxedProcess(command.argv, submission=built.classes, limits=GAME_LIMITS)
        processes.append(process)
        return process

    plain_command = ["java", *command_line(built.bot, built.args)[1:]]
    plain_command[plain_command.index("/box")] = str(built.classes)
    start = Position.start(8, 8, args.rounds)
    limit = Limit(time=args.time)
    walls: dict[str, list[float]] = {"sandboxed": [], "plain": []}
    cpu, memory = [], []
    for game in range(args.games):
        for kind in ("sandboxed", "plain"):
            if kind == "sandboxed":
                spec = "[timeout=20] " + shlex.join(command_line(built.bot, built.args))
                bot = ExternalBot(spec, sandboxed)
            else:
                bot = ExternalBot("[timeout=20] " + shlex.join(plain_command))
            greedy = make_bot("greedy", seed=game)
            began = time.perf_counter()
            x, o = (bot, greedy) if game % 2 == 0 else (greedy, bot)
            record = play_game(x, o, start, limit)
            walls[kind].append(time.perf_counter() - began)
            assert record.is_over, record
            if kind == "sandboxed":
                process = processes[-1]
                cpu.append(process.cpu_seconds())
                bot.close()
                memory.append(process.end().memory_peak / (1 << 20))
            else:
                bot.close()
    for kind, values in walls.items():
        print(f"a game's wall seconds, {kind} ({args.games}): {stats(values)}")
    ratio = statistics.median(walls["sandboxed"]) / statistics.median(walls["plain"])
    print(f"sandboxed / plain, median game: {ratio:.2f}")
    print(f"hosted bot's CPU seconds a game: {stats(cpu)}")
    print(f"hosted bot's peak resident memory, MiB: {stats(memory)}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
