"""Benchmark of the web server's live play: move-to-display latency and capacity.

Two measurements against a real ``adjacency play`` server on 127.0.0.1 (a
subprocess; loopback only, bounded in time):

- ``latency``: two headless Chromium pages (Playwright, /usr/bin/chromium-headless-shell) play
  games between devices through their seat links; for each of ``--moves`` moves,
  the time from the click in the mover's page to the move appearing in the other
  page's move list (both pages read the same system clock). Reports the median
  and the 95th percentile.
- ``reply``: one page plays a person's moves against a quick bot (``greedy``) at each
  animation speed of the page (normal, fast, none; js/motion.js): for each of
  ``--moves`` moves, the time from the click to your own piece drawn, to the frame that
  paints it, and to the bot's reply drawn on the board (its square marked as the last
  move, its piece drawn). Reports the median and the 95th percentile of each per speed.
- ``capacity``: N simultaneous games, each with two players and a watcher
  (asyncio HTTP clients: each holds the game's event stream, the players post a
  move every ``--interval`` seconds per game). Latency is from sending a move to
  its ``state`` event reaching the opponent and the watcher. N grows until the
  95th percentile passes ``--limit-ms`` (or ``--max-games``).

The clients run on the same machine as the server and take CPU from it, so the
capacity is a lower bound for a server with its own machine. Run:
``nice -n 5 .venv/bin/python benchmarks/bench_web.py [latency|reply|capacity|both]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from ports import free_port  # this folder is on the path

CHROMIUM = "/usr/bin/chromium-headless-shell"
PLAYERS = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}


@contextmanager
def server(db: Path) -> Iterator[str]:
    """``adjacency play`` in a subprocess on a free loopback port; yields its URL."""
    port = free_port()
    command = [sys.executable, "-m", "adjacency", "play", "--no-browser", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if "ready" not in line:
            raise RuntimeError(f"the server did not start: {line}")
        yield url
    finally:
        process.terminate()
        process.wait(10)


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


# ------------------------------------------------------------------- latency

WATCH_MOVES = """() => {
  window.__arrivals = {};
  const list = document.querySelector('#moves');
  const note = () => {
    const n = list.querySelectorAll('button').length;
    if (!(n in window.__arrivals)) window.__arrivals[n] = Date.now();
  };
  new MutationObserver(note).observe(list, { childList: true, subtree: true });
}"""

CLICK = """(square) => {
  const t = Date.now();
  document.querySelector(`[data-square="${square}"]`).click();
  return t;
}"""


def latency(url: str, moves: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    samples: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        while len(samples) < moves:
            with httpx.Client(base_url=url) as client:
                body = {**PLAYERS, "rows": 8, "cols": 8, "rounds": 28}
                made = client.post("/api/invites", json=body).json()
            game_id, tokens = made["game"]["id"], made["tokens"]
            pages = {}
            for color in ("x", "o"):
                page = browser.new_context().new_page()
                page.goto(f"{url}/?game={game_id}#seat={tokens[color]}")
                page.wait_for_selector("#board .sq")
                page.evaluate(WATCH_MOVES)
                pages[color] = page
            with httpx.Client(base_url=url) as reader:
                state = reader.get(f"/api/games/{game_id}").json()
                ply = 0
                while state["status"] == "playing" and len(samples) < moves:
                    mover, other = pages[state["turn"]], pages["o" if state["turn"] == "x" else "x"]
                    square = sorted(state["preview"])[0]
                    sent = mover.evaluate(CLICK, square)
                    ply += 1
                    other.wait_for_function(f"window.__arrivals[{ply}] !== undefined")
                    mover.wait_for_function(f"window.__arrivals[{ply}] !== undefined")
                    shown = other.evaluate(f"window.__arrivals[{ply}]")
                    samples.append(float(shown - sent))
                    state = reader.get(f"/api/games/{game_id}").json()
            for page in pages.values():
                page.context.close()
        browser.close()
    return samples


# --------------------------------------------------------------------- reply

SPEEDS = ("normal", "fast", "none")
"""The page's animation speeds (js/motion.js), each measured on its own page."""

