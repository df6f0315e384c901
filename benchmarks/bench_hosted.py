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

``--hostile``: a connected bot's move round trip beside hostile games. A real ``adjacency
league serve`` process (8x8, ``--rounds`` rounds, ``--move-time`` s a move, hosted games
on) where two normal bots connected through ``adjacency connect`` (``greedy``) play for
``--seconds`` s, first alone, then, on a fresh league, beside teams whose uploaded course
projects behave in the check and turn hostile as O in a game (an endless loop, a fork
bomb, allocating far past memory, printing 100 MB: tests/hostile_code.py). Prints the
server's p50/p95 of the connected bots' move round trips (its request to their answer) in
both phases, and how the phase's games ended (the hostile ones lose on time or by
disconnection, again and again).

    python benchmarks/bench_hosted.py --hostile --seconds 60
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shlex
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from collections import Counter
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

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
sys.path.insert(0, str(REPO / "tests"))  # the tests' course projects and hostile bots


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


# ---------------------------------------------------------------- a served league


def cli(*arguments: str) -> str:
    """Run ``adjacency ARGUMENTS`` in this process (the real command line); its output."""
    from adjacency.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(arguments))
    assert status == 0, (arguments, out.getvalue())
    return out.getvalue()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def proc_figures(pid: int) -> tuple[float, float]:
    """A process's resident memory (MiB) and CPU seconds so far (Linux /proc)."""
    rss = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return rss, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sandbox_memory() -> dict[int, float]:
    """The resident memory (MiB) of each running sandbox: its processes' VmRSS summed by
    the sandbox's own user (one per sandbox, from the sandbox's pool)."""
    from adjacency.sandbox.identity import FIRST_UID, SLOTS

    found: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text().splitlines()
        except OSError:
            continue
        uid = int(next(line for line in status if line.startswith("Uid:")).split()[1])
        rss = next((line for line in status if line.startswith("VmRSS:")), None)
        if FIRST_UID <= uid < FIRST_UID + SLOTS and rss is not None:
            found[uid] = found.get(uid, 0.0) + int(rss.split()[1]) / 1024
    return found


class League:
    """A fresh league file served by a real ``adjacency league serve`` process (hosted
    games on, its builder, full pace), with its members, uploads and connected clients."""

    def __init__(self, rounds: int, move_time: float, hosted_jobs: int | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-hosted-league-"))
        self.folder.chmod(0o755)  # the sandbox's users reach the builds beside the file
        self.db = self.folder / "league.db"
        self.admin = self.folder / "admin.token"
        self.admin.write_text("adjl_bench-hosted-admin-token")
        cli("league", "create", "--db", str(self.db), "--rounds", str(rounds),
            "--move-time", str(move_time), "--min-game", "0",
            "--admin-token-file", str(self.admin))  # fmt: skip
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.hosted_jobs = hosted_jobs
        self.server: subprocess.Popen[bytes] | None = None
        self.clients: list[subprocess.Popen[bytes]] = []
        self.environment = dict(os.environ, PYTHONPATH=str(REPO / "src"))

    def member(self, name: str) -> str:
        """Add the bot account ``name``; its token."""
        return cli("league", "add-bot", "--db", str(self.db), name).split()[-1]

    def start(self) -> None:
        command = [sys.executable, "-m", "adjacency", "league", "serve", "--db", str(self.db),
                   "--port", str(self.port), "--no-house-games", "--exempt-loopback",
                   "--pace", "0", "--log-level", "warning"]  # fmt: skip
        if self.hosted_jobs is not None:
            command += ["--hosted-jobs", str(self.hosted_jobs)]
        log = (self.folder / "server.log").open("wb")
        self.server = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=self.environment
        )
        deadline = time.monotonic() + 120
        while True:
            try:
                self.get("/api/league")
                return
            except OSError:
                assert self.server.poll() is None, (self.folder / "server.log").read_text()
                assert time.monotonic() < deadline, "the server did not answer in 120 s"
                time.sleep(0.1)

    def get(self, path: str, token: str | None = None) -> Any:
        request = urllib.request.Request(self.url + path)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())

    def upload(self, token: str, data: bytes) -> None:
        headers = {"Content-Type": "application/zip", "X-Filename": "team.zip",
                   "Authorization": f"Bearer {token}"}  # fmt: skip
        request = urllib.request.Request(
            self.url + "/api/league/submissions", data=data, method="POST", headers=headers
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.status == 201, answer.read()

    def verdicts(self, tokens: list[str], bound: float = 1800.0) -> dict[str, tuple[str, float]]:
        """Wait for each token's newest version's verdict: its status and when it was seen
        (``time.monotonic``, polled every 0.2 s)."""
        seen: dict[str, tuple[str, float]] = {}
        deadline = time.monotonic() + bound
        while len(seen) < len(tokens):
            assert time.monotonic() < deadline, "no verdict for every version"
            for token in tokens:
                if token not in seen:
                    newest = self.get("/api/league/submissions", token)["submissions"][0]
                    if newest["status"] in ("accepted", "refused"):
                        seen[token] = (newest["status"], time.monotonic())
                        assert newest["status"] == "accepted", newest["detail"]
            time.sleep(0.2)
        return seen

    def connect(self, token: str, spec: str) -> None:
        """A client through ``adjacency connect`` playing ``spec`` for the token's account."""
        token_file = self.folder / f"client{len(self.clients)}.token"
        token_file.write_text(token)
        log = (self.folder / f"client{len(self.clients)}.log").open("wb")
        command = [sys.executable, "-m", "adjacency", "connect", self.url, spec,
                   "--token-file", str(token_file)]  # fmt: skip
        self.clients.append(
            subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.environment)
        )

    def stats(self) -> dict[str, Any]:
        """The server's load figures (its connected bots' move round trips)."""
        figures: dict[str, Any] = self.get("/api/league/stats")
        return figures

    def endings(self, since: float = 0.0) -> Counter[str]:
        """How the games finished since ``since`` (epoch seconds) ended: their terminations."""
        with contextlib.closing(sqlite3.connect(self.db)) as connection:
            rows = connection.execute(
                "SELECT termination FROM games WHERE status = 'finished' AND ended >= ?",
                (since,),
            ).fetchall()
        return Counter(str(row[0]) for row in rows)

    def stop(self) -> None:
        for client in self.clients:
            client.terminate()
        for client in self.clients:
            with contextlib.suppress(subprocess.TimeoutExpired):
                client.wait(20)
            if client.poll() is None:
                client.kill()
        if self.server is not None:
            self.server.terminate()
            try:
                self.server.wait(60)
            except subprocess.TimeoutExpired:
                self.server.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def league(rounds: int, move_time: float, hosted_jobs: int | None = None) -> Iterator[League]:
    served = League(rounds, move_time, hosted_jobs)
    try:
        yield served
    finally:
        served.stop()


