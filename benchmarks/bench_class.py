"""A class on one league server: thirty kit-like bots behind one address play a Swiss and
a round robin while thirty people watch the crosstable page.

Everything runs as in class (docs/league.md, "Running a class event"): a real
``adjacency league serve`` process with its rate limits ON for this machine (no
``--exempt-loopback``: every bot and every page comes from 127.0.0.1, as a school's
lab behind one NAT address), the events created and started with ``adjacency league
event create|start``, the league's own rules (``--min-game``, default the league's).

* **The bots** (``--bots``, 30) are light clients in one process (one asyncio
  connection each, speaking the league's WebSocket protocol). Each answers like a
  starter kit's bot: on ``your_turn`` it picks the greedy move (the engine's Python
  rules, :mod:`adjacency.bots`' ``greedy``) and sends it ``--think`` seconds after the
  question (its thinking time, the move's computation included).
* **The events**, started together: a Swiss of every bot (``--swiss-rounds``, 7) and a
  round robin (``round-robin``: each pair meets once, a colour-swapped pair of games)
  of the first ``--rr-members`` (8) bots, who so are in both events (the server plays
  a busy member's next game when its current one ends). The league's ladder pairs the
  connected bots that are in no running event (before the start, and those not in the
  round robin once the Swiss is over), as in class; its games ended during the events
  are counted apart (``ladder_games``).
* **The viewers** (``--viewers``, 30; half on each event) load the event's page
  ``/event/NAME`` (sent with the crosstable in it), then ask its JSON
  ``/api/league/events/NAME`` every ``--poll`` seconds as the page's script does, and
  load the page again every ``--reload`` polls.

* **The addresses** (``--addresses``, 0): with N > 0 the bots and the viewers are spread
  over N client addresses (``10.20.0.1`` ...; bot and viewer ``k`` on address ``k % N``),
  as a class of N schools or homes: the server is started with
  ``--forwarded-allow-ips 127.0.0.1`` and each connection names its address in
  ``X-Forwarded-For``, so the league's limits per address apply to each of them as they
  would behind a TLS proxy. With 0 everything comes from 127.0.0.1 (one school's NAT).

Measured: games per minute (the events' games, from the first start to the last
finish), the events' games that did not end on the board (any termination but
``normal``: a time forfeit, a crash, an illegal move, an abort; target 0) and the
``error`` messages the bots received (a refused message; target 0), the page's and
the JSON's times (p50/p95/max, as the viewers saw them), a move's round trip (the
server's ``/api/league/stats``: from its question to the bot's answer, the bots'
``--think`` included; and as the bots saw it: from a bot sending its move to the
opponent's question in that game, the server's validating, storing and asking), the
server process's CPU (from ``/proc``: the share of one core over the events and the
p95 of 1-second samples) and memory (resident, at the start, peak and end), and the
load average at the start and the end. The games the bots saw end are checked against
the games stored finished in the league's database.

    python benchmarks/bench_class.py                          # 30 bots, 8x8, 28 rounds, 10+0.1
    python benchmarks/bench_class.py --bots 6 --swiss-rounds 2 --rr-members 4 \\
        --size 6 --rounds 4 --time 4+0.1 --min-game 0 --viewers 4    # a smoke run
    python benchmarks/bench_class.py --bots 20 --viewers 20 --addresses 20 --poll 0.5
        # 20 addresses playing and reading the crosstable (target: its p95 under 50 ms)

Prints a table (standard error with ``--json``, which prints the figures as one JSON
line on standard output); exits with status 1 when a game did not end on the board, a
bot got an error, a viewer's request was not answered 200, or the counts disagree.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from ports import free_port  # this folder is on the path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
ADMIN = "adjl_admin-token-of-the-class-benchmark"
SWISS = "class-swiss"
ROUND_ROBIN = "class-round-robin"
CLK_TCK = os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------------- the bots


class Bots:
    """The light kit-like bots of one process (see the module's rules) and what they saw."""

    def __init__(self, tokens: list[str], think: float, seed: int, addresses: int = 0) -> None:
        self.tokens = tokens
        self.addresses = addresses
        self.think = think
        self.seed = seed
        self.thinks: list[float] = []
        """Seconds from a question to the answer sent, per move."""
        self.relays: list[float] = []
        """Seconds from a move sent to the opponent's question in that game."""
        self.sent: dict[int, float] = {}
        self.ended: dict[int, str] = {}
        """The games whose end a bot was told: their termination."""
        self.errors: list[dict[str, Any]] = []

    async def team(self, url: str, token: str, number: int, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        from adjacency.bots import Limit, make_bot
        from adjacency.core import Position

        bot = make_bot("greedy", seed=self.seed + number)
        tasks: set[asyncio.Task[None]] = set()

        async def answer(ws: Any, message: dict[str, Any], asked: float) -> None:
            game = message["game"]
            position = Position.from_fen(str(message["fen"]))
            budget = float(message.get("budget") or 1.0)
            move = bot.choose_move(position, Limit(time=max(0.02, budget - 0.1)))
            await asyncio.sleep(max(0.0, self.think - (time.monotonic() - asked)))
            self.thinks.append(time.monotonic() - asked)
            self.sent[game] = time.monotonic()
            await ws.send(json.dumps({"type": "move", "game": game, "move": move}))

        headers = {"Authorization": f"Bearer {token}", **forwarded(number, self.addresses)}
        async with connect(url, additional_headers=headers, max_queue=None) as ws:
            reader = asyncio.ensure_future(ws.recv())
            stopper = asyncio.ensure_future(stop.wait())
            while True:
                done, _ = await asyncio.wait({reader, stopper}, return_when="FIRST_COMPLETED")
                if stopper in done:
                    reader.cancel()
                    return
                now = time.monotonic()
                message = json.loads(reader.result())
                reader = asyncio.ensure_future(ws.recv())
                kind, game = message.get("type"), message.get("game")
                if kind == "your_turn":
                    moved = self.sent.pop(game, None)
                    if moved is not None:
                        self.relays.append(now - moved)
                    task = asyncio.ensure_future(answer(ws, message, now))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
                elif kind == "game_end":
                    self.sent.pop(game, None)
                    self.ended[game] = str(message.get("termination"))
                elif kind == "error":
                    self.errors.append(message)

    async def play(self, url: str, stop_flag: Any) -> None:
        stop = asyncio.Event()
        teams = [
            asyncio.ensure_future(self.team(url, token, n, stop))
            for n, token in enumerate(self.tokens)
        ]
        while not stop_flag.is_set() and not any(t.done() for t in teams):
            await asyncio.sleep(0.2)
        stop.set()
        for outcome in await asyncio.gather(*teams, return_exceptions=True):
            if isinstance(outcome, BaseException):
                self.errors.append({"type": "client", "detail": repr(outcome)})


def run_bots(
    url: str, tokens: list[str], think: float, seed: int, stop: Any, out: str, addresses: int = 0
) -> None:
    """The bots' process: play until ``stop`` is set, then write what they saw to ``out``."""
    bots = Bots(tokens, think, seed, addresses)
    asyncio.run(bots.play(url, stop))
    Path(out).write_text(
        json.dumps(
            {
                "thinks": bots.thinks,
                "relays": bots.relays,
                "errors": bots.errors,
                "ended": {str(g): t for g, t in bots.ended.items()},
            }
        )
    )


# ---------------------------------------------------------------------- the viewers


def forwarded(number: int, addresses: int) -> dict[str, str]:
    """The ``X-Forwarded-For`` header of client ``number`` spread over ``addresses``
    (none with 0: the client is 127.0.0.1 itself)."""
    if addresses <= 0:
        return {}
    return {
        "X-Forwarded-For": f"10.20.{(number % addresses) // 250}.{(number % addresses) % 250 + 1}"
    }


def timed_get(url: str, headers: dict[str, str] | None = None) -> tuple[int, float]:
    """One GET (with ``headers``): its status and seconds."""
    began = time.perf_counter()
    try:
        request = urllib.request.Request(url, headers=headers or {})
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as exc:
        exc.read()
        status = exc.code
    except OSError:
        status = 0
    return status, time.perf_counter() - began


class Viewers:
    """People watching the events' pages (see the module's rules), a thread each."""

    def __init__(self, base: str, count: int, poll: float, reload: int, addresses: int = 0) -> None:
        self.base, self.count, self.poll, self.reload = base, count, poll, reload
        self.addresses = addresses
        self.page: list[float] = []
        self.api: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []

    def watch(self, number: int) -> None:
        event = SWISS if number % 2 == 0 else ROUND_ROBIN
        rng = random.Random(number)
        self.stop.wait(rng.uniform(0, self.poll))
        polls = 0
        headers = forwarded(number, self.addresses)
        while not self.stop.is_set():
            if polls % self.reload == 0:
                status, took = timed_get(f"{self.base}/event/{event}", headers)
                self.page.append(took)
            else:
                status, took = timed_get(f"{self.base}/api/league/events/{event}", headers)
                self.api.append(took)
            self.statuses[status] += 1
            polls += 1
            self.stop.wait(self.poll)

    def start(self) -> None:
        for number in range(self.count):
            thread = threading.Thread(target=self.watch, args=(number,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(70)


# ----------------------------------------------------------------------- the server


class ServerUsage:
    """The server process's CPU and memory, sampled every second from ``/proc``."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.rss: list[float] = []
        self.cpu: list[float] = []
        """Share of one core in each second."""
        self.stop = threading.Event()
        self.began = self.cpu_seconds()
        self.began_at = time.monotonic()
        self.ended = self.began
        self.ended_at = self.began_at
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def sample(self) -> None:
        cpu, at = self.began, self.began_at
        while not self.stop.wait(1.0):
            with contextlib.suppress(OSError):
                now_cpu, now = self.cpu_seconds(), time.monotonic()
                self.cpu.append((now_cpu - cpu) / (now - at))
                cpu, at = now_cpu, now
                self.rss.append(self.rss_mb())

    def start(self) -> None:
        self.rss.append(self.rss_mb())
        self.began, self.began_at = self.cpu_seconds(), time.monotonic()
        self.thread.start()

    def finish(self) -> None:
        self.ended, self.ended_at = self.cpu_seconds(), time.monotonic()
        self.rss.append(self.rss_mb())
        self.stop.set()
        self.thread.join(5)


def quantiles(seconds: list[float]) -> dict[str, Any]:
    """Count, p50, p95 and maximum of ``seconds``, in ms."""
    if not seconds:
        return {"samples": 0, "p50_ms": None, "p95_ms": None, "max_ms": None}
    ordered = sorted(seconds)
    at = min(len(ordered) - 1, int(0.95 * len(ordered)))
    return {
        "samples": len(ordered),
        "p50_ms": round(1000 * statistics.median(ordered), 1),
        "p95_ms": round(1000 * ordered[at], 1),
        "max_ms": round(1000 * ordered[-1], 1),
    }


def adjacency(*args: str) -> None:
    """``adjacency ARGS`` as the teacher types it; exits with its words if it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "adjacency", *args],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=120,
    )
    if done.returncode != 0:
        sys.exit(f"adjacency {' '.join(args)} failed: {done.stderr.strip()}")


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]),
    }


