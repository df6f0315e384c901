"""Hosted bots, as far as they run today: a submission's build and check in the sandbox,
and one built bot's whole game in its sandbox against the same bot run as a plain child.

For ``--projects`` course-shaped projects (the example course project of
``examples/engines/java/course-project``, its search depth varied so no two are the same
bytes) each is built from its zip (:func:`adjacency.hosting.kinds.build_submission`:
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

``--swiss``: ``--bots`` hosted bots in a Swiss of ``--swiss-rounds`` rounds (8x8,
``--rounds`` rounds a game, ``--move-time`` s a move, full pace). Each team uploads a
Java course-style project, the shapes in turn (tests/course_projects.py: the default
package, ``Bot(String)``, ``move(OutputFrameController)``, ``Bot(OutputFrameController)``,
``Bot(int, char, char)`` and two bots chosen by a manifest; the example course project at
two depths); the server builds them with hosted games off. Prints: the build and check
of a submission (the server's own times), a built bot's start to its handshake sandboxed
and plain, side by side (what the sandbox adds to a game's start), then the Swiss played
by a real ``league serve`` process with two ``greedy`` bots connected beside it: games
per minute per core (first game's start to last game's end), memory of a hosted bot
(each running sandbox's processes' RSS, sampled every second), the server's CPU seconds
and peak RSS, and the connected bots' move round trip p50/p95 beside it. Then, on a
fresh league, the two ``greedy`` bots alone for ``--seconds`` (their round trip with no
hosted game), and the same bots as the hosted ones, connected through ``adjacency
connect`` (their built classes as plain ``cmd:`` children), play the same Swiss beside
them: games per minute per core, and hosted / connected. ``--tiny``: 2 bots, one round
of 2-round games (its test). The Python and JavaScript starter kits, unedited and zipped
as a team would, are among the shapes (the last two).

    python benchmarks/bench_hosted.py --swiss --bots 30 --swiss-rounds 3
    python benchmarks/bench_hosted.py --tiny

``--programs``: the same Swiss (``--bots``, ``--swiss-rounds``, ``--rounds``,
``--move-time``; 8x8 from the start) twice, one after the other: first of teams whose
course-shaped JavaFX projects (tests/fx_course_projects.py, the four shapes in turn) are
played through their own windows (docs/javafx-driver.md), then of teams whose Java
course projects are played through the engine protocol's direct route (the kit's
adapter; the first eight shapes above). Prints for each: games per minute per core, how
games ended, the bots' CPU a game (their sandboxes', from each move's record) and what
their clocks were charged, each build and check, each sandbox's memory; and driven /
direct.

    python benchmarks/bench_hosted.py --programs --bots 12 --swiss-rounds 3 --rounds 8

With ``--loops N`` (``--swiss``, ``--programs``), N busy loops outside the league run
while each Swiss plays (its uploads and checks before them are quiet), and the load
average they made is printed: the Swiss's games beside the machine's other work.

``--fair``: more programs than the server has slots, at the course's setting (8x8 from
the start, ``--move-time`` s a move: give 5 for the course's): ``--bots`` Python programs (default
twice ``--hosted-jobs``) that each use their whole wall-clock budget, as course programs
do (they search until their own clock says the ``movetime`` less 0.1 s), uploaded to a
league app in this process with ``--hosted-jobs`` slots (default: the cores less the
server's), played until ``--games`` games ended. Prints each move's wall / CPU ratio and
own wall / CPU (the server's record of each move, :attr:`HostedPlayers.timings`), games
per hour, the share of games decided on the board, and the most games and computing
sides at once beside the slots.

    python benchmarks/bench_hosted.py --fair --move-time 5 --games 4 --rounds 4

``--loaded``: the same programs, uploads and games twice, and side by side: on the quiet
machine, then beside 16 busy loops outside the league (each in a session of its own,
tests/load_helpers.py), their uploads arriving at once both times. The teams are the
course shapes of ``--swiss`` (ten uploads, Java course projects played by the kit's
adapter, the Python and JavaScript kits) and ``--bots`` more Python programs that search
until their own wall clock says their ``movetime`` less 0.1 s (the course's rule), in a
league of 8x8 games of ``--rounds`` rounds from the book's openings at ``--move-time`` s a
move, ``--hosted-jobs`` slots. Once every version has its verdict, the accepted teams
play an event (``--event``: a round robin, or a Swiss of ``--swiss-rounds`` rounds,
seeded in the teams' order), so that both runs play the same pairings whatever order the
verdicts came in (the ladder's games meanwhile follow that order); the run ends with the
event and at least ``--games`` games ended. Prints for each run: every version's
verdict (its first sentence), every team's games (won, lost, drawn, and the losses on
time, at their start or by a crash), games per hour, each hosted move's CPU, idle and
waited-for-a-CPU seconds (the league's record of each move), the load; then the event's
games side by side (how many have the same result and score in both runs, apart for
the games of a bot whose move follows its speed, :data:`BY_ITS_CLOCK`), and the
differences: a refusal, a time loss or a start failure of the loaded run that the quiet
one did not have, and an event game of two bots whose moves do not follow their speed
whose result differs.

    python benchmarks/bench_hosted.py --loaded --bots 2 --games 24 --rounds 4 --move-time 1

``--programs --same-bots``: both Swisses of the example course project
(examples/engines/java/course-project, a whole JavaFX program): played through its own
window with its form's defaults (its ``Bot``, alpha-beta to depth 3, as O), then through
the direct route (the same ``Bot`` by the kit's adapter): the same bots both ways.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shlex
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zipfile
from collections import Counter
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from ports import free_port  # this folder is on the path

from adjacency.bots import Limit, make_bot
from adjacency.bots.external import CommandSpec, ExternalBot
from adjacency.bots.referee import play_game
from adjacency.core import Position
from adjacency.hosting.check import check_bot
from adjacency.hosting.kinds import build_submission, command_line
from adjacency.hosting.languages import GAME_LIMITS
from adjacency.hosting.player import hosted_bot, load_choice
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

    def __init__(
        self,
        rounds: int,
        move_time: float,
        hosted_jobs: int | None = None,
        serve_args: tuple[str, ...] = (),
        from_start: bool = False,
    ) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-hosted-league-"))
        self.folder.chmod(0o755)  # the sandbox's users reach the builds beside the file
        self.db = self.folder / "league.db"
        self.admin = self.folder / "admin.token"
        self.admin.write_text("adjl_bench-hosted-admin-token")
        cli("league", "create", "--db", str(self.db), "--rounds", str(rounds),
            "--move-time", str(move_time), "--min-game", "0",
            "--admin-token-file", str(self.admin),
            *(["--from-start"] if from_start else []))  # fmt: skip
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.hosted_jobs = hosted_jobs
        self.serve_args = serve_args  # more options of `league serve` (its executor)
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
        command += self.serve_args
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

    def verdicts(
        self, tokens: list[str], bound: float = 1800.0, refusals: bool = False
    ) -> dict[str, tuple[str, float]]:
        """Wait for each token's newest version's verdict: its status and when it was seen
        (``time.monotonic``, polled every 0.2 s); a refusal fails unless ``refusals``."""
        seen: dict[str, tuple[str, float]] = {}
        deadline = time.monotonic() + bound
        while len(seen) < len(tokens):
            assert time.monotonic() < deadline, "no verdict for every version"
            for token in tokens:
                if token not in seen:
                    newest = self.get("/api/league/submissions", token)["submissions"][0]
                    if newest["status"] in ("accepted", "refused"):
                        seen[token] = (newest["status"], time.monotonic())
                        assert refusals or newest["status"] == "accepted", newest["detail"]
                        if newest["status"] == "refused":
                            print(f"refused: {newest['detail'][-600:]}")
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

    def stop(self, remove: bool = True) -> None:
        """Stop its clients and its server; remove its folder (its builds) unless told."""
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
        if remove:
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
        for token in normal:
            served.connect(token, "greedy")
        wait_connected(served, len(normal))
        began = time.time()
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


# ---------------------------------------------------------------- --swiss


def zipped(files: dict[str, str]) -> bytes:
    """A project's files zipped under a top folder, as a team downloads it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(f"tubes/{name}", text)
    return buffer.getvalue()


