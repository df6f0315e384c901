"""The event page in a real browser (Playwright driving Debian's Chromium): the
crosstable fills in by itself as an event's games end, at a projector's size and at
a phone's; the front page lists the event; the downloads are offered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import goto
from league_helpers import add_member, get, make_league, thread_server

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
MEMBERS = ("r1", "r2", "r3")


def points(value: float) -> str:
    """Points as the event page writes them: whole, with a half as "½" ("1½", "½")."""
    whole = int(value)
    half = "½" if value - whole >= 0.5 else ""
    return f"{whole}{half}" if whole or not half else half


@pytest.mark.parametrize("viewport", [(1366, 768), (390, 844)])
def test_the_crosstable_fills_in_as_games_end(
    browser: Any, tmp_path: Path, viewport: tuple[int, int]
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for name in MEMBERS:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(MEMBERS))
    with thread_server(db, house_games=False) as url:
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        context.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
        goto(page, url + "/")
        sync_api.expect(page.locator("#events a")).to_have_text("friday")
        page.click("#events a")
        sync_api.expect(page.locator("#summary")).to_contain_text("scheduled")
        cells = page.locator("#crosstable td[data-cell]")
        sync_api.expect(cells).to_have_count(6)
        assert page.locator("#crosstable td.filled").count() == 0  # nothing played yet
        sync_api.expect(page.locator("#next li")).to_have_count(2)  # r1-r2 ... and a bye

        with LeagueStore(db) as store:  # what `adjacency league event start` does
            store.events.start("friday")
        sync_api.expect(page.locator("#summary")).to_contain_text("finished")
        sync_api.expect(page.locator("#crosstable td.filled")).to_have_count(6)
        table = get(f"{url}/api/league/events/friday")
        for i, row in enumerate(table["crosstable"]["cells"]):  # the page shows the table
            for j, cell in enumerate(row):
                if i != j:
                    shown = page.locator(f'#crosstable td[data-cell="{i}-{j}"]').inner_text()
                    assert cell[1] == 2 and shown == f"{points(cell[0])}–{points(2 - cell[0])}"
        # the cells' notation is told under the table, with no "1/2" that reads as a half
        sync_api.expect(page.locator("#crosstable-legend")).to_contain_text("a draw ½")
        assert "/" not in page.locator("#crosstable").inner_text()
        # a cell links to its pair's last game
        href = page.locator('#crosstable td[data-cell="0-1"] a').get_attribute("href")
        assert href is not None and href.startswith("/watch/")
        links = page.locator("#downloads a")
        sync_api.expect(links).to_have_count(4)
        csv_text = page.request.get(url + links.first.get_attribute("href")).text()
        assert csv_text.startswith("rank,name,points")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport[0]  # the page itself never scrolls sideways
        assert not errors, errors
        context.close()
