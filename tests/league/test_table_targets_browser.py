"""The league's tables are easy to tap (Playwright driving Debian's Chromium), in English
and Indonesian, at 1366x768 and on a 390x844 phone: every link and button in a table of
the leaderboard, an event's page (its crosstable and standings) and a member's page is
at least 24 by 24 CSS pixels (WCAG 2.5.8, axe's target-size), axe finds nothing at any
impact, nothing scrolls sideways and the console stays clean.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import CASES, EVERY_IMPACT, SIZES, axe_violations, goto, sideways, watched_page
from league_helpers import add_member, get, make_league, thread_server, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000
MEMBERS = ("r1", "r2", "r3", "r4")
LEAST = 24
"""The least width and height of a target, CSS pixels (WCAG 2.5.8)."""
SMALL_TARGETS = """(least) => [...document.querySelectorAll('table a, table button')]
  .filter((e) => e.getClientRects().length > 0)
  .map((e) => { const r = e.getBoundingClientRect();
    return [e.textContent.trim().slice(0, 20), Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < least || h < least)"""


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_every_target_in_the_league_tables_is_24_pixels(
    browser: Any, tmp_path: Path, locale: str, size: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for name in MEMBERS:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(MEMBERS))
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        with LeagueStore(db) as store:  # what `adjacency league event start` does
            store.events.start("friday")
        wait_until(
            lambda: get(f"{url}/api/league/events/friday")["event"]["status"] == "finished",
            60,
            "the event to finish",
        )
        context, page = watched_page(browser, errors, TIMEOUT, locale=locale, viewport=SIZES[size])
        small: dict[str, Any] = {}
        for name, path, ready in (
            ("leaderboard", "/", "#standings tr[data-name=r1] a"),
            ("event", "/event/friday", "#crosstable td.filled a"),
            ("member", "/bot/r1", "table a"),
        ):
            goto(page, url + path)
            page.locator(ready).first.wait_for()
            small[name] = page.evaluate(SMALL_TARGETS, LEAST)
            assert axe_violations(page, EVERY_IMPACT) == [], name
            assert sideways(page) == 0, name
        context.close()
    assert {name: found for name, found in small.items() if found} == {}
    assert errors == [], errors