def course_shapes() -> list[tuple[str, bytes]]:
    """Course-style projects of several shapes (tests/course_projects.py and the example
    course project at two search depths), zipped: what the hosted teams upload, in turn."""
    from course_projects import (
        ALGORITHM,
        CONTROLLER_CONSTRUCTOR,
        CONTROLLER_MOVE,
        MANIFEST_BOTTOM,
        PLAYER_STRING,
        TWO_BOTS,
        UNPACKAGED,
    )

    algorithm = '{"class": "ai.search.Bot", "args": ["2"]}\n'
    return [
        ("the example course project, depth 2", project(2)),
        ("default package, Bot(), move(Button[][], 4 ints and a flag)", zipped(UNPACKAGED)),
        ("Bot(String player) in a package", zipped(PLAYER_STRING)),
        ("move(OutputFrameController), an abstract Bot", zipped(CONTROLLER_MOVE)),
        ("Bot(OutputFrameController), move()", zipped(CONTROLLER_CONSTRUCTOR)),
        (
            "Bot(int, char, char) and a manifest",
            zipped({**ALGORITHM, "adjacency-bot.json": algorithm}),
        ),
        ("two bots and a manifest", zipped({**TWO_BOTS, "adjacency-bot.json": MANIFEST_BOTTOM})),
        ("the example course project, depth 1", project(1)),
        ("the Python starter kit", kit_zip("python")),
        ("the JavaScript starter kit", kit_zip("javascript")),
    ]


BY_ITS_CLOCK = ("the Python starter kit", "the JavaScript starter kit")
"""The shapes of :func:`course_shapes` whose move depends on their speed: they deepen their
search until their own wall clock says stop, so on a loaded machine they search less deep
and may choose another move (the others search to a fixed depth, or answer a fixed
square after spending their time)."""


def kit_zip(language: str) -> bytes:
    """A starter kit (``examples/engines/LANGUAGE``) zipped as it is, under its folder."""
    kit = Path(__file__).resolve().parents[1] / "examples" / "engines" / language
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(kit.rglob("*")):
            if path.is_file():
                archive.write(path, f"{language}/{path.relative_to(kit).as_posix()}")
    return buffer.getvalue()


def build_seconds(versions: list[dict[str, Any]]) -> list[float]:
    """Each version's build and check, in seconds, from the server's own times: the
    builder takes one at a time, oldest first, so a version's build began when it came
    or when the one before it was decided, whichever is later."""
    seconds, previous = [], 0.0
    for version in sorted(versions, key=lambda v: float(v["decided"])):
        began = max(float(version["created"]), previous)
        seconds.append(float(version["decided"]) - began)
        previous = float(version["decided"])
    return seconds


def plain_command(choice: Any) -> list[str]:
    """A built bot's command run as a plain child (no sandbox), its classes or program
    where they are."""
    inside = command_line(choice.bot, choice.args, choice.kind)
    program = inside[0]  # the same java, python3 or node as in the sandbox (Debian's)
    box = str(choice.classes)
    return [
        program,
        *(box + a[4:] if a == "/box" or a.startswith("/box/") else a for a in inside[1:]),
    ]


