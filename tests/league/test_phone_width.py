"""The league's pages at a phone's width (390x844), in English and in Indonesian, in
Chromium, with real content (an event whose round robin has finished, a person logged in
on the people's page, a finished game on the watch page): none makes the page scroll
sideways, the event's standings put every header over its own column, and axe-core finds
nothing, of any impact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import EVERY_IMPACT, UNDER_TEST, axe_violations, goto
from league_helpers import add_member, get, make_league, thread_server, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000
PHONE = {"width": 390, "height": 844}
SLACK = 1
"""A pixel of rounding: ``scrollWidth`` may exceed the viewport by a sub-pixel border."""
MEMBERS = ("r1", "r2", "r3", "r4")


def page_width(page: Any) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def misplaced_headers(page: Any, table: str) -> list[str]:
    """The headers of ``table`` shown over a column other than their own: each shown
    header must span the same horizontal range as the shown cell of its column in the
    first body row of cells (and there must be as many of one as of the other)."""
    return list(
        page.evaluate(
            """(table) => {
              const shown = (cells) =>
                [...cells].filter((c) => c.getBoundingClientRect().width > 0);
              const heads = shown(document.querySelectorAll(`${table} thead th`));
              const row = [...document.querySelectorAll(`${table} tbody tr`)]
                .find((r) => r.children.length > 1);
              const cells = shown(row.children);
              if (heads.length !== cells.length) {
                return [`${heads.length} headers, ${cells.length} cells`];
              }
              return heads.filter((h, i) => {
                const a = h.getBoundingClientRect(), b = cells[i].getBoundingClientRect();
                return Math.abs(a.left - b.left) > 1 || Math.abs(a.right - b.right) > 1;
              }).map((h) => h.textContent);
            }""",
            table,
        )
    )


def unreachable_scrolling_boxes(page: Any) -> list[str]:
    """The boxes now scrolling sideways that a keyboard cannot reach (not focusable) or a
    screen reader cannot name (no aria-label or aria-labelledby), by their classes."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('body *')].filter((e) =>
                 ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
                 && e.scrollWidth > e.clientWidth + 1
                 && (e.tabIndex < 0 || !(e.ariaLabel || e.getAttribute('aria-labelledby'))))
               .map((e) => e.className)"""
        )
    )


@pytest.mark.parametrize("locale", ["en-GB", "id-ID"])
def test_the_league_pages_fit_a_phone(browser: Any, tmp_path: Path, locale: str) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for name in MEMBERS:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(MEMBERS))
    with thread_server(db, house_games=False) as url:
        with LeagueStore(db) as store:  # what `adjacency league event start` does
            store.events.start("friday")
        wait_until(
            lambda: get(f"{url}/api/league/events/friday")["event"]["status"] == "finished",
            60,
            "the event to finish",
        )
        context = browser.new_context(viewport=PHONE, locale=locale, **UNDER_TEST)
        context.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
        widths: dict[str, int] = {}
        serious: dict[str, Any] = {}

        def measure(name: str) -> None:
            widths[name] = page_width(page)
            serious[name] = axe_violations(page, EVERY_IMPACT)
            assert unreachable_scrolling_boxes(page) == [], name

        goto(page, url + "/")
        expect(page.locator("#standings tr[data-name=r1]")).to_be_visible()
        measure("leaderboard")
        assert misplaced_headers(page, "#standings") == []

        goto(page, url + "/event/friday")
        expect(page.locator("#crosstable td.filled")).to_have_count(len(MEMBERS) * 3)
        expect(page.locator("#standings tbody tr")).to_have_count(len(MEMBERS))
        measure("event")
        assert misplaced_headers(page, "#standings") == []
        watch = page.locator('#crosstable td[data-cell="0-1"] a').get_attribute("href")
        assert watch is not None and watch.startswith("/watch/")

        goto(page, url + "/bot/r1")
        expect(page.locator("#summary")).not_to_be_empty()
        measure("member")

        goto(page, url + "/play")
        page.fill("#join-name", "ada")
        page.click("#join button[type=submit]")
        expect(page.locator("button[data-opponent=r1]")).to_be_visible()
        measure("people")

        goto(page, url + watch)
        expect(page.locator("#moves li").first).to_be_visible()
        expect(page.locator("#board svg.piece").first).to_be_visible()
        measure("watch")

        context.close()
    wide = {name: width for name, width in widths.items() if width > PHONE["width"] + SLACK}
    assert wide == {}, widths
    assert {name: found for name, found in serious.items() if found} == {}
    assert errors == [], errors