CLICK_FOR_REPLY = """(square) => new Promise((resolve) => {
  const board = document.querySelector('#board');
  const found = {};
  const earlier = board.querySelector('.sq.last'); // the reply before: not this one
  const before = earlier ? earlier.dataset.square : null;
  const sent = performance.now();
  const check = () => {
    const own = board.querySelector(`[data-square="${square}"] svg.piece:not(.ghost)`);
    if (own && found.own === undefined) {
      found.own = performance.now() - sent;
      requestAnimationFrame(() => { found.frame = performance.now() - sent; done(); });
    }
    const last = board.querySelector('.sq.last');
    if (found.reply === undefined && last && last.dataset.square !== square
        && last.dataset.square !== before && last.querySelector('svg.piece')) {
      found.reply = performance.now() - sent;
      done();
    }
  };
  const done = () => {
    if (found.frame === undefined || found.reply === undefined) return;
    observer.disconnect();
    resolve(found);
  };
  const observer = new MutationObserver(check);
  observer.observe(board, { attributes: true, childList: true, subtree: true });
  board.querySelector(`[data-square="${square}"]`).click();
  check();
})"""
"""Click a square and time (ms) from the click to: its own piece in the board (``own``),
the first frame after that (``frame``: the piece is painted in it), and the bot's reply
drawn (``reply``: another square marked as the last move, with its piece)."""


