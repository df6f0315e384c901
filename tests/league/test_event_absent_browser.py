"""The event page's crosstable in a real browser (Playwright driving Debian's Chromium)
marks the games a team's absence decided: two teams that were both absent both lost,
"0–0 abs" on both sides of their cell (not a 1–1 split), the mark explained in the
legend and on the cell; the teacher's page names both as paused for their absence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.event_runner import EventRunner
from adjacency.league.store import LeagueStore
from adjacency.serving.details import ended
from browser_helpers import goto, teacher_page, watched_page
from league_helpers import ADMIN, add_member, make_league, thread_server

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000


def test_the_crosstable_marks_a_double_absence(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("red", "ghost", "shade"):
        add_member(db, name)
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, ["red", "ghost", "shade"])
        event = store.events.start("cup")
        EventRunner(store).plan(set())  # pairs round 1: ghost-shade, red's bye
        board = next(b for b in store.events.boards(event.id) if b.b is not None)
        assert board.pair_id is not None and board.b is not None
        a, b = board.a, board.b
        names = {m: store.members.member(m).name for m in (a, b)}
        for leg, (x, o) in enumerate(((a, b), (b, a))):
            game = store.games.start_game(x, o, "6/6/6/6/6/6 x 4", board.pair_id, leg)
            store.games.lose_both(game, ended("absent-both", x=names[x], o=names[o]), "")
        store.events.pause("cup")  # held here: nothing more is played
    errors: list[str] = []
    with thread_server(db) as url:
        context, page = watched_page(browser, errors, TIMEOUT)
        goto(page, f"{url}/event/cup")
        marked = page.locator("#crosstable td.filled")
        sync_api.expect(marked).to_have_count(2)
        sync_api.expect(marked).to_have_text(["0–0 abs", "0–0 abs"])
        assert "absence" in (marked.first.get_attribute("title") or "")
        sync_api.expect(page.locator("#crosstable-legend")).to_contain_text("abs: a game")
        context.close()
        # the teacher's page names the teams paused for their absence
        context, page = teacher_page(browser, url, ADMIN, errors, TIMEOUT)
        paused = page.locator("#absent-cup")
        sync_api.expect(paused).to_contain_text("Paused for their absence", timeout=TIMEOUT)
        assert {"ghost", "shade"} <= set(paused.inner_text().split(": ")[-1].split(", "))
        assert "red" not in paused.inner_text().split(": ")[-1]
        context.close()
    assert errors == []
