"""A class event as the league plays it: a double round robin of house bots and the
starter kits, through a real server, and its crosstable page in a browser.

The event runs exactly as in class (docs/league.md, "Running a class event"): a real
``adjacency league serve`` process plays it with its event runner; the kits connect as
students' bots do (the Java and Python kits and the Node kit's engine through
``adjacency connect 'cmd:...'``, the Node kit's ``league.js`` over the WebSocket
protocol), the house bots are played by the server; the event is created and started
with ``adjacency league event create|start``. The Java kit is compiled with ``javac``
first (JDK 17 and Node 20 or later are needed).

The page is measured with Playwright in Debian's Chromium headless shell
(/usr/bin/chromium-headless-shell), with a small script injected before the page's own
(it wraps ``fetch``; the page is not changed):

* ``first_draw_ms``: from navigation to the first paint of the crosstable with every
  game in (``performance.now()`` after that frame; a fresh page each sample, after the
  event has finished), split into ``first_answer_ms`` (navigation to the event's JSON
  answer received: the page, its scripts and the API call) and ``first_render_ms``
  (from that answer to the paint);
* ``rerender_ms``: the page refreshes every 2 s; for each refresh whose crosstable
  changed because games had ended (a page open on the event all along, as on the
  projector), the time from the event's JSON answer received to the next paint (the
  crosstable, the standings and the lists rebuilt, laid out and painted);
* ``rerender_all_in_ms``: the same for refreshes with every game in;
* ``api_ms``: ``GET /api/league/events/NAME`` with every game in, from Python.

The target is under 200 ms to draw and re-render. Prints one JSON object (also
written to ``--out``); rich progress goes to standard error.

    python benchmarks/bench_event.py                            # 12 members, 8x8, 28 rounds, 2+0.05
    python benchmarks/bench_event.py --members 3 --rounds 3 --size 4 --time 1+0.05   # smoke

A double round robin in the league's format: every two members meet twice (once per
cycle), and each meeting is a colour-swapped pair of games, so ``members * (members - 1)``
pairs and twice as many games (12 members: 132 pairs, 264 games in 22 rounds).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from ports import free_port  # this folder is on the path

from adjacency.hosting.java_build import kit_sources

REPO = Path(__file__).resolve().parents[1]
KITS = REPO / "examples" / "engines"
CHROMIUM = "/usr/bin/chromium-headless-shell"
EVENT = "bench"
TARGET_MS = 200.0
ADJACENCY = [sys.executable, "-m", "adjacency"]

ROSTER: list[tuple[str, str, str]] = [
    ("java-alphabeta", "cmd", "java alphabeta"),
    ("node-ws", "ws", "alphabeta"),
    ("house-greedy", "house", "greedy"),
    ("node-greedy", "cmd", "node greedy"),
    ("python-alphabeta", "cmd", "python alphabeta"),
    ("house-alphabeta", "house", "alphabeta"),
    ("java-greedy", "cmd", "java greedy"),
    ("house-random", "house", "random"),
    ("python-greedy", "cmd", "python greedy"),
    ("house-minimax", "house", "minimax"),
    ("node-alphabeta", "cmd", "node alphabeta"),
    ("house-hill", "house", "hill"),
]
"""The event's members in seeding order, ``--members N`` takes the first N: the name, how it
plays (``cmd``: a kit through ``adjacency connect``; ``ws``: ``league.js``; ``house``: the
server) and the kit and bot, or the house bot's spec."""