# ---------------------------------------------------------------- --hostile

HOSTILE = ("an endless loop", "a fork bomb", "allocate far past its memory", "printing 100 MB")
"""The attacks played beside the normal games (each its own team)."""


def connected_round_trips(
    rounds: int, move_time: float, seconds: float, attacks: tuple[str, ...]
) -> tuple[dict[str, Any], Counter[str]]:
    """Two connected ``greedy`` bots play for ``seconds`` on a fresh league, beside one
    team per attack (accepted before they connect); the server's figures and how the
    games ended."""
    from hostile_code import FAILURES, PROBES, fill, project

    with league(rounds, move_time) as served:
        normal = [served.member(f"normal{n}") for n in range(2)]
        hostile = [served.member(f"hostile{n}") for n in range(len(attacks))]
        served.start()
        trigger = f"!isX && roundsLeft < {rounds}"  # never in the check: a game's O
        for token, attack in zip(hostile, attacks, strict=True):
            body = PROBES[attack] if attack in PROBES else FAILURES[attack][0]
            code = fill(body, served.url, served.db, served.folder / "untouchable.txt")
            served.upload(token, project(code, when=trigger))
        served.verdicts(hostile)
        began = time.time()
        for token in normal:
            served.connect(token, "greedy")
        time.sleep(seconds)
        return served.stats(), served.endings(began)


def hostile_mode(args: argparse.Namespace) -> None:
    print(f"load average before: {os.getloadavg()}; {os.cpu_count()} cores")
    for label, attacks in (("alone", ()), ("beside hostile games", HOSTILE)):
        stats, endings = connected_round_trips(args.rounds, args.move_time, args.seconds, attacks)
        print(
            f"connected bots' move round trip, {label}: p50 {stats['round_trip_ms_p50']} ms,"
            f" p95 {stats['round_trip_ms_p95']} ms over {stats['moves']} moves;"
            f" games ended: {dict(endings)}"
        )
    print(f"load average after: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--projects", type=int, default=6, help="projects built (default 6)")
    parser.add_argument("--games", type=int, default=4, help="games each way (default 4)")
    parser.add_argument("--rounds", type=int, default=28, help="rounds a game (default 28)")
    parser.add_argument("--time", type=float, default=0.2, help="seconds a move (default 0.2)")
    parser.add_argument(
        "--hostile", action="store_true", help="the round trip beside hostile games"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play a phase")
    parser.add_argument("--move-time", type=float, default=1.0, help="league's s a move (1)")
    args = parser.parse_args()
    if args.hostile:
        hostile_mode(args)
        return
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
