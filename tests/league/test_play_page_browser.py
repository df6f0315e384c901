"""The league's play page in a real browser (Playwright driving Debian's Chromium), as
a person who waited in a bot's queue and then plays: once their game starts the page no
longer says they are in the queue, and when they let their clock run out with the page
open for longer than the server's presence window, the loss says their page was open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from adjacency.league.play.presence import PRESENCE
from browser_helpers import goto, watched_page
from league_helpers import (
    add_member,
    challenge,
    get,
    join,
    make_league,
    request,
    thread_server,
    wait_until,
)

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
CLOCK = PRESENCE + 4.0
"""The league's clock (seconds, no increment): longer than the presence window, so a
page that stopped asking while its game was shown would count as closed."""


def test_a_queued_persons_game_drops_the_queue_line_and_a_flag_says_open(
    browser: Any, tmp_path: Path
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=CLOCK, increment=0.0)
    add_member(db, "house-random", "house", "random")
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        bob = join(url, "bob")
        busy = challenge(url, bob, "house-random").body  # the bot plays bob first
        assert busy["status"] == "started", busy
        context, page = watched_page(browser, errors, TIMEOUT)
        goto(page, url + "/play")
        page.fill("#join-name", "ada")
        page.click("#join button[type=submit]")
        page.click('button[data-opponent="house-random"]')
        said = page.locator("#message")
        sync_api.expect(said).to_contain_text("number 1 in its queue", timeout=TIMEOUT)
        gave_up = request(f"{url}/api/league/games/{busy['game']}/resign", "POST", {}, token=bob)
        assert gave_up.status == 200, gave_up
        panel = page.locator("#game-panel")
        sync_api.expect(panel).to_be_visible(timeout=TIMEOUT)  # ada's game started
        page.locator("#board:not(.locked)").wait_for()  # her turn, on the board
        assert "queue" not in page.locator("#message").inner_text()  # said before: gone
        (game,) = get(f"{url}/api/league/live")
        assert game["x"] == "ada"  # ada moves first and never does: her clock runs out
        sync_api.expect(page.locator("#message")).to_contain_text("Game over", timeout=TIMEOUT)
        context.close()
    with LeagueStore(db) as store:
        ended = wait_until(lambda: store.games.game(game["id"]), 5, "the game's row")
        assert ended.termination == "time forfeit" and ended.plies == 0
        assert ended.detail_code == "clock-page-open", ended.detail
    assert errors == [], errors
