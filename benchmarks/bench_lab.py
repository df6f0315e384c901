"""The Lab tab's game tree: time from request to JSON and to the drawn tree, the payload's
size, and the page's memory with the largest tree allowed.

Starts the web app in a real uvicorn server on 127.0.0.1 (a temporary database),
then asks ``GET /api/lab/tree`` for a depth-3 alpha-beta tree (and optionally
other depths and searches) on the 8x8 start and on a midgame position, ``--repeat``
times each, and prints the median and the extremes of the wall-clock time from
sending the request to having the parsed JSON, the payload's bytes, the tree's
nodes and whether the node cap cut it, with the load average before and after.

In the browser (Debian's headless Chromium through Playwright, as the browser tests;
``--no-browser`` skips it), for the same positions and searches: the time from the
click on *Search* in the Lab page to the tree's first level drawn (its nodes in the
page, and the next animation frame after that), a fresh page each time; then the
page's JavaScript heap (Chromium's ``Performance.getMetrics``, ``JSHeapUsedSize``,
after a forced garbage collection) on the 8x8 start before any search, with the
largest tree the lab allows (minimax to depth 4, cut at the node cap of 20,000
nodes) loaded, and with that tree expanded as far as the page draws.

    python benchmarks/bench_lab.py --repeat 5
    python benchmarks/bench_lab.py --depth 4 --algorithm minimax --no-browser
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import uvicorn
from ports import free_port  # this folder is on the path

from adjacency import Position
from adjacency.lab.limits import NODE_CAP
from adjacency.web.app import create_app

CHROMIUM = "/usr/bin/chromium-headless-shell"

MIDGAME_MOVES = ("c3", "f6", "d3", "e6", "c4", "f5", "e3", "d6", "b3", "g6")


def positions() -> dict[str, Position]:
    """The 8x8 start (28 rounds) and a midgame position ten plies in."""
    start = Position.start(8, 8, rounds=28)
    midgame = start
    for square in MIDGAME_MOVES:
        midgame = midgame.play(square)
    return {"start": start, "midgame": midgame}


CLICK_AND_WATCH = """() => {
  const view = document.querySelector('#tree-view');
  const drawn = () => view.querySelector("g.node[data-ply='1']") !== null;
  window.__shown = undefined;
  window.__painted = undefined;
  new MutationObserver((changes, observer) => {
    if (!drawn()) return;
    observer.disconnect();
    window.__shown = performance.now();
    requestAnimationFrame(() => { window.__painted = performance.now(); });
  }).observe(view, { childList: true, subtree: true });
  const started = performance.now();
  document.querySelector('#tree-form button[type=submit]').click();
  return started;
}"""


def draw_tree(page: Any, url: str, fen: str, depth: int, algorithm: str) -> tuple[float, float]:
    """Open the Lab on ``fen``, search, and return the seconds from the click on Search to
    the tree's first level in the page and to the next animation frame after it."""
    page.goto(f"{url}/lab?fen={quote(fen)}")
    page.wait_for_selector("#lab-board svg")
    page.locator("#tree-form select[name=algorithm]").select_option(algorithm)
    page.locator("#tree-form select[name=depth]").select_option(str(depth))
    started = page.evaluate(CLICK_AND_WATCH)
    page.wait_for_function("() => window.__painted !== undefined", timeout=120_000)
    shown, painted = page.evaluate("() => [window.__shown, window.__painted]")
    return (shown - started) / 1000, (painted - started) / 1000


def heap_bytes(cdp: Any) -> tuple[int, int]:
    """The page's JavaScript heap in use after a garbage collection, and its DOM nodes."""
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return int(metrics["JSHeapUsedSize"]), int(metrics["Nodes"])


def browser_figures(url: str, repeat: int, depth: int, algorithm: str) -> None:
    """Print the drawn-tree times and the heap with the largest tree (module docstring)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        try:
            for name, position in positions().items():
                shown: list[float] = []
                painted: list[float] = []
                for _ in range(repeat):
                    context = browser.new_context(
                        viewport={"width": 1366, "height": 768}, bypass_csp=True
                    )
                    first, frame = draw_tree(
                        context.new_page(), url, position.fen(), depth, algorithm
                    )
                    context.close()
                    shown.append(first)
                    painted.append(frame)
                print(
                    f"{name:8} {algorithm} depth {depth} in the page: click to tree drawn median "
                    f"{statistics.median(shown) * 1000:.0f} ms (min {min(shown) * 1000:.0f}, "
                    f"max {max(shown) * 1000:.0f}), to the next frame "
                    f"{statistics.median(painted) * 1000:.0f} ms, over {repeat}"
                )
            context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            start = positions()["start"]
            page.goto(f"{url}/lab?fen={quote(start.fen())}")
            page.wait_for_selector("#lab-board svg")
            before, nodes_before = heap_bytes(cdp)
            draw_tree(page, url, start.fen(), 4, "minimax")
            loaded, nodes_loaded = heap_bytes(cdp)
            summary = page.locator("#tree-summary").inner_text()
            page.locator("#tree-expand").click()
            page.wait_for_selector("#tree-view g.node[data-ply='3']")
            expanded, nodes_expanded = heap_bytes(cdp)
            drawn = page.locator("#tree-view g.node").count()
            context.close()
            mib = 1024 * 1024
            print(
                f"JS heap, 8x8 start: {before / mib:.1f} MiB before any search "
                f"({nodes_before} DOM nodes); {loaded / mib:.1f} MiB with the minimax depth-4 "
                f"tree at the node cap ({NODE_CAP}) loaded ({nodes_loaded} DOM nodes); "
                f"{expanded / mib:.1f} MiB expanded ({drawn} tree nodes drawn, "
                f"{nodes_expanded} DOM nodes)"
            )
            print(f"  page says: {summary}")
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--algorithm", default="alphabeta", choices=("alphabeta", "minimax"))
    parser.add_argument(
        "--no-browser", action="store_true", help="only the HTTP figures (no Chromium)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "games.sqlite3")
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            print(f"load average before: {os.getloadavg()[0]:.2f}")
            for name, position in positions().items():
                url = (
                    f"http://127.0.0.1:{port}/api/lab/tree?fen={quote(position.fen())}"
                    f"&depth={args.depth}&algorithm={args.algorithm}"
                )
                times: list[float] = []
                size = 0
                data: dict[str, object] = {}
                for _ in range(args.repeat):
                    started = time.perf_counter()
                    with urllib.request.urlopen(url, timeout=120) as response:
                        body = response.read()
                    data = json.loads(body)
                    times.append(time.perf_counter() - started)
                    size = len(body)
                nodes = data["nodes"]
                assert isinstance(nodes, list)
                print(
                    f"{name:8} {args.algorithm} depth {args.depth}: median "
                    f"{statistics.median(times) * 1000:.0f} ms (min {min(times) * 1000:.0f}, "
                    f"max {max(times) * 1000:.0f}) over {args.repeat}; "
                    f"payload {size / 1024:.1f} KiB; "
                    f"{len(nodes)} tree nodes, {data['search_nodes']} positions visited, "
                    f"complete {data['complete']}; search alone {data['seconds'] * 1000:.0f} ms"
                )
            if not args.no_browser:
                browser_figures(f"http://127.0.0.1:{port}", args.repeat, args.depth, args.algorithm)
            print(f"load average after: {os.getloadavg()[0]:.2f}")
        finally:
            server.should_exit = True
            thread.join(10)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
