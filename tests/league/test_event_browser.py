"""The event page in a real browser (Playwright driving Debian's Chromium): the
crosstable fills in by itself as an event's games end, at a projector's size and at
a phone's; the front page lists the event; the downloads are offered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.events.event_pairing import round_robin
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


def test_a_forfeit_is_scored_and_marked_unplayed_on_the_page(browser: Any, tmp_path: Path) -> None:
    """r3 withdrawn after round 1 was paired with its pair not started: the page's
    crosstable shows the forfeit's points marked ``ff`` (its title says why), and the
    standings count it in their unplayed column, not in the games."""
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for name in (*MEMBERS, "r4"):
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        event = store.events.create("friday", "round-robin", None, [*MEMBERS, "r4"])
        store.events.start("friday")
        members = store.events.members(event.id)
        boards = round_robin(members)[0]
        openings = len(store.meta.settings().openings)
        assert store.events.add_round(event.id, 0, boards, openings, set())
        store.events.withdraw("friday", "r3")  # before the server starts any game of it
        r3 = store.members.member_named("r3").id
        (board,) = [b for b in boards if r3 in (b.a, b.b)]
        other_id = board.a if board.b == r3 else board.b
        assert other_id is not None
        other = store.members.member(other_id).name
    with thread_server(db, house_games=False) as url:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        goto(page, f"{url}/event/friday")
        sync_api.expect(page.locator("#summary")).to_contain_text("finished")
        table = get(f"{url}/api/league/events/friday")
        names = table["crosstable"]["names"]
        i, j = names.index(other), names.index("r3")
        won = page.locator(f'#crosstable td[data-cell="{i}-{j}"]')
        lost = page.locator(f'#crosstable td[data-cell="{j}-{i}"]')
        sync_api.expect(won).to_have_text("2–0 ff")
        sync_api.expect(lost).to_have_text("0–2 ff")
        assert "never played" in (won.get_attribute("title") or "")
        sync_api.expect(page.locator("#crosstable-legend")).to_contain_text("ff: a game never")
        headers = page.locator("#standings th").all_inner_texts()
        column = headers.index("unplayed")
        for row in page.locator("#standings tbody tr").all():
            cells = row.locator("td").all_inner_texts()
            name = cells[1].split()[0]
            assert cells[column] == ("2" if name in ("r3", other) else "0")
            assert cells[headers.index("games")] == ("0" if name == "r3" else "4")
        context.close()