def start_times(choice: Any, count: int) -> dict[str, list[float]]:
    """Seconds from starting a built bot to its handshake's end, sandboxed and plain, in
    turn (side by side on the same machine)."""
    times: dict[str, list[float]] = {"sandboxed": [], "plain": []}
    for _ in range(count):
        began = time.perf_counter()
        bot = choice.bot_now()
        times["sandboxed"].append(time.perf_counter() - began)
        bot.close()
        began = time.perf_counter()
        bot = ExternalBot("[timeout=20] " + shlex.join(plain_command(choice)))
        times["plain"].append(time.perf_counter() - began)
        bot.close()
    return times


def play_event(served: League, name: str, bound: float) -> dict[str, Any]:
    """Wait for the running event ``name`` to finish, sampling every second the server's
    memory and each sandbox's; its games, minutes (from its first game's start to its last
    game's end, the server's times), the server's CPU
    seconds and peak memory, and the sandboxes' memory samples."""
    assert served.server is not None
    _, cpu_before = proc_figures(served.server.pid)
    peak, sandboxes = 0.0, list[float]()
    deadline = time.monotonic() + bound
    query = "SELECT status, id FROM events WHERE name = ?"
    while True:
        with contextlib.closing(sqlite3.connect(served.db)) as connection:
            status, event = connection.execute(query, (name,)).fetchone()
        rss, cpu_after = proc_figures(served.server.pid)
        peak = max(peak, rss)
        sandboxes.extend(sandbox_memory().values())
        if status == "finished":
            break
        assert time.monotonic() < deadline, f"the event did not finish in {bound:g} s"
        time.sleep(1.0)
    with contextlib.closing(sqlite3.connect(served.db)) as connection:
        games, started, finished = connection.execute(
            "SELECT count(*), min(games.started), max(games.ended) FROM games JOIN event_boards"
            " ON games.pair_id = event_boards.pair_id"
            " WHERE event_boards.event_id = ? AND games.status = 'finished'",
            (event,),
        ).fetchone()
        endings = connection.execute(
            "SELECT termination, count(*) FROM games JOIN event_boards"
            " ON games.pair_id = event_boards.pair_id WHERE event_boards.event_id = ?"
            " GROUP BY termination",
            (event,),
        ).fetchall()
    return {
        "games": int(games),
        "endings": dict(endings),
        "minutes": (finished - started) / 60,
        "server_cpu": cpu_after - cpu_before,
        "server_rss_peak": peak,
        "sandbox_rss": sandboxes,
    }


def wait_connected(served: League, count: int) -> None:
    """Wait until ``count`` bots are connected to ``served``."""
    deadline = time.monotonic() + 120
    while served.stats()["connected"] < count:
        assert time.monotonic() < deadline, f"{count} bots did not all connect"
        time.sleep(0.2)


def run_event(served: League, names: list[str], rounds: int) -> None:
    """Create the Swiss ``swiss`` of ``names`` (full pace) and start it."""
    cli("league", "event", "create", "--db", str(served.db), "--format", "swiss",
        "--rounds", str(rounds), "--members", ",".join(names), "--pace", "0", "swiss")  # fmt: skip
    cli("league", "event", "start", "--db", str(served.db), "swiss")