PROBE = """
(() => {
  const bench = (window.__bench = { renders: [], drawn: null, want: %d, text: null });
  const fetch0 = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const response = await fetch0(...args);
    if (!String(args[0]).includes("/api/league/events/")) return response;
    const json0 = response.json.bind(response);
    response.json = async () => {
      const body = await json0();
      const received = performance.now();
      const games = (body.rounds || []).flat().reduce((n, b) => n + b.games.length, 0);
      requestAnimationFrame(() => setTimeout(() => {
        const painted = performance.now();
        const table = document.getElementById("crosstable");
        const filled = table.querySelectorAll("td.filled").length;
        const changed = bench.text !== null && table.textContent !== bench.text;
        bench.text = table.textContent;
        bench.renders.push({ ms: painted - received, games, filled, changed });
        if (bench.drawn === null && filled >= bench.want) {
          bench.drawn = painted;
          bench.answered = received;
        }
      }));
      return body;
    };
    return response;
  };
})();
"""
"""Injected before the page's scripts: times every refresh from the event's answer to the
paint after it (a frame, then a task: the frame has been drawn)."""


DRAWN = "window.__bench.drawn !== null"
"""True once the probe has seen the crosstable painted with every game in."""


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())


def need(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        sys.exit(f"{program} is not installed: the kits need JDK 17 and Node 20 or later")
    return path


def build_java(folder: Path) -> Path:
    """Compile the Java kit into ``folder``."""
    sources = sorted(str(p) for p in kit_sources().rglob("*.java"))  # the package's kit
    subprocess.run([need("javac"), "-d", str(folder), *sources], check=True)
    return folder


JAVA_MAIN = Path("adjacency") / "kit" / "Main.class"
"""The Java kit's runner in a folder of its compiled classes."""


def compiled_java(text: str) -> Path:
    """``--java DIR``'s folder, refused where it holds no compiled Java kit."""
    folder = Path(text)
    if not (folder / JAVA_MAIN).is_file():
        raise argparse.ArgumentTypeError(f"{text} holds no compiled Java kit ({JAVA_MAIN})")
    return folder.resolve()


def add_java_option(parser: argparse.ArgumentParser) -> None:
    """``--java DIR``: the Java kit's classes compiled already (the test suite's build),
    so that the run compiles nothing; without it the kit is compiled first."""
    help_ = "the Java kit compiled already into DIR (else it is compiled first)"
    parser.add_argument("--java", type=compiled_java, metavar="DIR", help=help_)


def kit_spec(kit: str, bot: str, java: Path) -> str:
    """The ``cmd:`` spec of a kit's engine runner playing ``bot``."""
    if kit == "java":
        command = [need("java"), "-cp", str(java), "adjacency.kit.Main", bot]
    elif kit == "node":
        command = [need("node"), str(KITS / "javascript" / "engine.js"), bot]
    else:
        command = [sys.executable, "-E", "-s", "-S", str(KITS / "python" / "engine.py"), bot]
    return "cmd:" + shlex.join(command)


def stats(values: list[float]) -> dict[str, Any]:
    """Median, 95th percentile and maximum of ``values`` in ms (rounded), with the count."""
    if not values:
        return {"samples": 0, "median": None, "p95": None, "max": None}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "samples": len(values),
        "median": round(statistics.median(values), 1),
        "p95": round(p95, 1),
        "max": round(max(values), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=12, help=f"2 to {len(ROSTER)}")
    parser.add_argument("--rounds", type=int, default=28, help="rounds of each game")
    parser.add_argument("--size", type=int, default=8, help="the board's side")
    parser.add_argument("--time", default="2+0.05", help="each side's clock, BASE+INCREMENT s")
    parser.add_argument("--draws", type=int, default=5, help="fresh pages timed at the end")
    parser.add_argument("--out", type=Path, help="also write the JSON here")
    add_java_option(parser)
    args = parser.parse_args()
    if not 2 <= args.members <= len(ROSTER):
        parser.error(f"--members: 2 to {len(ROSTER)}")

    sys.path.insert(0, str(REPO / "src"))
    from playwright.sync_api import sync_playwright
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from adjacency.league.league_file import LeagueStore
    from adjacency.league.settings import LeagueSettings, parse_clock

    console = Console(stderr=True)
    roster = ROSTER[: args.members]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        db = folder / "league.db"
        base, increment = parse_clock(args.time)
        settings = LeagueSettings(
            rows=args.size, cols=args.size, rounds=args.rounds, base=base, increment=increment
        )
        entries = [(name, "house", what) if how == "house" else (name, "bot", None)
                   for name, how, what in roster]  # fmt: skip
        tokens = new_league(db, settings, entries)
        adjacency = ADJACENCY
        members = ",".join(name for name, _, _ in roster)
        create = [*adjacency, "league", "event", "create", EVENT, "--db", str(db),
                  "--format", "double-round-robin", "--members", members]  # fmt: skip
        processes = Processes(folder)
        subprocess.run(create, check=True, env=processes.environment, stdout=subprocess.DEVNULL)
        spawn = processes.spawn
        try:
            java = args.java or build_java(folder / "java")
            console.log("the Java kit compiled")
            url = processes.serve(db)
            console.log(f"the server is up at {url}")
            for name, how, what in roster:
                if how == "cmd":
                    kit, bot = what.split()
                    spec = kit_spec(kit, bot, java)
                    spawn([*adjacency, "connect", url, spec], f"{name}.log", tokens[name])
                elif how == "ws":
                    league_js = str(KITS / "javascript" / "league.js")
                    node = [need("node"), "--experimental-websocket", league_js, url, what]
                    spawn(node, f"{name}.log", tokens[name])
            bots = {name for name, how, _ in roster if how != "house"}
            _wait(
                lambda: bots <= {r["name"] for r in get(f"{url}/api/league/standings")
                                 if r["online"]},
                "the kits to connect",
            )  # fmt: skip
            console.log("the kits are connected")
            want = args.members * (args.members - 1)
            total = 2 * want
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True,
                    args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
                )  # fmt: skip
                projector = browser.new_page(viewport={"width": 1366, "height": 768})
                projector.add_init_script(PROBE % want)
                projector.goto(f"{url}/event/{EVENT}")
                start = [*adjacency, "league", "event", "start", EVENT, "--db", str(db)]
                subprocess.run(
                    start, check=True, env=processes.environment, stdout=subprocess.DEVNULL
                )
                columns = (*Progress.get_default_columns()[:1], BarColumn(),
                           MofNCompleteColumn(), TimeElapsedColumn())  # fmt: skip
                with Progress(*columns, console=console) as progress:
                    task = progress.add_task("games", total=total)
                    while True:
                        table = get(f"{url}/api/league/events/{EVENT}")
                        done = sum(len(b["games"]) for r in table["rounds"] for b in r)
                        progress.update(task, completed=done)
                        if table["event"]["status"] == "finished":
                            break
                        time.sleep(1.0)
                in_all = f"window.__bench.renders.filter((r) => r.games === {total}).length"
                _wait(lambda: projector.evaluate(in_all) >= 2, "the projector's refreshes")
                renders = projector.evaluate("window.__bench.renders")
                console.log("the event has finished; timing fresh pages")
                draws, answered = [], []
                for _ in range(args.draws):
                    page = browser.new_page(viewport={"width": 1366, "height": 768})
                    page.add_init_script(PROBE % want)
                    page.goto(f"{url}/event/{EVENT}")
                    _wait(lambda page=page: page.evaluate(DRAWN), "the crosstable", poll=0.05)
                    draws.append(float(page.evaluate("window.__bench.drawn")))
                    answered.append(float(page.evaluate("window.__bench.answered")))
                    page.close()
                browser.close()
            api = []
            for _ in range(args.draws):
                began = time.perf_counter()
                get(f"{url}/api/league/events/{EVENT}")
                api.append(1000 * (time.perf_counter() - began))
        finally:
            processes.stop()
        with LeagueStore(db) as store:
            events = store.events
            event = events.named(EVENT)
            games = [store.games.game(i) for i in events.game_ids(event.id)]
            terminations = Counter(g.termination for g in games if g is not None)
            names = {m.id: m.name for m in store.members.members()}
            on_time = Counter(
                names[g.o_id if g.result == "x" else g.x_id]
                for g in games
                if g is not None and g.termination == "time forfeit"
            )
            rounds = len({b.round for b in events.boards(event.id)})
            wall = (event.finished or 0.0) - (event.started or 0.0)
    changed = [r["ms"] for r in renders if r["changed"]]
    all_in = [r["ms"] for r in renders if r["games"] == total]
    result = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "members": [name for name, _, _ in roster],
        "format": "double-round-robin",
        "board": f"{args.size}x{args.size}",
        "game_rounds": args.rounds,
        "clock": args.time,
        "event_rounds": rounds,
        "pairs": want,
        "games": len(games),
        "expected_games": total,
        "terminations": dict(terminations),
        "lost_on_time": dict(on_time.most_common()),
        "wall_s": round(wall, 1),
        "games_per_minute": round(60 * len(games) / wall, 1) if wall > 0 else None,
        "first_draw_ms": stats(draws),
        "first_answer_ms": stats(answered),
        "first_render_ms": stats([d - a for d, a in zip(draws, answered, strict=True)]),
        "rerender_ms": stats(changed),
        "rerender_all_in_ms": stats(all_in),
        "api_ms": stats(api),
        "target_ms": TARGET_MS,
        "under_target": bool(draws and changed)
        and max(draws) < TARGET_MS
        and max(changed + all_in) < TARGET_MS,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }
    text = json.dumps(result, indent=2)
    if args.out is not None:
        args.out.write_text(text + "\n")
    print(text)