def reply(url: str, moves: int) -> dict[str, dict[str, list[float]]]:
    """Per animation speed, click to your own piece drawn, to the frame that paints it
    and to the bot's reply on the board: {speed: {"own", "frame", "reply": [ms]}}."""
    from playwright.sync_api import sync_playwright

    found: dict[str, dict[str, list[float]]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        for speed in SPEEDS:
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            context.add_init_script(f"localStorage.setItem('adjacency.animation', '{speed}')")
            page = context.new_page()
            samples: dict[str, list[float]] = {"own": [], "frame": [], "reply": []}
            while len(samples["reply"]) < moves:
                with httpx.Client(base_url=url) as client:
                    body = {
                        "x": {"kind": "human", "name": "Ann"},
                        "o": {"kind": "bot", "spec": "greedy"},
                        "rows": 8,
                        "cols": 8,
                        "rounds": 28,
                    }
                    made = client.post("/api/games", json=body)
                    game = made.json()
                    cookies = dict(made.cookies)
                context.add_cookies(
                    [{"name": k, "value": v, "url": url} for k, v in cookies.items()]
                )
                page.goto(f"{url}/?game={game['id']}")
                page.wait_for_selector("#board .sq")
                page.evaluate("document.querySelector('#dlg-new[open]')?.close()")
                state = game
                while state["status"] == "playing" and len(samples["reply"]) < moves:
                    page.wait_for_selector("#board:not(.locked)")
                    square = sorted(state["preview"])[0]
                    times = page.evaluate(CLICK_FOR_REPLY, square)
                    for key, values in samples.items():
                        values.append(float(times[key]))
                    with httpx.Client(base_url=url, cookies=cookies) as reader:
                        state = reader.get(f"/api/games/{game['id']}").json()
            found[speed] = samples
            context.close()
        browser.close()
    return found


# ------------------------------------------------------------------ capacity


class Game:
    """One game between two client browsers and a watcher, each on its event stream."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clients = {who: httpx.AsyncClient(base_url=url, timeout=30) for who in ("x", "o", "w")}
        self.seen: dict[str, dict[int, float]] = {who: {} for who in self.clients}
        self.state: dict[str, Any] | None = None
        self.sent: dict[int, float] = {}
        self.id = ""

    async def start(self) -> None:
        body = {**PLAYERS, "rows": 8, "cols": 8, "rounds": 28}
        made = (await self.clients["x"].post("/api/invites", json=body)).json()
        self.id = made["game"]["id"]
        for color in ("x", "o"):
            headers = {"X-Seat-Token": made["tokens"][color]}
            await self.clients[color].post(f"/api/games/{self.id}/seats", headers=headers)

    async def listen(self, who: str) -> None:
        client = self.clients[who]
        async with client.stream("GET", f"/api/games/{self.id}/events") as stream:
            event = ""
            async for line in stream.aiter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "state":
                    state = json.loads(line[6:])
                    self.seen[who].setdefault(len(state["moves"]), time.perf_counter())
                    if who == "w":
                        self.state = state

    async def play(self, interval: float, until: float) -> None:
        while time.perf_counter() < until:
            await asyncio.sleep(interval)
            state = self.state
            if state is None or state["status"] != "playing" or not state["preview"]:
                continue
            ply = len(state["moves"]) + 1
            if ply in self.sent:
                continue
            self.sent[ply] = time.perf_counter()
            square = sorted(state["preview"])[0]
            await self.clients[state["turn"]].post(
                f"/api/games/{self.id}/moves", json={"square": square}
            )

    def latencies(self) -> list[float]:
        out = []
        for ply, sent in self.sent.items():
            mover = "x" if ply % 2 else "o"
            opponent = "o" if mover == "x" else "x"
            for who in (opponent, "w"):
                if ply in self.seen[who]:
                    out.append((self.seen[who][ply] - sent) * 1000)
        return out

    async def close(self) -> None:
        for client in self.clients.values():
            await client.aclose()


async def level(url: str, games: int, seconds: float, interval: float) -> list[float]:
    playing = [Game(url) for _ in range(games)]
    await asyncio.gather(*(g.start() for g in playing))
    listeners = [asyncio.create_task(g.listen(w)) for g in playing for w in ("x", "o", "w")]
    await asyncio.sleep(1.0)
    until = time.perf_counter() + seconds
    await asyncio.gather(*(g.play(interval, until) for g in playing))
    await asyncio.sleep(1.0)
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    samples = [s for g in playing for s in g.latencies()]
    await asyncio.gather(*(g.close() for g in playing))
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "what", nargs="?", default="both", choices=("latency", "reply", "capacity", "both")
    )
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument(
        "--interval", type=float, default=1.0, help="seconds between moves per game"
    )
    parser.add_argument("--seconds", type=float, default=12.0, help="measured seconds per level")
    parser.add_argument("--limit-ms", type=float, default=200.0)
    parser.add_argument("--max-games", type=int, default=160)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "games.sqlite3") as url:
        if args.what in ("latency", "both"):
            samples = latency(url, args.moves)
            median, p95 = percentiles(samples)
            print(
                f"latency between two browsers over {len(samples)} moves: "
                f"median {median:.0f} ms, p95 {p95:.0f} ms",
                flush=True,
            )
        if args.what == "reply":
            what = {
                "own": "your own piece drawn",
                "frame": "the frame that paints it",
                "reply": "the bot's reply on the board",
            }
            for speed, found in reply(url, args.moves).items():
                for key, samples in found.items():
                    median, p95 = percentiles(samples)
                    print(
                        f"click to {what[key]}, animation {speed}, over {len(samples)} "
                        f"moves: median {median:.1f} ms, p95 {p95:.1f} ms",
                        flush=True,
                    )
        if args.what in ("capacity", "both"):
            games = 5
            while games <= args.max_games:
                samples = asyncio.run(level(url, games, args.seconds, args.interval))
                median, p95 = percentiles(samples)
                print(
                    f"{games:4d} games ({3 * games} streams, {games / args.interval:.0f} "
                    f"moves/s): {len(samples)} deliveries, median {median:.0f} ms, "
                    f"p95 {p95:.0f} ms",
                    flush=True,
                )
                if p95 > args.limit_ms:
                    break
                games = games * 2 if games < 40 else games + 40
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    raise SystemExit(main())