def swiss_mode(args: argparse.Namespace) -> None:
    from hosted_helpers import served as in_process

    if args.tiny:
        args.bots, args.rounds, args.swiss_rounds, args.seconds, args.starts = 2, 2, 1, 1, 1
    cores = os.cpu_count() or 1
    print(f"load average before: {os.getloadavg()}; {cores} cores")
    shapes = course_shapes()
    names = [f"team{number:02d}" for number in range(args.bots)]

    # The builds, with hosted games off (nothing else runs meanwhile).
    hosted = League(args.rounds, args.move_time, args.hosted_jobs)
    tokens = [hosted.member(name) for name in names]
    probes = [hosted.member(f"probe{number}") for number in range(2)]
    own_url = hosted.url
    with in_process(hosted.db, hosted_games=False) as (url, _):
        hosted.url = url  # the builds' server, in this process, until the league is served
        for number, token in enumerate(tokens):
            hosted.upload(token, shapes[number % len(shapes)][1])
        hosted.verdicts(tokens)
        versions = [hosted.get("/api/league/submissions", t)["submissions"][0] for t in tokens]
    hosted.url = own_url
    builds = build_seconds(versions)
    print(f"shapes: {', '.join(shape for shape, _ in shapes[: args.bots])}")
    print(f"build and check of a submission, s ({len(builds)}): {stats(builds)}")
    choices = [load_choice(folder) for folder in sorted(hosted.db.parent.glob("*.builds/*"))]
    built = [choice for choice in choices if choice is not None]
    starts = start_times(built[0], args.starts)
    sandboxed, plain = (statistics.median(starts[k]) * 1000 for k in ("sandboxed", "plain"))
    print(
        f"a bot's start to its handshake, ms ({args.starts} each, side by side): sandboxed"
        f" {sandboxed:.0f}, plain {plain:.0f}: the sandbox adds {sandboxed - plain:.0f}"
    )

    # The Swiss of the hosted bots, two connected bots playing beside it.
    try:
        run_event(hosted, names, args.swiss_rounds)
        hosted.start()
        for token in probes:
            hosted.connect(token, "greedy")
        figures = play_event(hosted, "swiss", args.bound)
        beside = hosted.stats()
    finally:
        hosted.stop(remove=False)  # its builds are the connected bots' classes

    # The same bots connected through `adjacency connect` (plain children) in a Swiss.
    with contextlib.ExitStack() as stack:
        stack.callback(shutil.rmtree, hosted.folder, ignore_errors=True)
        connected = stack.enter_context(league(args.rounds, args.move_time))
        own = [connected.member(name) for name in names]
        beside_them = [connected.member(f"probe{number}") for number in range(2)]
        connected.start()
        # First the two greedy bots alone: their round trip with no hosted game running.
        for token in beside_them:
            connected.connect(token, "greedy")
        wait_connected(connected, len(beside_them))
        time.sleep(args.seconds)
        alone = connected.stats()
        for token, choice in zip(own, built, strict=True):
            connected.connect(token, "cmd:[timeout=20] " + shlex.join(plain_command(choice)))
        wait_connected(connected, len(beside_them) + len(names))
        run_event(connected, names, args.swiss_rounds)
        compared = play_event(connected, "swiss", args.bound)

    def per_core(figures: dict[str, Any]) -> float:
        return float(figures["games"]) / max(float(figures["minutes"]), 1e-9) / cores

    memory = figures["sandbox_rss"] or [0.0]
    print(
        f"Swiss of {args.bots} hosted bots, {args.swiss_rounds} rounds, {args.rounds}-round"
        f" games at {args.move_time:g} s a move: {figures['games']} games in"
        f" {figures['minutes']:.2f} min, {per_core(figures):.2f} games/min/core;"
        f" endings {figures['endings']}"
    )
    print(
        f"the same bots connected: {compared['games']} games in {compared['minutes']:.2f} min,"
        f" {per_core(compared):.2f} games/min/core; endings {compared['endings']};"
        f" hosted / connected: {per_core(figures) / max(per_core(compared), 1e-9):.2f}"
    )
    print(f"memory of a hosted bot's sandbox, MiB ({len(memory)} samples): {stats(memory)}")
    print(
        f"the server, hosted Swiss: {figures['server_cpu']:.1f} CPU s"
        f" ({100 * figures['server_cpu'] / max(60 * figures['minutes'], 1e-9):.0f}% of a core),"
        f" peak RSS {figures['server_rss_peak']:.0f} MiB"
    )
    print(
        f"a connected bot's move round trip, ms: p50 {alone['round_trip_ms_p50']},"
        f" p95 {alone['round_trip_ms_p95']} with no hosted game; p50"
        f" {beside['round_trip_ms_p50']}, p95 {beside['round_trip_ms_p95']} beside the"
        f" hosted Swiss ({alone['moves']} and {beside['moves']} moves)"
    )
    print(f"load average after: {os.getloadavg()}")


def program_shapes() -> list[tuple[str, bytes]]:
    """The course-shaped JavaFX projects of tests/fx_course_projects.py, each packed to be
    played through its own window with its form's defaults (what ``league submit
    --program`` sends): what the driven teams upload, in turn."""
    from adjacency.hosting.packing import pack_program
    from fx_course_projects import SHAPES, download_zip

    packed = []
    with tempfile.TemporaryDirectory() as folder:
        for shape in SHAPES:
            project = download_zip(shape, Path(folder) / f"{shape.name}-main.zip", 1 << 20)
            packed.append((f"{shape.name} (its window)", pack_program(project, {}).data))
    return packed


def hosted_swiss(
    args: argparse.Namespace, shapes: list[tuple[str, bytes]], from_start: bool = True
) -> dict[str, Any]:
    """A Swiss of ``--bots`` hosted teams uploading ``shapes`` in turn, built with hosted
    games off, then played by a real ``league serve`` (8x8, from the start unless told,
    else from the book's openings): its figures (:func:`play_event`) with the builds'
    seconds and the sandboxes' CPU per game."""
    from hosted_helpers import served as in_process

    names = [f"team{number:02d}" for number in range(args.bots)]
    hosted = League(args.rounds, args.move_time, args.hosted_jobs, from_start=from_start)
    try:
        tokens = [hosted.member(name) for name in names]
        own_url = hosted.url
        with in_process(hosted.db, hosted_games=False) as (url, _):
            hosted.url = url
            for number, token in enumerate(tokens):
                hosted.upload(token, shapes[number % len(shapes)][1])
            seen = hosted.verdicts(tokens, refusals=True)
            versions = [hosted.get("/api/league/submissions", t)["submissions"][0] for t in tokens]
        hosted.url = own_url
        playing = [n for n, t in zip(names, tokens, strict=True) if seen[t][0] == "accepted"]
        run_event(hosted, playing, args.swiss_rounds)
        hosted.start()
        with loops_beside(args.loops):
            figures = play_event(hosted, "swiss", args.bound)
        with contextlib.closing(sqlite3.connect(hosted.db)) as connection:
            used, charged = connection.execute(  # each hosted move's record (move_times)
                "SELECT coalesce(sum(cpu), 0), coalesce(sum(charged), 0) FROM move_times"
                " WHERE game_id IN (SELECT id FROM games WHERE status = 'finished')"
            ).fetchone()
    finally:
        hosted.stop()
    figures["builds"] = build_seconds(versions)
    figures["refused"] = len(names) - len(playing)
    figures["bot_cpu_per_game"] = float(used) / max(1, int(figures["games"]))
    figures["charged_per_game"] = float(charged) / max(1, int(figures["games"]))
    return figures