def wait(predicate: Any, what: str, timeout: float) -> None:
    """Poll ``predicate`` until it is true; exit with a message after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting for {what}")
        time.sleep(0.2)


# ---------------------------------------------------------------------------- main


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=30, help="bots (see --addresses)")
    parser.add_argument("--swiss-rounds", type=int, default=7, help="rounds of the Swiss")
    parser.add_argument(
        "--rr-members", type=int, default=8, help="members of the round robin (the first bots)"
    )
    parser.add_argument("--size", type=int, default=8, help="the board's side")
    parser.add_argument("--rounds", type=int, default=28, help="rounds of each game")
    parser.add_argument("--time", default="10+0.1", help="each side's clock, BASE+INCREMENT s")
    parser.add_argument(
        "--min-game",
        type=float,
        default=None,
        help="the league's shortest game, s (default: the league's)",
    )
    parser.add_argument("--think", type=float, default=0.05, help="a bot's seconds a move")
    parser.add_argument("--viewers", type=int, default=30, help="people watching the pages")
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between a page's asks")
    parser.add_argument("--reload", type=int, default=15, help="a viewer reloads every N asks")
    parser.add_argument(
        "--addresses",
        type=int,
        default=0,
        help="client addresses the bots and viewers are spread over, named by "
        "X-Forwarded-For (0: all from 127.0.0.1)",
    )
    parser.add_argument("--timeout", type=float, default=1800.0, help="give up after, s")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the figures as one JSON line")
    args = parser.parse_args(argv)
    if args.bots < 2:
        parser.error("--bots: 2 at least")
    if not 2 <= args.rr_members <= args.bots:
        parser.error(f"--rr-members: 2 to --bots ({args.bots})")
    if args.swiss_rounds < 1 or args.viewers < 0 or args.reload < 1 or args.think < 0:
        parser.error("--swiss-rounds and --reload are 1 at least, --viewers and --think 0")
    if not 0 <= args.addresses <= 10000:
        parser.error("--addresses: 0 to 10000")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table

    from adjacency.league.league_file import LeagueStore
    from adjacency.league.rules import LeagueRules
    from adjacency.league.settings import LeagueSettings, parse_clock

    console = Console(stderr=True)
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        db = folder / "league.db"
        base, increment = parse_clock(args.time)
        names = [f"team{n:02d}" for n in range(args.bots)]
        with LeagueStore(db) as store:
            store.meta.create(
                LeagueSettings(
                    rows=args.size,
                    cols=args.size,
                    rounds=args.rounds,
                    base=base,
                    increment=increment,
                ),
                ADMIN,
            )
            if args.min_game is not None:
                store.meta.set_rules(LeagueRules(min_game=args.min_game))
            tokens = [store.members.add_member(name, "bot")[1] or "" for name in names]
        adjacency(
            "league",
            "event",
            "create",
            SWISS,
            "--db",
            str(db),
            "--format",
            "swiss",
            "--rounds",
            str(args.swiss_rounds),
            "--members",
            ",".join(names),
        )
        adjacency(
            "league",
            "event",
            "create",
            ROUND_ROBIN,
            "--db",
            str(db),
            "--format",
            "round-robin",
            "--members",
            ",".join(names[: args.rr_members]),
        )
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        log = folder / "server.log"
        with log.open("wb") as handle:
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "adjacency",
                    "league",
                    "serve",
                    "--db",
                    str(db),
                    "--port",
                    str(port),
                    "--no-house-games",
                    *(["--forwarded-allow-ips", "127.0.0.1"] if args.addresses else []),
                ],
                stdout=handle,
                stderr=subprocess.STDOUT,
                env=environment(),
            )
        context = multiprocessing.get_context("spawn")
        stop = context.Event()
        seen = folder / "bots.json"
        bots = context.Process(
            target=run_bots,
            args=(
                f"ws://127.0.0.1:{port}/api/league/connect",
                tokens,
                args.think,
                args.seed,
                stop,
                str(seen),
                args.addresses,
            ),
        )
        viewers = Viewers(url, args.viewers, args.poll, args.reload, args.addresses)
        usage: ServerUsage | None = None
        try:
            wait(
                lambda: "ready at" in log.read_text(errors="replace") or server.poll() is not None,
                "the server to start",
                120,
            )
            if server.poll() is not None:
                sys.exit(f"the server did not start:\n{log.read_text(errors='replace')}")
            bots.start()

            def online() -> int:
                with urllib.request.urlopen(f"{url}/api/league/standings", timeout=60) as got:
                    return sum(bool(r["online"]) for r in json.loads(got.read()))

            wait(lambda: online() == args.bots or not bots.is_alive(), "the bots to connect", 120)
            if not bots.is_alive():
                sys.exit("the bots' process ended before they were all connected")
            console.log(f"{args.bots} bots connected to {url}")
            usage = ServerUsage(server.pid)
            usage.start()
            viewers.start()
            for event in (SWISS, ROUND_ROBIN):
                adjacency("league", "event", "start", event, "--db", str(db))
            began = time.time()
            columns = (
                *Progress.get_default_columns()[:1],
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
            )
            with (
                Progress(*columns, console=console, transient=args.json) as progress,
                LeagueStore(db) as store,
            ):
                events = store.events
                task = progress.add_task("event games", total=None)
                while True:
                    both = [events.named(name) for name in (SWISS, ROUND_ROBIN)]
                    progress.update(task, completed=sum(len(events.game_ids(e.id)) for e in both))
                    if all(e.status == "finished" for e in both):
                        break
                    if time.time() - began > args.timeout:
                        sys.exit(f"the events did not finish within {args.timeout:g} s")
                    if server.poll() is not None or not bots.is_alive():
                        sys.exit("the server or the bots' process ended during the events")
                    time.sleep(1.0)
            usage.finish()
            viewers.finish()
            with urllib.request.urlopen(f"{url}/api/league/stats", timeout=60) as got:
                stats = json.loads(got.read())
        finally:
            stop.set()
            if bots.pid is not None:
                bots.join(60)
                if bots.is_alive():
                    bots.kill()
            viewers.finish()
            if usage is not None and usage.thread.is_alive():
                usage.finish()
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
        seen_by_bots = json.loads(seen.read_text()) if seen.exists() else {}
        with LeagueStore(db) as store:
            events = store.events
            rows: dict[str, Any] = {}
            event_games: set[int] = set()
            wall_from, wall_to = float("inf"), 0.0
            for name in (SWISS, ROUND_ROBIN):
                event = events.named(name)
                boards = events.boards(event.id)
                finished = events.game_ids(event.id)
                others = [
                    i
                    for status in ("playing", "aborted")
                    for i in events.game_ids(event.id, status)
                ]
                games = [g for g in map(store.games.game, finished) if g is not None]
                terminations = Counter(g.termination for g in games)
                rows[name] = {
                    "format": event.format,
                    "members": len(events.members(event.id)),
                    "event_rounds": len({b.round for b in boards}),
                    "expected_games": 2
                    * sum(b.pair_id is not None and b.b is not None for b in boards),
                    "games_stored_finished": len(finished),
                    "games_stored_other": len(others),
                    "terminations": dict(terminations),
                    "wall_s": round((event.finished or 0.0) - (event.started or 0.0), 1),
                }
                event_games |= set(finished)
                wall_from = min(wall_from, event.started or wall_from)
                wall_to = max(wall_to, event.finished or 0.0)
            ladder = sum(
                g.id not in event_games and wall_from <= (g.ended or 0.0) <= wall_to
                for g in store.games.games(status="finished")
            )
    ended = {int(g): t for g, t in seen_by_bots.get("ended", {}).items()}
    wall = wall_to - wall_from
    total = sum(r["games_stored_finished"] for r in rows.values())
    off_board = sum(
        n for r in rows.values() for t, n in r["terminations"].items() if t != "normal"
    ) + sum(r["games_stored_other"] for r in rows.values())
    seen_ended = len(event_games & set(ended))
    assert usage is not None
    result = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "settings": {k: v for k, v in vars(args).items() if k != "json"},
        "events": rows,
        "event_games": total,
        "expected_games": sum(r["expected_games"] for r in rows.values()),
        "event_games_seen_ended_by_bots": seen_ended,
        "ladder_games": ladder,
        "wall_s": round(wall, 1),
        "games_per_minute": round(60 * total / wall, 1) if wall > 0 else None,
        "forfeits_not_on_board": off_board,
        "bot_errors": len(seen_by_bots.get("errors", [])),
        "bot_error_details": [e.get("detail") for e in seen_by_bots.get("errors", [])][:10],
        "page_ms": quantiles(viewers.page),
        "events_api_ms": quantiles(viewers.api),
        "viewer_statuses": {str(k): v for k, v in sorted(viewers.statuses.items())},
        "move_round_trip_server_ms": {
            "samples": stats["moves"],
            "p50_ms": stats["round_trip_ms_p50"],
            "p95_ms": stats["round_trip_ms_p95"],
        },
        "move_relay_ms": quantiles(seen_by_bots.get("relays", [])),
        "bot_think_ms": quantiles(seen_by_bots.get("thinks", [])),
        "server_cpu": {
            "mean_core_share": round(
                (usage.ended - usage.began) / max(1e-9, usage.ended_at - usage.began_at), 2
            ),
            "p95_core_share": round(sorted(usage.cpu)[int(0.95 * (len(usage.cpu) - 1))], 2)
            if usage.cpu
            else None,
            "cpu_seconds": round(usage.ended - usage.began, 1),
        },
        "server_rss_mb": {
            "start": round(usage.rss[0], 1),
            "peak": round(max(usage.rss), 1),
            "end": round(usage.rss[-1], 1),
        },
        "load_start": [round(x, 2) for x in load_start],
        "load_end": [round(x, 2) for x in os.getloadavg()],
    }
    ok = (
        off_board == 0
        and result["bot_errors"] == 0
        and total == result["expected_games"]
        and seen_ended == total
        and set(result["viewer_statuses"]) <= {"200"}
    )
    result["ok"] = ok
    show(result, Console(stderr=args.json), Table)
    if args.json:
        print(json.dumps(result), flush=True)
    return 0 if ok else 1


def show(result: dict[str, Any], console: Any, table_type: Any) -> None:
    """The figures as a table."""
    s = result["settings"]
    spread = s.get("addresses", 0)
    where = f"{spread} addresses" if spread else "127.0.0.1"
    table = table_type(
        title=(
            f"class benchmark: {s['bots']} bots from {where}, {s['size']}x{s['size']} "
            f"{s['rounds']} rounds {s['time']}, think {s['think']} s, {s['viewers']} viewers"
        )
    )
    table.add_column("what")
    table.add_column("figure", justify="right")

    def ms(row: dict[str, Any]) -> str:
        return f"p50 {row['p50_ms']} / p95 {row['p95_ms']} ms ({row.get('samples')})"

    for name, row in result["events"].items():
        table.add_row(
            f"{name} ({row['format']}, {row['members']} members, {row['event_rounds']} rounds)",
            f"{row['games_stored_finished']}/{row['expected_games']} games in {row['wall_s']} s",
        )
    table.add_row("games per minute (both events)", str(result["games_per_minute"]))
    table.add_row("games not ended on the board (target 0)", str(result["forfeits_not_on_board"]))
    table.add_row("errors sent to the bots (target 0)", str(result["bot_errors"]))
    table.add_row(
        "event games the bots saw end / stored finished",
        f"{result['event_games_seen_ended_by_bots']} / {result['event_games']}",
    )
    table.add_row("ladder games during the events", str(result["ladder_games"]))
    table.add_row("crosstable page /event/NAME", ms(result["page_ms"]))
    table.add_row("its JSON /api/league/events/NAME", ms(result["events_api_ms"]))
    table.add_row(
        "move round trip, server (think included)", ms(result["move_round_trip_server_ms"])
    )
    table.add_row("move sent -> opponent asked (bots)", ms(result["move_relay_ms"]))
    cpu, rss = result["server_cpu"], result["server_rss_mb"]
    table.add_row(
        "server CPU (share of one core: mean, p95 of 1 s)",
        f"{cpu['mean_core_share']}, {cpu['p95_core_share']}",
    )
    table.add_row(
        "server memory (RSS MB: start, peak, end)", f"{rss['start']}, {rss['peak']}, {rss['end']}"
    )
    table.add_row("load average (start -> end)", f"{result['load_start']} -> {result['load_end']}")
    console.print(table)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
