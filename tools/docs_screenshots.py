"""Make the screenshots that README.md and docs/web.md show: the play page, its dark
theme, bots playing each other, the rules page and the game list.

    .venv/bin/python tools/docs_screenshots.py            # rewrites docs/screenshots/
    .venv/bin/python tools/docs_screenshots.py --out DIR  # anywhere else

It serves ``adjacency play``'s app on a free port of 127.0.0.1 (a throwaway database),
drives Debian's Chromium headless shell (/usr/bin/chromium-headless-shell, as the
browser tests do) through Playwright, and ends both. This is a tool, not a test:
pictures assert nothing, so they are made on demand (tests/docs/test_screenshots_tool.py
checks the tool still works).
The browser tests themselves take the screenshots of what they check (the phone
layout, the analysis board) into a temporary folder, or into docs/screenshots/ with
``ADJACENCY_SCREENSHOTS=1``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import secrets
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium-headless-shell"
ARGS = [
    "--font-render-hinting=slight",  # text hinted as the full browser hints it
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
]
CLIENT = secrets.token_urlsafe(16)
SHOTS = ("game.png", "dark.png", "bot-vs-bot.png", "rules.png", "games.png")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serve(db: Path) -> Iterator[str]:
    """The web app served by uvicorn in a thread; yields its base URL."""
    import uvicorn

    from adjacency.web.app import create_app

    port = free_port()
    config = uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        until(lambda: server.started, "the server to start")
        yield url
    finally:
        server.should_exit = True
        thread.join(10)


def until(predicate: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise SystemExit(f"docs_screenshots: gave up waiting for {what}")
        time.sleep(0.05)
    return value


class Api:
    """The app's JSON API as the page's client (the cookie that holds the games' seats)."""

    def __init__(self, url: str) -> None:
        from adjacency.web.seats import CLIENT_COOKIE

        self.url = url
        self.cookie = f"{CLIENT_COOKIE}={CLIENT}"
        self.cookie_name = CLIENT_COOKIE

    def __call__(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Cookie": self.cookie}
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read() or b"null")

    def new_game(self, **settings: Any) -> dict[str, Any]:
        body = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "bot", "level": 2}}
        return dict(self("POST", "/api/games", {**body, **settings}))

    def play(self, game_id: str, squares: tuple[str, ...]) -> None:
        """Play those of ``squares`` still empty, each answered by the bot."""
        path = f"/api/games/{game_id}"
        for square in squares:
            if square in self("GET", path)["preview"]:
                self("POST", f"{path}/moves", {"square": square})
                until(lambda: self("GET", path)["human_to_move"], "the bot's reply")


def shoot(page: Any, out: Path, name: str, full_page: bool = False) -> None:
    page.screenshot(path=str(out / name), full_page=full_page, animations="disabled")
    print(f"wrote {out / name}")


def make(out: Path) -> None:
    """Every screenshot of :data:`SHOTS` into ``out``."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, serve(Path(tmp) / "games.sqlite3") as url:
        api = Api(url)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                context = browser.new_context(viewport={"width": 1280, "height": 860})
                context.add_cookies([{"name": api.cookie_name, "value": CLIENT, "url": url}])
                context.set_default_timeout(90_000)  # bots think on a busy machine too
                screens(context.new_page(), api, url, out)
            finally:
                browser.close()


def screens(page: Any, api: Api, url: str, out: Path) -> None:
    levels = api("GET", "/api/config")["levels"]
    game = api.new_game(rows=8, cols=8, rounds=28)
    api.play(game["id"], ("c3", "d4", "c5", "e2", "f4", "d6", "b5"))
    page.goto(f"{url}/?game={game['id']}")
    page.wait_for_selector("#moves button")
    state = api("GET", f"/api/games/{game['id']}")
    target = max(state["preview"], key=lambda sq: len(state["preview"][sq]))
    page.hover(f'[data-square="{target}"]')
    page.wait_for_selector(".sq.will-flip")
    shoot(page, out, "game.png")
    page.emulate_media(color_scheme="dark")
    page.mouse.move(0, 0)
    shoot(page, out, "dark.png")
    page.emulate_media(color_scheme="light")

    strongest = levels[-1]["number"]
    watch = api.new_game(
        x={"kind": "bot", "level": max(1, strongest - 1)},
        o={"kind": "bot", "level": strongest},
        rows=8,
        cols=8,
        rounds=28,
        time=1,
    )
    page.goto(f"{url}/?game={watch['id']}")
    page.locator("#moves button").nth(2).wait_for()  # three moves (no eval: the page's CSP)
    page.wait_for_selector("#thinking:not([hidden])")
    shoot(page, out, "bot-vs-bot.png")
    api("POST", f"/api/games/{watch['id']}/control", {"action": "pause"})

    page.goto(f"{url}/rules")
    shoot(page, out, "rules.png", full_page=True)
    page.goto(f"{url}/?game={game['id']}")
    # The buttons are wired once the page has its config (a fetch that may end after
    # the load event): a click before that does nothing. The game's moves show after it.
    page.wait_for_selector("#moves button")
    page.click("#btn-games")
    page.wait_for_selector("#games-list table")
    shoot(page, out, "games.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs" / "screenshots", help="folder for the PNGs"
    )
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"docs_screenshots: no Chromium headless shell at {CHROMIUM}", file=sys.stderr)
        return 2
    make(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
