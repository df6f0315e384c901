"""The teacher's page in a real browser against a real league server: an event created
with its own clock (the field offers the league's), paused and resumed by its buttons,
finishes with every game played on its clock; axe-core finds nothing serious.

The event is held running by the server's reconnection grace, which the test holds
through the clock of the league's waits by absence (:mod:`adjacency.league.play.machine_time`): the
machine reads as stalled all along until the page has paused the event, so however slow
the page is at any load, the grace outlasts it. Held so, the grace needs none of the
server's own 10 s: the test makes it :data:`GRACE`, which ends 2 s after it lets go."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from adjacency.league.play import presence
from adjacency.league.play import scheduler as scheduler_module
from adjacency.league.play.machine_time import MachineClock
from browser_helpers import UNDER_TEST, axe_violations, goto
from league_helpers import ADMIN, add_member, make_league, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

MEMBERS = ("h1", "h2", "absent")
GRACE = 2.0
"""The server's reconnection grace in this test (seconds of unstalled machine time): the
held stall, not its length, keeps the event running until the page has paused it."""


def signed_in(browser: Any, url: str, errors: list[str]) -> tuple[Any, Any]:
    """A phone-sized tab on the teacher's page, the admin token typed in."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, **UNDER_TEST)
    context.set_default_timeout(50_000)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    goto(page, url + "/teacher")
    page.locator("#token").focus()
    page.keyboard.type(ADMIN)
    page.keyboard.press("Enter")
    expect(page.locator("#admin")).to_be_visible()
    return context, page


class HeldStall:
    """The machine's stalled seconds as the test sets them: growing with the wall time
    while held (no unstalled time passes, so no wait by absence ends), then no more."""

    def __init__(self) -> None:
        self.since = time.monotonic()
        self.released: float | None = None
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return (self.released or time.monotonic()) - self.since

    def release(self) -> None:
        with self._lock:
            self.released = time.monotonic()


def test_an_event_is_paused_resumed_and_played_on_its_own_clock_from_the_page(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``absent`` never connects: its games wait for the server's reconnect grace, held
    by the test until the page has paused the event, so the event is surely still running
    when the page pauses it; then each of its games is a loss on time on the event's
    clock."""
    stall = HeldStall()
    monkeypatch.setattr(presence, "MachineClock", lambda: MachineClock(stalled=stall))
    monkeypatch.setattr(scheduler_module, "RECONNECT_GRACE", GRACE)
    db = tmp_path / "league.db"
    make_league(db, base=1.0, increment=0.0)
    for name in ("h1", "h2"):
        add_member(db, name, "house", "random")
    add_member(db, "absent")
    errors: list[str] = []
    with thread_server(db) as url:
        context, page = signed_in(browser, url, errors)
        expect(page.locator("#event-clock")).to_have_value("1+0")  # the league's clock
        page.fill("#event-name", "friday")
        page.select_option("#event-format", "round-robin")
        for name in MEMBERS:
            page.get_by_label(name, exact=True).check()
        page.fill("#event-clock", "2+0.5")
        page.click("#event-form button[type=submit]")
        expect(page.locator("#status")).to_have_text("Event friday is created.")
        friday = page.locator('#event-list li[data-event="friday"]')
        expect(friday).to_contain_text("round robin, 3 rounds, scheduled, 2+0.5")
        friday.get_by_role("button", name="Start now").click()
        friday.get_by_role("button", name="Pause").click()
        expect(page.locator("#status")).to_have_text(
            "Event friday is paused: no new game of it starts."
        )
        expect(friday).to_contain_text("3 rounds, paused")
        stall.release()  # the grace ends GRACE s on: absent's games are lost at once then
        assert axe_violations(page) == []
        friday.get_by_role("button", name="Resume").click()
        expect(page.locator("#status")).to_have_text("Event friday goes on.")
        expect(friday).to_contain_text("finished", timeout=55_000)
        context.close()
    assert errors == []
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("friday")
        games = [store.games.game(g) for g in events.game_ids(event.id)]
    assert event.clock == (2.0, 0.5) and not event.paused
    assert len(games) == 6
    assert all(g is not None and '[TimeControl "2+0.5"]' in (g.record or "") for g in games)