@contextlib.contextmanager
def loops_beside(count: int) -> Iterator[None]:
    """``count`` busy loops outside the league (``--loops``, each in a session of its
    own) while the event plays, the load average sampled each minute and printed."""
    if count <= 0:
        yield
        return
    from load_helpers import busy_loops

    with busy_loops(count), sampled_load(60.0) as loads:
        try:
            yield
        finally:
            loads.append(os.getloadavg()[0])
    print(f"beside {count} busy loops: load average {min(loads):.1f} to {max(loads):.1f}")


@contextlib.contextmanager
def sampled_load(every: float) -> Iterator[list[float]]:
    """The load average over the last minute, read every ``every`` seconds into the list
    it yields while the block runs (a thread of its own, stopped and joined at its end)."""
    loads: list[float] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(every):
            loads.append(os.getloadavg()[0])

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield loads
    finally:
        stop.set()
        sampler.join()


def with_bot_named(folder: Path) -> bytes:
    """The project in ``folder`` packed with the manifest naming its ``Bot`` (the kit's
    adapter plays it, not its window)."""
    from adjacency.hosting.intake import MANIFEST
    from adjacency.hosting.packing import pack, pack_files

    with zipfile.ZipFile(io.BytesIO(pack(folder).data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    files[MANIFEST] = b'{"class": "Bot"}\n'
    return pack_files(files)


def programs_mode(args: argparse.Namespace) -> None:
    """``--programs``: a Swiss of driven programs, then the same Swiss of course projects
    played through the engine protocol's direct route (the kit's adapter), side by side.
    A league of 8x8 games from the start plays a course program through its window
    unasked, so the direct route's example project names its bot in a manifest (as a
    window's refusal tells a team), and the other course shapes play from the openings."""
    cores = os.cpu_count() or 1
    print(f"load average before: {os.getloadavg()}; {cores} cores")

    def per_core(figures: dict[str, Any]) -> float:
        return float(figures["games"]) / max(float(figures["minutes"]), 1e-9) / cores

    if args.same_bots:
        from adjacency.hosting.packing import pack_program

        driven = hosted_swiss(
            args, [("example (its window)", pack_program(COURSE.parent, {}).data)]
        )
        direct = hosted_swiss(args, [("example (the adapter)", with_bot_named(COURSE.parent))])
    else:
        driven = hosted_swiss(args, program_shapes())
        direct = hosted_swiss(args, course_shapes()[:8], from_start=False)
    for name, figures in (("driven programs", driven), ("direct route", direct)):
        memory = figures["sandbox_rss"] or [0.0]
        print(
            f"{name}: Swiss of {args.bots}, {args.swiss_rounds} rounds of {args.rounds}-round"
            f" games at {args.move_time:g} s a move: {figures['games']} games in"
            f" {figures['minutes']:.2f} min, {per_core(figures):.3f} games/min/core"
            f" ({figures['refused']} of {args.bots} refused at their check);"
            f" endings {figures['endings']}; bots' CPU a game"
            f" {figures['bot_cpu_per_game']:.2f} s, their clocks charged"
            f" {figures['charged_per_game']:.2f} s; build and check, s: {stats(figures['builds'])};"
            f" a sandbox's memory, MiB: {stats(memory)}"
        )
    print(
        f"driven / direct, games per minute: {per_core(driven) / max(per_core(direct), 1e-9):.2f}"
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
    parser.add_argument("--swiss", action="store_true", help="hosted bots in a Swiss")
    parser.add_argument("--bots", type=int, default=30, help="hosted bots of --swiss (30)")
    parser.add_argument("--swiss-rounds", type=int, default=3, help="rounds of the Swiss (3)")
    parser.add_argument(
        "--loops", type=int, default=0, help="--swiss, --programs: busy loops beside the play"
    )
    parser.add_argument("--hosted-jobs", type=int, default=None, help="the server's (cores)")
    parser.add_argument("--starts", type=int, default=5, help="bot starts timed each way (5)")
    parser.add_argument("--bound", type=float, default=3600.0, help="most seconds an event")
    parser.add_argument("--tiny", action="store_true", help="--swiss at the smallest size")
    parser.add_argument(
        "--programs", action="store_true", help="a Swiss of driven JavaFX programs vs direct"
    )
    parser.add_argument(
        "--same-bots",
        action="store_true",
        help="with --programs: the example course project both ways (the same bots)",
    )
    parser.add_argument(
        "--fair", action="store_true", help="twice as many programs as slots, course's clock"
    )
    parser.add_argument(
        "--loaded", action="store_true", help="the same league quiet, then beside busy loops"
    )
    parser.add_argument(
        "--course-projects",
        type=Path,
        default=None,
        help="with --loaded: these course projects (Download ZIPs or folders), all at once",
    )
    parser.add_argument(
        "--event",
        choices=("round-robin", "swiss"),
        default="round-robin",
        help="with --loaded: the event the accepted teams play (round-robin)",
    )
    parser.add_argument(
        "--runs",
        choices=("both", "quiet", "loaded"),
        default="both",
        help="with --loaded: the runs made (both)",
    )
    args = parser.parse_args()
    if args.fair:
        fair_mode(args)
        return
    if args.loaded:
        loaded_mode(args)
        return
    if args.same_bots and not args.programs:
        parser.error("--same-bots goes with --programs")
    if args.programs:
        programs_mode(args)
    elif args.hostile:
        hostile_mode(args)
    elif args.swiss or args.tiny:
        swiss_mode(args)
    else:
        one_bot_mode(args)


def one_bot_mode(args: argparse.Namespace) -> None:
    """The default: ``--projects`` builds and checks, one built bot's games sandboxed and
    plain (the module's first paragraph)."""
    print(f"load average before: {os.getloadavg()}; {os.cpu_count()} cores")
    work = Path(tempfile.mkdtemp(prefix="bench-hosted-"))
    work.chmod(0o755)
    builds, checks = [], []
    built = None
    for index in range(args.projects):
        began = time.perf_counter()
        hosted = build_submission(project(2 + index % 3), work / f"build-{index}", windows=False)
        builds.append(time.perf_counter() - began)
        began = time.perf_counter()
        make = partial(hosted_bot, hosted.folder, hosted.bot, hosted.args, kind=hosted.kind)
        verdict = check_bot(make, 8, 8, 28, 5.0, hosted.kind)
        checks.append(time.perf_counter() - began)
        assert verdict.accepted, verdict.detail
        built = built or hosted
    assert built is not None
    print(f"build of a submission, s ({args.projects}): {stats(builds)}")
    print(f"check of a built bot, s ({args.projects}): {stats(checks)}")

    processes: list[SandboxedProcess] = []

    def sandboxed(command: CommandSpec) -> Transport:
        process = SandboxedProcess(command.argv, submission=built.folder, limits=GAME_LIMITS)
        processes.append(process)
        return process

    plain_command = ["java", *command_line(built.bot, built.args)[1:]]
    plain_command[plain_command.index("/box")] = str(built.folder)
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


WALL_CLOCK_THINK = """\
def think():
    budget = int(words[words.index("movetime") + 1]) / 1000 if "movetime" in words else 1.0
    end = time.monotonic() + max(0.0, budget - 0.1)  # the course's rule: its own clock
    while time.monotonic() < end:
        pass
"""
"""The ``think`` of a program that searches until its own wall clock says its
``movetime`` less 0.1 s (as course programs cut their search by the wall clock), then
answers the first empty square (``hosted_helpers.first_empty_program``: ``words`` is the
``go`` line it reads)."""


def fair_mode(args: argparse.Namespace) -> None:
    """``--fair`` (the module's docstring)."""
    from adjacency.hosting.slots import default_slots
    from adjacency.league.league_file import LeagueStore
    from hosted_helpers import files_zip, first_empty_program, served
    from league_helpers import add_member, make_league, upload, wait_until

    slots = args.hosted_jobs or default_slots()
    bots = args.bots if args.bots != 30 else 2 * slots
    print(f"load average before: {os.getloadavg()}; {os.cpu_count()} cores, {slots} slots")
    work = Path(tempfile.mkdtemp(prefix="bench-fair-"))
    work.chmod(0o755)
    db = work / "league.db"
    start = Position.start(8, 8, args.rounds).fen()
    make_league(db, rows=8, cols=8, rounds=args.rounds, move_time=args.move_time, openings=(start,))
    tokens = [add_member(db, f"team{n}") for n in range(1, bots + 1)]
    code = files_zip({"engine.py": first_empty_program("wall-clock", WALL_CLOCK_THINK)})
    with served(db, hosted_jobs=slots) as (url, app):
        for token in tokens:
            assert upload(url, code, token).status == 201
        began = time.monotonic()

        def ended() -> list[Any] | None:
            with LeagueStore(db, create=False) as store:
                done = [g for g in store.games.games() if g.status in ("finished", "aborted")]
            return done if len(done) >= args.games else None

        games = wait_until(ended, args.bound, f"{args.games} games ended")
        hours = (time.monotonic() - began) / 3600
        hosted = app.state.hosted
        timings = list(hosted.timings)
        most = (hosted.most_games, hosted.most_computing, hosted.slots.most)
    shutil.rmtree(work, ignore_errors=True)
    ratios = [wall / cpu for wall, _, cpu in timings if cpu > 0.05]
    owns = [own / cpu for _, own, cpu in timings if cpu > 0.05]
    endings = Counter(g.termination or "aborted" for g in games)
    board = sum(1 for g in games if g.termination == "normal") / max(len(games), 1)
    print(
        f"{bots} programs, {slots} slots, 8x8 {args.rounds} rounds at {args.move_time:g} s a move"
    )
    print(f"a move's wall / CPU ({len(ratios)} moves): {stats(ratios)}")
    print(f"a move's own wall / CPU: {stats(owns)}")
    print(
        f"{len(games)} games in {hours * 60:.2f} min: {len(games) / hours:.1f} games an hour;"
        f" decided on the board {board:.0%}; endings {dict(endings)}"
    )
    print(f"most games with a hosted side, computing sides, slots held at once: {most}")
    print(f"load average after: {os.getloadavg()}")


BUSY_LOOPS = 16
"""The loaded run's busy loops outside the league."""

LOSSES = ("time forfeit", "disconnection", "illegal move")
"""The terminations a team's game can be lost by that its program's verdict decides (a
loss on time, a start or a crash, an illegal answer)."""


def loaded_run(args: argparse.Namespace, loaded: bool) -> dict[str, Any]:
    """One run of ``--loaded`` (the module's docstring): quiet, or with ``loaded`` beside
    :data:`BUSY_LOOPS` busy loops; its verdicts, games, moves' seconds and load."""
    from adjacency.hosting.slots import default_slots
    from adjacency.league.league_file import LeagueStore
    from hosted_helpers import files_zip, first_empty_program, served
    from league_helpers import add_member, make_league, upload, wait_until
    from load_helpers import busy_loops

    slots = args.hosted_jobs or default_slots()
    work = Path(tempfile.mkdtemp(prefix="bench-loaded-"))
    work.chmod(0o755)
    db = work / "league.db"
    if args.course_projects is not None:
        shapes = project_zips(args.course_projects)
        course_league(db, args.rounds)
    else:
        shapes = course_shapes()
        wall_clock = files_zip({"engine.py": first_empty_program("wall-clock", WALL_CLOCK_THINK)})
        shapes += [(f"searches by its wall clock {n + 1}", wall_clock) for n in range(args.bots)]
        make_league(db, rows=8, cols=8, rounds=args.rounds, move_time=args.move_time)
    names = [f"team{n:02d}" for n in range(len(shapes))]
    tokens = [add_member(db, name) for name in names]
    # the loops start once the server is up: the load meets the uploads and games
    with (
        sampled_load(5.0) as loads,
        served(db, hosted_jobs=slots) as (url, _),
        busy_loops(BUSY_LOOPS if loaded else 0),
    ):
        began = time.monotonic()
        for token, (_, code) in zip(tokens, shapes, strict=True):  # at once
            assert upload(url, code, token).status == 201

        def decided() -> list[str] | None:
            with LeagueStore(db, create=False) as store:
                latest = {
                    name: store.submissions.versions(
                        store.members.member_named(name).id  # type: ignore[union-attr]
                    )
                    for name in names
                }
            undecided = ("received", "building")
            waiting = [v for v in latest.values() if not v or v[-1].status in undecided]
            if waiting:
                return None
            return [name for name in names if latest[name][-1].status == "accepted"]

        accepted = wait_until(decided, args.bound, "every version's verdict")
        fixed_event(db, accepted, args.event, args.swiss_rounds)

        def ended() -> list[Any] | None:
            with LeagueStore(db, create=False) as store:
                done = [g for g in store.games.games() if g.status != "playing"]
            finished = event_status(db) == "finished"
            return done if finished and len(done) >= args.games else None

        games = wait_until(ended, args.bound, f"the event and {args.games} games ended")
        hours = (time.monotonic() - began) / 3600
        event = event_results(db)
    with LeagueStore(db, create=False) as store:
        ids = {store.members.member_named(name).id: name for name in names}  # type: ignore[union-attr]
        verdicts = {}
        for member, name in ids.items():
            versions = store.submissions.versions(member)
            last = versions[-1] if versions else None
            said = "" if last is None else (last.detail or "").split(". ")[0][:160]
            verdicts[name] = (last.status if last else "none", said)
        moves = [m for game in games for m in store.move_times.of_game(game.id)]
    teams = tally(games, ids)
    failures = [
        f"{ids.get(g.x_id, g.x_id)}-{ids.get(g.o_id, g.o_id)} {g.status} {g.termination}:"
        f" {(g.detail or '')[:300]}"
        for g in games
        if g.status == "aborted" or g.termination in LOSSES
    ]
    shutil.rmtree(work, ignore_errors=True)
    return {
        "verdicts": verdicts,
        "teams": teams,
        "shapes": {name: shape for name, (shape, _) in zip(names, shapes, strict=True)},
        "games": len(games),
        "per_hour": len(games) / max(hours, 1e-9),
        "moves": moves,
        "event": event,
        "failures": failures,
        "load": loads or [os.getloadavg()[0]],
    }


EVENT = "fixed"
"""The name of the ``--loaded`` runs' event."""


def fixed_event(db: Path, names: list[str], kind: str, rounds: int) -> None:
    """Create and start :data:`EVENT` of ``names`` in that seeding order: a round robin
    (``kind`` ``round-robin``) or a Swiss of ``rounds`` rounds, at full pace."""
    if len(names) < 2:
        raise SystemExit(f"only {len(names)} version(s) accepted: no event to play")
    shape = ["--rounds", str(rounds)] if kind == "swiss" else []
    cli("league", "event", "create", "--db", str(db), "--format", kind, *shape,
        "--members", ",".join(names), "--pace", "0", EVENT)  # fmt: skip
    cli("league", "event", "start", "--db", str(db), EVENT)


def event_status(db: Path) -> str:
    """:data:`EVENT`'s status in ``db``."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        (status,) = connection.execute(
            "SELECT status FROM events WHERE name = ?", (EVENT,)
        ).fetchone()
    return str(status)


def event_results(db: Path) -> dict[tuple[str, str, int], str]:
    """:data:`EVENT`'s finished games by ``(X's team, O's team, round)``: the result and
    the score (``x 9-7``), with how it ended where not on the board."""
    query = (
        "SELECT b.round, mx.name, mo.name, g.result, g.x_score, g.o_score, g.termination"
        " FROM games g JOIN event_boards b ON g.pair_id = b.pair_id"
        " JOIN events e ON e.id = b.event_id JOIN members mx ON mx.id = g.x_id"
        " JOIN members mo ON mo.id = g.o_id WHERE e.name = ? AND g.status = 'finished'"
    )
    with contextlib.closing(sqlite3.connect(db)) as connection:
        rows = connection.execute(query, (EVENT,)).fetchall()
    results = {}
    for round_, x, o, result, x_score, o_score, termination in rows:
        said = f"{result} {x_score}-{o_score}"
        if termination != "normal":
            said += f" ({termination})"
        results[(x, o, int(round_))] = said
    return results


def event_differences(
    quiet: dict[tuple[str, str, int], str], busy: dict[tuple[str, str, int], str]
) -> list[str]:
    """The event's games whose result or score differ between the runs, and those played
    in one run only (a Swiss whose pairings followed a differing result)."""
    found = []
    for key in sorted(quiet.keys() | busy.keys(), key=lambda k: (k[2], k[0], k[1])):
        before, after = quiet.get(key, "not played"), busy.get(key, "not played")
        if before != after:
            found.append(f"round {key[2]} {key[0]}-{key[1]}: {before} quiet, {after} loaded")
    return found


def project_zips(folder: Path) -> list[tuple[str, bytes]]:
    """Each course project in ``folder`` (a Download ZIP ``NAME.zip``, or a folder zipped
    as GitHub's Download ZIP makes it: one top folder), by its name."""
    projects: list[tuple[str, bytes]] = []
    for path in sorted(folder.iterdir()):
        if path.suffix == ".zip":
            projects.append((path.stem, path.read_bytes()))
        elif path.is_dir():
            data = io.BytesIO()
            with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
                for file in sorted(path.rglob("*")):
                    if file.is_file() and not file.is_symlink():
                        archive.write(file, f"{path.name}/{file.relative_to(path).as_posix()}")
            projects.append((path.name, data.getvalue()))
    return projects


def course_league(db: Path, rounds: int) -> None:
    """The class's league in ``db`` as the tutorial makes it (``league create --course
    --rounds ROUNDS --from-start``, the house bots of ``bench_course_population``)."""
    from bench_course_population import HOUSE, adjacency

    adjacency("league", "create", "--db", db, "--course", "--rounds", str(rounds), "--from-start")
    for spec in HOUSE:
        adjacency("league", "add-house", spec, "--db", db)


def tally(games: list[Any], ids: dict[int, str]) -> dict[str, Counter[str]]:
    """Each team's games (``ids``: the members' names): won, lost, drawn, no result, and
    the losses by :data:`LOSSES`."""
    teams: dict[str, Counter[str]] = {name: Counter() for name in ids.values()}
    for game in games:
        for member, colour in ((game.x_id, "x"), (game.o_id, "o")):
            name = ids.get(member)
            if name is None:
                continue
            if game.status == "aborted" or game.result is None:
                outcome = "no result"
            elif game.result == "draw":
                outcome = "drawn"
            else:
                outcome = "won" if game.result == colour else "lost"
            teams[name][outcome] += 1
            if outcome == "lost" and game.termination in LOSSES:
                teams[name][f"lost by {game.termination}"] += 1
    return teams


def differences(quiet: dict[str, Any], busy: dict[str, Any]) -> list[str]:
    """What the loaded run ``busy`` decided that the quiet one did not: another verdict,
    more losses by :data:`LOSSES`."""
    found = []
    for name in quiet["shapes"]:
        before, after = quiet["verdicts"][name][0], busy["verdicts"][name][0]
        if before != after:
            found.append(f"{name}: {before} quiet, {after} loaded")
        for what in (f"lost by {t}" for t in LOSSES):
            extra = busy["teams"][name][what] - quiet["teams"][name][what]
            if extra > 0:
                found.append(f"{name}: {extra} more {what} loaded")
    return found


def loaded_mode(args: argparse.Namespace) -> None:
    """``--loaded`` (the module's docstring): the quiet run, the loaded run, side by side."""
    if args.games == 4:  # the option's default is the one-bot mode's
        args.games = 24
    if args.rounds == 28:
        args.rounds = 4
    if args.bots == 30:
        args.bots = 2
    print(f"{os.cpu_count()} cores; load average before: {os.getloadavg()}")
    runs = {
        label: loaded_run(args, label == "loaded")
        for label in ("quiet", "loaded")
        if args.runs in ("both", label)
    }
    quiet = runs.get("quiet") or runs["loaded"]
    busy = runs.get("loaded") or quiet
    opening = (
        "from the start, the course's clock" if args.course_projects else "from the book's openings"
    )
    print(
        f"8x8, {args.rounds} rounds {opening}, {args.move_time:g} s a move;"
        f" {args.games} games a run; the loaded run beside {BUSY_LOOPS} busy loops"
    )
    print("| team | shape | quiet: verdict, games | loaded: verdict, games |")
    print("|---|---|---|---|")
    for name, shape in quiet["shapes"].items():
        cells = []
        for run in (quiet, busy):
            status, said = run["verdicts"][name]
            games = ", ".join(
                f"{count} {what}" for what, count in sorted(run["teams"][name].items())
            )
            cells.append(f"{status} ({said}); {games or 'no game'}")
        print(f"| {name} | {shape} | {cells[0]} | {cells[1]} |")
    for label, run in runs.items():
        moves = run["moves"]
        figures = {
            what: stats([getattr(m, what) for m in moves] or [0.0])
            for what in ("cpu", "idle", "waited")
        }
        print(
            f"{label}: {run['games']} games, {run['per_hour']:.1f} games an hour; load"
            f" {min(run['load']):.1f} to {max(run['load']):.1f}; {len(moves)} hosted moves,"
            f" s: CPU {figures['cpu']}; idle {figures['idle']}; waited for a CPU"
            f" {figures['waited']}"
        )
        for failure in run["failures"]:
            print(f"  {label}: {failure}")
    both = quiet["event"].keys() & busy["event"].keys()
    clocked = {name for name, shape in quiet["shapes"].items() if shape in BY_ITS_CLOCK}
    by_clock = {key for key in both if {key[0], key[1]} & clocked}
    for label, keys in (
        ("neither side searches by its clock", both - by_clock),
        ("one does", by_clock),
    ):
        same = sum(quiet["event"][key] == busy["event"][key] for key in keys)
        print(f"event games, {label}: {same} of {len(keys)} with the same result and score")
    print(f"event games: {len(quiet['event'])} quiet, {len(busy['event'])} loaded")
    # a game of a bot whose move follows its speed may differ: every other one is listed
    steady = [{k: v for k, v in run["event"].items() if k not in by_clock} for run in (quiet, busy)]
    found = differences(quiet, busy) + event_differences(*steady)
    print("differences, loaded against quiet: " + ("; ".join(found) or "none"))
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
