"""The league's board for people (Playwright driving Debian's Chromium), in English and
Indonesian at 1366x768 and on a 390x844 phone: a person queued for a busy house bot is
told how long the wait may be; when the game starts the queue line is gone, the page
has scrolled the board and both clocks wholly into the window, with the person's side
at the bottom (X: a1 bottom left; playing O, the board turned: a1 top right). axe finds
nothing at any impact, nothing overflows sideways, the console stays clean.

Oracles: the challenge's state as the server answered it (its ``wait`` and
``wait_most`` against the clocks of the game in play), the rules core for a legal move.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from browser_helpers import (
    CASES,
    EVERY_IMPACT,
    SIZES,
    axe_violations,
    goto,
    outside_window,
    sideways,
    watched_page,
)
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
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
BASE = 300.0
"""The league's clock (seconds a side, no increment): no game runs out in a test."""
WORDS = {
    "en-US": ("Expected wait: about", "at most", "queue"),
    "id-ID": ("Perkiraan waktu tunggu: sekitar", "paling lama", "antrean"),
}
"""The wait's words on each page, and the queue's."""
IN_VIEW = """() => [...document.querySelectorAll('#game-panel .board-frame, #clock-x, #clock-o')]
  .every((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.top >= 0
    && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; })"""


def corners(page: Any, state: dict[str, Any]) -> tuple[dict[str, float], dict[str, float]]:
    """The boxes of a1 and of the square across the board from it."""
    far = f"{'abcdefghijklmnop'[state['cols'] - 1]}{state['rows']}"
    boxes = [page.locator(f'#board [data-square="{sq}"]').bounding_box() for sq in ("a1", far)]
    assert None not in boxes, far
    return dict(boxes[0]), dict(boxes[1])


def board_in_view(page: Any) -> None:
    """The board and both clocks wholly in the window, the page not wider than it, axe
    clean at every impact."""
    page.locator("#board .sq").first.wait_for()
    try:
        page.wait_for_function(IN_VIEW, timeout=10_000)
    except sync_api.TimeoutError:
        raise AssertionError(
            outside_window(page, "#game-panel .board-frame, #clock-x, #clock-o")
        ) from None
    assert sideways(page) == 0
    assert axe_violations(page, EVERY_IMPACT) == []


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_the_board_is_in_view_and_turned_for_the_player(
    browser: Any, tmp_path: Path, locale: str, size: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=BASE, increment=0.0)
    add_member(db, "house-random", "house", "random")
    errors: list[str] = []
    about, most, queue = WORDS[locale]
    with thread_server(db, house_games=False) as url:
        bob = join(url, "bob")
        busy = challenge(url, bob, "house-random").body  # the bot plays bob first, bob X
        assert busy["status"] == "started", busy
        game = f"{url}/api/league/games/{busy['game']}"
        move = Position.from_fen(get(game)["fen"]).legal_moves()[0]
        assert request(f"{game}/move", "POST", {"move": move}, token=bob).status == 200
        wait_until(lambda: len(get(game)["moves"]) >= 2, 30, "the house bot's reply")

        context, page = watched_page(browser, errors, TIMEOUT, locale=locale, viewport=SIZES[size])
        goto(page, url + "/play")
        page.fill("#join-name", "ada")
        page.click("#join button[type=submit]")
        with page.expect_response(lambda r: r.url.endswith("/api/league/challenge")) as made:
            page.click('button[data-opponent="house-random"]')
        queued = made.value.json()
        assert queued["status"] == "queued" and queued["position"] == 1, queued
        # The game in play has two plies: an estimate at its pace, under the clocks' bound.
        assert queued["wait"] is not None and 0 <= queued["wait"] <= queued["wait_most"]
        assert queued["wait_most"] <= 2 * BASE, queued
        said = page.locator("#message")
        expect(said).to_contain_text(about)
        expect(said).to_contain_text(most)
        assert sideways(page) == 0
        assert axe_violations(page, EVERY_IMPACT) == []

        assert request(f"{game}/resign", "POST", {}, token=bob).status == 200
        page.locator("#board:not(.locked)").wait_for()  # ada's game, her move (X)
        assert queue not in said.inner_text() and about not in said.inner_text()
        board_in_view(page)
        a1, far = corners(page, get(game))
        assert a1["y"] > far["y"] and a1["x"] < far["x"]  # X's side at the bottom

        page.click("#btn-abort")  # under the board; then the challenge of a person
        page.click("#confirm-yes")
        page.locator("#opponents-panel").wait_for()
        carl = join(url, "carl")
        asked = challenge(url, carl, "ada").body  # carl's first game: carl plays X
        assert asked["status"] == "waiting", asked
        page.click('button[data-accept="carl"]')
        expect(page.locator("#players")).to_contain_text("carl (X)")
        page.locator('#board [data-square="a1"]').wait_for()
        board_in_view(page)
        a1, far = corners(page, get(game))
        assert a1["y"] < far["y"] and a1["x"] > far["x"]  # turned: O's side at the bottom
        context.close()
    assert errors == [], errors