class Processes:
    """The benchmark's child processes (the server, the clients), each with its output in
    a log file of ``logs`` and ``ADJACENCY_LEAGUE_TOKEN`` set to its token; ``stop()``
    ends them all (terminate, then kill after 30 s), the last started first."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.environment = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        self.started: list[subprocess.Popen[bytes]] = []

    def spawn(self, command: list[str], log: str, token: str = "") -> None:
        with (self.logs / log).open("wb") as out:
            env = {**self.environment, "ADJACENCY_LEAGUE_TOKEN": token}
            self.started.append(subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                                 env=env, start_new_session=True))  # fmt: skip

    def serve(self, db: Path) -> str:
        """Start ``adjacency league serve`` on ``db`` (loopback exempt from the limits,
        no pace) and return its address once it answers."""
        port = free_port()
        self.spawn([*ADJACENCY, "league", "serve", "--db", str(db), "--port", str(port),
                    "--exempt-loopback", "--pace", "0"], "server.log")  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        _wait(lambda: _answers(f"{url}/api/league"), "the server to start")
        return url

    def stop(self) -> None:
        for process in reversed(self.started):
            process.terminate()
        for process in self.started:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


def new_league(
    db: Path, settings: Any, members: list[tuple[str, str, str | None]]
) -> dict[str, str]:
    """Create the league file ``db`` with ``settings`` (no minimum game length, so short
    benchmark games rate) and ``members`` (name, kind, house spec); return each bot's
    token by name (empty for house bots)."""
    from adjacency.league.league_file import LeagueStore
    from adjacency.league.rules import LeagueRules

    tokens: dict[str, str] = {}
    with LeagueStore(db) as store:
        store.meta.create(settings, "adjl_bench-admin-token")
        store.meta.set_rules(LeagueRules(min_game=0.0))
        for name, kind, spec in members:
            _, token = store.members.add_member(name, kind, spec)
            tokens[name] = token or ""
    return tokens


def _answers(url: str) -> bool:
    try:
        get(url)
    except OSError:
        return False
    return True


def _wait(predicate: Any, what: str, timeout: float = 120.0, poll: float = 0.2) -> None:
    """Poll ``predicate`` until it is true; exit with a message after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting for {what}")
        time.sleep(poll)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
