"""Your own move drawn after a real click, the first after a page load and the rest.

Against a real ``adjacency play`` server on 127.0.0.1 (a subprocess), each of ``--loads``
times a fresh headless Chromium (Playwright, /usr/bin/chromium-headless-shell: nothing of a
browser's start carried from one load to the next) opens a new game against a quick bot
(``greedy``) at an animation speed of the page (js/motion.js: normal, fast, none; sound
on, as a new visitor has it) and plays ``--moves`` moves with Playwright's real mouse
clicks (``locator.click``: the pointer moves, presses and releases). For each move it
reads, in the page, the time from the click's ``pointerdown`` to your own piece in the
board (``drawn``) and to the frame that paints it (``frame``: the next animation frame
after it is drawn). Prints, per speed, the first move after the load and the later moves
apart: their median and 95th percentile, with the load average before and after.

    nice -n 5 .venv/bin/python benchmarks/bench_move_drawn.py --loads 10 --moves 8
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from bench_web import CHROMIUM, server  # this folder is on the path

WATCH = """() => {
  window.__timing = null;
  const board = document.querySelector('#board');
  document.addEventListener('pointerdown', (event) => {
    const square = event.target.closest('[data-square]');
    if (!square) return;
    const name = square.dataset.square, down = performance.now(), found = { name };
    window.__timing = found;
    const check = () => {
      if (found.drawn !== undefined) return;
      if (board.querySelector(`[data-square="${name}"] svg.piece:not(.ghost)`)) {
        found.drawn = performance.now() - down;
        observer.disconnect();
        requestAnimationFrame(() => { found.frame = performance.now() - down; });
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(board, { attributes: true, childList: true, subtree: true });
  }, { capture: true });
}"""
"""Time each click from its pointerdown to its piece drawn and to the frame after."""


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def load_average() -> str:
    with open("/proc/loadavg") as file:
        return file.read().split()[0]


def one_load(playwright: Any, url: str, speed: str, moves: int) -> list[dict[str, float]]:
    """A fresh browser's page on a new game at ``speed``: each move's timings, in order."""
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
    )
    try:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        context.add_init_script(f"localStorage.setItem('adjacency.animation', '{speed}')")
        body = {"x": {"kind": "human"}, "o": {"kind": "bot", "spec": "greedy"}, "rounds": 28}
        made = httpx.post(f"{url}/api/games", json=body, timeout=60)
        game = made.json()
        context.add_cookies([{"name": k, "value": v, "url": url} for k, v in made.cookies.items()])
        page = context.new_page()
        page.goto(f"{url}/?game={game['id']}")
        page.wait_for_selector("#board .sq")
        page.evaluate("document.querySelector('#dlg-new[open]')?.close()")
        page.evaluate(WATCH)
        found = []
        state = game
        for _ in range(moves):
            page.wait_for_selector("#board:not(.locked)")
            square = sorted(state["preview"])[0]
            page.locator(f'#board [data-square="{square}"]').click()
            for _ in range(500):  # polled here: the page's policy forbids evaluated strings
                timing = page.evaluate("window.__timing")
                if timing and timing.get("frame") is not None:
                    break
                page.wait_for_timeout(10)
            found.append(timing)
            page.wait_for_selector(f'#board [data-square="{square}"] svg.piece:not(.ghost)')
            for _ in range(100):  # the bot's reply is in before the next move
                state = httpx.get(
                    f"{url}/api/games/{game['id']}", cookies=made.cookies, timeout=60
                ).json()
                if state["turn"] == "x" or state["status"] != "playing":
                    break
                page.wait_for_timeout(20)
        return found
    finally:
        browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--speeds", default="normal,fast,none")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    before = load_average()
    results: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory() as folder,
        server(Path(folder) / "web.db") as url,
        sync_playwright() as playwright,
    ):
        for speed in args.speeds.split(","):
            runs = [one_load(playwright, url, speed, args.moves) for _ in range(args.loads)]
            figures = {}
            for label, picked in (
                ("first", [r[:1] for r in runs]),
                ("later", [r[1:] for r in runs]),
            ):
                for key in ("drawn", "frame"):
                    values = [move[key] for run in picked for move in run]
                    figures[f"{label} {key}"] = {
                        "n": len(values),
                        "median ms": round(statistics.median(values), 1),
                        "p95 ms": round(percentile(values, 0.95), 1),
                    }
            results[speed] = figures
            print(speed, json.dumps(figures), flush=True)
    print(f"load average before {before}, after {load_average()}")
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
